"""Options shared by several sub-commands: the one place each is defined, so it means the same everywhere.

``play`` and ``watch`` (the default commands at a terminal and in a pipe) take exactly the same table
options, :func:`add_table_options`, so ``cheekymonkey --record game.json`` works wherever it runs.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

from cheekymonkey.bots import BOTS
from cheekymonkey.rules import Ruleset
from cheekymonkey.serialization import MAX_INTEGER

__all__ = [
    "DEFAULT_DELAY",
    "add_bots_option",
    "add_game_options",
    "add_table_options",
    "bot_names_type",
    "bots_for_seats",
    "delay_type",
    "install_hint",
    "names_type",
    "pause",
    "players_type",
    "ruleset_from",
    "seat_names",
    "seed_from",
    "seed_type",
]

_STANDARD = Ruleset.standard()
_SEATS = f"{_STANDARD.min_players} to {_STANDARD.max_players}"  # R3, as the standard rules say it

DEFAULT_DELAY = 0.4
"""Seconds between bots' moves at a terminal (``--delay``); there is no delay in a pipe."""


def players_type(text: str) -> int:
    """Parse a seat count for argparse: an integer the standard rules allow (2 to 6)."""
    try:
        players = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not _STANDARD.allows_players(players):
        raise argparse.ArgumentTypeError(
            f"{players} players: the game takes {_STANDARD.min_players} to {_STANDARD.max_players} (R3)"
        )
    return players


def delay_type(text: str) -> float:
    """Parse ``--delay`` for argparse: seconds, 0 or more (at most 10)."""
    try:
        delay = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= delay <= 10:
        raise argparse.ArgumentTypeError(f"{text} seconds: give 0 to 10")
    return delay


def names_type(text: str) -> tuple[str, ...]:
    """Parse ``--names`` for argparse: names separated by commas, none of them empty."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r}: a name is empty; separate names with commas, e.g. Ann,Bob")
    return names


def seed_type(text: str) -> int:
    """Parse a seed for argparse: an integer that a game record can hold (at most 2**53 - 1 in size)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an integer") from None
    if abs(seed) > MAX_INTEGER:
        # A record keeps the seed, and documents hold integers up to MAX_INTEGER: every record written loads.
        raise argparse.ArgumentTypeError(f"{text[:40]} is too large: a seed is at most 2**53 - 1 in size")
    return seed


def add_game_options(parser: argparse.ArgumentParser, *, players: int = 3) -> None:
    """Add ``--players``, ``--seed`` and ``--variant``."""
    parser.add_argument("--players", type=players_type, default=players, help=f"seats, {_SEATS} (default {players})")
    parser.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        help="seed for a repeatable game (default: a random seed, shown and recorded)",
    )
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


def add_table_options(parser: argparse.ArgumentParser, *, bots_who: str, record_default: str) -> None:
    """Add the options of a game at the table, the same for ``play`` and ``watch``.

    ``--players``, ``--seed``, ``--variant``, ``--bots``, ``--names``, ``--delay``, ``--record``,
    ``--no-record`` and ``--overwrite``; ``bots_who`` says whom the bots are and ``record_default`` what
    happens without ``--record``.
    """
    add_game_options(parser)
    add_bots_option(parser, who=bots_who)
    parser.add_argument(
        "--names",
        type=names_type,
        default=None,
        help="the players' names in seat order, comma-separated (seat 0 first); unnamed seats keep their default",
    )
    parser.add_argument(
        "--delay",
        type=delay_type,
        default=DEFAULT_DELAY,
        help=f"seconds between bots' moves at a terminal, so you can follow them (default {DEFAULT_DELAY}; "
        "never in a pipe)",
    )
    parser.add_argument("--record", type=Path, default=None, help=f"where to save the game record ({record_default})")
    parser.add_argument("--no-record", action="store_true", help="do not save a record of the game")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the --record file if it exists (by default it is refused)"
    )


def install_hint(extra: str) -> str:
    """How to install an extra, both from the package index and from a clone of the repository."""
    return f"pip install 'cheekymonkey[{extra}]' (or, in a clone of the repository: pip install '.[{extra}]')"


def ruleset_from(args: argparse.Namespace) -> Ruleset:
    """The preset named by ``--variant``."""
    return Ruleset.preset(args.variant)


def seed_from(args: argparse.Namespace) -> int:
    """The seed of the game: ``--seed``, or a fresh random one, so the game can be recorded and played again."""
    given: int | None = args.seed
    return secrets.randbelow(1_000_000_000) if given is None else given


def seat_names(args: argparse.Namespace, defaults: list[str]) -> list[str]:
    """The seat names: ``--names`` in seat order, the defaults for seats it leaves out.

    Raises:
        ValueError: If ``--names`` gives more names than there are seats, or the same name twice.
    """
    given: tuple[str, ...] = args.names or ()
    if len(given) > len(defaults):
        raise ValueError(f"{len(given)} names for {len(defaults)} seats: give at most one name per seat")
    names = [*given, *defaults[len(given) :]]
    if len(set(names)) != len(names):
        raise ValueError(f"the names {', '.join(names)} repeat one: give each seat its own name")
    return names


def pause(args: argparse.Namespace) -> None:
    """Wait ``--delay`` seconds if standard output is a terminal (a person is watching); never in a pipe."""
    if args.delay > 0 and sys.stdout.isatty():
        time.sleep(args.delay)


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
