"""Simulation at scale: many seeded games between bots, on one core, a process pool, or a Dask or Ray cluster.

:func:`simulate` plays ``games`` games and sums them up in a :class:`Summary`: win rates with 95% Wilson
intervals, mean scores, game lengths and each bot's score distribution. Game ``i`` uses seed ``seed + i``
and moves the bots ``i`` seats round the table, so every bot sits in every seat equally often (the first
seat has an edge).

The games are cut into blocks of consecutive games. Each block is one task: it plays its games and sends
back a :class:`BlockResult`, whole-number counts only (wins in sixtieths, score and length histograms), so
what travels and what is kept stays small however many games are played. Adding whole numbers does not
depend on their order, so the summary is the same, bit for bit, whatever runs the blocks, in whatever
order, in blocks of whatever size.

What runs the blocks:

- nothing given: this process, one block after another;
- ``workers=N``: a local pool of ``N`` processes, started again if one of its processes dies (its blocks
  are played again, and no block is counted twice);
- ``executor=``: any :class:`concurrent.futures.Executor` (a process or thread pool, Dask's
  ``Client(...).get_executor()``, :class:`RayExecutor`), or a ``distributed.Client`` itself.

>>> summary = simulate(["heuristic", "random"], 20, seed=0)
>>> summary.games, [line.name for line in summary.bots], summary.partial
(20, ['heuristic', 'random'], False)
>>> summary == simulate(["heuristic", "random"], 20, seed=0, block_size=3)
True
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from cheekymonkey.actions import Action
from cheekymonkey.bots import BOTS, bot_named
from cheekymonkey.errors import CheekyMonkeyError, InvalidGameError, InvalidValueError
from cheekymonkey.play import Bot, play_game
from cheekymonkey.rules import Ruleset
from cheekymonkey.state import GameState, Phase

__all__ = [
    "WIN_UNITS",
    "Block",
    "BlockResult",
    "BotSummary",
    "GameFailedError",
    "Histogram",
    "RayExecutor",
    "SimulationError",
    "SimulationProgress",
    "Summary",
    "play_block",
    "plot_summary",
    "simulate",
    "wilson_interval",
]

WIN_UNITS = 60
"""A whole win in the block counts: 60, the least common multiple of 1 to 6.

A win shared by ``k`` winners (R18) is ``60 // k`` units for each, a whole number for any table of 2 to 6,
so wins add up exactly, in any order.
"""

_RETRIES = 3  # how often a lost block is played again (a dead local pool started again) before giving up


# ---------------------------------------------------------------------------------------------------------
# Errors


class GameFailedError(CheekyMonkeyError, RuntimeError):
    """A game of a simulation raised: a bot (or the engine) failed inside a worker.

    It names the game and its seed, so the game can be played again alone with
    ``play_game(bots, seed=seed)``, bots in the seat order given. It holds only text and numbers, so it
    pickles across processes and clusters.

    Attributes:
        game: The game's number in the run (it used seed ``seed + game``).
        seed: The game's seed.
        seats: The bots in seat order, as labelled in the summary.
        error_type: The name of the exception's class.
        message: The exception's message.
        details: The traceback, as text, from the process that played the game.
    """

    def __init__(
        self, game: int, seed: int, seats: tuple[str, ...], error_type: str, message: str, details: str = ""
    ) -> None:
        super().__init__(
            f"game {game} (seed {seed}, seats: {', '.join(seats)}) failed: {error_type}: {message}".rstrip(": ")
        )
        self.game = game
        self.seed = seed
        self.seats = seats
        self.error_type = error_type
        self.message = message
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its fields: the default would call __init__ with the formatted message alone.
        return (type(self), (self.game, self.seed, self.seats, self.error_type, self.message, self.details))


class SimulationError(CheekyMonkeyError, RuntimeError):
    """The backend lost blocks it could not play again (a broken pool, a cluster that gave up).

    Attributes:
        reason: What went wrong, in words.
        summary: The blocks finished before it, summed up and marked partial (None if none finished).
    """

    def __init__(self, reason: str, summary: Summary | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.summary = summary

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.summary))


# ---------------------------------------------------------------------------------------------------------
# The summary


@attrs.frozen(slots=True)
class Histogram:
    """How often each whole-number value occurred: compact, exact, and quick to merge or draw.

    >>> h = Histogram(((3, 2), (5, 1)))
    >>> h.total, round(h.mean, 3), h.values, h.counts
    (3, 3.667, (3, 5), (2, 1))
    """

    pairs: tuple[tuple[int, int], ...]
    """``(value, count)`` pairs in increasing order of value, every count positive."""

    @classmethod
    def of(cls, counts: Counter[int] | dict[int, int]) -> Histogram:
        """The histogram of a mapping from value to count (zero counts left out)."""
        return cls(tuple((value, count) for value, count in sorted(counts.items()) if count))

    @property
    def values(self) -> tuple[int, ...]:
        """The values that occurred, in increasing order."""
        return tuple(value for value, _ in self.pairs)

    @property
    def counts(self) -> tuple[int, ...]:
        """How often each of :attr:`values` occurred."""
        return tuple(count for _, count in self.pairs)

    @property
    def total(self) -> int:
        """How many values were counted."""
        return sum(count for _, count in self.pairs)

    @property
    def mean(self) -> float:
        """The mean value (0.0 if empty)."""
        total = self.total
        return sum(value * count for value, count in self.pairs) / total if total else 0.0


@attrs.frozen(slots=True)
class BotSummary:
    """One bot's line in a :class:`Summary`."""

    name: str
    """The bot's label (its kind, numbered by its place in the list if the same kind plays twice)."""
    wins: float
    """Games won, a win shared by ``k`` counting ``1/k``."""
    win_rate: float
    """Wins per game."""
    low: float
    """The lower end of the 95% Wilson interval of the win rate."""
    high: float
    """The upper end of the 95% Wilson interval of the win rate."""
    mean_score: float
    """The mean final score."""
    scores: Histogram
    """How often it finished with each score."""


@attrs.frozen(slots=True)
class Summary:
    """The results of a simulation: the same for any backend, number of workers or block size."""

    games: int
    """How many games were played and counted."""
    bots: tuple[BotSummary, ...]
    """One line per bot at the table, in the order given (bots repeated round a larger table included)."""
    mean_actions: float
    """The mean number of actions per game, chance outcomes included."""
    mean_turns: float
    """The mean number of turns per game."""
    requested: int
    """How many games were asked for."""
    partial: bool
    """True if the run was stopped (Ctrl-C) before every block finished: only finished blocks are counted."""
    seed: int
    """Game ``i`` used seed ``seed + i``."""
    ruleset: str
    """The name of the rule set played."""
    players: int
    """The number of seats."""
    seat_win_rates: tuple[float, ...]
    """Wins per game by seat, whoever sat there: the first seat's edge shows here."""
    turns: Histogram
    """How many games took each number of turns."""
    completed: tuple[tuple[int, int], ...]
    """The games counted, as ``(start, stop)`` ranges of game numbers: ``((0, games),)`` for a whole run."""

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain dicts, lists, numbers and strings, for :func:`json.dumps`.

        Each histogram becomes ``{"values": [...], "counts": [...]}``.
        """

        def plain(instance: object, attribute: object, value: object) -> object:
            if isinstance(value, Histogram):
                return {"values": list(value.values), "counts": list(value.counts)}
            return value

        return attrs.asdict(self, value_serializer=plain)


@attrs.frozen(slots=True)
class SimulationProgress:
    """How far a running simulation has got: passed to the ``progress`` callback after each block."""

    games_done: int
    """Games finished so far."""
    games: int
    """Games asked for."""
    blocks_done: int
    """Blocks finished so far."""
    blocks: int
    """Blocks in the run."""
    elapsed: float
    """Seconds since the run started."""

    @property
    def rate(self) -> float:
        """Games per second so far (0.0 before the first block)."""
        return self.games_done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        """Seconds left at the rate so far (None before the first block)."""
        rate = self.rate
        return (self.games - self.games_done) / rate if rate > 0 else None


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% with the default ``z``); ``(0, 1)`` for no trials.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------------------------------------
# One block: the task a worker runs


@attrs.frozen(slots=True)
class Block:
    """One task: games ``start`` to ``stop - 1`` of a run, everything a worker needs to play them."""

    bots: tuple[str | Bot, ...]
    """One entry per line of the summary: a bot name (a fresh bot each game) or a picklable bot."""
    labels: tuple[str, ...]
    """The bots' labels, for error messages."""
    ruleset: Ruleset
    """The rules."""
    seed: int
    """The run's seed: game ``i`` uses ``seed + i``."""
    start: int
    """The first game's number."""
    stop: int
    """One past the last game's number."""
    max_actions: int | None = 1_000_000
    """Give up on a game after this many actions (a bot that never stops breaks R22)."""


@attrs.frozen(slots=True)
class BlockResult:
    """What a block sends back: whole-number counts only, so merging is exact and order-free."""

    start: int
    """The block's first game."""
    stop: int
    """One past its last game."""
    win_units: tuple[int, ...]
    """Per bot line, wins in :data:`WIN_UNITS` per game."""
    seat_win_units: tuple[int, ...]
    """Per seat, wins in :data:`WIN_UNITS` per game."""
    scores: tuple[tuple[tuple[int, int], ...], ...]
    """Per bot line, ``(score, games)`` pairs."""
    actions: int
    """Actions played in all its games."""
    turns: tuple[tuple[int, int], ...]
    """``(turns, games)`` pairs."""


def _make_bot(entry: str | Bot) -> Bot:
    return bot_named(entry) if isinstance(entry, str) else entry


def play_block(block: Block) -> BlockResult:
    """Play one block's games and count them; the function each worker runs.

    Raises:
        GameFailedError: If a game raises, naming the game and its seed.
    """
    n = len(block.bots)
    win_units = [0] * n
    seat_win_units = [0] * n
    scores: list[Counter[int]] = [Counter() for _ in range(n)]
    turn_counts: Counter[int] = Counter()
    actions = 0
    chance = Phase.CHANCE
    turns = 0

    def count_turns(state: GameState, action: Action) -> None:
        nonlocal turns
        if state.phase is chance and not state.front:
            turns += 1  # R4: every turn opens with its compulsory draw

    for game in range(block.start, block.stop):
        # Seat s holds line (s + game) % n, so over n games each line sits in each seat once.
        order = [(s + game) % n for s in range(n)]
        game_seed = block.seed + game
        turns = 0
        try:
            played = play_game(
                [_make_bot(block.bots[line]) for line in order],
                ruleset=block.ruleset,
                seed=game_seed,
                on_action=count_turns,
                max_actions=block.max_actions,
            )
            sheet = played.score
        except Exception as error:
            raise GameFailedError(
                game,
                game_seed,
                tuple(block.labels[line] for line in order),
                type(error).__qualname__,
                str(error),
                traceback.format_exc(),
            ) from error
        share = WIN_UNITS // len(sheet.winners)  # R18: a shared win is split evenly
        for seat, line in enumerate(order):
            scores[line][sheet.seats[seat].total] += 1
            if seat in sheet.winners:
                win_units[line] += share
                seat_win_units[seat] += share
        actions += len(played.record.actions)
        turn_counts[turns] += 1
    return BlockResult(
        block.start,
        block.stop,
        tuple(win_units),
        tuple(seat_win_units),
        tuple(Histogram.of(c).pairs for c in scores),
        actions,
        Histogram.of(turn_counts).pairs,
    )


class _Tally:
    """The running sums of finished blocks (whole numbers only)."""

    def __init__(self, lines: int) -> None:
        self.games = 0
        self.win_units = [0] * lines
        self.seat_win_units = [0] * lines
        self.scores: list[Counter[int]] = [Counter() for _ in range(lines)]
        self.actions = 0
        self.turns: Counter[int] = Counter()
        self.ranges: list[tuple[int, int]] = []
        self.blocks = 0  # how many of ranges are committed

    def add(self, result: BlockResult) -> None:
        win_units = [a + b for a, b in zip(self.win_units, result.win_units, strict=True)]
        seat_win_units = [a + b for a, b in zip(self.seat_win_units, result.seat_win_units, strict=True)]
        scores = [counter + Counter(dict(pairs)) for counter, pairs in zip(self.scores, result.scores, strict=True)]
        turns = self.turns + Counter(dict(result.turns))
        del self.ranges[self.blocks :]
        self.ranges.append((result.start, result.stop))
        # One statement commits the whole block: CPython runs a Ctrl-C handler at calls and loop turns, never
        # between these stores, so an interrupted run counts a block entirely or not at all.
        self.games, self.win_units, self.seat_win_units, self.scores, self.actions, self.turns, self.blocks = (
            self.games + result.stop - result.start,
            win_units,
            seat_win_units,
            scores,
            self.actions + result.actions,
            turns,
            self.blocks + 1,
        )

    def completed(self) -> tuple[tuple[int, int], ...]:
        merged: list[tuple[int, int]] = []
        for start, stop in sorted(self.ranges[: self.blocks]):
            if merged and merged[-1][1] == start:
                merged[-1] = (merged[-1][0], stop)
            else:
                merged.append((start, stop))
        return tuple(merged)

    def summary(self, labels: Sequence[str], *, requested: int, seed: int, ruleset: Ruleset) -> Summary:
        games = self.games
        lines = []
        for label, units, counter in zip(labels, self.win_units, self.scores, strict=True):
            wins = units / WIN_UNITS
            low, high = wilson_interval(wins, games)
            scores = Histogram.of(counter)
            lines.append(BotSummary(label, wins, wins / games if games else 0.0, low, high, scores.mean, scores))
        turns = Histogram.of(self.turns)
        return Summary(
            games=games,
            bots=tuple(lines),
            mean_actions=self.actions / games if games else 0.0,
            mean_turns=turns.mean,
            requested=requested,
            partial=games < requested,
            seed=seed,
            ruleset=ruleset.name,
            players=len(labels),
            seat_win_rates=tuple(u / WIN_UNITS / games if games else 0.0 for u in self.seat_win_units),
            turns=turns,
            completed=self.completed(),
        )


# ---------------------------------------------------------------------------------------------------------
# Running the blocks


def _ignore_interrupts() -> None:
    # Ctrl-C at a terminal reaches every process of the group: the pool's workers leave it to the parent,
    # which stops the run and keeps the finished blocks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _as_executor(executor: object) -> cf.Executor:
    if isinstance(executor, cf.Executor):
        return executor
    get_executor = getattr(executor, "get_executor", None)
    if callable(get_executor):  # a distributed.Client: tasks are not pure, so every block is its own task
        wrapped = get_executor(pure=False)
        if isinstance(wrapped, cf.Executor):
            return wrapped
    raise InvalidValueError(
        f"executor must be a concurrent.futures.Executor or a distributed.Client, got {type(executor).__name__}"
    )


def _game_failure(error: BaseException) -> GameFailedError | None:
    """The :class:`GameFailedError` inside what a backend raised, rebuilt plain (Ray wraps it in its own class)."""
    for candidate in (error, getattr(error, "cause", None), error.__cause__):
        if isinstance(candidate, GameFailedError):
            return GameFailedError(
                candidate.game,
                candidate.seed,
                candidate.seats,
                candidate.error_type,
                candidate.message,
                candidate.details,
            )
    return None


def _labels(bots: Sequence[str | Bot]) -> tuple[str, ...]:
    names = [bot if isinstance(bot, str) else repr(bot) for bot in bots]
    return tuple(f"{name} {i}" if names.count(name) > 1 else name for i, name in enumerate(names))


def _check_bots(bots: Sequence[str | Bot]) -> tuple[str | Bot, ...]:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidValueError(f"bots must be a sequence of bot names or bots, got {bots!r}")
    entries = tuple(bots)
    if not entries:
        raise InvalidGameError("no bots given: name at least one")
    for entry in entries:
        if isinstance(entry, str):
            if entry not in BOTS:
                raise InvalidValueError(f"no bot named {entry!r}; the bots are {', '.join(BOTS)}")
        elif not isinstance(entry, Bot):
            raise InvalidValueError(f"{entry!r} is neither a bot name nor a bot (it has no choose method)")
    return entries


def _whole(name: str, value: object, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    return value


def _default_block_size(games: int) -> int:
    """The block size used when none is given: about 64 blocks, each of 1 to 500 games."""
    return max(1, min(500, -(-games // 64)))


def simulate(
    bots: Sequence[str | Bot],
    games: int,
    *,
    seed: int = 0,
    ruleset: Ruleset | None = None,
    players: int | None = None,
    executor: cf.Executor | Any | None = None,
    workers: int | None = None,
    block_size: int | None = None,
    progress: Callable[[SimulationProgress], None] | None = None,
    max_actions: int | None = 1_000_000,
    in_flight: int | None = None,
) -> Summary:
    """Play ``games`` seeded games between bots and sum them up.

    Args:
        bots: Bot names (``"heuristic"``: a fresh bot each game) or bots, repeated round the table to fill
            ``players`` seats. Bots sent to other processes must pickle, and their choices must depend
            only on the state and the random stream they are given.
        games: How many games to play.
        seed: Game ``i`` uses seed ``seed + i``, with the bots moved ``i`` seats round the table.
        ruleset: The rules; the standard game if omitted.
        players: The number of seats; if omitted, one per bot given (two if only one is given).
        executor: Runs the blocks: any :class:`concurrent.futures.Executor`, or a ``distributed.Client``.
        workers: Instead of ``executor``, a local pool of this many processes, owned by the call and
            started again if one of its processes dies.
        block_size: Games per block (task); about 64 blocks of at most 500 games if omitted. The summary
            does not depend on it.
        progress: Called with a :class:`SimulationProgress` after each finished block.
        max_actions: Give up on a game that passes this many actions (None: no limit).
        in_flight: The most blocks submitted and not yet finished: ``4 * workers + 4`` for a local pool,
            1024 for an executor. Keep it above the cluster's worker count so that every worker has work.

    Returns:
        The summary. If the run is interrupted (``KeyboardInterrupt``, Ctrl-C), the blocks finished by
        then, with ``partial`` set.

    Raises:
        InvalidValueError: If a bot, a count or the executor is not what it should be.
        InvalidGameError: If the rules cannot seat that many players.
        GameFailedError: If a game raises (a bot's bug, say); the run stops at once.
        SimulationError: If the executor loses blocks it cannot play again.
    """
    entries = _check_bots(bots)
    ruleset = Ruleset.standard() if ruleset is None else ruleset
    if not isinstance(ruleset, Ruleset):
        raise InvalidValueError(f"ruleset must be a Ruleset, got {ruleset!r}")
    games = _whole("games", games, 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidValueError(f"seed must be an integer, got {seed!r}")
    if players is None:
        players = len(entries) if len(entries) > 1 else max(2, ruleset.min_players)
    players = _whole("players", players, 1)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidGameError(
            f"{players} players: the {ruleset.name} rules seat {ruleset.min_players} to {ruleset.max_players} (R3)"
        )
    if len(entries) > players:
        raise InvalidGameError(f"{len(entries)} bots for {players} seats: give at most one bot per seat")
    if in_flight is not None:
        in_flight = _whole("in_flight", in_flight, 1)
    if workers is not None:
        workers = _whole("workers", workers, 1)
        if executor is not None:
            raise InvalidValueError("give workers or an executor, not both")
    pool = None if executor is None else _as_executor(executor)
    size = _default_block_size(games) if block_size is None else _whole("block_size", block_size, 1)
    lines = tuple(entries[i % len(entries)] for i in range(players))
    labels = _labels(lines)
    blocks = [
        Block(lines, labels, ruleset, seed, start, min(games, start + size), max_actions)
        for start in range(0, games, size)
    ]
    tally = _Tally(players)
    started = time.monotonic()
    finished = 0

    def done(result: BlockResult) -> None:
        nonlocal finished
        tally.add(result)
        finished += 1
        if progress is not None:
            progress(SimulationProgress(tally.games, games, finished, len(blocks), time.monotonic() - started))

    def summary() -> Summary:
        return tally.summary(labels, requested=games, seed=seed, ruleset=ruleset)

    try:
        if pool is None and workers is None:
            for block in blocks:
                done(play_block(block))
        else:
            # A bounded window of blocks in flight: enough to keep every worker busy, few enough that stopping
            # cancels little, and memory stays flat however many blocks there are.
            window = in_flight or (4 * workers + 4 if workers is not None else 1024)
            _run_blocks(blocks, pool, workers, window, done, summary)
    except KeyboardInterrupt:
        pass  # Ctrl-C: the finished blocks are the answer, marked partial
    return summary()


def _run_blocks(
    blocks: list[Block],
    executor: cf.Executor | None,
    workers: int | None,
    window: int,
    done: Callable[[BlockResult], None],
    summary: Callable[[], Summary],
) -> None:
    """Run the blocks on ``executor``, or on an owned pool of ``workers`` processes started again if it breaks."""
    owned = executor is None
    restarts = 0

    def new_pool() -> cf.Executor:
        return cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)

    current = new_pool() if executor is None else executor
    waiting = list(range(len(blocks)))[::-1]  # a stack: the next block to submit is at the end
    pending: dict[cf.Future[BlockResult], int] = {}
    failures: dict[int, int] = {}  # block index -> how often it failed without a result
    try:
        while waiting or pending:
            broken = False
            while waiting and len(pending) < window:
                index = waiting.pop()
                try:
                    pending[current.submit(play_block, blocks[index])] = index
                except cf.BrokenExecutor as error:
                    waiting.append(index)
                    if not owned:
                        raise SimulationError(f"the executor is broken: {error}", summary()) from error
                    broken = True
                    break
            finished, _ = cf.wait(list(pending), timeout=0.5, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                problem = cf.CancelledError() if future.cancelled() else future.exception()
                if problem is None:
                    done(future.result())
                    continue
                failure = _game_failure(problem)
                if failure is not None:
                    raise failure
                if owned and isinstance(problem, cf.BrokenExecutor):
                    waiting.append(index)
                    broken = True
                    continue
                # Lost some other way (a cluster that lost the result with its worker, say): the block was not
                # counted, so it can run again, a few times at most.
                failures[index] = failures.get(index, 0) + 1
                if failures[index] <= _RETRIES:
                    waiting.append(index)
                    continue
                block = blocks[index]
                raise SimulationError(
                    f"the block of games {block.start} to {block.stop - 1} failed {failures[index]} times, "
                    f"last with {type(problem).__name__}: {problem}",
                    summary(),
                ) from problem
            if broken:
                # A process of the owned pool died, and every block still in the pool with it. Count those
                # that finished first, then play the rest again in a fresh pool: none lost, none twice.
                restarts += 1
                if restarts > _RETRIES:
                    raise SimulationError(f"the local process pool broke {restarts} times; giving up", summary())
                cf.wait(list(pending))
                for future, index in pending.items():
                    if not future.cancelled() and future.exception() is None:
                        done(future.result())
                    else:
                        waiting.append(index)
                pending.clear()
                waiting.sort(reverse=True)
                current.shutdown(wait=True)
                current = new_pool()
    finally:
        for future in pending:
            future.cancel()
        if owned:
            current.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------------------------------------
# Ray


class RayExecutor(cf.Executor):
    """Runs each call as a Ray task (the ``ray`` extra: ``pip install 'cheekymonkey[ray]'``).

    Starts a local Ray instance, or connects to ``address`` (``"auto"``, ``"ray://host:10001"``), unless
    Ray is already running in this process. A task whose worker dies is played again (``max_retries``
    times); an exception raised by the task itself is not retried. :meth:`shutdown` stops Ray if this
    executor started it, and every task with it. Cancelling a future drops its result but lets the task
    finish: on a cluster this executor joined, tasks already submitted run to their end.

    Args:
        address: The cluster to join; None starts a local instance.
        num_cpus: CPUs for a local instance (all if None).
        max_retries: How often a task lost with its worker runs again.

    Raises:
        ImportError: If Ray is not installed.
    """

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None, max_retries: int = 3) -> None:
        try:
            import ray
        except ImportError as error:
            raise ImportError("RayExecutor needs Ray: install it with pip install 'cheekymonkey[ray]'") from error
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is not None:
                options["address"] = address
            elif num_cpus is not None:
                options["num_cpus"] = num_cpus
            ray.init(**options)
            self._started = True
        self._max_retries = max_retries
        self._remotes: dict[Callable[..., Any], Any] = {}
        self._refs: dict[cf.Future[Any], Any] = {}
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; cancelling its future drops the result."""
        if self._closed:
            raise RuntimeError("cannot submit to a RayExecutor after shutdown")
        remote = self._remotes.get(fn)
        if remote is None:
            remote = self._remotes[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
        ref = remote.remote(*args, **kwargs)
        outer: cf.Future[Any] = cf.Future()
        self._refs[outer] = ref

        def settle(inner: cf.Future[Any]) -> None:
            if not outer.set_running_or_notify_cancel():
                return
            error = inner.exception()
            if error is None:
                outer.set_result(inner.result())
            else:
                outer.set_exception(error)

        # A cancelled future only drops its result: ray.cancel racing a task that is just finishing can abort
        # this process inside Ray (seen with Ray 2.60: "Tried to complete task that was not pending"). The
        # tasks of a Ray instance this executor started end with it, in shutdown.
        outer.add_done_callback(lambda future: self._refs.pop(future, None))
        ref.future().add_done_callback(settle)
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel (if asked) or wait for the tasks in flight, then stop Ray if this executor started it."""
        self._closed = True
        refs = list(self._refs.items())
        if cancel_futures:
            for future, _ in refs:
                future.cancel()
        elif wait and refs:
            cf.wait([future for future, _ in refs])
        if self._started:
            self._ray.shutdown()
            self._started = False


# ---------------------------------------------------------------------------------------------------------
# Plot


def plot_summary(summary: Summary, path: str | Path, *, bin_width: int = 5) -> None:
    """Draw the win rates with their intervals and each bot's score distribution to an image file.

    Needs the ``plot`` extra (matplotlib): ``pip install 'cheekymonkey[plot]'``. Drawn off screen (Agg);
    the file's suffix picks the format (``.png``, ``.svg``, ``.pdf``).

    Args:
        summary: What to draw.
        path: Where to write the image.
        bin_width: Scores are grouped in bins this wide.

    Raises:
        ImportError: If matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError("plot_summary needs matplotlib: install it with pip install 'cheekymonkey[plot]'") from error
    bin_width = _whole("bin_width", bin_width, 1)
    figure, (rates, scores) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    names = [line.name for line in summary.bots]
    rows = list(range(len(names)))[::-1]  # the first bot on top
    centres = [line.win_rate for line in summary.bots]
    below = [line.win_rate - line.low for line in summary.bots]
    above = [line.high - line.win_rate for line in summary.bots]
    rates.barh(rows, centres, color="#9ecae1", height=0.6)
    rates.errorbar(centres, rows, xerr=[below, above], fmt="o", color="#08306b", capsize=5)
    for row, line in zip(rows, summary.bots, strict=True):
        rates.annotate(f"{line.win_rate:.1%}", (line.high, row), xytext=(6, 0), textcoords="offset points", va="center")
    rates.set_yticks(rows, names)
    rates.set_xlim(0, 1.1)
    rates.set_xlabel("win rate, with its 95% Wilson interval")
    rates.set_title("Win rates")
    for line in summary.bots:
        binned: Counter[int] = Counter()
        for value, count in line.scores.pairs:
            binned[value // bin_width * bin_width] += count
        edges = sorted(binned)
        if not edges:
            continue
        left = list(range(edges[0], edges[-1] + bin_width, bin_width))
        heights = [binned[x] / summary.games for x in left]
        scores.stairs(heights, [*left, left[-1] + bin_width], label=f"{line.name} (mean {line.mean_score:.1f})")
    scores.set_xlabel(f"final score (bins of {bin_width})")
    scores.set_ylabel("share of games")
    scores.set_title("Score distribution")
    if summary.bots:
        scores.legend()
    state = "partial: " if summary.partial else ""
    figure.suptitle(
        f"{state}{summary.games} games, {summary.ruleset} rules, {summary.players} players, seeds {summary.seed} and up"
    )
    figure.savefig(path, dpi=110)
    plt.close(figure)
