"""``cheekymonkey simulate``: many seeded games between bots, then win rates with confidence intervals.

A thin layer over :func:`cheekymonkey.simulation.simulate`: game ``i`` is played with seed ``SEED + i``, the
bots moving one seat round the table from one game to the next. The games run in this process, in
``--workers N`` local processes, on a running Dask cluster (``--scheduler``) or on Ray (``--ray``); the
results do not depend on it. Progress goes to standard error; Ctrl-C stops the run and prints the blocks
finished so far, marked partial.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import sys
import textwrap
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from cheekymonkey.cli.options import (
    OptionError,
    add_bots_option,
    add_game_option,
    add_variant_option,
    bot_names_type,
    bots_for_seats,
    bots_from,
    check_bots,
    game_from,
    output_path,
    pays_stakes,
    players_from,
    plural,
    positive_int,
    ruleset_from,
    seed_type,
)
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.simulation import (
    GameFailedError,
    PolicyBot,
    RayExecutor,
    SimulationError,
    SimulationProgress,
    Summary,
    plot_summary,
    simulate,
)
from cheekymonkey.simulation.policies import POLICY_PREFIX, policy_file

__all__ = ["add_arguments", "bot_entries", "bot_entries_type", "check_entries_fit", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_option(parser, what="the game to simulate")
    add_bots_option(
        parser,
        who="bots",
        default=("expectimax", "heuristic"),
        read=bot_entries_type,
        more="; or policy:FILE.npz, a policy's weights file (w1, b1, ...: see cheekymonkey.simulation.policies)",
    )
    parser.add_argument("--players", type=positive_int, default=None, help="seats (default: one per bot, at least 2)")
    parser.add_argument("--games", type=positive_int, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=seed_type, default=0, help="game i uses seed SEED + i (default 0)")
    add_variant_option(parser)
    parser.add_argument(
        "--max-turns",
        type=positive_int,
        default=None,
        help="cut a game off when a turn past this many would begin: it is counted as truncated, apart from "
        "the results (default: no limit)",
    )
    parser.add_argument(
        "--batched",
        action="store_true",
        help="play every game as a row of the game's batched engine (the batched extra; the bots with a batched "
        "form and policies only): the same figures within their intervals, other games than the seeded tables'",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="local processes to play in (default: this one); with --ray, the CPUs of a local Ray instance",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler", metavar="ADDRESS", default=None, help="run on a running Dask cluster, e.g. tcp://HOST:8786"
    )
    where.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="local",
        default=None,
        help="run on Ray: a local instance, or the cluster at ADDRESS (auto, ray://HOST:10001)",
    )
    parser.add_argument(
        "--block-size", type=positive_int, default=None, help="games per task (default: about 64 tasks of at most 500)"
    )
    # Output files are checked as the options are read (output_path), before any game is played.
    parser.add_argument(
        "--json", metavar="FILE", type=output_path, default=None, help="write the summary to FILE as JSON"
    )
    parser.add_argument(
        "--plot",
        metavar="FILE",
        type=output_path,
        default=None,
        help="draw win rates and score distributions to FILE (.png, .svg or .pdf; needs the plot extra)",
    )


def bot_entries_type(text: str) -> tuple[str, ...]:
    """Parse ``--bots`` for argparse: bot names and ``policy:FILE`` entries, comma-separated, none empty.

    A bot's name is read in any case; a weights file's path is kept as written (after ``policy:``, which may
    be in any case too). The files are read by :func:`bot_entries`, once the game is known.
    """
    entries = tuple(entry.strip() for entry in text.split(","))
    if not all(entries):
        bot_names_type(text)  # the same refusal, in the same words, as every command's --bots
    read = []
    for entry in entries:
        if entry[: len(POLICY_PREFIX)].lower() == POLICY_PREFIX:
            path = entry[len(POLICY_PREFIX) :].strip()
            if not path:
                raise argparse.ArgumentTypeError(f"{entry!r}: name the policy's weights file, e.g. policy:net.npz")
            read.append(POLICY_PREFIX + path)
        else:
            read.append(entry.lower())
    return tuple(read)


def bot_entries(game: Any, given: Sequence[str]) -> tuple[str | PolicyBot, ...]:
    """``--bots`` as a simulation takes it: each bot's name checked, each ``policy:FILE`` read into its bot.

    Raises:
        OptionError: If a name is not one of the game's bots (or cannot play here), or a file cannot be read
            as a policy's weights, saying why.
    """
    check_bots(game, [entry for entry in given if not entry.startswith(POLICY_PREFIX)])
    read: dict[str, PolicyBot] = {}
    for entry in given:
        if entry.startswith(POLICY_PREFIX) and entry not in read:
            try:
                read[entry] = policy_file(entry[len(POLICY_PREFIX) :], game, name=entry)
            except InvalidValueError as error:
                raise OptionError(f"--bots {entry}: {error}") from None
    return tuple(read.get(entry, entry) for entry in given)


def check_entries_fit(entries: Sequence[str | PolicyBot], players: int, ruleset: Any) -> None:
    """Refuse a policy's weights that do not fit ``players`` seats under ``ruleset``, before any game.

    Raises:
        OptionError: Naming the file and what does not fit.
    """
    for entry in entries:
        if isinstance(entry, PolicyBot):
            try:
                entry.check_table(players, ruleset)
            except InvalidValueError as error:
                raise OptionError(f"--bots {entry.name}: {error}") from None


def _label(entry: str | PolicyBot) -> str:
    return entry if isinstance(entry, str) else entry.name


class _ProgressLine:
    """Games done, games per second and time left, on standard error.

    At a terminal one line is kept up to date; elsewhere (a pipe, a log) a line is written every few seconds.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.terminal = stream.isatty() if hasattr(stream, "isatty") else False
        self.last = 0.0
        self.width = 0

    def __call__(self, progress: SimulationProgress) -> None:
        now = time.monotonic()
        finished = progress.games_done == progress.games
        if not finished and now - self.last < (0.2 if self.terminal else 2.0):
            return
        self.last = now
        left = progress.remaining
        text = (
            f"{progress.games_done}/{progress.games} games ({progress.games_done / progress.games:.0%}), "
            f"{progress.rate:.1f} games/s, "
            + (f"about {_duration(left)} left" if left is not None else "time left unknown")
        )
        if self.terminal:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.terminal and self.width:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _executor(args: argparse.Namespace, stack: ExitStack) -> cf.Executor | Any | None:
    """What runs the blocks, opened on ``stack``: None for this process or an owned local pool."""
    if args.scheduler is not None:
        try:
            import distributed
        except ImportError:
            raise ImportError("--scheduler needs Dask: pip install 'cheekymonkey[dask]'") from None
        connect: Any = distributed.Client  # untyped: kept to this line
        client = connect(args.scheduler, timeout="30s")
        stack.callback(client.close)
        return client
    if args.ray is not None:
        address = None if args.ray == "local" else args.ray
        ray = RayExecutor(address, num_cpus=args.workers if address is None else None)
        stack.callback(ray.shutdown, wait=False, cancel_futures=True)
        return ray
    return None


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print the results table.

    Returns 0, 2 for options that do not fit, 1 if a game or the backend failed, 130 if stopped by Ctrl-C
    (the finished blocks are printed and written, marked partial).
    """
    from cheekymonkey.cli.narrate import make_console

    game = game_from(args)
    ruleset = ruleset_from(game, args)
    entries = bots_from(game, args) if args.bots is None else bot_entries(game, args.bots)
    names = tuple(_label(entry) for entry in entries)
    # One seat per bot by default (at least the fewest the rules seat); more than the rules seat is refused.
    low, high = game.seat_range(ruleset)
    if len(names) > high:
        raise OptionError(f"{plural(len(names), 'bot')}: {game.title} seats {low} to {high}")
    players = players_from(game, ruleset, args.players or max(len(names), low))
    if len(names) > players:
        raise OptionError(
            f"{plural(len(names), 'bot')}: {plural(players, 'seat')} take at most {plural(players, 'bot')}"
        )
    check_entries_fit(entries, players, ruleset)
    if args.scheduler is not None and args.workers is not None:
        raise OptionError("--workers is for local runs and --ray; a Dask cluster has its own")
    if args.batched:
        from cheekymonkey.batched import engine_class

        try:
            batched_bots: tuple[str, ...] = getattr(engine_class(game.name), "bots", ())
        except InvalidValueError as error:
            raise OptionError(f"--batched: {error}") from None
        others = sorted({entry for entry in entries if isinstance(entry, str) and entry not in batched_bots})
        if others:
            batched = ", ".join(batched_bots)
            raise OptionError(
                f"--batched plays only the bots with a batched form for {game.title} ({batched}) and "
                f"policies, not {', '.join(others)}"
            )
        if args.workers is not None or args.scheduler is not None or args.ray is not None:
            raise OptionError("--batched plays in this process: it takes no --workers, --scheduler or --ray")
    if args.plot is not None:
        import matplotlib  # noqa: F401 - the plot extra, checked before the games rather than after them
    console = make_console()
    kinds = bots_for_seats(names, players)
    rules = args.variant or game.preset_names()[0]
    limit = "" if args.max_turns is None else f", at most {args.max_turns} turns each"
    seeds = f"seed {args.seed}" if args.games == 1 else f"seeds {args.seed} and up"
    console.print(f"{plural(args.games, 'game')} of {', '.join(kinds)} ({game.title}, {rules} rules{limit}), {seeds}.")
    width = min(console.width, 80)
    for text in textwrap.wrap(_seats_line(players, len(set(kinds)) > 1, args.games), width):
        console.print(text)
    line = _ProgressLine(sys.stderr)
    started = time.monotonic()
    try:
        with ExitStack() as stack:
            executor = None if args.batched else _executor(args, stack)
            summary = (
                _batched(args, entries, ruleset, players, game)
                if args.batched
                else simulate(
                    entries,
                    args.games,
                    seed=args.seed,
                    ruleset=ruleset,
                    players=players,
                    executor=executor,
                    workers=args.workers if executor is None and args.workers not in (None, 1) else None,
                    block_size=args.block_size,
                    progress=line,
                    max_turns=args.max_turns,
                    game=game,
                )
            )
    except ImportError as error:
        line.close()
        print(f"cheekymonkey simulate: {error}", file=sys.stderr)
        return 2
    except (OSError, TimeoutError) as error:
        line.close()
        print(f"cheekymonkey simulate: cannot reach {args.scheduler or args.ray}: {error}", file=sys.stderr)
        return 2
    except (GameFailedError, SimulationError) as error:
        line.close()
        print(f"cheekymonkey simulate: {error}", file=sys.stderr)
        return 1
    line.close()
    elapsed = time.monotonic() - started
    played = summary.games + summary.truncated
    print(f"{plural(played, 'game')} in {elapsed:.1f} s ({played / elapsed:.1f} games/s)", file=sys.stderr)
    _print_table(console, summary, pays_stakes(game, players, ruleset))
    for text in textwrap.wrap(game.results_note, width):
        console.print(text)
    page = _bot_page(game)
    if page is not None:
        console.print(f"The bot page: {page}")
    if args.json is not None:
        args.json.write_text(json.dumps(summary.to_dict()) + "\n", encoding="utf-8")
    if args.plot is not None:
        try:
            plot_summary(summary, args.plot)
        except ImportError as error:
            print(f"cheekymonkey simulate: {error}", file=sys.stderr)
            return 2
    return 130 if summary.partial else 0


def _bot_page(game: Any) -> str | None:
    """The path of the game's bot page in the repository, if this is a checkout that has it."""
    from cheekymonkey.games import DEFAULT_GAME

    name = "bots.md" if game.name == DEFAULT_GAME else f"bots-{game.name}.md"
    path = Path(__file__).resolve().parents[2] / "docs" / "explanation" / name
    return f"docs/explanation/{name}" if path.is_file() else None


def _batched(
    args: argparse.Namespace, entries: Sequence[str | PolicyBot], ruleset: Any, players: int, game: Any
) -> Summary:
    from cheekymonkey.simulation.batched import simulate_batched

    return simulate_batched(
        entries, args.games, seed=args.seed, ruleset=ruleset, players=players, max_turns=args.max_turns, game=game
    )


def _seats_line(players: int, mixed: bool, games: int) -> str:
    """How the seats were played: how many, and that the bots move round the table from game to game."""
    seats = f"Each game seats {plural(players, 'bot')}, one per seat"
    if not mixed:
        return (
            f"{seats}, all of one kind: the same bot in every seat, so the lines below differ by luck alone, and an "
            "even split (exactly even, at times) is what to expect."
        )
    moves = f"{seats}; from one game to the next every bot moves one seat on"
    if games < players:
        return f"{moves} (too few games for each to sit everywhere)."
    return f"{moves}, so each plays every seat as often as the others."


def _print_table(console: Any, summary: Summary, staked: bool = False) -> None:
    from rich.table import Table

    # The game count is on the lines above (the run's and its time): the title says what the table holds.
    title = "Each bot's results"
    if summary.truncated:
        title += f": {plural(summary.games, 'game')} with a result, and {summary.truncated} truncated"
    if summary.partial:
        title += f" (partial: stopped after {summary.games + summary.truncated} of {summary.requested})"
    table = Table(title=title, title_justify="left")
    # The columns are what every game's outcome has (wins and places), and scores for a game that counts them.
    columns = ["bot", "wins", "win rate", "95% interval", "mean place"]
    if summary.scored:
        columns.append("mean score")
    if staked:
        columns.append("mean return")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for line in summary.bots:
        cells = [
            line.name,
            f"{line.wins:g}",
            f"{line.win_rate:.1%}",
            f"{line.low:.1%} - {line.high:.1%}",
            f"{line.mean_place:.2f}",
        ]
        if summary.scored:
            cells.append(f"{line.mean_score:.1f}")
        if staked:
            cells.append(f"{line.mean_return:+.3f}")
        table.add_row(*cells)
    caption = f"Mean game length: {summary.mean_actions:.1f} actions, {summary.mean_turns:.1f} turns."
    if summary.truncated:
        cut = summary.truncated
        caption += (
            f" {cut} game{' was' if cut == 1 else 's were'} cut off at the limit (truncated): "
            "counted apart, in none of the figures above."
        )
    table.caption = caption
    table.caption_justify = "left"
    console.print(table)
