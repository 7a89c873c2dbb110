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
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TextIO

from rich.table import Table

from cheekymonkey.cli.narrate import make_console
from cheekymonkey.cli.options import bot_names_type, bots_for_seats, players_type, ruleset_from
from cheekymonkey.rules import Ruleset
from cheekymonkey.simulation import (
    GameFailedError,
    RayExecutor,
    SimulationError,
    SimulationProgress,
    Summary,
    plot_summary,
    simulate,
)

__all__ = ["add_arguments", "run"]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument(
        "--bots",
        type=bot_names_type,
        default=("expectimax", "heuristic"),
        help="bots, comma-separated, repeated round the table: random, heuristic, expectimax, mcts "
        "(default expectimax,heuristic)",
    )
    parser.add_argument(
        "--players", type=players_type, default=None, help="seats, 2 to 6 (default: one per bot, at least 2)"
    )
    parser.add_argument("--games", type=_positive, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i (default 0)")
    parser.add_argument(
        "--variant",
        choices=Ruleset.preset_names(),
        default="standard",
        help="rule set: standard, younger (R19), little-children or little-children-no-kangaroo (R20)",
    )
    parser.add_argument(
        "--workers",
        type=_positive,
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
        "--block-size", type=_positive, default=None, help="games per task (default: about 64 tasks of at most 500)"
    )
    parser.add_argument("--json", metavar="FILE", type=Path, default=None, help="write the summary to FILE as JSON")
    parser.add_argument(
        "--plot", metavar="FILE", type=Path, default=None, help="draw win rates and score distributions to FILE.png"
    )


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
    console = make_console()
    ruleset = ruleset_from(args)
    names: tuple[str, ...] = args.bots
    players = args.players if args.players is not None else max(2, len(names))
    if len(names) > players or not ruleset.allows_players(players):
        # Errors go to stderr, like every other refusal of the command line.
        print(
            f"cheekymonkey simulate: {len(names)} bots: the {ruleset.name} rules seat {ruleset.min_players} to"
            f" {ruleset.max_players}"
            + (f", and {players} seats take at most {players} bots" if len(names) > players else ""),
            file=sys.stderr,
        )
        return 2
    if args.scheduler is not None and args.workers is not None:
        print(
            "cheekymonkey simulate: --workers is for local runs and --ray; a Dask cluster has its own", file=sys.stderr
        )
        return 2
    kinds = bots_for_seats(names, players)
    console.print(f"{args.games} games of {', '.join(kinds)} ({ruleset.name} rules), seeds {args.seed} and up.")
    line = _ProgressLine(sys.stderr)
    started = time.monotonic()
    try:
        with ExitStack() as stack:
            executor = _executor(args, stack)
            summary = simulate(
                names,
                args.games,
                seed=args.seed,
                ruleset=ruleset,
                players=players,
                executor=executor,
                workers=args.workers if executor is None and args.workers not in (None, 1) else None,
                block_size=args.block_size,
                progress=line,
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
    print(f"{summary.games} games in {elapsed:.1f} s ({summary.games / elapsed:.1f} games/s)", file=sys.stderr)
    _print_table(console, summary)
    if args.json is not None:
        args.json.write_text(json.dumps(summary.to_dict()) + "\n", encoding="utf-8")
    if args.plot is not None:
        try:
            plot_summary(summary, args.plot)
        except ImportError as error:
            print(f"cheekymonkey simulate: {error}", file=sys.stderr)
            return 2
    return 130 if summary.partial else 0


def _print_table(console: Any, summary: Summary) -> None:
    title = f"{summary.games} games"
    if summary.partial:
        title += f" (partial: stopped after {summary.games} of {summary.requested})"
    table = Table(title=title, title_justify="left")
    for column in ("bot", "wins", "win rate", "95% interval", "mean score"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for line in summary.bots:
        table.add_row(
            line.name,
            f"{line.wins:g}",
            f"{line.win_rate:.1%}",
            f"{line.low:.1%} - {line.high:.1%}",
            f"{line.mean_score:.1f}",
        )
    table.caption = f"Mean game length: {summary.mean_actions:.1f} actions, {summary.mean_turns:.1f} turns."
    table.caption_justify = "left"
    console.print(table)
