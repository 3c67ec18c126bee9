"""The command line's words: one option name and one value format per concept.

docs/VOCABULARY.md lists the names used everywhere; this module is the
command line's part of that list, as data. Each :class:`OptionWord` is one
concept: the one option that spells it in every command that takes it, the
one form of its value, the commands that must take it, and the spellings it
once had. An old spelling is refused with a one-line error naming the new
option (:func:`retired_message`), and the test suite reads every command's
options against this list (tests/test_vocabulary.py), so a new command that
spells a concept another way fails the suite.

>>> retired_message("--bid")
'--bid is now --contract: one name for a contract in every command (docs/VOCABULARY.md)'
>>> WORDS["known"].metavar
'PLACE:CARDS'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, _


@dataclass(frozen=True)
class OptionWord:
    """One concept on the command line."""

    concept: str
    """The concept's word in docs/VOCABULARY.md (translated where it is shown)."""
    option: str
    """The one option that spells it."""
    metavar: str | None = None
    """The one form of its value, as the help shows it (None: a flag, or a value click names)."""
    commands: tuple[str, ...] = ()
    """The commands that must take it (others may too)."""
    retired: tuple[str, ...] = ()
    """Other spellings it had: refused, with a pointer to :attr:`option`."""


#: Every command but these takes --json: serve runs the board and prints no
#: result, bench prints its JSON always, bot speaks the bot protocol (a line
#: of JSON for each message).
WITHOUT_JSON = ("serve", "bench", "bot")

WORDS: dict[str, OptionWord] = {w.concept: w for w in (
    OptionWord(N_("contract"), "--contract", "CONTRACT", ("analyze-talon", "whist", "advise", "auction"),
               retired=("--bid", "--declare")),
    OptionWord(N_("seat"), "--seat", None, ("analyze", "analyze-talon", "whist", "advise", "play", "allpass")),
    OptionWord(N_("declarer"), "--declarer", None, ("solve", "play", "whist", "advise")),
    OptionWord(N_("leader"), "--leader", None, ("solve", "table", "play", "advise")),
    OptionWord(N_("known"), "--known", "PLACE:CARDS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord(N_("voids"), "--void", "SEAT:SUITS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord(N_("talon"), "--talon", "CARDS", ("whist", "advise")),
    OptionWord(N_("talon mode"), "--talon-mode", None, ("solve", "table", "play", "allpass")),
    OptionWord(N_("turn"), "--turn", "CARDS", ("play", "allpass")),
    OptionWord(N_("played"), "--played", "CARDS", ("play", "advise")),
    OptionWord(N_("auction"), "--auction", "CALLS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord(N_("whist calls"), "--whist", "CALLS", ("auction", "advise"), retired=("--whist-calls",)),
    OptionWord(N_("samples"), "--samples", None, ("analyze", "analyze-talon", "whist", "advise", "holdings")),
    OptionWord(N_("seed"), "--seed", None, ("deal", "analyze", "analyze-talon", "whist", "advise", "holdings")),
    OptionWord(N_("rules"), "--rules", None, ("analyze", "analyze-talon", "whist", "advise", "auction", "score")),
    OptionWord(N_("all-pass count"), "--allpass-count", "N", ("analyze", "auction")),
    OptionWord(N_("tolerance"), "--tolerance", "TRICKS", ("analyze", "analyze-talon", "whist", "advise")),
)}

#: An old spelling -> the concept's word.
RETIRED = {old: w for w in WORDS.values() for old in w.retired}


def retired_message(option: str) -> str | None:
    """The one-line error for an option's old spelling, or None when it is not one."""
    word = RETIRED.get(option.split("=", 1)[0])
    if word is None:
        return None
    return _("{old} is now {new}: one name for a {concept} in every command (docs/VOCABULARY.md)",
             old=option.split("=", 1)[0], new=word.option, concept=_(word.concept))
