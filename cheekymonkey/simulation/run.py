"""Running a simulation: the games cut into blocks, the blocks run, the results summed up."""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable, Sequence
from typing import Any

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.simulation._arguments import check_bots, check_tables, labels, whole
from cheekymonkey.simulation._tally import Tally
from cheekymonkey.simulation.backends import as_executor, run_blocks
from cheekymonkey.simulation.blocks import Block, BlockResult, play_block
from cheekymonkey.simulation.policies import Entry
from cheekymonkey.simulation.summary import SimulationProgress, Summary

__all__ = ["simulate"]


def _default_block_size(games: int) -> int:
    """The block size used when none is given: about 64 blocks, each of 1 to 500 games."""
    return max(1, min(500, -(-games // 64)))


def simulate(
    bots: Sequence[Entry],
    games: int,
    *,
    seed: int = 0,
    ruleset: Any | None = None,
    players: int | None = None,
    executor: cf.Executor | Any | None = None,
    workers: int | None = None,
    block_size: int | None = None,
    progress: Callable[[SimulationProgress], None] | None = None,
    max_actions: int | None = 1_000_000,
    in_flight: int | None = None,
    max_turns: int | None = None,
    game: Game[Any, Any, Any, Any, Any] | str = DEFAULT_GAME,
) -> Summary:
    """Play ``games`` seeded games between bots and sum them up.

    Each game is played on a :class:`~cheekymonkey.Table` (:func:`~cheekymonkey.simulation.play_block`). A game
    that reaches ``max_actions`` or ``max_turns`` is cut off: it is *truncated*, counted in
    :attr:`Summary.truncated <cheekymonkey.simulation.Summary.truncated>` and not as a result.

    Args:
        bots: Bot names (``"heuristic"``: a fresh bot each game), bots, policies (callables from an
            observation and an action mask to an action index, played by a
            :class:`~cheekymonkey.simulation.PolicyBot` that gives them the game's default observation as
            numpy arrays; wrap one yourself for other options), or policies' weights files
            (``"policy:PATH"`` or a :class:`pathlib.Path`: :func:`~cheekymonkey.simulation.load_policy`),
            repeated round the table to fill ``players`` seats. Bots and policies sent to other processes
            must pickle, and their choices must depend only on the state and the random stream they are given.
        games: How many games to play.
        seed: Game ``i`` uses seed ``seed + i``, with the bots moved ``i`` seats round the table.
        ruleset: The rules, one of ``game``'s rule sets; its standard game if omitted.
        players: The number of seats; if omitted, one per bot given (two if only one is given).
        executor: Runs the blocks: any :class:`concurrent.futures.Executor`, or a ``distributed.Client``.
        workers: Instead of ``executor``, a local pool of this many processes, owned by the call and
            started again if one of its processes dies.
        block_size: Games per block (task); about 64 blocks of at most 500 games if omitted. The summary
            does not depend on it.
        progress: Called with a :class:`SimulationProgress` after each finished block.
        max_actions: Cut a game off once it has played this many actions, chance outcomes included
            (None: no limit). A game whose bots cannot stall it (every bot of the library) ends long before.
        in_flight: The most blocks submitted and not yet finished: ``4 * workers + 4`` for a local pool,
            1024 for an executor. Keep it above the cluster's worker count so that every worker has work.
        max_turns: Cut a game off when a turn past this many would begin (None: no limit).
        game: The game played: a :class:`~cheekymonkey.game.Game` or its name
            (:func:`~cheekymonkey.games.game_named`); the default game
            (:data:`~cheekymonkey.games.DEFAULT_GAME`) if omitted. Bots given by name are ``game``'s
            (:meth:`~cheekymonkey.Game.bot_named`).

    Returns:
        The summary. If the run is interrupted (``KeyboardInterrupt``, Ctrl-C), the blocks finished by
        then, with ``partial`` set.

    Raises:
        InvalidValueError: If a bot, a count, a limit, the rule set, the game or the executor is not what it
            should be, or a weights file cannot be read or does not fit the table.
        InvalidGameError: If the rules cannot seat that many players.
        GameFailedError: If a game raises (a bot's bug, say); the run stops at once.
        SimulationError: If the executor loses blocks it cannot play again.
    """
    played = _game(game)
    entries = check_bots(bots, played)
    ruleset = played.ruleset() if ruleset is None else ruleset
    low, _ = played.seat_range(ruleset)  # refuses what is not one of the game's rule sets
    games = whole("games", games, 0)
    if not is_whole_number(seed):
        raise InvalidValueError(f"seed must be an integer, got {seed!r}")
    if players is None:
        players = len(entries) if len(entries) > 1 else max(2, low)
    players = whole("players", players, 1)
    played.new_game(players, ruleset)  # the rules' own seat-count check: InvalidGameError if it fails
    if len(entries) > players:
        raise InvalidGameError(f"{len(entries)} bots for {players} seats: give at most one bot per seat")
    check_tables(entries, players, ruleset, played)
    if max_actions is not None:
        max_actions = whole("max_actions", max_actions, 1)
    if max_turns is not None:
        max_turns = whole("max_turns", max_turns, 1)
    if in_flight is not None:
        in_flight = whole("in_flight", in_flight, 1)
    if workers is not None:
        workers = whole("workers", workers, 1)
        if executor is not None:
            raise InvalidValueError("give workers or an executor, not both")
    pool = None if executor is None else as_executor(executor)
    size = _default_block_size(games) if block_size is None else whole("block_size", block_size, 1)
    lines = tuple(entries[i % len(entries)] for i in range(players))
    names = labels(lines)
    blocks = [
        Block(lines, names, ruleset, seed, start, min(games, start + size), max_actions, max_turns, played)
        for start in range(0, games, size)
    ]
    tally = Tally(players)
    started = time.monotonic()
    finished = 0

    def done(result: BlockResult) -> None:
        nonlocal finished
        tally.add(result)
        finished += 1
        if progress is not None:
            progress(SimulationProgress(tally.played, games, finished, len(blocks), time.monotonic() - started))

    def summary() -> Summary:
        return tally.summary(names, requested=games, seed=seed, ruleset=played.ruleset_name(ruleset))

    try:
        if pool is None and workers is None:
            for block in blocks:
                done(play_block(block))
        else:
            # A bounded window of blocks in flight: enough to keep every worker busy, few enough that stopping
            # cancels little, and memory stays flat however many blocks there are.
            window = in_flight or (4 * workers + 4 if workers is not None else 1024)
            run_blocks(blocks, pool, workers, window, done, summary)
    except KeyboardInterrupt:
        pass  # Ctrl-C: the finished blocks are the answer, marked partial
    return summary()


def _game(game: object) -> Game[Any, Any, Any, Any, Any]:
    """The game to play: a Game as it is, or the game of that name."""
    if isinstance(game, str):
        return game_named(game)
    if not isinstance(game, Game):
        raise InvalidValueError(f"game must be a Game or a game's name, got {game!r}")
    return game
