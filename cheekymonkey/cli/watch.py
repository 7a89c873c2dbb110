"""``cheekymonkey watch``: a narrated game between bots, then the score sheet."""

from __future__ import annotations

import argparse

from cheekymonkey.actions import Action
from cheekymonkey.bots import bot_named
from cheekymonkey.cli.narrate import describe_event, make_console, sheet_table
from cheekymonkey.cli.options import add_bots_option, add_game_options, bots_for_seats, ruleset_from
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import play_game
from cheekymonkey.state import GameState

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_options(parser)
    add_bots_option(parser, who="the bots to seat")


def run(args: argparse.Namespace) -> int:
    """Play and narrate one game between bots; return 0."""
    console = make_console()
    ruleset = ruleset_from(args)
    kinds = bots_for_seats(args.bots, args.players)
    names = [f"{kind.capitalize()} {seat}" for seat, kind in enumerate(kinds)]
    seed = "random" if args.seed is None else args.seed
    console.print(f"Cheeky Monkey, {ruleset.name} rules, {args.players} players, seed {seed}.")

    def narrate(state: GameState, action: Action) -> None:
        for event in apply_with_events(state, action)[1]:
            console.print(describe_event(event, names))

    game = play_game([bot_named(kind) for kind in kinds], ruleset=ruleset, seed=args.seed, on_action=narrate)
    console.print()
    console.print(sheet_table(game.score, ruleset, names))
    return 0
