"""Too Many Monkeys' JSON documents: every kind round-trips, records replay, the binding and the games' registry.

The hostile documents are in ``test_documents_hostile.py``, the fuzzer in ``test_documents_fuzz.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings

from cheekymonkey import CHEEKY_MONKEY, RandomBot, play_game
from cheekymonkey.cheeky import documents as cheeky_documents
from cheekymonkey.cli import main
from cheekymonkey.documents import Documents
from cheekymonkey.games import DOCUMENT_FORMATS, GAME_NAMES, game_named, game_of_document
from cheekymonkey.outcome import Outcome
from cheekymonkey.schema import SCHEMA_GAMES, load_schema, schema_filename
from cheekymonkey.schema.generate import generate_schemas, schema_text, write_schemas
from cheekymonkey.serialization import DocumentError
from cheekymonkey.table import Seat, Table
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    Card,
    Decline,
    Discarded,
    Draw,
    Event,
    GameRecord,
    GameState,
    GiveSkip,
    PlaceWild,
    RaccoonTake,
    Reason,
    Reveal,
    Ruleset,
    TableView,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    TurnedDown,
    apply_all,
    face_down,
    new_game,
    view,
)
from cheekymonkey.toomany import documents as tmm
from cheekymonkey.toomany.results import outcome
from tests.document_testing import DROP, changed
from tests.helpers import BUILT_IN_GAMES
from tests.toomany.documents_support import GAME, RULESETS, Played, play, played_games, validate, values_of
from tests.toomany.helpers import TINY, make

# --- round trips -------------------------------------------------------------------------------------


def _round_trip(value: tmm.Document) -> dict[str, Any]:
    """Dump and load ``value`` both ways; return its document, after checking it against the schema."""
    text = tmm.dumps(value)
    loaded = tmm.loads(text)
    assert loaded == value
    assert type(loaded) is type(value)
    assert tmm.dumps(loaded) == text  # stable: the same value always gives the same text
    document = tmm.to_document(value)
    assert tmm.from_document(json.loads(text)) == value
    assert tmm.loads(text, document["kind"]) == value
    validate(document)
    return document


@settings(max_examples=40)
@given(played_games())
def test_every_kind_round_trips_from_any_reachable_state_and_meets_its_schema(game: Played) -> None:
    """States, every seat's view, legal actions, events, rule sets, records and outcomes survive JSON unchanged."""
    kinds = {_round_trip(value)["kind"] for value in values_of(game)}
    assert {"state", "view", "ruleset", "record"} <= kinds
    assert ("outcome" in kinds) == game.states[-1].phase.name.endswith("OVER")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_seeded_whole_game_s_record_replays_from_its_document_to_the_same_states(players: int) -> None:
    """A whole standard game of 2 to 6 seats: its record document loads, replays to every state, and ends the same."""
    game = play(100 + players, players)
    text = tmm.dumps(game.record, indent=2)
    loaded = tmm.loads(text, "record")
    assert loaded == game.record
    assert loaded.states() == game.states
    assert loaded.names == game.record.names
    assert loaded.seed == 100 + players
    final = game.states[-1]
    assert tmm.loads(tmm.dumps(outcome(final)), "outcome") == outcome(final)
    assert tmm.loads(tmm.dumps(view(final, None)), "view").outcome == outcome(final)


def test_every_event_kind_and_every_rule_set_of_many_games_round_trips() -> None:
    """Over 40 games under every rule set, every event the engine writes round-trips, and every kind comes up."""
    first: dict[str, Event] = {}
    for seed in range(40):
        ruleset = RULESETS[seed % len(RULESETS)]
        game = play(seed, ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1), ruleset)
        for happened in game.events:
            for event in happened:
                assert tmm.loads(tmm.dumps(event), "event") == event
                first.setdefault(tmm.EVENT_TAGS[type(event)], event)
        assert tmm.loads(tmm.dumps(game.record), "record") == game.record
    assert set(first) == set(tmm.EVENT_TAGS.values())
    for event in first.values():
        _round_trip(event)  # and its document meets the schema


# --- what a document looks like ----------------------------------------------------------------------


def test_a_document_has_its_format_and_kind_and_sorted_keys() -> None:
    """Each kind's document starts with its header, keys sorted; cards, phases and reasons are words."""
    state = make(["1 ? (3) W", "? 2 ? ?"], seat=1, discard="G 5", skips=[0], ruleset=Ruleset.short())
    text = tmm.dumps(state)
    document = json.loads(text)
    assert (document["format"], document["kind"]) == ("too-many-monkeys/1", "state")
    assert list(document) == sorted(document)
    assert document["rows"] == [["one", None, {"card": "three"}, "wild"], [None, "two", None, None]]
    assert (document["phase"], document["discard"], document["skips"]) == ("start", ["giraffe", "five"], [True, False])
    assert document["ruleset"]["counts"]["do_not_disturb"] == 2
    assert text == tmm.dumps(tmm.loads(text))
    assert tmm.dumps(Discarded(0, Card.SIX, Reason.TOO_HIGH)) == (
        '{"card": "six", "format": "too-many-monkeys/1", "kind": "event", "reason": "too_high", "seat": 0, '
        '"type": "discarded"}'
    )
    assert tmm.dumps(TurnedDown(0, 1, 4, Card.FOUR)) == (
        '{"card": "four", "format": "too-many-monkeys/1", "kind": "event", "position": 4, "seat": 0, "target": 1, '
        '"type": "turned_down"}'
    )


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        (Draw(), {"type": "draw"}),
        (TakeDiscard(), {"type": "take_discard"}),
        (Reveal(Card.DO_NOT_DISTURB), {"type": "reveal", "card": "do_not_disturb"}),
        (PlaceWild(4), {"type": "place_wild", "position": 4}),
        (TakeBonus(), {"type": "take_bonus"}),
        (RaccoonTake(Card.TWO), {"type": "raccoon_take", "card": "two"}),
        (TurnDown(2, 5), {"type": "turn_down", "seat": 2, "position": 5}),
        (GiveSkip(1), {"type": "give_skip", "seat": 1}),
        (Decline(), {"type": "decline"}),
    ],
)
def test_an_action_document_is_small_and_loads_with_or_without_its_header(action: Any, fields: dict[str, Any]) -> None:
    """Every action is its type and fields; a view lists it without the header, and it loads so too."""
    assert tmm.to_document(action) == {"format": tmm.FORMAT, "kind": "action", **fields}
    assert tmm.from_document(fields, "action") == action
    assert tmm.loads(json.dumps(fields), "action") == action
    validate({"format": tmm.FORMAT, "kind": "action", **fields})
    jsonschema.Draft202012Validator(load_schema("action", game=GAME)).validate(fields)
    with pytest.raises(DocumentError, match="no 'format' field: not a too-many-monkeys document"):
        tmm.from_document(fields)  # only a loader asked for an action takes one without its header
    with pytest.raises(DocumentError, match="no 'format' field"):
        tmm.from_document({"kind": "action", **fields}, "action")  # a kind needs its format


def test_the_legal_actions_a_view_offers_load_back_as_sent() -> None:
    """Each item of a view's ``legal`` list, posted back as it is, loads as that action."""
    offered = 0
    for seed in range(4):
        ruleset = RULESETS[seed % len(RULESETS)]
        for state in play(seed, min(3, ruleset.max_players), ruleset).states:
            table = view(state, state.seat)
            for item, action in zip(tmm.to_document(table)["legal"], table.legal, strict=True):
                assert tmm.loads(json.dumps(item), "action") == action
                offered += 1
    assert offered > 300


def test_the_typed_loaders_give_each_kind_its_own_type_and_refuse_other_kinds() -> None:
    """loads(text, "state") is a GameState, and a state document asked for as another kind is refused."""
    game = play(3, 2, Ruleset.short())
    final = game.states[-1]
    assert isinstance(tmm.loads(tmm.dumps(final), "state"), GameState)
    assert isinstance(tmm.loads(tmm.dumps(view(final, 0)), "view"), TableView)
    assert isinstance(tmm.loads(tmm.dumps(outcome(final)), "outcome"), Outcome)
    assert isinstance(tmm.loads(tmm.dumps(game.record), "record"), GameRecord)
    assert isinstance(tmm.loads(tmm.dumps(final.ruleset), "ruleset"), Ruleset)
    text = tmm.dumps(final)
    for kind in ("action", "ruleset", "event", "view", "outcome", "record"):
        with pytest.raises(DocumentError, match=f"expected a {kind} document, got a state document"):
            tmm.loads(text, kind)


def test_dumps_refuses_a_value_of_another_game_and_a_seed_no_document_holds() -> None:
    """A Cheeky Monkey state has no Too Many Monkeys document; a record's seed beyond 2**53 - 1 is refused."""
    with pytest.raises(TypeError, match="has no JSON document; documents hold state, action, ruleset, event"):
        tmm.dumps(CHEEKY_MONKEY.new_game(2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the record's seed 1152921504606846976 is too large for a document"):
        tmm.dumps(GameRecord(Ruleset.standard(), 2, seed=2**60))
    assert tmm.loads(tmm.dumps(GameRecord(Ruleset.standard(), 2, seed=-(2**53) + 1)), "record").seed == -(2**53) + 1


# --- the binding, the registry and the command line ----------------------------------------------------


def test_the_binding_s_documents_are_the_game_s_and_a_table_s_record_goes_through_them() -> None:
    """documents() is a Documents of format too-many-monkeys/1; a Table's record and views round-trip through it."""
    documents: Documents = TOO_MANY_MONKEYS.documents()
    assert documents is tmm.CODEC
    assert (documents.format, documents.kinds) == ("too-many-monkeys/1", tmm.KINDS)
    table: Table[Any, Any, Any, Any, Any] = Table(
        TOO_MANY_MONKEYS, [Seat.bot(TOO_MANY_MONKEYS, "random", name) for name in ("A", "B", "C")], seed=9
    )
    table.advance()
    record = documents.from_document(json.loads(documents.dumps(table.record(), indent=2)), "record")
    assert record == table.record()
    assert record.final_state() == table.state
    assert documents.loads(documents.dumps(table.view(1)), "view") == table.view(1)
    with pytest.raises(DocumentError, match="there is no document kind 'score'"):
        documents.loads(documents.dumps(table.state), "score")


def test_the_game_imports_without_cattrs_and_its_documents_name_the_json_extra() -> None:
    """Without cattrs the game plays; documents() raises ImportError naming the json extra, as game_of_document does."""
    code = (
        "import sys; sys.modules['cattrs'] = None\n"
        "from cheekymonkey.games import game_named, game_of_document\n"
        "game = game_named('too-many-monkeys')\n"
        "print(len(game.legal_actions(game.new_game(2))))\n"
        "for call in (game.documents, lambda: game_of_document('{}')):\n"
        "    try:\n"
        "        call()\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    # The timeout guards against a hang, not a speed figure.
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    count, *errors = result.stdout.strip().splitlines()
    assert count == "12"  # every card can be drawn first
    assert len(errors) == 2
    assert all("needs cattrs, from the json extra: pip install 'cheekymonkey[json]'" in error for error in errors)


def test_game_of_document_tells_each_game_s_documents_apart_by_their_format() -> None:
    """Every game's record, as text, bytes or a parsed document, names its game; other documents are refused."""
    records = {
        name: play_game([game_named(name).bot_named("random") for _ in range(2)], game=game_named(name), seed=1).record
        for name in GAME_NAMES
    }
    assert set(records) == set(DOCUMENT_FORMATS.values())
    for name, record in records.items():
        game = game_named(name)
        text = game.documents().dumps(record)
        assert DOCUMENT_FORMATS[game.documents().format.partition("/")[0]] == name
        assert game_of_document(text) is game
        assert game_of_document(text.encode()) is game
        assert game_of_document(json.loads(text)) is game
        assert game_of_document(text).documents().loads(text, "record") == record
    for document, path, words in [
        ('{"format": "chess/1", "kind": "record"}', "$.format", "format 'chess/1' is no game's"),
        ('{"format": 1}', "$.format", "format 1 is no game's"),
        ('{"type": "draw"}', "$", "no 'format' field: the document names no game"),
        ("[1, 2]", "$", "a document must be a JSON object"),
        ('{"format": "too-many-monkeys/1",', "$", "not valid JSON"),
        ('{"format": "cheekymonkey/1", "format": "too-many-monkeys/1"}', "$", "appears twice"),
    ]:
        with pytest.raises(DocumentError) as caught:
            game_of_document(document)
        assert (caught.value.path, caught.value.kind) == (path, None)
        assert words in caught.value.reason


def test_replay_narrates_a_too_many_monkeys_record_without_being_told_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`cheekymonkey replay FILE` reads the game from the record's format; --game must agree with it."""
    game = play(4, 3, Ruleset.short())
    path = tmp_path / "record.json"
    path.write_text(tmm.dumps(game.record, indent=2), encoding="utf-8")
    assert main(["replay", str(path), "--no-step"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"Replaying a 3-player game of Too Many Monkeys, short rules, seed 4: {len(game.record.actions)}"
    )
    assert "Winner: Seat " in out
    assert main(["replay", str(path), "--game", "too-many-monkeys", "--no-step"]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--game", "cheeky-monkey"]) == 2
    assert "format 'too-many-monkeys/1' is not 'cheekymonkey/1'" in capsys.readouterr().err
    cheeky = tmp_path / "cheeky.json"
    cheeky.write_text(cheeky_documents.dumps(play_game([RandomBot(), RandomBot()], seed=2).record), encoding="utf-8")
    assert main(["replay", str(cheeky), "--no-step"]) == 0
    assert "game of Cheeky Monkey" in capsys.readouterr().out


# --- the schemas -----------------------------------------------------------------------------------------


def test_the_shipped_schema_files_equal_the_generated_ones_for_every_kind() -> None:
    """Too Many Monkeys' schema files in the package are what generate_schemas builds from the types today."""
    generated = generate_schemas(GAME)
    assert tuple(generated) == SCHEMA_GAMES[GAME] == tmm.KINDS
    for kind, schema in generated.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert load_schema(kind, game=GAME) == schema, f"run 'python -m cheekymonkey.schema' to regenerate {kind}"
        assert schema["title"] == f"too-many-monkeys/1 {kind} document"
        assert schema_filename(kind, GAME) == f"{kind}.schema.json"
    # Every built-in game ships a schema of each kind of its documents; a plug-in may ship none (Pig, Leduc
    # poker: tests/test_plugins.py checks that they are left out everywhere).
    assert set(BUILT_IN_GAMES) <= set(SCHEMA_GAMES) <= set(GAME_NAMES)
    for name in SCHEMA_GAMES:
        assert SCHEMA_GAMES[name] == game_named(name).documents().kinds


def test_write_schemas_writes_one_file_per_kind_equal_to_the_shipped_ones(tmp_path: Path) -> None:
    """The regeneration writes each kind's file; each equals the shipped one."""
    written = write_schemas(tmp_path, game=GAME)
    assert sorted(path.name for path in written) == sorted(f"{kind}.schema.json" for kind in tmm.KINDS)
    for path in written:
        kind = path.name.removesuffix(".schema.json")
        assert path.read_text(encoding="utf-8") == schema_text(load_schema(kind, game=GAME))
    with pytest.raises(ValueError, match="no game named 'chess'"):
        load_schema("state", game="chess")
    with pytest.raises(ValueError, match="no schema for kind 'score'"):
        load_schema("score", game=GAME)


_STATE = make(["1 ? (3) W", "? 2 ? ?"], seat=1, discard="5 G", ruleset=Ruleset.short())
_VIEW = view(apply_all(new_game(3), [Reveal(Card.THREE), Reveal(Card.SKIP)]), 0)

STRUCTURE = [
    # (what, the document, where, the new value): each is refused by the loader and by the schema.
    ("seat as text", _STATE, ("seat",), "1"),
    ("seat beyond six seats", _STATE, ("seat",), 6),
    ("round 0", _STATE, ("round",), 0),
    ("card as a number", _STATE, ("discard", 0), 5),
    ("unknown card", _STATE, ("discard", 0), "seven"),
    ("face-down card as text", _STATE, ("rows", 0, 2), {"card": "three", "known": True}),
    ("row position as a bool", _STATE, ("rows", 0, 0), True),
    ("count per card as a list", _STATE, ("unseen",), [1] * 12),
    ("count missing a card", _STATE, ("unseen", "wild"), DROP),
    ("count of an unknown card", _STATE, ("unseen", "monkey"), 1),
    ("negative count", _STATE, ("unseen", "one"), -1),
    ("count beyond 2**53 - 1", _STATE, ("unseen", "one"), 2**53),
    ("phase unknown", _STATE, ("phase",), "thinking"),
    ("skips as numbers", _STATE, ("skips", 0), 0),
    ("unknown field", _STATE, ("cheat",), True),
    ("missing field", _STATE, ("hand",), DROP),
    ("future format", _STATE, ("format",), "too-many-monkeys/2"),
    ("other game's format", _STATE, ("format",), "cheekymonkey/1"),
    ("wrong kind", _STATE, ("kind",), "board"),
    ("row size 7", _STATE, ("ruleset", "row_size"), 7),
    ("one player", _STATE, ("ruleset", "min_players"), 1),
    ("empty rule-set name", _STATE, ("ruleset", "name"), ""),
    ("a seat below 0 offered", _VIEW, ("legal", 0), {"type": "give_skip", "seat": -1}),
    ("action of an unknown type", _VIEW, ("legal", 0), {"type": "skip", "seat": 1}),
    ("viewer as text", _VIEW, ("viewer",), "0"),
    ("outcome as a list", _VIEW, ("outcome",), []),
]


@pytest.mark.parametrize(
    ("value", "path", "new"), [case[1:] for case in STRUCTURE], ids=[case[0] for case in STRUCTURE]
)
def test_the_schema_refuses_what_the_loader_refuses_for_structure(
    value: tmm.Document, path: tuple[str | int, ...], new: object
) -> None:
    """Wrong types, unknown words and fields, numbers out of range, another format: refused by both."""
    document = tmm.to_document(value)
    validate(document)
    edited = changed(document, (path, new))
    assert not jsonschema.Draft202012Validator(load_schema(document["kind"], game=GAME)).is_valid(edited)
    with pytest.raises(DocumentError):
        tmm.from_document(edited)


def test_a_known_face_down_card_and_a_reshuffled_pile_round_trip() -> None:
    """A row's FaceDown card is {"card": name}; a reshuffled pile is an object of counts, else null."""
    state = make(["? (2)", "W ?"], discard="3 1", pile="1 G G", ruleset=TINY)
    document = _round_trip(state)
    assert document["rows"][0][1] == {"card": "two"}
    assert document["pile"]["giraffe"] == 2
    assert document["pile_size"] == 3
    assert _round_trip(new_game(2, ruleset=TINY))["pile"] is None
    assert tmm.loads(tmm.dumps(state), "state").rows[0][1] == face_down(Card.TWO)
