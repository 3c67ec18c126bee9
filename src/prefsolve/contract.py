"""Contracts of Russian Preferans: the bidding ladder, parsing and values.

A :class:`Contract` is a game (level 6..10 in a strain ♠ ♣ ♦ ♥ NT) or a
misère, optionally *without talon* (the classic «игра без прикупа», RULES.md §2.5).
Contracts compare by seniority on the 26-step ladder of RULES.md §2.1
(6♠ < 6♣ < … < 8NT < misère < 9♠ < … < 10NT)::

    >>> Contract.parse("раз") < Contract.parse("два") < Contract.parse("8 БК")
    True
    >>> str(Contract.parse("семь четвёртых")), str(Contract.parse("мизер"))
    ('7H', 'misere')
    >>> LADDER[15], len(LADDER)
    (Contract(misere), 26)

Contracts without talon rank directly above the same contract with talon in
this natural ordering; the classic profile's own ladder (where misère also
outranks the 9-level games with talon) is built by :func:`prefsolve.auction.ladder`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prefsolve.errors import ContractError
from prefsolve.i18n import _
from prefsolve.notation import check_language, normal
from prefsolve.strains import ALLPASS, GAME_STRAINS, MISERE, MISERE_WORDS, STRAIN_SYMBOLS, strain_of

if TYPE_CHECKING:  # pragma: no cover - only for type hints
    from prefsolve.rules import Rules

LEVELS = (6, 7, 8, 9, 10)
#: Misère sits between 8NT (index 14) and 9♠ (index 16) (RULES.md §2.1).
MISERE_INDEX = 15
#: Value of a game by level; misère is worth 10 (RULES.md §5.2).
VALUES = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
MISERE_VALUE = 10
#: Tricks the defenders must take together (RULES.md §3.3; the 10 is a switch, RULES.md §3.4).
OBLIGATIONS = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}

# The spoken bidding words (RULES.md §2.1): раз = 6♠ … бескозырка = 6NT;
# «пять» is the spoken fifth step (6NT) used at some tables.
_SIX_WORDS = {
    "раз": "S", "два": "C", "три": "D", "четыре": "H",
    "бескозырка": "NT", "безкозырка": "NT", "пять": "NT",
}
_LEVEL_WORDS = {"шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10}
# Games are also named by level nouns: «шестирик», «семерная», «девятирная» …
for _level, _stems in ((6, ("шест",)), (7, ("сем",)), (8, ("восьм",)), (9, ("девят",)), (10, ("десят",))):
    for _stem in _stems:
        for _end in ("ерик", "ирик", "ерная", "ирная", "ерной", "ирной"):
            _LEVEL_WORDS[_stem + _end] = _level
del _level, _stems, _stem, _end
# «семь первых» … «семь четвертых»: a strain named by its step on the ladder;
# the fifth step (NT) is «пятых» or a no-trump word. After a level, a strain
# may also be named as anywhere else (:func:`prefsolve.strains.strain_of`):
# «шесть пик», «7 червей», «семирик на червях», «восьмерик вини», «10 бк».
_ORDINALS = {
    "первых": "S", "первая": "S", "первые": "S", "первый": "S",
    "вторых": "C", "вторая": "C", "вторые": "C", "второй": "C",
    "третьих": "D", "третья": "D", "третьи": "D", "третий": "D",
    "четвертых": "H", "четвертая": "H", "четвертые": "H", "четвертый": "H",
    "пятых": "NT", "пятая": "NT", "пятые": "NT", "пятый": "NT",
}
# Misère as score records write it: the strain's names and «мизер (упал)».
_MISERE_WORDS = MISERE_WORDS | {"мизер (упал)", "упал"}
# Suffixes meaning "without talon" («без прикупа», «б/п»).
_HAND_SUFFIX = re.compile(r"(?:\s*[-/]?\s*)(hand|without talon|без прикупа|б/п|бп|bp)$")
_DIGIT_FORM = re.compile(r"^(10|[6-9])\s*(.+)$")


@dataclass(frozen=True)
class Contract:
    """An immutable contract: a game ``level``/``strain`` or a misère.

    ``level`` is 6..10 for games and ``None`` for misère; ``strain`` is one
    of :data:`~prefsolve.strains.GAME_STRAINS` or ``"misere"``; ``without_talon`` marks the classic
    games played on the declarer's own ten cards (RULES.md §2.5).

    >>> Contract(7, "H")
    Contract(7H)
    >>> Contract(11, "S")
    Traceback (most recent call last):
    ...
    prefsolve.errors.ContractError: level 11 is not a game level (6..10)
    """

    level: int | None
    strain: str
    without_talon: bool = False

    def __post_init__(self) -> None:
        if self.strain == MISERE:
            if self.level is not None:
                raise ContractError(_("misère has no level, got {level}", level=repr(self.level)))
            return
        if self.strain not in GAME_STRAINS:
            raise ContractError(_("unknown strain {strain} (expected S C D H NT or misere)", strain=repr(self.strain)))
        if self.level not in LEVELS:
            raise ContractError(_("level {level} is not a game level (6..10)", level=repr(self.level)))

    # -- construction -------------------------------------------------------
    @classmethod
    def misere(cls, without_talon: bool = False) -> Contract:
        """The misère contract.

        >>> Contract.misere().is_misere
        True
        """
        return cls(None, MISERE, without_talon)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``6S``, ``7♥``, ``8NT``, ``8 БК``, ``misere``, ``мизер`` or a spoken word.

        >>> [str(Contract.parse(t)) for t in ("6s", "7♥", "8 БК", "два", "десять четвёртых")]
        ['6S', '7H', '8NT', '6C', '10H']
        >>> str(Contract.parse("девять первых без прикупа")), str(Contract.parse("семирик на червях"))
        ('9S-hand', '7H')
        >>> Contract.parse("6X")
        Traceback (most recent call last):
        ...
        prefsolve.errors.ContractError: unknown contract '6X'
        """
        if not isinstance(text, str):
            raise ContractError(_("a contract must be text, got {value}", value=repr(text)))
        norm = normal(text)
        hand = False
        m = _HAND_SUFFIX.search(norm)
        if m:   # a suffix alone («без прикупа») leaves nothing to parse: an unknown contract below
            hand = True
            norm = norm[: m.start()].strip()
        contract = cls._parse_plain(norm, hand)
        if contract is not None:
            return contract
        if strain_of(norm) == ALLPASS:
            raise ContractError(_("{text} is all-pass, which is not a contract: nobody declares (play it with the "
                                  "strain allpass)", text=repr(text)))
        raise ContractError(_("unknown contract {text}", text=repr(text)))

    @classmethod
    def _parse_plain(cls, norm: str, hand: bool) -> Contract | None:
        """The contract of a normalised text without its «без прикупа», or None."""
        if norm in _MISERE_WORDS:
            return cls.misere(hand)
        if norm in _SIX_WORDS:
            return cls(6, _SIX_WORDS[norm], hand)
        m = _DIGIT_FORM.match(norm)
        if m:
            level, strain = int(m.group(1)), strain_of(m.group(2))
        else:
            words = norm.split(" ", 1)
            if len(words) != 2 or words[0] not in _LEVEL_WORDS:
                return None
            level, strain = _LEVEL_WORDS[words[0]], _ORDINALS.get(words[1]) or strain_of(words[1])
        return cls(level, strain, hand) if strain in GAME_STRAINS else None

    # -- properties ----------------------------------------------------------
    @property
    def is_misere(self) -> bool:
        """True for misère (with or without talon)."""
        return self.strain == MISERE

    @property
    def index(self) -> int:
        """Position on the 26-step ladder of RULES.md §2.1 (0 = 6♠, 15 = misère, 25 = 10NT).

        Contracts without talon share the index of the same contract with
        talon; they rank just above it (see :attr:`seniority`).

        >>> Contract.parse("6S").index, Contract.parse("misere").index, Contract.parse("9S").index
        (0, 15, 16)
        """
        if self.is_misere:
            return MISERE_INDEX
        assert self.level is not None
        idx = (self.level - 6) * 5 + GAME_STRAINS.index(self.strain)
        return idx + 1 if self.level >= 9 else idx  # misère comes before 9♠ (RULES.md §2.1)

    @property
    def seniority(self) -> tuple[int, int]:
        """Sort key of the natural ordering: (ladder index, without talon)."""
        return (self.index, int(self.without_talon))

    @property
    def value(self) -> int:
        """Contract value ``v`` of RULES.md §5.2: 2/4/6/8/10 by level, misère 10.

        Games without talon keep the value of their level: no source gives
        another price for them (RULES.md §2.5).

        >>> [Contract.parse(t).value for t in ("6NT", "7S", "8H", "9C", "10D", "misere")]
        [2, 4, 6, 8, 10, 10]
        """
        if self.is_misere:
            return MISERE_VALUE
        assert self.level is not None
        return VALUES[self.level]

    def whist_obligation(self, rules: Rules | str | None = None) -> int:
        """Tricks the defenders must take together (RULES.md §3.3).

        On a 10 the obligation is 1, or 0 when the profile's ``ten_whist``
        switch is ``"checked"`` (RULES.md §3.4: nobody whists, both defenders
        catch and the hand is always played: see
        :func:`prefsolve.auction.check_whist_calls`). Misère has no obligation.

        >>> [Contract.parse(t).whist_obligation() for t in ("6S", "7S", "8S", "9S", "10S", "misere")]
        [4, 2, 1, 1, 1, 0]
        """
        if self.is_misere:
            return 0
        assert self.level is not None
        if rules is not None:   # None: the obligation table as it stands (RULES.md §3.3)
            from prefsolve.rules import Rules
            rules = Rules.of(rules)
        if self.level == 10 and rules is not None and rules.ten_whist == "checked":
            return 0
        return OBLIGATIONS[self.level]

    # -- ordering and printing ------------------------------------------------
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.seniority < other.seniority

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.seniority <= other.seniority

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.seniority > other.seniority

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Contract):
            return NotImplemented
        return self.seniority >= other.seniority

    def __str__(self) -> str:
        base = MISERE if self.is_misere else f"{self.level}{self.strain}"
        return base + "-hand" if self.without_talon else base

    def __repr__(self) -> str:
        return f"Contract({self})"

    @property
    def symbol(self) -> str:
        """Display form with suit symbols, e.g. ``7♥``, ``8NT``, ``misère``."""
        base = "misère" if self.is_misere else f"{self.level}{STRAIN_SYMBOLS[self.strain]}"
        return base + " (без прикупа)" if self.without_talon else base

    def format(self, lang: str = "en") -> str:
        """The contract as ``lang`` writes it: ``7♥``, ``8NT``, ``misère``,
        ``9♠ without talon`` (``en``); ``7 червей``, ``8 бк``, ``мизер``,
        ``9 пик без прикупа`` (``ru``). :meth:`parse` reads either back.

        >>> [Contract.parse(t).format("ru") for t in ("6S", "7H", "8D", "9C", "10NT", "misere", "9S-hand")]
        ['6 пик', '7 червей', '8 бубен', '9 треф', '10 бк', 'мизер', '9 пик без прикупа']
        """
        words = _FORMS[check_language(lang)]
        base = words[MISERE] if self.is_misere else f"{self.level}{words[self.strain]}"
        return f"{base} {words['hand']}" if self.without_talon else base


# Contract.format's words: a strain after its level, misère, and «without talon».
_FORMS = {
    "en": {**STRAIN_SYMBOLS, MISERE: "misère", "hand": "without talon"},
    "ru": {"S": " пик", "C": " треф", "D": " бубен", "H": " червей", "NT": " бк", MISERE: "мизер",
           "hand": "без прикупа"},
}


#: The 26 contracts with talon in seniority order (RULES.md §2.1).
LADDER: tuple[Contract, ...] = tuple(
    sorted([Contract(level, s) for level in LEVELS for s in GAME_STRAINS] + [Contract.misere()])
)
