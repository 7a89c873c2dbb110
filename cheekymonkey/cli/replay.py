"""``cheekymonkey replay FILE``: step through a saved game record, narrated turn by turn.

The record is checked as it is loaded (a record that does not replay is refused, naming the step), then its
actions are played again at a :class:`~cheekymonkey.Table` seated as the record says, and each step's events
are narrated. At a terminal it steps: after each turn it shows the table and waits for Enter (``q`` then
Enter stops early); ``--no-step`` prints the whole game at once, and ``--step`` waits even when the answers
come from a pipe (at the end of standard input it plays the rest without waiting). In a pipe it prints the
whole game. Exit status: 0 after a replay, 2 if the file cannot be read or is not a valid record.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cheekymonkey.cli.options import OptionError, game_from, names_type, seat_names
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.games import GAME_NAMES, game_of_document
from cheekymonkey.table import Seat, Table

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("file", type=Path, help="a game record saved by 'cheekymonkey play' (or any record document)")
    parser.add_argument(
        "--game", choices=GAME_NAMES, default=None, help="the record's game (default: the one its format names)"
    )
    parser.add_argument(
        "--step",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="wait for Enter after each turn (default: at a terminal; --no-step prints the whole game at once)",
    )
    parser.add_argument(
        "--names",
        type=names_type,
        default=None,
        help="seat names, comma-separated, in seat order (default: the names in the record, else Seat 0, Seat 1, ...)",
    )


def run(args: argparse.Namespace) -> int:
    """Narrate the record in ``args.file``; return the exit status."""
    from cheekymonkey.cli.narrate import Narrator, make_console, stdin_is_terminal

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OptionError(f"cannot read {str(args.file)!r}: {error}") from None
    try:
        # The record's own format names its game, unless --game says which it must be.
        game = game_from(args) if args.game is not None else game_of_document(text)
        record = game.documents().loads(text, "record")
    except CheekyMonkeyError as error:
        raise OptionError(f"{args.file}: {error}") from None
    names = seat_names(args, list(record.names) or [f"Seat {seat}" for seat in range(record.players)])
    kinds = record.bots or ("human",) * record.players
    console = make_console()
    seed = "none" if record.seed is None else record.seed
    rules = getattr(record.ruleset, "name", "custom")
    actions = len(record.actions)
    console.print(
        f"Replaying a {record.players}-player game of {game.title}, {rules} rules, seed {seed}: "
        f"{actions} action{'' if actions == 1 else 's'}."
    )
    if record.bots:
        # Who played: the names and what sat in each seat, as the record keeps them.
        console.print("Players: " + ", ".join(f"{n} ({kind})" for n, kind in zip(names, kinds, strict=True)) + ".")
    else:
        console.print("Players: " + ", ".join(names) + ".")
    # The seats as the record has them, without bots: a replay plays the record's actions, and nobody else.
    seats = [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)]
    table: Table[Any, Any, Any, Any, Any] = Table(
        game, seats, ruleset=record.ruleset, first_player=record.first_player, seed=record.seed
    )
    narrator = Narrator(console, game, names)
    waiting = args.step if args.step is not None else stdin_is_terminal() and sys.stdout.isatty()
    if game.begins_turn(table.state):
        console.print(f"-- Turn 1: {_whose(names, game.turn_of(table.state))} --")
    for action in record.actions:
        step = table.play(action)
        narrator.step(step)
        if table.finished or not game.begins_turn(table.state):
            continue
        if waiting:
            narrator.board(table.state)
            console.print("Enter for the next turn, q to stop: ", end="")
            answer = sys.stdin.readline()
            if not answer:
                waiting = False  # no more input: play the rest straight through
                console.print()
            elif answer.strip().lower() in ("q", "quit"):
                console.print("Stopped.")
                return 0
        console.print(f"-- Turn {table.turns}: {_whose(names, game.turn_of(table.state))} --")
    narrator.flush()
    if table.over:
        narrator.result(table.state)
    else:
        console.print("The record ends before the game does.")
        narrator.board(table.state)
    return 0


def _whose(names: list[str], seat: int | None) -> str:
    return "nobody" if seat is None else names[seat]
