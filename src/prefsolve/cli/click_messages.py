"""click's own words in prefsolve's catalogue: usage lines, help headings, errors.

click marks its messages for gettext (each of its modules calls ``_`` and
``ngettext``), but reads them from the process's default gettext domain, in
the language of the environment. While a prefsolve command runs,
:func:`click_speaks` points those functions at prefsolve's catalogue in the
active language (``--lang``), so that "Usage:", "Options", "Missing option
'--seat'." and "0 is not in the range 1<=x<=2." come in the user's language
with the rest. This module marks the click messages a prefsolve user meets,
so that they are extracted into the catalogue (tools/catalogues.py) with
click's exact English text; one click adds in a later version is shown in
English until it is added here.

>>> import click.core
>>> from prefsolve.i18n import use_language
>>> with use_language("ru"), click_speaks():
...     print(click.core._("Usage:"))
Использование:
>>> click.core._("Usage:")
'Usage:'
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator

from ..i18n import N_, Nn_, get_language, translations

#: The click modules that translate their messages, each through its own ``_`` and ``ngettext``.
CLICK_MODULES = ("core", "exceptions", "types", "parser", "formatting", "decorators", "termui")

MESSAGES = (
    # help pages
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Positional arguments"), N_("default: {default}"),
    N_("required"), N_("Show this message and exit."), N_("Show the version and exit."),
    N_("%(prog)s, version %(version)s"),
    # errors of the command line
    N_("Error: {message}"), N_("Aborted!"), N_("Missing command."), N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"), N_("Missing argument"), N_("Missing option"),
    N_("Missing parameter"), N_("Missing {param_type}"), N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."), N_("No such command {name!r}."),
    N_("Could not open file {filename!r}: {message}"),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("file"), N_("directory"), N_("path"), N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."), N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."), N_("{name} {filename!r} is not writable."),
    N_("Option {name!r} does not take a value."),
    Nn_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    Nn_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    Nn_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    Nn_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
)


def _gettext(message: str) -> str:
    return translations(get_language()).gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return translations(get_language()).ngettext(singular, plural, n)


@contextlib.contextmanager
def click_speaks() -> Iterator[None]:
    """click's messages in prefsolve's active language inside the block
    (click formats them itself: these return the text with its fields)."""
    saved = []
    for name in CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        for attr, ours in (("_", _gettext), ("ngettext", _ngettext)):
            if hasattr(module, attr):
                saved.append((module, attr, getattr(module, attr)))
                setattr(module, attr, ours)
    try:
        yield
    finally:
        for module, attr, theirs in reversed(saved):
            setattr(module, attr, theirs)


__all__ = ["CLICK_MODULES", "MESSAGES", "click_speaks"]
