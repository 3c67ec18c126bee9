"""The package's import graph: no cycles, and one owner of the native core.

Every module of the package is parsed with :mod:`ast` and each import it
makes, at module level or inside a function, absolute or relative, becomes an
edge to the package's module it names. Imports under ``if TYPE_CHECKING:``
never run and are left out. A cycle, even one hidden in a function-level
import, means two modules that cannot be understood (or loaded) apart.
"""

import ast
import re
from pathlib import Path

import prefsolve

PACKAGE = Path(prefsolve.__file__).resolve().parent
SOURCE = Path(__file__).resolve().parents[1] / "src" / "prefsolve"
CORE = "prefsolve._core"
CORE_OWNER = "prefsolve.engine"


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Every Python module of the package in ``package``, by dotted name."""
    files = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(tree: ast.AST, module: str, is_package: bool) -> list[tuple[str, list[str]]]:
    """What a module imports: ``(name, [])`` for ``import name`` and
    ``(source, [names])`` for ``from source import names``, relative sources
    resolved against the module's package."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            found.append((source, [alias.name for alias in node.names]))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the package's modules it imports (the core counts as one).

    ``import X`` is an edge to X; ``from X import y`` to X.y when that is a
    module, else to X, and to X as well; importing a module imports the
    packages it is in. Packages the importing module is itself in are left
    out: they are being imported already while their modules load."""
    files = module_files(package)
    known = set(files) | {CORE}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = set()
        for source, names in imports(tree, module, path.name == "__init__.py"):
            targets = [f"{source}.{name}" if f"{source}.{name}" in known else source for name in names]
            targets.append(source)
            # Importing a module first imports the packages it is in.
            targets += [t.rsplit(".", k)[0] for t in list(targets) for k in range(1, t.count(".") + 1)]
            edges.update(t for t in targets if t in known and t != module and not module.startswith(t + "."))
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each set of modules that import one another (a strongly connected
    component, by Tarjan's algorithm), named by one cycle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                path = " -> ".join(path_through(graph, set(component)))
                found.append(f"{path} (in the cycle of {', '.join(sorted(component))})")

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def path_through(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A cycle inside a strongly connected component, from its first module."""
    start = min(component)
    seen = {start: [start]}
    frontier = [start]
    while frontier:     # breadth first: the shortest cycle back to start
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    return seen[v] + [start]
                if w not in seen:
                    seen[w] = seen[v] + [w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {sorted(component)}")


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert "prefsolve.engine" in graph and "prefsolve" in graph
    assert cycles(graph) == []


def write_package(root: Path, modules: dict[str, str]) -> Path:
    for name, text in modules.items():
        path = root / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_a_cycle_through_function_level_and_relative_imports_is_found(tmp_path):
    package = write_package(tmp_path, {
        "pkg.__init__": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n",
        "pkg.a": "from . import b\n",
        "pkg.b": "def g():\n    from .sub.c import h\n",
        "pkg.sub.__init__": "",
        "pkg.sub.c": "import os\ndef h():\n    from pkg import a\n",
        "pkg.d": "from pkg.a import x\nfrom .sub import c\n",
    })
    graph = import_graph(package)
    # The TYPE_CHECKING import is not an edge; `from . import b` is an edge to the module b.
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.sub", "pkg.sub.c"}, "pkg.sub": set(),
                     "pkg.sub.c": {"pkg.a"}, "pkg.d": {"pkg.a", "pkg.sub", "pkg.sub.c"}}
    assert cycles(graph) == ["pkg.a -> pkg.b -> pkg.sub.c -> pkg.a (in the cycle of pkg.a, pkg.b, pkg.sub.c)"]
    # A package's own modules importing from it is no cycle: it is loading already.
    package = write_package(tmp_path / "two", {"pkg.__init__": "from .a import f\n", "pkg.a": "from . import b\n",
                                               "pkg.b": "from pkg import a\n"})
    assert cycles(import_graph(package)) == ["pkg.a -> pkg.b -> pkg.a (in the cycle of pkg.a, pkg.b)"]


def test_only_the_engine_imports_the_native_core():
    importers = sorted(m for m, edges in import_graph().items() if CORE in edges)
    assert importers == [CORE_OWNER]
    # Nor by name, through importlib, anywhere in the package or the benchmarks.
    root = SOURCE.parents[1]
    for path in [*PACKAGE.rglob("*.py"), *(root / "bench").glob("*.py"), root / "setup.py"]:
        if path == PACKAGE / "engine.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                    "import_module", "__import__"):
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                assert not any("_core" in t for t in texts), f"{path}:{node.lineno} imports the core by name"
            if isinstance(node, (ast.Import, ast.ImportFrom)) and path.parent.name == "bench":
                named = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any("_core" in n for n in named), f"{path}:{node.lineno} imports the core"


def test_the_native_core_imports_nothing_from_the_package():
    # The core's Cython sources: the engine hands the core what it needs, so
    # that the native module sits below every Python module.
    found = []
    for path in sorted([*SOURCE.glob("*.pyx"), *SOURCE.glob("*.pxi")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(from\s+(prefsolve|\.)\S*\s+c?import|import\s+prefsolve)", line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert any(SOURCE.glob("*.pyx")) and found == []
