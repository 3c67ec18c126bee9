"""Build the Cython core.

Compiled with -O3 only: never -march=native, so that wheels run on any CPU of
the architecture. PREFSOLVE_DEBUG=1 turns bounds checks and assertions on.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PREFSOLVE_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
}

if os.name == "nt":
    compile_args = ["/O2"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(
        "prefsolve._core",
        ["src/prefsolve/_core.pyx"],
        extra_compile_args=compile_args,
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
