"""The :class:`GameState` class itself, alone in a module so that mypyc can compile it to a native class.

Written as a plain class with slots, its frozen, checked and value behaviour by hand: compiled, reading a
field is one load and building a state one allocation; in the pure package it behaves the same.
:mod:`cheekymonkey.toomany.state` gives it attrs' description of its fields (``attrs.fields``,
``attrs.evolve``, cattrs), and holds the checks, :class:`~cheekymonkey.toomany.Phase` and
:func:`~cheekymonkey.toomany.new_game`: that module is never compiled, since compiled code would refuse a
badly typed argument with a bare ``TypeError`` before a check could name the problem.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from attrs.exceptions import FrozenInstanceError

from cheekymonkey.errors import InvalidStateError

if TYPE_CHECKING:  # pragma: no cover - cheekymonkey.toomany.state imports this module; the names are for types
    from cheekymonkey.toomany.cards import Card, Slot
    from cheekymonkey.toomany.rules import Ruleset
    from cheekymonkey.toomany.state import Phase

__all__ = ["FIELDS", "GameState"]


class GameState:
    """Everything the rules read at one moment of a game, as an immutable, hashable, picklable value (TME9).

    Nothing in it is hidden from any seat (TM19): a face-down card nobody has seen is ``None`` in its row,
    with no identity, and the cards nobody has seen are counted in :attr:`unseen`, the pool the engine deals
    them from when they are turned up or drawn.

    States are made by :func:`~cheekymonkey.toomany.new_game` and :func:`~cheekymonkey.toomany.apply`.
    Building one directly (a saved game, a test's position) checks every invariant and raises
    :class:`~cheekymonkey.InvalidStateError` naming the first one broken.
    """

    ruleset: Ruleset
    """The rules this game is played under."""
    round: int
    """The round being played, from 1 (TM22)."""
    round_first: int
    """The seat that began this round (TM5: each round begins one seat to the left of the last)."""
    seat: int
    """The seat whose turn it is; after the end, the winner."""
    phase: Phase
    """What happens next: the decision pending, a draw of chance, or the end."""
    rows: tuple[tuple[Slot, ...], ...]
    """Each seat's row, position 1 first: a face-up Card, a known FaceDown card, or None (never seen)."""
    hand: Card | None
    """The card in the hand of the seat to move, face up for all (TM10); None if there is none or it is not
    yet revealed."""
    discard: tuple[Card, ...]
    """The discard pile, bottom first: its last card is the top (TM4)."""
    pile_size: int
    """How many cards the draw pile holds."""
    pile: tuple[int, ...] | None
    """After a reshuffle in this round (TM20), the draw pile's cards, one count per Card; None before, when
    the draw pile is part of the pool of cards never seen (TM19)."""
    unseen: tuple[int, ...]
    """The cards never seen in this round, one count per Card: the face-down cards nobody knows, and the
    draw pile before the round's first reshuffle (TM19)."""
    skips: tuple[bool, ...]
    """For each seat, whether a Skip waits in front of it (TM16, TM17)."""

    __match_args__: ClassVar = (
        "ruleset",
        "round",
        "round_first",
        "seat",
        "phase",
        "rows",
        "hand",
        "discard",
        "pile_size",
        "pile",
        "unseen",
        "skips",
    )
    # Slots in the pure package (the fields, in constructor order); compiled, mypyc lays them out as a C struct.
    __slots__ = __match_args__
    # Set by cheekymonkey.toomany.state: attrs' view of the fields.
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def __init__(
        self,
        ruleset: object,
        round: object,
        round_first: object,
        seat: object,
        phase: object,
        rows: object,
        hand: object,
        discard: object,
        pile_size: object,
        pile: object,
        unseen: object,
        skips: object,
        *,
        _trusted: bool = False,
    ) -> None:
        # Typed object: compiled, a declared type is enforced on entry with a bare TypeError; every field is
        # checked here instead, with InvalidStateError. _trusted is the engine's unchecked construction in the
        # compiled build (cheekymonkey.toomany.state.make_state), for a state that follows from a checked
        # state by a legal action; it is not for other callers.
        values = (ruleset, round, round_first, seat, phase, rows, hand, discard, pile_size, pile, unseen, skips)
        if not _trusted and not _storable(round, round_first, seat, rows, discard, pile_size, unseen, skips):
            # The compiled class would refuse these types with a bare TypeError before the checks run.
            _check(SimpleNamespace(**dict(zip(FIELDS, values, strict=True))))
            raise InvalidStateError(f"a field has the wrong type: {values!r}")  # pragma: no cover
        # object.__setattr__: the class's own __setattr__ refuses every assignment (compiled: plain stores).
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "round_first", round_first)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "pile_size", pile_size)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "unseen", unseen)
        object.__setattr__(self, "skips", skips)
        if not _trusted:
            _check(self)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def _values(self) -> tuple[object, ...]:
        return (
            self.ruleset,
            self.round,
            self.round_first,
            self.seat,
            self.phase,
            self.rows,
            self.hand,
            self.discard,
            self.pile_size,
            self.pile,
            self.unseen,
            self.skips,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        that: GameState = other
        return (
            self.seat == that.seat
            and self.phase == that.phase
            and self.hand == that.hand
            and self.pile_size == that.pile_size
            and self.rows == that.rows
            and self.discard == that.discard
            and self.unseen == that.unseen
            and self.pile == that.pile
            and self.skips == that.skips
            and self.round == that.round
            and self.round_first == that.round_first
            and (self.ruleset is that.ruleset or self.ruleset == that.ruleset)
        )

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(FIELDS, self._values(), strict=True))
        return f"GameState({shown})"

    def __str__(self) -> str:
        # print(state) draws the table; repr stays the call that builds the state.
        from cheekymonkey.toomany.board import board_text

        return board_text(self)

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        # Unpickling and copying go through the checking constructor: a tampered pickle is refused.
        return (GameState, self._values())

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.rows)

    @property
    def row_sizes(self) -> tuple[int, ...]:
        """Each seat's row size this round (TM22: a round's winner has one card fewer in the next)."""
        return tuple(len(row) for row in self.rows)


FIELDS: tuple[str, ...] = GameState.__match_args__
"""The state's fields, in constructor order."""


def trusted_state(
    ruleset: Ruleset,
    round: int,
    round_first: int,
    seat: int,
    phase: Phase,
    rows: tuple[tuple[Slot, ...], ...],
    hand: Card | None,
    discard: tuple[Card, ...],
    pile_size: int,
    pile: tuple[int, ...] | None,
    unseen: tuple[int, ...],
    skips: tuple[bool, ...],
) -> GameState:
    """A state built without its checks, for one that follows from a checked state by a legal action.

    Compiled, this is one allocation and twelve stores. In pure Python, filling the slots of a look-alike
    class is cheaper, and :data:`cheekymonkey.toomany.state.make_state` does that instead.
    """
    return GameState(
        ruleset, round, round_first, seat, phase, rows, hand, discard, pile_size, pile, unseen, skips, _trusted=True
    )


def _storable(
    round: object,
    round_first: object,
    seat: object,
    rows: object,
    discard: object,
    pile_size: object,
    unseen: object,
    skips: object,
) -> bool:
    # The fields whose declared types the compiled class enforces as it stores them (a bool is no int there).
    return (
        round.__class__ is int
        and round_first.__class__ is int
        and seat.__class__ is int
        and pile_size.__class__ is int
        and isinstance(rows, tuple)
        and isinstance(discard, tuple)
        and isinstance(unseen, tuple)
        and isinstance(skips, tuple)
    )


def _check(state: object) -> None:
    # Imported here: cheekymonkey.toomany.state imports this module.
    from cheekymonkey.toomany.state import check_state

    check_state(state)
