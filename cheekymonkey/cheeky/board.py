"""A text board: the table as a few lines of text, for ``print(state)`` and for terminal or chat front ends.

Like ``print(board)`` in python-chess, ``print(state)`` shows the game rather than its fields:
each seat's stack height and top token (all the table shows of a stack, R9), the tokens in front of
the player to move, the bag's size, whose turn it is and the phase. ``repr(state)`` stays the full value.

>>> from cheekymonkey import Animal, Draw, Reveal, Stop, apply_all, new_game
>>> state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL), Draw()])
>>> state = apply_all(state, [Reveal(Animal.LION)])
>>> print(state)
seat  stack  top
   0      1  Lion
>  1      0  -
   2      0  -
front: Seal, Lion
bag: 49 tokens
to move: seat 1 (decide); may claim a Lion from seat 0

The same text comes from :func:`board_text`, which also draws a :class:`~cheekymonkey.TableView`, so a
client that only ever sees views can print them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cheekymonkey.cheeky.rules import Animal

if TYPE_CHECKING:
    from cheekymonkey.cheeky.state import GameState
    from cheekymonkey.cheeky.views import TableView

__all__ = ["board_text"]


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "AEIOU" else f"a {word}"


def _seats(seats: list[int]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"


def board_text(table: GameState | TableView) -> str:
    """The table as text: one line per seat (``>`` marks the seat to move), then the front, the bag and the turn.

    Args:
        table: A game state, or a seat's :class:`~cheekymonkey.TableView` of one (which shows the same).

    Returns:
        Several lines of text, without a trailing newline; ``str(state)`` is the same text.

    >>> from cheekymonkey import new_game, view
    >>> print(board_text(view(new_game(2), 0)))
    seat  stack  top
    >  0      0  -
       1      0  -
    front: nothing
    bag: 52 tokens
    to move: seat 0 (chance): the first draw of the turn
    """
    heights: Sequence[int]
    tops: Sequence[Animal | None]
    stacks = getattr(table, "stacks", None)
    if stacks is not None:
        heights = [len(stack) for stack in stacks]
        tops = [stack[-1] if stack else None for stack in stacks]
        to_move: int = getattr(table, "seat")  # noqa: B009 - a GameState names the seat to move "seat"
    else:
        view: TableView = table  # type: ignore[assignment]
        heights, tops, to_move = view.stack_heights, view.stack_tops, view.to_move
    over = table.phase.name == "OVER"
    width = len(str(len(heights) - 1))
    lines = [f"{'seat':>{3 + width}}  stack  top"]
    for seat, (height, top) in enumerate(zip(heights, tops, strict=True)):
        marker = ">" if seat == to_move and not over else " "
        lines.append(f"{marker}  {seat:>{width}}  {height:>5}  {top if top is not None else '-'}")
    lines.append(f"front: {', '.join(a.label for a in table.front) or 'nothing'}")
    bag = table.bag_size
    lines.append(f"bag: {bag} token{'' if bag == 1 else 's'}")
    if over:
        lines.append("game over: every token is stacked (R15)")
        return "\n".join(lines)
    turn = f"to move: seat {to_move} ({table.phase})"
    if table.phase.name == "CHANCE":
        turn += ": the first draw of the turn" if not table.front else ": a draw is being resolved"
    else:
        extras = []
        others = [seat for seat in range(len(tops)) if seat != to_move and tops[seat] is not None]
        claimable = table.claimable
        if claimable is not None:
            # R7: only an opponent's top showing the animal just drawn can be claimed.
            claims = [seat for seat in others if tops[seat] is claimable]
            if claims:
                extras.append(f"may claim {_article(claimable.label)} from {_seats(claims)}")
        if table.swap_open:
            # R12: the monkey goes to an opponent whose top is not a monkey.
            swaps = [seat for seat in others if tops[seat] is not Animal.MONKEY]
            if swaps:
                extras.append(f"may swap the monkey with {_seats(swaps)}")
        if extras:
            turn += "; " + " and ".join(extras)
    lines.append(turn)
    return "\n".join(lines)
