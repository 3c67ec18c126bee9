"""Run the doctests of the public modules against the installed package."""

import doctest
import importlib

import pytest

MODULES = ["cards", "deal", "solver", "batch", "contract", "rules", "auction", "scoring", "play", "allpass", "analyzer"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(f"prefsolve.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"prefsolve.{name} has no doctest"
    assert result.failed == 0
