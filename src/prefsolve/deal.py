"""A Preferans deal: the hands of seats 0, 1, 2 and, optionally, the talon.

Seat 0 is first hand (left of the dealer); play goes 0 -> 1 -> 2 -> 0. A full
deal has three 10-card hands and a 2-card talon; an ending (a position at a
trick boundary) has three hands of equal size from 1 to 10 cards and no talon.

>>> d = Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> str(d.talon), len(d.hands[1])
('8.Q.-.-', 10)
>>> Deal.parse(str(d)) == d
True

Hands are read as :meth:`Hand.parse <prefsolve.cards.Hand.parse>` reads them,
so the Russian notation too (docs/GLOSSARY.md):

>>> Deal.parse("ТК7.Т8.КД.ТКД Д.К109.В9.В987 В8.ДВ7.Т1087.10 109.-.-.-").hands[0]
Hand.parse('AK7.A8.KQ.AKQ')
"""

from __future__ import annotations

import random
import re

from .cards import ALL_CARDS, Hand
from .checks import check_seat, check_seed, whole
from .errors import DealError, HandError, PrefsolveError
from .i18n import _, get_language, shown
from .strains import SUIT_SYMBOLS


class Deal:
    """Three hands and an optional talon; immutable and validated."""

    __slots__ = ("hands", "talon")
    hands: tuple[Hand, Hand, Hand]
    talon: Hand | None

    def __init__(self, hands, talon=None) -> None:
        if isinstance(hands, str):
            raise DealError(_("Deal() takes 3 hands; read deal text with Deal.parse()"))
        hands = tuple(_as_hand(h) for h in hands)
        if talon is not None:
            talon = _as_hand(talon)
        if len(hands) != 3:
            raise DealError(_("a deal has 3 hands, got {count}", count=len(hands)))
        # Duplicates first: a duplicated card usually also makes sizes unequal.
        seen = 0
        for part in hands + ((talon,) if talon is not None else ()):
            dup = seen & part.mask
            if dup:
                card = ALL_CARDS[(dup & -dup).bit_length() - 1]
                raise DealError(_("duplicate card {card} in deal", card=shown(card)))
            seen |= part.mask
        sizes = [len(h) for h in hands]
        if len(set(sizes)) != 1:
            raise DealError(_("hands of unequal size {sizes} (seats 0, 1, 2)", sizes=sizes))
        if not 1 <= sizes[0] <= 10:
            raise DealError(_("hands must hold 1 to 10 cards, got {value}", value=sizes[0]))
        if talon is not None:
            if len(talon) != 2:
                raise DealError(_("the talon must be 2 cards, got {count}", count=len(talon)))
            if sizes[0] != 10:
                raise DealError(_("a talon goes with 10-card hands, got {size}-card hands", size=sizes[0]))
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "talon", talon)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(_("Deal is immutable"))

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Parse a deal: dotted hands separated by spaces, or hands separated by ``|``.

        >>> Deal.parse("SA SK|SQ SJ|ST S9").hands[2]
        Hand.parse('T9.-.-.-')
        """
        if not isinstance(text, str):
            raise DealError(_("a deal is text, got {kind}", kind=type(text).__name__))
        t = text.strip()
        if "|" in t:
            parts = [p.strip() for p in t.split("|")]
        else:
            parts = t.split()
            if not all(p.count(".") == 3 for p in parts):
                raise DealError(_("cannot read deal {text}: give 3 hands (and an optional talon) as dotted suits "
                                  "'A.KT9.KT97.K7' separated by spaces, or card lists separated by '|'",
                                  text=repr(text)))
        if len(parts) not in (3, 4):
            raise DealError(_("a deal has 3 hands and an optional talon, got {count} parts in {text}",
                              count=len(parts), text=repr(text)))
        try:
            hands = [Hand.parse(p) for p in parts]
        except HandError as exc:
            raise DealError(_("{reason} (in deal {text})", reason=exc, text=repr(text))) from None
        try:
            return cls(hands[:3], hands[3] if len(hands) == 4 else None)
        except PrefsolveError as exc:
            raise DealError(_("{reason}: {text}", reason=exc, text=repr(text))) from None

    @classmethod
    def random(cls, seed: int | None = None, *, cards: int = 10, with_talon: bool | None = None) -> Deal:
        """A uniformly random deal; ``cards`` < 10 gives an ending without talon.
        ``with_talon`` (default: for 10-card hands) deals the talon too.

        >>> Deal.random(7) == Deal.random(7)
        True
        """
        size = whole(cards)
        if size is None or not 1 <= size <= 10:
            raise DealError(_("hands must hold 1 to 10 cards, got {value}", value=repr(cards)))
        cards = size
        seed = check_seed(seed)
        if with_talon is None:
            with_talon = cards == 10
        if with_talon and cards != 10:
            raise DealError(_("a talon goes with 10-card hands"))
        deck = list(ALL_CARDS)
        random.Random(seed).shuffle(deck)
        hands = [deck[i * cards:(i + 1) * cards] for i in range(3)]
        return cls([Hand(h) for h in hands], Hand(deck[30:32]) if with_talon else None)

    @property
    def tricks(self) -> int:
        """Number of tricks to play: the hand size."""
        return len(self.hands[0])

    def without_talon(self) -> Deal:
        return Deal(self.hands)

    def with_hand(self, seat: int, hand: Hand | str) -> Deal:
        """The deal with seat ``seat``'s hand replaced."""
        hands = list(self.hands)
        hands[check_seat(seat, "seat")] = _as_hand(hand)
        return Deal(hands, self.talon)

    def __str__(self) -> str:
        parts = [str(h) for h in self.hands]
        if self.talon is not None:
            parts.append(str(self.talon))
        return " ".join(parts)

    def format(self, lang: str = "en") -> str:
        """The deal's text with the ranks as ``lang`` writes them (``str`` for
        ``en``); :meth:`parse` reads it back.

        >>> Deal.parse("AK.-.-.- QJ.-.-.- T7.-.-.-").format("ru")
        'ТК.-.-.- ДВ.-.-.- 107.-.-.-'
        """
        return " ".join(h.format(lang) for h in self.hands + ((self.talon,) if self.talon is not None else ()))

    def __repr__(self) -> str:
        return f"Deal.parse({str(self)!r})"

    def __reduce__(self):
        # Pickled as its hands and talon, rebuilt and checked by the constructor.
        return (Deal, (self.hands, self.talon))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other.hands == self.hands and other.talon == self.talon

    def __hash__(self) -> int:
        return hash((self.hands, self.talon))

    def diagram(self) -> str:
        """A text diagram with suit symbols: seats 1 and 2 on top, seat 0 below (in the active language)."""
        lang = get_language()

        def lines(title: str, hand: Hand) -> list[str]:
            return [title] + [f"{SUIT_SYMBOLS[s]} {hand.suit_ranks(s, lang) or '-'}" for s in range(4)]

        left, right = lines(_("Seat {seat}", seat=1), self.hands[1]), lines(_("Seat {seat}", seat=2), self.hands[2])
        out = [f"  {a:<22}{b}" for a, b in zip(left, right)]
        if self.talon is not None:
            out.append(f"{'':12}" + _("Talon {cards}", cards=self.talon.symbols(lang)))
        out += [f"{'':12}{row}" for row in lines(_("Seat 0 (first hand)"), self.hands[0])]
        return "\n".join(out)


def _as_hand(h: object) -> Hand:
    """A hand given as a Hand, text or cards."""
    if isinstance(h, Hand):
        return h
    if isinstance(h, str):
        return Hand.parse(h)
    return Hand(h)   # type: ignore[arg-type]


def split_deal_lines(text: str) -> list[tuple[int, str]]:
    """Deal lines of a file with their line numbers (from 1): blank lines and
    ``#`` comments skipped, so that an error can name the line of the file.
    Lines end at LF, CR LF or a lone CR (old Mac files), as editors count
    them: ``str.splitlines`` would also split at a form feed or U+2028
    inside a comment."""
    return [(number, ln.strip()) for number, ln in enumerate(re.split(r"\r\n|\r|\n", text), 1)
            if ln.strip() and not re.match(r"\s*#", ln)]
