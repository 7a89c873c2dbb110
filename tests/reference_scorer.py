"""An independent scorer, written from rulings R2 and R16-R18 alone, to check the engine's scorer against.

It shares no code with :mod:`cheekymonkey.cheeky.scoring` and takes plain data: one row of token counts per
seat (indexed by animal), the tile values (indexed by animal) and whether tiles are in play. It is kept
short and literal on purpose, so that a reader can check it against the rulings line by line:

- R16: an animal's tile goes to the one seat holding strictly more of its tokens than every other seat,
  and at least one; a shared largest holding gives it to nobody.
- R17: a seat scores one point per token plus the value of each tile it took.
- R18: the highest score wins; among seats sharing it, the one holding the highest single tile wins; if
  none of them holds a tile, or (with repeated custom values) the best tiles are equal, they share.
- R19: without tiles, the score is the stack's height and the tallest stacks share the win.

The standard tile values are written out here from R2 (a tile is worth its animal's token count), not
read from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

STANDARD_VALUES: Final = (3, 4, 5, 6, 7, 8, 9, 10)
"""R2: Elephant 3, Seal 4, Hippo 5, Giraffe 6, Panda 7, Kangaroo 8, Lion 9, Monkey 10."""


class Outcome(NamedTuple):
    """What the rulings say a table scores: tile holders, totals, winners and how they were decided."""

    holders: tuple[int | None, ...]
    """Per animal, the seat that takes its tile, or None."""
    totals: tuple[int, ...]
    """Per seat, tokens plus tile values."""
    winners: tuple[int, ...]
    """The winning seats, ascending."""
    decision: str
    """``"score"``, ``"tie-break"`` or ``"shared"`` (the values of ``cheekymonkey.Decision``)."""


def tile_holder(holdings: Sequence[int]) -> int | None:
    """R16: the seat whose holding is larger than every other seat's and at least 1, else None."""
    for seat, held in enumerate(holdings):
        if held >= 1 and all(held > other for other_seat, other in enumerate(holdings) if other_seat != seat):
            return seat
    return None


def reference_score(rows: Sequence[Sequence[int]], values: Sequence[int], *, tiles: bool = True) -> Outcome:
    """Score a table of token counts by R16-R18 (R19 when ``tiles`` is false)."""
    seats = range(len(rows))
    animals = range(len(values))
    holders = tuple(tile_holder([rows[seat][animal] for seat in seats]) if tiles else None for animal in animals)
    taken: list[list[int]] = [[values[a] for a in animals if holders[a] == seat] for seat in seats]
    totals = tuple(sum(rows[seat]) + sum(taken[seat]) for seat in seats)
    best = max(totals)
    tied = [seat for seat in seats if totals[seat] == best]
    if len(tied) == 1:
        return Outcome(holders, totals, tuple(tied), "score")
    with_tiles = [seat for seat in tied if taken[seat]]
    if not with_tiles:
        return Outcome(holders, totals, tuple(tied), "shared")
    top_tile = max(max(taken[seat]) for seat in with_tiles)
    winners = tuple(seat for seat in with_tiles if max(taken[seat]) == top_tile)
    return Outcome(holders, totals, winners, "tie-break" if len(winners) == 1 else "shared")


def stacks_to_rows(stacks: Sequence[Sequence[int]], animals: int = 8) -> list[list[int]]:
    """Count each seat's tokens per animal (tokens given as animal numbers 0-7)."""
    rows = []
    for stack in stacks:
        row = [0] * animals
        for token in stack:
            row[int(token)] += 1
        rows.append(row)
    return rows
