"""Options shared by several sub-commands."""

from __future__ import annotations

import argparse

from cheekymonkey.bots import BOTS
from cheekymonkey.rules import Ruleset

__all__ = ["add_bots_option", "add_game_options", "bot_names_type", "bots_for_seats", "players_type", "ruleset_from"]


def players_type(text: str) -> int:
    """Parse a seat count for argparse: an integer from 2 to 6."""
    try:
        players = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not 2 <= players <= 6:
        raise argparse.ArgumentTypeError(f"{players} players: the game takes 2 to 6 (R3)")
    return players


def add_game_options(parser: argparse.ArgumentParser, *, players: int = 3) -> None:
    """Add ``--players``, ``--seed`` and ``--variant``."""
    parser.add_argument("--players", type=players_type, default=players, help=f"seats, 2 to 6 (default {players})")
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable game (default: random)")
    parser.add_argument(
        "--variant",
        choices=Ruleset.preset_names(),
        default="standard",
        help="rule set: standard, younger (R19), little-children or little-children-no-kangaroo (R20)",
    )


def add_bots_option(parser: argparse.ArgumentParser, *, who: str) -> None:
    """Add ``--bots``: bot kinds, comma-separated, repeated round the table; ``who`` says whom they play."""
    parser.add_argument(
        "--bots",
        type=bot_names_type,
        default=("heuristic",),
        help=f"{who}, comma-separated, repeated round the table: {', '.join(BOTS)} (default heuristic)",
    )


def ruleset_from(args: argparse.Namespace) -> Ruleset:
    """The preset named by ``--variant``."""
    return Ruleset.preset(args.variant)


def bot_names_type(text: str) -> tuple[str, ...]:
    """Parse ``--bots`` for argparse: bot names separated by commas (random, heuristic, expectimax, mcts)."""
    names = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("no bot names given")
    for name in names:
        if name not in BOTS:
            raise argparse.ArgumentTypeError(f"no bot named {name!r}; the bots are {', '.join(BOTS)}")
    return names


def bots_for_seats(names: tuple[str, ...], seats: int) -> list[str]:
    """One bot name per seat: a single name fills every seat; otherwise the names repeat in turn."""
    return [names[i % len(names)] for i in range(seats)]
