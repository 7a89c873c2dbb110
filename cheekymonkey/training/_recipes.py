"""Where a game's training recipe is found: the ``_training`` module of the package that binds the game.

The shared code reaches a game only through the registry (:mod:`cheekymonkey.games`): a game whose binding is
``PACKAGE.game`` has a recipe when ``PACKAGE._training`` exists. That module offers ``train(options, run)``
(the weights, as arrays), ``ARRAYS`` (their names, in the order written), ``COMPRESSED``, ``EVALUATION`` (the
declared opponent, game count and first seed) and, where the file is not a policy network that
:class:`~cheekymonkey.simulation.NetworkPolicy` plays, ``load_bot(path)``. It imports PyTorch only in ``train``.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from cheekymonkey.errors import InvalidValueError

__all__ = ["recipe", "recipe_games"]


def _module_name(game: str) -> str | None:
    from cheekymonkey.games import GAME_NAMES, game_named

    if game not in GAME_NAMES:
        return None
    package = type(game_named(game)).__module__.rpartition(".")[0]
    name = f"{package}._training"
    return name if package and importlib.util.find_spec(name) is not None else None


def recipe_games() -> tuple[str, ...]:
    """The registered games that have a training recipe, by name."""
    from cheekymonkey.games import GAME_NAMES

    return tuple(name for name in GAME_NAMES if _module_name(name) is not None)


def recipe(game: str) -> ModuleType:
    """The recipe module of the game named ``game``.

    Raises:
        InvalidValueError: If the game is not registered or has no recipe.
    """
    name = _module_name(game)
    if name is None:
        raise InvalidValueError(f"no training recipe for {game}; the games with one are {', '.join(recipe_games())}")
    return importlib.import_module(name)
