"""``cheekymonkey league``: every bot of a game against every other, head to head, in one rated table.

A thin layer over :func:`cheekymonkey.simulation.league`: each pair of bots plays ``--games`` two-seat games,
seats rotated, pairing ``p`` on seeds ``SEED + p * GAMES`` and up; the table ranks the bots by their
Bradley-Terry ratings (Elo scale, centred on 1500) with 95% intervals. The games run in this process or in
``--workers N`` local processes; the results do not depend on it. Progress goes to standard error; Ctrl-C
stops the run and prints the pairings finished so far, marked partial.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from cheekymonkey.base import bot_aliases
from cheekymonkey.cli.options import (
    OptionError,
    add_game_option,
    add_variant_option,
    game_from,
    output_path,
    pays_stakes,
    plural,
    positive_int,
    ruleset_from,
    seed_type,
)
from cheekymonkey.cli.simulate import bot_entries, bot_entries_type, check_entries_fit
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.simulation import GameFailedError, League, PolicyBot, SimulationError, SimulationProgress, league
from cheekymonkey.simulation.leagues import TableLeague, table_league

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_option(parser, what="the game whose bots play")
    parser.add_argument(
        "--bots",
        type=bot_entries_type,
        default=None,
        help="the bots in the league, comma-separated, two or more (default: every bot of the game, once each: "
        "strongest is a second name for one of them); "
        "policy:FILE.npz enters a policy's weights file (w1, b1, ...: see cheekymonkey.simulation.policies)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=100,
        help="games per pair of bots, or per table with --seats (default 100)",
    )
    parser.add_argument(
        "--seats",
        type=positive_int,
        default=2,
        help="seats at every table (default 2: every pair head to head); more: each bot heads a table of that "
        "many, the bots after it round the list filling the other seats, rated by their placings",
    )
    parser.add_argument("--seed", type=seed_type, default=0, help="the first pair's first seed (default 0)")
    add_variant_option(parser)
    parser.add_argument(
        "--max-turns",
        type=positive_int,
        default=None,
        help="cut a game off when a turn past this many would begin: it counts for neither bot (default: no limit)",
    )
    parser.add_argument(
        "--workers", type=positive_int, default=None, help="local processes to play in (default: this one)"
    )
    parser.add_argument(
        "--json", metavar="FILE", type=output_path, default=None, help="write the league to FILE as JSON"
    )


def _bots(
    game: Any, args: argparse.Namespace, seats: int, ruleset: Any
) -> tuple[tuple[str | PolicyBot, ...], list[str]]:
    """The league's bots (a policy's weights file read into its bot), and a note for each bot left out."""
    given: tuple[str, ...] | None = args.bots
    if given is not None:
        entries = bot_entries(game, given)
        if len(set(given)) < 2:
            raise OptionError("a league needs two different bots or more")
        check_entries_fit(entries, seats, ruleset)
        return entries, []
    kept: list[str] = []
    notes: list[str] = []
    aliases = bot_aliases(game)
    for name in game.bot_names():
        if name in aliases:
            continue  # a second name for a bot already in the league (strongest)
        try:
            game.bot_named(name)  # a bot that needs a missing extra cannot play
        except (CheekyMonkeyError, ImportError) as error:
            notes.append(f"{name} left out: {error}")
            continue
        kept.append(name)
    if len(kept) < 2:
        raise OptionError(f"{game.title} has fewer than two bots that can play here")
    return tuple(kept), notes


def _label(entry: str | PolicyBot) -> str:
    return entry if isinstance(entry, str) else entry.name


def run(args: argparse.Namespace) -> int:
    """Play the league and print its table.

    Returns 0, 2 for options that do not fit, 1 if a game failed, 130 if stopped by Ctrl-C (the finished
    pairings are printed and written, marked partial).
    """
    from cheekymonkey.cli.narrate import make_console

    game = game_from(args)
    ruleset = ruleset_from(game, args)
    low, high = game.seat_range(ruleset)
    if args.seats != 2:
        if not low <= args.seats <= high:
            raise OptionError(
                f"{game.title}'s {args.variant or 'standard'} rules seat {low} to {high}, not {args.seats}"
            )
        return _run_tables(args, game, ruleset)
    if low > 2:
        raise OptionError(f"a league plays two-seat games, and {game.title}'s {args.variant} rules seat {low} or more")
    entries, notes = _bots(game, args, 2, ruleset)
    names = [_label(entry) for entry in entries]
    console = make_console()
    for note in notes:
        print(f"cheekymonkey league: {note}", file=sys.stderr)
    pairs = len(names) * (len(names) - 1) // 2
    rules = args.variant or game.preset_names()[0]
    each = "the pair" if pairs == 1 else f"each of {pairs} pairs"
    console.print(
        f"{game.title} league ({rules} rules): {', '.join(names)}; {plural(args.games, 'game')} for {each}, "
        f"seeds {args.seed} and up."
    )
    started = time.monotonic()
    last = [0.0]

    def progress(step: SimulationProgress) -> None:
        now = time.monotonic()
        if step.games_done < step.games and now - last[0] < 2.0:
            return
        last[0] = now
        left = step.remaining
        tail = f", about {left:.0f} s left" if left is not None else ""
        print(f"{step.games_done}/{step.games} games{tail}", file=sys.stderr, flush=True)

    try:
        result = league(
            entries,
            args.games,
            seed=args.seed,
            ruleset=ruleset,
            game=game,
            workers=args.workers if args.workers not in (None, 1) else None,
            progress=progress,
            max_turns=args.max_turns,
        )
    except (GameFailedError, SimulationError) as error:
        print(f"cheekymonkey league: {error}", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    played = sum(pairing.games + pairing.truncated for pairing in result.pairings)
    print(f"{plural(played, 'game')} in {elapsed:.1f} s", file=sys.stderr)
    _print_table(console, result, game.title, pays_stakes(game, 2, ruleset))
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_dict()) + "\n", encoding="utf-8")
    return 130 if result.partial else 0


def _run_tables(args: argparse.Namespace, game: Any, ruleset: Any) -> int:
    """A league of ``--seats`` seats a table: play it and print its table."""
    from rich.table import Table

    from cheekymonkey.cli.narrate import make_console

    entries, notes = _bots(game, args, args.seats, ruleset)
    names = [_label(entry) for entry in entries]
    for note in notes:
        print(f"cheekymonkey league: {note}", file=sys.stderr)
    console = make_console()
    rules = args.variant or game.preset_names()[0]
    console.print(
        f"{game.title} league at {args.seats} seats ({rules} rules): {', '.join(names)}; "
        f"{plural(len(names), 'table')} of {plural(args.games, 'game')}, seeds {args.seed} and up."
    )
    started = time.monotonic()
    result: TableLeague = table_league(
        entries,
        args.games,
        args.seats,
        seed=args.seed,
        ruleset=ruleset,
        game=game,
        max_turns=args.max_turns,
        workers=args.workers,
    )
    print(f"{plural(len(result.tables) * result.games, 'game')} in {time.monotonic() - started:.1f} s", file=sys.stderr)
    table = Table(
        title=f"{game.title} league at {args.seats} seats, {plural(result.games, 'game')} a table",
        title_justify="left",
    )
    staked = pays_stakes(game, args.seats, ruleset)
    columns = ["rank", "bot", "rating", "95% interval", "mean place", "seats held"]
    for column in [*columns, "mean return"] if staked else columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, line in enumerate(result.standings, 1):
        cells = [
            str(rank),
            line.name,
            f"{line.rating:.0f}",
            f"{line.low:.0f} - {line.high:.0f}",
            f"{line.mean_place:.2f}",
            str(line.seatings),
        ]
        table.add_row(*cells, *([f"{line.mean_return:+.3f}"] if staked else []))
    caption = (
        "Bradley-Terry ratings over pairwise placings (the better place wins, a tie halves) on the Elo scale, "
        f"centred on 1500; intervals from {result.bootstrap} resamples of the games."
    )
    if result.truncated:
        caption += f" {plural(result.truncated, 'game')} cut off at the limit count for nobody."
    table.caption = caption
    table.caption_justify = "left"
    console.print(table)
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_dict()) + "\n", encoding="utf-8")
    return 0


def _print_table(console: Any, result: League, title: str, staked: bool = False) -> None:
    from rich.table import Table

    title = f"{title} league, {plural(result.games, 'game')} a pair"
    if result.partial:
        title += f" (partial: stopped after {len(result.pairings)} pairs)"
    table = Table(title=title, title_justify="left")
    columns = ["rank", "bot", "rating", "95% interval", "wins", "games", "score"]
    for column in [*columns, "mean return"] if staked else columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, line in enumerate(result.standings, 1):
        cells = [
            str(rank),
            line.name,
            f"{line.rating:.0f}",
            f"{line.low:.0f} - {line.high:.0f}",
            f"{line.wins:g}",
            str(line.games),
            f"{line.score:.1%}",
        ]
        table.add_row(*cells, *([f"{line.mean_return:+.3f}"] if staked else []))
    truncated = sum(pairing.truncated for pairing in result.pairings)
    caption = (
        "Bradley-Terry ratings on the Elo scale (400 points: odds of 10 to 1), centred on 1500; "
        "a shared win counts half."
    )
    if truncated:
        cut = f"{plural(truncated, 'game')} {'was' if truncated == 1 else 'were'}"
        caption += f" {cut} cut off at the limit: they count for neither bot."
    table.caption = caption
    table.caption_justify = "left"
    console.print(table)
    pairs = Table(title="head to head", title_justify="left")
    for column in ["bots", "wins", "games", *(["mean returns"] if staked else [])]:
        pairs.add_column(column, justify="left" if column == "bots" else "right")
    for pairing in result.pairings:
        paid = [f"{pairing.first_return:+.3f} - {pairing.second_return:+.3f}"] if staked else []
        pairs.add_row(
            f"{pairing.first} - {pairing.second}",
            f"{pairing.first_wins:g} - {pairing.second_wins:g}",
            str(pairing.games),
            *paid,
        )
    console.print(pairs)
