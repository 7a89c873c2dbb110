"""A base for Too Many Monkeys' hand-written frozen values, and how attrs learns their fields.

The engine reads and builds these values on every call (rows hold :class:`~cheekymonkey.toomany.FaceDown`
cards, states are built by the thousand), so they are plain slotted classes that mypyc can compile to native
classes: a field read is then one load. Their frozen, value behaviour is written here once, and
:func:`describe` gives each class the ``__attrs_attrs__`` table that ``attrs.fields``, ``attrs.asdict``,
``attrs.evolve`` and cattrs read, so they treat these classes as the frozen attrs classes they behave as.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

import attrs
from attrs.exceptions import FrozenInstanceError

__all__ = ["Value", "describe"]


class Value:
    """A frozen value with slots: equal, hashed and pickled by its fields, its repr the call that builds it.

    A subclass lists its fields in :meth:`_fields`, in constructor order; it may write faster versions of
    the dunder methods for itself. Assigning or deleting any attribute raises
    :class:`attrs.exceptions.FrozenInstanceError`, as it does for a frozen attrs class.
    """

    __slots__ = ()
    # Set by describe() for each subclass (a compiled class only takes attributes it declares).
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def _fields(self) -> tuple[object, ...]:
        return ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Value):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, self._fields()))

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        # Unpickling and copying call the constructor, which checks the fields again.
        return (self.__class__, self._fields())

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({', '.join(repr(value) for value in self._fields())})"


def describe(cls: type, fields: list[tuple[str, Any]]) -> None:
    """Tell attrs the fields of ``cls``, a plain class, so that attrs and cattrs treat it as an attrs class.

    Args:
        cls: The class (it declares ``__attrs_attrs__`` and ``__attrs_types_resolved__`` as class variables).
        fields: Each field's name and type, in constructor order; no field has a default.

    The types are given already resolved, so nothing evaluates the class's annotations (a compiled class
    keeps none).
    """
    model = attrs.make_class(cls.__name__, {name: attrs.field(type=kind) for name, kind in fields}, frozen=True)
    cls.__attrs_attrs__ = attrs.fields(model)  # type: ignore[attr-defined]
    cls.__attrs_types_resolved__ = cls  # type: ignore[attr-defined]
