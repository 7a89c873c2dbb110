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

**What a game returns.** A game that ends by its rules returns the game's own
:meth:`~cheekymonkey.Game.returns`, and declares the bounds and kind of its
:meth:`~cheekymonkey.Game.stakes`. A game cut off at a limit is *truncated*: it has no result
(:attr:`SpielState.truncated` tells the two kinds of end apart), and every seat gets an equal share of the
stakes' total (0 in a zero-sum game). A game that keeps the default stakes (the
:class:`~cheekymonkey.Outcome` scale: 1 for a sole winner, ``1/k`` each for ``k`` sharing, 0 otherwise)
is the exception kept from before stakes were declared: its truncated games return 0 each, so it is
declared general-sum with utilities from 0 to 1; see :mod:`~cheekymonkey.rl.episodes`. Chance is a player
here, so a game cut off (or ended) before anybody's first decision is simply terminal after the chance
outcome that ends it.

**Observations** are from the observing seat (the viewer is seat 0, and action indices count seats from
the player who acts), as float32 tensors, of the ``observation`` kind; their strings show exactly what the
tensor shows (:meth:`~cheekymonkey.encoding.Encoding.observation_text`). A game without private
information (:attr:`~cheekymonkey.Game.private_information` False) is declared one of perfect information,
and its information state is its observation.

**A game with private information** is declared one of imperfect information, and a seat's information
state comes from the game's :meth:`~cheekymonkey.Game.information_state` of that seat: its string is the
information state itself if it is a string, else its ``repr`` (so the game's information states should be
values whose ``repr`` tells them apart), and its tensor is the game's observation kind ``"information"``
if it offers one (else the game provides no information-state tensor). ``str(state)`` is the spectator's
board (:meth:`~cheekymonkey.Game.board_table` for no seat), which shows no seat's secrets, and
:meth:`SpielState.resample_from_infostate` draws through :meth:`~cheekymonkey.Game.resample`, so
OpenSpiel's ``ISMCTSBot`` searches on it.

**Serialization** is OpenSpiel's own for Python games (the history plus the pickled state).
"""

from __future__ import annotations

import random
import urllib.parse
from collections.abc import Hashable, Mapping
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
from cheekymonkey.outcome import Stakes, Utility
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
    "information_text",
    "load",
    "rules_parameter",
    "spiel_name",
]

_JSON: Final = "json:"

INFORMATION_KIND: Final = "information"
"""The observation kind a game with private information offers for the information-state tensor, if any."""


def information_text(information: Hashable) -> str:
    """An information state (:meth:`~cheekymonkey.Game.information_state`) as OpenSpiel's string of it.

    The information state itself if it is a string, else its ``repr``.

    >>> information_text("card Kh"), information_text(("Kh", (1, 2)))
    ('card Kh', "('Kh', (1, 2))")
    """
    return information if isinstance(information, str) else repr(information)


def _declared(stakes: Stakes, players: int) -> tuple[Any, float, float, float | None, float]:
    # OpenSpiel's utility kind, min and max utility, utility sum, and the return of each seat in a truncated
    # game. The default stakes keep the adapter's declarations from before games declared their own.
    if stakes == Stakes.of_outcome():
        return pyspiel.GameType.Utility.GENERAL_SUM, 0.0, 1.0, None, 0.0
    share = 0.0 if stakes.total is None else stakes.total / players
    kind = {
        Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
        Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
        Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM,
    }[stakes.utility]
    return kind, min(stakes.low, share), max(stakes.high, share), stakes.total, share


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

    __slots__ = (
        "encoding",
        "game",
        "information",
        "kind",
        "max_steps",
        "max_turns",
        "players",
        "ruleset",
        "scaled",
        "truncated_return",
    )

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
        # A game with private information: its information-state tensor's encoding, if it offers one.
        self.information: Encoding[Any, Any] | None = (
            self.game.encoding(players, ruleset, INFORMATION_KIND)
            if self.game.private_information and INFORMATION_KIND in self.game.observation_kinds()
            else None
        )
        self.truncated_return = _declared(self.game.stakes(players, ruleset), players)[4]

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
    secret = game.private_information
    # The default stakes: a game ended by its rules pays 1 in all, a truncated one 0, so not constant-sum.
    utility = _declared(game.stakes(game.default_seats()), game.default_seats())[0]
    return pyspiel.GameType(
        short_name=spiel_name(game.name),
        long_name=f"{game.title} (cheekymonkey)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if secret
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(high for _, high in ranges),
        min_num_players=min(low for low, _ in ranges),
        provides_information_state_string=True,
        provides_information_state_tensor=not secret or INFORMATION_KIND in game.observation_kinds(),
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
        _, low_utility, high_utility, utility_sum, _ = _declared(game.stakes(players, ruleset), players)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.encoding.num_actions,
            max_chance_outcomes=shared.encoding.num_outcomes,
            num_players=players,
            min_utility=low_utility,
            max_utility=high_utility,
            utility_sum=utility_sum,
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

        For a game of perfect information ``iig_obs_type`` changes nothing. For a game with private
        information, ``iig_obs_type`` with perfect recall asks for the information state
        (:meth:`~cheekymonkey.Game.information_state`, and the ``"information"`` kind's tensor), and one
        with no private information (``PrivateInfoType.NONE``) for what a spectator observes.

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
        if shared.game.private_information and iig_obs_type is not None:
            if iig_obs_type.perfect_recall:
                return SpielObserver(shared.information, scaled=scaled, information=True)
            if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
                return SpielObserver(encoding, scaled=scaled, public=True)
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
        """Each seat's return: the game's returns once it has ended by its rules; 0 before.

        A truncated game returns each seat an equal share of the stakes' total (0 for the default stakes).
        """
        game = self._shared.game
        state = self._held.value
        if self._truncated:
            return [self._shared.truncated_return] * self._shared.players
        if game.is_terminal(state):
            return [float(value) for value in game.returns(state)]
        return [0.0] * self._shared.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one, drawn by the game's :meth:`~cheekymonkey.Game.resample`.

        Its random numbers are seeded from one draw of ``probability_sampler``. The new state keeps this
        one's history of actions (OpenSpiel's record of it), which only the game's state differs from.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        drawn = self._shared.game.resample(self._held.value, int(player_id), rng)
        other: SpielState = self.clone()
        other._held = _Held(drawn)
        return other

    def __str__(self) -> str:
        game = self._shared.game
        state = self._held.value
        if game.private_information:  # what a spectator sees: no seat's secret
            names = [f"Seat {seat}" for seat in range(self._shared.players)]
            text: str = game.board_table(state, names, None).text()
        else:
            text = game.board_text(state)
        return text + ("\ntruncated" if self._truncated else "")


class SpielObserver:
    """An OpenSpiel observer (the ``PyObserver`` protocol): fills ``tensor`` and ``dict`` from a state.

    Args:
        encoding: The game's encoding of the observation kind wanted (None: no tensor, for the information
            state of a game with private information that offers no ``"information"`` kind).
        scaled: Fill the tensor with each entry divided by its bound, in [0, 1].
        information: The string is the game's :meth:`~cheekymonkey.Game.information_state` of the seat
            (:func:`~cheekymonkey.rl.openspiel_game.information_text`), not the observation's text.
        public: Observe as a spectator (what every seat sees), whichever player is asked for.
    """

    def __init__(
        self,
        encoding: Encoding[Any, Any] | None,
        *,
        scaled: bool = False,
        information: bool = False,
        public: bool = False,
    ) -> None:
        self.encoding = encoding
        self.scaled = scaled
        """Whether the tensor is scaled by the bounds."""
        self.information = information
        """Whether this observer gives the information state."""
        self.public = public
        """Whether this observer sees as a spectator."""
        self._observations = None if encoding is None else Observations(encoding, scaled)
        self.tensor = np.zeros(0 if encoding is None else encoding.observation_size, np.float32)
        """The observation, as a flat float32 vector."""
        self.dict = (
            {}
            if encoding is None
            else {
                field.name: self.tensor[field.offset : field.offset + field.size].reshape(field.shape)
                for field in encoding.observation_fields
            }
        )
        """The same numbers by field, as views into :attr:`tensor`."""

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as seat ``player`` observes it."""
        if self._observations is not None:
            self._observations.fill(self.tensor, state.game_state, None if self.public else player)

    def string_from(self, state: SpielState, player: int) -> str:
        """What the tensor shows, as text (the same text for the same tensor); or the seat's information state."""
        if self.information:
            return information_text(state._shared.game.information_state(state.game_state, player))
        if self.encoding is None:  # pragma: no cover - an information observer always has information set
            raise InvalidValueError("this observer has no observation to show")
        return self.encoding.observation_text(state.game_state, None if self.public else player)


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
