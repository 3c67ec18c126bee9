"""What every command of the command line shares.

* The one error path: :class:`Command` and :class:`PrefsolveGroup` turn a
  :class:`~prefsolve.errors.PrefsolveError` into one ``Error: message`` line on
  stderr and exit code 2, a usage error into one line and exit 2, Ctrl-C into
  exit 130, a broken pipe into a quiet exit and a full disk into one line and
  exit 1.
* Output that any console can show: on a stream whose encoding lacks ``♠♣♦♥``
  (a Russian Windows console, ``PYTHONIOENCODING=cp1251`` or ``ascii``) the
  symbols print as the small letters ``s c d h`` (``♠JT97`` as ``sJT97``: the
  suit stands apart from the capital ranks, and the width of every column
  stays) and other such characters as their closest ASCII (``Misère`` as
  ``Misere``), and JSON escapes them, so it stays exact.
* The language: every command takes ``--lang ru|en`` (:func:`language_option`),
  by default the environment's (``PREFSOLVE_LANG``, then the locale:
  :func:`prefsolve.i18n.language_from_environment`); its help texts, output
  and errors, click's own words included (:mod:`.click_messages`), come in it.
  A console that cannot encode Cyrillic (ASCII) gets English: the stand-ins
  below would turn Russian words into question marks.
* One JSON writer (:func:`emit_json`, :func:`emit_stream`), one progress bar
  (:func:`progress_bar`), the option declarations the commands share and the
  reading of deal files.
* Long runs of ``--file``: ``--jsonl FILE`` writes whole lines to a file,
  ``--resume`` goes on where an interrupted run stopped
  (:func:`resume_point`), and ``--scheduler``/``--cluster`` solve on a Dask
  cluster (:func:`cluster_client`).

Command modules import this one and never each other.

>>> json_text({"cards": ["SA", "S7"], "strain": "misere"})
'{"cards": ["SA", "S7"], "strain": "misere"}'
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import functools
import inspect
import json
import logging
import os
import re
import shutil
import sys
import textwrap
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import click

from ..analysis.sampling import MAX_SAMPLES
from ..batch import MAX_JOBS
from ..deal import Deal, split_deal_lines
from ..engine import table_size_mb
from ..errors import DealError, PrefsolveError
from ..i18n import (
    LANGUAGES,
    N_,
    _,
    get_language,
    language_from_environment,
    set_language,
    translations,
    use_language,
)
from ..rules import PROFILES, Rules
from ..strains import SUITS, strain_label
from .click_messages import click_speaks
from .vocabulary import retired_message

#: The deal the commands solve when they are given none.
EXAMPLE_DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


# -- output that every console can encode ---------------------------------

#: ASCII stand-ins of the characters the output uses that a console may lack.
#: A suit is a small letter, so that it stands apart from the capital ranks
#: (``sJT97 cA7``, not ``SJT97 CA7``) and keeps its column's width; prefsolve
#: reads it back as input (``sA`` is ``♠A``).
ASCII_FALLBACK = {"♠": "s", "♣": "c", "♦": "d", "♥": "h", "—": "-", "–": "-", "…": "...",
                  "≈": "~", "≤": "<=", "≥": ">=", "→": "->", "±": "+-", "×": "x", "·": "."}
_ERRORS = "prefsolve-ascii"


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Encode-error handler: each character the stream cannot encode becomes
    its stand-in, else its letters without accents (NFKD), else ``?``. The
    replacement is ASCII, which every console encoding holds."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        plain = ASCII_FALLBACK.get(ch)
        if plain is None:
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            plain = plain if plain and plain.isascii() else "?"
        out.append(plain)
    return "".join(out), exc.end


codecs.register_error(_ERRORS, _ascii_fallback)

#: ASCII under a name of its own. click takes a stream declared ASCII for a
#: misconfigured one and writes UTF-8 to it instead, which an ASCII console
#: shows as garbage; declared under this name, the stream keeps its ASCII
#: bytes and the stand-ins above.
ASCII_ENCODING = "prefsolve-ascii"


def _ascii_codec(name: str) -> codecs.CodecInfo | None:
    if name != ASCII_ENCODING.replace("-", "_"):    # codecs hands search functions "prefsolve_ascii"
        return None
    ascii_ = codecs.lookup("ascii")
    return codecs.CodecInfo(ascii_.encode, ascii_.decode, ascii_.streamreader, ascii_.streamwriter,
                            ascii_.incrementalencoder, ascii_.incrementaldecoder, name=ASCII_ENCODING)


codecs.register(_ascii_codec)


def encodable_streams() -> None:
    """Let stdout and stderr print what their encoding lacks, as ASCII stand-ins.

    Characters the encoding holds are written unchanged, so a UTF-8 stream is
    not affected; an ASCII stream stays ASCII (see :data:`ASCII_ENCODING`).
    Streams that cannot be reconfigured are left as they are.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None or getattr(stream, "errors", None) == _ERRORS:
            continue
        changes = {"errors": _ERRORS}
        try:
            if codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii":
                changes["encoding"] = ASCII_ENCODING
        except LookupError:
            pass
        try:
            reconfigure(**changes)
        except (ValueError, OSError, AttributeError, TypeError, LookupError):
            pass


def _stdout_encoding() -> str:
    """The encoding of the stream ``click.echo`` writes to (``sys.stdout``)."""
    return getattr(sys.stdout, "encoding", None) or "utf-8"


# -- text that fits the terminal --------------------------------------------

#: Aligned columns: two spaces inside a line (prose has one between words).
_COLUMNS = re.compile(r"\S {2,}\S")


def terminal_width() -> int | None:
    """The width of the terminal that stdout is, or None when it is not one
    (a pipe or a file gets each line whole, for the programs that read it)."""
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return shutil.get_terminal_size().columns


def fit(text: str, width: int | None) -> str:
    """``text`` with each line of prose longer than ``width`` wrapped at
    spaces, its continuation lines indented as the line (one more space
    inside an opening parenthesis). Lines of aligned columns (two spaces
    inside) are left whole: the tables are laid out for the width themselves
    (``Table.format(width=)``). ``None``: no wrapping.

    >>> print(fit("(a note of several words, wrapped to the width of the terminal)", 30))
    (a note of several words,
     wrapped to the width of the
     terminal)
    """
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width or _COLUMNS.search(line.strip()):
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        more = indent + (" " if line.lstrip().startswith("(") else "")
        out += textwrap.wrap(line.strip(), max(width, len(more) + 20), initial_indent=indent,
                             subsequent_indent=more, break_long_words=False, break_on_hyphens=False)
    return "\n".join(out)


def echo(message: str = "", nl: bool = True) -> None:
    """Print human text on stdout, its prose wrapped to the terminal's width (:func:`fit`)."""
    click.echo(fit(message, terminal_width()), nl=nl)


def play_header(declarer: int, strain: str, leader: int) -> str:
    """"Declarer seat 2, ♠ trumps, seat 0 leads": the head of a game or
    misère as ``solve`` and ``play`` print it, in the active language."""
    label = strain_label(strain, get_language())
    if strain in SUITS:
        return _("Declarer seat {declarer}, {suit} trumps, seat {leader} leads", declarer=declarer, suit=label,
                 leader=leader)
    return _("Declarer seat {declarer}, {strain}, seat {leader} leads", declarer=declarer, strain=label,
             leader=leader)


def json_text(obj: object) -> str:
    """``obj`` as one line of JSON: non-ASCII text as itself where stdout can
    encode it, else as ``\\u`` escapes, so that the JSON is exact either way."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode(_stdout_encoding())
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(obj)
    return text


def emit_json(obj: object) -> None:
    """Print one JSON object on a line of its own."""
    click.echo(json_text(obj))


def emit_stream(results: Iterable, key: str, to_dict: Callable, to_text: Callable,
                as_json: bool, as_jsonl: bool, blank_between: bool = False, out: IO[str] | None = None,
                head: dict | None = None) -> None:
    """Print results as they come: with ``as_json`` the bytes of one
    ``{key: [...]}`` object (after the keys of ``head``), with ``as_jsonl`` one
    object per line, else each result's text (with ``blank_between``, a blank
    line between two).

    With ``out`` (``--jsonl FILE``), the lines go to that file instead, each
    written whole and flushed, so that an interrupted run leaves every result
    solved before it and at most one partial last line (which ``--resume``
    cuts off)."""
    if out is not None:
        for x in results:
            out.write(json.dumps(to_dict(x), ensure_ascii=False) + "\n")
            out.flush()
        return
    if as_json:
        first = json_text(head)[1:-1] + ", " if head else ""
        click.echo(f'{{{first}"{key}": [', nl=False)
    for i, x in enumerate(results):
        if as_json:
            click.echo((", " if i else "") + json_text(to_dict(x)), nl=False)
        elif as_jsonl:
            emit_json(to_dict(x))
        else:
            if i and blank_between:
                click.echo()
            click.echo(to_text(x))
    if as_json:
        click.echo("]}")


# -- the progress bar ------------------------------------------------------

def _start_bar(total: int, label: str) -> Any:
    """click's progress bar on stderr (just its label when stderr is not a terminal)."""
    return click.progressbar(length=total, label=label, file=sys.stderr)


#: Seconds after which a run shows its bar on a terminal, finished item or not.
SHOW_AFTER = 1.0


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class ProgressBar:
    """A progress bar on stderr that appears with the first finished item or,
    on a terminal, after :data:`SHOW_AFTER` seconds, whichever comes first: a
    run whose first item takes long (a large sample drawn before any is
    solved) shows at once that it is working.

    Input is checked before any item is solved, so a bad one gives its
    one-line error without a half-drawn bar in front of it. ``update`` may
    be called from several worker threads: a lock lets only the first draw
    the bar. With ``quiet``, or for fewer than 2 items, nothing is drawn.
    """

    def __init__(self, total: int, label: str, quiet: bool) -> None:
        self.total, self.label = total, label
        self.quiet = quiet or total < 2
        self.bar: Any = None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._closed = False

    def _draw(self) -> None:
        """The bar, drawn once (the lock held)."""
        if self.bar is None and not self._closed:
            self.bar = _start_bar(self.total, self.label).__enter__()

    def _show(self) -> None:
        with self._lock:
            self._draw()

    def update(self, n: int) -> None:
        if self.quiet:
            return
        with self._lock:
            self._draw()
            if self.bar is not None:
                self.bar.update(n)

    def __enter__(self) -> ProgressBar:
        if not self.quiet and _stderr_is_terminal():
            self._timer = threading.Timer(SHOW_AFTER, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._closed = True
            if self.bar is not None:
                self.bar.__exit__(*exc)


def progress_bar(total: int, label: str, quiet: bool) -> ProgressBar:
    """The progress bar of ``total`` items; none with ``quiet`` (``--quiet`` or ``--json``)."""
    return ProgressBar(total, label, quiet)


def file_progress(total: int, quiet: bool, label: str | None = None) -> ProgressBar:
    """The progress bar of ``--file`` (labelled "solving" unless ``label`` says
    otherwise); none when stdout is a terminal, where the results, printed as
    they come, show the progress and would tear the bar."""
    return progress_bar(total, _("solving") if label is None else label, quiet or sys.stdout.isatty())


# -- the one error path ----------------------------------------------------

def fail(exc: PrefsolveError, ctx: click.Context) -> None:
    """Bad input: one ``Error: message`` line on stderr and exit code 2."""
    click.echo(_("Error: {message}", message=exc), err=True)
    ctx.exit(2)


def errors_to_exit2(f: Callable) -> Callable:
    """A command function whose bad input is one line and exit 2 in any group, or alone."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except PrefsolveError as exc:
            fail(exc, click.get_current_context())

    return wrapper


# -- the language ------------------------------------------------------------

#: The help of ``--lang``, the option every command takes.
LANG_HELP = N_("Language of the output: ru or en [default: PREFSOLVE_LANG, else the locale: LANGUAGE, LC_ALL, "
               "LC_MESSAGES, LANG].")


def language_option() -> click.Option:
    """``--lang ru|en``: one option object per command, which reads it before
    anything else (:meth:`Speaking.parse_args`), so that ``--help`` and a usage
    error come in the language asked for, wherever ``--lang`` stands."""
    return click.Option(["--lang"], type=click.Choice(LANGUAGES), expose_value=False, help=LANG_HELP)


def _asked_language(args: list[str]) -> str | None:
    """The value of the last ``--lang`` among the options (before ``--``), if one of :data:`LANGUAGES`."""
    found = None
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif a.startswith("--lang="):
            found = a.partition("=")[2]
    return found if found in LANGUAGES else None


def console_language(lang: str) -> str:
    """``lang``, or English when stdout or stderr cannot encode its letters: a
    console of ASCII would show Russian words as question marks."""
    if lang == "en":
        return lang
    for stream in (sys.stdout, sys.stderr):
        try:
            "Русский".encode(getattr(stream, "encoding", None) or "utf-8")
        except (UnicodeEncodeError, LookupError):
            return "en"
    return lang


@contextlib.contextmanager
def speaking() -> Iterator[None]:
    """A run of the command line: in the environment's language (until
    ``--lang`` says otherwise), click's words included; the language before
    it afterwards."""
    encodable_streams()
    with use_language(console_language(language_from_environment())), click_speaks():
        yield


#: The numbers an option's help names, filled in after its translation
#: (``At most {most_samples}.``), so that the text and the limit cannot drift apart.
HELP_FIELDS = {"most_samples": MAX_SAMPLES}


class Speaking(click.Command):
    """A command that speaks the active language: it takes ``--lang``, and its
    help, its options' help and click's words are translated as they are shown
    (the English texts are the catalogue's messages)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(language_option())

    @property
    def help(self) -> str | None:
        raw = self.__dict__.get("_help")
        return None if raw is None else _(inspect.cleandoc(raw))

    @help.setter
    def help(self, value: str | None) -> None:
        self.__dict__["_help"] = value

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        lang = _asked_language(args)
        if lang is not None:
            set_language(console_language(lang))
        return super().parse_args(ctx, args)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for param in self.get_params(ctx):
            row = param.get_help_record(ctx)
            # Options only: an argument's help is its command's (and only an option has ``help``
            # before click 8.5.1).
            if row is None or not isinstance(param, click.Option):
                continue
            help_text = param.help or ""
            if help_text and row[1].startswith(help_text):     # click adds "[default: ...]" after it
                row = (row[0], _(help_text, **HELP_FIELDS) + row[1][len(help_text):])
            rows.append(row)
        if rows:
            with formatter.section(_("Options")):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)


class Command(Speaking):
    """A command whose bad input is one line and exit 2 in any group, or alone."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with speaking():
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PrefsolveError as exc:
            fail(exc, ctx)


def command(name: str, **kwargs: Any) -> Callable[[Callable], Command]:
    """``click.command`` making a :class:`Command`."""
    return click.command(name, cls=Command, **kwargs)


#: The value count of an option whose value is optional (``--jsonl [FILE]``).
OPTIONAL_VALUE = -1


def _value_counts(cmd: click.Command) -> dict[str, int]:
    """How many values each option name of ``cmd`` takes (flags: none;
    ``OPTIONAL_VALUE`` for an option whose value may be left out)."""
    counts = {}
    for param in cmd.params:
        if isinstance(param, click.Option) and not param.is_flag and not param.count:
            optional = getattr(param, "_flag_needs_value", False)
            for name in param.opts + param.secondary_opts:
                counts[name] = OPTIONAL_VALUE if optional else max(param.nargs, 1)
    return counts


def void_first_as_argument(cmd: click.Command, args: list[str],
                           ctx: click.Context | None = None) -> list[str]:
    """Let a deal or hand that starts with a void (``-.KT9.A8.7 ...``, as
    ``prefsolve deal`` prints one in about 3% of deals) be given like any
    other: click would read it as an unknown option.

    The tokens are read as click reads them: ``--opt value``, ``--opt=value``,
    short options and clusters (``-q``, ``-n4``, ``-qn 4``). When a token that
    is not an option's value starts with ``-.``, the options and their values
    keep their places and every such positional token goes, in order, after
    a ``--``. Arguments that already contain ``--`` are left alone. An option
    left without its value is the usage error click would give.
    """
    if "--" in args or not any(a.startswith("-.") for a in args):
        return args
    counts = _value_counts(cmd)
    options, positional, due, waiting = [], [], 0, ""
    for a in args:
        if due == OPTIONAL_VALUE:   # click takes the next token unless it starts with "-"
            due = 0
            if not a.startswith("-"):
                options.append(a)
                continue
        if due:
            options.append(a)
            due -= 1
        elif a.startswith("-.") or a == "-" or not a.startswith("-"):
            positional.append(a)
        elif a.startswith("--"):
            options.append(a)
            due, waiting = (0 if "=" in a else counts.get(a, 0)), a
        else:                       # short options, maybe clustered: the first that
            options.append(a)       # takes a value takes the rest of the token
            due = 0
            for k, ch in enumerate(a[1:], 2):
                n = counts.get("-" + ch, 0)
                if n:
                    due, waiting = (n if k == len(a) else n - 1), "-" + ch
                    break
    if not any(p.startswith("-.") for p in positional):
        return args
    if due > 0:
        raise click.UsageError(_("Option '{option}' requires an argument.", option=waiting), ctx)
    return options + ["--"] + positional


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())
# Arguments that hold a deal or a hand: unquoted, their spaces split them.
CARD_ARGUMENTS = ("deal_text", "hand", "hand12")


def _extra_arguments(message: str) -> list[str] | None:
    """The words of click's "Got unexpected extra argument(s) (...)", as the
    active language words it, or None for another message."""
    for n in (1, 2, 5):
        template = translations(get_language()).ngettext(
            "Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", n)
        head, _sep, tail = template.partition("{args}")
        if message.startswith(head) and message.endswith(tail):
            return message[len(head):len(message) - len(tail)].split()
    return None


def usage_error_text(exc: click.ClickException) -> str:
    """A usage error in one line: click's message, with a pointer to the
    command's help, to an option's new name, or to the quotes a deal needs."""
    ctx = getattr(exc, "ctx", None)   # usage errors know their command: name its help
    message = exc.format_message()
    renamed = retired_message(exc.option_name) if isinstance(exc, click.NoSuchOption) else None
    if renamed is not None:     # an option's old spelling: name the new one
        return renamed
    if ctx is None:
        return message
    takes_cards = any(isinstance(p, click.Argument) and p.name in CARD_ARGUMENTS for p in ctx.command.params)
    extra = _extra_arguments(message) if takes_cards else None
    if extra and all(word.startswith("-") and "." not in word for word in extra):
        # only after "--" does an option arrive here as an argument
        return _("{message}; after '--' every word is an argument, so put the options before it", message=message)
    if extra is not None:
        return _('{message}; a deal or hand holds spaces, so quote it: "{example}"', message=message,
                 example=EXAMPLE_DEAL)
    return _("{message} (see '{command} --help')", message=message, command=ctx.command_path)


class PrefsolveGroup(Speaking, click.Group):
    """A group whose every error is one line on stderr, with the exit codes
    documented in docs/CLI.md: 0 done, 1 output failed or (``auction``) an
    illegal call, 2 bad input, 130 Ctrl-C."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        for arg in args:
            # Bytes that are not UTF-8 reach Python as lone surrogates (PEP 383).
            if any("\udc80" <= ch <= "\udcff" for ch in arg):
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                raise click.UsageError(_("argument {argument!r} is not UTF-8 text", argument=shown))
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:
            rest = void_first_as_argument(cmd, rest, click.Context(cmd, ctx, name))
        return name, cmd, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PrefsolveError as exc:
            fail(exc, ctx)

    def main(self, *args, **kwargs):
        """Every error is one line on stderr: click's usage errors would add a
        "Usage:" and a "Try --help" line, which scripts then have to skip."""
        with speaking():
            return self._main(*args, **kwargs)

    def _main(self, *args, **kwargs):
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        if sys.stdout is None:      # started with stdout closed (">&-"): every result would vanish
            click.echo(_("Error: the standard output is closed, so no result could be written"), err=True)
            sys.exit(1)
        try:
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except _NO_ARGS_IS_HELP as exc:     # a bare "prefsolve" (click 8.2+): the help, as ever
            click.echo(exc.format_message(), err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(_("Error: {message}", message=usage_error_text(exc)), err=True)
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            click.echo(_("Aborted!"), err=True)
            # Ctrl-C exits as a shell reports SIGINT (128 + 2), apart from errors (1, 2);
            # click.prompt raises Abort "from None", leaving the interrupt as the context.
            sys.exit(130 if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt) else 1)
        except OSError as exc:      # click handles a broken pipe inside; a full disk is left
            if exc.filename is None:
                _stdout_failed(exc)
            else:
                failed = f"{exc.filename}: {exc.strerror or exc}"
                click.echo(_("Error: {message}", message=failed), err=True)
            sys.exit(1)
        # Without standalone mode click returns ctx.exit()'s code (the commands return None).
        if _stdout_failed():    # what is still buffered fails here, not at exit with a traceback
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _stdout_failed(exc: OSError | None = None) -> bool:
    """Whether writing stdout failed: ``exc`` says it did (an OSError naming
    no file: input files are read, and named, before any output), else
    stdout is flushed to find out, since a failed write would otherwise
    surface at exit as a traceback. When it failed, say so in one line and
    send whatever is still buffered to the null device, so that the
    interpreter's own flush at exit cannot fail again."""
    if exc is None:
        try:
            sys.stdout.flush()
            return False
        except OSError as failed:
            exc = failed
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    if exc.errno != errno.EPIPE:    # a closed pipe is the reader's choice (head), not an error
        click.echo(_("Error: cannot write the output: {reason}", reason=exc.strerror or exc), err=True)
    return True


# -- shared options --------------------------------------------------------

#: The DEAL of solve and table: optional (the example deal, or ``--file``).
optional_deal_argument = click.argument("deal_text", metavar="[DEAL]", required=False)
#: The DEAL of play and allpass.
deal_argument = click.argument("deal_text", metavar="DEAL")
json_option = click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object."))
#: ``--jsonl`` alone prints on stdout; ``--jsonl FILE`` writes FILE (see :func:`jsonl_target`).
jsonl_option = click.option("--jsonl", "jsonl", is_flag=False, flag_value="-", default=None, metavar="[FILE]",
                            help=N_("One JSON object per line, one per deal (for a single deal, the same as "
                                    "--json): on stdout, or written to FILE."))
quiet_option = click.option("--quiet", "-q", is_flag=True, help=N_("No progress bar."))
file_option = click.option("--file", "deal_file", type=click.File("rb"),
                           help=N_("Solve every deal of a file (one per line, '-' for stdin)."))


def jobs_option(help: str = N_("Threads [default: all usable cores].")) -> Callable:
    return click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None, help=help)


def seed_option(default: int | None = None, help: str = N_("Random seed (repeatable answers).")) -> Callable:
    return click.option("--seed", type=click.IntRange(min=0), default=default,
                        show_default=default is not None, help=help)


def leader_option(default: int | None = 0, help: str = N_("Seat that leads trick 1 (0 = first hand).")) -> Callable:
    return click.option("--leader", type=click.IntRange(0, 2), default=default,
                        show_default=default is not None, help=help)


def talon_mode_option(modes: tuple[str, ...], help: str) -> Callable:
    """``--talon-mode``: how the talon takes part (``take``, ``lead``, ``ignore``);
    left out, the command chooses from the deal (docs/VOCABULARY.md)."""
    return click.option("--talon-mode", "talon_mode", type=click.Choice(modes), default=None, help=help)


def rules_option(default: str | None, dest: str = "profile") -> Callable:
    return click.option("--rules", dest, type=click.Choice(PROFILES, case_sensitive=False),
                        default=default, show_default=default is not None,
                        help=N_("Rules profile (see docs/RULES.md)."))


#: ``--set SWITCH=VALUE``: one switch of the rules changed (auction, score and the analyzer).
settings_option = click.option(
    "--set", "settings", multiple=True, metavar="SWITCH=VALUE",
    help=N_("Change one switch of the rules, e.g. stalingrad=true (repeatable; docs/RULES.md lists them)."))


def rules_with_settings(profile: str, settings: tuple[str, ...]) -> Rules:
    """The profile with the --set switches applied; a bad one is a usage error (exit 2)."""
    try:
        return Rules.profile(profile).with_settings(settings)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None


# -- deals -----------------------------------------------------------------

CHECK_BAR_LINES = 20_000    # files shorter than this are checked in under a second


def file_deals(deal_text: str | None, deal_file, talon_mode: str | None, as_json: bool,
               as_jsonl: bool, jobs: int | None, quiet: bool) -> list[str] | None:
    """The deal lines of ``--file`` (None without it), each checked before any is
    solved, so that a bad one is named by its line in the file (blank lines and
    ``#`` comments count) before any output: its cards, and a talon when
    ``--talon-mode take`` asks for one. ``--jobs`` and ``--quiet`` without
    ``--file`` are an error rather than silently ignored."""
    if as_json and as_jsonl:
        raise click.UsageError(_("give either --json or --jsonl, not both"))
    if deal_file is None:
        if jobs is not None or quiet:
            raise click.UsageError(_("--jobs and --quiet go with --file (one deal solves on one thread)"))
        return None
    if deal_text is not None:
        raise click.UsageError(_("give either DEAL or --file, not both"))
    table_size_mb()     # a bad PREFSOLVE_TT_MB is named now, before any line is read or printed
    texts = []
    try:
        data = deal_file.read()
    except OSError as exc:      # opened, but reading failed (a bad descriptor, an I/O error)
        raise click.BadParameter(_("cannot read {file}: {reason}", file=deal_file.name, reason=exc.strerror or exc),
                                 param_hint="'--file'") from None
    lines = split_deal_lines(decode_deal_file(data))
    # Checking takes about 31 us a line: half a minute for a million deals.
    with file_progress(len(lines), quiet or len(lines) < CHECK_BAR_LINES, _("checking")) as bar:
        for number, line in lines:
            try:
                d = Deal.parse(line)
            except PrefsolveError as exc:
                raise PrefsolveError(_("line {number}: {message}", number=number, message=exc)) from None
            if talon_mode == "take" and d.talon is None:
                raise DealError(_("line {number}: deal {deal!r} has no talon, which --talon-mode take asks for",
                                  number=number, deal=line))
            texts.append(line)
            bar.update(1)
    if not texts:   # not an error (a batch may come out empty), but never silent
        click.echo(_("Note: {file} holds no deal (only blank lines and # comments), so nothing was solved",
                     file=deal_file.name), err=True)
    return texts


def decode_deal_file(data: bytes) -> str:
    """A deal file's text: UTF-8, a leading byte-order mark dropped (Windows editors
    write one); other bytes are an error naming their line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DealError(_("line {line}: not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8",
                          line=line, byte=data[exc.start])) from None


# -- long runs: an output file, resuming, a Dask cluster ---------------------

def jsonl_target(deal_text: str | None, jsonl: str | None) -> tuple[str | None, str | None]:
    """DEAL and the ``--jsonl`` target ("-" for stdout, a path, or None).

    ``--jsonl`` takes an optional FILE, so in ``--jsonl DEAL`` click reads
    the deal as the file: a value that reads as a deal, given without DEAL,
    is the DEAL and the lines go to stdout, as they did before ``--jsonl``
    took a file."""
    if jsonl is None or jsonl == "-" or deal_text is not None:
        return deal_text, jsonl
    try:
        Deal.parse(jsonl)
    except PrefsolveError:
        return deal_text, jsonl
    return jsonl, "-"


def jsonl_file(jsonl: str | None) -> str | None:
    """The path of ``--jsonl FILE``, None for stdout or without ``--jsonl``."""
    return None if jsonl in (None, "-") else jsonl


resume_option = click.option(
    "--resume", is_flag=True,
    help=N_("With --file and --jsonl FILE: keep the results FILE already holds (checked deal by deal "
            "against the input) and solve only the deals after them."))


def resume_point(path: str, texts: list[str], expect: dict[str, object], talon_mode: str | None) -> int:
    """How many results the ``--jsonl`` file of an interrupted run holds: its
    whole lines, each the result of the input's deal at that place (the same
    deal text, canonically written, the same ``expect`` fields, such as the
    leader, and the talon mode that ``talon_mode`` gives the deal). A
    missing or empty file holds none. A line that does not match is an
    error naming it (the file is the output of another input or other
    options); the file is not changed here."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise click.BadParameter(_("cannot read {file}: {reason}", file=path, reason=exc.strerror or exc),
                                 param_hint="'--jsonl'") from None
    lines = data[:data.rfind(b"\n") + 1].splitlines()    # a partial last line is solved again
    if len(lines) > len(texts):
        raise PrefsolveError(_("{file} holds {results} results but the input has {deals} deals: it is the output "
                               "of another input; write to a new file", file=path, results=len(lines),
                               deals=len(texts)))
    for i, raw in enumerate(lines):
        where = _("{file} line {line}", file=path, line=i + 1)
        try:
            result = json.loads(raw)
        except ValueError:
            raise PrefsolveError(_("{where} is not a JSON result: {line!r}", where=where, line=raw[:80])) from None
        if not isinstance(result, dict) or "deal" not in result:
            raise PrefsolveError(_("{where} is not a result of this command (no deal): {line!r}", where=where,
                                   line=raw[:80]))
        deal = Deal.parse(texts[i])
        wanted = str(deal)
        if result["deal"] != wanted:
            raise PrefsolveError(_("{where} holds deal {held!r}, but deal {number} of the input is {wanted!r}: it is "
                                   "the output of another input; write to a new file", where=where,
                                   held=result["deal"], number=i + 1, wanted=wanted))
        mode = talon_mode or ("take" if deal.talon is not None else "ignore")    # None: the deal's default
        for key, value in {**expect, "talon_mode": mode}.items():
            if result.get(key) != value:
                raise PrefsolveError(_("{where} has {key} {held!r}, but this run asks for {value!r}; resume with the "
                                       "options of the first run, or write to a new file", where=where, key=key,
                                       held=result.get(key), value=value))
    return len(lines)


@contextlib.contextmanager
def jsonl_output(path: str, resume: bool) -> Iterator[IO[str]]:
    """The ``--jsonl FILE`` to write: new (emptied), or with ``resume`` cut
    after its last whole line and written on from there."""
    try:
        if resume and os.path.exists(path):
            with open(path, "rb+") as old:
                old.truncate(old.read().rfind(b"\n") + 1)
            out = open(path, "a", encoding="utf-8")
        else:
            out = open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise click.BadParameter(_("cannot write {file}: {reason}", file=path, reason=exc.strerror or exc),
                                 param_hint="'--jsonl'") from None
    with out:
        yield out


def check_file_options(deal_file: object, jsonl: str | None, resume: bool, scheduler: str | None,
                       cluster: int | None, jobs: int | None) -> None:
    """The options of long runs that need ``--file`` or each other: a usage error otherwise."""
    if deal_file is None and (resume or scheduler is not None or cluster is not None):
        raise click.UsageError(_("--resume, --scheduler and --cluster go with --file"))
    if resume and jsonl_file(jsonl) is None:
        raise click.UsageError(_("--resume goes with --jsonl FILE: the file of the run to go on with"))
    if scheduler is not None and cluster is not None:
        raise click.UsageError(_("give either --scheduler or --cluster, not both"))
    if jobs is not None and (scheduler is not None or cluster is not None):
        raise click.UsageError(_("--jobs counts this machine's threads; with --scheduler or --cluster the "
                                 "workers' own threads solve (dask worker --nthreads)"))


def _local_workers(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """``local:N``: N worker processes on this machine."""
    if value is None:
        return None
    kind, _colon, count = value.partition(":")
    if kind != "local" or not count.isdigit() or not 1 <= int(count) <= MAX_JOBS:
        raise click.BadParameter(_("expected local:N with N from 1 to {most} (worker processes), got {value!r}",
                                   most=MAX_JOBS, value=value))
    return int(count)


def cluster_options(f: Callable) -> Callable:
    """``--scheduler ADDRESS``, ``--cluster local:N`` and ``--connect-timeout SECONDS``."""
    f = click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
                     show_default=True, metavar="SECONDS",
                     help=N_("How long to wait for the --scheduler to answer."))(f)
    f = click.option("--cluster", "cluster", callback=_local_workers, metavar="local:N",
                     help=N_('With --file: start a Dask cluster of N worker processes on this machine and '
                             'solve there (pip install "prefsolve[dask]").'))(f)
    return click.option("--scheduler", metavar="ADDRESS",
                        help=N_("With --file: solve on the workers of the Dask scheduler at ADDRESS, e.g. "
                                'tcp://host:8786 (pip install "prefsolve[dask]"; docs/CLUSTER.md).'))(f)


@contextlib.contextmanager
def cluster_client(scheduler: str | None, cluster: int | None, timeout: float) -> Iterator[Any]:
    """The ``dask.distributed`` client of ``--scheduler`` or of a ``--cluster``
    started here (closed at the end), or None to solve on this machine's threads.

    Without the dask extra it is a usage error naming it (exit 2); a
    scheduler that does not answer within ``timeout`` seconds, or a cluster
    that cannot finish, one line and exit 1."""
    if scheduler is None and cluster is None:
        yield None
        return
    from ..cluster import ClusterError, MissingExtraError, connect, local_cluster

    # Dask logs what goes wrong (a lost scheduler: its reconnection, a
    # traceback of some 40 lines) before the batch fails; the command says it
    # in one line instead, so its logging is off for the run.
    logging.disable(logging.CRITICAL)
    try:
        if cluster is not None:
            local, client = local_cluster(cluster)
            try:
                yield client
            finally:
                client.close()
                local.close()
        else:
            with connect(scheduler, timeout=timeout) as client:
                yield client
    except MissingExtraError as exc:
        raise click.UsageError(str(exc)) from None
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        logging.disable(logging.NOTSET)
