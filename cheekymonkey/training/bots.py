"""A weights file written by ``cheekymonkey train``, played as a bot: numpy only, no PyTorch at play time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.training._recipes import recipe, recipe_games

__all__ = ["game_of_weights", "load_bot"]


def _arrays(path: str | Path) -> dict[str, npt.NDArray[Any]]:
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}
    except (ValueError, OSError, EOFError) as error:
        raise InvalidValueError(f"{path} is not a weights file: {error}") from None


def game_of_weights(path: str | Path) -> str:
    """The game whose recipe writes a file of the arrays ``path`` holds (the first such game, by name).

    Raises:
        InvalidValueError: If the file is not a weights file of any recipe.
    """
    names = set(_arrays(path))
    for game in recipe_games():
        if names == set(recipe(game).ARRAYS):
            return game
    raise InvalidValueError(f"{path} holds {sorted(names)}: not the weights of a network cheekymonkey train writes")


def load_bot(path: str | Path, name: str = "trained") -> Any:
    """The bot that plays the network in a weights file, of the game the file is for.

    The recipe's own bot where it has one (*Cheeky Monkey*: a
    :class:`~cheekymonkey.cheeky.bots.learned.LearnedBot`, the heuristic bot where the network was not
    trained); else a :class:`~cheekymonkey.simulation.PolicyBot` of the network
    :func:`~cheekymonkey.simulation.load_policy` reads from it, named ``name``.

    Raises:
        InvalidValueError: If the file is not a weights file ``cheekymonkey train`` writes.
    """
    game = game_of_weights(path)
    found = recipe(game)
    if hasattr(found, "load_bot"):
        return found.load_bot(path)
    from cheekymonkey.games import game_named
    from cheekymonkey.simulation import PolicyBot, load_policy

    return PolicyBot(load_policy(path), game_named(game), name=name)
