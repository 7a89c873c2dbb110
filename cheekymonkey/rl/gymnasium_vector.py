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

from cheekymonkey.base import bot_aliases
from cheekymonkey.batched import (
    BatchedGame,
    BatchState,
    draw_below,
    draw_choice,
    engine_class,
    jit,
    random_legal_actions,
    seed_streams,
)
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
        aliases = bot_aliases(self.game)  # a second name ("strongest") sits as the bot it names
        names = [aliases.get(name, name) if isinstance(name, str) else name for name in names]
        if len(names) != players - 1 or any(not isinstance(name, str) or name not in batched for name in names):
            raise InvalidValueError(
                f"opponents must be one of {batched} or {players - 1} of them, one per other seat, "
                f"got {opponents!r} (only these bots have a batched form for {self.game.title})"
            )
        self.opponents: tuple[str, ...] = tuple(names)
        """The bot in each other seat, the first sitting just after the learner and so on round the table (an
        alias given, such as ``"strongest"``, as the bot it names)."""
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
        self._games = np.arange(num_envs)
        self._moves = np.zeros(num_envs, np.int64)
        self._moved = np.zeros(num_envs, np.int64)
        distinct = set(self.opponents)
        self._one_bot = distinct.pop() if len(distinct) == 1 else None
        # An engine whose kernel steps chosen games in place is stepped so; another's games are gathered.
        self._in_place = type(self.engine)._advance_where is not BatchedGame._advance_where
        # Random bots whose choices are the legal actions (the engine leaves none out): drawn straight from the
        # legal mask, in the same compiled pass that finds the games to move.
        self._legal_bots = (
            self._one_bot == "random" and type(self.engine)._random_bot_mask is BatchedGame._random_bot_mask
        )
        self.moves_played = 0
        """Decisions played in the games since the last :meth:`reset`, the learner's and the opponents'."""

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

        With ``options={"reset_mask": mask}`` (``num_envs`` bools, as Gymnasium's vector environments take it),
        only the games where ``mask`` is True are dealt anew, each to its learner's first decision (a game left
        unfinished is abandoned); the others are left exactly as they are, and the observations and ``info``
        of every game are returned. A step that ends an episode can so be followed at once by its next game,
        as a library that resets in the same step expects (:mod:`cheekymonkey.rl.sb3` does this).

        Raises:
            InvalidValueError: If ``reset_mask`` is not ``num_envs`` bools with at least one True, or comes
                with a seed or before the first reset.
        """
        if options is not None and "reset_mask" in options:
            return self._reset_some(options["reset_mask"], seed)
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**62, size=2)
        self._states = self.engine.init(self.num_envs, int(draws[0]))
        self._opponent_streams = seed_streams(int(draws[1]), self.num_envs)
        self._draw_seats(np.ones(self.num_envs, np.bool_))
        self._illegal[:] = False
        self.moves_played = 0
        dealt = np.ones(self.num_envs, np.bool_)
        self._play_opponents(dealt)
        self._settle(dealt, np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, np.bool_))
        self._episode_returns[:] = 0.0
        self._episode_lengths[:] = 0
        self._episode_starts[:] = time.perf_counter()
        return self._observe(), self._info()

    def _reset_some(self, mask: Any, seed: int | None) -> tuple[Observations2D, dict[str, Any]]:
        """Deal new games where ``mask`` is True, to each learner's first decision (``reset_mask``)."""
        n = self.num_envs
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (n,) or not mask.any():
            raise InvalidValueError(f"options['reset_mask'] must be a numpy array of {n} bools, one True at least")
        if seed is not None:
            raise InvalidValueError("a seed deals every game anew: give it without options['reset_mask']")
        states = self.states
        where = mask.copy()
        self._abandon(states, where)
        self._draw_seats(where)
        self._illegal[where] = False
        # Every game of ``where`` is finished now, so the engine's step deals a new one there (the action unplayed).
        self.engine.step(states, np.zeros(n, np.int64), where=where)
        self._play_opponents(where)
        self._settle(where, np.zeros(n, np.float32), np.zeros(n, np.bool_))
        self._episode_returns[where] = 0.0
        self._episode_lengths[where] = 0
        self._episode_starts[where] = time.perf_counter()
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
        legal = states.legal_action_mask[self._games, moves]
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
        played = playing & legal
        self.moves_played += int(np.count_nonzero(played))
        acting = played | ended
        if ended.any():
            self._abandon(states, ended)
            self._draw_seats(ended)
        # Legal actions and games to deal only (the illegal ones were refused or ended above): no checks again.
        self.engine._advance_where(states, moves, acting)
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
        """Step the games of ``where`` with the opponents' moves until each awaits its learner or has ended.

        Each round of moves draws once from every game's opponent stream where the bot would have a choice
        (all the games of the batch, as if each had a move to make), so each stream, and with it every game,
        comes out the same however the others go. An engine that steps chosen games in place (its own
        ``_advance_where``) is stepped where an opponent is to move; another's games to move are gathered into
        a smaller batch that shrinks as each reaches its learner or its end, and the games that waited are
        given their draws at the end.
        """
        states = self.states
        going = np.empty(self.num_envs, np.bool_)
        # Each count of decisions is of the round about to be played.
        moving, decisions = _to_move(
            states.terminated, states.truncated, states.no_decision, states.current_player, self.seats, where, going
        )
        if moving == 0:
            return
        self.moves_played += decisions
        if self._in_place:
            self._play_in_place(states, going)
        else:
            self._play_gathered(states, going)

    def _bot_masks(self, states: BatchState, seats: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Each game's choices of its bot to move: the opponent k seats after the learner is ``opponents[k - 1]``."""
        if self._one_bot == "random":  # the engine's own states, checked once by reset: no check each round
            return self.engine._random_bot_mask(states)
        if self._one_bot is not None:
            return self.engine.bot_mask(states, self._one_bot)
        choice = np.maximum((states.current_player - seats) % self.players - 1, 0)
        return self.engine.mixed_bot_mask(states, self.opponents, choice)

    def _play_in_place(self, states: BatchState, going: npt.NDArray[np.bool_]) -> None:
        engine, seats, streams, moves, moved = self.engine, self.seats, self._opponent_streams, self._moves, self._moved
        moved[:] = 0
        rounds = 0
        if self._legal_bots:
            _draw_where(states.legal_action_mask, streams, going, moves, moved)
            while True:
                rounds += 1
                engine._advance_where(states, moves, going)
                moving, decisions = _to_move_and_draw(
                    states.terminated, states.truncated, states.no_decision, states.current_player, seats,
                    states.legal_action_mask, streams, going, moves, moved,
                )  # fmt: skip
                self.moves_played += decisions
                if moving == 0:
                    break
            _skip_draws(streams, states.legal_action_mask, rounds - moved)
            return
        while True:
            rounds += 1
            _draw_where(self._bot_masks(states, seats), streams, going, moves, moved)
            # The bots' moves are legal by construction: the engine's kernel is called without step's checks.
            engine._advance_where(states, moves, going)
            moving, decisions = _to_move(
                states.terminated, states.truncated, states.no_decision, states.current_player, seats, going, going
            )
            self.moves_played += decisions
            if moving == 0:
                break
        # Each game that waited for a round drew once from its stream all the same, among its bot's choices now.
        _skip_draws(streams, self._bot_masks(states, seats), rounds - moved)

    def _play_gathered(self, states: BatchState, going: npt.NDArray[np.bool_]) -> None:
        engine, n = self.engine, self.num_envs
        rows = np.flatnonzero(going)
        everything = rows.size == n
        batch = states if everything else _take(states, rows)
        seats = self.seats if everything else self.seats[rows]
        streams = self._opponent_streams if everything else self._opponent_streams[rows]
        moves = np.zeros(rows.size, np.int64)
        rounds = 0
        moved = np.zeros(n, np.int64)
        while True:
            rounds += 1
            moved[rows] += 1
            random_legal_actions(self._bot_masks(batch, seats), streams, moves)
            engine._advance(batch, moves)
            still = np.empty(rows.size, np.bool_)
            moving, decisions = _to_move(
                batch.terminated, batch.truncated, batch.no_decision, batch.current_player, seats, _EVERY, still
            )
            self.moves_played += decisions
            if moving == rows.size:
                continue
            stopped = ~still
            if batch is not states:
                _put(states, rows[stopped], batch, stopped)
                self._opponent_streams[rows[stopped]] = streams[stopped]
            if moving == 0:
                break
            rows, seats, streams, moves = rows[still], seats[still], streams[still], moves[still]
            batch = _take(batch, still)
        # Each game that waited for a round drew once from its stream all the same, among its bot's choices now.
        _skip_draws(self._opponent_streams, self._bot_masks(states, self.seats), rounds - moved)

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
        # A new array each step, not zeroed first: an engine's observation writes every entry of ``out``.
        out: Observations2D = np.empty((self.num_envs, self.engine.observation_size), np.float32)
        self.engine.observation(self.states, self.seats, out=out)
        if self._divisors is not None:
            np.divide(out, self._divisors, out=out)
        return out

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks().view(np.int8),  # a new array each time: its bytes as int8
            "seat": self.seats.copy(),
            NO_DECISION: self._status == _PENDING,
            "illegal": self._illegal.copy(),
        }


def _take(states: BatchState, rows: npt.NDArray[Any]) -> BatchState:
    """A batch of the games ``rows`` of ``states`` (indices or a mask), copied."""
    return type(states)({name: array[rows] for name, array in states.arrays().items()})


def _put(states: BatchState, rows: npt.NDArray[np.int64], batch: BatchState, chosen: npt.NDArray[np.bool_]) -> None:
    """Write the games ``chosen`` of ``batch`` back into ``states`` at ``rows``."""
    width = batch.outcomes.shape[1]
    if width > states.outcomes.shape[1]:  # a step in the smaller batch widened it
        states.widen_outcomes(width)
    for name, array in batch.arrays().items():
        target = getattr(states, name)
        if name == "outcomes" and target.shape[1] > width:
            target[rows] = 0
            target[rows, :width] = array[chosen]
        else:
            target[rows] = array[chosen]


_EVERY: Final = np.zeros(0, np.bool_)


@jit
def _to_move(
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
    no_decision: npt.NDArray[np.bool_],
    current: npt.NDArray[np.int32],
    seats: npt.NDArray[np.int64],
    among: npt.NDArray[np.bool_],
    out: npt.NDArray[np.bool_],
) -> tuple[int, int]:
    """Mark in ``out`` the games of ``among`` (all if it is empty) that an opponent steps next.

    Returns how many there are, and how many of them are decisions: the others are games with no decision,
    whose end the step reports.
    """
    every = among.shape[0] == 0
    moving = 0
    decisions = 0
    for i in range(out.shape[0]):
        go = (every or among[i]) and not (terminated[i] or truncated[i])
        go = go and (no_decision[i] or (current[i] >= 0 and current[i] != seats[i]))
        out[i] = go
        if go:
            moving += 1
            if current[i] >= 0:
                decisions += 1
    return moving, decisions


@jit
def _to_move_and_draw(
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
    no_decision: npt.NDArray[np.bool_],
    current: npt.NDArray[np.int32],
    seats: npt.NDArray[np.int64],
    mask: npt.NDArray[np.bool_],
    streams: npt.NDArray[np.uint64],
    going: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
    moved: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """:func:`_to_move` among ``going`` (in place), then :func:`_draw_where` for the games still going, in one pass."""
    moving = 0
    decisions = 0
    for i in range(going.shape[0]):
        if not going[i]:
            continue
        go = not (terminated[i] or truncated[i])
        go = go and (no_decision[i] or (current[i] >= 0 and current[i] != seats[i]))
        going[i] = go
        if not go:
            continue
        moving += 1
        if current[i] >= 0:
            decisions += 1
        moved[i] += 1
        out[i] = draw_choice(mask, streams, i)
    return moving, decisions


@jit
def _draw_where(
    mask: npt.NDArray[np.bool_],
    streams: npt.NDArray[np.uint64],
    going: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
    moved: npt.NDArray[np.int64],
) -> None:
    """For each game of ``going``: one of its choices in ``mask`` drawn from its stream (0 if none), counted."""
    for b in range(mask.shape[0]):
        if going[b]:
            moved[b] += 1
            out[b] = draw_choice(mask, streams, b)


@jit
def _skip_draws(streams: npt.NDArray[np.uint64], mask: npt.NDArray[np.bool_], times: npt.NDArray[np.int64]) -> None:
    """Advance each stream by ``times[i]`` uniform draws among the choices of row ``i`` of ``mask`` (none if 0 or 1)."""
    for i in range(streams.shape[0]):
        if times[i] == 0:
            continue
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a]
        state = streams[i]
        for _ in range(times[i]):
            state, _pick = draw_below(state, count)
        streams[i] = state
