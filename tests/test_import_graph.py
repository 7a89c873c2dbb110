"""The package's import graph: no cycle, runtime or type-only, and the core imports nothing above it.

The graph is read from the sources with :mod:`ast`: every import counts, at the top of a module, inside a
function, or under ``if TYPE_CHECKING:``. Importing ``a.b.c`` also imports the packages ``a.b`` and ``a``
(their ``__init__`` runs first), except a package the importing module is itself inside, which is being
imported already. The layers and the rules are those of ``docs/explanation/architecture.md``.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cheekymonkey

CORE: tuple[str, ...] = (
    "cheekymonkey._compiled",
    "cheekymonkey._confusables",
    "cheekymonkey._values",
    "cheekymonkey.errors",
    "cheekymonkey.rules",
    "cheekymonkey.state",
    "cheekymonkey.actions",
    "cheekymonkey.engine",
    "cheekymonkey.scoring",
    "cheekymonkey.events",
    "cheekymonkey.records",
    "cheekymonkey.views",
    "cheekymonkey.game",
    "cheekymonkey.table",
)
"""The core: Cheeky Monkey's engine and values, the Game protocol and the Table. It imports only itself."""

FRONT_ENDS: tuple[str, ...] = ("cheekymonkey.cli", "cheekymonkey.web", "cheekymonkey.rl")
"""The front ends' packages (a module inside one belongs to it)."""

DISPLAY: tuple[str, ...] = ("cheekymonkey.board", "cheekymonkey.narration", "cheekymonkey.notation")
"""The display code: the text board, narration in words, and the action notation."""

CORE_MAY_USE: frozenset[str] = frozenset({"attrs"})
"""The packages outside the standard library that the core may import: the one runtime dependency."""


def _source_root() -> Path:
    """The package's sources: the checkout's, or those of the installed package (the compiled build's tests)."""
    checkout = Path(__file__).resolve().parent.parent / "cheekymonkey"
    return checkout if checkout.is_dir() else Path(cheekymonkey.__file__).resolve().parent


@functools.cache
def _modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of the package by name, with its source file and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = ["cheekymonkey", *path.relative_to(root).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _imported(tree: ast.Module, name: str, is_package: bool) -> Iterator[tuple[str, str | None]]:
    """Each module an import in ``tree`` names, with the name it takes from it (None for ``import x``)."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                yield module, alias.name


def _ancestors(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


@functools.cache
def import_graph() -> dict[str, frozenset[str]]:
    """Each module of the package and the modules of the package it imports, directly or by their packages."""
    modules = _modules(_source_root())
    graph: dict[str, frozenset[str]] = {}
    for name, (path, is_package) in modules.items():
        edges: set[str] = set()
        for module, taken in _imported(ast.parse(path.read_text(encoding="utf-8")), name, is_package):
            target = f"{module}.{taken}" if taken is not None and f"{module}.{taken}" in modules else module
            if target != "cheekymonkey" and not target.startswith("cheekymonkey."):
                continue
            while target not in modules:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            edges.add(target)
            # Importing a module runs its packages' __init__ first, but those the importer is inside are
            # being imported already (and a name taken from a package is that package's own import).
            edges |= _ancestors(target) - _ancestors(name)
        edges.discard(name)
        graph[name] = frozenset(edges)
    return graph


def _external(name: str) -> set[str]:
    """The top-level packages outside this one that the module ``name`` imports."""
    path, is_package = _modules(_source_root())[name]
    tops = {module.partition(".")[0] for module, _ in _imported(ast.parse(path.read_text()), name, is_package)}
    return {top for top in tops if top and top != "cheekymonkey"}


def _cycles(graph: dict[str, frozenset[str]] | dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _belongs(name: str, families: tuple[str, ...]) -> bool:
    return any(name == family or name.startswith(family + ".") for family in families)


def test_the_graph_holds_every_module_and_sees_function_and_type_only_imports() -> None:
    """The graph is complete: every module, and the imports made inside functions and under TYPE_CHECKING."""
    graph = import_graph()
    assert set(CORE) <= set(graph)
    assert {"cheekymonkey.bots.registry", "cheekymonkey.serialization.documents", "cheekymonkey.simulation.run"} <= set(
        graph
    )
    # Imported inside a function (the binding's encodings) and only for types (the board's state).
    assert "cheekymonkey.rl.encoding" in graph["cheekymonkey.games.cheeky_monkey"]
    assert "cheekymonkey.rl" in graph["cheekymonkey.games.cheeky_monkey"]
    assert "cheekymonkey.views" in graph["cheekymonkey.board"]
    # Importing a module from outside its package runs the package's __init__ too; from inside, not.
    assert {"cheekymonkey.bots", "cheekymonkey.bots.base"} <= graph["cheekymonkey.play"]
    assert "cheekymonkey.bots" not in graph["cheekymonkey.bots.search"]


def test_the_package_has_no_import_cycle() -> None:
    """No module reaches itself through imports, counting those in functions and under TYPE_CHECKING."""
    assert _cycles(import_graph()) == []


def test_a_cycle_would_be_found() -> None:
    """The cycle search finds a cycle of three among four modules, and none where there is none."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": set(), "b": {"a"}}) == []


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_imports_only_the_core(name: str) -> None:
    """The core never imports the front ends (CLI, web, RL), the display code, or anything else above it."""
    imported = import_graph()[name]
    assert not {module for module in imported if _belongs(module, FRONT_ENDS)}
    assert not {module for module in imported if _belongs(module, DISPLAY)}
    assert imported <= set(CORE), f"{name} imports {sorted(imported - set(CORE))}, outside the core"


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_needs_nothing_but_the_standard_library_and_attrs(name: str) -> None:
    """The core's one runtime dependency is attrs: every extra is for the layers above it."""
    outside = _external(name) - set(sys.stdlib_module_names) - {"__future__"}
    assert outside <= CORE_MAY_USE, f"{name} imports {sorted(outside)}"


def test_the_architecture_page_lists_the_same_core() -> None:
    """docs/explanation/architecture.md names the core these tests hold the package to, module for module."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "explanation" / "architecture.md").read_text()
    listed = page.split("<!-- core: ")[1].split("<!-- end of the core -->")[0]
    names = [line.split("`")[1] for line in listed.splitlines() if line.strip().startswith("- `")]
    assert names == list(CORE)
