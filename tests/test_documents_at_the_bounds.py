"""Rule sets at their bounds make games that can be saved: every state, view and score round-trips (E7, TME4).

A rule set's counts (and Cheeky Monkey's bonus values) are at most ``MAX_COUNT`` (``2**48``), so that every
number a game under it can make, sizes and scores included, stays within ``2**53 - 1``, the largest integer a
JSON document holds. Here random valid rule sets near that bound are played from their start for some random
steps, and every state reached, with its views, is written and read back; the loader, the rule set and the
schema all refuse a count one above the bound.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cheekymonkey
import cheekymonkey.cheeky.rules
import cheekymonkey.toomany as toomany
import cheekymonkey.toomany.documents as tm_documents
import cheekymonkey.toomany.rules
from cheekymonkey import ANIMALS, InvalidRulesetError
from cheekymonkey.cheeky import documents as cm_documents
from cheekymonkey.games import game_named
from cheekymonkey.schema import load_schema
from cheekymonkey.serialization import MAX_INTEGER, DocumentError

CM_MAX: Final = cheekymonkey.cheeky.rules.MAX_COUNT
TM_MAX: Final = cheekymonkey.toomany.rules.MAX_COUNT
NEAR: Final = st.sampled_from([CM_MAX, CM_MAX - 1, CM_MAX // 2, 2**47 + 1]) | st.integers(1, CM_MAX)
"""A count near the bound, or any count up to it."""


def _validator(kind: str, game: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(kind, game=game))


STANDARD_DECK: Final[dict[object, int]] = dict(zip(toomany.CARDS, toomany.STANDARD_COUNTS, strict=True))
CM_SCHEMAS: Final[dict[str, jsonschema.Draft202012Validator]] = {
    kind: _validator(kind, "cheeky-monkey") for kind in cm_documents.KINDS
}
TM_SCHEMAS: Final[dict[str, jsonschema.Draft202012Validator]] = {
    kind: _validator(kind, "too-many-monkeys") for kind in tm_documents.KINDS
}


def test_the_bound_is_the_same_in_both_games_and_sixteen_counts_and_the_seats_fit_a_document() -> None:
    """2**48 each: Cheeky Monkey's 8 counts and 8 values, or Too Many Monkeys' 12 counts, and the seats or rounds."""
    assert CM_MAX == TM_MAX == 2**48
    assert 16 * CM_MAX + cheekymonkey.cheeky.rules.MAX_PLAYERS <= MAX_INTEGER
    assert 12 * TM_MAX + toomany.MAX_PLAYERS * 6 <= MAX_INTEGER


def _round_trips(documents: Any, schemas: dict[str, jsonschema.Draft202012Validator], value: object) -> None:
    """``value`` is written, read back equal, and its document meets the shipped schema of its kind."""
    text = documents.dumps(value)
    assert documents.loads(text) == value
    document = json.loads(text)
    schemas[document["kind"]].validate(document)


def _play(game: Any, state: Any, rng: random.Random, steps: int) -> list[Any]:
    """The states of ``steps`` actions played from ``state``: chance sampled, choices uniform."""
    states = [state]
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.is_chance_node(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
        states.append(state)
    return states


@st.composite
def cheeky_rulesets_near_the_bound(draw: st.DrawFn) -> cheekymonkey.Ruleset:
    """A valid Cheeky Monkey rule set whose counts and values are near MAX_COUNT (some of them small)."""
    animals = draw(st.sets(st.sampled_from(ANIMALS), min_size=1))
    counts = {animal: draw(NEAR) for animal in sorted(animals)}
    values = {animal: draw(NEAR) for animal in sorted(animals)}
    swap = cheekymonkey.Animal.MONKEY in animals and draw(st.booleans())
    high = draw(st.integers(2, cheekymonkey.cheeky.rules.MAX_PLAYERS))
    return cheekymonkey.Ruleset.custom(counts, bonus_values=values, swap=swap, max_players=high)


@st.composite
def too_many_rulesets_near_the_bound(draw: st.DrawFn) -> toomany.Ruleset:
    """A valid Too Many Monkeys rule set whose counts are near MAX_COUNT (some small, some absent)."""
    counts = tuple(draw(st.just(0) | NEAR) for _ in toomany.CARDS)
    row = draw(st.integers(1, 6))
    high = draw(st.integers(2, toomany.MAX_PLAYERS))
    try:
        return toomany.Ruleset(counts, row, 2, high)
    except InvalidRulesetError:
        assume(False)  # a deck the rules refuse for another reason (a stall, too few cards): not the subject
        raise


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(cheeky_rulesets_near_the_bound(), st.data(), st.integers(0, 2**32), st.integers(0, 40))
def test_every_cheeky_monkey_state_of_a_rule_set_near_the_bound_round_trips(
    ruleset: cheekymonkey.Ruleset, data: st.DataObject, seed: int, steps: int
) -> None:
    """E7: the rule set, a state reached (the last, and one drawn) and its views are saved and loaded back equal."""
    game = game_named("cheeky-monkey")
    bound = game.number_bound(ruleset)
    assert bound is not None
    assert bound <= MAX_INTEGER
    players = data.draw(st.integers(ruleset.min_players, ruleset.max_players))
    _round_trips(cm_documents, CM_SCHEMAS, ruleset)
    states = _play(cheekymonkey, cheekymonkey.new_game(players, ruleset=ruleset), random.Random(seed), steps)
    for state in (states[-1], data.draw(st.sampled_from(states))):
        _round_trips(cm_documents, CM_SCHEMAS, state)
        for seat in (None, data.draw(st.integers(0, players - 1))):
            _round_trips(cm_documents, CM_SCHEMAS, cheekymonkey.view(state, seat))


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], deadline=None)
@given(too_many_rulesets_near_the_bound(), st.data(), st.integers(0, 2**32), st.integers(0, 80))
def test_every_too_many_monkeys_state_of_a_rule_set_near_the_bound_round_trips(
    ruleset: toomany.Ruleset, data: st.DataObject, seed: int, steps: int
) -> None:
    """TME4: the rule set, a state reached (its pile size above all) and its views are saved and loaded back equal."""
    game = game_named("too-many-monkeys")
    bound = game.number_bound(ruleset)
    assert bound is not None
    assert bound <= MAX_INTEGER
    players = data.draw(st.integers(ruleset.min_players, ruleset.max_players))
    _round_trips(tm_documents, TM_SCHEMAS, ruleset)
    states = _play(toomany, toomany.new_game(players, ruleset=ruleset), random.Random(seed), steps)
    for state in (states[-1], data.draw(st.sampled_from(states))):
        _round_trips(tm_documents, TM_SCHEMAS, state)
        for seat in (None, data.draw(st.integers(0, players - 1))):
            _round_trips(tm_documents, TM_SCHEMAS, toomany.view(state, seat))


def test_the_largest_deck_at_the_bound_makes_a_pile_that_round_trips() -> None:
    """Every count at the bound: the first state's pile size, 12 * 2**48 less the rows, is saved and read back."""
    ruleset = toomany.Ruleset((TM_MAX,) * len(toomany.CARDS))
    state = toomany.new_game(2, ruleset=ruleset)
    assert state.pile_size == 12 * TM_MAX - 12
    _round_trips(tm_documents, TM_SCHEMAS, state)


def test_the_largest_score_at_the_bound_round_trips() -> None:
    """One seat holding every token and every tile of a rule set at the bound scores 16 * 2**48, saved and read back."""
    ruleset = cheekymonkey.Ruleset.custom(
        dict.fromkeys(ANIMALS, CM_MAX), bonus_values=dict.fromkeys(ANIMALS, CM_MAX), max_players=16
    )
    sheet = cheekymonkey.score_counts([[CM_MAX] * len(ANIMALS), [0] * len(ANIMALS)], ruleset)
    assert max(seat.total for seat in sheet.seats) == 16 * CM_MAX
    _round_trips(cm_documents, CM_SCHEMAS, sheet)


def _cm_ruleset_document(count: int) -> dict[str, Any]:
    document = cm_documents.to_document(cheekymonkey.Ruleset.custom({cheekymonkey.Animal.SEAL: 3}, name="edge"))
    document["counts"]["seal"] = count
    return document


def _tm_ruleset_document(count: int) -> dict[str, Any]:
    document = tm_documents.to_document(toomany.Ruleset.standard())
    document["counts"]["giraffe"] = count
    return document


@pytest.mark.parametrize(
    ("build", "documents", "schemas", "document"),
    [
        pytest.param(
            lambda n: cheekymonkey.Ruleset.custom({cheekymonkey.Animal.SEAL: n}),
            cm_documents,
            CM_SCHEMAS,
            _cm_ruleset_document,
            id="cheeky-monkey-count",
        ),
        pytest.param(
            lambda n: cheekymonkey.Ruleset.custom(
                {cheekymonkey.Animal.SEAL: 3}, bonus_values={cheekymonkey.Animal.SEAL: n}
            ),
            cm_documents,
            CM_SCHEMAS,
            lambda n: {
                **_cm_ruleset_document(3),
                "bonus_values": {**_cm_ruleset_document(3)["bonus_values"], "seal": n},
            },
            id="cheeky-monkey-value",
        ),
        pytest.param(
            lambda n: toomany.Ruleset.custom({**STANDARD_DECK, "giraffe": n}),
            tm_documents,
            TM_SCHEMAS,
            _tm_ruleset_document,
            id="too-many-monkeys-count",
        ),
    ],
)
def test_a_count_one_above_the_bound_is_refused_by_the_rule_set_the_loader_and_the_schema(
    build: Any, documents: Any, schemas: dict[str, jsonschema.Draft202012Validator], document: Any
) -> None:
    """At the bound: accepted by all three. One above: InvalidRulesetError, DocumentError, and the schema says no."""
    build(CM_MAX)
    at = document(CM_MAX)
    documents.from_document(at, "ruleset")
    schemas["ruleset"].validate(at)
    with pytest.raises(InvalidRulesetError, match=r"at most 281474976710656 \(2\*\*48\)"):
        build(CM_MAX + 1)
    above = document(CM_MAX + 1)
    with pytest.raises(DocumentError, match="above 281474976710656"):
        documents.from_document(above, "ruleset")
    assert not schemas["ruleset"].is_valid(above)
    # The count the issue found: 2**53 - 1 passed both before the bound.
    assert not schemas["ruleset"].is_valid(document(MAX_INTEGER))
    with pytest.raises(DocumentError):
        documents.from_document(document(MAX_INTEGER), "ruleset")
