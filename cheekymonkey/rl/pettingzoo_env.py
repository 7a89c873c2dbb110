"""*Cheeky Monkey* as a PettingZoo AEC environment (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

Every seat is an agent, ``player_0`` to ``player_{n-1}``, acting in turn. The draws are resolved inside
the environment with its own random stream, seeded by ``reset(seed=...)``, so an agent only ever sees
decisions.

- **Observations** are dicts of ``observation`` (the :mod:`~cheekymonkey.rl.observations` vector of the
  chosen kind, full by default, as float32) and ``action_mask`` (int8, one entry per action index of
  :class:`~cheekymonkey.rl.ActionCodec`, all 0 for an agent whose turn it is not).
- **Actions** are those indices. One that is not legal raises :class:`~cheekymonkey.IllegalActionError`
  (an index out of range, :class:`~cheekymonkey.InvalidValueError`), and the environment is unchanged.
- **Rewards** are 0 until the game ends, then :func:`~cheekymonkey.rl.returns` for every agent at once:
  1 for a sole winner, ``1/k`` each for ``k`` sharing, 0 otherwise.
- **Truncation**: the rules set no turn limit (R22), so after ``max_decisions`` decisions every agent is
  truncated (rewards 0). Random play takes about 100.
- **Rendering**: ``render_mode="ansi"`` makes :meth:`~CheekyMonkeyEnv.render` return a text board.

>>> env = CheekyMonkeyEnv(players=3, render_mode="ansi")
>>> env.reset(seed=42)
>>> env.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()[:3]
((1335,), [1, 1, 1])
"""

from __future__ import annotations

import random
from typing import Any, Final

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from pettingzoo import AECEnv
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.pettingzoo_env needs PettingZoo, Gymnasium and numpy: pip install 'cheekymonkey[rl]'"
    ) from error

from cheekymonkey.engine import apply, sample_chance
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rl._arrays import to_array
from cheekymonkey.rl._text import board_text
from cheekymonkey.rl.encoding import ActionCodec
from cheekymonkey.rl.observations import DEFAULT_OBSERVATION, observation_layout, observe
from cheekymonkey.rl.rewards import returns
from cheekymonkey.rules import Ruleset
from cheekymonkey.state import GameState, Phase, new_game

__all__ = ["DEFAULT_MAX_DECISIONS", "CheekyMonkeyEnv", "env"]

DEFAULT_MAX_DECISIONS: Final = 5000
"""How many decisions a game may take before every agent is truncated (the rules have no limit, R22)."""


class CheekyMonkeyEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships without types
    """The AEC environment: one agent per seat.

    Args:
        players: The number of seats.
        ruleset: The rules; the standard game if omitted.
        observation: ``"full"`` (the default) or ``"table"``.
        render_mode: ``"ansi"`` for a text board from :meth:`render`, or None.
        max_decisions: Truncate a game after this many decisions.

    Raises:
        InvalidValueError: If an argument is out of range.
    """

    metadata = {"name": "cheeky_monkey_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012 (PettingZoo's attribute)

    def __init__(
        self,
        players: int = 2,
        ruleset: Ruleset | None = None,
        observation: str = DEFAULT_OBSERVATION,
        render_mode: str | None = None,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
    ) -> None:
        super().__init__()
        self._layout = observation_layout(observation, players, ruleset)
        if render_mode not in (None, "ansi"):
            raise InvalidValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
            raise InvalidValueError(f"max_decisions must be a positive integer, got {max_decisions!r}")
        self.render_mode = render_mode
        self.ruleset: Ruleset = self._layout.ruleset
        """The rules."""
        self.codec = ActionCodec(players)
        """The action indices."""
        self.max_decisions = max_decisions
        self._bound = max(self._layout.bounds)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box = gymnasium.spaces.Box(
            low=0.0, high=np.array(self._layout.bounds, np.float32), shape=(self._layout.size,), dtype=np.float32
        )
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.codec.num_actions,), dtype=np.int8)
        self._observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: gymnasium.spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self._state = new_game(players, ruleset=self.ruleset)
        self._decisions = 0
        self.agents: list[str] = []

    @property
    def game_state(self) -> GameState:
        """The engine's state of the game in progress."""
        return self._state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent``: the same object every time."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: the action indices, the same object every time."""
        return self._action_spaces[agent]

    def _resolve_chance(self) -> None:
        state = self._state
        rng = self._rng
        while state.phase is Phase.CHANCE:
            state = apply(state, sample_chance(state, rng))
        self._state = state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the draws (without it the random stream goes on)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._state = new_game(len(self.possible_agents), ruleset=self.ruleset)
        self._decisions = 0
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state.seat]
        self._skip_agent_selection = None

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` observes now, and its action mask (all 0 unless it is to act)."""
        seat = self._seats[agent]
        state = self._state
        observation = to_array(observe(state, seat, self._layout.kind), self._bound, np.float32)
        acting = state.phase is not Phase.OVER and state.seat == seat and not self.terminations.get(agent, True)
        if acting and not self.truncations.get(agent, False):
            mask = np.array(self.codec.action_mask(state), np.int8)
        else:
            mask = np.zeros(self.codec.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the acting agent's action index; a finished agent must step with None.

        Raises:
            IllegalActionError: If the action is not legal now; nothing changes.
            InvalidValueError: If the action is not an index in range.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidValueError(f"{agent} is still playing: None is the action of a finished agent only")
        chosen = self.codec.decode(action)
        # apply raises IllegalActionError for an illegal index, before anything here has changed.
        self._state = apply(self._state, chosen)
        self._decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._resolve_chance()
        state = self._state
        if state.phase is Phase.OVER:
            for seat, value in enumerate(returns(state)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._decisions >= self.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[state.seat]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text when ``render_mode`` is ``"ansi"``; None without a render mode."""
        if self.render_mode != "ansi":
            return None
        return board_text(self._state)

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""


def env(**kwargs: Any) -> CheekyMonkeyEnv:
    """A new :class:`CheekyMonkeyEnv`, the PettingZoo way of building one (keyword arguments as there)."""
    return CheekyMonkeyEnv(**kwargs)
