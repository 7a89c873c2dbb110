"""A fuzzer over Too Many Monkeys' documents of every kind, with hostile sizes, depths, numbers, strings and keys.

Each example starts from a valid document of some kind (or from nothing), changes it the way a hostile client
would, and loads the text. The loader must either refuse it with :class:`DocumentError` (and a short message),
or give back a value that is consistent: it dumps and loads back equal, the shipped schema accepts its
document, and it passes checks written here from the rules, apart from the library's own (every card in one
place, every face-up number at its position, at most one Skip per seat, one winner ranked first...).
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheekymonkey.outcome import Outcome
from cheekymonkey.serialization import MAX_INTEGER, DocumentError
from cheekymonkey.toomany import (
    CARDS,
    BonusTaken,
    Card,
    Discarded,
    GameRecord,
    GameState,
    RaccoonTook,
    Reason,
    RoundStarted,
    Ruleset,
    SkipGiven,
    TableView,
    TookDiscard,
    TurnedDown,
    TurnedUp,
    current_player,
    legal_actions,
    new_game,
)
from cheekymonkey.toomany import documents as tmm
from tests.document_testing import HUGE, Fuzzing, hostile_documents
from tests.test_free_text import HOSTILE as HOSTILE_TEXTS
from tests.toomany.documents_support import BEYOND_SCHEMA, VALIDATORS, samples
from tests.toomany.invariants import cards_held, check_state_invariants

SAMPLES: Final = samples()
BIG: Final = "x" * 3_000_000
_FIELD_NAMES: Final = sorted(
    {key for document in SAMPLES for key in document}
    | {card.name.lower() for card in CARDS}
    | {"type", "format", "kind", "seat", "card", "position", "target", "counts", "unseen", "pile"}
)

# Hostile leaves: numbers at and past every boundary, odd floats, long and broken strings, names of real fields.
_NUMBERS: st.SearchStrategy[object] = st.sampled_from(
    [0, 1, -1, 2, 5, 6, 7, 12, 55, MAX_INTEGER, MAX_INTEGER + 1, -MAX_INTEGER - 1, 10**20, 2**64, HUGE]
) | st.integers(min_value=-(2**70), max_value=2**70)
_FLOATS: Final = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1.0, 0.0, 0.5, 1e308, -0.0])
_STRINGS: Final = (
    st.text(max_size=12)
    | st.sampled_from([*_FIELD_NAMES, "\ud800", "\ufeff", "x" * 10_000, BIG, "too-many-monkeys/01", "cheekymonkey/1"])
    | st.sampled_from([f"too-many-monkeys/{v}" for v in ("1", "2", "0", "-1", "1.0", "9" * 5000)])
    | st.sampled_from(list(HOSTILE_TEXTS.values()))
)
_LEAVES: Final = st.none() | st.booleans() | _NUMBERS | _FLOATS | _STRINGS
_KEYS: Final = st.sampled_from(_FIELD_NAMES) | st.text(max_size=8) | st.sampled_from([BIG, "\ud800", ""])
_JSON: Final = st.recursive(
    _LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=8,
)


def _check_event(value: Any) -> None:
    """What the rules say an event of each kind can be, written out again here."""
    numbers = set(CARDS[:6])
    if isinstance(value, TurnedUp):
        assert value.card in numbers  # TM7
        assert int(value.card) == value.position
    elif isinstance(value, TookDiscard | BonusTaken):
        assert value.card in numbers  # TM6, TM12
    elif isinstance(value, RaccoonTook):
        assert value.card is None or value.card in numbers  # TM14
    elif isinstance(value, TurnedDown):
        assert value.seat != value.target  # TM15
        assert value.card is Card.WILD or (value.card in numbers and int(value.card) == value.position)
    elif isinstance(value, SkipGiven):
        assert value.seat != value.target  # TM16
    elif isinstance(value, Discarded):
        allowed = {
            Reason.DUPLICATE: numbers,
            Reason.TOO_HIGH: numbers,
            Reason.ENDS_TURN: {Card.GIRAFFE, Card.ELEPHANT},
            Reason.PLAYED: {Card.RACCOON, Card.DO_NOT_DISTURB},
            Reason.DECLINED: numbers | {Card.DO_NOT_DISTURB, Card.SKIP},
            Reason.NO_TARGET: {Card.DO_NOT_DISTURB, Card.SKIP},
        }
        assert value.card in allowed[value.reason]  # TM9, TM11-TM16
    elif isinstance(value, RoundStarted):
        assert 2 <= len(value.row_sizes) <= 6
        assert all(1 <= size <= 6 for size in value.row_sizes)
        assert 0 <= value.first_seat < len(value.row_sizes)
        assert value.round >= 2


def _check_consistent(value: tmm.Document) -> None:
    """What the rules say of each kind, checked apart from the loader's own checks."""
    if isinstance(value, GameState):
        check_state_invariants(value)
    elif isinstance(value, TableView):
        state = value.state()
        check_state_invariants(state)
        deciding = value.viewer is not None and current_player(state) == value.viewer
        assert value.legal == (legal_actions(state) if deciding else ())
        assert (value.outcome is not None) == (state.phase.name == "OVER")
    elif isinstance(value, GameRecord):
        states = value.states()
        for state in states:
            assert cards_held(state) == list(value.ruleset.counts)  # TM1, at every step
        check_state_invariants(states[-1])
    elif isinstance(value, Outcome):
        (winner,) = value.winners  # TM23: one winner
        assert value.ranks[winner] == 1
        assert sorted(value.ranks)[1] > 1
        assert sum(value.returns) == 1.0
        assert value.returns[winner] == 1.0
    elif isinstance(value, Ruleset):
        assert value.row_size <= 6
        assert 2 <= value.min_players <= value.max_players <= 6
        assert legal_actions(new_game(value.min_players, ruleset=value))  # a game of it can begin
    else:
        _check_event(value)


FUZZING = Fuzzing(tmm, VALIDATORS, _check_consistent, BEYOND_SCHEMA)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(hostile_documents(SAMPLES, _JSON, _KEYS))
def test_a_hostile_document_loads_to_a_consistent_value_or_raises_a_short_document_error(text: str) -> None:
    """No exception but DocumentError, no long message, and nothing inconsistent loads."""
    FUZZING.check(text)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(SAMPLES), st.sampled_from(["format", "kind"]), _STRINGS | _NUMBERS)
def test_a_document_with_a_hostile_header_is_refused_unless_the_header_is_right(
    document: dict[str, Any], field: str, value: object
) -> None:
    """The header's format and kind take only their own values; the schema refuses the same."""
    FUZZING.check_header(document, field, value)


def test_the_fuzzer_s_samples_cover_every_kind_and_every_sample_is_consistent() -> None:
    """The samples hold every kind, each loads, meets its schema and passes the checks the fuzzer applies."""
    assert {document["kind"] for document in SAMPLES} == set(tmm.KINDS)
    for document in SAMPLES:
        value = FUZZING.load(json.dumps(document))
        assert not isinstance(value, DocumentError), value
        VALIDATORS[document["kind"]].validate(document)
        _check_consistent(value)
