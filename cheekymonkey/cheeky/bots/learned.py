"""The learned bot: a small neural network that plays from the observation, with numpy alone.

:class:`LearnedBot` reads what it knows of the position as the full observation from its own seat
(:mod:`cheekymonkey.cheeky.encoding`, each entry divided by its bound) and a few numbers computed from
that observation alone (:func:`features`: the chance of drawing each animal, of busting, of drawing each
stack's top, and the lead in each animal's count). It runs them through a perceptron of two hidden
layers (ReLU), and plays the legal action with the highest output: the action mask rules out the others.
Its weights ship with the library as a small file (:data:`WEIGHTS`, float16); the network needs numpy
and nothing else (the ``rl`` extra), no deep-learning framework.

The weights were learnt by ``training/train_batched.py imitate`` (PyTorch, the ``train`` extra) for two
seats under the standard rules, by imitation of the expectimax bot, its search compiled into the batched
engine: its decisions in seeded batched games were the examples, and then (as DAgger does) its decisions in
the positions the network itself reached. (The first weights were learnt the same way at scalar Tables by
``training/train_learned.py``, in ten times the CPU time.) How it was trained, and how it plays against
the other bots, is in the bot ladder's docs (``docs/explanation/bots.md``).

A game the weights were not trained for (another seat count or rule set) is played by the bot it falls
back on: :meth:`LearnedBot.fits` says which. The bot registered as ``learned``
(:func:`cheekymonkey.cheeky.bots.bot_named`) falls back on the heuristic bot.

>>> import random
>>> from cheekymonkey import Animal, Draw, Herd, HeuristicBot, Reveal, Stop, apply, new_game
>>> bot = LearnedBot(fallback=HeuristicBot())
>>> state = apply(new_game(2), Reveal(Animal.LION))
>>> bot.fits(state), bot.choose(state, random.Random(0)) in {Draw(), Stop(), Herd()}
(True, True)
>>> bot.fits(new_game(3))
False
"""

from __future__ import annotations

import importlib.resources
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:
    raise ImportError("the learned bot needs numpy: pip install 'cheekymonkey[rl]'") from error

from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.encoding import ActionCodec, ObservationLayout, full_observation, observation_layout
from cheekymonkey.cheeky.engine import legal_actions
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.state import GameState
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import GameBot

__all__ = ["WEIGHTS", "LearnedBot", "Network", "features", "load_network"]

WEIGHTS: Final = "learned.npz"
"""The shipped weights, a file beside this module (read with ``importlib.resources``)."""

_LAYERS: Final = 3


def features(layout: ObservationLayout, observations: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """The network's inputs for a batch of ``layout`` observations (rows of whole numbers, from one seat).

    Each row is the observation, each entry divided by its bound, followed by numbers the observation
    implies: the chance of drawing each animal (8), of busting on the next draw (1), of drawing the animal
    on top of each stack (one per seat, the observer's first), and for each animal the observer's count
    in its stack minus the most any other stack holds, divided by the animal's largest count (8).
    """
    x = np.asarray(observations, np.float32)
    if x.ndim == 1:
        x = x[None, :]

    def part(name: str) -> npt.NDArray[np.float32]:
        field = layout.field(name)
        return x[:, field.offset : field.offset + field.size].reshape((len(x), *field.shape))

    bag = part("bag")
    draw = bag / np.maximum(bag.sum(axis=1, keepdims=True), 1.0)
    bust = (draw * (part("front") > 0)).sum(axis=1, keepdims=True)
    tops = (part("stack_tops") * draw[:, None, :]).sum(axis=2)
    counts = part("stack_counts")
    others = counts[:, 1:, :].max(axis=1)
    lead = (counts[:, 0, :] - others) / float(max(layout.field("bag").bound, 1))
    scale = 1.0 / np.array(layout.bounds, np.float32)
    return np.concatenate([x * scale, draw, bust, tops, lead], axis=1).astype(np.float32)


def _extra(players: int) -> int:
    return 8 + 1 + players + 8


class Network:
    """A perceptron with ReLU hidden layers, for one seat count and rule set, over the full observation.

    Args:
        weights: The arrays ``w0, b0, w1, b1, ...`` (``w`` of shape ``(outputs, inputs)``), and ``players``
            and ``rules`` (a preset's name) saying which game they were trained for.

    Raises:
        InvalidValueError: If the arrays do not fit together or the game they name.
    """

    def __init__(self, weights: Mapping[str, Any]) -> None:
        try:
            players = int(weights["players"])
            rules = str(weights["rules"])
            layers = [
                (np.asarray(weights[f"w{i}"], np.float32), np.asarray(weights[f"b{i}"], np.float32))
                for i in range(_LAYERS)
            ]
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidValueError(f"the weights lack a part or have a wrong one: {error}") from None
        ruleset = Ruleset.preset(rules)
        self.players = players
        """The seat count the weights were trained for."""
        self.ruleset = ruleset
        """The rules the weights were trained for."""
        self.layout: ObservationLayout = observation_layout("full", players, ruleset)
        """The observation the network reads."""
        self.codec = ActionCodec(players)
        """The action indices its outputs stand for."""
        inputs = self.layout.size + _extra(players)
        for w, b in layers:
            if w.ndim != 2 or w.shape[1] != inputs or b.shape != (w.shape[0],):
                raise InvalidValueError(f"a layer of shape {w.shape} and {b.shape} does not take {inputs} inputs")
            inputs = w.shape[0]
        if inputs != self.codec.num_actions:
            raise InvalidValueError(f"the network has {inputs} outputs, not {self.codec.num_actions}")
        self._layers = layers

    def fits(self, state: GameState) -> bool:
        """Whether ``state`` is of the game the weights were trained for."""
        return state.players == self.players and state.ruleset == self.ruleset

    def outputs(self, state: GameState) -> npt.NDArray[np.float32]:
        """The network's output for each action index, from the player to move's observation of ``state``."""
        observation = np.frombuffer(bytes(full_observation(state, state.seat)), np.uint8)
        x: npt.NDArray[np.float32] = features(self.layout, observation)[0]
        last = len(self._layers) - 1
        for i, (w, b) in enumerate(self._layers):
            x = (w @ x + b).astype(np.float32, copy=False)
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    def best(self, state: GameState) -> Action:
        """The legal action with the highest output for the player to move (not at a chance node)."""
        values = self.outputs(state)
        mask = np.array(self.codec.action_mask(state), np.bool_)
        values[~mask] = -np.inf
        return self.codec.decode_at(state, int(np.argmax(values)))


def load_network(path: str | Path | None = None) -> Network:
    """The network in the weights file ``path`` (an ``.npz``), or the shipped one (:data:`WEIGHTS`).

    Raises:
        InvalidValueError: If the file is not weights for a network of this kind.
        OSError: If the file cannot be read.
    """
    if path is None:
        with importlib.resources.files(__package__).joinpath(WEIGHTS).open("rb") as file:
            return _read(file, WEIGHTS)
    with open(path, "rb") as file:
        return _read(file, str(path))


def _read(file: Any, name: str) -> Network:
    try:
        with np.load(file, allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except ValueError as error:
        raise InvalidValueError(f"{name} is not a weights file: {error}") from None
    return Network(arrays)


_SHIPPED: list[Network] = []


class LearnedBot:
    """The bot that plays the learned network where it fits, and ``fallback`` elsewhere.

    Args:
        network: The network (default: the shipped one, loaded once and shared).
        fallback: The bot for games the network was not trained for (None: such a game raises).
    """

    kind: Final = "learned"
    """The name the bot is registered under."""

    def __init__(self, network: Network | None = None, fallback: GameBot[GameState, Action] | None = None) -> None:
        if network is None:
            if not _SHIPPED:
                _SHIPPED.append(load_network())
            network = _SHIPPED[0]
        self.network = network
        """The network it plays."""
        self.fallback = fallback
        """The bot for the games the network does not fit, or None."""

    def fits(self, state: GameState) -> bool:
        """Whether the network plays ``state`` (else the fallback does)."""
        return self.network.fits(state)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """The network's choice where it fits and more than one action is legal; else the fallback's.

        Raises:
            InvalidValueError: If the network does not fit the game and there is no fallback.
        """
        if not self.network.fits(state):
            if self.fallback is None:
                raise InvalidValueError(
                    f"the learned network plays {self.network.players} seats under the {self.network.ruleset.name} "
                    f"rules, not {state.players} under the {state.ruleset.name} rules; give the bot a fallback"
                )
            return self.fallback.choose(state, rng)
        legal = legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        return self.network.best(state)

    def __repr__(self) -> str:
        return "LearnedBot()"
