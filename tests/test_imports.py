"""The package's import graph: no cycles, and the numba kernels import nothing of bgcli's
outside bgcli/kernels (they take arrays and scalars; loading and converting is the Python
layer's job).

Every module under bgcli/ is parsed with ``ast``: imports at module level and inside
functions alike (a function-level import still ties the two modules together), relative
imports resolved. ``bgcli/__init__.py`` and the command line (bgcli/cli) sit on top and may
import anything: their edges are left out of the cycle check.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

# the bgcli that ``import bgcli`` finds (PYTHONPATH decides), found without importing it
PACKAGE_ROOT = Path(importlib.util.find_spec("bgcli").origin).parent
TOP_MODULE = "bgcli"  # bgcli/__init__.py may import anything...
TOP_PACKAGES = ("bgcli.cli",)  # ...and so may every module in these packages


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE_ROOT.rglob("*.py"))}


def _resolve(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module a ``from ... import`` names (its ``level`` dots resolved)."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The bgcli modules ``name`` imports anywhere in its source."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(node, name, path.name == "__init__.py")
            # ``from package import module`` imports the module; otherwise a name in source
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in modules and target != name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def _may_import_anything(name: str) -> bool:
    return name == TOP_MODULE or any(name == top or name.startswith(top + ".")
                                     for top in TOP_PACKAGES)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None (depth-first search, three colours)."""
    done: set[str] = set()
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> list[str] | None:
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target in on_stack:
                return stack[stack.index(target):] + [target]
            if target not in done:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        on_stack.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_the_walker_sees_relative_and_function_level_imports():
    graph = import_graph()
    assert "bgcli.kernels.movegen" in graph["bgcli.kernels.playout"]  # from .movegen import
    assert "bgcli.kernels.playout" in graph["bgcli.rollout"]  # inside rollout()


def test_no_import_cycles():
    graph = {name: {target for target in targets if not _may_import_anything(target)}
             for name, targets in import_graph().items() if not _may_import_anything(name)}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_kernels_import_only_kernels():
    # a leaf module, one that imports nothing of bgcli (bgcli.cache: the standard library
    # only), is no upward dependency: it cannot bring the Python layer in
    graph = import_graph()
    upward = sorted(f"{name} imports {target}" for name, targets in graph.items()
                    if name.startswith("bgcli.kernels")
                    for target in targets
                    if not target.startswith("bgcli.kernels") and graph.get(target))
    assert not upward, "kernels importing outside bgcli/kernels: " + "; ".join(upward)


def test_the_kernels_leaf_imports_stay_leaves():
    graph = import_graph()
    leaves = {target for name, targets in graph.items() if name.startswith("bgcli.kernels")
              for target in targets if not target.startswith("bgcli.kernels")}
    assert leaves == {"bgcli.cache"} and graph["bgcli.cache"] == set()
