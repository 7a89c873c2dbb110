"""What the commands show at a table, for any game: a console, the game's tables drawn with rich, and narration.

The words and the tables come from the game (:class:`~cheekymonkey.game.Game`: ``event_text``,
``board_table``, ``result_table``); this module only draws them, coloured at a terminal and plain in a pipe,
at most as wide as the terminal (80 columns off a terminal).
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from cheekymonkey.games import AnyGame
from cheekymonkey.table import Step, events_seen
from cheekymonkey.text_table import TextTable

__all__ = ["WIDTH", "Narrator", "draw", "make_console", "stdin_is_terminal"]

WIDTH = 80
"""The width of the output off a terminal (a pipe, a log), and the most it assumes of a terminal it cannot measure."""


def make_console() -> Console:
    """A console for the command's output: no markup or highlighting, so game text prints as written.

    It writes to whatever ``sys.stdout`` is when it prints (tests capture it). At a terminal it has colour,
    and wraps long lines between words at the terminal's width; off a terminal (a pipe, a log) a line is
    written whole, and tables are drawn :data:`WIDTH` columns wide at most.
    """
    terminal = sys.stdout.isatty() if hasattr(sys.stdout, "isatty") else False
    width = shutil.get_terminal_size((WIDTH, 24)).columns if terminal else WIDTH
    return Console(markup=False, highlight=False, emoji=False, soft_wrap=not terminal, width=width)


def draw(table: TextTable, width: int, widths: dict[str, int] | None = None) -> Group:
    """A game's :class:`~cheekymonkey.text_table.TextTable` drawn with rich, at most ``width`` columns wide, in colour.

    The notes follow the table as lines of their own, wrapped between words to ``width`` (not to the table's
    width), the same at a terminal and in a pipe. ``widths``, kept from one drawing to the next, holds each
    column's widest content so far (by its header), and no column is drawn narrower: a board drawn again and
    again keeps its columns where they were.
    """
    fitted = table.fit(width)
    kept = {} if widths is None else widths
    for index, column in enumerate(fitted.columns):
        key = column.header.text
        widest = max([len(column.header.text), *(len(row[index].text) for row in fitted.rows)])
        kept[key] = max(kept.get(key, 0), widest)
    drawn = Table(
        title=fitted.title or None,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    for column in fitted.columns:
        drawn.add_column(
            Text(column.header.text, style=column.header.colour or ""),
            justify="right" if column.right else "left",
            no_wrap=True,
            min_width=kept[column.header.text] if widths is not None else None,
        )
    for row in fitted.rows:
        drawn.add_row(*(Text(cell.text, style=cell.colour or "") for cell in row))
    # Wrapped here, not by the console: a pipe or a log gets the lines an 80-column terminal shows.
    lines = [line for note in fitted.notes for line in textwrap.wrap(note, width) or [""]]
    return Group(drawn, *(Text(line) for line in lines))


class Narrator:
    """Prints what happens at a table, one line per event, as ``viewer`` reads it (None: a spectator).

    ``viewer`` is shown its own information only: each event goes through the game's
    :meth:`~cheekymonkey.Game.event_for` (:func:`~cheekymonkey.table.events_seen`; an event that shows the
    viewer nothing is left out), and the board is the viewer's view. For a game with private information the
    result is drawn below the board as the viewer sees it at the end: what the rules reveal (a showdown's
    hands), and no more.

    The events of one move made of several actions (tokens stacked one at a time) are held until the move is
    complete, then printed together (:meth:`~cheekymonkey.Game.merge_events`), so a move reads as one line.
    """

    def __init__(self, console: Console, game: AnyGame, names: Sequence[str], viewer: int | None = None) -> None:
        self.console = console
        self.game = game
        self.names = list(names)
        self.viewer = viewer
        self._held: list[Any] = []
        # The player column from the first board on as wide as any seat's name, marked as the one to move.
        marked = [len(f"> {name}{' (you)' if seat == viewer else ''}") for seat, name in enumerate(self.names)]
        self._widths: dict[str, int] = {"player": max(marked, default=0)}

    def step(self, step: Step[Any, Any, Any]) -> None:
        """Narrate one step's events, or hold them while its move goes on."""
        self._held.extend(step.events)
        # The step that begins such a move (a stop) is told at once; the steps inside it wait for its end.
        if not (self.game.mid_move(step.before) and self.game.mid_move(step.after)):
            self.flush()

    def flush(self) -> None:
        """Print every event held."""
        for event in self.game.merge_events(events_seen(self.game, self._held, self.viewer)):
            self.console.print(self.game.event_text(event, self.names, self.viewer))
        self._held.clear()

    def board(self, state: Any) -> None:
        """Draw the board as the viewer sees it."""
        self.console.print(
            draw(self.game.board_table(state, self.names, self.viewer), self.console.width, self._widths)
        )

    def result(self, state: Any) -> None:
        """Draw the final result; for a game with private information, the board as the viewer sees it first."""
        if self.game.private_information:
            self.board(state)
        self.console.print()
        self.console.print(draw(self.game.result_table(state, self.names), self.console.width))


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (and not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
