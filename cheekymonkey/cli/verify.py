"""``cheekymonkey verify``: prove a rule set's scoring rules with z3, and print the report.

The rule set is a preset (``--preset``, the standard game by default) or a ``ruleset`` JSON document
(``--ruleset FILE``, as written by :func:`cheekymonkey.serialization.dump_ruleset`). It is checked for
each seat count given with ``--players`` (repeatable), by default every seat count the rule set allows
up to 6. Exit status: 0 when nothing is refuted, 1 when a property is refuted (the report shows a
counterexample table), 2 if the input cannot be read or z3 is not installed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cheekymonkey.cli import install_hint
from cheekymonkey.cli.options import number_type
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.games import DEFAULT_GAME, GAME_NAMES
from cheekymonkey.rules import MAX_PLAYERS, Ruleset
from cheekymonkey.toomany import Ruleset as TooManyMonkeysRuleset

__all__ = ["add_arguments", "run"]

_DEFAULT_MOST_SEATS = 6
"""Without ``--players``, seat counts above this are skipped: they take z3 longer and add little."""


_seats = number_type(int, 2, MAX_PLAYERS, what="a number of players")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    source = parser.add_mutually_exclusive_group()
    parser.add_argument(
        "--game", choices=GAME_NAMES, default=DEFAULT_GAME, help=f"the game to prove (default {DEFAULT_GAME})"
    )
    source.add_argument(
        "--preset",
        choices=sorted({*Ruleset.preset_names(), *TooManyMonkeysRuleset.preset_names()}),
        default="standard",
        help="the preset rule set to verify (default standard)",
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
    try:
        from cheekymonkey.verify import verify_ruleset
    except ImportError:
        # The command line came with the cli extra; the proofs need z3, from the verify extra.
        return _fail(f"this command needs z3, from the verify extra: {install_hint('verify')}")
    if args.game == "too-many-monkeys":
        from cheekymonkey.toomany.verify import command_line

        return command_line(args.preset, args.ruleset, args.players, _fail)
    if args.preset not in Ruleset.preset_names():
        names = ", ".join(Ruleset.preset_names())
        return _fail(f"no {args.game} preset named {args.preset!r}; the presets are {names}")
    if args.ruleset is not None:
        from cheekymonkey.serialization import load_ruleset

        try:
            ruleset = load_ruleset(args.ruleset.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            return _fail(f"cannot read {str(args.ruleset)!r}: {error}")
        except CheekyMonkeyError as error:
            return _fail(f"{args.ruleset}: {error}")
    else:
        ruleset = Ruleset.preset(args.preset)
    if args.players:
        seat_counts = sorted(set(args.players))
        for players in seat_counts:
            if not ruleset.allows_players(players):
                return _fail(
                    f"{players} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players}"
                )
    else:
        seat_counts = list(range(ruleset.min_players, min(ruleset.max_players, _DEFAULT_MOST_SEATS) + 1))
    refuted = 0
    for players in seat_counts:
        report = verify_ruleset(ruleset, players)
        print(report.format())
        print(f"Highest score of one seat in a finished game: {report.max_score}, reached by:")
        for seat, row in enumerate(report.max_score_table):
            print(f"  seat {seat}: " + ", ".join(f"{a.label} {row[a]}" for a in ruleset.animals))
        print()
        refuted += len(report.refuted)
    print(
        "All properties proved."
        if not refuted
        else f"{refuted} {'property' if refuted == 1 else 'properties'} refuted."
    )
    return 1 if refuted else 0
