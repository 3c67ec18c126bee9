"""The package version, in one place (read by setuptools and by prefsolve)."""

__version__ = "0.1.0"
