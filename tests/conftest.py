"""Shared test settings: hypothesis profiles and the test helpers on the path.

Profiles: ``default`` (60 examples a property, no deadline: solver calls vary
in time with the deal), ``slow`` (1000 examples; ``HYPOTHESIS_PROFILE=slow``)
and, where the environment says it is CI (``CI=true``), ``ci``: the default's
examples, derandomized and without the example database, so that a run
checks the same cases on every machine and a failure is reproduced by
running again.
"""

import os
import sys

from hypothesis import HealthCheck, settings

# tests/ holds the reference solver and the helpers the tests import by name.
sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "slow", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", settings.get_profile("default"), derandomize=True, database=None, print_blob=True)
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "default"))


def pytest_collection_modifyitems(config, items):
    """Under mutation testing (mutmut sets MUTANT_UNDER_TEST), the example tests run
    before the hypothesis properties: most mutants are killed by a quick example, and
    the run stops at the first failure (docs/TESTING.md). The order of the suite is
    otherwise the files' own."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        items.sort(key=lambda item: hasattr(getattr(item, "obj", None), "hypothesis"))
