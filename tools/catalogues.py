"""The message catalogues: extract the messages, update the .po files, compile them.

    python tools/catalogues.py update     # after adding or changing a message
    python tools/catalogues.py compile    # .po -> .mo in place, for a checkout
    python tools/catalogues.py check      # every message extracted and translated

``update`` extracts every marked message (babel.cfg says where and how) into
two catalogues: ``prefsolve`` (the Python code: ``_()``, ``ngettext()``,
``pgettext()``, ``N_()`` and the help of every command, its docstring) and
``board`` (the web board's scripts: ``t()``); then it merges them into each
language's ``src/prefsolve/locale/<lang>/LC_MESSAGES/<domain>.po``, keeping
every translation whose message is still there. ``compile`` writes the
``.mo`` files next to them (ignored by git; a build writes them into the
wheel, setup.py). docs/TRANSLATING.md is the translator's guide.

Babel (``pip install babel``) does the work; this script only tells it where.
"""

from __future__ import annotations

import ast
import inspect
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python as babel_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "prefsolve" / "locale"
#: The translations kept in the repository: every language but English, whose text is the messages.
TRANSLATED = ("ru",)
#: The page's scripts: their messages make the board's catalogue; all the others, the package's.
BOARD_SOURCES = "src/prefsolve/web/static/"
DOMAINS = ("prefsolve", "board")
#: The marking functions: gettext's own names (babel.cfg adds the board's t() for its scripts).
KEYWORDS = DEFAULT_KEYWORDS
#: Comments starting with this, just above a message, go to the translator.
COMMENT_TAGS = ("TRANSLATORS:",)
#: The decorators whose function's docstring is a command's help.
COMMAND_DECORATORS = ("command", "group")


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def extract_python(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel's Python extraction, and the docstring of every function that a
    click ``command``/``group`` decorator makes a command: its help. The
    docstring is cleaned as ``inspect.cleandoc`` cleans it, as the command
    line looks it up (prefsolve.cli._common)."""
    source = fileobj.read()
    yield from babel_python(io.BytesIO(source), keywords, comment_tags, options)
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any(_decorator_name(d) in COMMAND_DECORATORS for d in node.decorator_list):
            continue
        doc = ast.get_docstring(node, clean=False)
        if doc:
            yield node.body[0].lineno, None, inspect.cleandoc(doc), []


def _method_map() -> tuple[list[tuple[str, str]], dict]:
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")
    # The project's extractor, named in babel.cfg, is this module's function.
    return [(pattern, extract_python if method == "catalogues:extract_python" else method)
            for pattern, method in method_map], options_map


def extract() -> dict[str, Catalog]:
    """The messages of the sources, as one template catalogue per domain."""
    templates = {domain: Catalog(project="prefsolve", domain=domain) for domain in DOMAINS}
    method_map, options_map = _method_map()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
            strip_comment_tags=True):
        domain = "board" if filename.replace("\\", "/").startswith(BOARD_SOURCES) else "prefsolve"
        templates[domain].add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return templates


def po_path(lang: str, domain: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


HEADER = """\
prefsolve's messages in {language}, the {domain} catalogue: each English text
(msgid) is followed by its translation (msgstr). docs/TRANSLATING.md says how to add,
change and merge them; tools/catalogues.py keeps the list up to date."""


def read(lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if not path.exists():
        catalog = Catalog(locale=lang, domain=domain, project="prefsolve", version="", fuzzy=False,
                          last_translator="prefsolve", language_team="prefsolve")
        catalog.header_comment = "\n".join(
            "# " + line for line in HEADER.format(domain=domain, language=catalog.locale.english_name).splitlines())
        return catalog
    with open(path, "rb") as f:
        return read_po(f, locale=lang, domain=domain)


def untranslated(message) -> bool:
    """A message of a catalogue without its translation (each plural form counts)."""
    text = message.string
    return not text or (isinstance(text, tuple) and not all(text))


def update() -> None:
    """Merge the extracted messages into every language's .po files."""
    for domain, template in extract().items():
        for lang in TRANSLATED:
            catalog = read(lang, domain)
            template.creation_date = catalog.creation_date     # the header changes only with its content
            catalog.update(template, update_header_comment=False)
            catalog.obsolete.clear()    # a removed message leaves the file; git keeps its history
            path = po_path(lang, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as f:
                # Files without line numbers: editing a module does not touch the
                # catalogue, and two branches' catalogues merge where their messages do.
                write_po(f, catalog, width=100, sort_output=False, ignore_obsolete=True, include_lineno=False)
            print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, "
                  f"{sum(1 for m in catalog if m.id and untranslated(m))} untranslated")


def compile_catalogues(target: Path = LOCALE) -> list[Path]:
    """Every .po as a .mo under ``target`` (the same layout); the files written."""
    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with open(po, "rb") as f:
            catalog = read_po(f, locale=po.parts[-3], domain=po.stem)
        mo = target / po.relative_to(LOCALE).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with open(mo, "wb") as f:
            write_mo(f, catalog)
        written.append(mo)
    return written


def problems() -> list[str]:
    """What keeps the catalogues from being complete: a message the sources
    mark that a .po lacks, or one without a translation (or with a fuzzy one)."""
    found = []
    for domain, template in extract().items():
        for lang in TRANSLATED:
            catalog = read(lang, domain)
            for message in template:
                if not message.id:
                    continue
                held = catalog.get(message.id, context=message.context)
                where = ", ".join(f"{f}:{n}" for f, n in message.locations)
                if held is None:
                    found.append(f"{lang}/{domain}.po lacks {message.id!r} ({where}): run update")
                elif untranslated(held):
                    found.append(f"{lang}/{domain}.po: no translation of {message.id!r} ({where})")
                elif held.fuzzy:
                    found.append(f"{lang}/{domain}.po: the translation of {message.id!r} is fuzzy "
                                 f"(check it and remove the fuzzy flag)")
    return found


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        for mo in compile_catalogues():
            print(mo.relative_to(ROOT))
    elif argv == ["check"]:
        found = problems()
        print("\n".join(found) or "every message is translated")
        return 1 if found else 0
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
