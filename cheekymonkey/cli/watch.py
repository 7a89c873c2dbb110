"""``cheekymonkey watch``: a narrated game between bots, then the result.

A thin layer over a :class:`~cheekymonkey.Table` of bots (:class:`~cheekymonkey.cli.table_run.TableRun`): each
step's events are narrated once, as a spectator reads them. It takes the same options as ``play``
(:func:`cheekymonkey.cli.options.add_table_options`), so either default command accepts what the other does.
A record is saved only with ``--record FILE``.
"""

from __future__ import annotations

import argparse
from typing import Any

from cheekymonkey.cli.options import (
    add_table_options,
    bots_for_seats,
    check_bots,
    game_from,
    players_from,
    ruleset_from,
    seat_names,
    seed_from,
)
from cheekymonkey.cli.table_run import TableRun, claim_record
from cheekymonkey.table import Seat, Table

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_table_options(parser, bots_who="the bots to seat", record_default="default: none is saved")


def run(args: argparse.Namespace) -> int:
    """Play and narrate one game between bots; return 0 (2 for bad options or record file, 3 if it cannot be saved)."""
    from cheekymonkey.cli.narrate import make_console

    game = game_from(args)
    ruleset = ruleset_from(game, args)
    players = players_from(game, ruleset, args.players)
    check_bots(game, args.bots)
    kinds = bots_for_seats(args.bots, players)
    names = seat_names(args, [f"{game.bot_title(kind)} {seat}" for seat, kind in enumerate(kinds)])
    console = make_console()
    # As in play: the record's file is claimed before the game (never an existing one without --overwrite).
    file = claim_record(args, game, "watch", default=False)
    seed = seed_from(args)
    seats = [Seat.bot(game, kind, name) for kind, name in zip(kinds, names, strict=True)]
    table: Table[Any, Any, Any, Any, Any] = Table(game, seats, ruleset=ruleset, seed=seed)
    given = "" if args.seed is not None else ", chosen at random"
    rules = args.variant or game.preset_names()[0]
    console.print(
        f"{game.title}, {rules} rules, {players} players, seed {seed}{given}: "
        + ", ".join(f"{name} ({kind})" for name, kind in zip(names, kinds, strict=True))
        + "."
    )
    session = TableRun(console, table, names, viewer=None, delay=args.delay, file=file, command="watch")
    session.save()
    session.advance()
    return session.finish(0)
