"""The language prefsolve speaks: the active language and the translation functions.

Every message a person reads is an English sentence with named fields, marked
for translation where it is written (``_("seat {seat} leads", seat=2)``), and
translated through the gettext message catalogues that ship with the package:
``prefsolve/locale/<lang>/LC_MESSAGES/prefsolve.mo``, compiled from the
``.po`` source at build time (docs/TRANSLATING.md). English is the messages
themselves; Russian is the one translation.

* :func:`_`, :func:`ngettext` (a message with a count: Russian has three plural
  forms) and :func:`pgettext` (a short word whose meaning a context settles)
  translate into the active language, then fill in the named fields, so that a
  translator may reorder them.
* :func:`N_` marks a message written where no language is known yet (a help
  text given at import time); it is translated with :func:`_` where it is shown.
* The active language is process-wide: English until the program changes it
  with :func:`set_language`, or for a block with :func:`use_language`. The
  Python API never reads the environment: a program that wants prefsolve's
  text in its user's language says so. The command line does it for the user
  (``--lang``, else :func:`language_from_environment`).
* What these functions return is a :class:`Said`: the text in the active
  language, which remembers its message and fields, so that it can be said
  again in another language with :func:`say_in` (an error raised in one
  language and answered in another, as the web server does for each request,
  whatever the process speaks) or in English with :func:`english` (the JSON,
  whose human texts are English in every language). A field that is a card,
  cards, a hand or a contract is given as :func:`shown` (``card=shown(card)``):
  it is printed in the notation of the language the message is said in.
* Without a compiled catalogue (a checkout whose ``.mo`` files were not built)
  the ``.po`` source is compiled on the fly when Babel is installed; else the
  text stays English.

>>> with use_language("ru"):
...     print(ngettext("{n} trick", "{n} tricks", 1), ngettext("{n} trick", "{n} tricks", 3),
...           ngettext("{n} trick", "{n} tricks", 5))
1 взятка 3 взятки 5 взяток
>>> with use_language("ru"):
...     said = _("unknown contract {text}", text=repr("6X"))
>>> said, english(said)
("неизвестный контракт '6X'", "unknown contract '6X'")
>>> get_language(), language_from_environment({"LANG": "ru_RU.UTF-8"}), language_from_environment({"LANG": "de_DE"})
('en', 'ru', 'en')
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import os
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from typing import overload

from .errors import PrefsolveError

#: The languages prefsolve speaks: English (the messages themselves) and Russian.
LANGUAGES = ("en", "ru")
#: The language of the API and of a user whose environment names no language prefsolve speaks.
DEFAULT_LANGUAGE = "en"
#: The catalogue of the package's messages (the command line, the analyses, the errors).
DOMAIN = "prefsolve"
#: The catalogue of the web board's page (the ``t("...")`` calls of its scripts).
BOARD_DOMAIN = "board"
#: Where the command line looks for a language, first first: prefsolve's own
#: variable, then the POSIX locale variables in gettext's order.
ENVIRONMENT = ("PREFSOLVE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_active = DEFAULT_LANGUAGE


def language_of(value: str) -> str | None:
    """The language prefsolve speaks that a locale name names (``ru``,
    ``ru_RU.UTF-8``, ``en_GB``, ``Russian``), or None (``de_DE``, ``C``).

    >>> language_of("ru_RU.UTF-8"), language_of("en"), language_of("C"), language_of("uk_UA")
    ('ru', 'en', None, None)
    """
    name = value.strip().lower().replace("-", "_")
    base = name.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0]
    if base in LANGUAGES:
        return base
    return {"russian": "ru", "english": "en"}.get(base)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``PREFSOLVE_LANG``, else the
    POSIX locale variables in gettext's order (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``). The first variable that is set decides;
    ``LANGUAGE`` is a list (``uk:ru:en``) whose first language prefsolve
    speaks is taken. A language prefsolve does not speak is English.

    >>> language_from_environment({"LANGUAGE": "uk:ru", "LANG": "en_US.UTF-8"})
    'ru'
    >>> language_from_environment({"PREFSOLVE_LANG": "en", "LC_ALL": "ru_RU.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name, "")
        if not value:
            continue
        for item in value.split(":") if name == "LANGUAGE" else (value,):
            lang = language_of(item)
            if lang is not None:
                return lang
        return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def check_language(lang: object) -> str:
    """``lang`` when it is one of :data:`LANGUAGES`, else an error naming them."""
    if lang not in LANGUAGES:
        raise PrefsolveError(_("unknown language {lang}: expected one of {languages}", lang=repr(lang),
                               languages=", ".join(LANGUAGES)))
    return str(lang)


def get_language() -> str:
    """The active language: ``en`` unless the program set another."""
    return _active


def set_language(lang: str) -> None:
    """Make ``lang`` (``en`` or ``ru``) the language of every message from now on."""
    global _active
    _active = check_language(lang)


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block, the language before it after.

    The language is the process's, not the block's alone: worker threads
    started inside speak it too.
    """
    global _active
    before = _active
    set_language(lang)
    try:
        yield lang
    finally:
        _active = before


# -- the catalogues ----------------------------------------------------------

def _catalogue_file(lang: str, domain: str, suffix: str):
    return resources.files(__package__ or "prefsolve").joinpath("locale", lang, "LC_MESSAGES", domain + suffix)


@functools.cache
def translations(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue of ``domain`` in ``lang``: the compiled ``.mo``; without it,
    the ``.po`` compiled now when Babel is installed; else none (English)."""
    lang = check_language(lang)
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    compiled = _catalogue_file(lang, domain, ".mo")
    if compiled.is_file():
        with compiled.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    source = _catalogue_file(lang, domain, ".po")
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        return gettext.NullTranslations()
    if not source.is_file():
        return gettext.NullTranslations()
    with source.open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def catalogue(lang: str, domain: str = BOARD_DOMAIN) -> dict[str, str]:
    """Every translated message of ``domain`` in ``lang``: English text → its
    translation (empty in English). The web board's page reads it."""
    found = translations(lang, domain)
    messages = getattr(found, "_catalog", {})
    return {k: v for k, v in messages.items() if isinstance(k, str) and k and v}


# -- translating -------------------------------------------------------------

class Said(str):
    """A message as said in one language: the text itself (a ``str``), which
    remembers the language, the message (``key``: which gettext function and
    its arguments) and the fields it was made of, so that :func:`say_in` can
    say it again in another language. Every string operation gives a plain
    ``str``; a pickled one is a plain ``str`` (its fields need not pickle)."""

    lang: str
    key: tuple
    fields: Mapping[str, object]

    def __new__(cls, text: str, lang: str = DEFAULT_LANGUAGE, key: tuple = (),
                fields: Mapping[str, object] | None = None) -> Said:
        said = super().__new__(cls, text)
        said.lang, said.key, said.fields = lang, key, fields or {}
        return said

    def __reduce__(self) -> tuple:
        return str, (str(self),)


class Shown:
    """A card, cards, a hand or a contract as a message's field: printed in
    the notation of the language the message is said in (``value.format(lang)``,
    or ``value(lang)`` for a function of the language), in English as
    ``english`` when given (the message's English as it always was: ``SA``,
    ``7H``), else as ``str(value)``."""

    def __init__(self, value: object, english: str | None = None) -> None:
        self.value, self.english = value, english

    def text(self, lang: str) -> str:
        if lang == DEFAULT_LANGUAGE and self.english is not None:
            return self.english
        if callable(self.value):
            return str(self.value(lang))
        if lang == DEFAULT_LANGUAGE:
            return str(self.value)
        formatted: Callable[[str], object] = self.value.format    # type: ignore[attr-defined]
        return str(formatted(lang))

    def __str__(self) -> str:
        return self.text(_active)


def shown(value: object, english: str | None = None) -> Shown:
    """``value`` (a card, cards, a hand, a contract: anything with a
    ``format(lang)`` method; or a function of the language) as a field shown
    in the language of its message."""
    return Shown(value, english)


def _field(value: object, lang: str) -> object:
    """A field as the message in ``lang`` shows it: a said text or an error
    said again in ``lang``, a :class:`Shown` value in its notation; any other
    as it is (formatted by the message: ``{p:.3f}``)."""
    if isinstance(value, Shown):
        return value.text(lang)
    if isinstance(value, (Said, BaseException)):
        return say_in(value, lang)
    return value


def _fill(text: str, fields: Mapping[str, object], lang: str) -> str:
    return text.format_map({k: _field(v, lang) for k, v in fields.items()}) if fields else text


def _say(lang: str, key: tuple, fields: Mapping[str, object]) -> Said:
    found = translations(lang)
    kind, args = key[0], key[1:]
    text = getattr(found, kind)(*args)
    return Said(_fill(text, fields, lang), lang, key, fields)


def say_in(text: object, lang: str) -> str:
    """``text`` said in ``lang``: a :class:`Said` message (or an error whose
    message is one) made again from its message and fields; any other text,
    or an error with another message, as it is."""
    if isinstance(text, BaseException):
        args = text.args
        return say_in(args[0], lang) if len(args) == 1 and isinstance(args[0], Said) else str(text)
    if isinstance(text, Said):
        return text if text.lang == lang or not text.key else _say(check_language(lang), text.key, text.fields)
    return text if isinstance(text, str) else str(text)


def message_of(error: BaseException) -> str:
    """An error's message, to raise again as another error's: the :class:`Said`
    itself when it is one (so that it can still be said again), else its text."""
    args = error.args
    return args[0] if len(args) == 1 and isinstance(args[0], Said) else str(error)


@overload
def english(text: None) -> None: ...
@overload
def english(text: object) -> str: ...
def english(text: object) -> str | None:
    """``text`` in English (:func:`say_in`; None stays None): the language of
    the JSON's human texts (an illegal call's ``reason``, a forfeit's), the
    same in every language the program speaks."""
    return None if text is None else say_in(text, DEFAULT_LANGUAGE)


def _(message: str, /, **fields: object) -> str:
    """``message`` in the active language, its ``{named}`` fields filled in
    (a :class:`Said`).

    A message without fields is returned as translated, braces and all.
    """
    return _say(_active, ("gettext", message), fields)


def ngettext(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The form of a message for the count ``n`` (one of Russian's three for
    1, 2-4, 5-20 …), in the active language; ``{n}`` is the count."""
    return _say(_active, ("ngettext", singular, plural, n), {"n": n, **fields})


def pgettext(context: str, message: str, /, **fields: object) -> str:
    """``message`` in the active language, where ``context`` tells the
    translator which of its meanings is meant (``pgettext("call", "pass")``)."""
    return _say(_active, ("pgettext", context, message), fields)


def N_(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged: it is written
    before a language is chosen (at import) and translated by :func:`_` where
    it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for translation, as :func:`N_` does one
    without (translated by :func:`ngettext` where it is shown)."""
    return singular, plural


__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "DOMAIN", "BOARD_DOMAIN", "ENVIRONMENT", "language_of",
           "language_from_environment", "check_language", "get_language", "set_language", "use_language",
           "translations", "catalogue", "Said", "Shown", "shown", "say_in", "message_of", "english", "_", "ngettext",
           "pgettext", "N_", "Nn_"]
