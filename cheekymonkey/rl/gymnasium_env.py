"""A game as a single-agent Gymnasium environment (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

The learner takes one seat; bots play the others. Each episode is one game at a
:class:`~cheekymonkey.table.Table`: the table resolves the draws and plays the bots, with its two random
streams seeded from the environment's ``np_random``, so ``reset(seed=...)`` makes a run of episodes
repeatable. Installing the package registers the environment with Gymnasium as :data:`ENV_ID`, through
the package's entry points, so ``gymnasium.make("cheekymonkey/Solo-v0")`` needs no import of this module.

- **Seat.** By default the learner sits in a seat drawn at random for each episode (``info["seat"]`` says
  which), so it learns every seat; ``seat=k`` keeps it in seat ``k``. Everything it sees is from its own
  seat (the viewer is seat 0 of its observation, and the action indices count seats from it), so a
  policy plays every seat alike.
- **Observations** are the game's observation vector of the chosen kind (:meth:`~cheekymonkey.Game.encoding`;
  for *Cheeky Monkey* :mod:`~cheekymonkey.cheeky.encoding`, for *Too Many Monkeys*
  :mod:`~cheekymonkey.toomany.encoding`, full by default) as float32: whole numbers, or with ``scaled=True``
  each entry divided by its bound, in [0, 1]. The legal actions come as
  ``info["action_mask"]`` (int8, one entry per action index) and from :meth:`~SoloEnv.action_masks`, the
  method masked learners such as sb3-contrib's ``MaskablePPO`` call. Once an episode has ended the mask is all
  0: nothing is legal until ``reset``. Under Gymnasium's autoreset (vector environments) the step that ends an
  episode therefore returns an all-0 mask with the last observation, and the next call of ``step`` resets,
  whatever action it is given (``AutoresetMode.NEXT_STEP``); a masked learner should not sample from that
  mask.
- **Actions** are those indices. An illegal one ends the episode as a loss with reward ``illegal_reward``
  (-1 by default) and ``info["illegal"] = True``, so unmasked learners and Gymnasium's checker can sample
  freely; with ``illegal_action="raise"`` it raises :class:`~cheekymonkey.IllegalActionError` instead and
  changes nothing.
- **Reward** is 0 until the game ends, then the learner's return: 1 for a sole win, ``1/k`` for a win
  shared by ``k``, 0 for a loss; with ``margin``, a shaping term on the point margin (see
  :mod:`~cheekymonkey.rl.episodes`).
- **Truncation** by the table's limits, ``max_turns`` and ``max_steps``: a game cut off returns
  ``truncated=True`` and no outcome reward (see :mod:`~cheekymonkey.rl.episodes`).
- **Rendering**: ``render_mode="ansi"`` makes :meth:`~SoloEnv.render` return the game's text board;
  ``"human"`` prints it after every reset and step.

- **A game that ends before the learner's first decision** (a tiny limit, or a small rule set whose bag an
  opponent can empty) is still the game played, never skipped or dealt again: ``reset`` returns its last
  observation with ``info["no_decision"] = True`` and a mask allowing every action (any is accepted: no mask
  the learner is asked to act on is ever all 0), and the next ``step``, whatever action it is given, plays
  nothing and returns the end (see :mod:`~cheekymonkey.rl.episodes`).

>>> env = SoloEnv(players=2, seat=1, opponents=["heuristic"])
>>> observation, info = env.reset(seed=3)
>>> observation.shape, info["seat"], info["action_mask"][:3].tolist()
((900,), 1, [1, 1, 1])
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final, Literal, SupportsFloat

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.gymnasium_env needs Gymnasium and numpy: pip install 'cheekymonkey[rl]'"
    ) from error

from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import as_index
from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.game import GameBot
from cheekymonkey.games import DEFAULT_GAME, AnyGame
from cheekymonkey.rl._arrays import Observations
from cheekymonkey.rl.episodes import (
    DEFAULT_MAX_STEPS,
    NO_DECISION,
    PREFERRED_OPPONENT,
    check_limits,
    check_margin,
    check_scaled,
    default_opponent,
    lead,
    learnable_game,
    ruleset_of,
)
from cheekymonkey.simulation.policies import Policy, as_bot
from cheekymonkey.table import Seat, Table, Waiting

__all__ = ["DEFAULT_OPPONENT", "ENV_ID", "CheekyMonkeySoloEnv", "SoloEnv", "register"]

ENV_ID: Final = "cheekymonkey/Solo-v0"
"""The id the environment is registered under with Gymnasium: ``gymnasium.make(ENV_ID, players=3)``."""

DEFAULT_OPPONENT: Final = PREFERRED_OPPONENT
"""The bot in every other seat unless ``opponents`` says otherwise, if the game has a bot of that name (a game
without one is played against its first bot: :func:`~cheekymonkey.rl.episodes.default_opponent`)."""

_LEARNER: Final = "learner"

Observation = npt.NDArray[np.float32]


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """The learner in one seat against ``opponents``, one bot for each other seat.

    Args:
        players: The number of seats.
        seat: The learner's seat, or None (the default) for a seat drawn at random each episode.
        opponents: The bots in the other seats, the first sitting just after the learner and so on round
            the table: bot objects, the game's names for them, or policies (callables from an observation
            and a mask to an action index, :class:`~cheekymonkey.simulation.PolicyBot`: a frozen copy of
            the learner, say); or one bot's name for every other seat, as ``gymnasium.make_vec`` takes it. If
            omitted, the game's ``"heuristic"`` bot in each (:func:`~cheekymonkey.rl.episodes.default_opponent`).
        ruleset: The rules (the game's rule set, or a preset's name); the standard game if omitted.
        observation: The observation kind (the game's default if omitted; ``"full"`` or ``"table"`` for
            *Cheeky Monkey*).
        render_mode: ``"ansi"`` for a text board from :meth:`render`, ``"human"`` to print it, or None.
        illegal_action: ``"lose"`` (the default: end the episode with ``illegal_reward``) or ``"raise"``.
        illegal_reward: The reward for an illegal action under ``"lose"``.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game after this many actions, chance outcomes and bots' moves included.
        margin: The coefficient of the point-margin shaping term (0: rewards are the game's returns only).
        game: The game played: a name (``"cheeky-monkey"``) or a :class:`~cheekymonkey.game.Game`.
        max_decisions: Deprecated: the old limit, now read as ``max_turns``.
        scaled: Observe each entry divided by its bound, in [0, 1], instead of whole numbers.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        players: int = 2,
        seat: int | None = None,
        opponents: str | Sequence[GameBot[Any, Any] | str | Policy] | None = None,
        ruleset: Any = None,
        observation: str | None = None,
        render_mode: str | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
        max_turns: int | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        margin: float = 0.0,
        game: str | AnyGame = DEFAULT_GAME,
        max_decisions: int | None = None,
        scaled: bool = False,
    ) -> None:
        self.game: AnyGame = learnable_game(game)
        """The game played."""
        ruleset = ruleset_of(self.game, ruleset)
        self.encoding = self.game.encoding(players, ruleset, observation)
        """The game's action indices and observations for this many seats."""
        self.ruleset: Any = self.game.ruleset_of(self.game.new_game(players, ruleset))
        """The rules."""
        if seat is not None and (not is_whole_number(seat) or not 0 <= seat < players):
            raise InvalidValueError(f"seat {seat!r} is not one of the {players} seats, nor None")
        self.scaled = check_scaled(scaled)
        """Whether observations are scaled into [0, 1] by their bounds."""
        self._observation_kind = observation
        if opponents is None:
            opponents = default_opponent(self.game)
        if isinstance(opponents, str):
            opponents = [opponents] * (players - 1)
        if not isinstance(opponents, Sequence) or len(opponents) != players - 1:
            raise InvalidValueError(f"opponents must be {players - 1} bots, one per other seat, got {opponents!r}")
        self._opponents = [self._seat_of(bot, i) for i, bot in enumerate(opponents)]
        if render_mode not in (None, "ansi", "human"):
            raise InvalidValueError(f"render_mode must be 'ansi', 'human' or None, got {render_mode!r}")
        if illegal_action not in ("lose", "raise"):
            raise InvalidValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.max_turns, self.max_steps = check_limits(max_turns, max_steps, max_decisions)
        self.margin = check_margin(margin)
        """The coefficient of the point-margin shaping term."""
        self.render_mode = render_mode
        self.players = players
        """The number of seats."""
        self.fixed_seat = seat
        """The learner's seat if fixed, or None for a seat drawn each episode."""
        self.seat = 0 if seat is None else seat
        """The learner's seat in the episode now."""
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._observations = Observations(self.encoding, self.scaled)
        self.observation_space = gymnasium.spaces.Box(
            low=0.0,
            high=self._observations.high,
            shape=(self.encoding.observation_size,),
            dtype=np.float32,
        )
        self.action_space = gymnasium.spaces.Discrete(self.encoding.num_actions)
        self.table: Table[Any, Any, Any, Any, Any] = self._new_table(0)
        """The table of the episode now."""
        self._lead = 0.0
        self._done = True
        self._no_decision = False

    def _seat_of(self, bot: GameBot[Any, Any] | str | Policy, index: int) -> Seat:
        if isinstance(bot, str):
            return Seat.bot(self.game, bot, f"opponent {index + 1}")
        try:
            # A policy observes as the learner does: a frozen copy of the learner plays as it learnt.
            player = as_bot(bot, self.game, observation=self._observation_kind, scaled=self.scaled)
            assert not isinstance(player, str)  # a name was read above
        except InvalidValueError:
            raise InvalidValueError(
                f"opponent {bot!r} is not a bot: it needs a choose(state, rng) method, or to be a policy "
                "(a callable from an observation and a mask to an action index)"
            ) from None
        return Seat.of(player, f"opponent {index + 1}")

    def _new_table(self, seed: int) -> Table[Any, Any, Any, Any, Any]:
        n = self.players
        seats = [
            self._opponents[(s - self.seat) % n - 1] if s != self.seat else Seat.person(_LEARNER) for s in range(n)
        ]
        return Table(
            self.game,
            seats,
            ruleset=self.ruleset,
            seed=seed,
            max_turns=self.max_turns,
            max_steps=self.max_steps,
            events=False,
        )

    @property
    def game_state(self) -> Any:
        """The game's state now."""
        return self.table.state

    def _observation(self) -> Observation:
        return self._observations(self.table.state, self.seat)

    def _lead_in(self, state: Any) -> float:
        if not self.margin:
            return 0.0
        return lead(self.encoding.points(state), self.seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which action indices the learner may give now, as bools.

        Its legal actions where it decides; every action in an episode with no decision (the next step
        ignores it), so that a masked policy asked to act never meets an all-False mask; all False once the
        episode is over (call :meth:`reset`).
        """
        if self._done:
            return np.zeros(self.encoding.num_actions, np.bool_)
        if self._no_decision:
            return np.ones(self.encoding.num_actions, np.bool_)
        return np.array(self.encoding.action_mask(self.table.state), np.bool_)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat, NO_DECISION: self._no_decision}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game, pick the learner's seat, and play to the learner's first decision.

        With ``seed``, the game is the one a :class:`~cheekymonkey.table.Table` seeded with ``seed`` plays
        (the same draws, and the same bots' choices), and ``seed`` also seeds the environment's
        ``np_random``, from which later episodes draw their seeds and the learner's seat.

        If the game ends before the learner's first decision, the episode has none: the observation is the
        game's last, ``info["no_decision"]`` True and every action allowed, and the next :meth:`step` returns
        the end.
        """
        super().reset(seed=seed)
        self.seat = int(self.np_random.integers(self.players)) if self.fixed_seat is None else self.fixed_seat
        self.table = self._new_table(int(self.np_random.integers(2**63)) if seed is None else seed)
        self.table.advance()
        self._done = False
        self._no_decision = self.table.waiting is not Waiting.PERSON  # over or cut off already
        # From the game's first state: the first reward also counts what the others did before the learner.
        self._lead = self._lead_in(self.table.history[0])
        self._show()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's action index, then the draws and the bots up to the learner's next decision.

        In an episode with no decision (the game ended before the learner's first one), it plays nothing,
        whatever index it is given, and returns the game's end.

        Raises:
            IllegalActionError: Under ``illegal_action="raise"``, for an illegal action; nothing changes.
            InvalidValueError: If the episode is over (call :meth:`reset`), or the action is not an index
                in range.
        """
        if self._done:
            raise InvalidValueError("the episode is over: call reset() first")
        index = as_index(action)
        if not 0 <= index < self.encoding.num_actions:
            raise InvalidValueError(f"action index {index} is out of range 0 to {self.encoding.num_actions - 1}")
        table = self.table
        if not self._no_decision:
            try:
                table.play_as(self.seat, self.encoding.decode(index, table.state))  # the learner's decisions only
            except IllegalActionError:
                if self.illegal_action == "raise":
                    raise
                self._done = True
                info = self._info()
                info["illegal"] = True
                return self._observation(), self.illegal_reward, True, False, info
            table.advance()
        outcome = table.outcome()
        terminated = outcome is not None
        truncated = table.truncated
        reward = self.game.returns(table.state)[self.seat] if outcome is not None else 0.0
        if self.margin:
            now = self._lead_in(table.state)
            reward += self.margin * (now - self._lead)
            self._lead = now
        self._done = terminated or truncated
        self._show()
        return self._observation(), reward, terminated, truncated, self._info()

    def _show(self) -> None:
        if self.render_mode == "human":
            print(self.game.board_text(self.table.state), file=sys.stdout, flush=True)

    def render(self) -> str | None:
        """The table as text under ``"ansi"``; printed under ``"human"`` (then None); None without a mode."""
        if self.render_mode == "ansi":
            return self.game.board_text(self.table.state)
        self._show()
        return None


CheekyMonkeySoloEnv = SoloEnv
"""The name :class:`SoloEnv` had before it played any game; the same class."""


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (the package's ``gymnasium.envs`` entry point calls this)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="cheekymonkey.rl.gymnasium_env:SoloEnv",
            vector_entry_point="cheekymonkey.rl.gymnasium_vector:SoloVectorEnv",
        )


register()
