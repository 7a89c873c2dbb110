"""The package's import graph: no cycle, runtime or type-only, and the core imports nothing above it.

The graph is read from the sources with :mod:`ast`: every import counts, at the top of a module, inside a
function, or under ``if TYPE_CHECKING:``. Importing ``a.b.c`` also imports the packages ``a.b`` and ``a``
(their ``__init__`` runs first), except a package the importing module is itself inside, which is being
imported already. The layers and the rules are those of ``docs/explanation/architecture.md``: the shared core at
the bottom, each game's package above it (neither game importing the other), and the rest of the shared
surface above the games, reaching them only through the registry of games.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cheekymonkey
from cheekymonkey.games import AnyGame, games

SHARED_CORE: tuple[str, ...] = (
    "cheekymonkey._compiled",
    "cheekymonkey._confusables",
    "cheekymonkey._values",
    "cheekymonkey._gc",
    "cheekymonkey.errors",
    "cheekymonkey.checks",
    "cheekymonkey.outcome",
    "cheekymonkey.record",
    "cheekymonkey.names",
    "cheekymonkey.text_table",
    "cheekymonkey.encoding",
    "cheekymonkey.documents",
    "cheekymonkey.game",
    "cheekymonkey.table",
)
"""The shared core: what every game is built on and offered through (the value bases, the errors, the Game
protocol and its parts, and the Table). It imports only itself."""

ENGINE_CORES: dict[str, tuple[str, ...]] = {
    "cheekymonkey.cheeky": (
        "cheekymonkey.cheeky.rules",
        "cheekymonkey.cheeky.state",
        "cheekymonkey.cheeky.actions",
        "cheekymonkey.cheeky.engine",
        "cheekymonkey.cheeky.scoring",
        "cheekymonkey.cheeky.events",
        "cheekymonkey.cheeky.records",
        "cheekymonkey.cheeky.views",
    ),
    "cheekymonkey.toomany": (
        "cheekymonkey.toomany.cards",
        "cheekymonkey.toomany.rules",
        "cheekymonkey.toomany.state",
        "cheekymonkey.toomany.actions",
        "cheekymonkey.toomany.engine",
        "cheekymonkey.toomany.events",
        "cheekymonkey.toomany.results",
        "cheekymonkey.toomany.records",
        "cheekymonkey.toomany.views",
    ),
}
"""Each game's engine core: its rules, values and engine, which import only each other and the shared core."""

CORE: tuple[str, ...] = (*SHARED_CORE, *(name for core in ENGINE_CORES.values() for name in core))
"""The core: the shared core and every game's engine core."""

BELOW_THE_GAMES: tuple[str, ...] = (
    *SHARED_CORE,
    "cheekymonkey.base",
    "cheekymonkey.serialization",
    "cheekymonkey.verify",
    "cheekymonkey.batched",
)
"""The shared modules a game's package may import: the shared core, the base class of a game's binding, the
documents' machinery, the proofs' framework and the batched engines' base (a package here stands for its
modules too)."""

ABOVE_THE_GAMES_MAY_IMPORT_A_GAME: frozenset[str] = frozenset({"cheekymonkey"})
"""The shared module that may name a game's package: the facade (``import cheekymonkey as cm; cm.apply``, the
default game's API)."""

FRONT_ENDS: tuple[str, ...] = ("cheekymonkey.cli", "cheekymonkey.web", "cheekymonkey.rl")
"""The front ends' packages (a module inside one belongs to it)."""

DISPLAY: tuple[str, ...] = (
    "cheekymonkey.cheeky.board",
    "cheekymonkey.cheeky.narration",
    "cheekymonkey.cheeky.notation",
    "cheekymonkey.toomany.board",
    "cheekymonkey.toomany.narration",
    "cheekymonkey.toomany.notation",
)
"""The display code: the text board, narration in words, and the action notation, of each game."""

CORE_MAY_USE: frozenset[str] = frozenset({"attrs"})
"""The packages outside the standard library that the core may import: the one runtime dependency."""


def _library_games() -> tuple[AnyGame, ...]:
    """The registered games whose binding lies inside this package (a plug-in installed beside it, such as Pig, not)."""
    return tuple(game for game in games() if type(game).__module__.startswith("cheekymonkey."))


def game_packages() -> tuple[str, ...]:
    """Each library game's package: the package of its binding (``cheekymonkey.cheeky`` for Cheeky Monkey's).

    The graph here is of this package's modules, so only the registered games inside it have packages in it.
    """
    return tuple(sorted({type(game).__module__.rpartition(".")[0] for game in _library_games()}))


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
    assert {"cheekymonkey.cheeky.bots.registry", "cheekymonkey.cheeky.documents", "cheekymonkey.simulation.run"} <= set(
        graph
    )
    # Imported inside a function (the binding's encodings) and only for types (the board's state).
    assert "cheekymonkey.cheeky.encoding" in graph["cheekymonkey.cheeky.game"]
    assert "cheekymonkey.cheeky.views" in graph["cheekymonkey.cheeky.board"]
    # Importing a module from outside its package runs the package's __init__ too; from inside, not.
    assert {"cheekymonkey.cheeky.bots", "cheekymonkey.cheeky.bots.registry"} <= graph["cheekymonkey.cheeky.game"]
    assert "cheekymonkey.cheeky.bots" not in graph["cheekymonkey.cheeky.bots.search"]
    assert "cheekymonkey.cheeky" in graph["cheekymonkey"]  # the facade: the default game's API


def test_the_package_has_no_import_cycle() -> None:
    """No module reaches itself through imports, counting those in functions and under TYPE_CHECKING."""
    assert _cycles(import_graph()) == []


def test_a_cycle_would_be_found() -> None:
    """The cycle search finds a cycle of three among four modules, and none where there is none."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": set(), "b": {"a"}}) == []


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_imports_only_the_core(name: str) -> None:
    """The core never imports the front ends (CLI, web, RL), the display code, or anything else above it.

    The shared core imports only itself; a game's engine core only itself and the shared core.
    """
    imported = import_graph()[name]
    assert not {module for module in imported if _belongs(module, FRONT_ENDS)}
    assert not {module for module in imported if _belongs(module, DISPLAY)}
    game = next((package for package, core in ENGINE_CORES.items() if name in core), None)
    allowed = set(SHARED_CORE) | set(ENGINE_CORES.get(game or "", ()))
    assert imported <= allowed, f"{name} imports {sorted(imported - allowed)}, outside its core"


def test_the_engine_cores_are_those_of_the_registered_games() -> None:
    """Each game of the registry has an engine core stated here, and each stated core is a registered game's."""
    assert set(ENGINE_CORES) == set(game_packages())


def test_no_shared_module_imports_a_game_package() -> None:
    """The shared surface reaches a game only through the registry: no module of it imports a game's package.

    The facade (Cheeky Monkey's API as the default game's) and the old paths' aliases are the two exceptions.
    """
    packages = game_packages()
    for name, imported in import_graph().items():
        if _belongs(name, packages) or name in ABOVE_THE_GAMES_MAY_IMPORT_A_GAME:
            continue
        assert not {module for module in imported if _belongs(module, packages)}, name


def test_neither_game_imports_another_and_each_imports_only_the_shared_modules_below_it() -> None:
    """A game's package imports itself and, of the shared surface, only what lies below the games."""
    packages = game_packages()
    assert len(packages) == len(_library_games()) >= 2  # one package a game, the built-in two among them
    for package in packages:
        own = [name for name in import_graph() if _belongs(name, (package,))]
        assert own, package
        for name in own:
            outside = {module for module in import_graph()[name] if not _belongs(module, (package,))}
            # Importing any module of the package runs the package's own __init__ first: the facade, for the
            # package root, whose import is the package being imported already.
            outside.discard("cheekymonkey")
            assert not {module for module in outside if _belongs(module, packages)}, f"{name} imports another game"
            assert all(_belongs(module, BELOW_THE_GAMES) for module in outside), (
                f"{name} imports {sorted(m for m in outside if not _belongs(m, BELOW_THE_GAMES))}, above the games"
            )


def test_a_layer_rule_would_be_caught() -> None:
    """The rules above fail on a graph that breaks them: a shared module importing a game, a game another."""
    graph = {"cheekymonkey.table": frozenset({"cheekymonkey.cheeky.engine"})}
    assert {m for m in graph["cheekymonkey.table"] if _belongs(m, ("cheekymonkey.cheeky",))}
    assert not _belongs("cheekymonkey.cheekyx", ("cheekymonkey.cheeky",))


@pytest.mark.parametrize("name", CORE)
def test_a_core_module_needs_nothing_but_the_standard_library_and_attrs(name: str) -> None:
    """The core's one runtime dependency is attrs: every extra is for the layers above it."""
    outside = _external(name) - set(sys.stdlib_module_names) - {"__future__"}
    assert outside <= CORE_MAY_USE, f"{name} imports {sorted(outside)}"


def test_the_architecture_page_lists_the_same_core() -> None:
    """docs/explanation/architecture.md names the shared core these tests hold the package to, module for module."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "explanation" / "architecture.md").read_text()
    listed = page.split("<!-- core: ")[1].split("<!-- end of the core -->")[0]
    names = [line.split("`")[1] for line in listed.splitlines() if line.strip().startswith("- `")]
    assert names == list(SHARED_CORE)


def test_nothing_below_the_front_ends_imports_one() -> None:
    """No module outside the front ends (CLI, web, RL) imports one of them: the layers never climb back up.

    The simulation's policy bots give a policy the observations the RL adapters give; those observations live
    below both (:mod:`cheekymonkey.observations`, :mod:`cheekymonkey._observation_arrays`), so no exception
    is needed. A front end may import another (the web server's command in the CLI), ``python -m
    cheekymonkey`` (``cheekymonkey.__main__``) is the command line itself, and the conformance kit
    (:mod:`cheekymonkey.testing`) stands above every front end: it checks what they show a seat.
    """
    climbs = {
        name: sorted(module for module in imported if _belongs(module, FRONT_ENDS))
        for name, imported in import_graph().items()
        if not _belongs(name, (*FRONT_ENDS, "cheekymonkey.__main__", "cheekymonkey.testing"))
    }
    assert {name: modules for name, modules in climbs.items() if modules} == {}
    # The check sees an import made inside a function, as the policy bot's was.
    assert "cheekymonkey._observation_arrays" in import_graph()["cheekymonkey.simulation.policies"]
