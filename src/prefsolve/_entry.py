"""The ``prefsolve`` console command.

It loads the command line itself, so that a Ctrl-C pressed while the modules
load ends it as one pressed later does (one line, exit 130), not with a
traceback: the package's ``__init__`` loads nothing heavy before this runs.
"""

import sys


def main() -> None:
    try:
        from .cli import run
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        sys.exit(130)
    run()
