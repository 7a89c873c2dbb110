"""*Cheeky Monkey* as a single-agent Gymnasium environment (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

The learner takes one seat; the library's bots (:mod:`cheekymonkey.bots`, or any
:class:`~cheekymonkey.Bot`) play the others, and the draws are resolved inside the environment. Both use
random streams drawn from the environment's ``np_random``, so ``reset(seed=...)`` makes an episode
repeatable.

- **Observations** are the :mod:`~cheekymonkey.rl.observations` vector of the chosen kind (full by
  default) as float32. The legal actions come as ``info["action_mask"]`` (int8, one entry per action
  index of :class:`~cheekymonkey.rl.ActionCodec`) and from :meth:`~CheekyMonkeySoloEnv.action_masks`,
  the method masked learners such as sb3-contrib's ``MaskablePPO`` call.
- **Actions** are those indices. An illegal one ends the episode as a loss with reward
  ``illegal_reward`` (-1 by default) and ``info["illegal"] = True``, so unmasked learners and
  Gymnasium's checker can sample freely; with ``illegal_action="raise"`` it raises
  :class:`~cheekymonkey.IllegalActionError` instead and changes nothing.
- **Reward** is 0 until the game ends, then the learner's :func:`~cheekymonkey.rl.returns`: 1 for a
  sole win, ``1/k`` for a win shared by ``k``, 0 for a loss.
- **Truncation** after ``max_decisions`` of the learner's decisions (the rules have no limit, R22).
- **Rendering**: ``render_mode="ansi"`` makes :meth:`~CheekyMonkeySoloEnv.render` return a text board.

A small rule set may end before the learner's first decision (an opponent can empty a tiny bag); then
``reset`` deals again, up to 1,000 times.

>>> from cheekymonkey import HeuristicBot
>>> env = CheekyMonkeySoloEnv(players=2, seat=1, opponents=[HeuristicBot()])
>>> observation, info = env.reset(seed=3)
>>> observation.shape, info["action_mask"][:3].tolist()
((900,), [1, 1, 1])
"""

from __future__ import annotations

import random
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

from cheekymonkey.bots import HeuristicBot
from cheekymonkey.engine import apply, sample_chance
from cheekymonkey.errors import IllegalActionError, InvalidGameError, InvalidValueError
from cheekymonkey.play import Bot
from cheekymonkey.rl._arrays import to_array
from cheekymonkey.rl._text import board_text
from cheekymonkey.rl.encoding import ActionCodec
from cheekymonkey.rl.observations import DEFAULT_OBSERVATION, observation_layout, observe
from cheekymonkey.rl.rewards import returns
from cheekymonkey.rules import Ruleset
from cheekymonkey.state import GameState, Phase, new_game

__all__ = ["ENV_ID", "CheekyMonkeySoloEnv"]

ENV_ID: Final = "cheekymonkey/Solo-v0"
"""The id the environment is registered under with Gymnasium: ``gymnasium.make(ENV_ID, players=3)``."""

_MAX_DEALS: Final = 1000

Observation = npt.NDArray[np.float32]


class CheekyMonkeySoloEnv(gymnasium.Env[Observation, np.int64]):
    """The learner in ``seat`` against ``opponents``, one bot for each other seat in seat order.

    Args:
        players: The number of seats.
        seat: The learner's seat.
        opponents: The bots in the other seats, in seat order; a :class:`~cheekymonkey.HeuristicBot`
            in each if omitted.
        ruleset: The rules; the standard game if omitted.
        observation: ``"full"`` (the default) or ``"table"``.
        render_mode: ``"ansi"`` for a text board from :meth:`render`, or None.
        illegal_action: ``"lose"`` (the default: end the episode with ``illegal_reward``) or ``"raise"``.
        illegal_reward: The reward for an illegal action under ``"lose"``.
        max_decisions: Truncate an episode after this many of the learner's decisions.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        players: int = 2,
        seat: int = 0,
        opponents: Sequence[Bot] | None = None,
        ruleset: Ruleset | None = None,
        observation: str = DEFAULT_OBSERVATION,
        render_mode: str | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
        max_decisions: int = 1000,
    ) -> None:
        self._layout = observation_layout(observation, players, ruleset)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidValueError(f"seat {seat!r} is not one of the {players} seats")
        if opponents is None:
            opponents = [HeuristicBot() for _ in range(players - 1)]
        opponents = list(opponents)
        if len(opponents) != players - 1 or not all(isinstance(bot, Bot) for bot in opponents):
            raise InvalidValueError(f"opponents must be {players - 1} bots, one per other seat, got {opponents!r}")
        if render_mode not in (None, "ansi"):
            raise InvalidValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        if illegal_action not in ("lose", "raise"):
            raise InvalidValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
            raise InvalidValueError(f"max_decisions must be a positive integer, got {max_decisions!r}")
        self.render_mode = render_mode
        self.ruleset: Ruleset = self._layout.ruleset
        """The rules."""
        self.seat = seat
        """The learner's seat."""
        self.codec = ActionCodec(players)
        """The action indices."""
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_decisions = max_decisions
        self._bots: dict[int, Bot] = dict(zip([s for s in range(players) if s != seat], opponents, strict=True))
        self._bound = max(self._layout.bounds)
        self.observation_space = gymnasium.spaces.Box(
            low=0.0, high=np.array(self._layout.bounds, np.float32), shape=(self._layout.size,), dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.codec.num_actions)
        self._chance_rng = random.Random()
        self._bot_rng = random.Random()
        self._state = new_game(players, ruleset=self.ruleset)
        self._decisions = 0
        self._done = True

    @property
    def game_state(self) -> GameState:
        """The engine's state of the game in progress."""
        return self._state

    def _advance(self) -> None:
        # Resolve draws and let the bots play until the learner decides or the game ends.
        state = self._state
        learner = self.seat
        while state.phase is not Phase.OVER:
            if state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, self._chance_rng))
            elif state.seat == learner:
                break
            else:
                state = apply(state, self._bots[state.seat].choose(state, self._bot_rng))
        self._state = state

    def _observation(self) -> Observation:
        return to_array(observe(self._state, self.seat, self._layout.kind), self._bound, np.float32)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which action indices are legal for the learner now, as bools (all False once the episode is over)."""
        if self._done:
            return np.zeros(self.codec.num_actions, np.bool_)
        return np.array(self.codec.action_mask(self._state), np.bool_)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play it to the learner's first decision."""
        super().reset(seed=seed)
        self._chance_rng = random.Random(int(self.np_random.integers(2**63)))
        self._bot_rng = random.Random(int(self.np_random.integers(2**63)))
        for _ in range(_MAX_DEALS):
            self._state = new_game(len(self._bots) + 1, ruleset=self.ruleset)
            self._advance()
            if self._state.phase is not Phase.OVER:
                break
        else:
            raise InvalidGameError(f"{_MAX_DEALS} games in a row ended before seat {self.seat} had a decision")
        self._decisions = 0
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's action index, then play the bots and the draws to the learner's next decision.

        Raises:
            IllegalActionError: Under ``illegal_action="raise"``, for an illegal action; nothing changes.
            InvalidValueError: If the episode is over (call :meth:`reset`), or the action is not an index
                in range.
        """
        if self._done:
            raise InvalidValueError("the episode is over: call reset() first")
        chosen = self.codec.decode(action)
        try:
            self._state = apply(self._state, chosen)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self._decisions += 1
        self._advance()
        reward = 0.0
        terminated = truncated = False
        if self._state.phase is Phase.OVER:
            reward = returns(self._state)[self.seat]
            terminated = True
        elif self._decisions >= self.max_decisions:
            truncated = True
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The table as text when ``render_mode`` is ``"ansi"``; None without a render mode."""
        if self.render_mode != "ansi":
            return None
        return board_text(self._state)


gymnasium.register(id=ENV_ID, entry_point="cheekymonkey.rl.gymnasium_env:CheekyMonkeySoloEnv")
