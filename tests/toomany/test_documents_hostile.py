"""Hostile Too Many Monkeys documents: tampered states, records, views, events and outcomes, huge numbers, limits.

Each is refused with :class:`~cheekymonkey.serialization.DocumentError`, whose path says where the problem is
and whose reason says what it is (the clause broken, for a value play could not reach); never another
exception, never a long message, and never a value loaded that play could not give.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import tracemalloc
from collections.abc import Callable
from typing import Any, Final

import pytest

from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.serialization import DocumentError, Limits, _parsing, codec
from cheekymonkey.serialization.codec import DocumentCodec
from cheekymonkey.toomany import (
    Action,
    Card,
    GameRecord,
    GiveSkip,
    Phase,
    Reveal,
    apply_all,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    sample_chance,
    view,
)
from cheekymonkey.toomany import documents as tmm
from tests.document_testing import DROP, MAX_MESSAGE, changed, count_calls
from tests.test_loaders_linear import HOSTILE_SHAPES
from tests.toomany.documents_support import SMALL, VALIDATORS, play
from tests.toomany.helpers import TINY, make


def _refused(document: object, kind: tmm.Kind | None = None) -> DocumentError:
    """The DocumentError loading ``document``'s text raises (as text, the way a client sends it)."""
    text = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(DocumentError) as caught:
        tmm.loads(text, kind)
    error = caught.value
    assert isinstance(error, CheekyMonkeyError)
    assert isinstance(error, ValueError)
    assert len(str(error)) < MAX_MESSAGE
    assert error.path in str(error)
    return error


# --- the documents tampered with ------------------------------------------------------------------------

# Seat 1 to move, at the start of a turn (the 5 on the discard pile can be taken); seat 0 has a 1, a 3
# turned down by a Do Not Disturb and a wild; seat 2 has a Skip waiting.
STATE: Final = tmm.to_document(make(["1 ? (3) W ? ?", "? 2 ? ? ? ?", "? ? ? 4 ? ?"], seat=1, discard="G 5", skips=[2]))
# After a reshuffle in the tiny game: the draw pile holds a 1 and two giraffes, everybody knows.
RESHUFFLED: Final = tmm.to_document(make(["? (2)", "W ?"], discard="3 1", pile="1 G G", ruleset=TINY))
# Seat 0 gives a Skip: seat 1 may take it, seat 2 has one waiting already.
SKIPPING: Final = tmm.to_document(
    view(make(["? 2 ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], phase=Phase.SKIP, hand=Card.SKIP, skips=[2]), 0)
)

_EMPTIED = {"one": 0, "two": 0, "three": 0, "four": 0, "five": 0, "six": 0}
_EMPTIED |= {"wild": 0, "skip": 0, "elephant": 0, "giraffe": 0, "raccoon": 0, "do_not_disturb": 0}

TAMPERED_STATES = [
    # (what, the edits, the path, words the reason holds)
    ("a card in two places", [(("discard", 0), "one")], "$", "7 1 card(s) are in the game"),
    ("a card gone", [(("unseen", "six"), 5)], "$", "5 6 card(s) are in the game"),
    ("a face-up 3 at position 2", [(("rows", 1, 1), "three")], "$", "only a wild or the number 2 can lie there"),
    ("a face-down 3 at position 4", [(("rows", 0, 3), {"card": "three"})], "$", "only a wild or the number 4"),
    ("a Skip turned face down", [(("rows", 0, 2), {"card": "skip"})], "$.rows[0][2]", "only a number or a wild"),
    ("a Skip on the seat to move", [(("skips", 1), True), (("unseen", "skip"), 2)], "$", "(TM16)"),
    ("a Skip counted twice", [(("skips", 0), True)], "$", "5 Skip card(s) are in the game"),
    ("two Skips on one seat", [(("skips", 2), 2)], "$.skips[2]", "expected true or false"),
    ("seven rows of cards", [(("rows", 0), [None] * 7)], "$.rows", "item 0: 7 items, where 1 to 6 belong"),
    ("a round not yet reached", [(("round",), 2)], "$", "this is round 1 (TM22)"),
    ("a choice of pile with a giraffe on top", [(("discard",), ["five", "giraffe"])], "$", "(TM6, TM18)"),
    ("the bonus with nothing in hand", [(("phase",), "bonus")], "$", "the bonus needs a number in hand"),
    ("the game over with no row complete",
     [(("phase",), "over"), (("discard",), ["five"]), (("unseen", "giraffe"), 3)], "$", "nobody else (TM23)"),
    ("the rule set's deck changed", [(("ruleset", "counts", "one"), 5)], "$", "but the deck has 5 (TM1)"),
    ("a deck that completes no row", [(("ruleset", "counts", "wild"), 0), (("ruleset", "counts", "six"), 0)],
     "$.ruleset", "no row of 6 can be completed"),
]  # fmt: skip

TAMPERED_PILES = [
    ("a wild reshuffled", [(("pile", "wild"), 1), (("pile", "giraffe"), 1), (("unseen", "giraffe"), 2)], "$",
     "a wild is in the reshuffled draw pile"),
    ("a pile of 3 cards said to hold 5", [(("pile_size",), 5)], "$", "the draw pile holds 3 cards, but pile_size is 5"),
    ("a pile counted as unseen too", [(("unseen", "one"), 1)], "$", "3 1 card(s) are in the game"),
    ("a pile that is a list", [(("pile",), ["one", "giraffe", "giraffe"])], "$.pile", "expected an object"),
    ("a draw from an empty pile", [(("pile",), _EMPTIED), (("pile_size",), 0), (("phase",), "draw"),
     (("discard",), ["three", "one", "one", "giraffe", "giraffe"])], "$", "the draw pile is empty"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("base", "edits", "path", "words"),
    [(STATE, *case[1:]) for case in TAMPERED_STATES] + [(RESHUFFLED, *case[1:]) for case in TAMPERED_PILES],
    ids=[case[0] for case in TAMPERED_STATES + TAMPERED_PILES],
)
def test_a_tampered_state_is_refused_naming_what_play_could_not_give(
    base: dict[str, Any], edits: list[tuple[tuple[str | int, ...], object]], path: str, words: str
) -> None:
    """A state play cannot reach is refused by the validating constructor, which names the broken rule."""
    assert tmm.loads(json.dumps(base), "state") is not None
    error = _refused(changed(base, *edits), "state")
    assert (error.kind, error.path) == ("state", path)
    assert words in error.reason


TAMPERED_VIEWS = [
    ("a Skip offered to a seat with one waiting",
     [(("legal",), [{"type": "give_skip", "seat": 1}, {"type": "give_skip", "seat": 2}, {"type": "decline"}])],
     "$", "are not the viewer's legal actions"),
    ("a draw offered while giving a Skip", [(("legal", 0), {"type": "draw"})], "$", "not the viewer's legal actions"),
    ("moves shown to a spectator", [(("viewer",), None)], "$", "not the viewer's legal actions"),
    ("an outcome before the end",
     [(("outcome",), {"winners": [0], "ranks": [1, 2, 2], "returns": [1.0, 0.0, 0.0], "scores": None})],
     "$", "is not the game's, None"),
    ("a fourth seat's view", [(("viewer",), 3)], "$", "viewer 3 is not one of the 3 seats"),
    ("the Skip in hand gone", [(("hand",), None)], "$", "cards are counted as never seen"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("edits", "path", "words"), [case[1:] for case in TAMPERED_VIEWS], ids=[case[0] for case in TAMPERED_VIEWS]
)
def test_a_tampered_view_is_refused_by_its_checks(
    edits: list[tuple[tuple[str | int, ...], object]], path: str, words: str
) -> None:
    """A view must show a reachable state, offer exactly the viewer's legal actions, and the outcome only at the end."""
    assert tmm.loads(json.dumps(SKIPPING), "view").legal == (
        GiveSkip(1),
        tmm.from_document({"type": "decline"}, "action"),
    )
    error = _refused(changed(SKIPPING, *edits), "view")
    assert (error.kind, error.path) == ("view", path)
    assert words in error.reason


def _event(kind: str, **fields: object) -> dict[str, Any]:
    return {"format": tmm.FORMAT, "kind": "event", "type": kind, **fields}


TAMPERED_EVENTS = [
    ("a 3 turned up at position 2", _event("turned_up", seat=0, card="three", position=2), "$.position", "TM7"),
    ("a giraffe taken from the discard pile", _event("took_discard", seat=0, card="giraffe"), "$.card", "TM6"),
    ("a bonus with a Skip", _event("bonus_taken", seat=1, card="skip"), "$.card", "TM12"),
    ("a raccoon taking a wild", _event("raccoon_took", seat=0, card="wild"), "$.card", "TM14"),
    ("a card turned down by its owner", _event("turned_down", seat=1, target=1, position=2, card="two"), "$.target",
     "not on oneself"),
    ("a 2 turned down at position 5", _event("turned_down", seat=0, target=1, position=5, card="two"), "$.card",
     "TM15"),
    ("a Skip given to oneself", _event("skip_given", seat=2, target=2), "$.target", "not on oneself"),
    ("a wild discarded", _event("discarded", seat=0, card="wild", reason="declined"), "$.card", "TM11"),
    ("a giraffe too high", _event("discarded", seat=0, card="giraffe", reason="too_high"), "$.reason", "TM9"),
    ("a 4 ending the turn", _event("discarded", seat=0, card="four", reason="ends_turn"), "$.reason", "TM13"),
    ("a raccoon with no target", _event("discarded", seat=0, card="raccoon", reason="no_target"), "$.reason", "TM15"),
    ("a reason unknown", _event("discarded", seat=0, card="four", reason="bored"), "$.reason", "expected a reason"),
    ("a round begun by a fourth seat", _event("round_started", round=2, first_seat=3, row_sizes=[5, 6, 6]),
     "$.first_seat", "seat 3 is not one of the 3 seats"),
    ("a row of 7 dealt", _event("round_started", round=2, first_seat=1, row_sizes=[7, 6]), "$.row_sizes", "above 6"),
    ("round 1 begun again", _event("round_started", round=1, first_seat=1, row_sizes=[5, 6]), "$.round",
     "expected an integer of 2 or more"),
    ("a reshuffle of nothing", _event("reshuffled", cards=0), "$.cards", "expected an integer of 1 or more"),
    ("a seventh seat", _event("drew", seat=6, card="one"), "$.seat", "above 5"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("document", "path", "words"), [case[1:] for case in TAMPERED_EVENTS], ids=[case[0] for case in TAMPERED_EVENTS]
)
def test_an_event_that_contradicts_itself_is_refused(document: dict[str, Any], path: str, words: str) -> None:
    """An event stands alone, so what it says of itself must hold: the card, the position, the reason, the seats."""
    error = _refused(document, "event")
    assert (error.kind, error.path) == ("event", path)
    assert words in error.reason


def _outcome(**fields: object) -> dict[str, Any]:
    base: dict[str, Any] = {"winners": [1], "ranks": [2, 1, 2], "returns": [0.0, 1.0, 0.0], "scores": None}
    return {"format": tmm.FORMAT, "kind": "outcome", **base, **fields}


TAMPERED_OUTCOMES = [
    ("two winners", _outcome(winners=[0, 1], ranks=[1, 1, 3], returns=[0.5, 0.5, 0.0]), "$.winners", "where 1 belong"),
    ("the winner ranked second", _outcome(ranks=[1, 2, 3]), "$.ranks", "TM23"),
    ("a place skipped", _outcome(ranks=[3, 1, 3]), "$.ranks", "1, 2, 2, 4"),
    ("a shared return", _outcome(returns=[0.0, 0.5, 0.5]), "$.returns", "the winner's return is 1"),
    ("points", _outcome(scores=[0, 1, 0]), "$.scores", "counts no points"),
    ("seven seats", _outcome(ranks=[2, 1, 2, 2, 2, 2, 2], returns=[0.0, 1.0] + [0.0] * 5), "$.ranks", "2 to 6"),
    ("a return missing", _outcome(returns=[0.0, 1.0]), "$", "one rank and one return per seat"),
    ("an infinite return", '{"format": "too-many-monkeys/1", "kind": "outcome", "winners": [1], "ranks": [2, 1], '
     '"returns": [0.0, 1e999], "scores": null}', "$.returns[1]", "expected a finite number"),
    ("a return as text", _outcome(returns=["0", 1.0, 0.0]), "$.returns[0]", "expected a number"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("document", "path", "words"), [case[1:] for case in TAMPERED_OUTCOMES], ids=[case[0] for case in TAMPERED_OUTCOMES]
)
def test_an_outcome_no_game_could_end_with_is_refused(document: object, path: str, words: str) -> None:
    """One winner ranked first alone, the others in competition ranks, returns of 1 and 0, and no scores."""
    assert tmm.loads(json.dumps(_outcome()), "outcome").winners == (1,)
    error = _refused(document, "outcome")
    assert (error.kind, error.path) == ("outcome", path)
    assert words in error.reason


# --- records ---------------------------------------------------------------------------------------------

RECORD: Final = tmm.to_document(play(7, 3, SMALL).record)


def _second_skip_record() -> tuple[dict[str, Any], int, int]:
    """A record of a small game whose Skip, at some step, is given to a seat with one waiting already (TM17)."""
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game(3, ruleset=SMALL)
        actions: list[Action] = []
        while not is_terminal(state):
            if state.phase is Phase.SKIP and any(state.skips):
                waiting = state.skips.index(True)
                record = GameRecord(SMALL, 3, 0, (*actions, GiveSkip(waiting)))
                return tmm.to_document(record), len(actions), waiting
            action = sample_chance(state, rng) if is_chance_node(state) else rng.choice(legal_actions(state))
            actions.append(action)
            state = apply_all(state, [action])
    raise AssertionError("no small game gave a Skip while another waited")  # pragma: no cover


def test_a_record_giving_a_second_skip_to_one_seat_is_refused_at_that_step() -> None:
    """Two Skips on one seat: the record's step is refused, citing TM17, at its path in the record."""
    document, step, seat = _second_skip_record()
    error = _refused(document, "record")
    assert (error.kind, error.path) == ("record", f"$.actions[{step}]")
    rule = f"TM17: seat {seat} already has a Skip waiting"
    assert error.reason == f"step {step} does not replay: illegal action GiveSkip({seat}): {rule}"


TAMPERED_RECORDS = [
    ("a draw at a chance node", [(("actions", 0), {"type": "draw"})], "$.actions[0]",
     "step 0 does not replay: illegal action Draw(): TM6"),
    ("a card the deck lacks", [(("actions", 0), {"type": "reveal", "card": "six"})], "$.actions[0]",
     "step 0 does not replay"),
    ("an action unknown", [(("actions", 3), {"type": "jump"})], "$.actions[3]", "'jump' is not an action"),
    ("a wild placed at 0", [(("actions", 3), {"type": "place_wild", "position": 0})], "$.actions[3].position",
     "an integer of 1 or more"),
    ("seven players", [(("players",), 7), (("names",), []), (("bots",), [])], "$.players", "above 6"),
    ("five players for four seats at most", [(("players",), 5), (("names",), []), (("bots",), [])], "$",
     "the small rules allow 2 to 4 (TM2)"),
    ("a first player with no seat", [(("first_player",), 3)], "$", "first_player 3 is not one of seats 0 to 2"),
    ("a name too few", [(("names",), ["Ann", "Bob"])], "$", "2 names for 3 seats"),
    ("actions as text", [(("actions",), "draw")], "$.actions", "expected a list"),
    ("a seed as text", [(("seed",), "7")], "$.seed", "expected an integer or null"),
    ("a seed beyond 2**53 - 1", [(("seed",), 2**53)], "$.seed", "too large"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("edits", "path", "words"), [case[1:] for case in TAMPERED_RECORDS], ids=[case[0] for case in TAMPERED_RECORDS]
)
def test_a_tampered_record_is_refused_where_it_goes_wrong(
    edits: list[tuple[tuple[str | int, ...], object]], path: str, words: str
) -> None:
    """A record is replayed as it loads: the first step that does not replay is named, with the rule it breaks."""
    assert tmm.loads(json.dumps(RECORD), "record").players == 3
    error = _refused(changed(RECORD, *edits), "record")
    assert (error.kind, error.path) == ("record", path)
    assert words in error.reason


# --- the JSON itself, and the limits --------------------------------------------------------------------

_TEXT: Final = json.dumps(STATE)
_PILE: Final = f'"pile_size": {STATE["pile_size"]}'

MALFORMED: list[tuple[str, Callable[[], str], str, str]] = [
    ("empty text", lambda: "", "$", "not valid JSON"),
    ("truncated", lambda: _TEXT[:-9], "$", "not valid JSON: the text is cut short, stopping before"),
    ("a duplicate key", lambda: _TEXT[:-1] + ', "seat": 0}', "$", "the key 'seat' appears twice"),
    ("NaN", lambda: _TEXT.replace(_PILE, '"pile_size": NaN'), "$", "NaN is not a JSON number"),
    ("an integer of 5,000 digits", lambda: _TEXT.replace(_PILE, '"pile_size": ' + "9" * 5000), "$",
     "(5000 digits) is too large"),
    ("2**53", lambda: _TEXT.replace(_PILE, f'"pile_size": {2**53}'), "$.pile_size", "too large"),
    ("a float seat", lambda: _TEXT.replace('"seat": 1', '"seat": 1.0'), "$.seat", "expected an integer"),
    ("a bool seat", lambda: _TEXT.replace('"seat": 1', '"seat": true'), "$.seat", "expected an integer"),
    ("a round as text", lambda: _TEXT.replace('"round": 1', '"round": "1"'), "$.round", "expected an integer"),
    ("a card by its digit", lambda: _TEXT.replace('"discard": ["giraffe", "five"]', '"discard": ["G", "5"]'),
     "$.discard[0]", "expected a card (one, two, three"),
    ("a row as text", lambda: json.dumps(changed(STATE, (("rows", 2), "? ? ? 4 ? ?"))), "$.rows[2]",
     "expected a list"),
    ("a row position as a number", lambda: json.dumps(changed(STATE, (("rows", 2, 3), 4))), "$.rows[2][3]",
     "expected a card (one, two"),
    ("a lone surrogate", lambda: json.dumps(changed(STATE, (("ruleset", "name"), "bad \ud800"))), "$.ruleset.name",
     "lone surrogate"),
    ("an unknown field", lambda: json.dumps(changed(STATE, (("cheat",), 1))), "$", "unknown fields 'cheat'"),
    ("a missing field", lambda: json.dumps(changed(STATE, (("skips",), DROP))), "$.skips",
     "required field is missing"),
    ("a newer format", lambda: json.dumps(changed(STATE, (("format",), "too-many-monkeys/2"))), "$.format",
     "is newer than this library reads"),
    ("Cheeky Monkey's format", lambda: json.dumps(changed(STATE, (("format",), "cheekymonkey/1"))), "$.format",
     "is not 'too-many-monkeys/1'"),
    ("a leading zero", lambda: json.dumps(changed(STATE, (("format",), "too-many-monkeys/01"))), "$.format",
     "is not 'too-many-monkeys/1'"),
    ("a kind of the other game", lambda: json.dumps(changed(STATE, (("kind",), "score"))), "$.kind",
     "kind 'score' is not one of state, action, ruleset, event, view, outcome, record"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "path", "words"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED]
)
def test_malformed_json_and_wrong_types_are_refused_clearly(text: Callable[[], str], path: str, words: str) -> None:
    """Truncated text, repeated keys, huge numbers, wrong types and words, other formats: each named where it is."""
    error = _refused(text())
    assert error.path == path, error
    assert words in error.reason, error


def test_every_truncation_of_a_state_document_is_refused() -> None:
    """No prefix of a state document loads: each raises DocumentError, never a bare exception."""
    for cut in range(len(_TEXT)):
        with pytest.raises(DocumentError):
            tmm.loads(_TEXT[:cut], "state")


@pytest.mark.parametrize("depth", [40, 5_000, 200_000])
def test_a_document_nested_too_deep_is_refused_in_text_and_parsed(depth: int) -> None:
    """Nesting beyond the limit is refused before any value is read, whatever the depth.

    Only the header and the lengths of the lists at the top are checked first: they read nothing below them.
    """
    text = '{"format": "too-many-monkeys/1", "kind": "state", "discard": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(DocumentError, match="nests deeper than the limit of 32 levels"):
        tmm.loads(text)
    nested: list[Any] = []
    for _ in range(min(depth, 5_000)):
        nested = [nested]
    with pytest.raises(DocumentError, match="nests deeper"):
        tmm.from_document({"format": tmm.FORMAT, "kind": "state", "discard": nested})


@pytest.mark.parametrize(
    "make_document",
    [
        pytest.param(lambda big: {**STATE, big: 1}, id="unknown-key"),
        pytest.param(lambda big: {**STATE, "format": big}, id="format"),
        pytest.param(lambda big: {**STATE, "phase": big}, id="phase"),
        pytest.param(lambda big: {**STATE, "discard": [big]}, id="card"),
        pytest.param(lambda big: {**STATE, "unseen": {**STATE["unseen"], big: 1}}, id="card-key"),
        pytest.param(lambda big: {"format": tmm.FORMAT, "kind": "action", "type": big}, id="action-type"),
        pytest.param(lambda big: {**RECORD, "names": [big, "", "Cy"]}, id="names"),
    ],
)
def test_an_error_quotes_only_a_short_prefix_of_a_huge_value(make_document: Any) -> None:
    """A 5-million-character key or value comes back in a message of a bounded size."""
    error = _refused(make_document("x" * 5_000_000))
    assert all(len(reason) < MAX_MESSAGE and len(path) < MAX_MESSAGE for path, reason in error.problems)


def test_a_record_with_hundreds_of_bad_actions_gets_a_short_message() -> None:
    """A record of 400 bad actions lists three problems, counts the rest, and keeps twenty."""
    error = _refused(changed(RECORD, (("actions",), [{"type": None}] * 400)), "record")
    assert "and 397 more problems" in str(error)
    assert len(error.problems) == 20


def test_a_document_over_the_size_limit_is_refused_before_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text over max_bytes is refused without a scan, a parse or a copy of it; the caller can raise the limit."""
    with pytest.raises(DocumentError, match="over the limit of 100"):
        tmm.loads(_TEXT, limits=Limits(max_bytes=100))
    assert tmm.loads(_TEXT, limits=Limits(max_bytes=len(_TEXT))) == tmm.loads(_TEXT)
    huge = " " * (Limits().max_bytes + 1)
    huge_bytes = huge.encode()
    parses = count_calls(monkeypatch, json, "loads")
    scans = count_calls(monkeypatch, _parsing, "text_depth")
    tracemalloc.start()
    try:
        with pytest.raises(DocumentError, match="limit"):
            tmm.loads(huge)
        with pytest.raises(DocumentError, match="limit"):
            tmm.loads(huge_bytes)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (parses.count, scans.count) == (0, 0)
    assert peak < len(huge) // 100  # a copy or an encoding of the 16 MB text would be 16 MB


def test_a_record_over_the_action_limit_is_refused_before_it_is_read_or_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record's length is checked first: a long record of junk costs no structuring and no replay."""
    text = json.dumps(RECORD)
    actions = len(RECORD["actions"])
    with pytest.raises(DocumentError, match=f"{actions} actions, over the limit of {actions - 1}") as caught:
        tmm.loads(text, "record", limits=Limits(max_actions=actions - 1))
    assert caught.value.path == "$.actions"
    junk = json.dumps({**RECORD, "actions": [{"type": "draw"}] * (Limits().max_actions + 1)})
    structured = count_calls(monkeypatch, DocumentCodec, "structure")
    replayed = count_calls(monkeypatch, GameRecord, "states")
    with pytest.raises(DocumentError, match="limit"):
        tmm.loads(junk, "record")
    assert (structured.count, replayed.count) == (0, 0)
    assert tmm.loads(text, "record", limits=Limits(max_actions=actions)).players == 3
    assert (structured.count, replayed.count) == (1, 1)  # the same counters see a record within the limit


def test_the_default_limits_admit_the_longest_records_play_writes() -> None:
    """Six-seat games' records: several hundred actions and under 100 kB indented, as the reference says.

    That is far inside the limits (length, size and nesting).
    """
    longest = max((play(seed, 6) for seed in range(5)), key=lambda game: len(game.record.actions))
    text = tmm.dumps(longest.record, indent=2)
    assert tmm.loads(text, "record") == longest.record
    assert 300 < len(longest.record.actions) < 2_000
    assert len(text.encode()) < 100_000
    limits = Limits()
    assert len(longest.record.actions) * 50 < limits.max_actions
    assert len(text.encode()) * 100 < limits.max_bytes
    assert _parsing.value_depth(tmm.to_document(view(longest.states[-1], 0)), limits.max_depth) <= 5


def test_text_and_its_utf8_bytes_load_alike_and_a_byte_order_mark_is_refused() -> None:
    """Bytes are UTF-8 JSON: they load as the text does; a byte-order mark or another encoding is refused."""
    assert tmm.loads(_TEXT.encode(), "state") == tmm.loads(_TEXT, "state")
    with pytest.raises(DocumentError, match="byte-order mark"):
        tmm.loads("\ufeff" + _TEXT)
    with pytest.raises(DocumentError, match="UTF-8"):
        tmm.loads(_TEXT.encode("utf-16"))
    with pytest.raises(DocumentError, match="expected JSON text"):
        tmm.loads(None)  # type: ignore[call-overload]


def test_a_state_with_one_card_more_or_fewer_of_any_kind_is_refused() -> None:
    """One card of any kind added to or taken from the pool never seen: the deck no longer adds up (TM1)."""
    state = apply_all(new_game(2), [Reveal(Card.GIRAFFE), Reveal(Card.ELEPHANT), Reveal(Card.SIX)])
    document = tmm.to_document(state)
    assert tmm.from_document(document, "state") == state
    names = [card.name.lower() for card in Card]
    for card in names:
        for change in (1, -1):
            moved = changed(document, (("unseen", card), document["unseen"][card] + change))
            if moved["unseen"][card] < 0:
                continue
            with pytest.raises(DocumentError, match="TM1"):
                tmm.from_document(moved, "state")


def _python_calls(call: Callable[[], object]) -> int:
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


def _rows(count: int) -> str:
    return json.dumps({**STATE, "rows": [[None]] * count})


def test_a_state_of_a_million_rows_is_walked_once_and_refused_by_its_length_before_any_row_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TM2: 2 to 6 rows, counted before any is read, and the depth walked once, on the text.

    An 8 MB state of 10**6 rows costs no more work in Python than a state of seven rows.
    """
    huge = _rows(10**6)
    assert len(huge) > 8_000_000
    _python_calls(lambda: tmm.loads(_rows(7)))  # once first, for what a first call caches
    seven = _python_calls(lambda: tmm.loads(_rows(7)))
    text_walks = count_calls(monkeypatch, _parsing, "text_depth")
    value_walks = count_calls(monkeypatch, codec, "value_depth")
    refused: list[DocumentError] = []
    # Within a few calls of seven rows' (the message's numbers differ); a walk or a read per row would be millions.
    assert _python_calls(lambda: refused.append(_refused(huge, "state"))) < seven + 20
    assert (refused[0].path, refused[0].reason) == ("$.rows", "1000000 items, where 2 to 6 belong")
    assert (text_walks.count, value_walks.count) == (1, 0)
    tmm.loads(json.dumps(STATE))  # a document that is read whole: its depth too is walked once, on the text
    assert (text_walks.count, value_walks.count) == (2, 0)
    # A parsed document has no text to read its depth from, and its rows are counted before its value is walked.
    with pytest.raises(DocumentError, match="1000000 items, where 2 to 6 belong"):
        tmm.from_document({**STATE, "rows": [[None]] * 10**6}, "state")
    assert (text_walks.count, value_walks.count) == (2, 0)
    tmm.from_document(STATE, "state")
    assert value_walks.count == 1


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("rows", [[None] * 6], "1 items, where 2 to 6 belong"),
        ("rows", [[None] * 6, [None] * 7, [None] * 6], "item 1: 7 items, where 1 to 6 belong"),
        ("rows", [[None] * 6, []], "item 1: 0 items, where 1 to 6 belong"),
        ("skips", [False] * 7, "7 items, where 2 to 6 belong"),
    ],
)
def test_a_list_of_the_wrong_length_is_refused_by_its_count(field: str, value: object, reason: str) -> None:
    """TM2, TM3, TM24: the loader counts a list's items (and each row's) before it reads them; the schema agrees."""
    document = {**STATE, field: value}
    error = _refused(document, "state")
    assert (error.path, error.reason) == (f"$.{field}", reason)
    assert not VALIDATORS["state"].is_valid(document)


@pytest.mark.parametrize("shape", HOSTILE_SHAPES)
@pytest.mark.parametrize("kind", [None, *tmm.KINDS])
def test_a_text_built_to_make_a_scan_quadratic_is_refused_in_one_linear_pass(
    shape: str, kind: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Strings never closed, escapes repeated, brackets opened: refused, typed and briefly, for every kind.

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
    with pytest.raises(DocumentError) as caught:
        tmm.loads(text, kind)
    assert len(str(caught.value)) < MAX_MESSAGE
    assert len(works) == 1
    assert works[0] <= 3 * len(text)
