"""``cheekymonkey replay FILE``: step through a saved game record, narrated turn by turn.

The record is checked as it is loaded (a record that does not replay is refused, naming the step).
With ``--step`` it waits for Enter after each turn (``q`` then Enter stops early); at the end of
standard input it plays the rest without waiting. Exit status: 0 after a replay, 2 if the file
cannot be read or is not a valid record.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cheekymonkey.cli.narrate import count, describe_event, make_console, sheet_table, table_of
from cheekymonkey.cli.options import names_type, seat_names
from cheekymonkey.engine import begins_turn
from cheekymonkey.events import apply_with_events
from cheekymonkey.scoring import score
from cheekymonkey.serialization import DocumentError, load_record
from cheekymonkey.state import Phase

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("file", type=Path, help="a game record saved by 'cheekymonkey play' (or any record document)")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each turn")
    parser.add_argument(
        "--names",
        type=names_type,
        default=None,
        help="seat names, comma-separated, in seat order (default: the names in the record, else Seat 0, Seat 1, ...)",
    )


def run(args: argparse.Namespace) -> int:
    """Narrate the record in ``args.file``; return the exit status."""
    console = make_console()
    error_console = make_console()
    error_console.stderr = True
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        error_console.print(f"cheekymonkey replay: cannot read {str(args.file)!r}: {error}")
        return 2
    try:
        record = load_record(text)
    except DocumentError as error:
        error_console.print(f"cheekymonkey replay: {args.file}: {error}")
        return 2
    try:
        names = seat_names(args, list(record.names) or [f"Seat {seat}" for seat in range(record.players)])
    except ValueError as error:
        error_console.print(f"cheekymonkey replay: {error}")
        return 2
    seed = "none" if record.seed is None else record.seed
    console.print(
        f"Replaying a {record.players}-player game, {record.ruleset.name} rules, seed {seed}: "
        f"{count(len(record.actions), 'action')}."
    )
    if record.bots:
        # Who played: the names and what sat in each seat, as the record keeps them.
        console.print(
            "Players: " + ", ".join(f"{n} ({kind})" for n, kind in zip(names, record.bots, strict=True)) + "."
        )
    else:
        console.print("Players: " + ", ".join(names) + ".")
    state = record.start()
    waiting = args.step
    turn = 0
    for action in record.actions:
        if begins_turn(state):
            turn += 1
            console.print(f"-- Turn {turn}: {names[state.seat]} --")
        before = state
        state, events = apply_with_events(state, action)
        for event in events:
            console.print(describe_event(event, names))
        if waiting and state.seat != before.seat and state.phase is not Phase.OVER:
            console.print(table_of(state, names))
            console.print("Enter for the next turn, q to stop: ", end="")
            answer = sys.stdin.readline()
            if not answer:
                waiting = False  # no more input: play the rest straight through
                console.print()
            elif answer.strip().lower() in ("q", "quit"):
                console.print("Stopped.")
                return 0
    if state.phase is Phase.OVER:
        console.print()
        console.print(sheet_table(score(state), record.ruleset, names))
    else:
        console.print("The record ends before the game does.")
        console.print(table_of(state, names))
    return 0
