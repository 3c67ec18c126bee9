"""``python -m prefsolve`` runs the command line."""

from .cli import run

run()
