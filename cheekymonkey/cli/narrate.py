"""Narration shared by the sub-commands: event lines, the table, the score sheet, and a console to print them."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cheekymonkey.bots import bust_probability
from cheekymonkey.narration import (
    LEGEND,
    a,
    count,
    describe_event,
    format_sheet,
    object_name,
    sheet_columns,
    sheet_numbers,
    tokens,
    winners_line,
)
from cheekymonkey.rules import Animal, Ruleset
from cheekymonkey.scoring import ScoreSheet
from cheekymonkey.state import GameState, Phase

__all__ = [
    "ANIMAL_STYLES",
    "a",
    "count",
    "describe_event",
    "format_sheet",
    "make_console",
    "sheet_table",
    "stdin_is_terminal",
    "table_of",
    "tokens",
    "winners_line",
]


def make_console() -> Console:
    """A console for the command's output: no markup or highlighting, so game text prints as written.

    It writes to whatever ``sys.stdout`` is when it prints (tests capture it), with colour only on a terminal.
    """
    terminal = sys.stdout.isatty() if hasattr(sys.stdout, "isatty") else False
    # Off a terminal rich assumes 80 columns, which squeezes the score sheet; pipes and logs can take more.
    return Console(markup=False, highlight=False, emoji=False, soft_wrap=True, width=None if terminal else 120)


ANIMAL_STYLES: dict[Animal, str] = {
    Animal.ELEPHANT: "grey62",
    Animal.SEAL: "blue",
    Animal.HIPPO: "magenta",
    Animal.GIRAFFE: "yellow",
    Animal.PANDA: "cyan",  # not white: it must show on light terminals too
    Animal.KANGAROO: "dark_orange",
    Animal.LION: "red",
    Animal.MONKEY: "green",
}
"""One colour per animal for the score sheet and the table; rich shows it at a terminal and drops it in a pipe."""


def _styled(text: str, animal: Animal | None) -> Text:
    return Text(text, style=ANIMAL_STYLES[animal] if animal is not None else "")


def table_of(state: GameState, names: Sequence[str]) -> Table:
    """The table as a player sees it (R9): each stack's top and height, the front, the bag, the bust odds."""
    table = Table(title=f"Bag: {count(state.bag_size, 'token')}", title_justify="left")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("stack", justify="right")
    table.add_column("top")
    for seat, stack in enumerate(state.stacks):
        marker = "> " if seat == state.seat and state.phase is not Phase.OVER else ""
        top = stack[-1] if stack else None
        table.add_row(str(seat), marker + names[seat], str(len(stack)), _styled(top.label if top else "-", top))
    if state.phase is not Phase.OVER:
        caption = f"In front of {object_name(names[state.seat])}: {tokens(state.front)}."
        if state.phase is Phase.DECIDE and state.bag_size:
            bust = bust_probability(state)
            caption += f" Drawing again busts with probability {bust:.0%}."
        table.caption = caption
        table.caption_justify = "left"
    return table


def sheet_table(sheet: ScoreSheet, ruleset: Ruleset, names: Sequence[str]) -> Table:
    """The score sheet as a rich table: tokens per animal, in its colour (a star for a bonus tile), then the scores.

    Without bonus tiles (R19) there is no bonus column and no star; with them a legend explains the star.
    """
    animals, columns = sheet_columns(ruleset)
    caption = winners_line(sheet, names)
    if ruleset.bonus_tiles:
        caption = f"{LEGEND}\n{caption}"
    table = Table(title="Final scores", title_justify="left", caption=caption)
    table.caption_justify = "left"
    table.add_column("player")
    for animal in animals:
        table.add_column(_styled(animal.label, animal), justify="right")
    for column in columns:
        table.add_column(column, justify="right")
    for line in sheet.seats:
        cells = [_styled(f"{line.counts[a]}{'*' if sheet.tile_holders[a] == line.seat else ''}", a) for a in animals]
        table.add_row(names[line.seat], *cells, *sheet_numbers(sheet, line.seat, columns))
    return table


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (and not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
