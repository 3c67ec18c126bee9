"""The doctests of every module of the package, run against the package imported.

The modules are found with :func:`pkgutil.walk_packages` on the imported
package, so an editable install, a plain install and a ``PYTHONPATH=src``
checkout all test the code they import. Collection imports only the
subpackages (to list their modules), never a module's optional dependencies:
each module is imported by its own test. Every module shows at least one
example, but those in ``WITHOUT_EXAMPLES``.
"""

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import prefsolve

#: Modules with no example, and why.
WITHOUT_EXAMPLES = {
    # The native core takes and returns bitmasks and integers: its examples are
    # those of prefsolve.engine, the one module that calls it.
    "prefsolve._core": "the native core, shown through prefsolve.engine",
    # The console command's shim: it starts the command line, which the CLI
    # tests run as a process.
    "prefsolve._entry": "starts the command line",
}


def package_modules() -> list[str]:
    """Every module of the package but ``__main__`` modules (importing one runs the command line)."""
    def fail(name):
        raise ImportError(f"cannot import {name} to list its modules")

    names = ["prefsolve"] + [info.name for info in pkgutil.walk_packages(prefsolve.__path__, "prefsolve.", fail)]
    return sorted(n for n in names if n.rpartition(".")[2] != "__main__")


MODULES = package_modules()


def test_every_module_is_listed():
    assert {"prefsolve", "prefsolve.cards", "prefsolve.engine", "prefsolve._core"} <= set(MODULES)
    assert set(WITHOUT_EXAMPLES) <= set(MODULES), "WITHOUT_EXAMPLES names a module that is gone"


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name in WITHOUT_EXAMPLES:
        assert result.attempted == 0, f"{name} has examples now: take it off WITHOUT_EXAMPLES"
    else:
        assert result.attempted > 0, f"{name} has no doctest"


def test_the_readmes_python_example_runs(capsys):
    """README.md's Python API block, as a user would paste it."""
    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Python API\n\n```python\n(.*?)```", text, re.S)
    assert block is not None, "README.md has no Python API example"
    exec(compile(block.group(1), "README.md", "exec"), {})
    assert "seat 0 leads trick 1" in capsys.readouterr().out    # it printed the table
