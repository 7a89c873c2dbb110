"""What the value classes written by hand share: frozen behaviour, attrs' view of their fields, counting.

Both games' engines share three more things from here: :class:`ValueEnum`, the base of their enums (a phase,
an animal, a card), and :func:`pick_from_counts`, the draw of one item from a pool of counts (a bag, a pile).

:class:`~cheekymonkey.GameState`, the actions and the score sheets are plain slotted classes, so that the
compiled build (:mod:`cheekymonkey._compiled`) makes them native: reading a field is one load, building a
value one allocation. They behave as frozen attrs classes do: :class:`Frozen` refuses assignment and gives
value equality, and :func:`attrs_view` gives each class attrs' description of its fields, so that
``attrs.fields``, ``attrs.evolve``, ``attrs.asdict`` and cattrs treat it as the attrs class it describes.
"""

from __future__ import annotations

import enum
import operator
import random
import reprlib
from typing import Any, ClassVar, Final, NoReturn

import attrs
from attrs.exceptions import FrozenInstanceError

from cheekymonkey._compiled import COMPILED
from cheekymonkey.errors import InvalidValueError

__all__ = ["Frozen", "ValueEnum", "attrs_view", "count_sum", "pick_from_counts"]


class ValueEnum(enum.IntEnum):
    """The base of the games' enums: numbers to the engines, values to everyone else.

    The repr is the member's name with its class's (``Phase.DECIDE``); a member is always true, the one
    numbered 0 too (``if phase:`` never skips it); ``str`` and ``format`` give the word documents and text use,
    the name in lower case unless a subclass says otherwise (``f"{Phase.DECIDE}" == "decide"``).
    """

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}.{self.name}"

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        # IntEnum would format as its number; f"{member}" gives its word, as str does.
        return format(str(self), spec)


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


def count_sum(counts: tuple[int, ...]) -> int:
    """The sum of a tuple of counts (a bag, a score row): the tokens it holds.

    Compiled, this loop runs on native ints, where ``sum`` of a tuple is a generic call. In pure Python the
    builtin ``sum`` is cheaper, and the name is bound to it just below.
    """
    total = 0
    for count in counts:
        total += count
    return total


def pick_from_counts(counts: tuple[int, ...], size: int, rng: random.Random, rule: str) -> int:
    """The index of one item drawn from a pool of ``size`` items held as counts, each item equally likely.

    The draw is ``rng.randrange(size)``, counted along ``counts`` in their order, so a seed gives the same
    draw on every machine; ``size`` is ``sum(counts)``, which the caller has counted already. For a plain
    ``random.Random`` the draw is what ``randrange`` computes, without its argument handling: the same pick
    from the same stream, at a third of the cost. Anything else with a ``randrange`` is asked (a subclass may
    override it), and what it gives is checked.

    Raises:
        InvalidValueError: If ``rng`` has no ``randrange``, or it gives anything but an integer from 0 to
            ``size - 1``; the message begins with ``rule``, the caller's rule for its random streams.

    >>> pick_from_counts((0, 2, 1), 3, random.Random(4), "E9")  # randrange(3) gives 0: the first of the 2
    1
    """
    if rng.__class__ is _RANDOM:
        bits = size.bit_length()
        pick: int = _GETRANDBITS(rng, bits)
        while pick >= size:
            pick = _GETRANDBITS(rng, bits)
    else:
        pick = _other_pick(rng, size, rule)
    index = 0
    for count in counts:
        pick -= count
        if pick < 0:
            return index
        index += 1  # noqa: SIM113 (enumerate would build a tuple per item)
    raise AssertionError("unreachable: the pick is below the pool's size")  # pragma: no cover


def _other_pick(rng: object, size: int, rule: str) -> int:
    """``rng.randrange(size)`` from an ``rng`` that is not a plain :class:`random.Random`, checked."""
    randrange = getattr(rng, "randrange", None)
    if not callable(randrange):
        raise InvalidValueError(f"{rule}: rng must be a random.Random (or have its randrange), got {reprlib.repr(rng)}")
    drawn = randrange(size)
    try:
        pick = operator.index(drawn)
    except TypeError:
        raise _bad_pick(drawn, size, rule) from None
    if not 0 <= pick < size:
        raise _bad_pick(drawn, size, rule)
    return pick


def _bad_pick(drawn: object, size: int, rule: str) -> InvalidValueError:
    return InvalidValueError(
        f"{rule}: rng.randrange({size}) gave {reprlib.repr(drawn)}, not an integer from 0 to {size - 1}"
    )


_RANDOM: Final = random.Random
# The C method behind rng.getrandbits for a plain Random, called unbound: no bound method is made per draw.
_GETRANDBITS: Final = random.Random.getrandbits


if not COMPILED:  # pure Python: the builtin (compiled calls are bound when the module is compiled)
    globals()["count_sum"] = sum
