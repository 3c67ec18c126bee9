"""Every message a person reads is translated.

Two checks, one for each way a message can go missing (docs/TRANSLATING.md):

* **Extracted and translated.** Babel extracts every marked message of the
  code and of the board's scripts (tools/catalogues.py, as ``update`` does);
  each must be in the Russian catalogue with a translation that is not
  fuzzy, and with the same named fields (``{seat}``, ``%(prog)s``) as the
  English, since the fields are filled in after the translation.
* **Marked.** An AST walk of the package finds prose that is not marked for
  translation: a string with two words or more (a literal, or the text of an
  f-string) that no ``_``/``N_``/``ngettext``/``pgettext``/``Nn_`` call holds,
  outside docstrings, the words a parser reads (a set literal) and the
  server's log records. The whole package must have none: the command line
  (``prefsolve.cli``), the methods that print results (:data:`PRINTERS`) and
  the library's errors. :data:`ALLOWED` lists the few strings with words that
  are not text for people, each with its reason.
"""

import ast
import re
import string
import sys
from pathlib import Path

import pytest

babel = pytest.importorskip("babel", reason='Babel extracts the messages (pip install ".[test]")')

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "prefsolve"
sys.path.insert(0, str(ROOT / "tools"))

from prefsolve.analysis.holdings import SEED_HOLDINGS  # noqa: E402

import catalogues  # noqa: E402

#: The functions that mark a message for translation.
MARKERS = {"_", "N_", "Nn_", "ngettext", "pgettext"}
#: Methods and functions that print a result for people, wherever they are.
PRINTERS = {"format", "diagram", "advice", "describe", "given_text", "given_line", "margin_text", "close_text",
            "_given", "_words", "format_position", "format_sheet", "solution_text", "play_header"}
#: Prose that is not for people, by module: (the string, why).
ALLOWED = {
    "prefsolve/web/screenshots.py": [
        ("*", "a developer's tool that drives the board's page: CSS selectors and its own argument"),
    ],
    "prefsolve/cli/analyze.py": [
        ("DejaVu Sans", "the plot's font, a name"),
        ("offset points", "a matplotlib coordinate system"),
    ],
    "prefsolve/__init__.py": [
        ("module 'prefsolve' has no attribute ", "a module's __getattr__: Python's own AttributeError, in its words"),
    ],
    "prefsolve/analysis/__init__.py": [
        ("module 'prefsolve.analysis' has no attribute ",
         "a module's __getattr__: Python's own AttributeError, in its words"),
    ],
    "prefsolve/analysis/holdings.py": [
        (text, "the classic book's holdings, as the book writes them (x: a small card)")
        for _number, text, _estimate in SEED_HOLDINGS if " " in text
    ],
    "prefsolve/auction.py": [
        ("пол виста", "a whist call the parser reads"),
        ("half whist", "a whist call the parser reads"),
    ],
    "prefsolve/notation.py": [
        (f"на {word}", "a suit word the parser reads") for word in ("пиках", "винях", "трефах", "бубнах", "червях")
    ],
    "prefsolve/contract.py": [
        (r"(?:\s*[-/]?\s*)(hand|without talon|без прикупа|б/п|бп|bp)$", "the words a contract's parser reads"),
        ("without talon", "a contract in the English notation (Contract.format), which the parser reads back"),
        ("без прикупа", "a contract in the Russian notation (Contract.format), which the parser reads back"),
        (" (без прикупа)", "a contract's symbol, the notation of the analyses"),
    ],
    "prefsolve/bench.py": [
        ("analyze  seat 0", "the name of a benchmark's workload in its JSON"),
        ("model name", "the field of /proc/cpuinfo that names the processor"),
    ],
    "prefsolve/cluster.py": [
        ('pip install "prefsolve[dask]"', "a command to type"),
    ],
}
#: Two words of letters: prose, not a name or a code.
PROSE = re.compile(r"[^\W\d_]{2,} +[^\W\d_]{2,}")


def fields(text: str) -> set[str]:
    """The named fields of a message: ``{name}`` (str.format) and ``%(name)s``."""
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return names | set(re.findall(r"%\((\w+)\)", text))


def test_every_marked_message_has_a_russian_translation():
    assert catalogues.problems() == []


def test_each_translation_keeps_the_fields_of_its_message():
    wrong = []
    for domain in catalogues.DOMAINS:
        for message in catalogues.read("ru", domain):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = set().union(*(fields(i) for i in ids))
            for k, text in enumerate(strings):
                # Form 0 says the singular's fields, the others the plural's; every
                # form may use the fields of either (click passes both).
                own = fields(ids[min(k, len(ids) - 1)])
                if fields(text) - wanted or own - fields(text):
                    wrong.append((message.id, text))
    assert wrong == []


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        # An attribute's docstring: a string right after an assignment in a class.
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(id(stmt.value))
    return found


def _marked(tree: ast.AST) -> set[int]:
    """The string nodes inside a marking call."""
    found = set()
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in MARKERS or name in ("gettext", "ngettext", "pgettext"):
            for arg in node.args:
                for inner in ast.walk(arg):
                    found.add(id(inner))
    return found


def _not_prose(tree: ast.AST) -> set[int]:
    """Strings with words that are not text for people: the words a parser reads
    (the elements of a set literal, such as ``{"no trump", "без козыря"}``) and a
    log record's format (the server's log, for its operator)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Set):
            found.update(id(e) for e in node.elts)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id in ("log", "logger", "logging")
              and node.args):
            found.add(id(node.args[0]))
    return found


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def unmarked(path: Path, only_printers: bool = False) -> list[str]:
    """The prose of a module that no marking call holds (with ``only_printers``,
    inside :data:`PRINTERS` alone)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree) | _marked(tree)
    name = path.relative_to(PACKAGE.parent).as_posix()
    allowed = {text for text, _why in ALLOWED.get(name, [])}
    if "*" in allowed:
        return []
    skip |= _not_prose(tree)
    roots = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
             and n.name in PRINTERS] if only_printers else [tree]
    found = []
    seen: set[int] = set()
    for root in roots:
        for node in ast.walk(root):
            if id(node) in seen or id(node) in skip:
                continue
            seen.add(id(node))
            if isinstance(node, ast.JoinedStr):
                seen.update(id(v) for v in node.values)
            text = _text(node)
            if text is not None and PROSE.search(text) and text not in allowed:
                found.append(f"{name}:{node.lineno}: {text[:70]!r}")
    return found


def test_the_command_line_marks_every_message():
    assert [m for path in sorted((PACKAGE / "cli").glob("*.py")) for m in unmarked(path)] == []


def test_the_printed_results_mark_every_message():
    assert [m for path in sorted(PACKAGE.rglob("*.py")) for m in unmarked(path, only_printers=True)] == []


def test_the_whole_package_marks_every_message():
    assert [m for path in sorted(PACKAGE.rglob("*.py")) for m in unmarked(path)] == []


def test_the_walk_finds_unmarked_prose_and_passes_marked_prose(tmp_path):
    # The check itself: what it must flag and what it must not.
    module = PACKAGE / "cli" / "_probe_messages.py"
    source = ('"""A module docstring with words."""\n'
              'from ..i18n import N_, _\n'
              'def f(x):\n'
              '    """A docstring with words."""\n'
              '    a = _("marked words {x}", x=x)\n'
              '    b = N_("marked at import")\n'
              '    c = "plain words"\n'
              '    d = f"seat {x} leads"\n'
              '    e = f"{x:<9}{x:>6}"\n'
              '    return a, b, c, d, e\n')
    module.write_text(source, encoding="utf-8")
    try:
        found = unmarked(module)
    finally:
        module.unlink()
    assert [line.split(": ", 1)[1] for line in found] == ["'plain words'", "'seat  leads'"]
