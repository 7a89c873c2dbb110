"""``cheekymonkey verify`` for Cheeky Monkey: prove a rule set's scoring with z3 for each seat count, and print it.

The command line finds a game's proofs by the game's name and calls their ``command_line``, the same for
every game (Too Many Monkeys' is :func:`cheekymonkey.toomany.verify.command_line`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.verify.model import verify_ruleset
from cheekymonkey.errors import CheekyMonkeyError

__all__ = ["command_line"]

_DEFAULT_MOST_SEATS: Final = 6
"""Without ``--players``, seat counts above this are skipped: they take z3 longer and add little."""


def command_line(preset: str, document: Path | None, players: Sequence[int] | None, fail: Callable[[str], int]) -> int:
    """Print the report of a preset, or of the ``ruleset`` document in the file ``document``; 1 if refuted.

    ``players`` are the seat counts to prove (None: every count the rule set allows, up to 6). ``fail``
    prints a one-line error and returns status 2.
    """
    if document is not None:
        from cheekymonkey.cheeky.documents import load_ruleset

        try:
            ruleset = load_ruleset(document.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            return fail(f"cannot read {str(document)!r}: {error}")
        except CheekyMonkeyError as error:
            return fail(f"{document}: {error}")
    else:
        ruleset = Ruleset.preset(preset)
    if players:
        seat_counts = sorted(set(players))
        for count in seat_counts:
            if not ruleset.allows_players(count):
                return fail(
                    f"{count} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players}"
                )
    else:
        seat_counts = list(range(ruleset.min_players, min(ruleset.max_players, _DEFAULT_MOST_SEATS) + 1))
    refuted = 0
    for count in seat_counts:
        report = verify_ruleset(ruleset, count)
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
