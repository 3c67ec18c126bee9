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

# _core: the search (one translation unit: _core.pyx includes its .pxi
# parts and C headers). _probe: the bench's machine probe, apart from it.
extensions = [
    Extension(
        "prefsolve._core",
        ["src/prefsolve/_core.pyx"],
        depends=["src/prefsolve/_core_helpers.h", "src/prefsolve/_game_guess.h",
                 "src/prefsolve/_misere_guess.h"],
        extra_compile_args=compile_args,
    ),
    Extension(
        "prefsolve._probe",
        ["src/prefsolve/_probe.pyx"],
        depends=["src/prefsolve/_probe.h"],
        extra_compile_args=compile_args,
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
