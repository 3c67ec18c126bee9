"""The suits and strains of Preferans, and how the talon takes part.

Suits are numbered 0..3 in bidding order ♠ < ♣ < ♦ < ♥ (letters ``S C D H``).
A **strain** is what a deal is played in: a trump suit, no-trump (``NT``), or
``misere`` (no trump, the declarer tries to take no trick); play and advice
also know ``allpass`` (all-pass, распасы: no trump, every player for himself).
The **talon mode** says how the two talon cards take part (see
docs/VOCABULARY.md): ``take``, ``lead`` or ``ignore``.

:func:`parse_strain` is the one reader of a strain's name: suit letters,
symbols and words in English and Russian (``п``, ``тр``, ``пики``, ``червей``,
:mod:`prefsolve.notation`), ``NT`` and ``бк``/``бескозырка``, ``misere`` and
``мизер``, ``allpass`` and ``распасы``.

>>> parse_strain("♥"), parse_strain("nt"), parse_strain("Misère"), parse_strain("БК"), parse_strain("пики")
('H', 'NT', 'misere', 'NT', 'S')
>>> parse_strain("All-pass", allpass=True), parse_strain("распасы", allpass=True), trump_of("D"), trump_of("NT")
('allpass', 'allpass', 2, -1)
>>> strain_label("misere"), strain_label("allpass"), strain_label("S"), strain_label("NT", "ru")
('Misère', 'All-pass', '♠', 'БК')
"""

from __future__ import annotations

from .errors import RulesError, StrainError
from .i18n import _
from .notation import check_language, normal, suit_of

#: Suit letters and symbols, in bidding order: index = suit number.
SUITS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")

MISERE = "misere"
ALLPASS = "allpass"
#: The strains of a game contract, in bidding order: ♠ < ♣ < ♦ < ♥ < no-trump.
GAME_STRAINS = ("S", "C", "D", "H", "NT")
#: The strains a contract is solved in: the four trump suits, no-trump, misère.
STRAINS = GAME_STRAINS + (MISERE,)
#: The strains a deal can be played in: :data:`STRAINS` and all-pass.
PLAY_STRAINS = STRAINS + (ALLPASS,)
STRAIN_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT", MISERE: "Misère", ALLPASS: "All-pass"}
_LABELS = {"en": STRAIN_SYMBOLS,
           "ru": {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "БК", MISERE: "Мизер", ALLPASS: "Распасы"}}

#: How the talon takes part: the declarer takes it and discards two (games and
#: misère); its cards are turned and lead the first tricks (all-pass); or it
#: plays no part.
TAKE, LEAD, IGNORE = "take", "lead", "ignore"
TALON_MODES = (TAKE, LEAD, IGNORE)

_NT_WORDS = {"nt", "n", "notrump", "no-trump", "no trump", "bk", "бк", "б/к", "без козыря", "бескозырка",
             "безкозырка", "бескозырки", "бескозырок"}
#: Names of misère, normalised (:func:`prefsolve.notation.normal`).
MISERE_WORDS = frozenset({"misere", "misère", "mizer", "m", "мизер"})
_ALLPASS_WORDS = {"allpass", "all-pass", "all pass", "raspasy", "распасы", "распас", "распасовка"}
_TRUMP = {"S": 0, "C": 1, "D": 2, "H": 3}


def strain_of(text: str) -> str | None:
    """The strain a name means (one of :data:`PLAY_STRAINS`), or None for no strain's name.

    >>> strain_of("7"), strain_of("шесть"), strain_of(" Черви "), strain_of("б/к")
    (None, None, 'H', 'NT')
    """
    suit = suit_of(text)
    if suit is not None:
        return SUITS[suit]
    key = normal(text)
    if key in _NT_WORDS:
        return "NT"
    if key in MISERE_WORDS:
        return MISERE
    return ALLPASS if key in _ALLPASS_WORDS else None


def parse_strain(strain: object, *, allpass: bool = False) -> str:
    """The canonical strain: one of :data:`STRAINS` (with ``allpass=True``,
    of :data:`PLAY_STRAINS`). Symbols, English and Russian names are read."""
    canon = strain_of(strain) if isinstance(strain, str) else None
    if canon == ALLPASS and not allpass:
        raise StrainError(_("strain {strain} is all-pass, which has no declarer: solve it with solve_allpass "
                            "(prefsolve allpass, or play --strain allpass)", strain=repr(strain)))
    if canon is None:
        known = PLAY_STRAINS if allpass else STRAINS
        raise StrainError(_("unknown strain {strain}: expected one of {strains} (or a name: ♠, spades, пики, бк, "
                            "мизер …)", strain=repr(strain), strains=", ".join(known)))
    return canon


def trump_of(strain: str) -> int:
    """The trump suit's number 0..3, or -1 for no-trump, misère and all-pass."""
    return _TRUMP.get(strain, -1)


def strain_label(strain: str, lang: str = "en") -> str:
    """A strain's name for people: ``♥``, ``NT``, ``Misère``, ``All-pass``; in
    Russian ``♥``, ``БК``, ``Мизер``, ``Распасы``. :func:`parse_strain` reads it back."""
    return _LABELS[check_language(lang)][strain]


def check_talon_mode(talon_mode: object, strain: str, has_talon: bool) -> str:
    """The talon mode to play ``strain`` with: ``talon_mode`` checked, or for
    None the default: ``take`` for a game or misère and ``lead`` for all-pass
    when the deal has a talon, ``ignore`` when it has none.

    >>> check_talon_mode(None, "S", True), check_talon_mode(None, "allpass", True), check_talon_mode(None, "NT", False)
    ('take', 'lead', 'ignore')
    """
    if talon_mode is None:
        if not has_talon:
            return IGNORE
        return LEAD if strain == ALLPASS else TAKE
    if talon_mode not in TALON_MODES:
        raise RulesError(_("unknown talon mode {mode}: expected one of {modes}", mode=repr(talon_mode),
                           modes=", ".join(TALON_MODES)))
    if talon_mode == TAKE and strain == ALLPASS:
        raise RulesError(_("talon mode 'take' is for games and misère: in all-pass nobody takes the talon "
                           "(use 'lead' or 'ignore')"))
    if talon_mode == LEAD and strain != ALLPASS:
        raise RulesError(_("talon mode 'lead' is for all-pass, not strain {strain} (use 'take' or 'ignore')",
                           strain=repr(strain)))
    return talon_mode


__all__ = ["SUITS", "SUIT_SYMBOLS", "SUIT_NAMES", "MISERE", "ALLPASS", "GAME_STRAINS", "STRAINS", "PLAY_STRAINS",
           "STRAIN_SYMBOLS", "MISERE_WORDS", "TAKE", "LEAD", "IGNORE", "TALON_MODES", "strain_of", "parse_strain",
           "trump_of", "strain_label", "check_talon_mode"]
