"""A text board: the table as a few lines of text, for ``print(state)`` and for terminal or chat front ends.

Each seat's row, position 1 first: a face-up card shows its code (``3``, ``W`` for a wild), a card turned
down by a Do Not Disturb shows in brackets (``(3)``, known to all, TM15), and a card nobody has seen shows
``?``. Then the card in hand, the piles, and what happens next. ``repr(state)`` stays the full value.

>>> from cheekymonkey.toomany import Card, Reveal, apply_all, new_game
>>> state = apply_all(new_game(2), [Reveal(Card.THREE), Reveal(Card.WILD)])
>>> print(state)
round 1, begun by seat 0
>  0   ?  ?  3  ?  ?  ?
   1   ?  ?  ?  ?  ?  ?
hand: wild
draw pile: 42 cards
discard pile: empty
to move: seat 0 (wild): put the wild on a face-down position: 1, 2, 4, 5 or 6

The same text comes from a :class:`~cheekymonkey.toomany.TableView`, so a client that only sees views
prints the same board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from cheekymonkey.text_table import Cell, Column, TextTable
from cheekymonkey.toomany.cards import CARDS, Card, FaceDown, Slot
from cheekymonkey.toomany.state import GameState, Phase, raccoon_choices

if TYPE_CHECKING:
    from cheekymonkey.toomany.views import TableView

__all__ = ["board_table", "board_text"]


def cell(slot: Slot) -> str:
    """A row position as the board shows it: ``"3"`` face up, ``"(3)"`` turned down and known, ``"?"`` unseen."""
    if slot is None:
        return "?"
    if isinstance(slot, FaceDown):
        return f"({slot.card.code})"
    return slot.code


def or_list(items: Sequence[str]) -> str:
    """Items for people: ``"1"``, ``"1 or 2"``, ``"1, 2 or 4"``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def board_text(table: GameState | TableView) -> str:
    """The table as text: the round, one line per seat (``>`` marks the seat to move), the hand, the piles, the turn.

    Args:
        table: A game state, or a :class:`~cheekymonkey.toomany.TableView` of one (which shows the same).

    Returns:
        Several lines of text, without a trailing newline; ``str(state)`` is the same text.
    """
    seat = table.seat if isinstance(table, GameState) else table.to_move
    over = table.phase is Phase.OVER
    width = len(str(len(table.rows) - 1))
    lines = [f"round {table.round}, begun by seat {table.round_first}"]
    for other, row in enumerate(table.rows):
        marker = ">" if other == seat and not over else " "
        cells = "".join(f"{cell(slot):^3}" for slot in row)
        waiting = "  Skip waiting" if table.skips[other] else ""
        lines.append(f"{marker}  {other:>{width}}  {cells}{waiting}".rstrip())
    if table.hand is not None:
        lines.append(f"hand: {table.hand.label}")
    size = table.pile_size
    pile = f"draw pile: {size} card{'' if size == 1 else 's'}"
    if table.pile is not None and size:
        pile += f" (reshuffled: {' '.join(card.code for card in CARDS for _ in range(table.pile[card - 1]))})"
    lines.append(pile)
    discard = " ".join(card.code for card in table.discard)
    lines.append(f"discard pile: {discard + ' (top last)' if len(table.discard) > 1 else discard or 'empty'}")
    lines.append(_turn(table, seat))
    return "\n".join(lines)


def _turn(table: GameState | TableView, seat: int) -> str:
    phase = table.phase
    if phase is Phase.OVER:
        return f"game over: seat {seat} turned its last card face up and won (TM23)"
    row = table.rows[seat]
    hand = table.hand
    rows = table.rows
    others = [other for other in range(len(rows)) if other != seat]
    if phase is Phase.START:
        top = table.discard[-1]
        what = f"draw from the pile, or take the {top.label} from the discard pile"
    elif phase is Phase.DRAW or phase is Phase.CHOSEN_DRAW:
        what = "the card drawn from the pile is revealed next"
    elif phase is Phase.TURN_UP:
        what = "the card picked up from the row is revealed next"
    elif phase is Phase.WILD:
        downs = [str(position) for position, slot in enumerate(row, start=1) if not isinstance(slot, Card)]
        what = f"put the wild on a face-down position: {or_list(downs)}"
    elif phase is Phase.BONUS:
        assert hand is not None
        what = f"take the wild bonus with the {hand.label} at position {hand.label}, or decline it"
    elif phase is Phase.RACCOON:
        choices = [card.label for card in raccoon_choices(row, table.discard[:-1])]
        what = f"the raccoon may take a {or_list(choices)} from the discard pile, or nothing"
    elif phase is Phase.DISTURB:
        targets = [str(other) for other in others if any(isinstance(slot, Card) for slot in rows[other])]
        what = f"turn down a face-up card of seat {or_list(targets)}, or none"
    else:
        targets = [str(other) for other in others if not table.skips[other]]
        what = f"give the Skip to seat {or_list(targets)}, or to nobody"
    return f"to move: seat {seat} ({phase}): {what}"


_COLOURS: Final = {"up": "green", "wild": "magenta", "known": "yellow", "unseen": "grey50", "skip": "red"}
"""The colour of each kind of board cell, for a front end that shows colours."""


def _position(slot: Slot) -> Cell:
    # Three characters each, centred by hand (" 3 ", "(3)", " ? "), in columns aligned left: no front end strips them.
    if slot is None:
        return Cell(" ? ", _COLOURS["unseen"])
    if isinstance(slot, FaceDown):
        return Cell(f"({slot.card.code})", _COLOURS["known"])
    return Cell(f" {slot.code} ", _COLOURS["wild" if slot is Card.WILD else "up"])


def _labels(cards: Sequence[Card]) -> str:
    return ", ".join(card.label for card in cards)


def board_table(state: GameState, names: Sequence[str], viewer: int | None = None) -> TextTable:
    """The table as ``viewer`` sees it, as cells: each seat's row by position and its Skip, the hand and the piles.

    A face-up card shows its code (``W`` a wild), a card turned down by a Do Not Disturb and so known to all
    shows in brackets, a card nobody has seen ``?``: the same codes as :func:`board_text`, each in a colour of
    its own. ``>`` marks the seat to move and "(you)" the viewer's. Below the rows: the card in hand, the draw
    pile (what it holds, once it is the reshuffled discards), and the whole discard pile, top last.

    >>> from cheekymonkey.toomany import Card, Reveal, TurnDown, apply_all, new_game
    >>> state = apply_all(new_game(2), [Reveal(Card.THREE), Reveal(Card.GIRAFFE)])
    >>> state = apply_all(state, [Reveal(Card.DO_NOT_DISTURB), TurnDown(0, 3)])
    >>> print(board_table(state, ["Ann", "Bob"], viewer=0).text())
    Round 1, begun by you
    seat  player        1    2    3    4    5    6   Skip
       0  > Ann (you)   ?    ?   (3)   ?    ?    ?
       1  Bob           ?    ?    ?    ?    ?    ?
    Draw pile: 41 cards. Discard pile (2 cards, top last): giraffe, Do Not Disturb.
    (3): face down, known to all (a Do Not Disturb turned it down); ?: never seen.
    """
    over = state.phase is Phase.OVER
    longest = max(len(row) for row in state.rows)
    columns = [Column(Cell("seat"), right=True), Column(Cell("player"))]
    columns += [Column(Cell(f" {position} ")) for position in range(1, longest + 1)]
    columns.append(Column(Cell("Skip")))
    rows = []
    for seat, row in enumerate(state.rows):
        marker = "> " if seat == state.seat and not over else ""
        label = f"{marker}{names[seat]}{' (you)' if seat == viewer else ''}"
        cells = [_position(slot) for slot in row] + [Cell("")] * (longest - len(row))
        skip = Cell("waiting", _COLOURS["skip"]) if state.skips[seat] else Cell("")
        rows.append((Cell(str(seat)), Cell(label), *cells, skip))
    notes = []
    if state.hand is not None:
        holder = "your" if state.seat == viewer else f"{names[state.seat]}'s"
        notes.append(f"In {holder} hand: {'a' if state.hand.label[0] not in 'aeiou' else 'an'} {state.hand.label}.")
    size = state.pile_size
    pile = f"Draw pile: {size} card{'' if size == 1 else 's'}"
    if state.pile is not None and size:
        reshuffled = [card for card in CARDS for _ in range(state.pile[card - 1])]
        pile += f", the discards reshuffled: {_labels(reshuffled)}"
    count = len(state.discard)
    discard = "Discard pile: empty"
    if count:
        discard = f"Discard pile ({count} card{'' if count == 1 else 's'}, top last): {_labels(state.discard)}"
    notes.append(f"{pile}. {discard}.")
    known = [slot for row in state.rows for slot in row if isinstance(slot, FaceDown)]
    if known:
        code = known[0].card.code
        notes.append(f"({code}): face down, known to all (a Do Not Disturb turned it down); ?: never seen.")
    title = f"Round {state.round}, begun by {'you' if state.round_first == viewer else names[state.round_first]}"
    return TextTable(tuple(columns), tuple(rows), title=title, notes=tuple(notes))
