"""The value classes written by hand (states, actions, score sheets) behave as the frozen attrs classes they replace.

They are plain classes so that the compiled build can make them native; these tests hold both builds to
the same behaviour: frozen, equal and hashed by value, picklable, matched by position, and described to
attrs field by field.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import attrs
import pytest

from cheekymonkey import (
    Animal,
    Claim,
    Draw,
    GameState,
    Herd,
    IllegalActionError,
    InvalidRulesetError,
    InvalidValueError,
    Place,
    Reveal,
    ScoreSheet,
    SeatScore,
    Stop,
    Swap,
    apply,
    new_game,
    score_stacks,
    stop_in_order,
)
from cheekymonkey.cheeky.rules import Ruleset

SHEET = score_stacks([(Animal.SEAL, Animal.SEAL, Animal.LION), (Animal.LION,)], Ruleset.standard())
VALUES: list[Any] = [
    new_game(3),
    apply(new_game(2), Reveal(Animal.MONKEY)),
    Draw(),
    Stop(),
    Herd(),
    Reveal(Animal.LION),
    Place(Animal.SEAL),
    Claim(2),
    Swap(1),
    SHEET,
    SHEET.seats[0],
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_assigning_or_deleting_a_field_raises_and_changes_nothing(value: Any) -> None:
    """E10: every value is frozen, in the pure package as in the compiled build."""
    before = pickle.dumps(value)
    name = attrs.fields(type(value))[0].name if attrs.fields(type(value)) else "anything"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(value, name, None)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(value, name)
    assert pickle.dumps(value) == before


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_pickle_copy_and_rebuild_from_their_attrs_fields_as_equal_values(value: Any) -> None:
    """E10: a copy, a pickled copy and one rebuilt from attrs.asdict are equal, with the same hash."""
    cls = type(value)
    rebuilt = cls(**attrs.asdict(value, recurse=False))
    for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value), rebuilt):
        assert type(again) is cls
        assert again == value
        assert not again != value  # noqa: SIM202 (__ne__ is what is tested)
        assert hash(again) == hash(value)


def test_values_of_different_classes_or_fields_are_not_equal() -> None:
    """Two values are equal only with the same class and the same fields."""
    assert Draw() != Stop()
    assert Claim(1) != Swap(1)
    assert Reveal(Animal.LION) != Place(Animal.LION)
    assert Reveal(Animal.LION) != Reveal(Animal.SEAL)
    assert new_game(2) != new_game(3)
    assert SHEET.seats[0] != SHEET.seats[1]
    assert len({Draw(), Draw(), Stop(), Claim(1), Claim(1), Swap(1)}) == 4


def test_attrs_sees_each_class_s_fields_in_constructor_order() -> None:
    """attrs.fields describes the plain classes as it did the attrs classes: names, order and defaults."""
    state_fields = attrs.fields(GameState)
    assert [f.name for f in state_fields] == [
        "ruleset",
        "seat",
        "phase",
        "bag",
        "stacks",
        "front",
        "claimable",
        "swap_open",
    ]
    assert (state_fields.claimable.default, state_fields.swap_open.default) == (None, False)
    assert [f.name for f in attrs.fields(Claim)] == ["seat"]
    assert [f.name for f in attrs.fields(Reveal)] == ["animal"]
    assert attrs.fields(Draw) == ()
    assert [f.name for f in attrs.fields(ScoreSheet)] == ["seats", "tile_holders", "winners", "decided_by"]
    assert [f.name for f in attrs.fields(SeatScore)][:2] == ["seat", "counts"]
    assert all(attrs.has(cls) for cls in (GameState, Claim, Draw, ScoreSheet, SeatScore))


def test_values_match_by_position_in_a_match_statement() -> None:
    """__match_args__ follows the fields, as for an attrs class."""
    match Claim(3):
        case Claim(seat):
            assert seat == 3
        case _:  # pragma: no cover - the case above matches
            pytest.fail("Claim(3) did not match Claim(seat)")
    match new_game(2):
        case GameState(_, seat, phase):
            assert (seat, phase.name) == (0, "CHANCE")
        case _:  # pragma: no cover
            pytest.fail("a state did not match GameState(ruleset, seat, phase)")


def test_evolve_rebuilds_a_state_through_the_checking_constructor() -> None:
    """attrs.evolve works on a state, and the result is checked like any state built directly (E8)."""
    state = new_game(3)
    # mypy's attrs plugin knows attrs classes by their decorator, so it flags evolve on a plain class
    # that carries attrs' field table; at run time attrs reads only the table.
    assert attrs.evolve(state, seat=2).seat == 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="seat 3 is not one of the 3 seats"):
        attrs.evolve(state, seat=3)  # type: ignore[misc]


@pytest.mark.parametrize("state", ["state", None, {"seat": 0}])
def test_stop_in_order_on_something_not_a_state_is_illegal(state: object) -> None:
    """E9: stop_in_order refuses anything that is not a GameState, in the compiled build as in pure Python.

    (Compiled, a parameter typed GameState would refuse it with a bare TypeError before the check.)
    """
    with pytest.raises(IllegalActionError, match="is not a GameState"):
        stop_in_order(state, [Animal.SEAL])  # type: ignore[arg-type]  # a wrong type on purpose


@pytest.mark.parametrize("given", [Animal.GIRAFFE, 3, "giraffe", "Giraffe", "GIRAFFE"])
def test_every_action_and_constructor_takes_an_animal_by_member_number_or_name(given: object) -> None:
    """One rule: an Animal, its number 0-7, or its name in any case, for actions and Ruleset.custom."""
    assert Animal.parse(given) is Animal.GIRAFFE
    assert Reveal(given).animal is Animal.GIRAFFE
    assert Place(given).animal is Animal.GIRAFFE
    ruleset = Ruleset.custom({given: 2, "seal": 3}, bonus_values={given: 5, Animal.SEAL: 4})  # type: ignore[arg-type]
    assert ruleset.counts[Animal.GIRAFFE] == 2
    assert ruleset.bonus_values[Animal.GIRAFFE] == 5


@pytest.mark.parametrize("bad", ["G", "giraffes", 8, -1, True, 3.0, None])
def test_anything_else_is_refused_the_same_way_everywhere(bad: object) -> None:
    """What the rule does not take is refused by every constructor, naming what would do."""
    for build in (Animal.parse, Reveal, Place):
        with pytest.raises(InvalidValueError, match="give an Animal, its number 0 to 7, or a name"):
            build(bad)
    with pytest.raises(InvalidRulesetError, match="is not an Animal"):
        Ruleset.custom({bad: 2})  # type: ignore[arg-type]
