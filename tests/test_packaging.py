"""The distributions: the sdist builds from a clean checkout, the wheel installs what runs.

The sdist is built from a ``git clone`` of this repository (its committed files
only, as CI and a user's checkout see them), the wheel from that sdist, as pip
builds it on a machine with no wheel for it. Both builds run with build
isolation, as ``pip install .`` does: each gets the build requirements of
pyproject.toml in an environment of its own, so the result does not depend on
what the test's environment happens to hold (the setuptools 65.5 that Python
3.11's venv bundles has no ``bdist_wheel`` without the ``wheel`` package).
"""

import ast
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What the wheel may hold besides the modules: the stub, the typed marker,
# the endings table the engine reads at import, the web board's page, and
# each message catalogue compiled from its .po (the .po itself stays out).
LOCALE = ROOT / "src" / "prefsolve" / "locale"
CATALOGUES = {str(p.relative_to(LOCALE.parent).with_suffix(".mo")) for p in LOCALE.glob("*/LC_MESSAGES/*.po")}
DATA = {"py.typed", "endings4.bin", *CATALOGUES,
        *(f"web/static/{p.name}" for p in (ROOT / "src" / "prefsolve" / "web" / "static").iterdir())}
SOURCES = (".c", ".cpp", ".pyx", ".pxi", ".pxd", ".h")


def run(*args, cwd=None):
    r = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(map(str, args))} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def checkout(dest: Path) -> Path:
    """A clean copy of the repository: a clone of its committed files, or, in
    an unpacked sdist (no .git), the tree itself without build products."""
    if (ROOT / ".git").exists():
        run("git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(dest))
    else:
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", "_core.c", ".hypothesis"))
    return dest


def tracked(tree: Path) -> list[str]:
    if (tree / ".git").exists():
        return run("git", "ls-files", cwd=tree).split()
    return [str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file()]


def extension_names(setup_py: Path) -> list[str]:
    """The modules setup.py compiles: the first argument of each Extension(...)."""
    names = []
    for node in ast.walk(ast.parse(setup_py.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Extension":
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), ast.dump(first)
            names.append(first.value)
    return names


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dists")
    tree = checkout(tmp / "checkout")
    run(sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp / "sdist"), str(tree))
    (sdist,) = (tmp / "sdist").glob("prefsolve-*.tar.gz")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp / "unpacked", filter="data")
    (unpacked,) = (tmp / "unpacked").iterdir()
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
        "--wheel-dir", str(tmp / "wheel"), str(unpacked))
    (wheel,) = (tmp / "wheel").glob("prefsolve-*.whl")
    return tree, sdist, unpacked, wheel


def test_the_sdist_carries_every_committed_source_test_and_document(dists):
    tree, sdist, _, _ = dists
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    wanted = [f for f in tracked(tree)
              if f.split("/")[0] in ("src", "tests", "bench", "examples", "docs")
              or f in ("LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in")]
    assert any(f.endswith(".pyx") for f in wanted) and "tests/reference.py" in wanted
    assert [f for f in wanted if f not in names] == []
    # and no build products: a clean checkout has none to carry.
    assert not [n for n in names if n.endswith((".so", ".pyd", ".pyc")) or n.startswith(("build/", "dist/"))]


def test_the_wheel_holds_the_compiled_core_the_modules_and_their_data_and_no_sources(dists):
    tree, _, unpacked, wheel = dists
    files = [n for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")]
    package = tree / "src" / "prefsolve"
    modules = sorted(str(p.relative_to(package.parent)) for p in package.rglob("*.py"))
    stubs = sorted(str(p.relative_to(package.parent)) for p in package.rglob("*.pyi"))
    extensions = extension_names(unpacked / "setup.py")
    assert "prefsolve._core" in extensions and "prefsolve/_core.pyi" in stubs
    assert "locale/ru/LC_MESSAGES/prefsolve.mo" in DATA and "locale/ru/LC_MESSAGES/board.mo" in DATA
    compiled = []
    for name in extensions:
        stem = name.replace(".", "/")
        built = [f for f in files if any(f == stem + suffix for suffix in EXTENSION_SUFFIXES)]
        assert len(built) == 1, f"the wheel has no compiled {name}: {files}"
        compiled += built
    data = [f"prefsolve/{name}" for name in sorted(DATA)]
    assert sorted(files) == sorted(modules + stubs + data + compiled)
    assert not [f for f in files if f.endswith(SOURCES)]


def test_the_wheel_alone_solves_a_deal_and_reads_its_endings_table(dists, tmp_path):
    _, _, _, wheel = dists
    target = tmp_path / "site"
    run(sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import prefsolve\n"
            "from prefsolve import Deal, solve\n"
            "assert prefsolve.__file__.startswith(sys.argv[1]), prefsolve.__file__\n"
            "deal = Deal.parse('A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-')\n"
            "print(solve(deal, 0, strain='misere').tricks)\n"
            # Russian from the compiled catalogue, not from a .po (the wheel has none) through Babel
            "from prefsolve.i18n import ngettext, use_language\n"
            "with use_language('ru'): assert ngettext('{n} trick', '{n} tricks', 5) == '5 взяток'\n"
            "assert 'babel' not in sys.modules\n")
    # The same answer as the package under test: the wheel's core and table work.
    from prefsolve import Deal, solve

    deal = Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
    expected = solve(deal, 0, strain="misere").tricks
    assert run(sys.executable, "-c", code, str(target), cwd=tmp_path).strip() == str(expected)


def test_ci_runs_readmes_first_two_commands_as_written_in_a_new_venv():
    # .ci/newcomer runs what .ci/readme-commands reads out of README.md, in a
    # brand-new venv: README's commands and what CI runs cannot drift apart.
    ci = ROOT / ".ci"
    if not ci.is_dir():
        pytest.skip("no .ci folder: an unpacked sdist carries no CI scripts")
    commands = run("bash", str(ci / "readme-commands")).splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    assert commands == block.splitlines() and len(commands) == 2
    assert commands[0].startswith("pip install . && prefsolve ")
    assert commands[1].startswith('pip install ".[test]" && python -m pytest')
    newcomer = (ci / "newcomer").read_text(encoding="utf-8")
    assert "python -m venv" in newcomer and "readme-commands" in newcomer and 'bash -c "$command"' in newcomer
    assert "bash .ci/newcomer" in (ci / "run").read_text(encoding="utf-8")


def test_the_tests_of_an_absent_extra_skip_and_say_which_extra():
    # A user who installed ".[test]" without an extra, or without one of its
    # modules: the extra's tests skip with the install command, never error.
    absent = ["distributed", "dask", "starlette", "uvicorn", "httpx", "playwright", "matplotlib"]
    code = ("import sys\n"
            "for name in sys.argv[1].split(','): sys.modules[name] = None   # import fails\n"
            "import pytest\n"
            "sys.exit(pytest.main(sys.argv[2:]))\n")
    tests = ROOT / "tests"
    r = subprocess.run([sys.executable, "-c", code, ",".join(absent), "-q", "-rs", "-p", "no:cacheprovider",
                        str(tests / "test_cluster.py"), str(tests / "test_web_api.py"),
                        str(tests / "test_web_browser.py"), str(tests / "test_analyze_cli.py"), "-k", "plot"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " error" not in r.stdout and " failed" not in r.stdout
    skipped = [line for line in r.stdout.splitlines() if line.startswith("SKIPPED")]
    for extra in ("dask", "web", "plot"):
        assert any(f'pip install "prefsolve[{extra}]"' in line for line in skipped), (extra, skipped)
    # Three modules and every drawing test skipped; the test of the missing-matplotlib message ran.
    counts = r.stdout.splitlines()[-1]
    assert counts.startswith("1 passed, ") and int(counts.split(", ")[1].split()[0]) >= 3 + 6, counts
