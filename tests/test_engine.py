"""The native engine against the pure-Python reference, and its properties."""

import hashlib
import itertools
import math
import random
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from prefsolve import Deal, solve
from prefsolve._core import (
    ENDINGS4_FORMAT,
    Solver,
    compute_endings4,
    ending4_table,
    ending_table,
    endings4_matches,
    endings_fingerprint,
)
from prefsolve._endings import encode_endings4, load_endings4
from prefsolve.cards import cards_of_mask
from prefsolve.solver import DiscardHints
from prefsolve.strains import STRAINS, trump_of

import reference as ref
from helpers import TRUMPS, hands_text, index, masks
from strategies import ending_deals, endings, seats, strains

SOLVER = Solver(16)


def engine_value(hands, declarer, strain, leader=0, trick=(), talon_card=None, pending=()):
    return SOLVER.value(masks(hands), declarer, trump_of(strain), strain == "misere", leader,
                        [index(c) for c in trick], -1 if talon_card is None else index(talon_card),
                        [index(c) for c in pending])


def play_random_cards(rng, hands, leader, trump, k, led=None):
    """Play k random legal cards of the current trick; returns the trick so far."""
    trick = []
    for i in range(k):
        seat = (leader + i) % 3
        card = rng.choice(ref.legal(hands[seat], led, trump))
        hands[seat].remove(card)
        led = led or ref.suit(card)
        trick.append(card)
    return trick


@pytest.mark.parametrize("cards", [1, 2, 3])
def test_agrees_with_plain_minimax_on_endings(cards):
    rng = random.Random(100 + cards)
    for _ in range(400):
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        for strain in STRAINS:
            expected = ref.solve(hands, declarer, TRUMPS[strain], strain == "misere", leader)
            assert engine_value(hands, declarer, strain, leader) == expected, (hands, declarer, strain, leader)


@pytest.mark.parametrize("cards", [4, 5])
def test_agrees_with_memo_minimax_on_endings(cards):
    rng = random.Random(200 + cards)
    for _ in range(60 if cards == 4 else 25):
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        for strain in STRAINS:
            expected = ref.solve_memo(hands, declarer, TRUMPS[strain], strain == "misere", leader)
            assert engine_value(hands, declarer, strain, leader) == expected, (hands, declarer, strain, leader)


def _ending_of_number(number):
    """The hands of ENDINGS' entry ``number`` (see _core's numbering): k, and
    the counted player's, his left opponent's and right opponent's masks.
    Written from the comment in _core, not from its code."""
    sizes = {1: 20 * 3 * 2, 2: 84 * 15 * 6, 3: 216 * 84 * 20}
    k = 1
    while number >= sizes[k]:
        number -= sizes[k]
        k += 1
    n = 3 * k
    comps = [(a, b, c, n - a - b - c) for a in range(9) for b in range(9) for c in range(9)
             if 0 <= n - a - b - c <= 8]
    colex = {}
    for size in (n, 2 * k):
        subsets = sorted(itertools.combinations(range(size), k), key=lambda s: sorted(s, reverse=True))
        colex[size] = subsets
    per_comp = math.comb(n, k) * math.comb(2 * k, k)
    lens = comps[number // per_comp]
    mine = colex[n][number % per_comp // math.comb(2 * k, k)]
    left = colex[2 * k][number % math.comb(2 * k, k)]
    cards = [8 * x + r for x in range(4) for r in range(lens[x])]
    rest = [c for i, c in enumerate(cards) if i not in mine]
    hands = [sum(1 << cards[i] for i in mine), sum(1 << rest[i] for i in left), 0]
    hands[2] = sum(1 << c for c in cards) & ~hands[0] & ~hands[1]
    return k, hands


def _names(mask):
    return [str(c) for c in cards_of_mask(mask)]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_solved_endings_match_reference(k):
    """ENDINGS (misère and all-pass endings of 1-3 cards each, solved once)
    against the reference: every entry of one and two cards, a sample of
    three, each leader's two bits, the counted player as seat 0, 1 or 2."""
    table = ending_table()
    start = {1: 0, 2: 120, 3: 120 + 7560}[k]
    count = {1: 120, 2: 7560, 3: 362880}[k]
    assert len(table) == 120 + 7560 + 362880
    rng = random.Random(50 + k)
    numbers = range(start, start + count) if k < 3 else rng.sample(range(start, start + count), 700)
    for number in numbers:
        got_k, (mine, left, right) = _ending_of_number(number)
        assert got_k == k
        declarer = number % 3       # the same ending seen from each seat
        hands = [None] * 3
        hands[declarer], hands[(declarer + 1) % 3], hands[(declarer + 2) % 3] = mine, left, right
        names = [_names(h) for h in hands]
        for lead in range(3):
            expected = ref.solve(names, declarer, None, True, (declarer + lead) % 3)
            assert (table[number] >> (2 * lead)) & 3 == expected, (number, names, declarer, lead)


def _ending4_of_number(number):
    """The hands of ENDINGS4's entry ``number``: the counted player's, his
    left opponent's and right opponent's masks, the suits longest first.
    Written from the comments in _core, not from its code."""
    parts = [(a, b, c, 12 - a - b - c) for a in range(9) for b in range(a + 1) for c in range(b + 1)
             if 0 <= 12 - a - b - c <= c]
    assert len(parts) == 27
    lens = parts[number // (495 * 70)]
    colex12 = sorted(itertools.combinations(range(12), 4), key=lambda s: sorted(s, reverse=True))
    colex8 = sorted(itertools.combinations(range(8), 4), key=lambda s: sorted(s, reverse=True))
    mine = colex12[number % (495 * 70) // 70]
    left = colex8[number % 70]
    cards = [8 * x + r for x in range(4) for r in range(lens[x])]
    rest = [c for i, c in enumerate(cards) if i not in mine]
    hands = [sum(1 << cards[i] for i in mine), sum(1 << rest[i] for i in left), 0]
    hands[2] = sum(1 << c for c in cards) & ~hands[0] & ~hands[1]
    return hands


def test_solved_four_card_endings_match_reference():
    """ENDINGS4 (four cards each, shipped in endings4.bin or solved at the
    first misère search): a sample of entries, each leader's value (the
    byte is v0 + 5 v1 + 25 v2), against the reference."""
    table = ending4_table()
    assert len(table) == 27 * 495 * 70
    rng = random.Random(54)
    for number in rng.sample(range(len(table)), 150):
        mine, left, right = _ending4_of_number(number)
        declarer = number % 3
        hands = [None] * 3
        hands[declarer], hands[(declarer + 1) % 3], hands[(declarer + 2) % 3] = mine, left, right
        names = [_names(h) for h in hands]
        for lead in range(3):
            expected = ref.solve_memo(names, declarer, None, True, (declarer + lead) % 3)
            assert table[number] // 5 ** lead % 5 == expected, (number, names, declarer, lead)


def test_shipped_four_card_endings_are_the_engines_own():
    """endings4.bin holds exactly what the engine solves (compute_endings4,
    what it falls back on without the file), with this engine's fingerprint:
    regenerate it with `python -m prefsolve.engine` after changing how
    endings are numbered or solved."""
    shipped = load_endings4(ENDINGS4_FORMAT, 27 * 495 * 70)
    assert shipped is not None, "endings4.bin is missing or does not match this engine's format"
    fingerprint, table = shipped
    assert fingerprint == endings_fingerprint()
    assert table == ending4_table()
    assert compute_endings4() == table
    assert endings4_matches(table)


def _run_with_endings_file(path):
    """In a fresh process with prefsolve._endings.FILE set to ``path``: what
    the loader returns (None or its fingerprint), a misère's value, and the
    SHA-256 of the four-card table the engine then uses."""
    script = (
        "import hashlib, sys; from pathlib import Path; import prefsolve._endings as e\n"
        f"e.FILE = Path({str(path)!r})\n"
        "from prefsolve import _core, Deal, solve\n"
        "found = e.load_endings4(_core.ENDINGS4_FORMAT, 27 * 495 * 70)\n"
        "v = solve(Deal.random(5), 1, strain='misere', talon_mode='ignore').tricks\n"
        "print(None if found is None else found[0], v, hashlib.sha256(_core.ending4_table()).hexdigest())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    found, value, digest = out.split()
    return found, int(value), digest


@pytest.mark.parametrize("kind", ["missing", "fingerprint", "entry out of range", "wrong entries"])
def test_engine_solves_the_four_card_endings_without_a_usable_file(tmp_path, kind):
    """A missing file, or one that passes the loader's checks but not the
    engine's (another engine's fingerprint, an entry that is no value,
    entries that disagree with the engine), only costs time: the engine
    solves the table itself and the values are the same (a fresh process,
    since the table is read once)."""
    table = bytearray(ending4_table())
    fingerprint = endings_fingerprint()
    path = tmp_path / "endings4.bin"
    if kind == "fingerprint":
        fingerprint ^= 1
    elif kind == "entry out of range":
        table[len(table) // 2] = 125
    elif kind == "wrong entries":
        table = bytearray((b + 1) % 125 for b in table)
    if kind != "missing":
        path.write_bytes(encode_endings4(ENDINGS4_FORMAT, fingerprint, bytes(table)))
        assert not (fingerprint == endings_fingerprint() and endings4_matches(bytes(table)))
    found, value, digest = _run_with_endings_file(path)
    assert found == ("None" if kind == "missing" else str(fingerprint))
    assert value == solve(Deal.random(5), 1, strain="misere", leader=0, talon_mode="ignore").tricks
    assert digest == hashlib.sha256(ending4_table()).hexdigest()


def test_the_endings_file_is_read_once_at_the_first_misere_search():
    """prefsolve.engine registers the shipped file's loader with the core at
    import; the core calls it once, at its first misère or all-pass search,
    not at import, not when a solver is made and not for a game (a fresh
    process, since the table is read once)."""
    script = (
        "from prefsolve import _core, _endings, engine\n"
        "calls = []\n"
        "def source(fmt, size):\n"
        "    calls.append((fmt, size))\n"
        "    return _endings.load_endings4(fmt, size)\n"
        "_core.set_endings4_source(source)\n"
        "s = engine.new_solver(1)\n"
        "hands = [0b11, 0b1100, 0b110000]\n"
        "s.value(hands, 0, -1, False, 0)\n"
        "before = len(calls)\n"
        "s.value(hands, 0, -1, True, 0)\n"
        "s.value(hands, 1, -1, True, 0)\n"
        "print(before, calls == [(_core.ENDINGS4_FORMAT, 27 * 495 * 70)])\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "True"]


def test_the_endings_source_must_be_callable():
    from prefsolve import _core
    with pytest.raises(TypeError):
        _core.set_endings4_source(42)


@pytest.mark.parametrize("damage", ["magic", "format", "size", "checksum", "truncated", "garbage"])
def test_a_damaged_endings_file_is_not_read(tmp_path, damage):
    table = ending4_table()
    data = bytearray(encode_endings4(ENDINGS4_FORMAT, endings_fingerprint(), table))
    if damage == "magic":
        data[0:4] = b"XXXX"
    elif damage == "format":
        data[4] += 1
    elif damage == "size":
        data[8] += 1
    elif damage == "checksum":
        data[16] ^= 1
    elif damage == "truncated":
        data = data[:len(data) // 2]
    else:
        data = bytearray(b"not a table")
    path = tmp_path / "endings4.bin"
    path.write_bytes(bytes(data))
    assert load_endings4(ENDINGS4_FORMAT, len(table), path) is None
    path.write_bytes(encode_endings4(ENDINGS4_FORMAT, endings_fingerprint(), table))
    assert load_endings4(ENDINGS4_FORMAT, len(table), path) == (endings_fingerprint(), table)


def test_misere_endings_of_four_cards_match_reference():
    """Four cards each, through the search (read from ENDINGS4), at every
    target."""
    rng = random.Random(44)
    for _ in range(150):
        hands = ref.random_ending(rng, 4)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        expected = ref.solve_memo(hands, declarer, None, True, leader)
        assert engine_value(hands, declarer, "misere", leader) == expected
        for target in range(1, 5):
            assert SOLVER.geq(masks(hands), declarer, -1, True, target, leader) == (expected >= target)


def test_agrees_mid_trick():
    rng = random.Random(7)
    for _ in range(1500):
        cards = rng.randint(1, 4)
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(STRAINS)
        trump = TRUMPS[strain]
        trick = play_random_cards(rng, hands, leader, trump, rng.randint(1, 2))
        expected = ref.solve(hands, declarer, trump, strain == "misere", leader, trick)
        assert engine_value(hands, declarer, strain, leader, trick) == expected, (hands, trick)


def test_table_cards_split_runs():
    # Seat 1 holds SA and SQ; the leader's SK lies on the table between them,
    # so the two are not equivalent: SA wins the trick, SQ loses it.
    hands = [["C7"], ["SA", "SQ"], ["S7", "C8"]]
    trick = ["SK"]
    for strain in ("NT", "misere"):
        assert engine_value(hands, 1, strain, 0, trick) == ref.solve(
            hands, 1, None, strain == "misere", 0, trick)


def test_agrees_on_talon_led_tricks():
    rng = random.Random(11)
    for _ in range(600):
        cards = rng.randint(2, 4)
        hands, rest = ref.deal_with_rest(rng, cards)
        pending = rng.sample(rest, rng.randint(1, 2))
        player = rng.randrange(3)
        expected = ref.solve(hands, player, None, True, 0, (), None, pending)
        assert engine_value(hands, player, "misere", 0, (), None, pending) == expected
        # Part of the first talon-led trick already played.
        trick = play_random_cards(rng, hands, 0, None, rng.randint(1, 2), led=ref.suit(pending[0]))
        expected = ref.solve(hands, player, None, True, 0, trick, pending[0], pending[1:])
        assert engine_value(hands, player, "misere", 0, trick, pending[0], pending[1:]) == expected


def test_null_window_probe_matches_value():
    rng = random.Random(3)
    for _ in range(40):
        d = Deal.random(rng.randrange(10**6), cards=6)
        hands = [h.mask for h in d.hands]
        value = SOLVER.value(hands, 1, 2, False, 0)
        for target in range(0, 8):
            assert SOLVER.geq(hands, 1, 2, False, target, 0) == (value >= target)



def test_value_is_the_same_from_every_first_guess():
    # value() probes from a guess and steps towards the value: down when the
    # guess is too high (also past the cards left), up when it is too low.
    rng = random.Random(29)
    for _ in range(150):
        cards = rng.randint(2, 4)
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(STRAINS)
        trump = TRUMPS[strain]
        trick = play_random_cards(rng, hands, leader, trump, rng.randint(0, 2))
        expected = ref.solve(hands, declarer, trump, strain == "misere", leader, trick)
        for guess in range(cards + 3):
            got = SOLVER.value(masks(hands), declarer, trump_of(strain), strain == "misere", leader,
                               [index(c) for c in trick], -1, (), guess)
            assert got == expected, (hands, declarer, strain, leader, trick, guess)


def test_misere_probes_match_reference_at_every_target():
    # Misère has its own bounds at trick starts (the counted player must take
    # this trick / escapes it, so he cannot take them all / can lose every
    # trick); each probe must agree, not only the value.
    rng = random.Random(19)
    for _ in range(400):
        cards = rng.randint(2, 4)
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        value = ref.solve_memo(hands, declarer, None, True, leader)
        for target in range(cards + 2):
            assert SOLVER.geq(masks(hands), declarer, -1, True, target, leader) == (value >= target), (
                hands, declarer, leader, target)


def test_misere_leads_refuted_from_the_table_match_reference():
    # Two or more tricks short of all, a defender's lead is settled without
    # search when the declarer escapes the trick into a start the table (or
    # never_wins) already bounds below the target. Probe each ending at every
    # target in random order with a table of its own, so that the earlier
    # probes leave the entries the later ones use.
    rng = random.Random(29)
    for _ in range(150):
        cards = rng.randint(4, 5)
        hands = ref.random_ending(rng, cards)
        declarer = rng.randrange(3)
        leader = rng.choice([seat for seat in range(3) if seat != declarer])
        value = ref.solve_memo(hands, declarer, None, True, leader)
        solver = Solver(1)
        for target in rng.sample(range(cards + 2), cards + 2):
            assert solver.geq(masks(hands), declarer, -1, True, target, leader) == (value >= target), (
                hands, declarer, leader, target)


def test_misere_take_all_probes_match_reference():
    # "Can he be made to take every trick?" is decided without search (the
    # matching of no_exit, after one trick when an opponent leads): check it
    # on longer endings, dealt from fewer suits and with the counted player
    # often holding high cards, where the answer is most often yes.
    rng = random.Random(23)
    for _ in range(300):
        cards = rng.randint(2, 5)
        suits = rng.sample("SCDH", rng.randint(2, 4))
        pool = [s + r for s in suits for r in "789TJQKA"]
        while len(pool) < 3 * cards:
            pool.append(rng.choice([s + r for s in "SCDH" for r in "789TJQKA" if s + r not in pool]))
        drawn = rng.sample(pool, 3 * cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        if rng.random() < 0.5:
            drawn.sort(key=lambda c: "789TJQKA".index(c[1]))
            high = drawn[-cards:]
            rest = drawn[:-cards]
            rng.shuffle(rest)
            hands = [None, None, None]
            hands[declarer] = high
            others = [s for s in range(3) if s != declarer]
            hands[others[0]], hands[others[1]] = rest[:cards], rest[cards:]
        else:
            hands = [drawn[i * cards:(i + 1) * cards] for i in range(3)]
        value = ref.solve_memo(hands, declarer, None, True, leader)
        for target in (cards - 1, cards):
            assert SOLVER.geq(masks(hands), declarer, -1, True, target, leader) == (value >= target), (
                hands, declarer, leader, target)


def test_misere_sure_exits_match_reference():
    # One trick short of all, the counted player's sure exits (a lead that an
    # opponent holding only higher cards of the suit must overtake) are
    # settled one trick ahead without search, on his own lead and inside
    # lead_refuted when he wins an opponent's lead. Deal from two to four
    # suits, so that exits and forced tricks are both common, and probe every
    # target in random order with a table of the ending's own. (It fails on
    # engines broken to check only the first pair of replies, to drop the
    # sure-exit condition, or to forget the trick he won.)
    rng = random.Random(31)
    for i in range(200):
        cards = 6 if i % 16 == 0 else rng.randint(3, 5)
        suits = rng.sample("SCDH", rng.randint(2, 4))
        pool = [s + r for s in suits for r in "789TJQKA"]
        while len(pool) < 3 * cards:
            pool.append(rng.choice([s + r for s in "SCDH" for r in "789TJQKA" if s + r not in pool]))
        drawn = rng.sample(pool, 3 * cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        hands = [drawn[k * cards:(k + 1) * cards] for k in range(3)]
        value = ref.solve_memo(hands, declarer, None, True, leader)
        solver = Solver(1)
        for target in rng.sample(range(cards + 2), cards + 2):
            assert solver.geq(masks(hands), declarer, -1, True, target, leader) == (value >= target), (
                hands, declarer, leader, target)


def _ranks(cards, suit):
    return sorted("789TJQKA".index(c[1]) for c in cards if c[0] == suit)


def _lies_under(low, high):
    return all(a < b for a, b in zip(low, high))


def one_excess_exit_holds(hands, declarer):
    """The engine's one_excess_exit, restated from its docstring: one suit y
    breaks the matching of never_wins, and only by its top card; another
    suit z is a sure exit (his lowest under all of theirs, the rest under
    theirs shifted by one) with more of their cards than players void in y."""
    mine = hands[declarer]
    defenders = [hands[s] for s in range(3) if s != declarer]
    theirs = defenders[0] + defenders[1]
    bad = [s for s in "SCDH" if _ranks(mine, s) and _ranks(theirs, s)
           and not _lies_under(_ranks(mine, s), _ranks(theirs, s))]
    if len(bad) != 1 or not _lies_under(_ranks(mine, bad[0])[:-1], _ranks(theirs, bad[0])):
        return False
    voids = sum(1 for h in defenders if not _ranks(h, bad[0]))
    for z in "SCDH":
        d, o = _ranks(mine, z), _ranks(theirs, z)
        if z != bad[0] and d and o and d[0] < o[0] and _lies_under(d[1:], o) and len(o) > voids:
            return True
    return False


def test_misere_one_excess_exit_matches_reference():
    # On his lead, one top card that breaks never_wins' matching plus a sure
    # exit that survives one trick bound him to one more trick, without
    # search (one_excess_exit). The rule must hold wherever it applies, and
    # every probe must agree with the reference, on his lead, at every target
    # in random order with a table of the ending's own. (This fails on
    # engines broken to accept two bad cards in the suit or to drop the
    # exit's shifted matching.)
    rng = random.Random(37)
    applies = 0
    for _ in range(600):
        cards = rng.randint(3, 5)
        suits = rng.sample("SCDH", rng.randint(2, 4))
        pool = [s + r for s in suits for r in "789TJQKA"]
        while len(pool) < 3 * cards:
            pool.append(rng.choice([s + r for s in "SCDH" for r in "789TJQKA" if s + r not in pool]))
        drawn = rng.sample(pool, 3 * cards)
        declarer = rng.randrange(3)
        hands = [drawn[k * cards:(k + 1) * cards] for k in range(3)]
        value = ref.solve_memo(hands, declarer, None, True, declarer)
        if one_excess_exit_holds(hands, declarer):
            applies += 1
            assert value <= 1, (hands, declarer, value)
        solver = Solver(1)
        for target in rng.sample(range(cards + 2), cards + 2):
            assert solver.geq(masks(hands), declarer, -1, True, target, declarer) == (value >= target), (
                hands, declarer, target)
    assert applies >= 30


def test_game_probes_match_reference_at_every_target():
    # The sure-trick bounds of games (the side on lead, trump tricks, a defender's
    # entry to his partner's winners) decide probes on their own: check each one.
    rng = random.Random(23)
    for _ in range(600):
        cards = rng.randint(2, 5)
        hands = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(["S", "C", "D", "H", "NT"])
        value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
        for target in range(cards + 2):
            assert SOLVER.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                value >= target), (hands, declarer, leader, strain, target)


def shuffle_low_cards(rng, hands):
    """The same ending with the holders of each suit's lowest cards (a random
    number of them) shuffled: every hand keeps its suit lengths."""
    new = [list(h) for h in hands]
    for s in "SCDH":
        cards = sorted((ref.rank(c), seat) for seat in range(3) for c in hands[seat] if c[0] == s)
        low = cards[:rng.randint(0, len(cards))]
        owners = [seat for _, seat in low]
        rng.shuffle(owners)
        for (r, seat), owner in zip(low, owners):
            card = s + ref.RANK_ORDER[r]
            new[seat].remove(card)
            new[owner].append(card)
    return new


def check_table_families(seed, families, min_cards, max_cards, variants=8):
    """Endings that differ only in their low cards, solved one after another
    with one table: every probe must match the reference."""
    rng = random.Random(seed)
    for _ in range(families):
        cards = rng.randint(min_cards, max_cards)
        base = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(["S", "C", "D", "H", "NT"])
        solver = Solver(1)
        for k in range(variants):
            hands = base if k == 0 else shuffle_low_cards(rng, base)
            value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
            for target in rng.sample(range(cards + 2), cards + 2):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                    value >= target), (hands, declarer, leader, strain, target)


def test_game_table_entries_serve_only_matching_positions():
    # A game's table entry keeps only the cards its answer relied on, and
    # serves every position of the same shape that agrees on them. Endings
    # that differ only in their low cards, solved one after another with one
    # table, meet each other's entries: every probe must still be right.
    check_table_families(31, 200, 2, 5)


def check_trick_families(seed, families, min_cards, max_cards, variants=8):
    """Endings that differ only in their low cards, each with a trick in
    progress (so that small cards lie on the table too), solved one after
    another with one table: every probe must match the reference."""
    rng = random.Random(seed)
    for _ in range(families):
        cards = rng.randint(min_cards, max_cards)
        base = ref.random_ending(rng, cards)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(["S", "C", "D", "H", "NT"])
        solver = Solver(1)
        for k in range(variants):
            hands = [list(h) for h in base] if k == 0 else shuffle_low_cards(rng, base)
            trick = play_random_cards(rng, hands, leader, TRUMPS[strain], rng.randrange(3))
            value = ref.solve(hands, declarer, TRUMPS[strain], False, leader, trick=tuple(trick))
            for target in rng.sample(range(cards + 1), cards + 1):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader,
                                  [index(c) for c in trick]) == (value >= target), (
                    hands, trick, declarer, leader, strain, target)


def test_a_failed_card_stands_for_the_lower_cards_of_its_suit():
    # When a game card fails below every card its refutation relied on, the
    # mover's lower cards of that suit are not searched (lowest_win_mask).
    # Checked to fail when the rule also skips a card relied on, or skips
    # under a failed card that was itself relied on. A longer run: test_slow.
    check_trick_families(2, 40, 2, 5)


def break_a_run(rng, hands, run=2):
    """The same ending with one top run split: in a random suit where a
    player holds the ``run`` highest cards, one of them is swapped for a
    lower card of that suit from another hand (every hand
    keeps its suit lengths), or None when no suit has such a run."""
    suits = list("SCDH")
    rng.shuffle(suits)
    for s in suits:
        cards = sorted(((ref.rank(c), seat, c) for seat in range(3) for c in hands[seat]
                        if c[0] == s), reverse=True)
        if len(cards) > run and all(cards[i][1] == cards[0][1] for i in range(run)):
            owner, second = cards[0][1], cards[rng.randrange(run)][2]
            lower = [(seat, c) for _, seat, c in cards[2:] if seat != owner]
            if lower:
                seat, card = rng.choice(lower)
                new = [list(h) for h in hands]
                new[owner].remove(second)
                new[owner].append(card)
                new[seat].remove(card)
                new[seat].append(second)
                return new
    return None


def check_run_families(seed, families, min_cards, max_cards, variants=6, run=2):
    """Endings where a player holds the top ``run`` cards of a suit, followed
    by variants with that run split (the top card stays) or with other low
    cards moved, solved one after another with one table: every probe must
    match the reference."""
    rng = random.Random(seed)
    for _ in range(families):
        while True:
            cards = rng.randint(min_cards, max_cards)
            base = ref.random_ending(rng, cards)
            if break_a_run(rng, base, run) is not None:
                break
        declarer, leader = rng.randrange(3), rng.randrange(3)
        strain = rng.choice(["S", "C", "D", "H", "NT"])
        solver = Solver(1)
        for k in range(variants):
            hands = base if k == 0 else (break_a_run(rng, base, run) if k % 2 else
                                         shuffle_low_cards(rng, base))
            value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
            for target in rng.sample(range(cards + 2), cards + 2):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                    value >= target), (hands, declarer, leader, strain, target)


def test_a_bound_on_part_of_a_run_serves_only_matching_positions():
    # A bound may rely on only some cards of a run: quick_cards pins just
    # the highest cards a last suit needs, so an entry can keep the top card
    # of a run and not the next one. Positions where that next card has
    # moved to another hand must then be decided by what stays pinned (or
    # searched), never by the old count. Checked to fail when quick_cards
    # pins nothing in its last suit.
    check_run_families(6, 100, 3, 5)


def table_sequence_matches_reference(sequence, declarer, leader, strain):
    """Solve (hands, probe targets) one after another with one table."""
    solver = Solver(1)
    for hands, targets in sequence:
        value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
        for target in targets:
            assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                value >= target), (hands, target)


def test_a_trick_relies_on_the_cards_above_the_card_it_beat():
    # Found by a family search: with only the winning card kept for a trick
    # won by rank, a lower card of the winner's run (which the search stands
    # for by the top of the run) is left out, and the last ending takes a
    # wrong bound from the table at target 1.
    table_sequence_matches_reference([
        ([["D8", "H8", "HK"], ["CA", "CJ", "H9"], ["C9", "D9", "DT"]], [3, 2, 0, 4, 1]),
        ([["D8", "H8", "H9"], ["CJ", "CA", "HK"], ["DT", "C9", "D9"]], [2, 4, 1, 3, 0]),
        ([["HK", "D9", "H9"], ["CA", "CJ", "H8"], ["DT", "C9", "D8"]], [4, 1, 0, 3, 2]),
        ([["D8", "HK", "H9"], ["CA", "CJ", "H8"], ["D9", "DT", "C9"]], [2, 4, 0, 1, 3]),
        ([["DT", "H9", "HK"], ["CA", "CJ", "H8"], ["C9", "D8", "D9"]], [2, 0, 4, 3, 1]),
        ([["HK", "D8", "H8"], ["CA", "CJ", "H9"], ["C9", "D9", "DT"]], [4, 2, 3, 1, 0]),
        ([["HK", "DT", "H8"], ["CA", "CJ", "H9"], ["C9", "D8", "D9"]], [0, 1, 3, 2, 4]),
        ([["HK", "D8", "H9"], ["CA", "C9", "H8"], ["D9", "DT", "CJ"]], [1, 0, 3, 2, 4]),
    ], declarer=0, leader=1, strain="S")


def test_defender_entry_bound_relies_on_the_partners_card():
    # Found by a longer family search: with the entry to the partner's
    # winners stored as relying on no card of its suit, the fourth ending
    # (which differs from the earlier ones only in low cards) takes a wrong
    # bound from the table at target 2.
    table_sequence_matches_reference([
        ([["C9", "CQ", "DA", "DK", "HT"], ["C8", "CJ", "H8", "SA", "SJ"], ["C7", "CT", "H7", "HA", "HJ"]],
         [3, 2, 6, 1, 4, 0, 5]),
        ([["C9", "CQ", "DA", "DK", "HJ"], ["C8", "CJ", "SJ", "SA", "H7"], ["CT", "C7", "H8", "HT", "HA"]],
         [2, 3, 0, 5, 4, 1, 6]),
        ([["CQ", "DA", "C9", "DK", "H8"], ["SA", "SJ", "C7", "C8", "H7"], ["CT", "CJ", "HT", "HJ", "HA"]],
         [5, 3, 4, 0, 2, 1, 6]),
        ([["DA", "C7", "CT", "DK", "H7"], ["SA", "SJ", "C9", "CJ", "HT"], ["HA", "HJ", "C8", "CQ", "H8"]],
         [0, 5, 4, 1, 2, 3, 6]),
    ], declarer=2, leader=1, strain="S")


def counted_tricks(hands, declarer):
    """The tricks that the declarer's count proves when a defender leads and
    the defenders hold no trump (declarer_sure_tricks, from its rule): U are
    the suits where he holds the top card and a defender holds a card; when
    the defenders' longer holdings of the other suits add up to at most his
    cards less |U|, he takes as many tricks as he has top cards (those of
    suits the defenders lack included), up to that difference."""
    defenders = [hands[seat] for seat in range(3) if seat != declarer]
    u = outside = tops = 0
    for s in "SCDH":
        mine = [ref.rank(c) for c in hands[declarer] if c[0] == s]
        theirs = [ref.rank(c) for h in defenders for c in h if c[0] == s]
        top = [r for r in mine if not theirs or r > max(theirs)]
        tops += len(top)
        if top and theirs:
            u += 1
        else:
            outside += max(sum(1 for c in h if c[0] == s) for h in defenders)
    room = len(hands[declarer]) - outside
    return min(tops, room) if u and room >= u else 0


def test_counting_bounds_match_reference_at_every_target():
    # The counting bounds of games: the declarer's top cards against a
    # defence without trumps (declarer_sure_tricks), a defender's top card
    # when the declarer needs every trick (defence_wins_one). Endings where
    # the declarer's count proves tricks are drawn more often; the rule
    # itself is checked against the reference too, apart from the engine.
    rng = random.Random(41)
    proofs = 0
    for _ in range(500):
        while True:
            cards = rng.randint(2, 5)
            hands = ref.random_ending(rng, cards)
            declarer, leader = rng.randrange(3), rng.randrange(3)
            held = {c[0] for seat in range(3) if seat != declarer for c in hands[seat]}
            strain = rng.choice(["NT"] + [s for s in "SCDH" if s not in held])
            proven = counted_tricks(hands, declarer) if leader != declarer else 0
            if proven or rng.random() < 0.05:
                break
        value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
        assert value >= proven, (hands, declarer, leader, strain)
        proofs += proven > 0
        for target in range(cards + 2):
            assert SOLVER.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                value >= target), (hands, declarer, leader, strain, target)
    assert proofs > 120, proofs


def test_counting_bounds_serve_only_matching_positions():
    # The same endings as above, each followed by variants that differ in
    # their low cards, with one table: an entry stored from a counting bound
    # relies on the lengths and on the top cards it counted.
    rng = random.Random(43)
    for _ in range(80):
        while True:
            cards = rng.randint(3, 5)
            base = ref.random_ending(rng, cards)
            declarer = rng.randrange(3)
            leader = rng.choice([seat for seat in range(3) if seat != declarer])
            if counted_tricks(base, declarer):
                break
        held = {c[0] for seat in range(3) if seat != declarer for c in base[seat]}
        strain = rng.choice(["NT"] + [s for s in "SCDH" if s not in held])
        solver = Solver(1)
        for k in range(6):
            hands = base if k == 0 else shuffle_low_cards(rng, base)
            value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
            for target in rng.sample(range(cards + 2), cards + 2):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                    value >= target), (hands, declarer, leader, strain, target)


def first_tops_counted(hands, declarer, trump, void_ruffs=True, slack=0):
    """The tricks that the declarer's count proves when a defender leads and a
    defender holds a trump (declarer_first_tops, from its rule): U are the
    side suits where he holds the top card, a defender holds a card and no
    defender with a trump is void; when the defenders' longer holdings of the
    other suits (trumps included) add up to at most his cards less |U|, he
    takes |U| tricks with their top cards, and his sure trump tricks in
    others. ``void_ruffs=False`` and ``slack=1`` give unsound relaxations,
    used to draw endings next to the rule's edge."""
    defenders = [hands[seat] for seat in range(3) if seat != declarer]
    trumps = [sum(1 for c in h if c[0] == trump) for h in defenders]
    u = outside = 0
    for s in "SCDH":
        mine = [ref.rank(c) for c in hands[declarer] if c[0] == s]
        theirs = [ref.rank(c) for h in defenders for c in h if c[0] == s]
        lengths = [sum(1 for c in h if c[0] == s) for h in defenders]
        if (s != trump and mine and theirs and max(mine) > max(theirs)
                and (not void_ruffs or all(n or not t for n, t in zip(lengths, trumps)))):
            u += 1
        else:
            outside += max(lengths)
    # His sure trump tricks: each of their trumps, from the lowest, spoils
    # his lowest free trump below it.
    free = sorted(ref.rank(c) for c in hands[declarer] if c[0] == trump)
    sure = len(free)
    for r in sorted(ref.rank(c) for h in defenders for c in h if c[0] == trump):
        if free and free[0] < r:
            free.pop(0)
            sure -= 1
    return u + sure if any(trumps) and u and len(hands[declarer]) - outside + slack >= u else 0


def swap_a_top_card(rng, hands, declarer):
    """The same ending with the declarer's top card of a random suit swapped
    for a defender's card of that suit (the lengths stay), or a copy of it
    when he holds no such card."""
    new = [list(h) for h in hands]
    suits = list("SCDH")
    rng.shuffle(suits)
    for s in suits:
        mine = [c for c in hands[declarer] if c[0] == s]
        theirs = [(seat, c) for seat in range(3) if seat != declarer for c in hands[seat] if c[0] == s]
        if mine and theirs:
            top = max(mine, key=ref.rank)
            seat, card = rng.choice(theirs)
            if ref.rank(card) < ref.rank(top):
                new[declarer].remove(top)
                new[declarer].append(card)
                new[seat].remove(card)
                new[seat].append(top)
                break
    return new


def test_declarer_first_tops_against_trumps_match_reference():
    # The declarer's count of his first top cards when the defenders hold
    # trumps (declarer_first_tops): the rule is checked against the
    # reference apart from the engine, and the engine at every target.
    # Endings where the rule proves tricks are drawn more often, and so are
    # endings where it would if a void defender's trumps or one lead were
    # overlooked; variants with shuffled low cards or one top card given
    # away reuse one table, since an entry from it relies on the lengths and
    # the top cards it counted.
    rng = random.Random(47)
    proofs = 0
    for i in range(300):
        while True:
            cards = rng.randint(2, 5)
            base = ref.random_ending(rng, cards)
            declarer = rng.randrange(3)
            leader = rng.choice([seat for seat in range(3) if seat != declarer])
            strain = rng.choice("SCDH")
            proven = first_tops_counted(base, declarer, strain)
            if i % 3 == 0 and proven or rng.random() < 0.05:
                break
            edge = dict(void_ruffs=False) if i % 3 == 1 else dict(slack=1)
            if i % 3 and not proven and first_tops_counted(base, declarer, strain, **edge):
                break
        solver = Solver(1)
        for k in range(4):
            hands = [base, shuffle_low_cards(rng, base), swap_a_top_card(rng, base, declarer)][min(k, 2)]
            value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
            proven = first_tops_counted(hands, declarer, strain)
            assert value >= proven, (hands, declarer, leader, strain)
            proofs += proven > 0
            for target in rng.sample(range(cards + 2), cards + 2):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                    value >= target), (hands, declarer, leader, strain, target)
    assert proofs > 120, proofs


def declarer_wins_a_suit(hands, declarer, leader, strain, partner_ruffs=False):
    """Whether the declarer surely wins the trick in some suit of the
    leader's (declarer_wins_bytes, from its rule): with a card above every
    defender's card of the suit, or void in a side suit with a trump, the
    leader's partner following the suit or holding no trump.
    ``partner_ruffs=True`` drops that last condition, to draw endings next
    to the rule's edge."""
    trump = None if strain == "NT" else strain
    partner = 3 - leader - declarer

    def holds(seat, s):
        return [ref.rank(c) for c in hands[seat] if c[0] == s]

    for s in {c[0] for c in hands[leader]}:
        mine, theirs = holds(declarer, s), holds(leader, s) + holds(partner, s)
        top = mine and max(mine) > max(theirs)
        ruff = not mine and trump and s != trump and holds(declarer, trump)
        safe = s == trump or not trump or holds(partner, s) or not holds(partner, trump)
        if (top or ruff) and (safe or partner_ruffs):
            return True
    return False


def test_suits_the_declarer_wins_and_cashes_match_reference():
    # A defender on lead: the leads of a suit in which the declarer surely
    # wins the trick and then, on lead, cashes enough quick tricks are not
    # searched (won_suit_cashes). Endings where the declarer wins a suit are
    # drawn, a third of them next to the rule's edge (the leader's partner
    # void with a trump); variants with shuffled low cards reuse one table,
    # since the answer relies on the winning card and the cashed top cards.
    rng = random.Random(53)
    for i in range(300):
        while True:
            cards = rng.randint(2, 5)
            base = ref.random_ending(rng, cards)
            declarer = rng.randrange(3)
            leader = rng.choice([seat for seat in range(3) if seat != declarer])
            strain = rng.choice(["S", "C", "D", "H", "NT"])
            if declarer_wins_a_suit(base, declarer, leader, strain, partner_ruffs=i % 3 == 2):
                break
        solver = Solver(1)
        for k in range(4):
            hands = base if k == 0 else shuffle_low_cards(rng, base)
            value = ref.solve_memo(hands, declarer, TRUMPS[strain], False, leader)
            for target in rng.sample(range(cards + 2), cards + 2):
                assert solver.geq(masks(hands), declarer, trump_of(strain), False, target, leader) == (
                    value >= target), (hands, declarer, leader, strain, target)


@pytest.mark.parametrize("hands, declarer, leader, strain, expected", [
    # Seat 1 leads C7 to his partner's CA (the declarer must follow with CK);
    # seat 2 then cashes CQ and DA: the defence takes all three tricks.
    ([["CK", "S7", "S8"], ["C7", "H7", "H8"], ["CA", "CQ", "DA"]], 0, 1, "NT", 0),
    # Same, but the declarer is void in clubs and ruffs: no entry.
    ([["SA", "S7", "S8"], ["C7", "H7", "H8"], ["CA", "CQ", "DA"]], 0, 1, "S", 3),
    # Seat 1's DK is above his partner's DQ: leading it keeps the lead, so the
    # partner's two club winners are out of reach (found by a random search).
    ([["C8", "CQ", "DQ"], ["DK", "H7", "SQ"], ["H8", "HQ", "SA"]], 2, 1, "NT", 2),
    # Trump tricks: seat 1's four trumps are under the declarer's SA, which can
    # beat only one of them (his S7 none), so seat 1 surely wins three.
    ([["SA", "S7", "H7", "H8"], ["SK", "SQ", "SJ", "S9"], ["C7", "C8", "C9", "CT"]], 0, 0, "S", 1),
    # The declarer's four low trumps against SA SK: two of his are beaten.
    ([["S7", "S8", "S9", "ST", "H7"], ["SA", "SK", "HA", "HK", "HQ"],
      ["C7", "C8", "C9", "CT", "CJ"]], 0, 0, "S", 2),
    # Seat 1 keeps two of SK SQ SJ against SA S7, and the declarer's red aces
    # make two tricks at most.
    ([["SA", "S7", "HA", "DA"], ["SK", "SQ", "SJ", "H7"], ["C7", "C8", "C9", "CT"]], 0, 0, "S", 2),
    # Side-suit winners first, then trump tricks: nobody plays a trump while
    # HA is cashed, so seat 2's two trump tricks come on top (defence 3).
    ([["SA", "S7", "H7", "H8"], ["HA", "C9", "C7", "C8"], ["SK", "SQ", "SJ", "H9"]], 0, 1, "S", 1),
    # The declarer cashes HA, then his SK SQ SJ make two tricks against SA S7.
    ([["SK", "SQ", "SJ", "HA", "D7"], ["SA", "S7", "H7", "C7", "C8"],
      ["C9", "CT", "CJ", "H8", "D8"]], 0, 0, "S", 3),
    # Seat 1 leads: a spade or a heart gives the declarer the lead and both
    # aces; the club is the only other lead, so the second trick must give
    # him one (his count: U = spades and hearts, 3 cards less |U| = 1 club
    # trick at most outside U, so he takes 2).
    ([["SA", "HA", "C7"], ["S7", "H7", "C8"], ["S8", "H8", "CA"]], 0, 1, "NT", 2),
    # The declarer leads every trick he wins and must lead H7 at last: seat
    # 1 keeps HA for it (no quick trick of the defence is on lead).
    ([["SA", "SK", "H7"], ["HA", "C7", "C8"], ["S7", "D7", "D8"]], 0, 0, "NT", 2),
    # The same with seat 1 on lead: the declarer must ruff the first trick
    # to win it, so H7 stays with him and meets HA later.
    ([["SA", "SK", "H7"], ["D7", "D8", "D9"], ["HA", "C7", "C8"]], 0, 1, "S", 2),
    # Seat 1 leads H7 and keeps HT, which beats the declarer's H8 after his
    # HA wins: won_suit_cashes must count with the leader's lowest heart gone,
    # not his highest (found by a helper's targeted search).
    ([["DT", "H9"], ["H7", "HT"], ["H8", "HA"]], 2, 1, "S", 1),
])
def test_game_bound_positions(hands, declarer, leader, strain, expected):
    assert ref.solve(hands, declarer, TRUMPS[strain], False, leader) == expected
    assert engine_value(hands, declarer, strain, leader) == expected


@pytest.mark.parametrize("hands, declarer, leader, expected", [
    # Declarer leads and every lead wins: nobody is forced over his lowest card.
    ([["SA", "CK"], ["S7", "C7"], ["S8", "C8"]], 0, 0, 2),
    # Seat 1 holds SK above his S9, but has S7 to play under it: still every trick.
    ([["S9", "SA", "H8"], ["S7", "SK", "H7"], ["C7", "C8", "C9"]], 0, 0, 3),
    # Both of seat 1's spades are above S9: leading it is an exit.
    ([["S9", "SA"], ["ST", "SK"], ["C7", "C8"]], 0, 0, 1),
    # Seat 1 leads S7, seat 2 follows S8; the declarer (seat 0, last) holds
    # only higher spades, then must lead his last spade too.
    ([["S9", "SA"], ["S7", "C7"], ["S8", "C8"]], 0, 1, 2),
    # Declarer second after the lead of S7, partner holds only S8 below him: caught.
    ([["S7", "C8"], ["S9", "C9"], ["S8", "CA"]], 1, 0, 1),
    # Same, but the partner holds only spades above him and must overtake.
    ([["S7", "C8"], ["S9", "C9"], ["SA", "CA"]], 1, 0, 0),
    # Every card of the declarer is below the others' cards of its suit.
    ([["S7", "C7"], ["SA", "CA"], ["SK", "CK"]], 0, 0, 0),
    # S9 is above S8, but each of his spades has a higher one to go under
    # (S7 under S8, S9 under ST): he still loses every trick.
    ([["S7", "S9", "H7"], ["S8", "HA", "HK"], ["ST", "HQ", "HJ"]], 0, 1, 0),
    ([["S7", "S9", "H7"], ["S8", "ST", "HK"], ["C7", "HQ", "HJ"]], 0, 1, 0),
    # S9 alone against S8: a spade lead catches him.
    ([["S9", "H7"], ["S8", "HA"], ["HK", "HQ"]], 0, 1, 1),
    # He leads S7 and seat 1 must overtake: he cannot take all three tricks.
    # Best is to cash CA first, then exit with S7 and shed SA.
    ([["S7", "SA", "CA"], ["S8", "C7", "D7"], ["H7", "H8", "C8"]], 0, 0, 1),
    # Seat 1 leads; he plays under in spades and is void in the red suits, so
    # no lead forces him this trick; later seat 2's C7 makes him take both clubs.
    ([["S7", "CA", "CK"], ["S8", "H7", "D7"], ["S9", "H8", "C7"]], 0, 1, 2),
    # On lead with no exit now (seat 1 plays S7 under S8), but seat 1's second
    # spade is above his second: he leads S8, then ST, and SJ must go over it.
    ([["S8", "ST"], ["S7", "SJ"], ["C7", "C8"]], 0, 0, 1),
    # Seat 2 leads S7 and he must win with S9; seat 1, void in spades, sheds
    # HK, after which H7 goes under each of his hearts: he takes all three.
    # (Shedding C7 instead would leave HK to overtake his H9.)
    ([["S9", "H8", "H9"], ["H7", "HK", "C7"], ["S7", "C8", "C9"]], 0, 2, 3),
])
def test_misere_bound_positions(hands, declarer, leader, expected):
    assert ref.solve(hands, declarer, None, True, leader) == expected
    assert engine_value(hands, declarer, "misere", leader) == expected


SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def relabel(deal, perm):
    def move(hand):
        m = 0
        for c in hand:
            m |= 1 << (perm[c.suit] * 8 + c.rank)
        return m
    talon = move(deal.talon) if deal.talon is not None else None
    return Deal([move(h) for h in deal.hands], talon)


@given(ending_deals(1, 7), strains(), seats(), seats(), st.sampled_from(SUIT_PERMUTATIONS))
def test_results_in_range_and_suit_relabelling_changes_nothing(d, strain, declarer, leader, perm):
    cards = d.tricks
    value = solve(d, declarer, strain=strain, leader=leader, talon_mode="ignore").tricks
    assert 0 <= value <= cards
    t = trump_of(strain)
    if t >= 0:
        # Keep the trump suit where it is; any permutation of the other suits.
        others = [s for s in range(4) if s != t]
        images = [perm[s] for s in others]
        order = sorted(range(3), key=lambda i: images[i])
        mapping = {s: s for s in range(4)}
        for i, s in enumerate(others):
            mapping[s] = others[order.index(i)]
        perm = tuple(mapping[s] for s in range(4))
    moved = relabel(d, perm)
    new_strain = strain if t < 0 else "SCDH"[perm[t]]
    assert solve(moved, declarer, strain=new_strain, leader=leader, talon_mode="ignore").tricks == value


def brute_force_discard(deal, declarer, strain, leader=0):
    full = deal.hands[declarer].mask | deal.talon.mask
    cards = [i for i in range(32) if full >> i & 1]
    values = []
    for a, b in itertools.combinations(cards, 2):
        hands = [h.mask for h in deal.hands]
        hands[declarer] = full & ~(1 << a) & ~(1 << b)
        values.append(SOLVER.value(hands, declarer, trump_of(strain), strain == "misere", leader))
    assert len(values) == 66
    return min(values) if strain == "misere" else max(values)


@pytest.mark.parametrize("seed, declarer, strain", [
    (1, 0, "S"), (2, 1, "NT"), (3, 2, "misere"), (4, 0, "H"), (5, 1, "misere"), (6, 2, "D"),
])
def test_best_discard_equals_brute_force_over_66(seed, declarer, strain):
    d = Deal.random(seed)
    sol = solve(d, declarer, strain=strain)
    assert sol.tricks == brute_force_discard(d, declarer, strain)
    # The named discard really achieves the value.
    kept = (d.hands[declarer].mask | d.talon.mask) & ~sum(1 << c.index for c in sol.discard)
    hands = [h.mask for h in d.hands]
    hands[declarer] = kept
    assert SOLVER.value(hands, declarer, trump_of(strain), strain == "misere", 0) == sol.tricks
    assert len(set(sol.discard)) == 2 and all(
        (d.hands[declarer].mask | d.talon.mask) >> c.index & 1 for c in sol.discard)


@pytest.mark.parametrize("seed, declarer, strain", [(7, 0, "C"), (8, 2, "misere"), (9, 1, "NT")])
def test_discard_hints_change_the_work_not_the_value(seed, declarer, strain):
    d = Deal.random(seed)
    hands = [h.mask for h in d.hands]
    full = hands[declarer] | d.talon.mask
    cards = [c for c in range(32) if full >> c & 1]
    trump, minimize = trump_of(strain), strain == "misere"
    plain = SOLVER.best_discard(hands, d.talon.mask, declarer, trump, minimize, 0)
    # Every 2 of the 12 cards as a hint (with masks that are not discards
    # around it, which are ignored) gives the same value.
    outside = next(c for c in range(32) if not full >> c & 1)
    for a, b in itertools.combinations(cards, 2):
        hint = (1 << a) | (1 << b)
        junk = (1 << a, (1 << a) | (1 << outside), -hint, 1 << 40, "x", full)
        value, mask = SOLVER.best_discard(hands, d.talon.mask, declarer, trump, minimize, 0,
                                          junk[:3] + (hint,))
        assert SOLVER.best_discard(hands, d.talon.mask, declarer, trump, minimize, 0,
                                   junk[3:])[0] == plain[0]
        assert value == plain[0]
        # A hint that is a best discard is tried first and kept: ties do not
        # replace it.
        kept = list(hands)
        kept[declarer] = full & ~hint
        if SOLVER.value(kept, declarer, trump, minimize, 0) == plain[0]:
            assert mask == hint
    # So does any first guess of the value, right, wrong or out of range.
    for guess in range(-2, 13):
        fresh = Solver(1)
        assert fresh.best_discard(hands, d.talon.mask, declarer, trump, minimize, 0,
                                  guess=guess)[0] == plain[0]


def test_solve_with_shared_hints_matches_solve_without():
    from prefsolve.analysis.sampling import Sampler, _known_hands
    from prefsolve.cards import Hand

    own = Hand.parse("A.KT9.KT97.K7")
    deals = Sampler(_known_hands(None, 0, own, (0, 1, 2, "talon")), 5, None).draw(12)
    hints = DiscardHints()
    for deal in deals:
        for strain in STRAINS:
            assert (solve(deal, 0, strain=strain, hints=hints).tricks
                    == solve(deal, 0, strain=strain).tricks)
    # What it remembers: the last best discards and value per 12 cards, the
    # discards alone per 10-card hand (for 12 cards not met yet).
    last = deals[-1]
    sol = solve(last, 0, strain="NT")
    first, guess = hints.lookup(own.mask, last.talon.mask, (0, 0, "NT"))
    assert guess == sol.tricks and len(first) in (1, 2)
    new_talon = next(m for m in ((1 << a) | (1 << b) for a in range(32) for b in range(a))
                     if not m & own.mask)
    first, guess = hints.lookup(own.mask, new_talon, (0, 0, "NT"))
    assert guess == -1 and 1 <= len(first) <= 4


def test_threads_give_identical_results():
    from concurrent.futures import ThreadPoolExecutor

    deals = [Deal.random(s, cards=7) for s in range(12)]
    serial = [solve(d, 0, strain="misere", talon_mode="ignore").tricks for d in deals]
    with ThreadPoolExecutor(2) as pool:
        parallel = list(pool.map(lambda d: solve(d, 0, strain="misere", talon_mode="ignore").tricks, deals))
    assert parallel == serial


def test_hands_text_helper_round_trips():
    assert str(Deal.parse(hands_text([["SA"], ["SK"], ["SQ"]]))) == "A.-.-.- K.-.-.- Q.-.-.-"


@pytest.mark.parametrize("kwargs, message", [
    (dict(hands=[1, 2]), "expected 3 hands"),
    (dict(declarer=3), "declarer must be 0..2"),
    (dict(trump=4), "trump must be -1..3"),
    (dict(leader=-1), "leader must be 0..2"),
    (dict(trick=[1, 2, 3]), "at most 2 cards"),
    (dict(pending=[0, 1, 2]), "at most 2 talon cards"),
    (dict(hands=[1, 1, 4]), "share a card"),
    (dict(hands=[1, 2, 12]), "sizes do not fit"),
    (dict(hands=[1, 2, 4], trick=[0]), "on the table is still in a hand"),
    (dict(hands=[1, 2, 4], trick=[8]), "sizes do not fit"),
    (dict(hands=[3, 12, 48], pending=[0]), "still to lead is in a hand"),
    (dict(hands=[3, 12, 48], pending=[8, 8]), "given twice"),
    (dict(hands=[2, 12, 48], pending=[16, 17], trick=[0]), "more talon cards still to lead"),
])
def test_core_rejects_out_of_range_arguments(kwargs, message):
    args = dict(hands=[1, 2, 4], declarer=0, trump=-1, minimize=False)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        SOLVER.value(**args)


@pytest.mark.parametrize("case", ["defender's card", "declarer's card", "three cards", "short hands"])
def test_core_rejects_a_talon_that_does_not_fit(case):
    d = Deal.random(3)
    hands = [h.mask for h in d.hands]
    talon = d.talon.mask
    low = talon & -talon
    if case == "defender's card":
        talon, message = low | (hands[1] & -hands[1]), "talon card is in a hand"
    elif case == "declarer's card":
        talon, message = low | (hands[0] & -hands[0]), "talon card is in a hand"
    elif case == "three cards":
        talon, message = talon | (hands[2] & -hands[2]), "talon must be 2 cards"
    else:
        # Three cards each and a 9-card "talon": 12 cards for the declarer,
        # but not a hand and a talon (the search would read the tables of
        # solved endings with hands of different sizes).
        short = [0, 0, 0]
        for seat in range(3):
            m = hands[seat]
            for _ in range(3):
                short[seat] |= m & -m
                m &= m - 1
        hands, talon, message = short, hands[0] & ~short[0] | low, "talon must be 2 cards"
    with pytest.raises(ValueError, match=message):
        SOLVER.best_discard(hands, talon, 0, -1, True, 0)


def test_a_solver_shared_between_threads_raises_instead_of_corrupting():
    import threading
    import time

    shared = Solver(16)
    d = Deal.random(12)
    hands = [h.mask for h in d.hands]
    stop = threading.Event()

    def long_solve():
        # Misère with all 66 discards, again and again until told to stop, so
        # that the main thread finds a search running however busy the host is.
        while not stop.is_set():
            for declarer in range(3):
                shared.clear()
                shared.best_discard(hands, d.talon.mask, declarer, -1, True, 0)

    worker = threading.Thread(target=long_solve)
    worker.start()
    try:
        deadline = time.monotonic() + 30
        while not shared.busy and time.monotonic() < deadline:
            time.sleep(0.0005)
        assert shared.busy, "the worker's search was not observed running"
        with pytest.raises(RuntimeError, match="one Solver per thread"):
            shared.value(hands, 0, -1, False)
    finally:
        stop.set()
        worker.join()
    assert not shared.busy
    # The solver is usable again, and an error inside a call releases it too.
    with pytest.raises(ValueError):
        shared.value(hands, 5, -1, False)
    assert shared.value(hands, 0, 0, False) == solve(d, 0, strain="S", talon_mode="ignore").tricks


@given(endings(1, 5), strains(), seats(), seats())
def test_engine_equals_reference_on_small_endings(hands, strain, declarer, leader):
    expected = ref.solve(hands, declarer, TRUMPS[strain], strain == "misere", leader)
    assert engine_value(hands, declarer, strain, leader) == expected
    assert 0 <= expected <= len(hands[0])
