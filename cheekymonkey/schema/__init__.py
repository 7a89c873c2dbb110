"""The JSON Schema (draft 2020-12) of every document kind of every game, each shipped in its game's package.

Front ends in other languages can validate documents against these files before sending them. A game ships
its schemas in a folder of its own package and says where (its binding's ``schemas()``): Cheeky Monkey's
are ``cheekymonkey/cheeky/schemas/<kind>.schema.json``, Too Many Monkeys' ``cheekymonkey/toomany/schemas/``,
one file for each kind of its documents. They are generated from the value types by
:mod:`cheekymonkey.schema.generate` (``python -m cheekymonkey.schema`` writes every registered game's), and a
test checks that the shipped files equal freshly generated ones.

Reading a shipped schema needs nothing beyond the standard library:

>>> load_schema("action")["title"]
'cheekymonkey/1 action document'
>>> load_schema("outcome", game="too-many-monkeys")["title"]
'too-many-monkeys/1 outcome document'
"""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Final

from cheekymonkey.games import DEFAULT_GAME, AnyGame, game_named, games

__all__ = ["SCHEMA_GAMES", "load_schema", "schema_filename", "schema_folder", "schema_kinds"]

_SUFFIX: Final = ".schema.json"


def schema_folder(game: AnyGame) -> Traversable | None:
    """The folder where ``game`` ships its schema files (its binding's ``schemas()``), or None if it declares none."""
    return game.schemas() if game.capabilities.schemas else None


def _shipped(folder: Traversable) -> list[str]:
    return sorted(entry.name.removesuffix(_SUFFIX) for entry in folder.iterdir() if entry.name.endswith(_SUFFIX))


def schema_kinds(game: AnyGame) -> tuple[str, ...]:
    """The document kinds ``game`` ships a schema file of, in the order of its documents' kinds.

    Raises:
        ImportError: If the ``json`` extra is not installed (the order is the documents').
    """
    folder = schema_folder(game)
    shipped = set() if folder is None else set(_shipped(folder))
    return tuple(kind for kind in game.documents().kinds if kind in shipped)


def _schema_games() -> dict[str, tuple[str, ...]]:
    return {game.name: kinds for game in games() if (kinds := schema_kinds(game))}


def schema_filename(kind: str, game: str = DEFAULT_GAME) -> str:
    """The name of ``game``'s ``kind`` schema file in its folder: ``"state.schema.json"``."""
    game_named(game)  # the usual error for an unknown game
    return f"{kind}{_SUFFIX}"


def load_schema(kind: str, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The shipped JSON Schema of ``game``'s ``kind`` documents, as a dict.

    Raises:
        ValueError: If there is no such game, it ships no schemas, or ``kind`` is not one of its kinds
            (:class:`~cheekymonkey.errors.InvalidValueError`, a ``ValueError``, for a game of no name).
    """
    found = game_named(game)
    folder = schema_folder(found)
    if folder is None:
        raise ValueError(f"the game {game!r} ships no schemas")
    kinds = _shipped(folder)
    if kind not in kinds:
        raise ValueError(f"no schema for kind {kind!r}; the kinds are {', '.join(kinds)}")
    schema: dict[str, Any] = json.loads(folder.joinpath(f"{kind}{_SUFFIX}").read_text(encoding="utf-8"))
    return schema


if TYPE_CHECKING:
    # Computed when asked for (see __getattr__ below); declared here for the type checker and the docs.
    SCHEMA_GAMES: dict[str, tuple[str, ...]]
    """Each game that ships schemas, by name, and the kinds of its documents it ships a schema of (from the
    registry of games; it needs the ``json`` extra)."""


def __getattr__(name: str) -> object:
    # SCHEMA_GAMES: each game that ships schemas, by name, and its kinds; computed from the registry.
    if name == "SCHEMA_GAMES":
        return _schema_games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
