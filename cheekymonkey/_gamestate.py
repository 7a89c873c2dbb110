"""The :class:`GameState` class itself, in a module of its own so that mypyc can compile it to a native class.

A frozen attrs class stays an ordinary Python class under mypyc: every field read is a generic lookup and
every new state costs eight ``object.__setattr__`` calls. This plain class, with its frozen, validated and
value behaviour written by hand, compiles to a C struct in the optional compiled build (reading a field is
one load, building a state one allocation), and behaves the same in the pure-Python package. It stays
compatible with attrs' introspection (``attrs.fields``, ``attrs.evolve``, cattrs) through an
``__attrs_attrs__`` table that :mod:`cheekymonkey.state` fills in.

The checks (:func:`~cheekymonkey.state.check_state`), :func:`~cheekymonkey.new_game` and
:class:`~cheekymonkey.Phase` live in :mod:`cheekymonkey.state`, which is never compiled: compiled code
converts a value to its declared type before it can be checked, so a bad field would raise a bare
``TypeError`` there instead of :class:`~cheekymonkey.InvalidStateError`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

import attrs
from attrs.exceptions import FrozenInstanceError

from cheekymonkey.board import board_text
from cheekymonkey.errors import InvalidStateError

if TYPE_CHECKING:  # pragma: no cover - cheekymonkey.state imports this module, so only for the types
    from cheekymonkey.rules import Animal, Ruleset
    from cheekymonkey.state import Phase

__all__ = ["Frozen", "GameState", "attrs_view", "count_sum", "trusted_state"]


class Frozen:
    """A base for the frozen value classes written by hand (actions, score sheets).

    Assigning or deleting a field raises :class:`attrs.exceptions.FrozenInstanceError`, as for a frozen
    attrs class. A subclass lists its fields in ``_values``, in constructor order, and gets equality,
    hashing, pickling and a keyword ``repr`` from them; it may write faster ones of its own.
    """

    __slots__ = ()
    # attrs' view of the fields (attrs.fields, attrs.asdict, cattrs): set by attrs_view for each subclass.
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def _values(self) -> tuple[object, ...]:
        return ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Frozen):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, self._values()))

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (self.__class__, self._values())

    def __repr__(self) -> str:
        names = [field.name for field in self.__attrs_attrs__]
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, self._values(), strict=True))
        return f"{self.__class__.__name__}({shown})"


class GameState:
    """Everything about a game at one moment, as an immutable, hashable, picklable value (E10).

    States are made by :func:`new_game` and :func:`~cheekymonkey.apply`; building one directly
    (for example when loading a saved game) checks every invariant and raises
    :class:`~cheekymonkey.InvalidStateError` if one is broken.
    """

    # Slots in the pure-Python package; mypyc ignores them and lays the fields out as a C struct.
    __slots__ = ("bag", "claimable", "front", "phase", "ruleset", "seat", "stacks", "swap_open")

    ruleset: Ruleset
    """The rules this game is played under."""
    seat: int
    """The seat whose turn it is (after the end, the seat that would have been next)."""
    phase: Phase
    """Where in the turn the game is."""
    bag: tuple[int, ...]
    """How many tokens of each animal are in the bag, indexed by :class:`~cheekymonkey.Animal`."""
    stacks: tuple[tuple[Animal, ...], ...]
    """Each seat's stack, bottom to top: only the last token is visible at the table (R9)."""
    front: tuple[Animal, ...]
    """The tokens in front of the current player, in the order they came (drawn, claimed, swapped)."""
    claimable: Animal | None
    """The animal that may still be claimed from stack tops (R7), or None (no draw yet, or a swap)."""
    swap_open: bool
    """Whether the monkey just drawn may still be swapped (R11): no claim taken yet."""

    __match_args__: ClassVar = ("ruleset", "seat", "phase", "bag", "stacks", "front", "claimable", "swap_open")
    # attrs' view of the fields (attrs.fields, attrs.evolve, attrs.asdict, cattrs): set by cheekymonkey.state.
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def __init__(
        self,
        ruleset: object,
        seat: object,
        phase: object,
        bag: object,
        stacks: object,
        front: object,
        claimable: object = None,
        swap_open: object = False,
        *,
        _trusted: bool = False,
    ) -> None:
        # The arguments are typed object: compiled, a declared type is enforced on entry with a bare
        # TypeError, and every field is checked here instead, with InvalidStateError.
        # _trusted: the engine's unchecked construction in the compiled build, for a state that follows from
        # a checked state by a legal action (see cheekymonkey.state.make_state). Not for other callers.
        if not _trusted and not _storable(ruleset, seat, phase, bag, stacks, front, claimable, swap_open):
            # The compiled class would refuse these types with a bare TypeError (or, for a bool seat, store
            # it as an int) before they could be checked: the checks see them first and raise their error.
            values = (ruleset, seat, phase, bag, stacks, front, claimable, swap_open)
            _check(SimpleNamespace(**dict(zip(_FIELD_NAMES, values, strict=True))))
            raise InvalidStateError(f"a field has the wrong type: {values!r}")  # pragma: no cover
        # object.__setattr__: this class's own __setattr__ refuses every assignment (compiled, mypyc turns
        # these calls into plain stores).
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "bag", bag)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "front", front)
        object.__setattr__(self, "claimable", claimable)
        object.__setattr__(self, "swap_open", swap_open)
        if not _trusted:
            _check(self)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        that: GameState = other
        return (
            self.seat == that.seat
            and self.phase == that.phase
            and self.front == that.front
            and self.bag == that.bag
            and self.stacks == that.stacks
            and self.claimable == that.claimable
            and self.swap_open == that.swap_open
            and (self.ruleset is that.ruleset or self.ruleset == that.ruleset)
        )

    def __hash__(self) -> int:
        return hash(
            (self.ruleset, self.seat, self.phase, self.bag, self.stacks, self.front, self.claimable, self.swap_open)
        )

    def __repr__(self) -> str:
        return (
            f"GameState(ruleset={self.ruleset!r}, seat={self.seat!r}, phase={self.phase!r}, bag={self.bag!r},"
            f" stacks={self.stacks!r}, front={self.front!r}, claimable={self.claimable!r},"
            f" swap_open={self.swap_open!r})"
        )

    def __str__(self) -> str:
        # print(state) shows the table as text; repr stays the call that builds the state.
        return board_text(self)

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        # Pickling and copying rebuild the state through the checking constructor: a tampered pickle is refused.
        return (
            GameState,
            (self.ruleset, self.seat, self.phase, self.bag, self.stacks, self.front, self.claimable, self.swap_open),
        )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.stacks)

    @property
    def bag_size(self) -> int:
        """How many tokens are in the bag."""
        return count_sum(self.bag)


def trusted_state(
    ruleset: Ruleset,
    seat: int,
    phase: Phase,
    bag: tuple[int, ...],
    stacks: tuple[tuple[Animal, ...], ...],
    front: tuple[Animal, ...],
    claimable: Animal | None,
    swap_open: bool,
) -> GameState:
    """A state built without its checks, for one derived from a checked state by a legal action.

    Compiled, this is one allocation and eight stores (``cheekymonkey.state.make_state`` is this then). In
    pure Python, filling the slots through their descriptors is cheaper, and ``make_state`` does that.
    """
    return GameState(ruleset, seat, phase, bag, stacks, front, claimable, swap_open, _trusted=True)


def count_sum(counts: tuple[int, ...]) -> int:
    """The sum of a tuple of counts (a bag, a score row): the tokens it holds.

    Compiled, this loop runs on native ints, where ``sum`` of a tuple is a generic call. In pure Python the
    builtin ``sum`` is cheaper, and the name is bound to it just below.
    """
    total = 0
    for count in counts:
        total += count
    return total


if __file__.endswith((".py", ".pyc")):  # pure Python: the builtin (compiled calls are bound at compile time)
    globals()["count_sum"] = sum


_FIELD_NAMES = ("ruleset", "seat", "phase", "bag", "stacks", "front", "claimable", "swap_open")


def _storable(
    ruleset: object,
    seat: object,
    phase: object,
    bag: object,
    stacks: object,
    front: object,
    claimable: object,
    swap_open: object,
) -> bool:
    # The fields whose declared types the compiled class enforces when it stores them.
    return (
        seat.__class__ is not bool
        and isinstance(seat, int)
        and isinstance(bag, tuple)
        and isinstance(stacks, tuple)
        and isinstance(front, tuple)
        and swap_open.__class__ is bool
    )


def _check(state: object) -> None:
    # Imported here: cheekymonkey.state imports this module.
    from cheekymonkey.state import check_state

    check_state(state)  # type: ignore[arg-type]


def attrs_view(cls: type, fields: list[tuple[str, Any, Any]]) -> None:
    """Give a plain class attrs' description of its fields, as an attrs class has it.

    Args:
        cls: The class; it declares ``__attrs_attrs__`` and ``__attrs_types_resolved__`` as class variables
            (a class compiled by mypyc can only be given attributes it declares).
        fields: Each field's name, type and default (``attrs.NOTHING`` for none), in constructor order.

    ``attrs.fields``, ``attrs.evolve``, ``attrs.asdict`` and cattrs then treat the class as the attrs class
    it describes. The types are given resolved, so nothing needs to evaluate the class's annotations
    (a compiled class keeps none).
    """
    spec = attrs.make_class(
        cls.__name__, {field: attrs.field(type=tp, default=default) for field, tp, default in fields}, frozen=True
    )
    cls.__attrs_attrs__ = attrs.fields(spec)  # type: ignore[attr-defined]
    cls.__attrs_types_resolved__ = cls  # type: ignore[attr-defined]
