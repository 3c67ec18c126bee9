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

The Russian notation is read too (:mod:`prefsolve.notation`, docs/GLOSSARY.md):
ranks ``В Д К Т`` (валет, дама, король, туз: ``Т`` is the ace) and suits
``п т б ч`` (пики, трефы, бубны, черви). In a dotted hand the suits are given
by position, so every letter is a rank; a card names its suit before or after
its rank (``Тп``, ``пТ``, ``10ч``, ``Дтр``).

>>> Hand.parse("ТК7.A8.KQ.AKQ").symbols()
'♠AK7 ♣A8 ♦KQ ♥AKQ'
>>> Card.parse("Тп"), Card.parse("ч10"), Card.parse("Дтр"), Card.parse("СА")   # С: the Latin C it looks like
(Card.parse('SA'), Card.parse('HT'), Card.parse('CQ'), Card.parse('CA'))
>>> Hand.parse("ТК7.Т8.КД.ТКД").format("ru"), Card.parse("HA").format("ru")
('ТК7.Т8.КД.ТКД', '♥Т')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .checks import whole
from .errors import CardError, HandError
from .i18n import _, shown
from .notation import (
    CARD_SUITS,
    RANK_SPELLINGS,
    RANK_TEXTS,
    ambiguity,
    check_language,
    foreign_hint,
    rank_of,
    rank_spellings,
    rank_text,
)
from .strains import SUIT_SYMBOLS, SUITS

RANKS = "789TJQKA"


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
            raise CardError(_("no card with suit {suit} and rank {rank} (suit 0..3, rank 0..7)", suit=repr(suit),
                              rank=repr(rank)))
        object.__setattr__(self, "suit", int(suit))
        object.__setattr__(self, "rank", int(rank))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(_("Card is immutable"))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card of index 0..31 (♠7 is 0, ♥A is 31)."""
        if whole(index) is None or not 0 <= index < 32:
            raise CardError(_("no card with index {index} (0..31)", index=repr(index)))
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card: a suit and a rank, in either order and any case. Latin
        ``SA``, ``AS``, ``S10``, ``10S``, ``♠A``, ``A♠``; Russian ``Тп``,
        ``пТ``, ``10ч``, ``Кт``, ``Дтр`` (:mod:`prefsolve.notation`).

        Both orders are tried; a token whose two readings name different cards
        would be refused. None does: ``Т`` is the only letter that is both a
        suit (трефы) and a rank (туз), and ``ТТ`` is the ace of clubs either way.
        """
        if not isinstance(text, str):
            raise CardError(_("cannot read card {text}: expected text such as 'SA' or 'H10'", text=repr(text)))
        card = _CARD_OF_TEXT.get(text.strip().lower().replace("\ufe0f", ""))
        if card is not None:
            return card
        why = ambiguity(text)
        if why is not None:
            raise CardError(_("cannot read card {text}: {why}", text=repr(text), why=why))
        both = _TWO_READINGS.get(text.strip().lower())
        if both:
            raise CardError(_("card {text} can be read two ways, as {one} or {other}: write the suit as a symbol "
                              "(♠ ♣ ♦ ♥)", text=repr(text), one=shown(both[0], both[0].symbol),
                              other=shown(both[1], both[1].symbol)))
        why = _("expected a suit (S C D H, ♠ ♣ ♦ ♥ or п т б ч) and a rank (7 8 9 10 J Q K A or В Д К Т), e.g. "
                "'SA', 'H10' or 'Тп'{hint}", hint=foreign_hint(text))
        raise CardError(_("cannot read card {text}: {why}", text=repr(text), why=why))

    @property
    def index(self) -> int:
        return self.suit * 8 + self.rank

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``♠A``."""
        return SUIT_SYMBOLS[self.suit] + RANKS[self.rank]

    def format(self, lang: str = "en") -> str:
        """The card with its suit symbol and the rank as ``lang`` writes it:
        ``♠A`` and ``♥T`` (``en``, the :attr:`symbol`), ``♠Т`` and ``♥10`` (``ru``).
        :meth:`parse` reads either back."""
        return SUIT_SYMBOLS[self.suit] + rank_text(self.rank, lang)

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


def _card_spellings() -> tuple[dict[str, Card], dict[str, list[Card]]]:
    """Every spelling of every card, lower case, a suit spelling and a rank
    spelling in either order; and apart, the spellings that would name more
    than one card. There are none with today's letters: ``Т`` is the only
    letter that is both a suit (трефы) and a rank (туз), and ``тт`` is the ace
    of clubs either way."""
    readings: dict[str, set[Card]] = {}
    for suit_spelling, suit in CARD_SUITS:
        for rank_spelling, rank in RANK_SPELLINGS:
            for key in (suit_spelling + rank_spelling, rank_spelling + suit_spelling):
                readings.setdefault(key, set()).add(_CARDS[suit * 8 + rank])
    one = {key: next(iter(found)) for key, found in readings.items() if len(found) == 1}
    more = {key: sorted(found) for key, found in readings.items() if len(found) > 1}
    return one, more


_CARD_OF_TEXT, _TWO_READINGS = _card_spellings()


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
            raise CardError(_("Cards() takes cards; read card text {text} with Cards.parse()", text=repr(cards)))
        items = []
        for card in cards:
            if isinstance(card, str):
                card = Card.parse(card)
            elif not isinstance(card, Card):
                raise CardError(_("expected a card, got {value}", value=repr(card)))
            items.append(card)
        return super().__new__(cls, items)

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Cards separated by spaces or commas, in the order given: ``"SA S7 D9"``."""
        if not isinstance(text, str):
            raise CardError(_("cannot read cards {text}: expected text such as 'SA S7 D9'", text=repr(text)))
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

    def format(self, lang: str = "en") -> str:
        """The cards as ``lang`` writes them: ``♠A ♥T`` (``en``, as ``str``), ``♠Т ♥10`` (``ru``)."""
        return " ".join(c.format(lang) for c in self)

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
    """A card (``SA``, ``A♠``, ``Тп``), or a suit and its ranks as ``Hand.symbols``
    prints them (``♠KT9``, ``S109``, ``пТК7``, ``трКД``): a suit first, then two
    or more ranks."""
    t = token.strip().lower().replace("\ufe0f", "")
    for spelling, suit in CARD_SUITS:
        ranks = [rank_of(r) for r in rank_spellings(t[len(spelling):])] if t.startswith(spelling) else []
        if len(ranks) >= 2 and None not in ranks:
            return [_CARDS[suit * 8 + r] for r in ranks if r is not None]
    return [Card.parse(token)]


def _duplicate(card: Card, text: str) -> HandError:
    """The error of a card given twice in a hand; when Cyrillic Т is in the
    text and the card is an ace, a reminder that Т is туз, the ace."""
    if card.rank == 7 and "т" in text.lower():
        return HandError(_("duplicate card {card} in hand {text} (Cyrillic Т is туз, the ace; the ten is 10 or T)",
                           card=shown(card), text=repr(text)))
    return HandError(_("duplicate card {card} in hand {text}", card=shown(card), text=repr(text)))


def _dotted_mask(text: str) -> int:
    """The cards of a dotted hand ``A.KT9.KT97.K7``: suits by position, so every letter is a rank."""
    mask = 0
    for suit, group in enumerate(text.strip().split(".")):
        if group == "-":    # a void; an empty group has no rank to read either
            continue
        for spelling in rank_spellings(group):
            rank = rank_of(spelling)
            if rank is None:
                raise HandError(_("unknown rank {rank} in hand {text}{hint}", rank=repr(spelling), text=repr(text),
                                   hint=foreign_hint(spelling)))
            if mask >> (suit * 8 + rank) & 1:
                raise _duplicate(_CARDS[suit * 8 + rank], text)
            mask |= 1 << (suit * 8 + rank)
    return mask


def _listed_mask(text: str) -> int:
    """The cards of a card list ``SA CK CT`` or of suit groups ``♠A ♣KT9``."""
    try:
        cards = [card for token in re.split(r"[\s,]+", text.strip()) if token for card in _suit_group(token)]
    except CardError as exc:
        raise HandError(_("cannot read hand {text}: {reason}", text=repr(text), reason=exc)) from None
    mask = 0
    for card in cards:
        if mask >> card.index & 1:
            raise _duplicate(card, text)
        mask |= 1 << card.index
    return mask


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
                raise HandError(_("hand mask {mask} is not a 32-bit card set", mask=repr(cards)))
            mask = cards
        elif isinstance(cards, str):
            raise HandError(_("Hand() takes cards; read hand text {text} with Hand.parse()", text=repr(cards)))
        else:
            mask = 0
            for card in cards:
                if isinstance(card, str):
                    card = Card.parse(card)
                elif not isinstance(card, Card):
                    raise HandError(_("a hand holds cards, got {value}", value=repr(card)))
                if mask >> card.index & 1:
                    raise HandError(_("duplicate card {card} in hand", card=shown(card)))
                mask |= 1 << card.index
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(_("Hand is immutable"))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a dotted hand ``A.KT9.KT97.K7`` (``-`` for a void), a card list
        ``SA CK CT``, or suit groups as :meth:`symbols` prints them, ``♠A ♣KT9``.

        >>> Hand.parse("♠A ♣KT9 ♦KT97 ♥K7") == Hand.parse("A.KT9.KT97.K7")
        True
        """
        if not isinstance(text, str):
            raise HandError(_("cannot read hand {text}: expected text such as 'A.KT9.KT97.K7' or 'SA CK'",
                               text=repr(text)))
        t = text.strip()
        why = ambiguity(t)
        if why is not None:
            raise HandError(_("cannot read hand {text}: {reason}", text=repr(text), reason=why))
        dotted = "." in t and not re.search(r"\s", t)
        if dotted and t.count(".") != 3:
            raise HandError(_("cannot read hand {text}: a dotted hand has 4 suit groups ♠.♣.♦.♥ ('-' for a void), "
                              "this one has {groups}", text=repr(text), groups=t.count(".") + 1))
        return cls(_dotted_mask(text) if dotted else _listed_mask(text))

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
        # The tag keeps a hand's hash apart from its mask's; any tag would do (an equivalent mutant).
        return hash(("Hand", self.mask))  # pragma: no mutate

    def suit_ranks(self, suit: int, lang: str = "en") -> str:
        """Ranks held in one suit, high to low, as ``lang`` writes them:
        ``'KT9'``, in Russian ``'К109'`` (empty for a void)."""
        letters = RANK_TEXTS[check_language(lang)]
        return "".join(letters[r] for r in range(7, -1, -1) if self.mask >> (suit * 8 + r) & 1)

    def __str__(self) -> str:
        return ".".join(self.suit_ranks(s) or "-" for s in range(4))

    def format(self, lang: str = "en") -> str:
        """The dotted hand with the ranks as ``lang`` writes them: ``A.KT9.KT97.K7``
        (``en``, as ``str``), ``Т.К109.К1097.К7`` (``ru``). :meth:`parse` reads either back."""
        return ".".join(self.suit_ranks(s, lang) or "-" for s in range(4))

    def symbols(self, lang: str = "en") -> str:
        """The hand with suit symbols, voids left out: ``♠A ♣KT9 ♦KT97 ♥K7``
        (in Russian ``♠Т ♣К109 ♦К1097 ♥К7``)."""
        groups = (self.suit_ranks(s, lang) for s in range(4))
        return " ".join(SUIT_SYMBOLS[s] + ranks for s, ranks in enumerate(groups) if ranks)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __reduce__(self):
        # Pickled as its mask (hands travel to other processes: a cluster's
        # workers), rebuilt and checked by the constructor.
        return (Hand, (self.mask,))
