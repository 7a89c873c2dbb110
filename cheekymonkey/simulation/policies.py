"""Policies as bots: a callable from an observation and a mask to an action index plays wherever a bot does.

A learner's policy is a function of what it observes: :class:`PolicyBot` gives it the mover's observation and
action mask in the game's encoding (:meth:`~cheekymonkey.Game.encoding`), exactly as the RL adapters give
them, and plays the action its index stands for. :func:`as_bot` is the one adapter everything shares:
:func:`~cheekymonkey.simulation.simulate`, :func:`~cheekymonkey.simulation.league` and the Gymnasium
environment's opponents take a bot's name, a bot, or a policy, and read each through it.

By default the policy gets numpy arrays (the ``rl`` extra), as a trained network expects them: the
observation as float32 (whole numbers, or each entry divided by its bound with ``scaled=True``) and the mask
as bools. With ``arrays=False`` it gets tuples instead (ints or floats, and bools), and needs no numpy.

A policy may also come from a **weights file** (:func:`~cheekymonkey.simulation.load_policy`,
:class:`~cheekymonkey.simulation.NetworkPolicy`): an ``.npz`` of a perceptron's layers. Wherever a bot's name
is taken, ``"policy:PATH"`` (or a :class:`pathlib.Path`) names such a file, so that ``simulate(["heuristic",
"policy:net.npz"], ...)`` and ``cheekymonkey simulate --bots heuristic,policy:net.npz`` seat the network
beside the heuristic bot. The file holds:

- ``w1, b1, w2, b2, ..., wK, bK`` (K of 1 or more): layer ``k`` computes ``x @ wk + bk``, ``wk`` of shape
  ``(inputs, outputs)``, with a ReLU between layers; the first takes the observation, the last gives one
  score per action index, and the policy plays the legal action of highest score (the lowest index of a tie);
- ``scale`` (optional): one number per observation entry, multiplied into the observation first (the
  observation itself is whole numbers, the game's default kind);
- ``players`` (optional): the seat count it was trained for; ``observation`` (optional): the observation
  kind it reads, if not the game's default.

Every number must be finite. A file that is missing, not an ``.npz``, lacks a part, or whose shapes do not
fit each other (or the table it is seated at: its observation size and action count) is refused with
:class:`~cheekymonkey.InvalidValueError` before any game is played. ``training/tmm_policy.npz`` is such a
file.

>>> import random
>>> from cheekymonkey.games import game_named
>>> game = game_named("too-many-monkeys")
>>> def first_legal(observation, mask):
...     return [i for i, ok in enumerate(mask) if ok][0]
>>> bot = PolicyBot(first_legal, game, arrays=False)
>>> state = game.new_game(2)
>>> while game.is_chance_node(state):
...     state = game.apply(state, game.sample_chance(state, random.Random(1)))
>>> game.action_text(bot.choose(state, random.Random(0)), state), bot.kind, bot
('d', 'policy', PolicyBot(first_legal))
"""

from __future__ import annotations

import os
import random
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import Encoding, as_index
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game, GameBot

__all__ = ["POLICY_PREFIX", "Entry", "NetworkPolicy", "Policy", "PolicyBot", "as_bot", "load_policy", "policy_file"]

Policy = Callable[[Any, Any], Any]
"""A policy: called with an observation and an action mask, it returns a legal action index (an integer)."""

Entry = str | Path | GameBot[Any, Any] | Policy
"""What takes a seat in a simulation or a league: a bot's name, a policy's weights file, a bot or a policy."""

_KIND: Final = "policy"

POLICY_PREFIX: Final = "policy:"
"""What begins an entry naming a weights file where a bot's name is taken: ``"policy:PATH"``."""


class PolicyBot:
    """A bot of ``game`` that plays what ``policy`` chooses from the mover's observation and action mask.

    The encoding follows each state's seat count and rules, so one bot plays any table of its game; the
    observation is the mover's own (the viewer is seat 0), so one policy plays every seat. A policy that
    samples should draw from a generator of its own, seeded: a simulation's figures repeat only if every
    choice does.

    Args:
        policy: The callable: ``policy(observation, mask) -> index``.
        game: The game played (a :class:`~cheekymonkey.game.Game`).
        observation: The observation kind (the game's default if None).
        scaled: Give each entry divided by its bound, in [0, 1], instead of whole numbers.
        arrays: Give numpy arrays (float32 and bool, the ``rl`` extra); False gives tuples.
        name: The bot's label in summaries and records (default: the policy's name).

    Raises:
        InvalidValueError: If ``policy`` is not callable (or is a class), or an option is of the wrong kind.
        ImportError: If ``arrays`` is True and numpy is missing (the ``rl`` extra).
    """

    kind: Final = _KIND
    """What a table records as the seat's kind."""

    def __init__(
        self,
        policy: Policy,
        game: Game[Any, Any, Any, Any, Any],
        *,
        observation: str | None = None,
        scaled: bool = False,
        arrays: bool = True,
        name: str | None = None,
    ) -> None:
        if not callable(policy) or isinstance(policy, type):
            raise InvalidValueError(
                f"a policy is a callable from an observation and a mask to an index, got {policy!r}"
            )
        if not isinstance(game, Game):
            raise InvalidValueError(f"game must be a Game, got {game!r}")
        for option, value in (("scaled", scaled), ("arrays", arrays)):
            if not isinstance(value, bool):
                raise InvalidValueError(f"{option} must be True or False, got {value!r}")
        if observation is not None and observation not in game.observation_kinds():
            raise InvalidValueError(
                f"no observation kind {observation!r}; {game.title}'s are {', '.join(game.observation_kinds())}"
            )
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise InvalidValueError(f"a policy's name must be non-empty text, got {name!r}")
        if arrays:
            try:
                import numpy  # noqa: F401 - checked here, used when choosing
            except ImportError as error:
                raise ImportError(
                    "a policy given numpy arrays needs numpy: pip install 'cheekymonkey[rl]', or pass arrays=False"
                ) from error
        self.policy = policy
        """The callable."""
        self.game = game
        """The game it plays."""
        self.observation = observation
        """The observation kind (None: the game's default)."""
        self.scaled = scaled
        """Whether the observation is scaled by its bounds."""
        self.arrays = arrays
        """Whether the policy gets numpy arrays (else tuples)."""
        self.name = name or str(getattr(policy, "__qualname__", None) or type(policy).__name__)
        """The label of the bot."""
        self._key: tuple[int, Any] | None = None
        self._encoding: Encoding[Any, Any] | None = None
        self._make: Callable[[Any, int], tuple[Any, Any]] | None = None

    def encoding(self, state: Any) -> Encoding[Any, Any]:
        """The encoding of ``state``'s game: its seat count and rules, and this bot's observation kind."""
        game = self.game
        key = (game.players(state), game.ruleset_of(state))
        if key != self._key or self._encoding is None:
            self._encoding = game.encoding(key[0], key[1], self.observation)
            self._key = key
            self._make = _arrays_of(self._encoding, self.scaled) if self.arrays else None
        return self._encoding

    def inputs(self, state: Any) -> tuple[Any, Any]:
        """What the policy is given in ``state``: the mover's observation and the action mask."""
        encoding = self.encoding(state)
        seat = self.game.to_move(state)
        if seat is None:
            raise InvalidValueError("nobody decides in this state (chance acts, or the game is over): no policy plays")
        if self._make is not None:
            return self._make(state, seat)
        if self.scaled:
            from cheekymonkey.observations import scaled_observation

            return scaled_observation(encoding, state, seat), encoding.action_mask(state)
        return encoding.observe(state, seat), encoding.action_mask(state)

    def choose(self, state: Any, rng: random.Random) -> Any:
        """The action whose index the policy returns for the mover of ``state``.

        Raises:
            InvalidValueError: If the policy returns something that is not an index of a legal action.
        """
        observation, mask = self.inputs(state)
        encoding = self.encoding(state)
        chosen = self.policy(observation, mask)
        try:
            index = as_index(chosen)
        except InvalidValueError:
            raise InvalidValueError(f"policy {self.name} returned {chosen!r}, not an action index") from None
        if not 0 <= index < encoding.num_actions or not mask[index]:
            legal = ", ".join(str(i) for i in encoding.legal_indices(state))
            raise InvalidValueError(f"policy {self.name} chose index {index}, which is not legal here (legal: {legal})")
        return encoding.decode(index, state)

    def check_table(self, players: int, ruleset: Any) -> None:
        """Refuse, before any game, a table this bot's policy cannot play: what its ``check`` refuses.

        A policy with a ``check(encoding, players)`` method (a :class:`~cheekymonkey.simulation.NetworkPolicy`
        has one) is asked about the encoding of ``players`` seats under ``ruleset``; any other policy is taken
        as able to play any table.

        Raises:
            InvalidValueError: If the policy cannot play that table (its shapes do not fit, say).
        """
        check = getattr(self.policy, "check", None)
        if callable(check):
            check(self.game.encoding(players, ruleset, self.observation), players)

    def __getstate__(self) -> dict[str, Any]:
        # Sent to worker processes without the encoding, which each rebuilds on its first choice.
        return {
            "policy": self.policy,
            "game": self.game,
            "observation": self.observation,
            "scaled": self.scaled,
            "arrays": self.arrays,
            "name": self.name,
        }

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._key = None
        self._encoding = None
        self._make = None

    def __repr__(self) -> str:
        return f"PolicyBot({self.name})"


def _arrays_of(encoding: Encoding[Any, Any], scaled: bool) -> Callable[[Any, int], tuple[Any, Any]]:
    # numpy is imported only here: the core never needs it.
    import numpy as np

    from cheekymonkey._observation_arrays import Observations

    observations = Observations(encoding, scaled)

    def make(state: Any, seat: int) -> tuple[Any, Any]:
        return observations(state, seat), np.array(encoding.action_mask(state), np.bool_)

    return make


def as_bot(
    entry: Entry,
    game: Game[Any, Any, Any, Any, Any],
    *,
    observation: str | None = None,
    scaled: bool = False,
) -> str | GameBot[Any, Any]:
    """``entry`` as something a table can seat: a bot's name or a bot as it is, a policy as a :class:`PolicyBot`.

    A weights file, ``"policy:PATH"`` or a path, becomes the :class:`PolicyBot` of
    :func:`~cheekymonkey.simulation.policies.policy_file`.

    Raises:
        InvalidValueError: If ``entry`` is none of these (a class, say, or a number), or a weights file that
            cannot be read as a policy.
    """
    if isinstance(entry, str):
        if entry.startswith(POLICY_PREFIX):
            return policy_file(entry[len(POLICY_PREFIX) :], game, name=entry)
        return entry
    if isinstance(entry, os.PathLike):
        return policy_file(entry, game)
    if isinstance(entry, type):
        raise InvalidValueError(f"{entry.__name__} is a class: pass a bot or a policy, not its class")
    if isinstance(entry, GameBot):
        return entry
    if callable(entry):
        return PolicyBot(entry, game, observation=observation, scaled=scaled)
    raise InvalidValueError(
        f"{entry!r} is neither a bot's name, a bot (it has no choose method), nor a policy (it is not callable)"
    )


# -- policies from weights files ------------------------------------------------------------------------------


class NetworkPolicy:
    """A perceptron read from a weights file (:func:`~cheekymonkey.simulation.load_policy`): greedy, numpy only.

    Called as a policy, ``policy(observation, mask)``, it returns the legal index of highest score; the
    batched simulation calls :meth:`choose_batch` once for many games. It computes in float64, one game or
    many alike, so the same observation gets the same choice however it is called.

    Args:
        layers: ``(w, b)`` pairs, ``w`` of shape ``(inputs, outputs)``, ``b`` of ``outputs``; a ReLU between two.
        scale: One factor per observation entry, multiplied in first (None: 1 for every entry).
        players: The seat count it was trained for (None: any whose shapes fit).
        observation: The observation kind it reads (None: the game's default).
        name: Its label.

    Raises:
        InvalidValueError: If the layers do not fit each other or the scale, or a number is not finite.
    """

    def __init__(
        self,
        layers: list[tuple[Any, Any]],
        *,
        scale: Any = None,
        players: int | None = None,
        observation: str | None = None,
        name: str = "network",
    ) -> None:
        import numpy as np

        if not layers:
            raise InvalidValueError("a network needs one layer or more (w1 and b1)")
        checked = []
        inputs = None
        for k, (w, b) in enumerate(layers, 1):
            w = np.asarray(w)
            b = np.asarray(b)
            if w.dtype.kind not in "fiu" or b.dtype.kind not in "fiu":
                raise InvalidValueError(f"layer {k} holds {w.dtype} and {b.dtype}, not numbers")
            if w.ndim != 2 or b.shape != (w.shape[1],) or w.shape[0] == 0 or w.shape[1] == 0:
                raise InvalidValueError(
                    f"layer {k}: w{k} of shape {w.shape} and b{k} of shape {b.shape} do not fit "
                    f"(w{k} is inputs x outputs, b{k} one number per output)"
                )
            if inputs is not None and w.shape[0] != inputs:
                raise InvalidValueError(f"layer {k} takes {w.shape[0]} inputs, but layer {k - 1} gives {inputs}")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise InvalidValueError(f"layer {k} holds a number that is not finite (NaN or infinite)")
            inputs = w.shape[1]
            checked.append((w.astype(np.float64), b.astype(np.float64)))
        first = checked[0][0].shape[0]
        if scale is None:
            factors = np.ones(first, np.float64)
        else:
            factors = np.asarray(scale)
            if factors.dtype.kind not in "fiu" or factors.shape != (first,):
                raise InvalidValueError(f"scale must be {first} numbers, one per input, got {factors.shape}")
            if not np.isfinite(factors).all():
                raise InvalidValueError("scale holds a number that is not finite (NaN or infinite)")
            factors = factors.astype(np.float64)
        if players is not None and (not is_whole_number(players) or players < 1):
            raise InvalidValueError(f"players must be a positive whole number or None, got {players!r}")
        self.layers = checked
        """The ``(w, b)`` pairs, as float64."""
        self.scale = factors
        """The factor of each observation entry."""
        self.players = players
        """The seat count it was trained for, or None."""
        self.observation = observation
        """The observation kind it reads, or None for the game's default."""
        self.__name__ = name
        self.__qualname__ = name

    @property
    def inputs(self) -> int:
        """The observation size it reads."""
        return int(self.layers[0][0].shape[0])

    @property
    def outputs(self) -> int:
        """The number of action indices it scores."""
        return int(self.layers[-1][0].shape[1])

    def check(self, encoding: Encoding[Any, Any], players: int | None = None) -> None:
        """Refuse an encoding (a table) it cannot play: another observation size or action count, other seats.

        Raises:
            InvalidValueError: Naming what does not fit.
        """
        if self.players is not None and players is not None and players != self.players:
            raise InvalidValueError(f"policy {self.__name__} was trained for {self.players} seats, not {players}")
        if encoding.observation_size != self.inputs or encoding.num_actions != self.outputs:
            raise InvalidValueError(
                f"policy {self.__name__} reads {self.inputs} observation entries and scores {self.outputs} actions; "
                f"this table's observation has {encoding.observation_size} and it has {encoding.num_actions} actions"
            )

    def scores(self, observations: Any) -> Any:
        """The network's scores, one row per observation (a 2-D array of rows of whole numbers)."""
        import numpy as np

        x = np.asarray(observations, np.float64) * self.scale
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                np.maximum(x, 0.0, out=x)
        return x

    def choose_batch(self, observations: Any, masks: Any) -> Any:
        """The legal index of highest score in each row (the lowest of a tie): an int64 array."""
        import numpy as np

        scores = np.where(np.asarray(masks, np.bool_), self.scores(observations), -np.inf)
        return np.argmax(scores, axis=1).astype(np.int64)

    def __call__(self, observation: Any, mask: Any) -> int:
        """The legal index of highest score for one observation."""
        import numpy as np

        return int(self.choose_batch(np.asarray(observation)[None, :], np.asarray(mask, np.bool_)[None, :])[0])

    def __repr__(self) -> str:
        sizes = [self.inputs, *(int(w.shape[1]) for w, _ in self.layers)]
        return f"NetworkPolicy({self.__name__}: {' -> '.join(map(str, sizes))})"


def load_policy(path: str | Path) -> NetworkPolicy:
    """The :class:`~cheekymonkey.simulation.NetworkPolicy` in the weights file ``path``.

    An ``.npz``, as :mod:`cheekymonkey.simulation.policies` describes.

    Raises:
        InvalidValueError: If the file cannot be read, is not an ``.npz``, lacks a part or holds one that does
            not fit (each named in the message).
        ImportError: If numpy is missing (the ``rl`` extra).
    """
    try:
        import numpy as np
    except ImportError as error:
        raise ImportError("a policy's weights file needs numpy: pip install 'cheekymonkey[rl]'") from error
    if isinstance(path, str) and not path.strip():
        raise InvalidValueError("a policy's weights file needs a path: policy:PATH")
    if not isinstance(path, str | os.PathLike):
        raise InvalidValueError(f"a weights file's path must be text or a path, got {path!r}")
    shown = os.fspath(path)
    not_weights = f"{shown} is not a policy's weights file (an .npz of w1, b1, ...)"
    try:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            with loaded as archive:
                arrays: dict[str, Any] | None = {key: archive[key] for key in archive.files}
        else:
            arrays = None  # a single array (an .npy)
    except IsADirectoryError:
        raise InvalidValueError(f"{shown} is a folder, not a policy's weights file") from None
    except OSError as error:
        raise InvalidValueError(f"cannot read the policy's weights file {shown}: {error.strerror or error}") from None
    except (ValueError, EOFError, zipfile.BadZipFile):
        # Not one of numpy's formats, a damaged archive, or an array of objects (which would need pickle).
        raise InvalidValueError(not_weights) from None
    if arrays is None:
        raise InvalidValueError(f"{not_weights}: it holds a single array")
    layers = []
    k = 1
    while f"w{k}" in arrays or f"b{k}" in arrays:
        if f"w{k}" not in arrays or f"b{k}" not in arrays:
            missing = f"w{k}" if f"w{k}" not in arrays else f"b{k}"
            raise InvalidValueError(f"{shown} lacks {missing}: each layer k needs both wk and bk")
        layers.append((arrays.pop(f"w{k}"), arrays.pop(f"b{k}")))
        k += 1
    if not layers:
        raise InvalidValueError(f"{shown} holds no layer: a policy's weights file has w1 and b1 at least")
    players = arrays.pop("players", None)
    kind = arrays.pop("observation", None)
    scale = arrays.pop("scale", None)
    if arrays:
        raise InvalidValueError(
            f"{shown} holds parts a policy's weights file does not have: {', '.join(sorted(arrays))} "
            "(w1, b1, ... with no gap, and scale, players, observation)"
        )
    if players is not None:
        if players.shape != () or players.dtype.kind not in "iu":
            raise InvalidValueError(f"{shown}: players must be one whole number")
        players = int(players)
    if kind is not None:
        if kind.shape != () or kind.dtype.kind != "U":
            raise InvalidValueError(f"{shown}: observation must be the name of an observation kind")
        kind = str(kind)
    try:
        return NetworkPolicy(layers, scale=scale, players=players, observation=kind, name=Path(shown).name)
    except InvalidValueError as error:
        raise InvalidValueError(f"{shown}: {error}") from None


def policy_file(path: str | Path, game: Game[Any, Any, Any, Any, Any], *, name: str | None = None) -> PolicyBot:
    """A :class:`~cheekymonkey.simulation.PolicyBot` of ``game`` playing the network in the weights file ``path``.

    The file is read by :func:`~cheekymonkey.simulation.load_policy`.

    Its label is ``name``, or ``"policy:PATH"``.

    Raises:
        InvalidValueError: As :func:`~cheekymonkey.simulation.load_policy`; or if the file names an
            observation kind ``game`` lacks.
    """
    network = load_policy(path)
    label = name or POLICY_PREFIX + os.fspath(path)
    try:
        return PolicyBot(network, game, observation=network.observation, name=label)
    except InvalidValueError as error:
        raise InvalidValueError(f"{os.fspath(path)}: {error}") from None
