"""Run prefsolve's speed benchmarks and print one JSON object.

    python bench/run.py            # full run (about two minutes on 2 cores here)
    python bench/run.py --quick    # smoke run, under a minute
    python bench/run.py --only contract misere
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # use the source tree when run from a checkout

from prefsolve.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
