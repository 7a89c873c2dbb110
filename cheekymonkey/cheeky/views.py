"""Table views: what one seat sees at the table, as a type of its own so a full state is never sent by mistake."""

from __future__ import annotations

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.engine import legal_actions
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.scoring import ScoreSheet, score
from cheekymonkey.cheeky.state import GameState, Phase, check_turn, drawn, make_state
from cheekymonkey.errors import InvalidStateError, InvalidValueError

__all__ = ["TableView", "view"]


def _fail(reason: str) -> InvalidValueError:
    return InvalidValueError(f"invalid table view: {reason}")


@attrs.frozen(slots=True)
class TableView:
    """What a seat (or a spectator) sees at the table (R9): stack tops and heights, never whole stacks.

    The bag is a size only, and each stack shows its top token only; the tokens in front of the player
    to move lie face up for everybody. Build one with :func:`view`; building one directly checks that
    its parts agree and raises :class:`~cheekymonkey.InvalidValueError` if not.

    >>> from cheekymonkey import new_game
    >>> table = view(new_game(3), 1)
    >>> table.bag_size, table.stack_heights, table.to_move, table.legal
    (52, (0, 0, 0), 0, ())
    """

    ruleset: Ruleset
    """The rules of the game (public: everybody knows what is played)."""
    viewer: int | None
    """The seat this view is for, or None for a spectator."""
    to_move: int
    """The seat whose turn it is (after the end, the seat that would have been next)."""
    phase: Phase
    """Where in the turn the game is."""
    bag_size: int
    """How many tokens are in the bag (not which)."""
    stack_heights: tuple[int, ...]
    """How many tokens each seat's stack holds, in seat order."""
    stack_tops: tuple[Animal | None, ...]
    """The visible top token of each seat's stack, or None for an empty stack (R9)."""
    front: tuple[Animal, ...]
    """The tokens in front of the player to move, face up, in the order they came."""
    claimable: Animal | None
    """The animal that may still be claimed from stack tops (R7), or None."""
    swap_open: bool
    """Whether the monkey just drawn may still be swapped (R11)."""
    legal: tuple[Action, ...]
    """What the viewer may do now, in :func:`~cheekymonkey.legal_actions` order; empty unless it is their move."""
    sheet: ScoreSheet | None = None
    """The final score sheet once the game is over (R15-R18), so a front end needs nothing else; None before."""

    def __attrs_post_init__(self) -> None:
        # A view is checked to be what view() gives for some valid state: the hidden tokens (below the
        # stack tops and in the bag) can then be any that the visible ones leave, since no invariant and
        # no legal action depends on them beyond the bag being empty or not.
        if not isinstance(self.ruleset, Ruleset):
            raise _fail(f"ruleset must be a Ruleset, got {self.ruleset!r}")
        for name in ("to_move", "bag_size", "viewer"):
            value = getattr(self, name)
            if (value is not None or name != "viewer") and (not is_whole_number(value)):
                raise _fail(f"{name} must be an integer, got {value!r}")
        for name in ("stack_heights", "stack_tops", "front", "legal"):
            if not isinstance(getattr(self, name), tuple):
                raise _fail(f"{name} must be a tuple, got {getattr(self, name)!r}")
        players = len(self.stack_heights)
        if len(self.stack_tops) != players:
            raise _fail(f"{len(self.stack_tops)} stack tops for {players} stack heights")
        if not self.ruleset.allows_players(players):
            raise _fail(
                f"{players} seats, but the rule set allows {self.ruleset.min_players} to {self.ruleset.max_players}"
            )
        if self.viewer is not None and not 0 <= self.viewer < players:
            raise _fail(f"viewer {self.viewer!r} is not one of the {players} seats")
        if not 0 <= self.to_move < players:
            raise _fail(f"to_move {self.to_move!r} is not one of the {players} seats")
        shown = [0] * len(ANIMALS)
        for seat, (height, top) in enumerate(zip(self.stack_heights, self.stack_tops, strict=True)):
            if not is_whole_number(height) or height < 0 or (height == 0) != (top is None):
                raise _fail(f"seat {seat}'s stack has height {height!r} and top {top!r}")
            if top is not None:
                if not isinstance(top, Animal):
                    raise _fail(f"seat {seat}'s top {top!r} is not an Animal")
                shown[top] += 1
        for token in self.front:
            if not isinstance(token, Animal):
                raise _fail(f"the front holds {token!r}, which is not an Animal")
            shown[token] += 1
        for animal in ANIMALS:
            if shown[animal] > self.ruleset.counts[animal]:
                raise _fail(
                    f"{shown[animal]} {animal.label} tokens show, but the rule set has {self.ruleset.counts[animal]}"
                )
        if self.bag_size < 0 or self.bag_size + sum(self.stack_heights) + len(self.front) != self.ruleset.total_tokens:
            raise _fail(
                f"{self.bag_size} in the bag, {sum(self.stack_heights)} stacked and {len(self.front)} in front "
                f"do not add up to the rule set's {self.ruleset.total_tokens} tokens"
            )
        try:
            check_turn(self.ruleset, self.phase, self.bag_size > 0, self.front, self.claimable, self.swap_open)
        except InvalidStateError as error:
            raise _fail(error.reason) from None
        if (self.sheet is None) == (self.phase is Phase.OVER):
            raise _fail("a view carries the score sheet exactly when the game is over")
        if self.sheet is not None and [line.tokens for line in self.sheet.seats] != list(self.stack_heights):
            raise _fail("the score sheet's token counts are not the stack heights")
        if self.legal and (self.viewer != self.to_move or self.phase not in (Phase.DECIDE, Phase.PLACING)):
            raise _fail("legal actions are shown only to the player to move, while they decide or place")
        if self.my_turn:
            # The legal actions depend on the visible parts only: the tops, the front, the claims, the swap,
            # and whether the bag is empty. So a state with one token per stack and any bag gives them.
            bag = (1,) + (0,) * (len(ANIMALS) - 1) if self.bag_size else (0,) * len(ANIMALS)
            stacks = tuple(() if top is None else (top,) for top in self.stack_tops)
            witness = make_state(
                self.ruleset, self.to_move, self.phase, bag, stacks, self.front, self.claimable, self.swap_open
            )
            expected = legal_actions(witness)
            if self.legal != expected:
                raise _fail(f"the legal actions {self.legal!r} are not those the rules give here, {expected!r}")

    def __str__(self) -> str:
        # print(view) draws the table as text, as print(state) does (cheekymonkey.cheeky.board).
        return drawn(self)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.stack_heights)

    @property
    def my_turn(self) -> bool:
        """Whether the viewer is the one to act now (not at a chance node or after the end)."""
        return self.viewer == self.to_move and self.phase in (Phase.DECIDE, Phase.PLACING)


def view(state: GameState, seat: int | None) -> TableView:
    """What ``seat`` sees of ``state`` at the table; None for a spectator (R9).

    Args:
        state: The full game state (which stays on the server).
        seat: The seat the view is for, or None for a spectator.

    Returns:
        The seat's view: stack tops and heights, the front of the player to move, the bag's size,
        whose turn it is, the viewer's legal actions if it is their move, and at the end the score sheet.

    Raises:
        InvalidValueError: If ``seat`` is not one of the game's seats (or None).
    """
    if seat is not None and (not is_whole_number(seat) or not 0 <= seat < state.players):
        raise InvalidValueError(f"seat {seat!r} is not one of the {state.players} seats")
    phase = state.phase
    mine = seat == state.seat and (phase is Phase.DECIDE or phase is Phase.PLACING)
    # Built without the constructor's checks: a view of a checked state passes them by construction (the
    # serialization tests load the views of thousands of reachable states through the checking constructor).
    table: TableView = object.__new__(TableView)
    for name, value in (
        ("ruleset", state.ruleset),
        ("viewer", seat),
        ("to_move", state.seat),
        ("phase", phase),
        ("bag_size", state.bag_size),
        ("stack_heights", tuple(len(stack) for stack in state.stacks)),
        ("stack_tops", tuple(stack[-1] if stack else None for stack in state.stacks)),
        ("front", state.front),
        ("claimable", state.claimable),
        ("swap_open", state.swap_open),
        ("legal", legal_actions(state) if mine else ()),
        ("sheet", score(state) if phase is Phase.OVER else None),
    ):
        object.__setattr__(table, name, value)
    return table
