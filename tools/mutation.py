"""Mutation testing of the rules modules: each module against its own test file.

    python tools/mutation.py                      # scoring, auction, contract and cards
    python tools/mutation.py cards contract       # some of them
    python tools/mutation.py --max-children 1     # the number of processes mutmut runs
    python tools/mutation.py --again              # after new tests: the survivors again too

mutmut (the ``dev`` extra) changes one thing at a time in a module (a ``<``
into a ``<=``, a ``1`` into a ``2``, a string into another, ...) and runs the
tests that reach the changed function; a mutant that no test notices points at
a rule no test pins down. Its settings are ``[tool.mutmut]`` of pyproject.toml;
this script runs it once per module, each time with that module alone mutated
and only its own test file (``src/prefsolve/X.py`` against ``tests/test_X.py``),
so that a fault in ``cards.py`` counts as caught only if the tests of the cards
catch it, not because some score downstream changed. docs/TESTING.md has the
scores.

Each module runs in its own directory, ``mutants/<module>/`` (ignored by git):
links to ``src``, ``tests`` and ``examples``, and a pyproject.toml that is the
project's with the module's own ``only_mutate`` and test file; mutmut copies
them into ``mutants/<module>/mutants/`` and keeps its results there, so a
second run tests again only what changed. ``mutmut results`` or
``mutmut show NAME`` in that directory lists the mutants and shows one.

The compiled core (``src/prefsolve/*.so``) and the compiled catalogues
(``*.mo``) must be in the checkout, as for the test suite: mutmut copies
``src`` whole. The hypothesis tests run with the derandomized ``ci`` profile
(tests/conftest.py), so that a mutant's verdict is the same on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("scoring", "auction", "contract", "cards")
#: The goal: the share of the mutants a test reaches that a test kills, in each module.
GOAL = 0.95
#: mutmut's verdicts that count as a caught mutant (a timeout is a mutant that
#: made a test loop or hang: the test did not pass).
CAUGHT = ("killed", "timeout")
#: The verdict of a mutant in a function no selected test calls.
UNREACHED = "no tests"
UNCHECKED = "not checked"
LINKED = ("src", "tests", "examples")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # JSON's string escapes (\" \\ \n \uXXXX) are TOML's basic string escapes.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def _toml_table(name: str, table: dict[str, object]) -> str:
    return f"[{name}]\n" + "".join(f"{key} = {_toml_value(value)}\n" for key, value in table.items())


def prepare(module: str) -> Path:
    """The module's directory: links to the checkout and its own mutmut settings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mutmut = dict(project["tool"]["mutmut"])
    mutmut["only_mutate"] = [f"src/prefsolve/{module}.py"]
    mutmut["pytest_add_cli_args_test_selection"] = [f"tests/test_{module}.py"]
    pytest = project["tool"]["pytest"]["ini_options"]
    workdir = ROOT / "mutants" / module
    workdir.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = workdir / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)
    (workdir / "pyproject.toml").write_text(
        f"# written by tools/mutation.py for {module}.py: do not edit\n\n"
        + _toml_table("tool.mutmut", mutmut)
        + "\n"
        + _toml_table("tool.pytest.ini_options", pytest),
        encoding="utf-8",
    )
    return workdir


def run(module: str, max_children: int, again: bool = False) -> None:
    """mutmut over one module, in its directory: the mutants not yet tested (all of
    them the first time, those of changed functions later), or with ``again`` the
    survivors of the last run too (after new tests: mutmut keeps a verdict until
    the function changes)."""
    workdir = prepare(module)
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci")
    # The mutated copy, never the checkout, is what the tests import: mutmut puts
    # it first on the path, and no PYTHONPATH of the caller's may come before it.
    env.pop("PYTHONPATH", None)
    mutmut = shutil.which("mutmut") or "mutmut"
    command = [mutmut, "run", "--max-children", str(max_children)]
    subprocess.run(command, cwd=workdir, env=env, check=True)
    # Survivors, and mutants no test reached then: a new test may reach them now.
    survivors = [name for name, verdict in results(module).items() if verdict in ("survived", UNREACHED)] \
        if again else []
    if survivors:
        subprocess.run(command + survivors, cwd=workdir, env=env, check=True)


def results(module: str) -> dict[str, str]:
    """Every mutant of the module and mutmut's verdict on it (none before a first run)."""
    if not (ROOT / "mutants" / module / "mutants").is_dir():
        return {}
    out = subprocess.run(
        [shutil.which("mutmut") or "mutmut", "results", "--all", "true"],
        cwd=ROOT / "mutants" / module,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    verdicts = {}
    for line in out.splitlines():
        name, sep, verdict = line.strip().rpartition(": ")
        if sep and name.startswith("prefsolve."):
            verdicts[name] = verdict
    return verdicts


def function_of(mutant: str) -> str:
    """The function a mutant changes: ``prefsolve.cards.xǁHandǁ__init____mutmut_3`` -> ``Hand.__init__``."""
    name = mutant.rsplit(".", 1)[1]
    name = re.sub(r"__mutmut_\d+$", "", name)
    return name.removeprefix("x_").removeprefix("x").strip("ǁ").replace("ǁ", ".")


def report(module: str) -> bool:
    """Print the module's score; True if it meets the goal and every function is reached."""
    verdicts = results(module)
    counts = Counter(verdicts.values())
    # A mutant not checked yet (an interrupted run) counts nowhere: the report says how many.
    reached = len(verdicts) - counts[UNREACHED] - counts[UNCHECKED]
    caught = sum(counts[v] for v in CAUGHT)
    score = caught / reached if reached else 0.0
    others = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()) if v not in (*CAUGHT, UNREACHED))
    print(
        f"{module + '.py':12} {len(verdicts):5} mutants, {reached:5} reached by a test, "
        f"{caught:5} killed ({score:.1%}); {counts[UNREACHED]} reached by no test"
        + (f"; {others}" if others else "")
    )
    unreached = sorted({function_of(m) for m, v in verdicts.items() if v == UNREACHED})
    if unreached:
        print(f"{'':12} functions no test reaches: {', '.join(unreached)}")
    return score >= GOAL and not unreached and not counts[UNCHECKED]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE", help=f"some of {', '.join(MODULES)} (default: all)")
    parser.add_argument("--max-children", type=int, default=2, help="mutmut's processes (default 2)")
    parser.add_argument("--again", action="store_true",
                        help="test the survivors and the unreached of the last run again too (after adding tests)")
    parser.add_argument("--report", action="store_true", help="only print the scores of the last run")
    args = parser.parse_args(argv)
    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        parser.error(f"not a rules module: {', '.join(unknown)} (one of {', '.join(MODULES)})")
    if not args.report:
        for module in modules:
            run(module, args.max_children, args.again)
    print()
    ok = [report(module) for module in modules]
    print(f"goal: {GOAL:.0%} of the mutants a test reaches killed, and every function reached")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
