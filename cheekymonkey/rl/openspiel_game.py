"""The library's games as OpenSpiel games (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

Importing this module registers every game of :data:`cheekymonkey.games.GAME_NAMES` with ``pyspiel``,
*Cheeky Monkey* as :data:`GAME_NAME` and *Too Many Monkeys* as ``"python_too_many_monkeys"``
(``"python_"`` and the game's name with underscores), so OpenSpiel's algorithms load them by name:

>>> import pyspiel
>>> import cheekymonkey.rl.openspiel_game
>>> game = pyspiel.load_game("python_cheeky_monkey(players=3,rules=younger)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 17, 8)

OpenSpiel keeps its own loop here: a state is the game's state and the counts the truncation rule needs;
the actions, chance outcomes, observations and their texts are the game's own encodings
(:meth:`~cheekymonkey.Game.encoding`).

**Parameters:**

- ``players``: the seat count (2 by default);
- ``rules``: a preset's name (``"standard"`` by default), or any rule set as a JSON document
  (:mod:`cheekymonkey.serialization`; the ``json`` extra, part of ``rl``). OpenSpiel's game strings split
  values at commas, so :func:`rules_parameter` writes a custom rule set as ``json:`` and the document with
  ``,``, ``=``, ``(``, ``)`` and ``%`` percent-escaped; that is the form ``str(game)`` shows and
  serialization keeps, and the parameter reads both;
- ``observation``: the observation kind of the state's tensors and strings (the game's default, ``"full"``
  in both games; or ``"table"``); :func:`~open_spiel.python.observation.make_observation` can also
  ask for either with ``params={"observation": ...}``;
- ``scaled`` (False by default): tensors with each entry divided by its bound, in [0, 1], instead of whole
  numbers (the strings are the same either way); an observer can also ask with ``params={"scaled": True}``;
- ``max_turns`` (0, the default, for no limit) and ``max_steps`` (:data:`~cheekymonkey.rl.episodes.DEFAULT_MAX_STEPS`
  by default; it must be set, and it is the game's ``max_game_length``): the truncation rule every adapter
  shares.

**What a game returns.** A game that ends by its rules returns each seat's
:attr:`~cheekymonkey.Outcome.returns` (1 for a sole winner, ``1/k`` each for ``k`` sharing, 0
otherwise: they add up to 1). A game cut off at a limit is *truncated*: it has no result, and every seat's
return is 0 (:attr:`SpielState.truncated` tells the two apart). The returns of the two kinds of end add up
to different totals, so the game is declared general-sum, with utilities from 0 to 1; see
:mod:`~cheekymonkey.rl.episodes`. Chance is a player here, so a game cut off (or ended) before anybody's
first decision is simply terminal after the chance outcome that ends it.

**Observations** are from the observing seat (the viewer is seat 0, and action indices count seats from
the player who acts), as float32 tensors. The game is declared one of perfect information, so the
observation and the information state are the same, of the ``observation`` kind; their strings show
exactly what the tensor shows (:meth:`~cheekymonkey.encoding.Encoding.observation_text`), so they are keys
that do not grow with the length of a game.

**Serialization** is OpenSpiel's own for Python games (the history plus the pickled state).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from typing import Any, Final

try:
    import numpy as np
    import pyspiel
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.openspiel_game needs OpenSpiel and numpy: pip install 'cheekymonkey[rl]'"
    ) from error

from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.games import DEFAULT_GAME, GAME_NAMES, AnyGame, game_named
from cheekymonkey.rl._arrays import Observations
from cheekymonkey.rl.episodes import DEFAULT_MAX_STEPS, check_scaled, learnable_game
from cheekymonkey.table import past_limits

__all__ = [
    "GAME_NAME",
    "CheekyMonkeyGame",
    "CheekyMonkeyObserver",
    "CheekyMonkeyState",
    "SpielGame",
    "SpielObserver",
    "SpielState",
    "load",
    "rules_parameter",
    "spiel_name",
]

_JSON: Final = "json:"


def spiel_name(game: str) -> str:
    """The name a game of the library is registered under with ``pyspiel``: ``"python_cheeky_monkey"``."""
    return "python_" + game.replace("-", "_")


GAME_NAME: Final = spiel_name(DEFAULT_GAME)
"""The name the default game, *Cheeky Monkey*, is registered under with ``pyspiel``."""


def rules_parameter(game: AnyGame, ruleset: Any) -> str:
    """The ``rules`` parameter for ``ruleset``: a preset's name, or ``json:`` and the escaped JSON document."""
    for name in game.preset_names():
        if game.ruleset(name) == ruleset:
            return name
    text = game.documents().dumps(ruleset)
    return _JSON + urllib.parse.quote(text, safe=" {}[]\"':;/+*!@#$&~?<>|^`\\")


def _ruleset(game: AnyGame, rules: object) -> Any:
    if not isinstance(rules, str) or not rules:
        raise InvalidValueError(f"rules must be a preset's name or a JSON rule set, got {rules!r}")
    if rules.startswith(_JSON):
        rules = urllib.parse.unquote(rules[len(_JSON) :])
    if rules.lstrip().startswith("{"):
        try:
            return game.documents().loads(rules, "ruleset")
        except CheekyMonkeyError as error:
            raise InvalidValueError(f"rules is not a rule set document: {error}") from None
    if rules not in game.preset_names():
        raise InvalidValueError(
            f"rules must be one of {', '.join(game.preset_names())} or a JSON rule set, got {rules!r}"
        )
    return game.ruleset(rules)


def _count(params: Mapping[str, Any], name: str, default: int, low: int) -> int:
    value = params.get(name, default)
    if not is_whole_number(value) or value < low:
        raise InvalidValueError(f"{name} must be an integer of at least {low}, got {value!r}")
    return value


class _Shared:
    """What every state of one game shares: the game, its encoding, the limits. Copied and pickled as one."""

    __slots__ = ("encoding", "game", "kind", "max_steps", "max_turns", "players", "ruleset", "scaled")

    def __init__(
        self,
        game: str,
        players: int,
        ruleset: Any,
        kind: str,
        max_turns: int | None,
        max_steps: int,
        scaled: bool = False,
    ) -> None:
        self.game: AnyGame = game_named(game)
        self.players = players
        self.ruleset = ruleset
        self.kind = kind
        self.max_turns = max_turns
        self.max_steps = max_steps
        self.scaled = scaled
        self.encoding: Encoding[Any, Any] = self.game.encoding(players, ruleset, kind)

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self  # immutable in practice: a clone shares it

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _Shared,
            (self.game.name, self.players, self.ruleset, self.kind, self.max_turns, self.max_steps, self.scaled),
        )


class _Held:
    """A game state held by an OpenSpiel state: states are immutable values, so a clone shares it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, object]) -> _Held:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_Held, (self.value,))


def _game_type(game: AnyGame) -> Any:
    ranges = [game.seat_range(game.ruleset(name)) for name in game.preset_names()]
    return pyspiel.GameType(
        short_name=spiel_name(game.name),
        long_name=f"{game.title} (cheekymonkey)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        # A game ended by its rules pays 1 in all, a truncated one 0: not constant-sum.
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(high for _, high in ranges),
        min_num_players=min(low for low, _ in ranges),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": 2,
            "rules": game.preset_names()[0],
            "observation": game.observation_kinds()[0],
            "max_turns": 0,
            "max_steps": DEFAULT_MAX_STEPS,
            "scaled": False,
        },
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships without types
    """An OpenSpiel game of one of the library's games, built by ``pyspiel.load_game`` or directly.

    Each game of the library has a subclass of its own, registered under :func:`spiel_name` of its name
    (:class:`CheekyMonkeyGame` for *Cheeky Monkey*).

    Args:
        params: ``players``, ``rules``, ``observation``, ``scaled``, ``max_turns`` and ``max_steps``, as
            described in the module's docs.

    Raises:
        InvalidValueError: If a parameter is out of range or names no preset.
    """

    game_name: str = DEFAULT_GAME
    """The library's name of the game this class plays."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = learnable_game(self.game_name)
        game_type = _game_type(game)
        params = dict(params or {})
        unknown = set(params) - set(game_type.parameter_specification)
        if unknown:
            raise InvalidValueError(
                f"no parameter {', '.join(sorted(unknown))}; the parameters are players, "
                "rules, observation, scaled, max_turns and max_steps"
            )
        players = _count(params, "players", 2, 1)
        ruleset = _ruleset(game, params.get("rules", game.preset_names()[0]))
        kind = params.get("observation", game.observation_kinds()[0])
        if kind not in game.observation_kinds():
            raise InvalidValueError(f"observation must be one of {', '.join(game.observation_kinds())}, got {kind!r}")
        max_turns = _count(params, "max_turns", 0, 0) or None
        max_steps = _count(params, "max_steps", DEFAULT_MAX_STEPS, 1)
        scaled = check_scaled(params.get("scaled", False))
        low, high = game.seat_range(ruleset)
        if not low <= players <= high:
            raise InvalidValueError(f"players must be from {low} to {high} under these rules, got {players}")
        if players > game_type.max_num_players:
            raise InvalidValueError(
                f"OpenSpiel's registration of {game.title} seats at most {game_type.max_num_players}"
            )
        shared = _Shared(game.name, players, ruleset, kind, max_turns, max_steps, scaled)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.encoding.num_actions,
            max_chance_outcomes=shared.encoding.num_outcomes,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_steps,
        )
        canonical = {
            "players": players,
            "rules": rules_parameter(game, ruleset),
            "observation": kind,
            "max_turns": max_turns or 0,
            "max_steps": max_steps,
        }
        if scaled:  # named only when set, so the game strings of unscaled games are what they were
            canonical["scaled"] = True
        super().__init__(game_type, info, canonical)
        self._shared = shared

    @property
    def game(self) -> AnyGame:
        """The library's game."""
        return self._shared.game

    @property
    def ruleset(self) -> Any:
        """The rules the game is played under."""
        return self._shared.ruleset

    @property
    def encoding(self) -> Encoding[Any, Any]:
        """The game's action indices and observations (of the ``observation`` kind)."""
        return self._shared.encoding

    def new_initial_state(self) -> SpielState:
        """A new game, as the game's :meth:`~cheekymonkey.Game.new_game` makes it."""
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> SpielObserver:
        """An observer of the game's ``observation`` kind and scaling, or of those ``params`` names.

        ``params={"observation": "table", "scaled": True}`` asks for both.

        The game is one of perfect information, so ``iig_obs_type`` changes nothing.

        Raises:
            InvalidValueError: If ``params`` holds anything else.
        """
        shared = self._shared
        params = dict(params or {})
        kind = params.get("observation", shared.kind)
        scaled = params.get("scaled", shared.scaled)
        if (
            set(params) - {"observation", "scaled"}
            or kind not in shared.game.observation_kinds()
            or not isinstance(scaled, bool)
        ):
            kinds = " or ".join(shared.game.observation_kinds())
            raise InvalidValueError(
                f"observer parameters may only set observation to {kinds} and scaled to True or False, got {params!r}"
            )
        encoding = (
            shared.encoding if kind == shared.kind else shared.game.encoding(shared.players, shared.ruleset, kind)
        )
        return SpielObserver(encoding, scaled=scaled)


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships without types
    """An OpenSpiel state: the game's state, and the turns and steps played (for the truncation rule)."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        shared: _Shared = game._shared
        self._shared = shared
        state = shared.game.new_game(shared.players, shared.ruleset)
        self._held = _Held(state)
        self._turns = 1 if shared.game.begins_turn(state) else 0
        self._steps = 0
        self._truncated = False

    @property
    def game_state(self) -> Any:
        """The game's state."""
        return self._held.value

    @property
    def truncated(self) -> bool:
        """Whether the game was cut off at a limit before it ended by its rules (its returns are then all 0)."""
        return self._truncated

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` at a chance node, or ``PlayerId.TERMINAL`` at the end."""
        state = self._held.value
        game = self._shared.game
        if self._truncated or game.is_terminal(state):
            return int(pyspiel.PlayerId.TERMINAL)
        if game.is_chance_node(state):
            return int(pyspiel.PlayerId.CHANCE)
        seat: int | None = game.to_move(state)
        assert seat is not None  # neither over nor a chance node: a seat decides
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self._truncated:
            return []
        return list(self._shared.encoding.legal_indices(self._held.value))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes as ``(index, probability)``, from the game's exact probabilities."""
        shared = self._shared
        state = self._held.value
        return [(shared.encoding.encode(action, state), float(p)) for action, p in shared.game.chance_outcomes(state)]

    def _apply_action(self, action: int) -> None:
        shared = self._shared
        game = shared.game
        state = self._held.value
        # An index that is not legal here raises IllegalActionError from the game, as any illegal action.
        after = game.apply(state, shared.encoding.decode(int(action), state))
        self._held = _Held(after)
        self._steps += 1
        if game.begins_turn(after):
            self._turns += 1
        self._truncated = not game.is_terminal(after) and past_limits(
            self._turns, self._steps, shared.max_turns, shared.max_steps
        )

    def _action_to_string(self, player: int, action: int) -> str:
        return self._shared.encoding.action_name(int(action), chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        """Whether the game ended by its rules or was truncated at a limit."""
        return self._truncated or self._shared.game.is_terminal(self._held.value)

    def returns(self) -> list[float]:
        """Each seat's return: the outcome's returns once the game has ended by its rules; 0 otherwise."""
        game = self._shared.game
        state = self._held.value
        if not self._truncated and game.is_terminal(state):
            return list(game.outcome(state).returns)
        return [0.0] * self._shared.players

    def __str__(self) -> str:
        text: str = self._shared.game.board_text(self._held.value)
        return text + ("\ntruncated" if self._truncated else "")


class SpielObserver:
    """An OpenSpiel observer (the ``PyObserver`` protocol): fills ``tensor`` and ``dict`` from a state.

    Args:
        encoding: The game's encoding of the observation kind wanted.
        scaled: Fill the tensor with each entry divided by its bound, in [0, 1].
    """

    def __init__(self, encoding: Encoding[Any, Any], *, scaled: bool = False) -> None:
        self.encoding = encoding
        self.scaled = scaled
        """Whether the tensor is scaled by the bounds."""
        self._observations = Observations(encoding, scaled)
        self.tensor = np.zeros(encoding.observation_size, np.float32)
        """The observation, as a flat float32 vector."""
        self.dict = {
            field.name: self.tensor[field.offset : field.offset + field.size].reshape(field.shape)
            for field in encoding.observation_fields
        }
        """The same numbers by field, as views into :attr:`tensor`."""

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as seat ``player`` observes it."""
        self._observations.fill(self.tensor, state.game_state, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """What the tensor shows, as text (the same text for the same tensor)."""
        return self.encoding.observation_text(state.game_state, player)


def load(
    players: int = 2,
    rules: Any = "standard",
    max_turns: int | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    observation: str | None = None,
    game: str = DEFAULT_GAME,
    *,
    scaled: bool = False,
) -> Any:
    """``pyspiel.load_game`` of ``game`` with these parameters (the returned object is a ``pyspiel.Game``).

    ``rules`` is a preset's name, a JSON rule set, or a rule set of the game's own.

    Raises:
        InvalidValueError: If a parameter is out of range.
    """
    library_game = learnable_game(game)
    if not isinstance(rules, str):
        rules = rules_parameter(library_game, rules)
    params: dict[str, Any] = {"players": players, "rules": rules, "max_turns": max_turns or 0, "max_steps": max_steps}
    if observation is not None:
        params["observation"] = observation
    if check_scaled(scaled):
        params["scaled"] = True
    return pyspiel.load_game(spiel_name(game), params)


def _register() -> dict[str, type[SpielGame]]:
    # Every game that offers encodings for learning (a game with no observation kinds offers none yet).
    classes: dict[str, type[SpielGame]] = {}
    for name in GAME_NAMES:
        game = game_named(name)
        if not game.observation_kinds():
            continue
        title = "".join(part.title() for part in name.split("-"))
        cls = type(f"{title}Game", (SpielGame,), {"game_name": name, "__module__": __name__})
        classes[name] = cls
        globals()[cls.__name__] = cls  # pickled by reference, as a module attribute
        if spiel_name(name) not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game), cls)
    return classes


_CLASSES: Final = _register()

CheekyMonkeyGame: Final = _CLASSES[DEFAULT_GAME]
"""*Cheeky Monkey*'s :class:`SpielGame`."""
CheekyMonkeyState = SpielState
"""The name :class:`SpielState` had before the adapter played any game; the same class."""
CheekyMonkeyObserver = SpielObserver
"""The name :class:`SpielObserver` had before the adapter played any game; the same class."""
