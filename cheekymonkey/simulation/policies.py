"""Policies as bots: a callable from an observation and a mask to an action index plays wherever a bot does.

A learner's policy is a function of what it observes: :class:`PolicyBot` gives it the mover's observation and
action mask in the game's encoding (:meth:`~cheekymonkey.Game.encoding`), exactly as the RL adapters give
them, and plays the action its index stands for. :func:`as_bot` is the one adapter everything shares:
:func:`~cheekymonkey.simulation.simulate`, :func:`~cheekymonkey.simulation.league` and the Gymnasium
environment's opponents take a bot's name, a bot, or a policy, and read each through it.

By default the policy gets numpy arrays (the ``rl`` extra), as a trained network expects them: the
observation as float32 (whole numbers, or each entry divided by its bound with ``scaled=True``) and the mask
as bools. With ``arrays=False`` it gets tuples instead (ints or floats, and bools), and needs no numpy.

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

import random
from collections.abc import Callable
from typing import Any, Final

from cheekymonkey.encoding import Encoding, as_index
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game, GameBot

__all__ = ["Policy", "PolicyBot", "as_bot"]

Policy = Callable[[Any, Any], Any]
"""A policy: called with an observation and an action mask, it returns a legal action index (an integer)."""

_KIND: Final = "policy"


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
    entry: str | GameBot[Any, Any] | Policy,
    game: Game[Any, Any, Any, Any, Any],
    *,
    observation: str | None = None,
    scaled: bool = False,
) -> str | GameBot[Any, Any]:
    """``entry`` as something a table can seat: a bot's name or a bot as it is, a policy as a :class:`PolicyBot`.

    Raises:
        InvalidValueError: If ``entry`` is none of the three (a class, say, or a number).
    """
    if isinstance(entry, str):
        return entry
    if isinstance(entry, type):
        raise InvalidValueError(f"{entry.__name__} is a class: pass a bot or a policy, not its class")
    if isinstance(entry, GameBot):
        return entry
    if callable(entry):
        return PolicyBot(entry, game, observation=observation, scaled=scaled)
    raise InvalidValueError(
        f"{entry!r} is neither a bot's name, a bot (it has no choose method), nor a policy (it is not callable)"
    )
