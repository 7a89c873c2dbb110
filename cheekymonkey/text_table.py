"""Text tables: what a game draws for people (the board, the score sheet), as cells any front end can show."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import attrs

__all__ = ["Cell", "Column", "TextTable"]


@attrs.frozen(slots=True)
class Cell:
    """One cell of a :class:`TextTable`: its text, and a colour a front end may show it in.

    >>> Cell("Lion", "red")
    Cell(text='Lion', colour='red')
    """

    text: str
    """What the cell says."""
    colour: str | None = None
    """A colour name (``"red"``, ``"blue"``, ``"grey62"``: the names a terminal library such as rich knows), or None."""


@attrs.frozen(slots=True)
class Column:
    """One column of a :class:`TextTable`: its header, an abbreviation for narrow screens, its alignment."""

    header: Cell
    """The header, in full."""
    short: str | None = None
    """A shorter header used when the table must be narrowed (``"Ele"`` for ``"Elephant"``), or None."""
    right: bool = False
    """Whether the column is aligned right (numbers)."""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "\u2026"


@attrs.frozen(slots=True)
class TextTable:
    """A small table a game draws for people (the board, the score sheet), for any front end to show.

    A terminal draws it with colours (the command line uses rich), a log or a chat as plain text with
    :meth:`text`; :meth:`fit` narrows it to a width first, the same way for both.

    >>> table = TextTable(
    ...     (Column(Cell("player")), Column(Cell("Elephant", "grey62"), "Ele", right=True)),
    ...     ((Cell("Ann"), Cell("3")), (Cell("Bob"), Cell("0"))),
    ...     title="Final scores",
    ...     notes=("Winner: Ann.",),
    ... )
    >>> print(table.text())
    Final scores
    player  Elephant
    Ann            3
    Bob            0
    Winner: Ann.
    >>> print(table.text(width=12))
    Final scores
    player  Ele
    Ann       3
    Bob       0
    Winner: Ann.
    """

    columns: tuple[Column, ...]
    """The columns, left to right."""
    rows: tuple[tuple[Cell, ...], ...]
    """The rows, one cell per column each."""
    title: str = ""
    """A line above the table, or empty."""
    notes: tuple[str, ...] = ()
    """Lines below the table (a legend, the winners, the odds of a bust)."""

    GAP = 2
    """Spaces between two columns."""

    def widths(self) -> list[int]:
        """Each column's width: its widest cell or header."""
        return [
            max([len(column.header.text), *(len(row[index].text) for row in self.rows)])
            for index, column in enumerate(self.columns)
        ]

    def width(self) -> int:
        """How many characters the widest line of :meth:`text` has (the title and notes wrap to fit)."""
        return sum(self.widths()) + self.GAP * (len(self.columns) - 1)

    def fit(self, width: int = 80) -> TextTable:
        """This table at most ``width`` characters wide, if it can be: short headers, then long texts clipped.

        Columns aligned left (names) are clipped with an ellipsis, the widest first, to no fewer than 4
        characters; numbers are never clipped.
        """
        table = self
        if table.width() > width:
            short = tuple(
                attrs.evolve(c, header=attrs.evolve(c.header, text=c.short or c.header.text)) for c in table.columns
            )
            table = attrs.evolve(table, columns=short)
        while table.width() > width:
            widths = table.widths()
            clippable = [i for i, c in enumerate(table.columns) if not c.right and widths[i] > 4]
            if not clippable:
                break
            widest = max(clippable, key=lambda i: widths[i])
            limit = max(4, widths[widest] - (table.width() - width))
            column = table.columns[widest]
            header = attrs.evolve(column.header, text=_clip(column.header.text, limit))
            columns = (*table.columns[:widest], attrs.evolve(column, header=header), *table.columns[widest + 1 :])
            rows = tuple(
                (*row[:widest], attrs.evolve(row[widest], text=_clip(row[widest].text, limit)), *row[widest + 1 :])
                for row in table.rows
            )
            table = attrs.evolve(table, columns=columns, rows=rows)
        return table

    def text(self, width: int = 80) -> str:
        """The table as plain text, fitted to ``width`` columns (:meth:`fit`), the title and notes wrapped to it."""
        table = self.fit(width)
        widths = table.widths()

        def line(cells: Sequence[str]) -> str:
            parts = [
                f"{text:>{w}}" if column.right else f"{text:<{w}}"
                for text, w, column in zip(cells, widths, table.columns, strict=True)
            ]
            return (" " * self.GAP).join(parts).rstrip()

        lines = textwrap.wrap(table.title, width) if table.title else []
        lines.append(line([column.header.text for column in table.columns]))
        lines += [line([cell.text for cell in row]) for row in table.rows]
        for note in table.notes:
            lines += textwrap.wrap(note, width) or [""]
        return "\n".join(lines)
