"""Pig's values: frozen, checked when made, and refused with the library's typed errors."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError, InvalidValueError

from cheekymonkey_pig import PIG, ROLL, Face, Rules


@pytest.mark.parametrize(
    ("players", "first", "rules"),
    [(1, 0, None), (7, 0, None), (True, 0, None), ("2", 0, None), (3, 3, None), (3, -1, None), (2, 0, "short")],
)
def test_a_game_that_cannot_be_set_up_is_refused(players: Any, first: Any, rules: Any) -> None:
    with pytest.raises(InvalidGameError):
        PIG.new_game(players, rules, first_player=first)


@pytest.mark.parametrize(
    "fields", [{"winscore": 0}, {"diceoutcomes": 1}, {"horizon": 0}, {"winscore": 1.5}, {"horizon": True}]
)
def test_a_rule_set_that_cannot_be_played_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidRulesetError, match=next(iter(fields))):
        Rules(**fields)


def test_presets_by_name_and_an_unknown_one_refused() -> None:
    assert PIG.ruleset() == PIG.ruleset("standard") == Rules()
    assert PIG.ruleset_name(PIG.ruleset("short")) == "short"
    assert PIG.ruleset_name(Rules(50, 8)) == "to 50, d8, horizon 1000"
    with pytest.raises(InvalidRulesetError, match="no preset named 'long'; the presets are standard, short"):
        PIG.ruleset("long")


@pytest.mark.parametrize("face", [0, -2, 1.0, "6", True])
def test_a_face_is_a_whole_number_from_1(face: Any) -> None:
    with pytest.raises(InvalidValueError):
        Face(face)


def test_states_actions_and_rules_are_frozen_values() -> None:
    state = PIG.apply(PIG.new_game(2, first_player=1), ROLL)
    for value in (state, Face(3), Rules(), PIG.view(state, 0)):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            value.__setattr__(attrs.fields(type(value))[0].name, None)
    assert hash(state) == hash(PIG.apply(PIG.new_game(2, first_player=1), ROLL))
    assert PIG.turn_of(state) == 1
    assert PIG.to_move(state) is None
    assert not PIG.begins_turn(state)
    assert PIG.begins_turn(PIG.apply(state, Face(1)))  # a 1 ends the turn: the next seat's begins
