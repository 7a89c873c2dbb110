"""The JSON Schema (draft 2020-12) of every document kind of every game, shipped with the package.

Front ends in other languages can validate documents against these files before sending them: Cheeky
Monkey's are ``cheekymonkey/schema/<kind>.schema.json`` for each kind in :data:`SCHEMA_KINDS`, and another
game's are in a folder named after the game (``cheekymonkey/schema/too-many-monkeys/state.schema.json``),
for each kind :data:`SCHEMA_GAMES` lists. They are generated from the value types by
:mod:`cheekymonkey.schema.generate` (``python -m cheekymonkey.schema`` writes them all), and a test checks
that the shipped files equal freshly generated ones.

Reading a shipped schema needs nothing beyond the standard library:

>>> load_schema("action")["title"]
'cheekymonkey/1 action document'
>>> load_schema("outcome", game="too-many-monkeys")["title"]
'too-many-monkeys/1 outcome document'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

__all__ = ["SCHEMA_GAMES", "SCHEMA_KINDS", "load_schema", "schema_filename"]

SCHEMA_KINDS: Final = ("state", "action", "ruleset", "event", "view", "score", "record")
"""Cheeky Monkey's document kinds, each with a schema file (the same as ``cheekymonkey.serialization.KINDS``)."""

SCHEMA_GAMES: Final[dict[str, tuple[str, ...]]] = {
    "cheeky-monkey": SCHEMA_KINDS,
    "too-many-monkeys": ("state", "action", "ruleset", "event", "view", "outcome", "record"),
}
"""Each game's document kinds, by the game's name (the same as its documents' ``kinds``)."""

_DEFAULT_GAME: Final = "cheeky-monkey"


def _kinds(game: str) -> tuple[str, ...]:
    kinds = SCHEMA_GAMES.get(game) if isinstance(game, str) else None
    if kinds is None:
        raise ValueError(f"no schemas for the game {game!r}; the games are {', '.join(SCHEMA_GAMES)}")
    return kinds


def schema_filename(kind: str, game: str = _DEFAULT_GAME) -> str:
    """The file of ``game``'s ``kind`` schema inside this package.

    For example ``"state.schema.json"`` for Cheeky Monkey (the first game keeps its files at the top) and
    ``"too-many-monkeys/state.schema.json"`` for Too Many Monkeys.
    """
    name = f"{kind}.schema.json"
    return name if game == _DEFAULT_GAME else f"{game}/{name}"


def load_schema(kind: str, game: str = _DEFAULT_GAME) -> dict[str, Any]:
    """The shipped JSON Schema of ``game``'s ``kind`` documents, as a dict.

    Raises:
        ValueError: If there is no such game, or ``kind`` is not one of its document kinds.
    """
    kinds = _kinds(game)
    if kind not in kinds:
        raise ValueError(f"no schema for kind {kind!r}; the kinds are {', '.join(kinds)}")
    text = resources.files(__name__).joinpath(*schema_filename(kind, game).split("/")).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
