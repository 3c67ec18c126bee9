"""Run prefsolve's speed benchmarks and print one JSON object.

    python bench/run.py            # full run (about two minutes on 2 cores here)
    python bench/run.py --quick    # smoke run, under a minute
    python bench/run.py --only contract misere
"""

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
# The source tree, when its core is built there (pip install -e . or build_ext
# --inplace); otherwise the installed package (pip install .), whose core is
# in site-packages: a checkout's src/ without a built core cannot import.
if any((SRC / "prefsolve" / f"_core{suffix}").exists() for suffix in EXTENSION_SUFFIXES):
    sys.path.insert(0, str(SRC))

try:
    from prefsolve.bench import main  # noqa: E402
except ImportError as exc:
    sys.exit(f"bench/run.py: cannot import prefsolve ({exc}); install it first: pip install .")

if __name__ == "__main__":
    sys.exit(main())
