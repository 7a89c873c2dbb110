"""A weights file written by ``cheekymonkey train``, played as a bot: numpy only, no PyTorch at play time."""

from __future__ import annotations

import pathlib
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.training._recipes import recipe, recipe_games

__all__ = ["NetworkPolicy", "game_of_weights", "load_bot"]

_POLICY = ("scale", "w1", "b1", "w2", "b2", "players")
"""The arrays of a policy network :class:`NetworkPolicy` plays."""


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


class NetworkPolicy:
    """A policy network, as *Too Many Monkeys*' recipe writes it: the legal action of highest score.

    One hidden layer of ReLU units over the observation times ``scale`` (each entry divided by its bound), in
    float32; a policy of :class:`~cheekymonkey.simulation.PolicyBot` (its default observation, numpy arrays).

    Raises:
        InvalidValueError: If the file is not such a network's weights, or its layers do not fit together.
    """

    def __init__(self, path: str | pathlib.Path) -> None:
        arrays = _arrays(path)
        if set(arrays) != set(_POLICY):
            raise InvalidValueError(f"{path} is not a policy network's weights ({', '.join(_POLICY)})")
        self.scale = arrays["scale"].astype(np.float32)
        self.w1 = arrays["w1"].astype(np.float32)
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2 = arrays["w2"].astype(np.float32)
        self.b2 = arrays["b2"].astype(np.float32)
        self.players = int(arrays["players"])
        if (
            self.w1.ndim != 2
            or self.w2.ndim != 2
            or self.scale.shape != (self.w1.shape[0],)
            or self.b1.shape != (self.w1.shape[1],)
            or self.w2.shape[0] != self.w1.shape[1]
            or self.b2.shape != (self.w2.shape[1],)
        ):
            raise InvalidValueError(f"the layers of {path} do not fit together")
        self.__name__ = "network"

    def __call__(self, observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> int:
        """The legal action index of highest score."""
        hidden = np.maximum(np.asarray(observation, np.float32) * self.scale @ self.w1 + self.b1, 0.0)
        scores = hidden @ self.w2 + self.b2
        return int(np.argmax(np.where(mask, scores, -np.inf)))


def load_bot(path: str | Path, name: str = "trained") -> Any:
    """The bot that plays the network in a weights file, of the game the file is for.

    The recipe's own bot where it has one (*Cheeky Monkey*: a
    :class:`~cheekymonkey.cheeky.bots.learned.LearnedBot`, the heuristic bot where the network was not
    trained); else a :class:`~cheekymonkey.simulation.PolicyBot` of :class:`NetworkPolicy`, named ``name``.

    Raises:
        InvalidValueError: If the file is not a weights file ``cheekymonkey train`` writes.
    """
    game = game_of_weights(path)
    found = recipe(game)
    if hasattr(found, "load_bot"):
        return found.load_bot(path)
    from cheekymonkey.games import game_named
    from cheekymonkey.simulation import PolicyBot

    return PolicyBot(NetworkPolicy(path), game_named(game), name=name)
