"""A game as a PettingZoo AEC environment (the ``rl`` extra: ``pip install 'cheekymonkey[rl]'``).

Every seat is an agent, ``player_0`` to ``player_{n-1}``, acting in turn. Each game is played at a
:class:`~cheekymonkey.table.Table` whose seats are all agents: the table resolves the draws, with random
streams seeded from ``reset(seed=...)``, so an agent only ever sees decisions. :func:`env` gives the
environment wrapped in PettingZoo's ``OrderEnforcingWrapper`` (the usual way to build one: it refuses a
``step`` before ``reset``); :func:`raw_env` gives it bare.

- **Observations** are dicts of ``observation`` (the game's observation vector of the chosen kind, from the
  agent's own seat: it is seat 0 of its observation; for *Cheeky Monkey* :mod:`~cheekymonkey.cheeky.encoding`,
  for *Too Many Monkeys* :mod:`~cheekymonkey.toomany.encoding`, full by default, as float32: whole numbers, or
  with ``scaled=True`` each entry divided by its bound, in [0, 1]) and ``action_mask`` (int8, one entry per
  action index, all 0 for an agent whose turn it is not). One policy can play every agent.
- **Actions** are action indices, counted from the agent who acts. One that is not legal raises
  :class:`~cheekymonkey.IllegalActionError` (an index out of range, :class:`~cheekymonkey.InvalidValueError`),
  and the environment is unchanged.
- **Rewards** are 0 until the game ends, then every agent's return at once: 1 for a sole winner, ``1/k``
  each for ``k`` sharing, 0 otherwise; with ``margin``, a shaping term on each agent's point margin (see
  :mod:`~cheekymonkey.rl.episodes`).
- **Truncation** by the table's limits, ``max_turns`` and ``max_steps``: every agent is truncated, with no
  outcome reward (see :mod:`~cheekymonkey.rl.episodes`).
- **A game that ends before anybody's first decision** (a tiny limit) is still the game played: ``reset``
  reports an ordinary start (PettingZoo's own checks require no agent to be finished after ``reset``) with
  an all-0 mask for every agent and ``infos[agent]["no_decision"] = True``; the next ``step``, whatever
  action (or None) the selected agent gives, plays nothing and finishes every agent as the game ended
  (see :mod:`~cheekymonkey.rl.episodes`).
- **Rendering**: ``render_mode="ansi"`` makes :meth:`~GameEnv.render` return the game's text board;
  ``"human"`` prints it after every step.

>>> aec = env(players=3, render_mode="ansi")
>>> aec.reset(seed=42)
>>> aec.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = aec.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()[:3]
((1335,), [1, 1, 1])
"""

from __future__ import annotations

import random
import sys
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.pettingzoo_env needs PettingZoo, Gymnasium and numpy: pip install 'cheekymonkey[rl]'"
    ) from error

from cheekymonkey.encoding import as_index
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import DEFAULT_GAME, AnyGame
from cheekymonkey.rl._arrays import Observations
from cheekymonkey.rl.episodes import (
    DEFAULT_MAX_STEPS,
    NO_DECISION,
    check_limits,
    check_margin,
    check_scaled,
    lead,
    learnable_game,
    ruleset_of,
)
from cheekymonkey.table import Seat, Table

__all__ = ["DEFAULT_MAX_DECISIONS", "CheekyMonkeyEnv", "GameEnv", "env", "raw_env"]

DEFAULT_MAX_DECISIONS = DEFAULT_MAX_STEPS
"""Deprecated: the environments share :data:`~cheekymonkey.rl.episodes.DEFAULT_MAX_STEPS`."""


class GameEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships without types
    """The AEC environment: one agent per seat.

    Args:
        players: The number of seats.
        ruleset: The rules (the game's rule set, or a preset's name); the standard game if omitted.
        observation: The observation kind (the game's default if omitted; ``"full"`` or ``"table"`` for
            *Cheeky Monkey*).
        render_mode: ``"ansi"`` for a text board from :meth:`render`, ``"human"`` to print it, or None.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game after this many actions, chance outcomes included.
        margin: The coefficient of the point-margin shaping term (0: rewards are the game's returns only).
        game: The game played: a name (``"cheeky-monkey"``) or a :class:`~cheekymonkey.game.Game`.
        max_decisions: Deprecated: the old limit, now read as ``max_turns``.
        scaled: Observe each entry divided by its bound, in [0, 1], instead of whole numbers.

    Raises:
        InvalidValueError: If an argument is out of range.
    """

    metadata = {"name": "cheeky_monkey_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012 (PettingZoo's attribute)

    def __init__(
        self,
        players: int = 2,
        ruleset: Any = None,
        observation: str | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        margin: float = 0.0,
        game: str | AnyGame = DEFAULT_GAME,
        max_decisions: int | None = None,
        scaled: bool = False,
    ) -> None:
        super().__init__()
        self.game: AnyGame = learnable_game(game)
        """The game played."""
        ruleset = ruleset_of(self.game, ruleset)
        self.encoding = self.game.encoding(players, ruleset, observation)
        """The game's action indices and observations for this many seats."""
        self.ruleset: Any = self.game.ruleset_of(self.game.new_game(players, ruleset))
        """The rules."""
        if render_mode not in (None, "ansi", "human"):
            raise InvalidValueError(f"render_mode must be 'ansi', 'human' or None, got {render_mode!r}")
        self.max_turns, self.max_steps = check_limits(max_turns, max_steps, max_decisions)
        self.margin = check_margin(margin)
        """The coefficient of the point-margin shaping term."""
        self.metadata = {**type(self).metadata, "name": f"{self.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.scaled = check_scaled(scaled)
        """Whether observations are scaled into [0, 1] by their bounds."""
        self._observations = Observations(self.encoding, self.scaled)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box = gymnasium.spaces.Box(
            low=0.0,
            high=self._observations.high,
            shape=(self.encoding.observation_size,),
            dtype=np.float32,
        )
        mask = gymnasium.spaces.Box(low=0, high=1, shape=(self.encoding.num_actions,), dtype=np.int8)
        self._observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: gymnasium.spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self.table: Table[Any, Any, Any, Any, Any] = self._new_table()
        """The table of the game now."""
        self._leads = [0.0] * players
        self._no_decision = False
        self.agents: list[str] = []

    def _new_table(self, seed: int | None = None) -> Table[Any, Any, Any, Any, Any]:
        return Table(
            self.game,
            [Seat.person(agent) for agent in self.possible_agents],
            ruleset=self.ruleset,
            seed=self._seeds.getrandbits(63) if seed is None else seed,
            max_turns=self.max_turns,
            max_steps=self.max_steps,
            events=False,
        )

    @property
    def game_state(self) -> Any:
        """The game's state now."""
        return self.table.state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent``: the same object every time."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: the action indices, the same object every time."""
        return self._action_spaces[agent]

    def _all_leads(self, state: Any) -> list[float]:
        if not self.margin:
            return [0.0] * len(self.possible_agents)
        points = self.encoding.points(state)
        return [lead(points, seat) for seat in range(len(points))]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        With ``seed``, the game is the one a :class:`~cheekymonkey.table.Table` seeded with ``seed`` plays (the
        same draws), and later games without a seed draw theirs from a stream ``seed`` starts; without one
        the environment's stream goes on.

        If the game ends before anybody's first decision, every agent's mask is all 0 and its info says
        ``no_decision``; the next :meth:`step` finishes the agents as the game ended.
        """
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table = self._new_table(seed)
        self.table.advance()
        self._leads = self._all_leads(self.table.history[0])
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._no_decision = self.table.finished  # over or cut off before anybody decided
        self.infos: dict[str, dict[str, Any]] = {agent: {NO_DECISION: self._no_decision} for agent in self.agents}
        mover = self.table.to_move
        self.agent_selection = self.possible_agents[0 if mover is None else mover]
        self._skip_agent_selection = None

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` observes now, and its action mask (all 0 unless it is to act)."""
        seat = self._seats[agent]
        state = self.table.state
        observation = self._observations(state, seat)
        if self.table.to_move == seat:
            mask = np.array(self.encoding.action_mask(state), np.int8)
        else:
            mask = np.zeros(self.encoding.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the acting agent's action index; a finished agent must step with None.

        In a game that ended before anybody's first decision, the first step plays nothing, whatever its
        action (an index in range, or None), and finishes every agent as the game ended.

        Raises:
            IllegalActionError: If the action is not legal now; nothing changes.
            InvalidValueError: If the action is not an index in range.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None and not self._no_decision:
            raise InvalidValueError(f"{agent} is still playing: None is the action of a finished agent only")
        if action is not None:
            index = as_index(action)
            if not 0 <= index < self.encoding.num_actions:
                raise InvalidValueError(f"action index {index} is out of range 0 to {self.encoding.num_actions - 1}")
        table = self.table
        if not self._no_decision:
            # The table plays nothing if the action is illegal or not the agent's own decision (never a chance
            # outcome): IllegalActionError, and nothing has changed.
            table.play_as(self.possible_agents.index(agent), self.encoding.decode(index, table.state))
            table.advance()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        outcome = table.outcome()
        if outcome is not None:
            for seat, value in enumerate(self.game.returns(table.state)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif table.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if self.margin:
            leads = self._all_leads(table.state)
            for seat, (before, now) in enumerate(zip(self._leads, leads, strict=True)):
                self.rewards[self.possible_agents[seat]] += self.margin * (now - before)
            self._leads = leads
        mover = table.to_move
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text under ``"ansi"``; printed under ``"human"`` (then None); None without a mode."""
        board = self.game.board_text(self.table.state)
        if self.render_mode == "ansi":
            return board
        if self.render_mode == "human":
            print(board, file=sys.stdout, flush=True)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""


CheekyMonkeyEnv = GameEnv
"""The name :class:`GameEnv` had before it played any game; the same class."""


def raw_env(**kwargs: Any) -> GameEnv:
    """A new :class:`GameEnv`, not wrapped (keyword arguments as there)."""
    return GameEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """A new :class:`GameEnv` in PettingZoo's ``OrderEnforcingWrapper``, the PettingZoo way of building one.

    The wrapper raises PettingZoo's own error for a ``step``, ``observe`` or ``last`` before ``reset``, and
    passes every other attribute through (``game_state``, ``table``).
    """
    return OrderEnforcingWrapper(GameEnv(**kwargs))
