"""Table views: what a seat sees at the table, as a type of its own, so that a server never sends a state by mistake.

Every seat sees the same table (TM19): face-up cards, the cards turned down by a Do Not Disturb (known to
everybody), how many cards each pile holds, the whole discard pile, the Skips waiting, the card in hand and
the decision pending. A face-down card nobody has seen has no identity anywhere in the engine, so a view
cannot leak one; what differs between seats is only whose legal actions the view carries.

>>> from cheekymonkey.toomany import new_game
>>> table = view(new_game(3), 1)
>>> table.pile_size, table.row_sizes, table.to_move, table.legal
(37, (6, 6, 6), 0, ())
"""

from __future__ import annotations

import attrs

from cheekymonkey.errors import InvalidStateError, InvalidValueError
from cheekymonkey.outcome import Outcome
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.cards import Card, FaceDown, Slot
from cheekymonkey.toomany.engine import current_player, legal_actions
from cheekymonkey.toomany.results import outcome
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase, drawn

__all__ = ["TableView", "view"]


def _fail(reason: str) -> InvalidValueError:
    return InvalidValueError(f"invalid table view: {reason}")


@attrs.frozen(slots=True)
class TableView:
    """What a seat (or a spectator) sees of a game: everything on the table, and its own legal actions.

    Build one with :func:`view`. Building one directly checks that it is the view of a state play can reach
    and raises :class:`~cheekymonkey.InvalidValueError` if not.
    """

    ruleset: Ruleset
    """The rules of the game."""
    viewer: int | None
    """The seat this view is for, or None for a spectator."""
    round: int
    """The round being played, from 1."""
    round_first: int
    """The seat that began the round."""
    to_move: int
    """The seat whose turn it is; after the end, the winner."""
    phase: Phase
    """What happens next."""
    rows: tuple[tuple[Slot, ...], ...]
    """Each seat's row, position 1 first: face-up Cards, FaceDown cards (known), and None (never seen)."""
    hand: Card | None
    """The card in the hand of the seat to move (TM10), or None."""
    discard: tuple[Card, ...]
    """The whole discard pile, bottom first (TM4)."""
    pile_size: int
    """How many cards the draw pile holds."""
    pile: tuple[int, ...] | None
    """After a reshuffle in this round, which cards the draw pile holds (everybody saw them discarded), one
    count per Card; None before."""
    skips: tuple[bool, ...]
    """For each seat, whether a Skip waits in front of it."""
    legal: tuple[Action, ...]
    """What the viewer may do now, in :func:`~cheekymonkey.toomany.legal_actions` order; empty unless they decide."""
    outcome: Outcome | None = None
    """Once the game is over, its outcome; None before."""

    def __attrs_post_init__(self) -> None:
        # A view is checked by rebuilding the state it shows through the checking constructor: nothing is
        # hidden from a seat (TM19), so the view holds every field of a state but the pool of cards never seen,
        # and that pool is what the deck leaves once every card on the table is counted.
        viewer = self.viewer
        rows = self.rows
        if not isinstance(rows, tuple):
            raise _fail(f"rows must be a tuple of rows, got {rows!r}")
        if viewer is not None and (viewer.__class__ is not int or not 0 <= viewer < len(rows)):
            raise _fail(f"viewer {viewer!r} is not one of the {len(rows)} seats")
        try:
            state = self.state()
        except InvalidStateError as error:
            raise _fail(error.reason) from None
        mine = viewer is not None and current_player(state) == viewer
        if not isinstance(self.legal, tuple) or self.legal != (legal_actions(state) if mine else ()):
            raise _fail(f"the legal actions {self.legal!r} are not the viewer's legal actions here")
        expected = outcome(state) if state.phase is Phase.OVER else None
        if self.outcome != expected:
            raise _fail(f"the outcome {self.outcome!r} is not the game's, {expected!r}")

    def state(self) -> GameState:
        """The game state this view shows: nothing of a state is hidden from a seat (TM19).

        Raises:
            InvalidStateError: If the view shows no state play can reach.
        """
        if not isinstance(self.ruleset, Ruleset):
            raise InvalidStateError(f"ruleset must be a Ruleset, got {self.ruleset!r}")
        try:
            unseen = self.unseen
        except (TypeError, AttributeError, IndexError):
            unseen = ()  # a field has the wrong type: the state's checks, which look at it first, name it
        return GameState(
            self.ruleset,
            self.round,
            self.round_first,
            self.to_move,
            self.phase,
            self.rows,
            self.hand,
            self.discard,
            self.pile_size,
            self.pile,
            unseen,
            self.skips,
        )

    def __str__(self) -> str:
        # print(view) draws the same board as print(state), through the package's text board.
        return drawn(self)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.rows)

    @property
    def row_sizes(self) -> tuple[int, ...]:
        """Each seat's row size this round."""
        return tuple(len(row) for row in self.rows)

    @property
    def my_turn(self) -> bool:
        """Whether the viewer decides now."""
        return bool(self.legal)

    @property
    def unseen(self) -> tuple[int, ...]:
        """The cards nobody has seen this round, one count per Card: the deck less every card on the table."""
        counts = list(self.ruleset.counts)
        for row in self.rows:
            for slot in row:
                if isinstance(slot, FaceDown):
                    counts[slot.card - 1] -= 1
                elif slot is not None:
                    counts[slot - 1] -= 1
        for card in self.discard:
            counts[card - 1] -= 1
        if self.hand is not None:
            counts[self.hand - 1] -= 1
        counts[Card.SKIP - 1] -= sum(self.skips)
        if self.pile is not None:
            for index, count in enumerate(self.pile):
                counts[index] -= count
        return tuple(counts)


def view(state: GameState, seat: int | None) -> TableView:
    """What ``seat`` sees of ``state``; None for a spectator.

    Args:
        state: The game state.
        seat: The seat the view is for, or None for a spectator.

    Returns:
        The view: the whole table, the viewer's legal actions if they decide now, and the outcome at the end.

    Raises:
        InvalidValueError: If ``seat`` is not one of the game's seats (or None).
    """
    if seat is not None and (seat.__class__ is not int or not 0 <= seat < state.players):
        raise InvalidValueError(f"seat {seat!r} is not one of the {state.players} seats")
    mine = seat is not None and current_player(state) == seat
    over = state.phase is Phase.OVER
    # Built without the constructor's checks: the view of a checked state passes them by construction (the
    # tests rebuild views of reachable states through the checking constructor).
    table: TableView = object.__new__(TableView)
    for name, value in (
        ("ruleset", state.ruleset),
        ("viewer", seat),
        ("round", state.round),
        ("round_first", state.round_first),
        ("to_move", state.seat),
        ("phase", state.phase),
        ("rows", state.rows),
        ("hand", state.hand),
        ("discard", state.discard),
        ("pile_size", state.pile_size),
        ("pile", state.pile),
        ("skips", state.skips),
        ("legal", legal_actions(state) if mine else ()),
        ("outcome", outcome(state) if over else None),
    ):
        object.__setattr__(table, name, value)
    return table
