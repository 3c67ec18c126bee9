"""An obviously-correct, slow reference solver for Preferans, for tests only.

Plain minimax over every legal card: no transposition table, no pruning, no
equivalent cards, no bitboards. It shares nothing with the engine: cards are
two-letter strings ``"SA"``, hands are lists of such strings.

Rules: follow suit; when void, trump if holding a trump; otherwise any card.
The highest trump wins, else the highest card of the suit led. In a trick led
by a talon card (all-pass) the talon card sets the suit, seats 0, 1, 2 play in
that order, and the highest card of that suit *played by a player* wins.
"""

from __future__ import annotations

RANK_ORDER = "789TJQKA"


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> int:
    return RANK_ORDER.index(card[1])


def legal(hand: list[str], led: str | None, trump: str | None) -> list[str]:
    if led is None:
        return list(hand)
    follow = [c for c in hand if suit(c) == led]
    if follow:
        return follow
    if trump is not None:
        trumps = [c for c in hand if suit(c) == trump]
        if trumps:
            return trumps
    return list(hand)


def trick_winner(plays: list[tuple[int, str]], led: str, trump: str | None) -> int | None:
    """Seat that wins a trick given (seat, card) plays; None if nobody followed."""
    best = None
    for seat, card in plays:
        if best is None:
            if suit(card) == led:
                best = (seat, card)
            elif trump is not None and suit(card) == trump:
                best = (seat, card)
            continue
        bcard = best[1]
        if suit(card) == suit(bcard):
            if rank(card) > rank(bcard):
                best = (seat, card)
        elif trump is not None and suit(card) == trump:
            best = (seat, card)
    return None if best is None else best[0]


def solve(hands, declarer, trump=None, minimize=False, leader=0, trick=(), talon_card=None,
          pending=()):
    """Declarer's tricks from this position with best play.

    ``trump``: a suit letter or None. ``minimize``: the declarer minimises
    (misère, all-pass). ``trick``: cards already played to the current trick
    (in order, from ``leader``, or from seat 0 when ``talon_card`` leads it).
    ``pending``: talon cards that lead the next tricks to start (at a trick
    start, the first of them leads the current trick).
    """
    hands = [list(h) for h in hands]
    plays = []
    pending = list(pending)
    if talon_card is None and not trick and pending:
        talon_card = pending.pop(0)  # at a trick start the next talon card leads now
    if talon_card is not None:
        first = 0
        led = suit(talon_card)
    else:
        first = leader
        led = suit(trick[0]) if trick else None
    for i, card in enumerate(trick):
        seat = (first + i) % 3
        plays.append((seat, card))
    return _play(hands, declarer, trump, minimize, first, led, plays, pending)


def _play(hands, declarer, trump, minimize, first, led, plays, pending):
    if len(plays) == 3:
        winner = trick_winner(plays, led, trump)
        if winner is None:
            winner = 0  # nobody followed a talon card: first hand takes it
        won = 1 if winner == declarer else 0
        if not hands[0]:
            return won
        if pending:
            card = pending[0]
            return won + _play(hands, declarer, trump, minimize, 0, suit(card), [], pending[1:])
        return won + _play(hands, declarer, trump, minimize, winner, None, [], pending)
    seat = (first + len(plays)) % 3
    declarer_side = seat == declarer
    wants_max = declarer_side != minimize
    values = []
    for card in legal(hands[seat], led, trump):
        hands[seat].remove(card)
        values.append(
            _play(hands, declarer, trump, minimize, first, led if led else suit(card),
                  plays + [(seat, card)], pending)
        )
        hands[seat].append(card)
    return max(values) if wants_max else min(values)


def deal_with_rest(rng, cards):
    """Three random hands of ``cards`` cards each and the rest of the deck."""
    deck = [s + r for s in "SCDH" for r in RANK_ORDER]
    rng.shuffle(deck)
    return [sorted(deck[i * cards:(i + 1) * cards]) for i in range(3)], deck[3 * cards:]


def random_ending(rng, cards):
    """Three random hands of ``cards`` cards each, as lists of card strings."""
    return deal_with_rest(rng, cards)[0]


def solve_memo(hands, declarer, trump=None, minimize=False, leader=0):
    """The same game value with a memo of trick-start positions (exact keys).

    Still plain minimax over every legal card, only faster, so that golden
    files can be checked on endings of 6-7 tricks.
    """
    memo: dict = {}

    def at_start(hs, lead):
        if not hs[0]:
            return 0
        key = (hs, lead)
        if key not in memo:
            memo[key] = in_trick(hs, lead, None, [])
        return memo[key]

    def in_trick(hs, lead, led, plays):
        if len(plays) == 3:
            winner = trick_winner(plays, led, trump)
            return (1 if winner == declarer else 0) + at_start(hs, winner)
        seat = (lead + len(plays)) % 3
        best = None
        for card in legal(sorted(hs[seat]), led, trump):
            nh = list(hs)
            nh[seat] = hs[seat] - {card}
            v = in_trick(tuple(nh), lead, led or suit(card), plays + [(seat, card)])
            if best is None or ((v > best) if (seat == declarer) != minimize else (v < best)):
                best = v
        return best

    return at_start(tuple(frozenset(h) for h in hands), leader)
