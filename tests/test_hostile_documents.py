"""Hostile documents: huge numbers, tampered states, sheets and views, long values, limits.

A loader must either give back a value that play could give
(or one documented as harmless), or raise :class:`DocumentError`; never another exception, and never an
unbounded message.
"""

from __future__ import annotations

import gc
import json
import sys
import tracemalloc
from typing import Any

import attrs
import jsonschema
import pytest

from cheekymonkey import (
    Animal,
    Claim,
    Draw,
    GameState,
    IllegalActionError,
    InvalidStateError,
    Phase,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    TableView,
    apply,
    apply_all,
    new_game,
    play_game,
    score_counts,
    stop_in_order,
    view,
)
from cheekymonkey.cheeky.documents import (
    FORMAT,
    dump_record,
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
from cheekymonkey.cheeky.events import GameOver
from cheekymonkey.cheeky.records import GameRecord
from cheekymonkey.schema import load_schema
from cheekymonkey.serialization import DocumentError, Limits, _parsing, codec
from cheekymonkey.serialization.codec import DocumentCodec
from tests.document_testing import count_calls
from tests.test_loaders_linear import HOSTILE_SHAPES

E, S, L, M = Animal.ELEPHANT, Animal.SEAL, Animal.LION, Animal.MONKEY
MAX_MESSAGE = 2000


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document)


# --- 1. huge numbers -------------------------------------------------------------------------------


def test_an_integer_of_thousands_of_digits_is_a_document_error() -> None:
    """A 4,301-digit seat raises DocumentError, not the bare ValueError of int parsing."""
    text = '{"format":"cheekymonkey/1","kind":"action","type":"claim","seat":' + "1" * 4301 + "}"
    with pytest.raises(DocumentError, match="too large"):
        load_action(text)


def test_a_format_version_of_thousands_of_digits_is_a_document_error() -> None:
    """A format version of 4,301 digits is refused with DocumentError, and the message is short."""
    text = json.dumps({"format": "cheekymonkey/" + "9" * 4301, "kind": "action", "type": "draw"})
    with pytest.raises(DocumentError) as caught:
        load_action(text)
    assert caught.value.path == "$.format"
    assert len(str(caught.value)) < MAX_MESSAGE


@pytest.mark.parametrize("number", [2**53, 10**30, 10**5000], ids=["2**53", "10**30", "10**5000"])
def test_an_integer_beyond_the_safe_range_is_refused_in_text_and_in_parsed_documents(number: int) -> None:
    """Integers are bounded by 2**53 - 1 (the JSON interoperable range), as the schema says."""
    document = to_document(Ruleset.standard())
    document["counts"]["seal"] = number
    with pytest.raises(DocumentError, match="too large"):
        from_document(document)
    if number < 10**4000:
        with pytest.raises(DocumentError, match="too large"):
            loads(json.dumps(document))
        # jsonschema itself fails on an integer too long to print, so the schema is asked of the others.
        assert not jsonschema.Draft202012Validator(load_schema("ruleset")).is_valid(document)


# --- 2. the claimable animal is the one drawn most recently (R7) ----------------------------------


def _tampered_claim_state() -> dict[str, Any]:
    state = apply_all(new_game(2), [Reveal(E), Stop(), Reveal(E), Draw(), Reveal(L)])
    document = to_document(state)
    assert document["claimable"] == "lion"
    document["claimable"] = "elephant"
    return document


def test_a_state_whose_claimable_animal_was_not_drawn_last_is_refused() -> None:
    """Claimable Elephant while a Lion was drawn last would offer Claim(0), which R7 forbids."""
    with pytest.raises(DocumentError, match="R7"):
        load_state(_text(_tampered_claim_state()))


def test_the_constructor_refuses_a_claimable_animal_that_is_not_the_last_run_in_front() -> None:
    """After the last draw only claims of that animal follow, so it ends the front, alone in it."""
    ruleset = Ruleset.custom({E: 2, S: 2, M: 2})
    fields: dict[str, Any] = {
        "ruleset": ruleset,
        "seat": 0,
        "phase": Phase.DECIDE,
        "bag": (0, 0, 0, 0, 0, 0, 0, 2),
        "stacks": ((), (S,)),
        "claimable": E,
    }
    with pytest.raises(InvalidStateError, match="R7: claims follow the animal drawn last"):
        GameState(front=(E, S, E), **fields)  # an Elephant before the Seal: the second one would have bust
    with pytest.raises(InvalidStateError, match="R7: claims follow the animal drawn last"):
        GameState(front=(E, E, S), **{**fields, "claimable": E})  # the Seal came after the Elephants
    assert GameState(front=(S, E, E), **fields).claimable is E  # drew a Seal, an Elephant, claimed an Elephant


# --- 3. score sheets and game-over events -----------------------------------------------------------

# Values chosen here so that the test pins neither the old nor the new standard values (R2).
TIE_RULES = Ruleset.custom({E: 3, S: 3}, bonus_values={E: 3, S: 5})


def _tied_sheet() -> dict[str, Any]:
    # Seat 0 holds 3 Elephants (3 + tile 3 = 6), seat 1 one Seal (1 + tile 5 = 6): the Seal tile breaks the tie.
    sheet = score_counts([(3, 0, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0, 0)], TIE_RULES)
    assert sheet.totals == (6, 6)
    assert sheet.winners == (1,)
    return to_document(sheet)


def _set(document: dict[str, Any], path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    target: Any = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return document


SHEET_TAMPERING = [
    pytest.param(("winners",), [0], id="tie-broken-for-the-lower-tile"),
    pytest.param(("winners",), [0, 1], id="tie-break-with-two-winners"),
    pytest.param(("seats", 1, "best_tile"), 4, id="best-tile-not-the-tile-held"),
    pytest.param(("decided_by",), "shared", id="shared-though-a-tile-breaks-it"),
    pytest.param(("tile_holders", "seal"), None, id="a-majority-without-its-tile"),
]


@pytest.mark.parametrize(("path", "value"), SHEET_TAMPERING)
def test_a_score_sheet_that_scoring_its_counts_would_not_give_is_refused(
    path: tuple[str | int, ...], value: object
) -> None:
    """A sheet that contradicts R16-R18 is refused, alone and inside a game-over event."""
    assert load_score(_text(_tied_sheet())) is not None
    with pytest.raises(DocumentError):
        load_score(_text(_set(_tied_sheet(), path, value)))
    event = to_document(GameOver(load_score(_text(_tied_sheet()))))
    load_event(_text(event))
    event["sheet"] = _set(event["sheet"], path, value)
    with pytest.raises(DocumentError) as caught:
        load_event(_text(event))
    assert caught.value.path.startswith("$.sheet")


def test_a_sheet_under_the_younger_rules_loads_without_tiles() -> None:
    """A sheet without tiles (R19) is what scoring its counts gives under rules without tiles."""
    sheet = score_counts([(3, 0, 0, 0, 0, 0, 0, 0), (0, 3, 0, 0, 0, 0, 0, 0)], Ruleset.younger())
    assert load_score(dumps(sheet)) == sheet


# --- 4. views ------------------------------------------------------------------------------------


def _deciding_view() -> dict[str, Any]:
    # Seat 0 stacked a Seal; seat 1 drew a Monkey and may claim nothing, swap with seat 0, draw or stop.
    state = apply_all(new_game(3), [Reveal(S), Stop(), Reveal(M)])
    return to_document(view(state, 1))


VIEW_TAMPERING = [
    pytest.param(("legal", 0), {"type": "reveal", "animal": "lion"}, id="legal-lists-a-reveal"),
    pytest.param(("legal", 1), {"type": "claim", "seat": 15}, id="legal-lists-a-claim-of-seat-15"),
    pytest.param(("claimable",), "elephant", id="claimable-not-in-front"),
    pytest.param(("swap_open",), False, id="swap-closed-but-offered"),
    pytest.param(("stack_tops", 0), "monkey", id="top-changed-under-the-offers"),
]


@pytest.mark.parametrize(("path", "value"), VIEW_TAMPERING)
def test_a_view_whose_parts_disagree_is_refused(path: tuple[str | int, ...], value: object) -> None:
    """The legal actions, the claimable animal, the swap and the tops must agree."""
    assert load_view(_text(_deciding_view())) is not None
    with pytest.raises(DocumentError):
        load_view(_text(_set(_deciding_view(), path, value)))


def test_a_finished_view_with_tokens_in_the_bag_is_refused() -> None:
    """Phase over with 51 tokens in the bag is no view of any game."""
    document = to_document(view(new_game(2), None))
    document["phase"] = "over"
    document["bag_size"] = 51
    document["stack_heights"] = [1, 0]
    document["stack_tops"] = ["seal", None]
    with pytest.raises(DocumentError):
        load_view(_text(document))


def test_a_view_with_a_swap_open_and_no_monkey_is_refused() -> None:
    """A swap is open only with the monkey just drawn in front (R11)."""
    state = apply(new_game(2), Reveal(S))
    document = to_document(view(state, 0))
    document["swap_open"] = True
    with pytest.raises(DocumentError):
        load_view(_text(document))


def test_a_view_whose_top_shows_an_animal_not_in_play_is_refused() -> None:
    """Under the little-children rules no Lion is in play, so no stack can show one."""
    state = apply_all(new_game(2, ruleset=Ruleset.little_children()), [Reveal(S), Stop()])
    document = to_document(view(state, None))
    document["stack_tops"][0] = "lion"
    with pytest.raises(DocumentError):
        load_view(_text(document))


# --- 5. bounded messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda big: {"format": FORMAT, "kind": "action", "type": "draw", big: 1}, id="unknown-key"),
        pytest.param(lambda big: {"format": big, "kind": "action", "type": "draw"}, id="format"),
        pytest.param(lambda big: {"format": FORMAT, "kind": big, "type": "draw"}, id="kind"),
        pytest.param(lambda big: {"format": FORMAT, "kind": "action", "type": big}, id="type"),
        pytest.param(lambda big: {"format": FORMAT, "kind": "action", "type": "claim", "seat": big}, id="seat"),
        pytest.param(lambda big: {**to_document(Ruleset.standard()), "name": 1, big: 2}, id="ruleset-key"),
        pytest.param(
            lambda big: {**to_document(new_game(2)), "bag": {**to_document(new_game(2))["bag"], big: 1}},
            id="animal-key",
        ),
    ],
)
def test_an_error_message_quotes_only_a_short_prefix_of_a_huge_value(make: Any) -> None:
    """A 5-million-character key or value comes back in a message of a bounded size."""
    big = "x" * 5_000_000
    with pytest.raises(DocumentError) as caught:
        loads(json.dumps(make(big)))
    assert len(str(caught.value)) < MAX_MESSAGE
    assert all(len(reason) < MAX_MESSAGE and len(path) < MAX_MESSAGE for path, reason in caught.value.problems)


def test_a_duplicate_huge_key_is_reported_briefly() -> None:
    """The duplicate-key message quotes a prefix too."""
    big = "k" * 1_000_000
    with pytest.raises(DocumentError) as caught:
        loads('{"' + big + '": 1, "' + big + '": 2}')
    assert len(str(caught.value)) < MAX_MESSAGE


def test_a_document_with_hundreds_of_problems_gets_a_short_message() -> None:
    """A record with 400 bad actions lists three, counts the rest."""
    record = to_document(play_game([RandomBot(), RandomBot()], seed=3).record)
    record["actions"] = [{"type": None}] * 400
    with pytest.raises(DocumentError) as caught:
        loads(json.dumps(record))
    assert len(str(caught.value)) < MAX_MESSAGE
    assert "and 397 more problems" in str(caught.value)
    assert len(caught.value.problems) == 20


# --- 6. limits -------------------------------------------------------------------------------------


def test_a_document_over_the_size_limit_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text longer than the limit is refused at once; the caller can raise the limit."""
    text = dump_state(new_game(2))
    with pytest.raises(DocumentError, match="limit"):
        load_state(text, limits=Limits(max_bytes=len(text) - 1))
    assert load_state(text, limits=Limits(max_bytes=len(text))) == new_game(2)
    huge = " " * (Limits().max_bytes + 1)
    huge_bytes = huge.encode()
    # The work done on a huge text, measured: no scan of its nesting, no JSON parse, no copy of it.
    calls = count_calls(monkeypatch, json, "loads")
    scans = count_calls(monkeypatch, _parsing, "text_depth")
    tracemalloc.start()
    try:
        with pytest.raises(DocumentError, match="limit"):
            load_state(huge)
        with pytest.raises(DocumentError, match="limit"):
            load_state(huge_bytes)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (calls.count, scans.count) == (0, 0)
    assert peak < len(huge) // 100  # a copy or an encoding of the 16 MB text would be 16 MB


def test_a_record_over_the_action_limit_is_refused_before_replaying(monkeypatch: pytest.MonkeyPatch) -> None:
    """The record length is checked before the record is built or replayed."""
    record = play_game([RandomBot(), RandomBot()], seed=3).record
    text = dump_record(record)
    assert load_record(text) == record
    with pytest.raises(DocumentError, match="limit") as caught:
        load_record(text, limits=Limits(max_actions=len(record.actions) - 1))
    assert caught.value.path == "$.actions"
    assert load_record(text, limits=Limits(max_actions=len(record.actions))) == record
    # A long record of junk is refused by its length, without structuring or replaying a single action.
    junk = json.dumps({**to_document(record), "actions": [{"type": "draw"}] * (Limits().max_actions + 1)})
    structured = count_calls(monkeypatch, DocumentCodec, "structure")
    replayed = count_calls(monkeypatch, GameRecord, "states")
    with pytest.raises(DocumentError, match="limit"):
        load_record(junk)
    assert (structured.count, replayed.count) == (0, 0)
    assert load_record(text) == record  # the same counters see the work a record within the limit takes
    assert (structured.count, replayed.count) == (1, 1)


@pytest.mark.parametrize("depth", [40, 5_000, 200_000])
def test_a_document_nested_too_deep_is_refused(depth: int) -> None:
    """Nesting beyond the limit is refused (in text and in parsed documents), whatever the depth."""
    text = '{"format": "cheekymonkey/1", "kind": "state", "front": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(DocumentError, match="nest"):
        loads(text)
    nested: list[Any] = []
    for _ in range(min(depth, 5_000)):
        nested = [nested]
    with pytest.raises(DocumentError, match="nest"):
        from_document({"format": FORMAT, "kind": "state", "front": nested})


def test_the_default_limits_admit_every_document_a_real_game_writes() -> None:
    """The limits are far above what play produces (a 5-player game's record, with indent)."""
    game = play_game([RandomBot()] * 5, seed=1)
    assert load_record(dump_record(game.record, indent=2)) == game.record
    limits = Limits()
    assert len(dump_record(game.record, indent=2)) * 100 < limits.max_bytes
    assert len(game.record.actions) * 100 < limits.max_actions


# --- 7. minor findings ------------------------------------------------------------------------------


def test_a_format_with_a_leading_zero_is_refused_as_the_schema_refuses_it() -> None:
    """Cheekymonkey/01 is not cheekymonkey/1."""
    document = to_document(Draw())
    document["format"] = "cheekymonkey/01"
    assert not jsonschema.Draft202012Validator(load_schema("action")).is_valid(document)
    with pytest.raises(DocumentError) as caught:
        from_document(document)
    assert caught.value.path == "$.format"


def test_a_byte_order_mark_is_treated_alike_in_text_and_in_bytes() -> None:
    """Text and its UTF-8 bytes load alike; a byte-order mark is refused in both."""
    text = dump_state(new_game(2))
    assert load_state(text.encode()) == load_state(text)
    with pytest.raises(DocumentError, match="byte-order mark"):
        load_state("\ufeff" + text)
    with pytest.raises(DocumentError, match="byte-order mark"):
        load_state(b"\xef\xbb\xbf" + text.encode())
    with pytest.raises(DocumentError, match="UTF-8"):
        load_state(text.encode("utf-16"))


def test_a_lone_surrogate_in_a_name_is_refused() -> None:
    """A rule-set name that cannot be written as UTF-8 does not load."""
    document = to_document(Ruleset.standard())
    text = json.dumps(document).replace('"standard"', '"bad \\ud800 name"')
    with pytest.raises(DocumentError, match="surrogate"):
        load_ruleset(text)
    document["name"] = "bad \ud800 name"
    with pytest.raises(DocumentError, match="surrogate"):
        from_document(document)


def test_stop_in_order_with_no_order_is_an_illegal_action() -> None:
    """Stop_in_order(state, None) raises IllegalActionError naming R9, not TypeError."""
    state = apply(new_game(2), Reveal(S))
    with pytest.raises(IllegalActionError, match="R9") as caught:
        stop_in_order(state, None)  # type: ignore[arg-type]
    assert caught.value.state is state
    assert caught.value.action is None


@pytest.mark.parametrize(
    ("call", "rule"),
    [
        # Wrong types on purpose (mypy refuses them): E9 at run time.
        pytest.param(lambda: apply(new_game(2), "draw"), "E9: ", id="apply-non-action"),  # type: ignore[arg-type]
        pytest.param(lambda: apply("state", Draw()), "E9: ", id="apply-non-state"),  # type: ignore[arg-type]
        pytest.param(lambda: stop_in_order("x", []), "E9: ", id="stop-non-state"),  # type: ignore[arg-type]
    ],
)
def test_the_reason_for_a_non_action_or_non_state_starts_with_its_rule(call: Any, rule: str) -> None:
    """Like every other reason, these start with the clause they apply (E9)."""
    with pytest.raises(IllegalActionError) as caught:
        call()
    assert caught.value.reason.startswith(rule)


# --- 12. a client can send back what it is offered ---------------------------------------------------


def test_every_action_a_view_offers_loads_as_sent() -> None:
    """Each item of a view's legal list, posted back as it is, loads as that action."""
    validator = jsonschema.Draft202012Validator(load_schema("action"))
    offered = 0
    for seed in range(3):
        for state in play_game([RandomBot(), RandomBot(), RandomBot()], seed=seed).record.states():
            document = to_document(view(state, state.seat))
            for item, action in zip(document["legal"], view(state, state.seat).legal, strict=True):
                assert load_action(json.dumps(item)) == action
                assert loads(json.dumps(item), "action") == action
                validator.validate(item)
                offered += 1
    assert offered > 500


def test_an_action_with_its_header_still_loads_and_a_wrong_header_is_refused() -> None:
    """The header is optional for actions, but if given it must be right."""
    assert load_action(dumps(Claim(2))) == Claim(2)
    with pytest.raises(DocumentError):
        load_action(json.dumps({"format": FORMAT, "kind": "state", "type": "draw"}))
    with pytest.raises(DocumentError):
        load_action(json.dumps({"format": "cheekymonkey/2", "type": "draw"}))
    with pytest.raises(DocumentError):
        load_action(json.dumps({"kind": "action", "type": "draw"}))  # a kind needs its format


def test_every_view_play_gives_passes_the_checking_constructor() -> None:
    """View() builds without the checks, so each view of a played game is rebuilt through them."""
    checked = 0
    for seed in range(3):
        for state in play_game([RandomBot(), RandomBot(), RandomBot()], seed=seed).record.states():
            for seat in (None, *range(state.players)):
                table = view(state, seat)
                assert TableView(**attrs.asdict(table, recurse=False)) == table
                checked += 1
    assert checked > 1000


def _python_calls(call: Any) -> int:
    """How many of the library's Python functions ``call`` enters (a profile hook counts them; C code is free).

    The garbage collector is paused meanwhile: its callbacks (hypothesis keeps one) are not the loader's work.
    """
    entered = 0

    def count(frame: Any, event: str, arg: object) -> None:
        nonlocal entered
        if event == "call" and "cheekymonkey" in frame.f_code.co_filename:
            entered += 1

    gc.disable()
    sys.setprofile(count)
    try:
        call()
    except DocumentError:
        pass
    finally:
        sys.setprofile(None)
        gc.enable()
    return entered


def _stacks(count: int) -> str:
    return json.dumps({**to_document(new_game(2)), "stacks": [[]] * count})


def test_a_state_of_a_million_stacks_is_walked_once_and_refused_by_its_length_before_any_stack_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R3: 2 to 16 stacks, counted before any is read, and the depth walked once, on the text.

    A state of 10**6 stacks costs no more work in Python than one of seventeen.
    """
    huge = _stacks(10**6)
    _python_calls(lambda: loads(_stacks(17)))  # once first, for what a first call caches
    seventeen = _python_calls(lambda: loads(_stacks(17)))
    text_walks = count_calls(monkeypatch, _parsing, "text_depth")
    value_walks = count_calls(monkeypatch, codec, "value_depth")
    refused: list[DocumentError] = []

    def load() -> None:
        with pytest.raises(DocumentError) as caught:
            loads(huge)
        refused.append(caught.value)

    # Within a few calls of seventeen stacks' (the message's numbers differ); a read per stack would be millions.
    assert _python_calls(load) < seventeen + 20
    assert (refused[0].path, refused[0].reason) == ("$.stacks", "1000000 items, where 2 to 16 belong")
    assert (text_walks.count, value_walks.count) == (1, 0)
    loads(dumps(new_game(2)))  # a document that is read whole: its depth too is walked once, on the text
    assert (text_walks.count, value_walks.count) == (2, 0)
    # Parsed: the stacks are counted before the value's depth is walked.
    with pytest.raises(DocumentError, match="1000000 items, where 2 to 16 belong"):
        from_document({**to_document(new_game(2)), "stacks": [[]] * 10**6})
    assert (text_walks.count, value_walks.count) == (2, 0)
    from_document(to_document(new_game(2)))
    assert value_walks.count == 1


@pytest.mark.parametrize("shape", HOSTILE_SHAPES)
def test_a_text_built_to_make_a_scan_quadratic_is_refused_by_every_loader_in_one_linear_pass(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Strings never closed, escapes repeated, brackets opened: each loader refuses the text, typed and briefly.

    The scan before the parse is counted (characters examined): at most three per character of the text.
    """
    text = HOSTILE_SHAPES[shape](64_000)
    works: list[int] = []
    scan = _parsing._scan

    def counted(scanned: str) -> tuple[int, int]:
        found = scan(scanned)
        works.append(found[1])
        return found

    monkeypatch.setattr(_parsing, "_scan", counted)
    loaders = (loads, load_state, load_action, load_ruleset, load_event, load_view, load_score, load_record)
    for loader in loaders:
        with pytest.raises(DocumentError) as caught:
            loader(text)
        assert len(str(caught.value)) < MAX_MESSAGE
    assert len(works) == len(loaders)
    assert max(works) <= 3 * len(text)
