"""``cheekymonkey verify``: prove a game's rules with z3, and print the report.

Each game brings its own proofs (the ``verify`` extra), found through the game
(:func:`cheekymonkey.verify.proofs_of`): Cheeky Monkey's prove a rule set's scoring rules for each seat
count, Too Many Monkeys' its deck and turn. A game that offers none gets one line saying so. The rule set
is a preset (``--preset``, the standard game by default) or a ``ruleset`` JSON document (``--ruleset FILE``,
as written by the game's documents). It is checked for each seat count given with ``--players``
(repeatable), by default every seat count the rule set allows up to 6. Exit status: 0 when nothing is
refuted, 1 when a property is refuted (the report shows a counterexample), 2 if the input cannot be read,
z3 is not installed, or the game offers no proofs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cheekymonkey.cli import install_hint
from cheekymonkey.cli.options import add_game_option, each_game, game_from, number_type
from cheekymonkey.games import games
from cheekymonkey.verify import proofs_of

__all__ = ["add_arguments", "run"]

_seats = number_type(int, 2, what="a number of players")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_option(parser, what="the game whose rules to prove")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--preset",
        choices=sorted({name for game in games() for name in game.preset_names()}),
        default="standard",
        metavar="PRESET",
        help="the preset rule set to verify (default standard), the game's own: "
        + each_game(lambda game: ", ".join(game.preset_names())),
    )
    source.add_argument("--ruleset", type=Path, default=None, help="a ruleset JSON document to verify instead")
    parser.add_argument(
        "--players",
        type=_seats,
        action="append",
        default=None,
        help="a seat count to verify (repeatable; default: every count the rule set allows, up to 6)",
    )


def _fail(message: str) -> int:
    print(f"cheekymonkey verify: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Verify the chosen rule set for each seat count and print the reports; return the exit status."""
    game = game_from(args)
    try:
        proofs = proofs_of(game)
    except ImportError:
        # The command line came with the cli extra; the proofs need z3, from the verify extra.
        return _fail(f"this command needs z3, from the verify extra: {install_hint('verify')}")
    if proofs is None:
        return _fail(f"{game.title} offers no proofs to run")
    if args.ruleset is None and args.preset not in game.preset_names():
        names = ", ".join(game.preset_names())
        return _fail(f"no {game.name} preset named {args.preset!r}; the presets are {names}")
    status: int = proofs(args.preset, args.ruleset, args.players, _fail)
    return status
