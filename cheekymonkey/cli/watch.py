"""``cheekymonkey watch``: a narrated game between bots, then the result.

A thin layer over a :class:`~cheekymonkey.Table` of bots (:class:`~cheekymonkey.cli.table_run.TableRun`): each
step's events are narrated once, as a spectator reads them: for a game with private information the events a
spectator is shown (:meth:`~cheekymonkey.Game.event_for` with no seat), the board as the spectator sees it, the
hands at the end as the rules reveal them, and the seed with the result, not before. It takes the same options as
``play`` (:func:`cheekymonkey.cli.options.add_table_options`), so either default command accepts what the other
does. A record is saved only with ``--record FILE``.
"""

from __future__ import annotations

import argparse
import sys

from cheekymonkey.cli.options import add_table_options, plural
from cheekymonkey.cli.table_run import seat_table

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_table_options(parser, bots_who="the bots to seat", record_default="default: none is saved")


def run(args: argparse.Namespace) -> int:
    """Play and narrate one game between bots; return 0 (2 for bad options or record file, 3 if it cannot be saved)."""
    session = seat_table(args, "watch", person=None)
    table = session.table
    # A game with private information keeps its seed for the end, where the hands are shown as the rules reveal
    # them: before, the seed would predict every hand. Other games show it at the start, as they always did.
    session.seed_at_end = table.game.private_information
    given = "" if args.seed is not None else ", chosen at random"
    seed = "" if session.seed_at_end else f", seed {table.seed}{given}"
    session.console.print(
        f"{session.header(args)}, {plural(table.players, 'player')}{seed}: "
        + ", ".join(f"{name} ({kind})" for name, kind in zip(table.names, table.kinds, strict=True))
        + "."
    )
    session.save()
    try:
        session.advance()
    except KeyboardInterrupt:
        session.console.print()
        print("cheekymonkey watch: interrupted: the game is left unfinished.", file=sys.stderr)
        return session.finish(130)  # the shell's convention for a program stopped by Ctrl-C
    return session.finish(0)
