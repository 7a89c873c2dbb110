"""Every game the library plays, by name, each a :class:`~cheekymonkey.game.Game`.

A front end that lets its user pick the game asks here; it never imports an engine. Each game's binding is
imported the first time it is asked for, so a program that plays one game never loads the others.

>>> game_named("cheeky-monkey").title
'Cheeky Monkey'
>>> GAME_NAMES[0], DEFAULT_GAME
('cheeky-monkey', 'cheeky-monkey')
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game

__all__ = ["DEFAULT_GAME", "GAME_NAMES", "AnyGame", "game_named"]

AnyGame = Game[Any, Any, Any, Any, Any]
"""A game of any types, as the layers written for every game hold it."""

_BINDINGS: Final[dict[str, tuple[str, str]]] = {
    "cheeky-monkey": ("cheekymonkey.games.cheeky_monkey", "CHEEKY_MONKEY"),
    "too-many-monkeys": ("cheekymonkey.toomany.game", "TOO_MANY_MONKEYS"),
}

GAME_NAMES: Final[tuple[str, ...]] = tuple(_BINDINGS)
"""The games' names, the default first."""

DEFAULT_GAME: Final = "cheeky-monkey"
"""The game played when none is named."""


def game_named(name: str) -> AnyGame:
    """The game called ``name``, one of :data:`GAME_NAMES`.

    Raises:
        InvalidValueError: If there is no game of that name.
    """
    binding = _BINDINGS.get(name) if isinstance(name, str) else None
    if binding is None:
        raise InvalidValueError(f"no game named {name!r}; the games are {', '.join(GAME_NAMES)}")
    module, attribute = binding
    game: AnyGame = getattr(importlib.import_module(module), attribute)
    return game
