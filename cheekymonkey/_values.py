"""What the value classes written by hand share: frozen behaviour, attrs' view of their fields, counting.

Both games' engines share four more things from here: :class:`ValueEnum`, the base of their enums (a phase,
an animal, a card), :class:`BaseAction`, the base of their actions, and :func:`pick_from_counts`, the draw of
one item from a pool of counts (a bag, a pile).

:class:`~cheekymonkey.GameState`, the actions and the score sheets are plain slotted classes, so that the
compiled build (:mod:`cheekymonkey._compiled`) makes them native: reading a field is one load, building a
value one allocation. They behave as frozen attrs classes do: :class:`Frozen` refuses assignment and gives
value equality, and :func:`attrs_view` gives each class attrs' description of its fields, so that
``attrs.fields``, ``attrs.evolve``, ``attrs.asdict`` and cattrs treat it as the attrs class it describes.
"""

from __future__ import annotations

import enum
import inspect
import keyword
import operator
import random
import reprlib
from collections.abc import Callable
from typing import Any, ClassVar, Final, Generic, NoReturn, TypeVar

import attrs
from attrs.exceptions import FrozenInstanceError

from cheekymonkey._compiled import COMPILED
from cheekymonkey.errors import InvalidValueError

__all__ = ["ActionField", "BaseAction", "Frozen", "ValueEnum", "attrs_view", "count_sum", "pick_from_counts"]

T = TypeVar("T")


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


class ActionField(Generic[T]):
    """One field of an action class: its type, for attrs' view of it, and the function that checks a value.

    ``convert`` takes what a caller gave and returns the field's value, or raises the game's typed error
    (:class:`~cheekymonkey.errors.InvalidValueError`) naming what is wrong.
    """

    __slots__ = ("convert", "type")

    def __init__(self, type: type[T], convert: Callable[[object], T]) -> None:
        self.type = type
        self.convert = convert


class BaseAction(Frozen):
    """The base of the games' actions: frozen values whose repr is the call that builds them.

    A subclass declares its fields: their slots, their annotations and docstrings, ``__match_args__`` (the
    fields in constructor order) and ``_fields``, one :class:`ActionField` per name of ``__match_args__``, in
    that order; and a constructor that takes those names, each typed as its converter accepts, and only passes
    them on, in that order (``def __init__(self, seat: object) -> None: super().__init__(seat)``), so that mypy
    checks every call. It gets from here the constructor's work: each field taken by position or by name and
    checked with its field's ``convert``; equality with the same class only, field by field; a hash from the
    class's name and the fields; pickling through the constructor; the repr ``Claim(1)``; and attrs' view of
    its fields (:func:`attrs_view`), so ``attrs.fields``, ``attrs.asdict`` and cattrs work on it.

    In pure Python each subclass gets these methods written for its own fields when it is created, as fast
    as methods written by hand: the written constructor replaces the declared one, which must take the same
    parameters (checked then), so that what mypy checks is what runs. Compiled (mypyc), the declared
    constructor runs, the methods below serve every subclass natively, and a field read stays one load; a
    wrong call is then refused by the declared constructor, in mypyc's words. Compiled, only a compiled class
    may subclass it (mypyc builds no value of an interpreted one): a game outside the package writes its
    actions as attrs classes.
    """

    # Compiled, the class's name and the fields' values, filled by the constructor below, so that equality
    # and hashing read one native field; pure Python leaves it empty (each class's own methods read the fields).
    __slots__ = ("_key",)
    _key: tuple[object, ...]
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _fields: ClassVar[tuple[ActionField[Any], ...]] = ()
    # Each field's name and converter, in constructor order: what the compiled constructor runs through.
    _plan: ClassVar[tuple[tuple[str, Callable[[object], Any]], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__match_args__
        declared: tuple[object, ...] = cls._fields  # as declared, unchecked (compiled code would check each)
        if len(names) != len(declared) or not all(isinstance(field, ActionField) for field in declared):
            raise TypeError(f"{cls.__name__}: give one ActionField in _fields per name in __match_args__")
        for name in names:
            # The methods written for the class read each field by its name, beside names of their own.
            if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or name in _RESERVED:
                raise TypeError(f"{cls.__name__}: {name!r} cannot name a field")
        attrs_view(cls, [(name, field.type, attrs.NOTHING) for name, field in zip(names, cls._fields, strict=True)])
        cls._plan = tuple([(name, field.convert) for name, field in zip(names, cls._fields, strict=True)])
        if not COMPILED:
            _write_methods(cls)

    def __init__(self, *args: object, **kwargs: object) -> None:
        # Compiled, what every subclass's declared constructor calls (pure Python writes one per subclass):
        # each field converted in constructor order, then the key that equality and hashing read.
        plan = self._plan
        if kwargs or len(args) != len(plan):
            args = self._bind(args, kwargs)
        key: list[object] = [self.__class__.__name__]
        for index, (name, convert) in enumerate(plan):
            converted = convert(args[index])
            object.__setattr__(self, name, converted)
            key.append(converted)
        object.__setattr__(self, "_key", tuple(key))

    def _bind(self, args: tuple[object, ...], kwargs: dict[str, object]) -> tuple[object, ...]:
        """The arguments of a call by name, or of the wrong number, bound to the fields as Python binds them."""
        names = self.__match_args__
        given: list[object] = list(args)
        if len(given) > len(names):
            raise TypeError(
                f"{self.__class__.__name__}.__init__() takes {len(names) + 1} positional "
                f"argument{'s' if names else ''} but {len(given) + 1} were given"
            )
        missing: list[str] = []
        for name in names[len(given) :]:
            if name in kwargs:
                given.append(kwargs[name])
            else:
                missing.append(repr(name))
        for key in kwargs:
            if key not in names:
                raise TypeError(f"{self.__class__.__name__}.__init__() got an unexpected keyword argument {key!r}")
            if names.index(key) < len(args):
                raise TypeError(f"{self.__class__.__name__}.__init__() got multiple values for argument {key!r}")
        if missing:
            raise TypeError(
                f"{self.__class__.__name__}.__init__() missing {len(missing)} required positional "
                f"argument{'s' if len(missing) > 1 else ''}: {' and '.join(missing)}"
            )
        return tuple(given)

    def _values(self) -> tuple[object, ...]:
        return self._key[1:]

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and isinstance(other, BaseAction) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (self.__class__, self._key[1:])

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({', '.join([repr(value) for value in self._key[1:]])})"


# The arguments of the methods written for a subclass, which no field may take (nor a name with "_").
_RESERVED: Final = frozenset({"self", "other"})


def _write_methods(cls: type[BaseAction]) -> None:
    """Give ``cls`` its own constructor, equality, hash, pickling and repr, written for its fields.

    Pure Python only: each reads the fields by name and calls the converters bound once, as a method
    written by hand for the class would; the constructor takes the fields by their names, so a wrong call
    gets Python's own message. It replaces the constructor the class declares for mypy (the compiled build's),
    which must take the same parameters: what mypy checks a call against is then what runs. The declared one
    stays the written one's ``__wrapped__``, which :func:`inspect.signature` reads, and which a test runs as
    the compiled build does.
    """
    names = cls.__match_args__
    name = cls.__name__
    declared = vars(cls).get("__init__")
    if declared is not None:
        parameters = list(inspect.signature(declared).parameters.values())
        if [parameter.name for parameter in parameters] != ["self", *names] or any(
            parameter.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
            or parameter.default is not inspect.Parameter.empty
            for parameter in parameters
        ):
            raise TypeError(
                f"{name}: its __init__ must take (self{''.join(f', {field}' for field in names)}), "
                "in that order and without defaults, and only pass them to the base"
            )
    module: str = vars(cls)["__module__"]  # mypyc refuses cls.__module__, an instance attribute to mypy
    # The methods' globals: __name__ gives each function its __module__.
    scope: dict[str, Any] = {"__name__": module, "_cls": cls, "_set": object.__setattr__, "_hash": hash}
    for index, field in enumerate(cls._fields):
        scope[f"_convert{index}"] = field.convert
    reads = "".join(f"self.{field}, " for field in names)
    shown = ", ".join(f"{{self.{field}!r}}" for field in names)
    sets = "".join(f"\n    _set(self, {field!r}, _convert{index}({field}))" for index, field in enumerate(names))
    same = "".join(f" and self.{field} == other.{field}" for field in names)
    source = (
        f"def __init__(self{''.join(f', {field}' for field in names)}):{sets or chr(10) + '    pass'}\n"
        f"def __eq__(self, other):\n    return other.__class__ is _cls{same}\n"
        f"def __hash__(self):\n    return _hash(({name!r}, {reads}))\n"
        f"def __reduce__(self):\n    return (_cls, ({reads}))\n"
        f"def __repr__(self):\n    return f{f'{name}({shown})'!r}\n"
    )
    exec(compile(source, f"<{module}.{cls.__qualname__} methods>", "exec"), scope)
    for method in ("__init__", "__eq__", "__hash__", "__reduce__", "__repr__"):
        function = scope[method]
        function.__qualname__ = f"{cls.__qualname__}.{method}"
        if method == "__init__" and declared is not None:
            function.__wrapped__ = declared
        setattr(cls, method, function)


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
