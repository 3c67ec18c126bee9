"""Hypothesis strategies for the test suite's properties.

They build what the properties are about (deals, endings, seats, strains,
legal plays) from hypothesis's own choices rather than from an integer seed
fed to :class:`random.Random`, so that a failing example shrinks: to fewer
cards per hand, lower cards, seat 0, the first strain and the first legal
card at each move.

Cards of endings are the reference solver's two-letter strings (``"SA"``);
``deal_of`` turns such hands into a :class:`prefsolve.Deal`.
"""

from hypothesis import strategies as st

from prefsolve import Deal

#: The 32 cards in the reference solver's notation, ♠ ♣ ♦ ♥ and 7 up to the ace.
CARDS = tuple(suit + rank for suit in "SCDH" for rank in "789TJQKA")
#: Contract strains, in the order hypothesis shrinks them to (first = simplest).
STRAINS = ("NT", "S", "C", "D", "H", "misere")
#: Hand sizes of an ending, small ones listed more often: hypothesis draws an
#: element uniformly at first, so most endings are small and fast to solve,
#: and shrinks towards the first.
_SIZES = (1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def seats() -> st.SearchStrategy[int]:
    """A seat: 0, 1 or 2."""
    return st.integers(0, 2)


def strains(*, allpass: bool = False) -> st.SearchStrategy[str]:
    """A contract strain (S C D H NT misere), and ``allpass`` when asked."""
    return st.sampled_from(STRAINS + (("allpass",) if allpass else ()))


def hand_sizes(min_cards: int = 1, max_cards: int = 10) -> st.SearchStrategy[int]:
    """A number of cards per hand in min_cards..max_cards, small ones likely."""
    sizes = [n for n in _SIZES if min_cards <= n <= max_cards]
    if not sizes:
        raise ValueError(f"no hand size in {min_cards}..{max_cards}")
    return st.sampled_from(sizes)


@st.composite
def endings(draw, min_cards: int = 1, max_cards: int = 10, rest: int = 0):
    """Three hands of n equal cards each (lists of card strings), n drawn by
    :func:`hand_sizes`; with ``rest=k``, also a list of k cards left out of
    the hands (for talon cards)."""
    n = draw(hand_sizes(min_cards, max_cards))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=3 * n + rest, max_size=3 * n + rest, unique=True))
    hands = [sorted(cards[i * n:(i + 1) * n], key=CARDS.index) for i in range(3)]
    if rest:
        return hands, list(cards[3 * n:3 * n + rest])
    return hands


def deal_of(hands, talon=None) -> Deal:
    """The Deal of hands (and talon) given as lists of card strings."""
    text = "|".join(" ".join(hand) for hand in hands)
    return Deal.parse(text if talon is None else f"{text}|{' '.join(talon)}")


@st.composite
def ending_deals(draw, min_cards: int = 1, max_cards: int = 10) -> Deal:
    """A Deal of three hands of n equal cards, no talon (n as in :func:`endings`)."""
    return deal_of(draw(endings(min_cards, max_cards)))


@st.composite
def deals(draw, *, talon: bool | None = None) -> Deal:
    """A full deal of 10 cards a hand: with the 2-card talon, without it, or
    either (``talon=None``)."""
    with_talon = draw(st.booleans()) if talon is None else talon
    hands, rest = draw(endings(10, 10, rest=2))
    return deal_of(hands, rest if with_talon else None)


@st.composite
def plays(draw, position, max_cards: int = 30, min_cards: int = 0):
    """Legal cards played from ``position`` (which is left as it is), drawn
    move by move: returns the position after them and the cards, at most
    ``max_cards`` and as many as the play lasts."""
    pos = position.copy()
    k = draw(st.integers(min_cards, max_cards))
    cards = []
    while len(cards) < k and not pos.is_over():
        card = draw(st.sampled_from(pos.legal_cards()))
        pos.push(card)
        cards.append(card)
    return pos, cards
