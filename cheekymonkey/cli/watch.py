"""``cheekymonkey watch``: a narrated game between bots, then the score sheet."""

from __future__ import annotations

import argparse

from cheekymonkey.actions import Action
from cheekymonkey.cli.narrate import describe_event, format_sheet
from cheekymonkey.cli.options import add_game_options, ruleset_from
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import RandomBot, play_game
from cheekymonkey.state import GameState

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    """Play and narrate one game between random bots."""
    ruleset = ruleset_from(args)
    names = [f"Bot {seat + 1}" for seat in range(args.players)]
    seed = "random" if args.seed is None else args.seed
    print(f"Cheeky Monkey, {ruleset.name} rules, {args.players} players, seed {seed}.")

    def narrate(state: GameState, action: Action) -> None:
        for event in apply_with_events(state, action)[1]:
            print(describe_event(event, names))

    game = play_game([RandomBot() for _ in names], ruleset=ruleset, seed=args.seed, on_action=narrate)
    print()
    print(format_sheet(game.score, ruleset, names))
    return 0
