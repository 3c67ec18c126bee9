"""``python -m prefsolve`` runs the command line."""

from ._entry import main

main()
