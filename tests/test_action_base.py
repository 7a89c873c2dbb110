"""The one action base both games' actions share: what a class declares, and what it gets from the base.

In pure Python each action class gets its methods written for its own fields when it is created; compiled,
:class:`~cheekymonkey._values.BaseAction`'s own methods serve every class. Calling the base's methods on the
games' actions holds the two to one behaviour: in pure Python that compares them, compiled they are the same.
"""

from __future__ import annotations

import pickle
from typing import Any, ClassVar, get_args

import attrs
import pytest

from cheekymonkey import Animal, InvalidValueError
from cheekymonkey._compiled import COMPILED
from cheekymonkey._values import ActionField, BaseAction
from cheekymonkey.cheeky import actions as cheeky
from cheekymonkey.toomany import actions as toomany
from cheekymonkey.toomany.cards import Card

SAMPLES: list[Any] = [
    cheeky.DRAW,
    cheeky.STOP,
    cheeky.HERD,
    cheeky.Reveal(Animal.MONKEY),
    cheeky.Place("seal"),
    cheeky.Claim(2),
    cheeky.Swap(0),
    toomany.DRAW,
    toomany.TAKE_DISCARD,
    toomany.TAKE_BONUS,
    toomany.DECLINE,
    toomany.Reveal(Card.GIRAFFE),
    toomany.PlaceWild(3),
    toomany.RaccoonTake(5),
    toomany.TurnDown(1, 4),
    toomany.GiveSkip(2),
]


def _values(action: Any) -> tuple[object, ...]:
    return tuple(getattr(action, name) for name in type(action).__match_args__)


def _error(call: Any) -> tuple[type, str]:
    try:
        call()
    except (TypeError, InvalidValueError) as error:
        return type(error), str(error)
    pytest.fail("the call was not refused")


def test_every_action_class_of_both_games_is_built_on_the_one_base() -> None:
    """Both games' action unions are all BaseAction classes, and the samples cover every class."""
    classes = {*get_args(cheeky.Action), *get_args(toomany.Action)}
    assert len(classes) == 16
    assert all(issubclass(cls, BaseAction) for cls in classes)
    assert {type(action) for action in SAMPLES} == classes


def _by_the_base(cls: Any, *args: object, **kwargs: object) -> Any:
    # The value the base's constructor builds, which the base's methods read. In pure Python: the base's
    # constructor on a blank value. Compiled, a class's constructor is its declared one, which calls the
    # base's, run by __new__ (mypyc builds a native value there, and a later __init__ call does nothing).
    if COMPILED:
        return cls(*args, **kwargs)
    built = object.__new__(cls)
    BaseAction.__init__(built, *args, **kwargs)
    return built


def _built_by_the_base(action: Any) -> Any:
    return _by_the_base(type(action), *_values(action))


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_the_base_s_methods_agree_with_each_class_s_own(action: Any) -> None:
    """Repr, hash, pickling and equality: the class's methods give what the base's give (the compiled build's)."""
    cls = type(action)
    built = _built_by_the_base(action)
    assert BaseAction.__repr__(built) == repr(action)
    assert BaseAction.__hash__(built) == hash(action) == hash((cls.__name__, *_values(action)))
    assert BaseAction.__reduce__(built) == action.__reduce__() == (cls, _values(action))
    for other in SAMPLES:
        assert BaseAction.__eq__(built, _built_by_the_base(other)) == (action == other) == (other is action)


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_the_base_s_constructor_builds_what_the_class_s_builds(action: Any) -> None:
    """By position or by name, the base's constructor and the class's give equal values, that pickle and match."""
    cls: Any = type(action)
    values = _values(action)
    by_name = dict(zip(cls.__match_args__, values, strict=True))
    built = _by_the_base(cls, *values)
    named = _by_the_base(cls, **by_name)
    assert built == named == cls(*values) == cls(**by_name) == action
    assert pickle.loads(pickle.dumps(built)) == action
    assert attrs.asdict(action) == by_name
    assert [field.name for field in attrs.fields(cls)] == list(cls.__match_args__)


@pytest.mark.parametrize("action", SAMPLES, ids=repr)
def test_a_wrong_call_gets_the_same_error_from_the_base_as_from_the_class(action: Any) -> None:
    """Too many, too few, unknown or repeated arguments: the same TypeError, word for word.

    In Python's wording in pure Python; compiled, the class's declared constructor refuses it, in mypyc's.
    """
    cls: Any = type(action)
    values = _values(action)
    names = cls.__match_args__
    calls: list[tuple[tuple[object, ...], dict[str, object]]] = [((*values, 1), {}), (values, {"nothing": 1})]
    if names:
        calls += [((), {}), (values, {names[0]: values[0]}), (values[1:], {})]
    for args, kwargs in calls:
        expected = _error(lambda: cls(*args, **kwargs))  # noqa: B023 (called at once)
        assert expected[0] is TypeError
        assert _error(lambda: _by_the_base(cls, *args, **kwargs)) == expected  # noqa: B023


@pytest.mark.parametrize(
    ("cls", "bad"),
    [
        (cheeky.Reveal, "dodo"),
        (cheeky.Place, 8),
        (cheeky.Claim, -1),
        (cheeky.Swap, Animal.SEAL),
        (toomany.Reveal, 0),
        (toomany.PlaceWild, 0),
        (toomany.RaccoonTake, Card.GIRAFFE),
        (toomany.GiveSkip, True),
    ],
)
def test_a_bad_value_gets_the_game_s_typed_error_from_the_base_too(cls: Any, bad: object) -> None:
    """The field's converter runs in both constructors: the same InvalidValueError, the same message."""
    kind, message = _error(lambda: cls(bad))
    assert kind is InvalidValueError
    assert _error(lambda: _by_the_base(cls, bad)) == (kind, message)


def test_the_turn_down_fields_are_converted_in_constructor_order() -> None:
    """TurnDown takes the seat, then the position: the first bad one is named, by position or by name."""
    with pytest.raises(InvalidValueError, match="is not a seat number"):
        toomany.TurnDown(-1, 0)
    with pytest.raises(InvalidValueError, match="is not a position"):
        toomany.TurnDown(position=0, seat=1)
    assert toomany.TurnDown(position=4, seat=1) == toomany.TurnDown(1, 4)


def _number(value: object) -> int:
    return int(str(value))


def _declare_pair() -> type[BaseAction]:
    class Pair(BaseAction):
        """Two seats."""

        __slots__ = ("first", "second")
        __match_args__: ClassVar = ("first", "second")
        _fields: ClassVar = (ActionField(int, _number), ActionField(Card, Card.parse))

        first: int
        second: Card

    return Pair


def test_a_class_declaring_only_its_fields_gets_every_method() -> None:
    """A new class declares slots, __match_args__ and _fields; compiled, mypyc builds no value of one not compiled."""
    pair = _declare_pair()
    if COMPILED:
        with pytest.raises(TypeError, match="interpreted classes cannot inherit from compiled"):
            pair(3, Card.GIRAFFE)
        return
    value: Any = pair("3", "giraffe")
    assert (value.first, value.second) == (3, Card.GIRAFFE)
    assert repr(value) == "Pair(3, Card.GIRAFFE)"
    assert value == pair(first=3, second=Card.GIRAFFE) != pair(3, Card.ELEPHANT)
    assert hash(value) == hash(("Pair", 3, Card.GIRAFFE))
    assert [(field.name, field.type) for field in attrs.fields(pair)] == [("first", int), ("second", Card)]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.first = 4


@pytest.mark.parametrize(
    ("names", "fields", "refusal"),
    [
        (("seat",), (), "one ActionField in _fields per name"),
        (("seat",), (int,), "one ActionField in _fields per name"),
        (("self",), (ActionField(int, _number),), "'self' cannot name a field"),
        (("a-b",), (ActionField(int, _number),), "'a-b' cannot name a field"),
        (("class",), (ActionField(int, _number),), "'class' cannot name a field"),
        (("_set",), (ActionField(int, _number),), "'_set' cannot name a field"),
    ],
)
def test_a_declaration_that_does_not_fit_is_refused_when_the_class_is_made(
    names: tuple[str, ...], fields: tuple[object, ...], refusal: str
) -> None:
    """Fields and names must pair one to one, and each name must be one a method can read by.

    Compiled too: the base checks a new class before mypyc refuses it as interpreted.
    """
    with pytest.raises(TypeError, match=refusal):
        type("Wrong", (BaseAction,), {"__slots__": (), "__match_args__": names, "_fields": fields})
