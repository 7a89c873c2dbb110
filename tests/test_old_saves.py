"""Documents saved before the R2 fix, whose standard rule set carries the reversed tile values.

``tests/golden/old_saves/`` holds two golden records exactly as the earlier version wrote them: a standard
game (Elephant tile 10 ... Monkey tile 3) and a younger-players game (the same values, which never score).
A standard rule set with those values is refused with a ``DocumentError`` that says why and how to load it;
a rule set without tiles, or under another name, loads as saved.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

from cheekymonkey import Ruleset, score
from cheekymonkey.cheeky.documents import load_record, load_ruleset, load_state, load_view, to_document
from cheekymonkey.cheeky.views import view
from cheekymonkey.serialization import DocumentError
from tests.reference_scorer import STANDARD_VALUES, reference_score, stacks_to_rows

OLD: Final = Path(__file__).parent / "golden" / "old_saves"
NAMES: Final = ("elephant", "seal", "hippo", "giraffe", "panda", "kangaroo", "lion", "monkey")
COUNTS: Final = dict(zip(NAMES, (3, 4, 5, 6, 7, 8, 9, 10), strict=True))
REVERSED: Final = dict(zip(NAMES, (10, 9, 8, 7, 6, 5, 4, 3), strict=True))
"""The tile values earlier versions saved for the standard game."""


def _old(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((OLD / f"{name}-before-r2-fix.json").read_text(encoding="utf-8"))
    return loaded


def test_the_old_standard_save_really_has_the_reversed_values() -> None:
    """The fixture is what the earlier version wrote: a standard rule set with Elephant 10 ... Monkey 3."""
    golden = _old("standard-3-players")
    for document in (golden["record"]["ruleset"], golden["final_state"]["ruleset"]):
        assert document["name"] == "standard"
        assert document["bonus_values"] == REVERSED


def test_an_old_standard_record_is_refused_with_how_to_load_it() -> None:
    """R2: loading the old record raises DocumentError at its values, naming the fix and the way round it."""
    with pytest.raises(DocumentError) as caught:
        load_record(json.dumps(_old("standard-3-players")["record"]))
    assert caught.value.kind == "record"
    assert caught.value.path == "$.ruleset.bonus_values"
    assert "reversed" in caught.value.reason
    assert "set bonus_values to the counts" in caught.value.reason
    assert "another name" in caught.value.reason


def test_old_standard_states_views_and_rule_sets_are_refused_too() -> None:
    """R2: every document that carries the old standard rule set is refused the same way."""
    golden = _old("standard-3-players")
    with pytest.raises(DocumentError, match="reversed") as caught:
        load_state(json.dumps(golden["final_state"]))
    assert caught.value.path == "$.ruleset.bonus_values"
    ruleset = {"format": "cheekymonkey/1", "kind": "ruleset", **golden["record"]["ruleset"]}
    with pytest.raises(DocumentError, match="reversed") as caught:
        load_ruleset(json.dumps(ruleset))
    assert caught.value.path == "$.bonus_values"
    # A view saved under the old rules: today's view of the new state, with the old values put back.
    state = load_record(json.dumps(_fixed(golden["record"]))).final_state()
    document = to_document(view(state, 0))
    document["ruleset"]["bonus_values"] = dict(REVERSED)
    with pytest.raises(DocumentError, match="reversed"):
        load_view(json.dumps(document))


def _fixed(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "ruleset": {**record["ruleset"], "bonus_values": dict(COUNTS)}}


def test_an_old_standard_record_with_the_counts_put_in_replays_and_scores_by_r2() -> None:
    """Following the message (values set to the counts), the same game loads and scores as the rulings say."""
    record = load_record(json.dumps(_fixed(_old("standard-3-players")["record"])))
    assert record.ruleset == Ruleset.standard()
    final = record.final_state()
    sheet = score(final)
    expected = reference_score(stacks_to_rows(final.stacks), STANDARD_VALUES)
    assert (sheet.tile_holders, sheet.totals, sheet.winners, sheet.decided_by.value) == tuple(expected)
    # The old file's own score sheet was computed with the reversed values, and is not today's.
    old_totals = [line["total"] for line in _old("standard-3-players")["score"]["seats"]]
    assert list(sheet.totals) != old_totals


def test_an_old_standard_record_renamed_loads_with_the_old_values_as_given() -> None:
    """Renamed, the rule set is a custom one with explicit values, which are kept (E6) and scored as given."""
    golden = _old("standard-3-players")
    renamed = {**golden["record"], "ruleset": {**golden["record"]["ruleset"], "name": "standard-before-r2-fix"}}
    record = load_record(json.dumps(renamed))
    assert record.ruleset.bonus_values == (10, 9, 8, 7, 6, 5, 4, 3)
    totals = [line["total"] for line in golden["score"]["seats"]]
    assert list(score(record.final_state()).totals) == totals


def test_an_old_younger_players_record_loads_as_saved_and_scores_the_same() -> None:
    """R19: without tiles the values never score, so the old younger-players record loads and scores unchanged."""
    golden = _old("younger-2-players")
    assert golden["record"]["ruleset"]["bonus_values"] == REVERSED
    record = load_record(json.dumps(golden["record"]))
    assert record.ruleset.bonus_values == (10, 9, 8, 7, 6, 5, 4, 3)
    final = record.final_state()
    assert [line["total"] for line in golden["score"]["seats"]] == list(score(final).totals)
    assert score(final).totals == tuple(len(stack) for stack in final.stacks)
