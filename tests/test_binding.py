"""One binding pattern: a game's members are its engine's functions themselves, its presets data."""

from __future__ import annotations

import types
from fractions import Fraction

import attrs
import pytest

from cheekymonkey.base import EngineGame
from cheekymonkey.cheeky import engine as cheeky_engine
from cheekymonkey.cheeky import narration as cheeky_narration
from cheekymonkey.cheeky.game import CheekyMonkey
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.errors import InvalidRulesetError
from cheekymonkey.toomany import engine as toomany_engine
from cheekymonkey.toomany import results as toomany_results
from cheekymonkey.toomany.game import TOO_MANY_MONKEYS, TooManyMonkeys
from cheekymonkey.toomany.rules import Ruleset as TooManyRuleset
from tests.minimal_game import RACE, Move, Roll


def test_the_built_in_games_members_are_the_engine_functions_themselves() -> None:
    """No forwarding method in between: the member is the function, so it is exactly as fast."""
    assert _member(CheekyMonkey, "apply") is cheeky_engine.apply
    assert _member(CheekyMonkey, "legal_actions") is cheeky_engine.legal_actions
    assert _member(CheekyMonkey, "to_move") is cheeky_engine.current_player
    assert _member(CheekyMonkey, "merge_events") is cheeky_narration.merge_stacking
    assert _member(TooManyMonkeys, "apply") is toomany_engine.apply
    assert _member(TooManyMonkeys, "outcome") is toomany_results.outcome
    assert _member(TooManyMonkeys, "to_move") is toomany_engine.current_player


def test_a_member_the_game_writes_is_never_replaced_by_the_engine_s() -> None:
    """Cheeky Monkey's board table adds the odds of a bust; the narration's function of that name is not bound."""
    assert _member(CheekyMonkey, "board_table") is not cheeky_narration.board_table
    assert "board_table" in vars(CheekyMonkey)

    class Louder(CheekyMonkey):
        """A subclass keeps its parent's own members, and the engine's functions, as they were."""

    assert _member(Louder, "board_table") is _member(CheekyMonkey, "board_table")
    assert _member(Louder, "apply") is cheeky_engine.apply


def _member(cls: type, name: str) -> object:
    """The class's member as the class holds it (the function itself, for one bound from an engine)."""
    member: object = getattr(cls, name)
    return member


def _module(**functions: object) -> types.ModuleType:
    module = types.ModuleType("an_engine")
    vars(module).update(functions)
    return module


def test_an_engine_missing_a_core_function_leaves_it_abstract() -> None:
    """Making the object names the member no module gave."""

    def apply(state: int, action: int) -> int:
        return state + action

    class Half(EngineGame[int, int, None, int, int]):
        name = "half"
        title = "Half"
        engine = (_module(apply=apply),)

    assert _member(Half, "apply") is apply
    with pytest.raises(TypeError, match="is_chance_node"):
        Half()  # type: ignore[abstract]


def test_a_rename_of_no_member_or_to_no_function_is_refused_as_the_class_is_made() -> None:
    """A typo in engine_names is an error at once, naming it."""
    with pytest.raises(TypeError, match=r"renames \['to_mvoe'\], which are no members"):

        class Typo(EngineGame[int, int, None, int, int]):
            engine = (_module(),)
            engine_names = types.MappingProxyType({"to_mvoe": "current_player"})

    with pytest.raises(TypeError, match="no function 'whose_turn' in its engine modules"):

        class Missing(EngineGame[int, int, None, int, int]):
            engine = (_module(),)
            engine_names = types.MappingProxyType({"to_move": "whose_turn"})


def test_presets_are_data_from_which_the_rule_set_members_derive() -> None:
    """ruleset, preset_names and ruleset_name read the presets; an unknown name is refused listing them."""
    assert CheekyMonkey.presets["younger"] == Ruleset.younger()
    assert TooManyMonkeys().preset_names() == ("standard", "short")
    assert TOO_MANY_MONKEYS.ruleset() == TooManyRuleset.standard()
    assert TOO_MANY_MONKEYS.ruleset_name(TooManyRuleset.short()) == "short"
    with pytest.raises(InvalidRulesetError, match="no preset named 'long'; the presets are standard, short"):
        TOO_MANY_MONKEYS.ruleset("long")
    assert RACE.preset_names() == ("standard", "short")
    assert RACE.ruleset_name(RACE.ruleset("short")) == "short"
    assert RACE.ruleset_name(type(RACE.ruleset())(target=9)) == "custom"


def test_the_chance_branch_of_the_legal_actions_is_read_from_the_chance_outcomes() -> None:
    """The dice race writes its die once, as chance's outcomes, and its decisions; legal_actions joins them."""
    state = RACE.new_game(2)
    assert RACE.legal_actions(state) == (Move.STEP, Move.ROLL)
    rolling = RACE.apply(state, Move.ROLL)
    assert RACE.chance_outcomes(rolling) == tuple((Roll(pips), Fraction(1, 3)) for pips in (1, 2, 3))
    assert RACE.legal_actions(rolling) == (Roll(1), Roll(2), Roll(3))
    over = RACE.apply(RACE.new_game(2, RACE.ruleset("short")), Move.ROLL)
    over = RACE.apply(over, Roll(3))
    assert RACE.is_terminal(over)
    assert RACE.legal_actions(over) == ()


def test_too_many_monkeys_seat_range_reads_the_rule_set_it_is_given() -> None:
    """A rule set of its own seat counts is read as it is; None (and only None) is the standard game."""
    four = attrs.evolve(TooManyRuleset.standard(), min_players=3, max_players=4, name="four")
    assert TOO_MANY_MONKEYS.seat_range(four) == (3, 4)
    assert TOO_MANY_MONKEYS.seat_range(None) == (2, 6)
