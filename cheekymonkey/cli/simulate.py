"""``cheekymonkey simulate``: many seeded games between bots, then win rates with confidence intervals.

Game ``i`` is played with seed ``SEED + i``, and the bots move one seat round the table from one game
to the next, so each sits in every seat equally often (the first seat has an edge). A shared win counts
as a fraction of a win for each winner. With ``--workers N`` the games run in ``N`` processes; the
results do not depend on it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs
from rich.progress import Progress
from rich.table import Table

from cheekymonkey.actions import Action
from cheekymonkey.bots import bot_named
from cheekymonkey.cli.narrate import make_console
from cheekymonkey.cli.options import bot_names_type, ruleset_from
from cheekymonkey.play import play_game
from cheekymonkey.rules import Ruleset
from cheekymonkey.state import GameState, Phase

__all__ = ["BotResult", "GameResult", "Summary", "add_arguments", "play_one", "run", "simulate", "wilson_interval"]


@attrs.frozen(slots=True)
class GameResult:
    """One simulated game, seen from the list of bots (not the seats)."""

    totals: tuple[int, ...]
    """Each bot's final score, in the order the bots were listed."""
    wins: tuple[float, ...]
    """Each bot's share of the win: 1 for a sole winner, 1/k for each of k sharing, else 0."""
    actions: int
    """How many actions the game took, chance outcomes included."""
    turns: int
    """How many turns the game took."""


@attrs.frozen(slots=True)
class BotResult:
    """One bot's line in the results."""

    name: str
    """The bot's label (its kind, numbered if the same kind plays twice)."""
    wins: float
    """Games won (shared wins as fractions)."""
    win_rate: float
    """Wins per game."""
    low: float
    """The lower end of the 95% Wilson confidence interval of the win rate."""
    high: float
    """The upper end of the 95% Wilson confidence interval of the win rate."""
    mean_score: float
    """The mean final score."""


@attrs.frozen(slots=True)
class Summary:
    """The results of a simulation."""

    games: int
    """How many games were played."""
    bots: tuple[BotResult, ...]
    """One line per bot, in the order they were listed."""
    mean_actions: float
    """The mean number of actions per game."""
    mean_turns: float
    """The mean number of turns per game."""


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% with the default ``z``).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(kinds: tuple[str, ...], ruleset: Ruleset, seed: int, game: int) -> GameResult:
    """Play game number ``game`` (seed ``seed + game``) with the bots moved ``game`` seats round the table."""
    n = len(kinds)
    # Seat s holds bot (s + game) % n, so over n games each bot sits in each seat once.
    order = [(s + game) % n for s in range(n)]
    turns = 0

    def count(state: GameState, action: Action) -> None:
        nonlocal turns
        if state.phase is Phase.CHANCE and not state.front:
            turns += 1  # R4: every turn opens with its compulsory draw

    played = play_game([bot_named(kinds[b]) for b in order], ruleset=ruleset, seed=seed + game, on_action=count)
    sheet = played.score
    totals = [0] * n
    wins = [0.0] * n
    for seat, bot in enumerate(order):
        totals[bot] = sheet.seats[seat].total
        if seat in sheet.winners:
            wins[bot] = 1 / len(sheet.winners)
    return GameResult(tuple(totals), tuple(wins), len(played.record.actions), turns)


def _play_batch(task: tuple[tuple[str, ...], Ruleset, int, range]) -> list[GameResult]:
    kinds, ruleset, seed, games = task
    return [play_one(kinds, ruleset, seed, game) for game in games]


def simulate(
    kinds: Sequence[str],
    *,
    games: int,
    ruleset: Ruleset | None = None,
    seed: int = 0,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` seeded games between the named bots, one per seat, and sum up the results.

    Args:
        kinds: One bot name per seat (see :data:`cheekymonkey.bots.BOTS`).
        games: How many games to play.
        ruleset: The rules; the standard game if omitted.
        seed: Game ``i`` uses seed ``seed + i``.
        workers: How many processes play the games (1: in this process).
        on_progress: Called with the number of games just finished, as batches finish.

    Returns:
        Win rates with 95% confidence intervals, mean scores, and mean game lengths.
    """
    kinds = tuple(kinds)
    ruleset = Ruleset.standard() if ruleset is None else ruleset
    size = max(1, min(50, games // (workers * 4) or 1))
    batches = [range(start, min(games, start + size)) for start in range(0, games, size)]
    results: list[GameResult] = []
    tasks = [(kinds, ruleset, seed, batch) for batch in batches]
    if workers <= 1:
        for task in tasks:
            results.extend(_play_batch(task))
            if on_progress is not None:
                on_progress(len(task[3]))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            # map keeps the batches in order, so the summary is the same for any number of workers.
            for task, batch_results in zip(tasks, pool.map(_play_batch, tasks), strict=True):
                results.extend(batch_results)
                if on_progress is not None:
                    on_progress(len(task[3]))
    labels = []
    for i, kind in enumerate(kinds):
        labels.append(f"{kind} {i}" if kinds.count(kind) > 1 else kind)
    lines = []
    for i, label in enumerate(labels):
        wins = sum(r.wins[i] for r in results)
        low, high = wilson_interval(wins, games)
        mean_score = sum(r.totals[i] for r in results) / games if games else 0.0
        lines.append(BotResult(label, wins, wins / games if games else 0.0, low, high, mean_score))
    return Summary(
        games,
        tuple(lines),
        sum(r.actions for r in results) / games if games else 0.0,
        sum(r.turns for r in results) / games if games else 0.0,
    )


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
        help="one bot per seat, comma-separated: random, heuristic, expectimax, mcts (default expectimax,heuristic)",
    )
    parser.add_argument("--games", type=_positive, default=200, help="games to play (default 200)")
    parser.add_argument("--workers", type=_positive, default=1, help="processes to play them in (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i (default 0)")
    parser.add_argument(
        "--variant",
        choices=Ruleset.preset_names(),
        default="standard",
        help="rule set: standard, younger (R19), little-children or little-children-no-kangaroo (R20)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the simulation with a progress bar and print the results table; return 0 (2 for bad seats)."""
    console = make_console()
    ruleset = ruleset_from(args)
    kinds: tuple[str, ...] = args.bots
    if len(kinds) == 1:
        kinds = (kinds[0], kinds[0])
    if not ruleset.min_players <= len(kinds) <= ruleset.max_players:
        console.print(
            f"{len(kinds)} bots: the {ruleset.name} rules seat {ruleset.min_players} to {ruleset.max_players}"
        )
        return 2
    console.print(f"{args.games} games of {', '.join(kinds)} ({ruleset.name} rules), seeds {args.seed} and up.")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("playing", total=args.games)
        summary = simulate(
            kinds,
            games=args.games,
            ruleset=ruleset,
            seed=args.seed,
            workers=args.workers,
            on_progress=lambda done: progress.advance(task, done),
        )
    table = Table(title=f"{summary.games} games", title_justify="left")
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
    return 0
