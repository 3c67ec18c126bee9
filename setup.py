"""Build the Cython core and compile the message catalogues.

Compiled with -O3 only: never -march=native, so that wheels run on any CPU of
the architecture. PREFSOLVE_DEBUG=1 turns bounds checks and assertions on.

The translations' sources, ``src/prefsolve/locale/<lang>/LC_MESSAGES/*.po``,
are compiled to the ``.mo`` files gettext reads as the package is built
(Babel, a build requirement): the wheel ships the ``.mo``, the sdist the
``.po`` (docs/TRANSLATING.md).
"""
import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class build_py_with_catalogues(build_py):
    """build_py, and every .po compiled to its .mo beside the modules built (in
    an editable install, beside the .po: the package is imported from there),
    by tools/catalogues.py, the catalogues' one tool."""

    def run(self) -> None:
        super().run()
        sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
        from catalogues import compile_catalogues

        if getattr(self, "editable_mode", False):
            compile_catalogues()
        else:
            compile_catalogues(Path(self.build_lib, "prefsolve", "locale"))


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

setup(ext_modules=cythonize(extensions, compiler_directives=directives),
      cmdclass={"build_py": build_py_with_catalogues})
