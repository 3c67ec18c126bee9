"""Run the doctests of the public modules against the installed package."""

import doctest
import importlib

import pytest

MODULES = ["cards", "deal", "solver", "batch", "contract", "rules", "auction", "scoring", "play", "allpass",
           "analysis", "analysis._common", "analysis.sampling", "analysis.stats", "analysis.recommendation",
           "analysis.defence", "analysis.bid", "analysis.whist", "analysis.talon", "analysis.allpass",
           "analysis.holdings"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(f"prefsolve.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"prefsolve.{name} has no doctest"
    assert result.failed == 0


def test_the_readmes_python_example_runs(capsys):
    """README.md's Python API block, as a user would paste it."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Python API\n\n```python\n(.*?)```", text, re.S)
    assert block is not None, "README.md has no Python API example"
    exec(compile(block.group(1), "README.md", "exec"), {})
    assert "seat 0 leads trick 1" in capsys.readouterr().out    # it printed the table
