"""The one record class the games share: each game's record is BaseRecord with its own types and functions.

Cheeky Monkey's and Too Many Monkeys' ``GameRecord`` declare nothing but their game; the fields, the checks
and the replay are :class:`~cheekymonkey.record.BaseRecord`'s, and :class:`~cheekymonkey.record.Record`,
the record of a game that keeps no record class, is the same class holding its game.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

import cheekymonkey
import cheekymonkey.toomany
from cheekymonkey import InvalidGameError, RandomBot, play_game
from cheekymonkey.cheeky import actions as cheeky_actions
from cheekymonkey.cheeky.records import GameRecord as CheekyRecord
from cheekymonkey.cheeky.rules import Ruleset as CheekyRules
from cheekymonkey.games import game_named
from cheekymonkey.record import BaseRecord, Record
from cheekymonkey.toomany import actions as toomany_actions
from cheekymonkey.toomany.records import GameRecord as TooManyRecord
from cheekymonkey.toomany.rules import Ruleset as TooManyRules

FIELDS = ["ruleset", "players", "first_player", "actions", "seed", "names", "bots", "quit_by"]


def test_each_game_s_record_is_the_base_record_under_its_old_names() -> None:
    """The names the API reference lists are the classes of the games' packages, both BaseRecords."""
    assert cheekymonkey.GameRecord is CheekyRecord
    assert cheekymonkey.toomany.GameRecord is TooManyRecord
    for cls in (CheekyRecord, TooManyRecord, Record):
        assert issubclass(cls, BaseRecord)
        assert not hasattr(cls(*_arguments(cls)), "__dict__")


def _arguments(cls: type) -> tuple[Any, ...]:
    if cls is Record:
        game = game_named("too-many-monkeys")
        return (game, game.ruleset(), 2)
    return ((CheekyRules if cls is CheekyRecord else TooManyRules).standard(), 2)


@pytest.mark.parametrize(
    ("cls", "rules", "action"),
    [
        (CheekyRecord, CheekyRules, cheeky_actions.Action),
        (TooManyRecord, TooManyRules, toomany_actions.Action),
    ],
)
def test_attrs_sees_each_game_s_own_field_types(cls: type, rules: type, action: object) -> None:
    """The type arguments are put into attrs' view, as cattrs, the codecs and the schemas read it."""
    fields = attrs.fields(cls)
    assert [field.name for field in fields] == FIELDS
    assert fields.ruleset.type is rules
    assert fields.actions.type == tuple[action, ...]  # type: ignore[valid-type]
    assert (fields.first_player.default, fields.actions.default, fields.quit_by.default) == (0, (), None)
    assert attrs.fields(attrs.resolve_types(cls)) == fields


def test_a_played_record_replays_compares_hashes_and_pickles_as_a_value() -> None:
    """Equal records by value, their repr the class's name, a pickled copy equal with the same hash."""
    game = play_game([RandomBot(), RandomBot()], seed=3)
    record = game.record
    assert repr(record).startswith("GameRecord(ruleset=Ruleset(")
    assert record.final_state() == game.state
    assert len(record.states()) == len(record.actions) + 1
    again = pickle.loads(pickle.dumps(record))
    assert again == record
    assert hash(again) == hash(record)
    assert attrs.evolve(record, seed=5) != record


@pytest.mark.parametrize("cls", [CheekyRecord, TooManyRecord])
def test_both_games_refuse_a_record_that_is_not_theirs_when_it_is_built(cls: type) -> None:
    """Another game's rule set, a list of actions or a seat count that is no integer: InvalidGameError at once."""
    ruleset, players = _arguments(cls)
    other = (TooManyRules if cls is CheekyRecord else CheekyRules).standard()
    with pytest.raises(InvalidGameError, match="ruleset must be a Ruleset, got Ruleset"):
        cls(other, players)
    with pytest.raises(InvalidGameError, match="actions must be a tuple of actions, got"):
        cls(ruleset, players, actions=[])
    with pytest.raises(InvalidGameError, match="players must be an integer, got '2'"):
        cls(ruleset, "2")
    with pytest.raises(InvalidGameError, match="1 names for 2 seats"):
        cls(ruleset, players, names=("Ann",))


def test_the_record_of_any_game_holds_its_game_first_and_replays_through_it() -> None:
    """Record takes its game first, as before; it keeps the game out of its repr and checks what the rest do."""
    game = game_named("too-many-monkeys")
    state = game.new_game(3)
    first = game.legal_actions(state)[0]
    record = Record(game, game.ruleset(), 3, 1 - 1, (first,), None, ("a", "b", "c"))
    assert record.game is game
    assert record.names == ("a", "b", "c")
    assert record.start() == state
    assert record.final_state() == game.apply(state, first)
    assert "game=" not in repr(record)
    assert record == Record(game, game.ruleset(), 3, actions=(first,), names=("a", "b", "c"))
    assert [field.name for field in attrs.fields(Record)] == [*FIELDS, "game"]
    players: Any = 2.0
    with pytest.raises(InvalidGameError, match="players must be an integer"):
        Record(game, game.ruleset(), players)
