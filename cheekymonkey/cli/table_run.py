"""One game at a table, as ``play`` and ``watch`` run it: narrated, paced, and recorded as it goes.

The :class:`~cheekymonkey.Table` plays; :class:`TableRun` is the one loop around it that both commands share:
it lets the table resolve chance and play the bots (:meth:`~cheekymonkey.Table.steps`), waits ``--delay``
before each bot's move at a terminal, narrates every step once, saves the record after every move, and
shows the result at the end.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cheekymonkey.cli.options import (
    OptionError,
    bots_for_seats,
    bots_from,
    game_from,
    pause,
    players_from,
    ruleset_from,
    seat_names,
    seed_from,
)
from cheekymonkey.cli.record_file import RecordFile, RecordFileError, default_record_path
from cheekymonkey.games import AnyGame
from cheekymonkey.table import Seat, Step, Table, Waiting

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["TableRun", "claim_record", "seat_table"]


def claim_record(args: argparse.Namespace, game: AnyGame, command: str, *, default: bool) -> RecordFile | None:
    """The record file of ``--record`` (with ``default``, a new file when none is named), claimed now; or None.

    Raises:
        OptionError: If the file cannot be written, or exists already without ``--overwrite``.
    """
    if args.no_record or (args.record is None and not default):
        return None
    try:
        return RecordFile(args.record or default_record_path(), overwrite=args.overwrite, documents=game.documents())
    except RecordFileError as error:
        raise OptionError(str(error)) from None


def seat_table(args: argparse.Namespace, command: str, *, person: str | None) -> TableRun:
    """The table the options describe, ready to play: a person in seat 0 named ``person`` (or none), bots elsewhere.

    The game, its rules, the seats, the bots and the names are checked, and the record file claimed, before
    the table is made.

    Raises:
        OptionError: If an option does not fit the game, or the record file cannot be claimed.
    """
    from cheekymonkey.cli.narrate import make_console

    game = game_from(args)
    ruleset = ruleset_from(game, args)
    players = players_from(game, ruleset, args.players)
    first_bot = 0 if person is None else 1
    kinds = bots_for_seats(bots_from(game, args), players - first_bot)
    defaults = [] if person is None else [person]
    defaults += [f"{game.bot_title(kind)} {seat}" for seat, kind in enumerate(kinds, first_bot)]
    names = seat_names(args, defaults)
    # The record's file is claimed before the game, so a bad path loses no game (exit status 2).
    file = claim_record(args, game, command, default=person is not None)
    seats = [] if person is None else [Seat.person(names[0])]
    seats += [Seat.bot(game, kind, name) for kind, name in zip(kinds, names[first_bot:], strict=True)]
    table: Table[Any, Any, Any, Any, Any] = Table(game, seats, ruleset=ruleset, seed=seed_from(args))
    viewer = None if person is None else 0
    run = TableRun(make_console(), table, names, viewer=viewer, delay=args.delay, file=file, command=command)
    run.seed_given = args.seed is not None
    return run


class TableRun:
    """A table being played at the terminal: narration, pacing and the record file, around the table's own loop.

    Args:
        console: Where to print.
        table: The table (its seats say who is a bot).
        names: The seats' names.
        viewer: The seat read as "you", or None for a spectator.
        delay: Seconds to wait before each bot's move at a terminal.
        file: Where to save the record after every move, or None.
        command: The command's name, for messages.
    """

    def __init__(
        self,
        console: Console,
        table: Table[Any, Any, Any, Any, Any],
        names: Sequence[str],
        *,
        viewer: int | None,
        delay: float,
        file: RecordFile | None,
        command: str,
    ) -> None:
        from cheekymonkey.cli.narrate import Narrator

        self.console = console
        self.table = table
        self.game: AnyGame = table.game
        self.names = list(names)
        self.narrator = Narrator(console, self.game, names, viewer)
        self.delay = delay
        self.file = file
        self.command = command
        self.save_failed = False
        self.quit_by: int | None = None
        """The seat whose player quit the game, once one has: the record saved says so."""
        self.seed_at_end = False
        """Whether the seed is shown with the result (``play``; ``watch`` of a game with private information) and
        not before: a seed predicts every draw, so nobody at the table sees it while the game goes on."""
        self.seed_given = False
        """Whether the seed was given (``--seed``), not chosen at random: the line that shows it says which."""
        self.on_round_end: Callable[[int], None] | None = None
        """With it, a round won draws the board that won it, then calls it with the next round's number (``play``)."""
        package = type(self.game).__module__.rpartition(".")[0]
        try:
            narration = importlib.import_module(f"{package}.narration")
        except ImportError:
            narration = None
        self._round_won_state: Callable[[Any, Sequence[Any]], Any] | None = getattr(narration, "round_won_state", None)

    def header(self, args: argparse.Namespace) -> str:
        """The game's title and rules, as the first line of output names them: ``"Cheeky Monkey, standard rules"``."""
        rules = args.variant or self.game.preset_names()[0]
        return f"{self.game.title}, {rules} rules"

    def save(self) -> None:
        """Save the record so far; a failure is reported once on stderr, and tried again at the next move."""
        if self.file is None:
            return
        try:
            self.file.save(self.table.record(quit_by=self.quit_by))
        except RecordFileError as error:
            if not self.save_failed:
                print(f"cheekymonkey {self.command}: {error}", file=sys.stderr)
            self.save_failed = True
        else:
            self.save_failed = False

    def _pace(self) -> None:
        # A moment before each bot's move at a terminal, so a person can follow; none inside one move.
        if self.table.waiting is Waiting.BOT and not self.game.mid_move(self.table.state):
            pause(self.delay)

    def played(self, steps: Sequence[Step[Any, Any, Any]]) -> None:
        """Narrate steps already played, then save; a round won draws the board that won it, then waits."""
        for step in steps:
            self.narrator.step(step)
            if self.on_round_end is None or self._round_won_state is None:
                continue  # a spectator's narration is the record's own (its replay shows the same lines)
            won = self._round_won_state(step.before, step.events)
            if won is not None:
                self.narrator.flush()
                self.console.print("The board that won the round:")
                self.narrator.board(won)
                if not self.game.is_terminal(step.after):
                    self.on_round_end(self.game.round_of(step.after))
        self.save()

    def advance(self) -> None:
        """Let the table play chance and the bots until a person must decide or the game is finished."""
        self._pace()
        for step in self.table.steps():
            self.played([step])
            self._pace()

    def finish(self, status: int) -> int:
        """Show the result of a finished game, save the record a last time; return ``status``, 3 if unsaved."""
        self.narrator.flush()
        if self.table.over:
            self.narrator.result(self.table.state)
        if self.seed_at_end and (self.table.over or self.quit_by is not None):
            # The game is over (played out or given up): the seed now predicts nothing, and plays it again.
            given = "" if self.seed_given else ", chosen at random"
            seed = self.table.seed
            self.console.print(f"Seed {seed}{given}: --seed {seed} deals this game again.", soft_wrap=True)
        if self.file is None:
            return status
        self.save()
        if self.save_failed:
            return 3
        # The path and the command are never broken across lines (at 80 columns a long path was, and the
        # command copied from the screen then lost its file): a terminal narrower than them wraps them itself.
        self.console.print(f"Record saved to {self.file.path}", soft_wrap=True, markup=False, highlight=False)
        self.console.print("Replay it with:")
        command = f"  cheekymonkey replay {shlex.quote(str(self.file.path))}"
        self.console.print(command, soft_wrap=True, markup=False, highlight=False)
        return status
