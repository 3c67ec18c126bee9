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


@dataclass(frozen=True)
class OptionWord:
    """One concept on the command line."""

    concept: str
    """The concept's word in docs/VOCABULARY.md."""
    option: str
    """The one option that spells it."""
    metavar: str | None = None
    """The one form of its value, as the help shows it (None: a flag, or a value click names)."""
    commands: tuple[str, ...] = ()
    """The commands that must take it (others may too)."""
    retired: tuple[str, ...] = ()
    """Other spellings it had: refused, with a pointer to :attr:`option`."""


#: Every command but these takes --json: serve runs the board and prints no
#: result, bench prints its JSON always, bot speaks the bot protocol's JSON
#: lines on stdin and stdout (docs/BOT_PROTOCOL.md).
WITHOUT_JSON = ("serve", "bench", "bot")

WORDS: dict[str, OptionWord] = {w.concept: w for w in (
    OptionWord("contract", "--contract", "CONTRACT", ("analyze-talon", "whist", "advise", "auction"),
               retired=("--bid", "--declare")),
    OptionWord("seat", "--seat", None, ("analyze", "analyze-talon", "whist", "advise", "play", "allpass")),
    OptionWord("declarer", "--declarer", None, ("solve", "play", "whist", "advise")),
    OptionWord("leader", "--leader", None, ("solve", "table", "play", "advise")),
    OptionWord("known", "--known", "PLACE:CARDS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord("voids", "--void", "SEAT:SUITS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord("talon", "--talon", "CARDS", ("whist", "advise")),
    OptionWord("talon mode", "--talon-mode", None, ("solve", "table", "play", "allpass")),
    OptionWord("turn", "--turn", "CARDS", ("play", "allpass")),
    OptionWord("played", "--played", "CARDS", ("play", "advise")),
    OptionWord("auction", "--auction", "CALLS", ("analyze", "analyze-talon", "whist", "advise")),
    OptionWord("whist calls", "--whist", "CALLS", ("auction", "advise"), retired=("--whist-calls",)),
    OptionWord("samples", "--samples", None, ("analyze", "analyze-talon", "whist", "advise", "holdings")),
    OptionWord("seed", "--seed", None, ("deal", "analyze", "analyze-talon", "whist", "advise", "holdings")),
    OptionWord("rules", "--rules", None, ("analyze", "analyze-talon", "whist", "advise", "auction", "score")),
    OptionWord("all-pass count", "--allpass-count", "N", ("analyze", "auction")),
    OptionWord("tolerance", "--tolerance", "TRICKS", ("analyze", "analyze-talon", "whist", "advise")),
)}

#: An old spelling -> the concept's word.
RETIRED = {old: w for w in WORDS.values() for old in w.retired}


def retired_message(option: str) -> str | None:
    """The one-line error for an option's old spelling, or None when it is not one."""
    word = RETIRED.get(option.split("=", 1)[0])
    if word is None:
        return None
    return (f"{option.split('=', 1)[0]} is now {word.option}: one name for a {word.concept} in every "
            f"command (docs/VOCABULARY.md)")
