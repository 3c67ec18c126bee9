"""The notation players type: the letters and words of ranks and suits, Latin and Russian.

Every text that names a card, a hand, a suit, a strain, a contract or a call
is read through these tables, so that one letter means one thing wherever it
is typed (docs/GLOSSARY.md gives the rules with examples):

* **Ranks**: ``7 8 9 10 J Q K A``, ``T`` or ``X`` for the ten (Latin), and
  ``В Д К Т`` (валет, дама, король, туз) in Russian. A Cyrillic letter is read
  by its Russian meaning, never as the Latin letter it looks like: ``Т`` is the
  ace, never a ten, and ``В`` the jack.
* **Suits**: ``S C D H`` and ``♠ ♣ ♦ ♥``, and ``п т б ч`` (пики, трефы, бубны,
  черви; ``тр`` for трефы too); as words, ``spades`` … and ``пики``, ``пик``,
  ``черви``, ``червей`` …
* **Look-alikes**: the Cyrillic letters with no meaning of their own in the
  notation, ``А``, ``С`` and ``Н``, are read as the Latin letters they look
  like (the ace, clubs, hearts), which no reading can mistake; ``К`` is the
  king in both alphabets.
* **Ambiguous letters** are refused with both readings named: Cyrillic ``Х``
  is the ten in some books and a small card («фоска», which names no card) in
  others.
* Case never matters, ``ё`` is read as ``е``, and the emoji form of a suit
  symbol (``♥️``) as the symbol.

Each letter is read by its own alphabet, so Latin and Cyrillic may be mixed in
one text: in ``ТК7.A8.KQ.AKQ`` the Cyrillic ``Т`` is the ace and the Latin
``A``, ``K`` and ``Q`` are what they are in the Latin notation.

>>> rank_of("Т"), rank_of("t"), rank_of("10"), rank_of("в"), suit_of("тр"), suit_of("♥️"), suit_of("Пики")
(7, 3, 3, 4, 1, 3, 0)
>>> [rank_text(r, "ru") for r in range(8)]
['7', '8', '9', '10', 'В', 'Д', 'К', 'Т']
>>> print(ambiguity("КДхх"))
'х' can be read two ways: the ten (X in some books) or a small card (фоска, no card in particular); type 10 for the ten
"""

from __future__ import annotations

import re
import unicodedata

from .i18n import LANGUAGES, N_, _, check_language

#: Rank letters by rank 0..7 (7 8 9 10 J Q K A), as each language prints them.
RANK_TEXTS = {
    "en": ("7", "8", "9", "T", "J", "Q", "K", "A"),
    "ru": ("7", "8", "9", "10", "В", "Д", "К", "Т"),
}

# Rank spellings, lower case. Cyrillic в д к т are валет, дама, король, туз;
# Cyrillic а is the Latin A it looks like (it has no Russian meaning); x is the
# ten, as some books write it.
_RANKS = {"7": 0, "8": 1, "9": 2, "10": 3, "t": 3, "x": 3, "j": 4, "q": 5, "k": 6, "a": 7,
          "в": 4, "д": 5, "к": 6, "т": 7, "а": 7}

#: The rank spellings, lower case, with their ranks.
RANK_SPELLINGS: tuple[tuple[str, int], ...] = tuple(_RANKS.items())
# The spellings as typed in either case: the quick lookup of rank_of.
_RANKS_ANY_CASE = _RANKS | {k.upper(): v for k, v in _RANKS.items()}

# Suit spellings of one or two letters, lower case: what a card token may carry.
# Cyrillic с and н are the Latin C and H they look like (neither has a Russian
# meaning in a card); т and тр are трефы.
_SUIT_LETTERS = {"s": 0, "c": 1, "d": 2, "h": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3, "♤": 0, "♧": 1, "♢": 2, "♡": 3,
                 "п": 0, "т": 1, "тр": 1, "б": 2, "ч": 3, "с": 1, "н": 3}
#: The suit spellings a card token may carry, with their suits, longest first (``тр`` before ``т``).
CARD_SUITS: tuple[tuple[str, int], ...] = tuple(sorted(_SUIT_LETTERS.items(), key=lambda kv: -len(kv[0])))

# Suit words, normalised (lower case, ё as е): English, Russian in the cases a
# player uses («пики», «шесть пик», «семь червей», «на червях»), and «вини»,
# the old name of spades.
_SUIT_WORDS = {
    "spades": 0, "пики": 0, "пик": 0, "пика": 0, "вини": 0, "винни": 0, "на пиках": 0, "на винях": 0,
    "clubs": 1, "трефы": 1, "треф": 1, "трефа": 1, "трефи": 1, "на трефах": 1,
    "diamonds": 2, "бубны": 2, "бубен": 2, "бубна": 2, "на бубнах": 2,
    "hearts": 3, "черви": 3, "червы": 3, "червей": 3, "черва": 3, "черв": 3, "на червях": 3,
}

# Letters with two readings that give different answers: refused, never guessed.
_AMBIGUOUS = {
    "х": N_("the ten (X in some books) or a small card (фоска, no card in particular); type 10 for the ten"),
}

_AMBIGUOUS_LETTER = re.compile("|".join(re.escape(c) for letter in _AMBIGUOUS for c in (letter, letter.upper())))

# The letters of the notation: a letter outside them is named in an error.
_KNOWN_LETTERS = {k for k in (*_RANKS, *_SUIT_LETTERS) if len(k) == 1}


def normal(text: str) -> str:
    """Text as words are compared: lower case, ``ё`` as ``е``, one space between words.

    >>> normal("  Семь   ЧЕТВЁРТЫХ ")
    'семь четвертых'
    """
    return " ".join(text.lower().replace("ё", "е").replace("\ufe0f", "").split())


def rank_of(text: str) -> int | None:
    """The rank 0..7 (7 up to the ace) of one rank spelling, or None."""
    rank = _RANKS_ANY_CASE.get(text)
    return rank if rank is not None else _RANKS.get(normal(text))


def suit_of(text: str) -> int | None:
    """The suit 0..3 (♠ ♣ ♦ ♥) of a suit letter, symbol or word, or None."""
    key = normal(text)
    suit = _SUIT_LETTERS.get(key)
    return _SUIT_WORDS.get(key) if suit is None else suit


def rank_spellings(text: str) -> list[str]:
    """The rank spellings of a run of ranks, in order, as typed.

    >>> rank_spellings("ТК109")
    ['Т', 'К', '10', '9']
    """
    return re.findall(r"10|\S", text)


def suit_spellings(text: str) -> list[str]:
    """The suits of a text of suits, in order: words and two-letter spellings
    separated by spaces or commas (``"пики, черви"``, ``"тр ч"``), or a run of
    one-letter suits (``"SH"``, ``"пч"``, ``"♠♥"``), each letter one suit.

    >>> suit_spellings("пч"), suit_spellings("трефы, ч"), suit_spellings("тр")
    (['п', 'ч'], ['трефы', 'ч'], ['тр'])
    """
    out: list[str] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if token:
            out += [token] if suit_of(token) is not None else list(token.replace("\ufe0f", ""))
    return out


def ambiguity(text: str) -> str | None:
    """Why ``text`` cannot be read, when a letter of it has two readings with
    different answers (the first such letter); None when it has none."""
    m = _AMBIGUOUS_LETTER.search(text)
    if m is None:
        return None
    return _("{letter} can be read two ways: {readings}", letter=repr(m.group()),
             readings=_(_AMBIGUOUS[m.group().lower()]))


def foreign_hint(text: str) -> str:
    """For an error message: the first letter of ``text`` outside the notation,
    named, with the letters to type instead (empty when every letter is known)."""
    for ch in text:
        if ch.isalpha() and ch.lower() not in _KNOWN_LETTERS and not ch.isascii():
            try:
                name = unicodedata.name(ch).lower()
            except ValueError:
                name = _("a non-Latin character")
            return _(" ({letter} is {name}; type the suits S C D H, ♠ ♣ ♦ ♥ or п т б ч and the ranks "
                     "7 8 9 10 J Q K A or В Д К Т)", letter=repr(ch), name=name)
    return ""



def rank_text(rank: int, lang: str = "en") -> str:
    """The rank 0..7 as ``lang`` writes it: ``T`` or ``10`` for the ten, ``A`` or ``Т`` for the ace."""
    return RANK_TEXTS[check_language(lang)][rank]


__all__ = ["LANGUAGES", "RANK_TEXTS", "RANK_SPELLINGS", "CARD_SUITS", "normal", "rank_of", "suit_of", "rank_spellings",
           "suit_spellings", "ambiguity", "foreign_hint", "check_language", "rank_text"]
