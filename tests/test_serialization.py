"""JSON documents: every kind round-trips, matches the shipped schema, and broken documents are refused clearly."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey import (
    ANIMALS,
    Action,
    Animal,
    Bot,
    CheekyMonkeyError,
    Claim,
    Draw,
    GameRecord,
    GameState,
    Herd,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    apply_all,
    apply_with_events,
    legal_actions,
    new_game,
    play_game,
    sample_chance,
    score,
)
from cheekymonkey.cheeky.bots import HeuristicBot
from cheekymonkey.cheeky.documents import (
    FORMAT,
    KINDS,
    Document,
    dump_record,
    dump_ruleset,
    dump_state,
    dumps,
    from_document,
    load_action,
    load_event,
    load_record,
    load_ruleset,
    load_score,
    load_state,
    load_view,
    loads,
    to_document,
)
from cheekymonkey.cheeky.events import GameOver as GameOverEvent
from cheekymonkey.cheeky.events import Swapped
from cheekymonkey.cheeky.views import view
from cheekymonkey.schema import load_schema
from cheekymonkey.schema.generate import generate_schemas, schema_text, write_schemas
from cheekymonkey.serialization import DocumentError

# --- a random-playout generator of reachable states ---------------------------------------------


def _custom_ruleset(rng: random.Random) -> Ruleset:
    animals = rng.sample(ANIMALS, rng.randint(1, 8))
    counts = {a: rng.randint(1, 6) for a in animals}
    values = {a: rng.randint(1, 12) for a in animals}
    low = rng.randint(2, 5)
    return Ruleset.custom(
        counts,
        bonus_values=values,
        bonus_tiles=rng.random() < 0.5,
        swap=Animal.MONKEY in counts and rng.random() < 0.7,
        min_players=low,
        max_players=rng.randint(low, 6),
    )


def _ruleset(rng: random.Random) -> Ruleset:
    if rng.random() < 0.5:
        return Ruleset.preset(rng.choice(Ruleset.preset_names()))
    return _custom_ruleset(rng)


def playout(seed: int) -> Iterator[tuple[GameState, Action | None]]:
    """Every state of one random game (rules, seats and choices from ``seed``), with the action taken from it."""
    rng = random.Random(seed)
    ruleset = _ruleset(rng)
    players = rng.randint(ruleset.min_players, ruleset.max_players)
    state = new_game(players, ruleset=ruleset, first_player=rng.randrange(players))
    stop_weight = rng.choice((0.1, 0.3, 0.6))
    while state.phase is not Phase.OVER:
        if state.phase is Phase.CHANCE:
            action: Action = sample_chance(state, rng)
        else:
            actions = legal_actions(state)
            action = Stop() if Stop() in actions and rng.random() < stop_weight else rng.choice(actions)
        yield state, action
        state = apply(state, action)
    yield state, None


_VALIDATORS = {kind: jsonschema.Draft202012Validator(load_schema(kind)) for kind in KINDS}


def _validate(document: dict[str, Any]) -> None:
    _VALIDATORS[document["kind"]].validate(document)


def _round_trip(value: Document, *, validate: bool = False) -> None:
    text = dumps(value)
    loaded = loads(text)
    assert loaded == value
    assert type(loaded) is type(value)
    assert dumps(loaded) == text  # stable: the same value always gives the same text
    document = to_document(value)
    assert from_document(document) == value
    if validate:
        _validate(document)


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.slow  # thousands of states, with schema checks
def test_thousands_of_random_reachable_states_round_trip_with_their_views_actions_and_events() -> None:
    """Every state of 40 random games, its views, actions and events survive JSON; a sample meets the schema."""
    states = 0
    for seed in range(40):
        for state, action in playout(seed):
            # The schema check is slower than the round trip, so every 10th state's documents get it.
            validate = states % 10 == 0
            _round_trip(state, validate=validate)
            _round_trip(view(state, state.seat), validate=validate)
            _round_trip(view(state, None), validate=validate)
            states += 1
            if action is not None:
                _round_trip(action, validate=validate)
                for event in apply_with_events(state, action)[1]:
                    _round_trip(event, validate=validate)
            else:
                _round_trip(score(state), validate=True)
    assert states > 3000


@given(st.integers(0, 2**32), st.integers(0, 400))
def test_any_reachable_state_round_trips_and_validates_against_the_schema(seed: int, steps: int) -> None:
    """Property: a state reached by random play loads back equal, and its document meets the shipped schema."""
    state = new_game(2)
    for i, (reached, _) in enumerate(playout(seed)):
        state = reached
        if i == steps:
            break
    document = to_document(state)
    _validate(json.loads(json.dumps(document)))
    assert from_document(json.loads(dumps(state)), "state") == state


def test_every_preset_ruleset_round_trips_through_dump_and_load_ruleset() -> None:
    """load_ruleset(dump_ruleset(r)) == r for every preset and some custom rule sets."""
    rulesets = [Ruleset.preset(name) for name in Ruleset.preset_names()]
    rulesets += [_custom_ruleset(random.Random(seed)) for seed in range(50)]
    for ruleset in rulesets:
        assert load_ruleset(dump_ruleset(ruleset)) == ruleset
        assert load_ruleset(dump_ruleset(ruleset, indent=2)) == ruleset


def test_records_round_trip_and_replay_to_the_played_state() -> None:
    """A played game's record loads back equal, and replaying the loaded record ends in the same final state."""
    for seed in range(20):
        pool: list[Bot] = [HeuristicBot(), RandomBot(), HeuristicBot(0.5)]
        bots = pool[: 2 + seed % 2]
        game = play_game(bots, seed=seed, first_player=seed % 2)
        loaded = load_record(dump_record(game.record))
        assert loaded == game.record
        assert loaded.final_state() == game.state


def test_a_document_carries_the_format_and_kind_and_its_keys_are_sorted() -> None:
    """Every document has format cheekymonkey/1 and its kind; the text has sorted keys at every level."""
    state = apply(new_game(2), Reveal(Animal.SEAL))
    values: list[tuple[str, Document]] = [
        ("state", state),
        ("action", Claim(1)),
        ("ruleset", Ruleset.standard()),
        ("event", apply_with_events(new_game(2), Reveal(Animal.LION))[1][0]),
        ("view", view(state, 0)),
        ("score", play_game([RandomBot(), RandomBot()], seed=1).score),
        ("record", play_game([RandomBot(), RandomBot()], seed=1).record),
    ]
    assert sorted(kind for kind, _ in values) == sorted(KINDS)

    def check_sorted(node: object) -> None:
        if isinstance(node, dict):
            assert list(node) == sorted(node)
            for child in node.values():
                check_sorted(child)
        elif isinstance(node, list):
            for child in node:
                check_sorted(child)

    for kind, value in values:
        parsed = json.loads(dumps(value))
        assert parsed["format"] == FORMAT
        assert parsed["kind"] == kind
        check_sorted(parsed)
        _validate(parsed)


def test_an_action_document_is_small_and_readable() -> None:
    """The documented shape: a claim is its seat and type beside the header; animals are lowercase names."""
    assert dumps(Claim(2)) == '{"format": "cheekymonkey/1", "kind": "action", "seat": 2, "type": "claim"}'
    assert json.loads(dumps(Place(Animal.KANGAROO)))["animal"] == "kangaroo"
    for action in (Draw(), Stop(), Herd(), Swap(3), Reveal(Animal.ELEPHANT)):
        assert load_action(dumps(action)) == action


def test_dumps_refuses_a_value_that_has_no_document() -> None:
    """Dumps of something that is not a document kind raises TypeError naming it."""
    with pytest.raises(TypeError, match="has no JSON document"):
        dumps(42)  # type: ignore[arg-type]


# --- the schema ----------------------------------------------------------------------------------


def test_the_shipped_schema_files_equal_the_generated_ones() -> None:
    """The schema files in the package are exactly what generate_schemas() builds from the types today."""
    generated = generate_schemas()
    assert tuple(generated) == KINDS
    for kind, schema in generated.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert load_schema(kind) == schema, f"run 'python -m cheekymonkey.schema' to regenerate {kind}"
        assert schema_text(schema).endswith("}\n")


def test_the_schema_rejects_what_the_loader_rejects_for_structure() -> None:
    """Wrong types, unknown fields, unknown animals and a future format fail the schema as well as the loader."""
    base = to_document(apply(new_game(3), Reveal(Animal.SEAL)))
    validator = jsonschema.Draft202012Validator(load_schema("state"))
    for path, value in [
        (("seat",), "0"),
        (("front", 0), "dragon"),
        (("bag", "seal"), -1),
        (("format",), "cheekymonkey/2"),
        (("phase",), "thinking"),
        (("ruleset", "swap"), 1),
    ]:
        document = copy.deepcopy(base)
        target: Any = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        assert not validator.is_valid(document), path
        with pytest.raises(DocumentError):
            from_document(document)
    extra = {**base, "cheat": True}
    assert not validator.is_valid(extra)


def test_load_schema_refuses_an_unknown_kind() -> None:
    """load_schema names the kinds when asked for one that does not exist."""
    with pytest.raises(ValueError, match="no schema for kind 'game'"):
        load_schema("game")


# --- the corpus of broken documents --------------------------------------------------------------


def _state_doc() -> dict[str, Any]:
    # Seat 0 has stacked a Seal; seat 1 has drawn a Lion and is deciding.
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Stop(), Reveal(Animal.LION)])
    return to_document(state)


def _record_doc() -> dict[str, Any]:
    return to_document(play_game([RandomBot(), RandomBot()], seed=11).record)


def _unnamed_record_doc() -> dict[str, Any]:
    """A record without the seats' names and kinds (optional), so that its seat count can change alone."""
    document = _record_doc()
    document["names"], document["bots"] = [], []
    return document


def _edit(make: Callable[[], dict[str, Any]], change: Callable[[dict[str, Any]], object]) -> Callable[[], str]:
    def build() -> str:
        document = make()
        change(document)
        return json.dumps(document)

    return build


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(path: tuple[str | int, ...]) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def _both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        for each in changes:
            each(document)

    return change


def _score_doc() -> dict[str, Any]:
    return to_document(play_game([RandomBot(), RandomBot(), RandomBot()], seed=4).score)


def _view_doc() -> dict[str, Any]:
    return to_document(view(apply(new_game(3), Reveal(Animal.MONKEY)), 0))


def _ruleset_doc() -> dict[str, Any]:
    return to_document(Ruleset.standard())


def _tamper_record_step(document: dict[str, Any]) -> None:
    # The first chance outcome becomes a Place: illegal at a chance node.
    document["actions"][0] = {"type": "place", "animal": "seal"}


BROKEN: list[tuple[str, str | None, Callable[[], str], str, str]] = [
    # (name, kind asked for, document text, expected path, words the reason must contain)
    ("empty text", "state", lambda: "", "$", "not valid JSON"),
    ("truncated state", "state", lambda: json.dumps(_state_doc())[:-7], "$", "not valid JSON"),
    ("truncated record", "record", lambda: json.dumps(_record_doc())[:200], "$", "cut short"),
    ("not an object", "state", lambda: "[1, 2]", "$", "must be a JSON object"),
    ("null", None, lambda: "null", "$", "must be a JSON object"),
    ("NaN", "state", lambda: json.dumps(_state_doc()).replace('"seat": 1', '"seat": NaN'), "$", "NaN"),
    ("duplicate key", "state", lambda: json.dumps(_state_doc())[:-1] + ', "seat": 0}', "$", "appears twice"),
    ("no format", "state", _edit(_state_doc, _drop(("format",))), "$", "no 'format' field"),
    ("future version", "state", _edit(_state_doc, _set(("format",), "cheekymonkey/2")), "$.format", "newer"),
    ("old version", "state", _edit(_state_doc, _set(("format",), "cheekymonkey/0")), "$.format", "is not"),
    ("foreign format", "state", _edit(_state_doc, _set(("format",), "chess/1")), "$.format", "is not"),
    ("format not a string", "state", _edit(_state_doc, _set(("format",), 1)), "$.format", "is not"),
    ("unknown kind", None, _edit(_state_doc, _set(("kind",), "board")), "$.kind", "not one of"),
    ("wrong kind", "action", lambda: json.dumps(_state_doc()), "$.kind", "expected a action"),
    ("unknown field", "state", _edit(_state_doc, _set(("cheat",), True)), "$", "unknown fields 'cheat'"),
    ("missing field", "state", _edit(_state_doc, _drop(("front",))), "$.front", "missing"),
    ("seat as text", "state", _edit(_state_doc, _set(("seat",), "1")), "$.seat", "expected an integer"),
    ("seat as float", "state", _edit(_state_doc, _set(("seat",), 1.0)), "$.seat", "expected an integer"),
    ("seat as bool", "state", _edit(_state_doc, _set(("seat",), True)), "$.seat", "expected an integer"),
    ("seat out of range", "state", _edit(_state_doc, _set(("seat",), 5)), "$", "not one of the 2 seats"),
    ("unknown animal", "state", _edit(_state_doc, _set(("front", 0), "dragon")), "$.front[0]", "expected an animal"),
    ("animal as number", "state", _edit(_state_doc, _set(("stacks", 0, 0), 1)), "$.stacks[0][0]", "expected an animal"),
    ("stack as string", "state", _edit(_state_doc, _set(("stacks", 0), "seal")), "$.stacks[0]", "expected a list"),
    ("front as object", "state", _edit(_state_doc, _set(("front",), {"lion": 1})), "$.front", "expected a list"),
    ("bag as list", "state", _edit(_state_doc, _set(("bag",), [3, 4, 5, 6, 7, 8, 9, 10])), "$.bag", "per animal"),
    ("bag count as text", "state", _edit(_state_doc, _set(("bag", "seal"), "3")), "$.bag", "must be a count"),
    ("bag count negative", "state", _edit(_state_doc, _set(("bag", "seal"), -1)), "$.bag", "must be a count"),
    ("bag animal missing", "state", _edit(_state_doc, _drop(("bag", "monkey"))), "$.bag", "no value for monkey"),
    ("bag unknown animal", "state", _edit(_state_doc, _set(("bag", "dodo"), 1)), "$.bag", "unknown animals 'dodo'"),
    ("tampered bag count", "state", _edit(_state_doc, _set(("bag", "seal"), 4)), "$", "5 Seal tokens in the game"),
    ("token added to a stack", "state", _edit(_state_doc, _set(("stacks", 1), ["lion"])), "$", "Lion tokens"),
    ("token removed", "state", _edit(_state_doc, _set(("stacks", 0), [])), "$", "Seal tokens in the game"),
    ("phase unknown", "state", _edit(_state_doc, _set(("phase",), "thinking")), "$.phase", "expected a phase"),
    ("phase as number", "state", _edit(_state_doc, _set(("phase",), 1)), "$.phase", "expected a phase"),
    (
        "over with a full bag",
        "state",
        _edit(_state_doc, _both(_set(("phase",), "over"), _set(("claimable",), None))),
        "$",
        "game is over only",
    ),
    (
        "placing one animal",
        "state",
        _edit(_state_doc, _both(_set(("phase",), "placing"), _set(("claimable",), None))),
        "$",
        "placing needs two",
    ),
    ("claims at a chance", "state", _edit(_state_doc, _set(("phase",), "chance")), "$", "only while deciding"),
    ("claim without it", "state", _edit(_state_doc, _set(("claimable",), "elephant")), "$", "no Elephant is in front"),
    ("swap with no monkey", "state", _edit(_state_doc, _set(("swap_open",), True)), "$", "a swap is open only"),
    ("swap_open as text", "state", _edit(_state_doc, _set(("swap_open",), "no")), "$.swap_open", "true or false"),
    ("ruleset tampered", "state", _edit(_state_doc, _set(("ruleset", "counts", "seal"), 5)), "$", "Seal tokens"),
    (
        "ruleset no animals",
        "ruleset",
        _edit(_ruleset_doc, _set(("counts",), dict.fromkeys(map(str.lower, [a.name for a in ANIMALS]), 0))),
        "$",
        "no animals",
    ),
    ("swap without monkey", "ruleset", _edit(_ruleset_doc, _set(("counts", "monkey"), 0)), "$", "not in play but"),
    ("one player", "ruleset", _edit(_ruleset_doc, _set(("min_players",), 1)), "$.min_players", "of 2 or more"),
    ("empty name", "ruleset", _edit(_ruleset_doc, _set(("name",), "")), "$", "non-empty string"),
    ("flag as number", "ruleset", _edit(_ruleset_doc, _set(("swap",), 1)), "$.swap", "true or false"),
    (
        "action unknown type",
        "action",
        lambda: json.dumps({"format": FORMAT, "kind": "action", "type": "fly"}),
        "$",
        "'fly' is not an action",
    ),
    (
        "action no type",
        "action",
        lambda: json.dumps({"format": FORMAT, "kind": "action", "seat": 1}),
        "$",
        "None is not an action",
    ),
    (
        "claim seat negative",
        "action",
        lambda: json.dumps({"format": FORMAT, "kind": "action", "type": "claim", "seat": -1}),
        "$.seat",
        "an integer of 0 or more",
    ),
    (
        "claim seat too big",
        "action",
        lambda: json.dumps({"format": FORMAT, "kind": "action", "type": "claim", "seat": 99}),
        "$.seat",
        "above 15",
    ),
    (
        "draw with a seat",
        "action",
        lambda: json.dumps({"format": FORMAT, "kind": "action", "type": "draw", "seat": 1}),
        "$",
        "unknown fields 'seat'",
    ),
    (
        "event bad animal",
        "event",
        lambda: json.dumps({"format": FORMAT, "kind": "event", "type": "drew", "seat": 0, "animal": "unicorn"}),
        "$.animal",
        "expected an animal",
    ),
    (
        "record illegal step",
        "record",
        _edit(_record_doc, _tamper_record_step),
        "$.actions[0]",
        "step 0 does not replay",
    ),
    (
        "record step unknown",
        "record",
        _edit(_record_doc, _set(("actions", 3), {"type": "jump"})),
        "$.actions[3]",
        "'jump' is not an action",
    ),
    ("record too many players", "record", _edit(_unnamed_record_doc, _set(("players",), 9)), "$", "9 players"),
    ("record bad first player", "record", _edit(_record_doc, _set(("first_player",), 2)), "$", "first_player 2"),
    (
        "record actions not a list",
        "record",
        _edit(_record_doc, _set(("actions",), "draw")),
        "$.actions",
        "expected a list",
    ),
    (
        "score total tampered",
        "score",
        _edit(_score_doc, _set(("seats", 0, "total"), 999)),
        "$.seats[0].total",
        "is not tokens",
    ),
    (
        "score tokens tampered",
        "score",
        _edit(_score_doc, _set(("seats", 1, "tokens"), 0)),
        "$.seats[1].tokens",
        "counts add up",
    ),
    ("score winner tampered", "score", _edit(_score_doc, _set(("winners",), [0, 1, 2])), "$.winners", "top scorers"),
    (
        "score decision tampered",
        "score",
        _edit(_score_doc, _set(("decided_by",), "champion")),
        "$.decided_by",
        "expected a decision",
    ),
    ("view top without height", "view", _edit(_view_doc, _set(("stack_tops", 1), "lion")), "$", "height 0 and top"),
    ("view bag tampered", "view", _edit(_view_doc, _set(("bag_size",), 52)), "$", "do not add up"),
    ("view legal to a watcher", "view", _edit(_view_doc, _set(("viewer",), 2)), "$", "only to the player to move"),
]


@pytest.mark.parametrize(("kind", "text", "path", "words"), [case[1:] for case in BROKEN], ids=[c[0] for c in BROKEN])
def test_a_broken_document_is_refused_with_a_clear_error(
    kind: Any, text: Callable[[], str], path: str, words: str
) -> None:
    """Truncated, mistyped, tampered, impossible or future documents raise DocumentError naming path and problem."""
    document = text()
    with pytest.raises(DocumentError) as caught:
        loads(document, kind)
    error = caught.value
    assert isinstance(error, CheekyMonkeyError)
    assert isinstance(error, ValueError)
    assert error.path == path, error
    assert words in error.reason, error
    assert path in str(error)
    assert not isinstance(error.__cause__, AssertionError)


def test_every_truncation_of_a_state_document_is_refused() -> None:
    """No prefix of a state document's text loads: each one raises DocumentError, never a bare exception."""
    text = dump_state(apply_all(new_game(3), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.MONKEY)]))
    for cut in range(len(text)):
        with pytest.raises(DocumentError):
            load_state(text[:cut])


def test_the_typed_loaders_refuse_other_kinds() -> None:
    """Each load_<kind> accepts only its own kind of document."""
    state_text = dump_state(new_game(2))
    for loader in (load_action, load_event, load_record, load_ruleset, load_score, load_view):
        with pytest.raises(DocumentError, match="got a state document"):
            loader(state_text)
    with pytest.raises(DocumentError, match="expected JSON text"):
        load_state(None)  # type: ignore[arg-type]


def test_a_game_over_event_with_a_tampered_sheet_is_refused() -> None:
    """An event document's score sheet must add up, or the event is refused at the sheet's path."""
    game = play_game([RandomBot(), RandomBot()], seed=2)
    state = game.record.states()[-2]
    _, events = apply_with_events(state, game.record.actions[-1])
    document = to_document(events[-1])
    assert document["type"] == "game_over"
    loads(json.dumps(document))
    document["sheet"]["seats"][0]["bonus"] += 1
    with pytest.raises(DocumentError) as caught:
        loads(json.dumps(document), "event")
    assert caught.value.path == "$.sheet.seats[0].total"


def test_a_record_that_does_not_replay_is_refused_at_the_failing_step() -> None:
    """A record whose step 17 is illegal (a claim nobody can make) is refused at $.actions[17]."""
    record = play_game([RandomBot(), RandomBot()], seed=5).record
    actions = list(record.actions)
    actions[17] = Claim(1) if record.states()[17].seat == 0 else Claim(0)
    broken = GameRecord(record.ruleset, record.players, record.first_player, tuple(actions), record.seed)
    with pytest.raises(DocumentError) as caught:
        load_record(dump_record(broken))
    assert caught.value.path == "$.actions[17]"
    assert "step 17 does not replay" in caught.value.reason


def test_load_view_and_load_score_accept_what_was_dumped() -> None:
    """The view and score loaders give back the dumped values."""
    game = play_game([RandomBot(), RandomBot(), RandomBot()], seed=9)
    assert load_score(dumps(game.score)) == game.score
    middle = game.record.states()[30]
    for seat in (0, 1, 2, None):
        assert load_view(dumps(view(middle, seat))) == view(middle, seat)


def test_the_core_library_imports_without_cattrs_or_rich() -> None:
    """Only attrs is a core dependency: ``import cheekymonkey`` works with cattrs and rich unavailable."""
    code = (
        "import sys; sys.modules['cattrs'] = None; sys.modules['rich'] = None\n"
        "import cheekymonkey\n"
        "assert 'cheekymonkey.serialization' not in sys.modules\n"
        "print(cheekymonkey.view(cheekymonkey.new_game(2), 0).bag_size)\n"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    # The timeout guards against a hang, not a speed figure: the import takes about a second when idle.
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "52"


def test_write_schemas_writes_the_shipped_files(tmp_path: Path) -> None:
    """The regeneration script writes one file per kind, each equal to the shipped file."""
    written = write_schemas(tmp_path)
    assert sorted(path.name for path in written) == sorted(f"{kind}.schema.json" for kind in KINDS)
    for path in written:
        assert json.loads(path.read_text(encoding="utf-8")) == load_schema(path.name.removesuffix(".schema.json"))


# --- fuzzing: any change to a valid document is either a valid value or a DocumentError --------------

_NAMES = [a.name.lower() for a in ANIMALS] + [p.name.lower() for p in Phase] + ["draw", "claim", "state", FORMAT]
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(_NAMES),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(_NAMES), children, max_size=3),
    max_leaves=5,
)


def _samples() -> list[dict[str, Any]]:
    tiny = Ruleset.custom({Animal.SEAL: 2, Animal.LION: 1, Animal.MONKEY: 3})
    game = play_game([HeuristicBot(), RandomBot(), HeuristicBot()], ruleset=tiny, seed=3)
    states = game.record.states()
    middle = states[len(states) // 2]
    values: list[Document] = [
        middle,
        view(middle, middle.seat),
        game.record,
        game.score,
        tiny,
        Claim(1),
        Reveal(Animal.MONKEY),
        GameOverEvent(game.score),
        Swapped(0, 1, Animal.SEAL),
    ]
    return [to_document(value) for value in values]


SAMPLES = _samples()


def _paths(node: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found: list[tuple[str | int, ...]] = []
    items: list[tuple[str | int, object]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    for key, child in items:
        found.append((*prefix, key))
        found.extend(_paths(child, (*prefix, key)))
    return found


@given(st.data())
def test_a_mutated_document_loads_to_a_valid_value_or_is_refused_with_a_document_error(data: st.DataObject) -> None:
    """Fuzz: replacing, deleting or adding any part of a valid document never gives a bare exception or a bad value."""
    document = copy.deepcopy(data.draw(st.sampled_from(SAMPLES), label="document"))
    path = data.draw(st.sampled_from(_paths(document)), label="path")
    parent: Any = document
    for key in path[:-1]:
        parent = parent[key]
    operation = data.draw(st.sampled_from(["replace", "delete", "add"]), label="operation")
    if operation == "replace":
        parent[path[-1]] = data.draw(_JSON, label="value")
    elif operation == "delete":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(_NAMES), label="key")] = data.draw(_JSON, label="value")
    else:
        parent.insert(path[-1], data.draw(_JSON, label="value"))
    try:
        value = from_document(json.loads(json.dumps(document)))
    except DocumentError as error:
        refused = error
    else:
        # Accepted: the value is whole (it dumps and loads back equal), and the schema accepts the document too.
        assert loads(dumps(value)) == value
        _validate(document)
        return
    assert refused.path.startswith("$")
    assert refused.reason
