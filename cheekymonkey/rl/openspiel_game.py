"""*Cheeky Monkey* as an OpenSpiel game (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

Importing this module registers the game with ``pyspiel`` under :data:`GAME_NAME`, so OpenSpiel's
algorithms load it by name:

>>> import pyspiel
>>> import cheekymonkey.rl.openspiel_game
>>> game = pyspiel.load_game("python_cheeky_monkey(players=3,rules=younger)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 17, 8)

Parameters: ``players`` (2 to 6, default 2), ``rules`` (a preset name from
:meth:`Ruleset.preset_names() <cheekymonkey.Ruleset.preset_names>`, default ``"standard"``), and
``max_game_length`` (default 5000; see below).

- **Actions** are the indices of :class:`~cheekymonkey.rl.ActionCodec`; a draw's outcome is a chance
  node whose outcomes are ``Reveal`` indices (0 to 7) with the probabilities of
  :func:`~cheekymonkey.chance_outcomes`, as floats.
- **Returns** are those of :func:`~cheekymonkey.rl.returns`: 1 for a sole winner, ``1/k`` each for ``k``
  sharing, 0 otherwise, given at the end only (a constant-sum game summing to 1).
- **Observations** are the vectors of :mod:`cheekymonkey.rl.observations`, as float32 tensors. The game
  is declared one of perfect information, so the observation and the information state are both the
  full observation by default; ``make_observation(game, params={"observation": "table"})`` gives the
  table one instead. Their strings are a text board.
- **Length.** The rules set no turn limit (R22): a player who keeps drawing can bust forever. OpenSpiel
  needs a bound, so a game also ends after ``max_game_length`` player decisions and is then scored on
  the stacks as they stand (tokens in the bag and in front count for nobody). Uniformly random play
  takes about 100 decisions, so the bound only stops a policy that never stops.
- **Serialization** is OpenSpiel's own for Python games (the history plus the pickled state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

try:
    import numpy as np
    import pyspiel
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.openspiel_game needs OpenSpiel and numpy: pip install 'cheekymonkey[rl]'"
    ) from error

from cheekymonkey.engine import apply, chance_outcomes
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rl._arrays import fill
from cheekymonkey.rl._text import board_text
from cheekymonkey.rl.encoding import NUM_OUTCOMES, ActionCodec
from cheekymonkey.rl.observations import (
    DEFAULT_OBSERVATION,
    OBSERVATION_KINDS,
    ObservationLayout,
    observation_layout,
    observe,
)
from cheekymonkey.rl.rewards import returns, returns_of
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import score_stacks
from cheekymonkey.state import GameState, Phase, new_game

__all__ = [
    "DEFAULT_MAX_GAME_LENGTH",
    "GAME_NAME",
    "CheekyMonkeyGame",
    "CheekyMonkeyObserver",
    "CheekyMonkeyState",
    "load",
]

GAME_NAME: Final = "python_cheeky_monkey"
"""The name the game is registered under with ``pyspiel``."""

DEFAULT_MAX_GAME_LENGTH: Final = 5000
"""How many player decisions a game may take before it is cut short (OpenSpiel needs a bound; R22 has none)."""

# The presets' range of seats (R3), as the rule sets say it: the bounds pyspiel registers the game with.
_MIN_SEATS: Final = min(Ruleset.preset(name).min_players for name in Ruleset.preset_names())
_MAX_SEATS: Final = max(Ruleset.preset(name).max_players for name in Ruleset.preset_names())

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Cheeky Monkey (cheekymonkey)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_SEATS,
    min_num_players=_MIN_SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "rules": "standard", "max_game_length": DEFAULT_MAX_GAME_LENGTH},
)


def _value(params: Mapping[str, Any], name: str, default: Any) -> Any:
    # pyspiel hands a Python game its parameters as plain values, defaults filled in.
    return params.get(name, default)


class _Shared:
    """What every state of one game shares: the rules, the codec, the bound. Copied and pickled as one."""

    __slots__ = ("codec", "max_game_length", "players", "ruleset")

    def __init__(self, players: int, ruleset: Ruleset, max_game_length: int) -> None:
        self.players = players
        self.ruleset = ruleset
        self.max_game_length = max_game_length
        self.codec = ActionCodec(players)

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self  # immutable in practice: a clone shares it

    def __reduce__(self) -> tuple[object, ...]:
        return (_Shared, (self.players, self.ruleset, self.max_game_length))


class _Held:
    """A game state held by an OpenSpiel state: states are immutable values, so a clone shares it."""

    __slots__ = ("value",)

    def __init__(self, value: GameState) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, object]) -> _Held:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_Held, (self.value,))


class CheekyMonkeyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships without types
    """The OpenSpiel game: built by ``pyspiel.load_game`` from its parameters, or directly.

    Args:
        params: ``players``, ``rules`` and ``max_game_length``, as described in the module's docs.

    Raises:
        InvalidValueError: If a parameter is out of range or names no preset.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = _value(params, "players", 2)
        rules = _value(params, "rules", "standard")
        max_length = _value(params, "max_game_length", DEFAULT_MAX_GAME_LENGTH)
        if isinstance(players, bool) or not isinstance(players, int) or not _MIN_SEATS <= players <= _MAX_SEATS:
            raise InvalidValueError(f"players must be an integer from {_MIN_SEATS} to {_MAX_SEATS}, got {players!r}")
        if not isinstance(rules, str) or rules not in Ruleset.preset_names():
            raise InvalidValueError(f"rules must be one of {', '.join(Ruleset.preset_names())}, got {rules!r}")
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
            raise InvalidValueError(f"max_game_length must be a positive integer, got {max_length!r}")
        ruleset = Ruleset.preset(rules)
        if not ruleset.allows_players(players):
            raise InvalidValueError(f"the {rules} rules do not allow {players} players")
        shared = _Shared(players, ruleset, max_length)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.codec.num_actions,
            max_chance_outcomes=NUM_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_length,
        )
        super().__init__(_GAME_TYPE, info, {"players": players, "rules": rules, "max_game_length": max_length})
        self._shared = shared

    @property
    def ruleset(self) -> Ruleset:
        """The rules the game is played under."""
        return self._shared.ruleset

    @property
    def codec(self) -> ActionCodec:
        """The action indices."""
        return self._shared.codec

    def new_initial_state(self) -> CheekyMonkeyState:
        """A new game: the first player's compulsory draw pending, a chance node."""
        return CheekyMonkeyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CheekyMonkeyObserver:
        """An observer: the full observation, or the table one with ``params={"observation": "table"}``.

        The game is one of perfect information, so ``iig_obs_type`` changes nothing.

        Raises:
            InvalidValueError: If ``params`` holds anything else.
        """
        params = dict(params or {})
        kind = _value(params, "observation", DEFAULT_OBSERVATION)
        if set(params) - {"observation"} or kind not in OBSERVATION_KINDS:
            raise InvalidValueError(f"observer parameters may only set observation to full or table, got {params!r}")
        return CheekyMonkeyObserver(observation_layout(kind, self._shared.players, self._shared.ruleset))


class CheekyMonkeyState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships without types
    """An OpenSpiel state: a :class:`~cheekymonkey.GameState` and the number of player decisions so far."""

    def __init__(self, game: CheekyMonkeyGame) -> None:
        super().__init__(game)
        shared: _Shared = game._shared
        self._shared = shared
        self._held = _Held(new_game(shared.players, ruleset=shared.ruleset))
        self._decisions = 0

    @property
    def game_state(self) -> GameState:
        """The engine's state."""
        return self._held.value

    @property
    def truncated(self) -> bool:
        """Whether the game was cut short at ``max_game_length`` decisions before it ended."""
        return self._decisions >= self._shared.max_game_length and self._held.value.phase is not Phase.OVER

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` at a draw, or ``PlayerId.TERMINAL`` at the end."""
        state = self._held.value
        if state.phase is Phase.OVER or self._decisions >= self._shared.max_game_length:
            return int(pyspiel.PlayerId.TERMINAL)
        if state.phase is Phase.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return state.seat

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._shared.codec.legal_indices(self._held.value))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw's outcomes as ``(Reveal index, probability)``, from :func:`~cheekymonkey.chance_outcomes`."""
        return [(int(reveal.animal), float(p)) for reveal, p in chance_outcomes(self._held.value)]

    def _apply_action(self, action: int) -> None:
        state = self._held.value
        codec = self._shared.codec
        if state.phase is Phase.CHANCE:
            self._held = _Held(apply(state, codec.decode_outcome(int(action))))
        else:
            # An index that is not legal here raises IllegalActionError from apply, as any illegal action.
            self._held = _Held(apply(state, codec.decode(int(action))))
            self._decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        codec = self._shared.codec
        if player == pyspiel.PlayerId.CHANCE:
            return repr(codec.decode_outcome(int(action)))
        return codec.describe(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over (R15) or was cut short at ``max_game_length`` decisions."""
        return self._held.value.phase is Phase.OVER or self._decisions >= self._shared.max_game_length

    def returns(self) -> list[float]:
        """Each seat's return: 0 before the end; at the end :func:`~cheekymonkey.rl.returns`."""
        state = self._held.value
        if state.phase is Phase.OVER:
            return list(returns(state))
        if self._decisions >= self._shared.max_game_length:
            return list(returns_of(score_stacks(state.stacks, state.ruleset)))
        return [0.0] * self._shared.players

    def __str__(self) -> str:
        return f"{board_text(self._held.value)}\ndecisions: {self._decisions}"


class CheekyMonkeyObserver:
    """An OpenSpiel observer (the ``PyObserver`` protocol): fills ``tensor`` and ``dict`` from a state.

    Args:
        layout: The observation's layout.
    """

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout = layout
        self._bound = max(field.bound for field in layout.fields)
        self.tensor = np.zeros(layout.size, np.float32)
        """The observation, as a flat float32 vector."""
        self.dict = {
            field.name: self.tensor[field.offset : field.offset + field.size].reshape(field.shape)
            for field in layout.fields
        }
        """The same numbers by field, as views into :attr:`tensor`."""

    def set_from(self, state: CheekyMonkeyState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as seat ``player`` observes it."""
        fill(self.tensor, observe(state.game_state, player, self.layout.kind), self._bound)

    def string_from(self, state: CheekyMonkeyState, player: int) -> str:
        """The text board, as every seat sees the same table; with ``player``'s seat named."""
        return f"seat {player} observing\n{state}"


def load(players: int = 2, rules: str = "standard", max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> Any:
    """``pyspiel.load_game`` of this game with these parameters (the returned object is a ``pyspiel.Game``).

    Raises:
        InvalidValueError: If a parameter is out of range.
    """
    if not isinstance(rules, str) or rules not in Ruleset.preset_names():
        raise InvalidValueError(f"rules must be one of {', '.join(Ruleset.preset_names())}, got {rules!r}")
    return pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules, "max_game_length": max_game_length})


pyspiel.register_game(_GAME_TYPE, CheekyMonkeyGame)
