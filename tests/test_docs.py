"""The repository's citations of the rules point into the repository.

docs/RULES.md states the rules with its own numbered sections (``## §5 …``,
``### §5.3 …``). Code and documents cite it as "RULES.md §5.3"; verdict
messages and help texts use the bare "§2.3" of the same document. This module
checks, file by file, that

* nothing names a rules document that is not part of the repository;
* every section number cited exists as a heading of docs/RULES.md;
* comments, docstrings and prose cite sections only as "RULES.md §N.M" and do
  not speak of "the seed's" notes or "the rules spec".
"""

from __future__ import annotations

import ast
import doctest
import io
import re
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"

#: Names of rules documents kept outside the repository.
EXTERNAL = ("PREFERANS_RULES", "SEED_RULES")
#: Text files checked (generated C is not).
SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi", ".h", ".md", ".txt", ".toml", ".cfg"}

_HEADING = re.compile(r"^#{2,4} §(\d+(?:\.\d+)?) ", re.M)
_REF = r"§\d+(?:\.\d+)?(?:[–-]\d+(?:\.\d+)?)?"
#: A citation: "RULES.md §5.3", "RULES.md §3.2–3.5", "RULES.md §2.3 and §3.1".
_CITATION = re.compile(rf"(?<![\w/])(?:docs/)?RULES\.md {_REF}(?:(?:, | and | or ){_REF})*")
_SECTION = re.compile(r"§(\d+(?:\.\d+)?)(?:[–-](\d+(?:\.\d+)?))?")
_PROSE_WORDS = re.compile(r"\bseed's\b|\brules spec\b", re.I)


def _sections() -> set[str]:
    return set(_HEADING.findall(RULES.read_text(encoding="utf-8")))


def _files() -> list[str]:
    out = [ROOT / "README.md"]
    for top in ("src", "docs", "bench"):
        out += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    return sorted(str(p.relative_to(ROOT)) for p in out if "__pycache__" not in p.parts)


def _py_prose(text: str) -> list[tuple[int, str]]:
    """Comments and docstrings (without their doctest examples), with line numbers."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
    parser = doctest.DocTestParser()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                line = node.body[0].lineno
                out += [(line, part) for part in parser.parse(doc) if isinstance(part, str)]
    return out


def _md_prose(text: str) -> list[tuple[int, str]]:
    """Markdown lines outside code blocks, inline code removed."""
    out, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            out.append((n, re.sub(r"`[^`]*`", "", line)))
    return out


def _problems(rel: str, sections: set[str]) -> list[str]:
    path = ROOT / rel
    text = path.read_text(encoding="utf-8")
    found = [f"{rel} names {name}" for name in EXTERNAL if name in text]
    if rel.startswith(("src/", "docs/")) or rel == "README.md":
        for n, line in enumerate(text.splitlines(), 1):
            for m in _SECTION.finditer(line):
                for number in filter(None, m.groups()):
                    if number not in sections:
                        found.append(f"{rel}:{n}: §{number} is not a section of docs/RULES.md: {line.strip()}")
    if path.suffix == ".py":
        prose = _py_prose(text)
    elif path.suffix == ".md" and path != RULES:
        prose = _md_prose(text)
    else:
        prose = []
    for n, part in prose:
        for line in part.splitlines():
            if "§" in _CITATION.sub("", line):
                found.append(f"{rel}:{n}: cite a section as 'RULES.md §N.M': {line.strip()}")
            if _PROSE_WORDS.search(line):
                found.append(f"{rel}:{n}: say what the rule is and cite docs/RULES.md: {line.strip()}")
    return found


@pytest.mark.parametrize("rel", _files())
def test_file_cites_only_this_repository(rel):
    problems = _problems(rel, _sections())
    assert not problems, "\n".join(problems)


def test_rules_sections_are_numbered_in_order():
    numbers = _HEADING.findall(RULES.read_text(encoding="utf-8"))
    assert len(numbers) == len(set(numbers)), "a section number is used twice"
    chapters = [int(n) for n in numbers if "." not in n]
    assert chapters == list(range(1, len(chapters) + 1))
    for n in numbers:
        if "." in n:
            chapter, sub = map(int, n.split("."))
            assert str(chapter) in numbers, f"§{n} has no chapter §{chapter}"
            assert sub == 1 or f"{chapter}.{sub - 1}" in numbers, f"§{n} does not follow §{chapter}.{sub - 1}"


def test_the_checks_catch_what_they_look_for(tmp_path, monkeypatch):
    sections = {"1", "1.1"}
    bad = tmp_path / "src" / "bad.py"
    bad.parent.mkdir()
    bad.write_text('"""Doc (see PREFERANS_RULES.md §4.2)."""\n'
                   "# the seed's ladder, RULES.md §9.9\n"
                   "X = 1  # RULES.md §1.1 and §1\n"
                   'Y = "§1.1: a verdict message"\n', encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    problems = _problems("src/bad.py", sections)
    assert any("names PREFERANS_RULES" in p for p in problems)
    assert any("§4.2 is not a section" in p for p in problems)
    assert any("§9.9 is not a section" in p for p in problems)
    assert any(":1: cite a section" in p for p in problems)
    assert any(":2: say what the rule is" in p for p in problems)
    assert not any(":3:" in p or ":4:" in p for p in problems)
