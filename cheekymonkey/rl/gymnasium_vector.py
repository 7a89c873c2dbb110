"""A game as a Gymnasium vector environment on its batched engine (the ``rl`` and ``batched`` extras).

:class:`SoloVectorEnv` is :class:`~cheekymonkey.rl.gymnasium_env.SoloEnv` for ``num_envs`` games at once: the
learner in one seat of each, the other seats played inside by batched opponents, every game stepped
by the game's batched engine (:mod:`cheekymonkey.batched`) rather than a :class:`~cheekymonkey.table.Table`.
It is what ``gymnasium.make_vec`` builds for the registered id (``vectorization_mode`` left at its default,
the id's ``vector_entry_point``)::

    envs = gymnasium.make_vec("cheekymonkey/Solo-v0", num_envs=1024, players=2, opponents="random")

What it shares with ``SoloEnv``: the observation (the game's vector of the chosen kind, as float32, whole numbers
or ``scaled`` into [0, 1] by the bounds, bit for bit the same), the action indices, the legal actions in
``info["action_mask"]`` and :meth:`~SoloVectorEnv.action_masks`, the reward (the learner's return at the end,
0 before), the limits (``max_turns``, ``max_steps``, the Table's rule) and the rule for a game that ends
before the learner's first decision (two beats: its start with ``info["no_decision"]``, then its end at the
next step, whatever action it is given). A step whose action is ignored (that one, and the step that deals a
new game after an end) has a mask with every action allowed, so no mask is ever all False.

Each step that ends an episode carries its statistics in ``info`` as Gymnasium's ``RecordEpisodeStatistics``
wrapper gives them: ``info["episode"] = {"r": returns, "l": lengths, "t": seconds}`` and the mask
``info["_episode"]`` of the games whose episode ended (so do not wrap it in that wrapper too: it refuses the
key it would add). The seat is drawn per episode unless ``seat``
is given, and ``info["seat"]`` says which it is.

What differs: the games are the batched engine's (its own random streams, seeded from ``reset(seed=...)``),
so the same seed deals other games than ``SoloEnv``'s; the opponents are only the bots the game's batched
engine plays (its :attr:`~cheekymonkey.batched.BatchedGame.bots`: the random bot, and *Cheeky Monkey*'s
heuristic and expectimax bots); there is no ``margin`` shaping term and no rendering; an illegal action ends the episode
as a loss with ``illegal_reward`` (``info["illegal"]``), as under ``SoloEnv``'s default, or raises with
``illegal_action="raise"``. Autoreset is Gymnasium's ``NEXT_STEP``: the step after an episode's end
deals the next game in that slot (flags False, reward 0), whatever action it is given.

>>> import numpy as np
>>> envs = SoloVectorEnv(4, players=3, seat=0, max_turns=50)
>>> observations, infos = envs.reset(seed=5)
>>> observations.shape, infos["action_mask"].shape, envs.action_space
((4, 1335), (4, 17), MultiDiscrete([17 17 17 17]))
>>> streams = np.random.default_rng(0)
>>> ends = 0
>>> for _ in range(200):
...     actions = [streams.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in envs.action_masks()]
...     observations, rewards, terminated, truncated, infos = envs.step(np.array(actions))
...     ends += int((terminated | truncated).sum())
>>> ends > 0
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final, Literal

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:
    raise ImportError(
        "cheekymonkey.rl.gymnasium_vector needs Gymnasium and numpy: pip install 'cheekymonkey[rl,batched]'"
    ) from error

from cheekymonkey.batched import BatchedGame, BatchState, engine_class, random_legal_actions, seed_streams
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import DEFAULT_GAME, AnyGame
from cheekymonkey.rl._arrays import Observations
from cheekymonkey.rl.episodes import (
    DEFAULT_MAX_STEPS,
    NO_DECISION,
    check_limits,
    check_scaled,
    default_opponent,
    game_of,
    observation_divisors,
    ruleset_of,
)

__all__ = ["SoloVectorEnv"]

# What each slot waits for: the learner's action, a new game (its last episode ended), or the end of an episode
# that had no decision (its game ended before the learner's first one), reported at this step.
_PLAYING: Final = 0
_ENDED: Final = 1
_PENDING: Final = 2

Observations2D = npt.NDArray[np.float32]


class SoloVectorEnv(VectorEnv[Observations2D, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games, the learner in one seat of each, batched bots in the others, stepped as arrays.

    Args:
        num_envs: The number of games played side by side.
        players: The number of seats.
        seat: The learner's seat in every game, or None (the default) for a seat drawn per episode.
        opponents: A bot's name for every other seat, or one name per other seat, the first sitting just after
            the learner and so on round the table: the bots the game's batched engine plays (its
            :attr:`~cheekymonkey.batched.BatchedGame.bots`; ``"heuristic"`` and ``"expectimax"`` too in *Cheeky
            Monkey*). None (the default): :func:`~cheekymonkey.rl.episodes.default_opponent` among them, the
            heuristic bot where it has a batched form (*Cheeky Monkey*), as ``SoloEnv`` seats it.
        ruleset: The rules (the game's rule set, or a preset's name); the standard game if omitted.
        observation: The observation kind (the game's default if omitted).
        illegal_action: ``"lose"`` (the default: the episode ends with ``illegal_reward``) or ``"raise"``.
        illegal_reward: The reward for an illegal action under ``"lose"``.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game after this many actions, chance outcomes and opponents' moves included.
        game: The game played, by name or as a :class:`~cheekymonkey.game.Game`: one with a batched engine.
        scaled: Observe each entry divided by its bound, in [0, 1], instead of whole numbers.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind, the game has no batched
            engine, or an opponent has no batched form in it.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        seat: int | None = None,
        opponents: str | Sequence[str] | None = None,
        ruleset: Any = None,
        observation: str | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
        max_turns: int | None = None,
        max_steps: int | None = DEFAULT_MAX_STEPS,
        game: str | AnyGame = DEFAULT_GAME,
        scaled: bool = False,
    ) -> None:
        if not is_whole_number(num_envs) or num_envs < 1:
            raise InvalidValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.game: AnyGame = game_of(game)
        """The game played."""
        max_turns, max_steps = check_limits(max_turns, max_steps)
        engine_type = engine_class(self.game.name)
        self.engine: BatchedGame[Any, Any, Any] = engine_type(
            players, ruleset_of(self.game, ruleset), max_turns=max_turns, max_steps=max_steps, observation=observation
        )
        """The batched engine that plays the games."""
        if seat is not None and (not is_whole_number(seat) or not 0 <= seat < players):
            raise InvalidValueError(f"seat {seat!r} is not one of the {players} seats, nor None")
        batched = self.engine.bots
        if opponents is None:
            opponents = default_opponent(self.game, batched)
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1 or any(not isinstance(name, str) or name not in batched for name in names):
            raise InvalidValueError(
                f"opponents must be one of {batched} or {players - 1} of them, one per other seat, "
                f"got {opponents!r} (only these bots have a batched form for {self.game.title})"
            )
        self.opponents: tuple[str, ...] = tuple(names)
        """The bot in each other seat, the first sitting just after the learner and so on round the table."""
        if illegal_action not in ("lose", "raise"):
            raise InvalidValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.scaled = check_scaled(scaled)
        """Whether observations are scaled into [0, 1] by their bounds."""
        self.players = players
        """The number of seats."""
        self.fixed_seat = seat
        """The learner's seat if fixed, or None for a seat drawn each episode."""
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.num_envs = num_envs
        observations = Observations(self.engine.encoding, self.scaled)
        divisors = observation_divisors(self.engine.encoding)
        self._divisors = np.array(divisors, np.float32) if self.scaled else None
        self.single_observation_space = gymnasium.spaces.Box(
            low=0.0, high=observations.high, shape=(self.engine.observation_size,), dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.seats: npt.NDArray[np.int64] = np.zeros(num_envs, np.int64)
        """The learner's seat in each game now."""
        self._states: BatchState | None = None
        self._opponent_streams = np.zeros(num_envs, np.uint64)
        self._status = np.full(num_envs, _ENDED, np.int8)
        self._pending_reward = np.zeros(num_envs, np.float32)
        self._pending_terminated = np.zeros(num_envs, np.bool_)
        self._pending_truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._episode_returns = np.zeros(num_envs, np.float64)
        self._episode_lengths = np.zeros(num_envs, np.int64)
        self._episode_starts = np.full(num_envs, time.perf_counter())

    @property
    def states(self) -> BatchState:
        """The batched engine's games now (after :meth:`reset`)."""
        if self._states is None:
            raise InvalidValueError("the environment has no games yet: call reset() first")
        return self._states

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations2D, dict[str, Any]]:
        """Deal ``num_envs`` new games, pick the learner's seats, and play to each learner's first decision.

        With ``seed``, the games, the opponents' moves and the seats are the same on every run.
        """
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**62, size=2)
        self._states = self.engine.init(self.num_envs, int(draws[0]))
        self._opponent_streams = seed_streams(int(draws[1]), self.num_envs)
        self._draw_seats(np.ones(self.num_envs, np.bool_))
        self._illegal[:] = False
        dealt = np.ones(self.num_envs, np.bool_)
        self._play_opponents(dealt)
        self._settle(dealt, np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, np.bool_))
        self._episode_returns[:] = 0.0
        self._episode_lengths[:] = 0
        self._episode_starts[:] = time.perf_counter()
        return self._observe(), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observations2D, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Play each learner's action index, then chance and the opponents up to each learner's next decision.

        Where the last step ended an episode, a new game is dealt instead (NEXT_STEP autoreset); where the last
        step dealt a game with no decision for the learner, its end is returned. Their actions are ignored.

        Raises:
            IllegalActionError: Under ``illegal_action="raise"``, for an illegal action; nothing changes.
            InvalidValueError: Before :meth:`reset`, or if ``actions`` is not one index in range per game.
        """
        states = self.states
        moves = np.asarray(actions)
        n = self.num_envs
        if moves.shape != (n,) or moves.dtype.kind not in "iu":
            raise InvalidValueError(f"actions must be {n} integers, one per game")
        if moves.size and (moves.min() < 0 or moves.max() >= self.engine.num_actions):
            raise InvalidValueError(f"an action index is out of range 0 to {self.engine.num_actions - 1}")
        moves = moves.astype(np.int64)
        playing = self._status == _PLAYING
        legal = states.legal_action_mask[np.arange(n), moves]
        illegal = playing & ~legal
        if illegal.any() and self.illegal_action == "raise":
            bad = int(np.flatnonzero(illegal)[0])
            self.engine.step(states, moves, where=illegal)  # raises, naming the game, and changes nothing
            raise AssertionError(f"game {bad}: an illegal action was played")  # pragma: no cover
        ended = self._status == _ENDED
        pending = self._status == _PENDING
        rewards = np.zeros(n, np.float32)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        # The episodes with no decision end now, as their game did; an illegal action ends its episode as a loss.
        rewards[pending] = self._pending_reward[pending]
        terminated[pending] = self._pending_terminated[pending]
        truncated[pending] = self._pending_truncated[pending]
        self._status[pending] = _ENDED
        self._illegal[:] = illegal
        rewards[illegal] = self.illegal_reward
        terminated[illegal] = True
        self._status[illegal] = _ENDED
        # The learners' legal actions are played, and new games dealt where the last episode ended.
        acting = (playing & legal) | ended
        if ended.any():
            self._abandon(states, ended)
            self._draw_seats(ended)
        self.engine.step(states, moves, where=acting)
        self._play_opponents(acting)
        self._settle(acting & ended, rewards, terminated)
        over = acting & ~ended & (states.terminated | states.truncated)
        rewards[over] = states.rewards[over, self.seats[over]]
        terminated[over] = states.terminated[over]
        truncated[over] = states.truncated[over]
        self._status[over] = _ENDED
        info = self._info()
        self._record_episodes(ended, rewards, terminated | truncated, info)
        return self._observe(), rewards, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which action indices the learner may give each game now (B x num_actions bools, never all False).

        Where the learner decides, its legal actions. Where the next step ignores the action (it deals a new
        game after an end, or reports the end of an episode with no decision), every action: any is
        accepted, so a masked policy never meets an all-False row (its logits would all be minus infinity).
        """
        states = self.states
        waiting = self._status == _PLAYING
        mask: npt.NDArray[np.bool_] = states.legal_action_mask | ~waiting[:, None]
        return mask

    def _record_episodes(
        self,
        dealt: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float32],
        done: npt.NDArray[np.bool_],
        info: dict[str, Any],
    ) -> None:
        """Count each episode's return, length and time, and add them to ``info`` where an episode ended.

        As Gymnasium's ``RecordEpisodeStatistics`` under NEXT_STEP autoreset: the step that deals a new game
        starts the count afresh and is not counted; every other step adds its reward and 1 to the length.
        """
        now = time.perf_counter()
        counting = ~dealt
        self._episode_returns[dealt] = 0.0
        self._episode_lengths[dealt] = 0
        self._episode_starts[dealt] = now
        self._episode_returns[counting] += rewards[counting]
        self._episode_lengths[counting] += 1
        if done.any():
            info["episode"] = {
                "r": np.where(done, self._episode_returns, 0.0),
                "l": np.where(done, self._episode_lengths, 0),
                "t": np.where(done, np.round(now - self._episode_starts, 6), 0.0),
            }
            info["_episode"] = done.copy()

    def _draw_seats(self, where: npt.NDArray[np.bool_]) -> None:
        if self.fixed_seat is not None:
            self.seats[where] = self.fixed_seat
        else:
            self.seats[where] = self.np_random.integers(0, self.players, size=int(where.sum()))

    def _abandon(self, states: BatchState, where: npt.NDArray[np.bool_]) -> None:
        # A game left unfinished (an illegal action ended its episode) is marked cut off, so the engine's next
        # step in it deals a new game, as after any end.
        unfinished = where & ~(states.terminated | states.truncated | states.no_decision)
        if unfinished.any():
            states.truncated[unfinished] = True

    def _play_opponents(self, where: npt.NDArray[np.bool_]) -> None:
        """Step the games of ``where`` with the opponents' moves until each awaits its learner or has ended."""
        states = self.states
        while True:
            moving = (
                where
                & ~(states.terminated | states.truncated)
                & (states.no_decision | ((states.current_player >= 0) & (states.current_player != self.seats)))
            )
            if not moving.any():
                return
            # The opponent sitting k seats after the learner is opponents[k - 1] (the learner's rows: any).
            choice = np.maximum((states.current_player - self.seats) % self.players - 1, 0)
            mask = self.engine.mixed_bot_mask(states, self.opponents, choice)
            moves = random_legal_actions(mask, self._opponent_streams)
            self.engine.step(states, moves, where=moving)

    def _settle(
        self, dealt: npt.NDArray[np.bool_], rewards: npt.NDArray[np.float32], terminated: npt.NDArray[np.bool_]
    ) -> None:
        """Sort the games just dealt: the learner's first decision awaited, or an episode with no decision."""
        states = self.states
        finished = states.terminated | states.truncated
        self._status[dealt & ~finished] = _PLAYING
        none = dealt & finished
        if none.any():
            self._status[none] = _PENDING
            self._pending_reward[none] = states.rewards[none, self.seats[none]]
            self._pending_terminated[none] = states.terminated[none]
            self._pending_truncated[none] = states.truncated[none]
        rewards[dealt] = 0.0
        terminated[dealt] = False

    def _observe(self) -> Observations2D:
        out = self.engine.observation(self.states, self.seats)
        if self._divisors is not None:
            np.divide(out, self._divisors, out=out)
        return out

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks().astype(np.int8),
            "seat": self.seats.copy(),
            NO_DECISION: self._status == _PENDING,
            "illegal": self._illegal.copy(),
        }
