"""The import graph of hexengine/, protocol/ and scripts/ has no circle, hidden ones included.

Every module is parsed (``ast``, nothing is run) and ALL its imports are collected: at the
top, inside functions and methods, and under ``if TYPE_CHECKING``, since an import inside a
function only hides a circle until that function runs.  Relative imports are resolved to
module names; ``from pkg import name`` is an import of the submodule ``pkg.name`` when there
is one, else of ``pkg`` itself.  A script's ``import bench`` (scripts put their own folder on
the path) is ``scripts.bench``.

Packages: importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` first, so an
import of a module is also an import of the faces (``__init__``) of the packages that hold it
-- except the packages that hold the importer too: a package's face may import its own
submodules (``evaluation/__init__`` registers every evaluation), and those submodules do not
count as importing that face back, since Python has already begun running it.  An explicit
import of a package's face from inside it (``from . import get``, with ``get`` defined in
``__init__``) does count, and closes a circle when the face imports the importer.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ("hexengine", "protocol", "scripts")


def module_files(root: Path, trees: tuple[str, ...] = TREES) -> dict[str, Path]:
    """Module name -> file, for every .py file under the ``trees`` (folders of ``root``)."""
    out = {}
    for tree in trees:
        for path in sorted((root / tree).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(tree: ast.AST, name: str, is_package: bool,
             modules: dict[str, Path]) -> set[str]:
    """The project modules that module ``name`` imports explicitly, anywhere in it."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()

    def absolute(target: str) -> str:
        # a script imports its sibling scripts by their bare names
        if name.startswith("scripts.") and target not in modules \
                and f"scripts.{target}" in modules:
            return f"scripts.{target}"
        return target

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(absolute(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = absolute(node.module or "")
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in modules else source)
    return {m for m in found if m in modules}


def _faces(target: str, importer: str, modules: dict[str, Path]) -> set[str]:
    """The faces of the packages holding ``target`` that do not hold ``importer``."""
    parts = target.split(".")
    out = set()
    for i in range(1, len(parts)):
        package = ".".join(parts[:i])
        if package in modules and not (importer == package
                                       or importer.startswith(package + ".")):
            out.add(package)
    return out


def import_graph(root: Path = ROOT, trees: tuple[str, ...] = TREES
                 ) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(explicit, full): per module, the modules it names in its imports, and those plus the
    package faces each import runs (see the module docstring)."""
    modules = module_files(root, trees)
    explicit, full = {}, {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets = _imports(tree, name, path.name == "__init__.py", modules) - {name}
        explicit[name] = targets
        full[name] = set(targets)
        for target in targets:
            full[name] |= _faces(target, name, modules)
        full[name].discard(name)
    return explicit, full


def tied(graph: dict[str, set[str]]) -> list[set[str]]:
    """Every strongly connected set of more than one module (Tarjan): modules that import
    each other, through one circle or several."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(component)
    return components


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected set, from its smallest module."""
    return [circle(graph, component) for component in tied(graph)]


def circle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """One circle through a strongly connected set: from its smallest module, the shortest
    way back to it (breadth first)."""
    start = min(component)
    came_from = {start: ""}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while came_from[path[-1]]:
                        path.append(came_from[path[-1]])
                    return path[::-1] + [start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {sorted(component)}")


def test_no_import_circle() -> None:
    _, graph = import_graph()
    found = tied(graph)
    assert not found, "import circles:\n" + "\n".join(
        f"{' -> '.join(circle(graph, c))}  (all tied: {', '.join(sorted(c))})" for c in found)


def test_the_walker_sees_hidden_imports() -> None:
    """The graph is not empty by mistake: a top-level import, a submodule named by
    ``from pkg import name``, an import inside a function, and a package face."""
    explicit, full = import_graph()
    assert "hexengine.knowledge.hsearch" in explicit["hexengine.knowledge.vc"]
    assert "hexengine.evaluation.vc_graph" in explicit["hexengine.evaluation"]
    assert "protocol.match.cluster" in explicit["protocol.match.cli"]  # in a function
    assert "hexengine.knowledge" in full["hexengine.evaluation.resistance"]
    assert "hexengine.evaluation" not in full["hexengine.evaluation.resistance"]


def test_a_script_names_its_sibling_by_its_bare_name(tmp_path: Path) -> None:
    """Scripts put their own folder on the path: ``import helper`` in scripts/ is
    ``scripts.helper`` (no script of the project does it at the moment)."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "main.py").write_text("import helper\nfrom other import f\n")
    (tmp_path / "scripts" / "helper.py").write_text("")
    (tmp_path / "scripts" / "other.py").write_text("def f():\n    pass\n")
    explicit, _ = import_graph(tmp_path, ("scripts",))
    assert explicit["scripts.main"] == {"scripts.helper", "scripts.other"}


def test_a_hidden_circle_is_found(tmp_path: Path) -> None:
    """A circle closed by an import inside a function, and one through a package's face."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import g\n")
    (pkg / "sub" / "__init__.py").write_text("from .c import h\nVALUE = 1\n")
    (pkg / "sub" / "c.py").write_text("from . import VALUE\n")
    (pkg / "sub" / "d.py").write_text("from .c import h\n")  # no circle: a face's own module
    _, graph = import_graph(tmp_path, ("pkg",))
    assert sorted(cycles(graph)) == [["pkg.a", "pkg.b", "pkg.a"],
                                     ["pkg.sub", "pkg.sub.c", "pkg.sub"]]


def test_protocol_asks_the_engine_not_its_parts() -> None:
    """Nothing under protocol/ imports ``hexengine.knowledge`` or ``hexengine.evaluation``
    (nor a module in them): the protocol talks to the player and the views."""
    explicit, _ = import_graph()
    banned = ("hexengine.knowledge", "hexengine.evaluation")
    offending = sorted(f"{name} -> {target}" for name, targets in explicit.items()
                       if name == "protocol" or name.startswith("protocol.")
                       for target in targets
                       if any(target == b or target.startswith(b + ".") for b in banned))
    assert not offending, "\n".join(offending)
