"""``cheekymonkey watch``: a narrated game between bots, then the score sheet.

It takes the same options as ``play`` (:func:`cheekymonkey.cli.options.add_table_options`), so either
default command accepts what the other does. A record is saved only with ``--record FILE``.
"""

from __future__ import annotations

import argparse
import sys

import attrs

from cheekymonkey.actions import Action
from cheekymonkey.bots import bot_named
from cheekymonkey.cli.narrate import count, describe_event, make_console, sheet_table
from cheekymonkey.cli.options import add_table_options, bots_for_seats, pause, ruleset_from, seat_names, seed_from
from cheekymonkey.cli.record_file import RecordFile, RecordFileError
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import play_game
from cheekymonkey.state import GameState, Phase

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_table_options(parser, bots_who="the bots to seat", record_default="default: none is saved")


def run(args: argparse.Namespace) -> int:
    """Play and narrate one game between bots; return 0 (2 for bad names or record file, 3 if it cannot be saved)."""
    console = make_console()
    ruleset = ruleset_from(args)
    kinds = bots_for_seats(args.bots, args.players)
    try:
        names = seat_names(args, [f"{kind.capitalize()} {seat}" for seat, kind in enumerate(kinds)])
    except ValueError as error:
        print(f"cheekymonkey watch: {error}", file=sys.stderr)
        return 2
    # As in play: the record's file is claimed before the game (never an existing one without --overwrite).
    file: RecordFile | None = None
    if args.record is not None and not args.no_record:
        try:
            file = RecordFile(args.record, overwrite=args.overwrite)
        except RecordFileError as error:
            print(f"cheekymonkey watch: {error}", file=sys.stderr)
            return 2
    seed = seed_from(args)
    given = "" if args.seed is not None else ", chosen at random"
    console.print(
        f"Cheeky Monkey, {ruleset.name} rules, {count(args.players, 'player')}, seed {seed}{given}: "
        + ", ".join(f"{name} ({kind})" for name, kind in zip(names, kinds, strict=True))
        + "."
    )

    def narrate(state: GameState, action: Action) -> None:
        if state.phase is not Phase.CHANCE:
            pause(args)  # at a terminal, a moment before each bot's move (--delay)
        for event in apply_with_events(state, action)[1]:
            console.print(describe_event(event, names))

    game = play_game([bot_named(kind) for kind in kinds], ruleset=ruleset, seed=seed, on_action=narrate)
    console.print()
    console.print(sheet_table(game.score, ruleset, names))
    if file is not None:
        try:
            file.save(attrs.evolve(game.record, names=tuple(names), bots=tuple(kinds)))
        except RecordFileError as error:
            print(f"cheekymonkey watch: {error}", file=sys.stderr)
            return 3
        console.print(f"Record saved to {file.path}; replay it with: cheekymonkey replay {file.path}")
    return 0
