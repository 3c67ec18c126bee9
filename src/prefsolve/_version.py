"""The package version, in one place (read by setuptools and by prefsolve).

>>> import prefsolve
>>> prefsolve.__version__ == __version__
True
"""

__version__ = "0.1.0"
