"""Cards, suits, ranks and hands of the 32-card Preferans deck.

A card is an immutable :class:`Card` with a suit (0..3 for ♠ ♣ ♦ ♥, the
bidding order) and a rank (0..7 for 7 8 9 T J Q K A). Its ``index`` is
``suit * 8 + rank``; a :class:`Hand` is an immutable set of cards, stored as
a 32-bit mask of those indices, which is also what the native core takes.

A sequence of cards (a discard, the cards played, the talon in the order
turned) is a :class:`Cards`: an immutable tuple that prints as a player
writes cards.

>>> Card.parse("SA"), Card.parse("10♥"), Card.parse("kd")
(Card.parse('SA'), Card.parse('HT'), Card.parse('DK'))
>>> str(Hand.parse("SA CK CT C9 DK DT D9 D7 HK H7"))
'A.KT9.KT97.K7'
>>> print(Cards.parse("S8 C8"))
♠8 ♣8

Text typed on a Russian keyboard layout is read too: the Cyrillic letters
that look like the Latin ones of the notation (С А К Т Н …) are taken as
those letters, and any other non-Latin letter is named in the error.

>>> Card.parse("СА")   # Cyrillic С and А
Card.parse('CA')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from .checks import whole
from .errors import CardError, HandError
from .strains import SUIT_SYMBOLS, SUITS

RANKS = "789TJQKA"

_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
# Other spellings of the suit symbols (white/emoji variants) that users paste.
_SUIT_OF_CHAR |= {"♤": 0, "♧": 1, "♢": 2, "♡": 3}
_RANK_OF_TEXT = {c: i for i, c in enumerate(RANKS)} | {"10": 3, "X": 3}   # X: the ten, as some books write it

# Cyrillic capitals that look like the Latin letters of the notation: what a
# Russian keyboard layout types for them. (Russian rank initials, such as Т for
# туз, are not guessed at: Т reads as the ten it looks like, as everywhere else.)
_LOOKALIKES = str.maketrans("САКТНВЕМОРХ", "CAKTHBEMOPX")


def latin(text: str) -> str:
    """``text`` upper-cased, with Cyrillic look-alike letters made Latin.

    >>> latin("сА кт")
    'CA KT'
    """
    return text.upper().translate(_LOOKALIKES)


def _foreign(text: str) -> str:
    """For an error message: the first letter of ``text`` outside the notation, named."""
    for ch in text:
        if ch.isalpha() and not ch.isascii() and ch not in SUIT_SYMBOLS and ch not in "♤♧♢♡":
            try:
                name = unicodedata.name(ch).lower()
            except ValueError:
                name = "a non-Latin character"
            return f" ({ch!r} is {name}; type the Latin letters S C D H and 7 8 9 T J Q K A)"
    return ""


class Card:
    """One card of the 32-card deck; immutable, hashable, ordered by index.

    >>> c = Card(0, 7)
    >>> c, c.symbol
    (Card.parse('SA'), '♠A')
    """

    __slots__ = ("suit", "rank")
    suit: int
    rank: int

    def __init__(self, suit: int, rank: int) -> None:
        if whole(suit) is None or whole(rank) is None or not (0 <= suit < 4 and 0 <= rank < 8):
            raise CardError(f"no card with suit {suit!r} and rank {rank!r} (suit 0..3, rank 0..7)")
        object.__setattr__(self, "suit", int(suit))
        object.__setattr__(self, "rank", int(rank))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of index 0..31 (♠7 is 0, ♥A is 31)."""
        if whole(index) is None or not 0 <= index < 32:
            raise CardError(f"no card with index {index!r} (0..31)")
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``SA``, ``AS``, ``S10``, ``10S``, ``♠A``, ``A♠`` (any case)."""
        if not isinstance(text, str):
            raise CardError(f"cannot read card {text!r}: expected text such as 'SA' or 'H10'")
        t = latin(text.strip())
        suit = rank = None
        if t and t[0] in _SUIT_OF_CHAR:
            suit, rank = _SUIT_OF_CHAR[t[0]], _RANK_OF_TEXT.get(t[1:])
        elif t and t[-1] in _SUIT_OF_CHAR:
            suit, rank = _SUIT_OF_CHAR[t[-1]], _RANK_OF_TEXT.get(t[:-1])
        if suit is None or rank is None:
            raise CardError(
                f"cannot read card {text!r}: expected a suit S C D H (or ♠ ♣ ♦ ♥) "
                f"and a rank 7 8 9 T J Q K A, e.g. 'SA' or 'H10'{_foreign(text)}"
            )
        return _CARDS[suit * 8 + rank]

    @property
    def index(self) -> int:
        return self.suit * 8 + self.rank

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``♠A``."""
        return SUIT_SYMBOLS[self.suit] + RANKS[self.rank]

    def __str__(self) -> str:
        return SUITS[self.suit] + RANKS[self.rank]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self):
        return (Card, (self.suit, self.rank))


_CARDS = tuple(object.__new__(Card) for _ in range(32))
for _i, _c in enumerate(_CARDS):
    object.__setattr__(_c, "suit", _i // 8)
    object.__setattr__(_c, "rank", _i % 8)
del _i, _c

ALL_CARDS: tuple[Card, ...] = _CARDS
FULL_DECK_MASK = 0xFFFFFFFF


def cards_of_mask(mask: int) -> list[Card]:
    """The cards of a 32-bit mask, in index order (♠7 first, ♥A last)."""
    return [_CARDS[i] for i in range(32) if mask >> i & 1]


def in_hand_order(cards: Iterable[Card]) -> list[Card]:
    """Cards as hands are printed: suit by suit (♠ ♣ ♦ ♥), high to low in each.

    >>> " ".join(c.symbol for c in in_hand_order(cards_of_mask(0b11 << 8 | 1)))
    '♠7 ♣8 ♣7'
    """
    return sorted(cards, key=lambda c: (c.suit, -c.rank))


def mask_of_cards(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def parse_cards(text: str) -> list[Card]:
    """Parse a list of cards separated by spaces or commas, keeping duplicates."""
    return [Card.parse(tok) for tok in re.split(r"[\s,]+", text.strip()) if tok]


class Cards(tuple):
    """An ordered, immutable sequence of cards: a discard, the cards played, the
    talon in the order turned. It prints as a player writes cards, and its
    ``repr`` evaluates back.

    >>> c = Cards(["S8", Card.parse("C8")])
    >>> print(c)
    ♠8 ♣8
    >>> c, c.to_list()
    (Cards.parse('S8 C8'), ['S8', 'C8'])
    >>> c == Cards.parse("♠8 ♣8") and c[0] == Card.parse("S8")
    True
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[Card | str] = ()) -> Cards:
        if isinstance(cards, str):
            raise CardError(f"Cards() takes cards; read card text {cards!r} with Cards.parse()")
        items = []
        for card in cards:
            if isinstance(card, str):
                card = Card.parse(card)
            elif not isinstance(card, Card):
                raise CardError(f"expected a card, got {card!r}")
            items.append(card)
        return super().__new__(cls, items)

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Cards separated by spaces or commas, in the order given: ``"SA S7 D9"``."""
        if not isinstance(text, str):
            raise CardError(f"cannot read cards {text!r}: expected text such as 'SA S7 D9'")
        return _cards(parse_cards(text))

    @property
    def mask(self) -> int:
        """The cards as a 32-bit mask (the order is lost)."""
        return mask_of_cards(self)

    def to_list(self) -> list[str]:
        """The cards as JSON writes them: ``["SA", "S7"]``."""
        return [str(c) for c in self]

    def __str__(self) -> str:
        return " ".join(c.symbol for c in self)

    def __repr__(self) -> str:
        return f"Cards.parse({' '.join(map(str, self))!r})"


_tuple_new = tuple.__new__


def _cards(cards: Iterable[Card]) -> Cards:
    """``Cards(cards)`` for cards already known to be :class:`Card` objects."""
    return _tuple_new(Cards, cards)


def cards_in_hand_order(mask: int) -> Cards:
    """The cards of a mask as hands print them (suit by suit, high to low).

    >>> cards_in_hand_order(0b11 << 8 | 1)
    Cards.parse('S7 C8 C7')
    """
    return _cards(in_hand_order(cards_of_mask(mask)))


def _suit_group(token: str) -> list[Card]:
    """A card (``SA``, ``A♠``), or a suit and its ranks as ``Hand.symbols``
    prints them (``♠KT9``, ``S109``)."""
    t = latin(token.strip())
    ranks = re.findall(r"10|.", t[1:]) if t and t[0] in _SUIT_OF_CHAR else []
    if len(ranks) < 2 or any(r not in _RANK_OF_TEXT for r in ranks):
        return [Card.parse(token)]
    return [Card.parse(t[0] + r) for r in ranks]


class Hand:
    """An immutable set of cards, canonically printed as ``♠.♣.♦.♥`` groups.

    >>> h = Hand.parse("A.KT9.KT97.K7")
    >>> len(h), Card.parse("CT") in h, h.symbols()
    (10, True, '♠A ♣KT9 ♦KT97 ♥K7')
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int = ()) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK_MASK:
                raise HandError(f"hand mask {cards!r} is not a 32-bit card set")
            mask = cards
        elif isinstance(cards, str):
            raise HandError(f"Hand() takes cards; read hand text {cards!r} with Hand.parse()")
        else:
            mask = 0
            for card in cards:
                if isinstance(card, str):
                    card = Card.parse(card)
                elif not isinstance(card, Card):
                    raise HandError(f"a hand holds cards, got {card!r}")
                if mask >> card.index & 1:
                    raise HandError(f"duplicate card {card} in hand")
                mask |= 1 << card.index
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a dotted hand ``A.KT9.KT97.K7`` (``-`` for a void), a card list
        ``SA CK CT``, or suit groups as :meth:`symbols` prints them, ``♠A ♣KT9``.

        >>> Hand.parse("♠A ♣KT9 ♦KT97 ♥K7") == Hand.parse("A.KT9.KT97.K7")
        True
        """
        if not isinstance(text, str):
            raise HandError(f"cannot read hand {text!r}: expected text such as 'A.KT9.KT97.K7' or 'SA CK'")
        t = text.strip()
        if "." in t and t.count(".") != 3 and not re.search(r"\s", t):
            raise HandError(f"cannot read hand {text!r}: a dotted hand has 4 suit groups ♠.♣.♦.♥ "
                            f"('-' for a void), this one has {t.count('.') + 1}")
        if t.count(".") == 3 and not re.search(r"\s", t):
            mask = 0
            for suit, group in enumerate(t.split(".")):
                if group == "-" or group == "":
                    continue
                for rank_text in re.findall(r"10|.", latin(group)):
                    rank = _RANK_OF_TEXT.get(rank_text)
                    if rank is None:
                        raise HandError(f"unknown rank {rank_text!r} in hand {text!r}{_foreign(rank_text)}")
                    bit = 1 << (suit * 8 + rank)
                    if mask & bit:
                        raise HandError(
                            f"duplicate card {SUITS[suit]}{RANKS[rank]} in hand {text!r}"
                        )
                    mask |= bit
            return cls(mask)
        try:
            cards = [card for token in re.split(r"[\s,]+", t) if token for card in _suit_group(token)]
        except CardError as exc:
            raise HandError(f"cannot read hand {text!r}: {exc}") from None
        seen = 0
        for card in cards:
            if seen >> card.index & 1:
                raise HandError(f"duplicate card {card} in hand {text!r}")
            seen |= 1 << card.index
        return cls(seen)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of_mask(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        """``Card.parse("SA") in hand``, or simply ``"SA" in hand``."""
        if isinstance(card, str):
            card = Card.parse(card)
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("Hand", self.mask))

    def suit_ranks(self, suit: int) -> str:
        """Ranks held in one suit, high to low, e.g. ``'KT9'`` (empty for a void)."""
        return "".join(RANKS[r] for r in range(7, -1, -1) if self.mask >> (suit * 8 + r) & 1)

    def __str__(self) -> str:
        return ".".join(self.suit_ranks(s) or "-" for s in range(4))

    def symbols(self) -> str:
        """The hand with suit symbols, voids left out: ``♠A ♣KT9 ♦KT97 ♥K7``."""
        return " ".join(SUIT_SYMBOLS[s] + self.suit_ranks(s) for s in range(4) if self.suit_ranks(s))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __reduce__(self):
        # Pickled as its mask (hands travel to other processes: a cluster's
        # workers), rebuilt and checked by the constructor.
        return (Hand, (self.mask,))
