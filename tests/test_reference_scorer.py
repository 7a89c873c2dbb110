"""The engine's scorer against an independent one (``tests/reference_scorer.py``, written from R2 and R16-R18).

Every golden score (the game records, the z3 witnesses) is checked here against the independent scorer,
read straight from the JSON files without the engine's loaders, and the engine's ``score_counts`` is
compared with it on random tables of every rule set. ``tests/test_exhaustive_scoring.py`` compares the
two on every finished 2-seat table of the standard game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey import Ruleset, score_counts
from tests.reference_scorer import STANDARD_VALUES, Outcome, reference_score, stacks_to_rows, tile_holder
from tests.strategies import count_tables, rulesets, seat_counts

GOLDEN: Final = Path(__file__).parent / "golden"
ANIMAL_NAMES: Final = ("elephant", "seal", "hippo", "giraffe", "panda", "kangaroo", "lion", "monkey")
"""R1's animals in their order, as the JSON documents name them (written out, not read from the engine)."""
RECORDS: Final = sorted((GOLDEN / "records").glob("*.json"))


def _per_animal(document: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(document[name] for name in ANIMAL_NAMES)


def _values_by_the_rulings(ruleset: dict[str, Any], *, defaulted: bool) -> tuple[int, ...]:
    """The tile values R2/E6 give a stored rule set, without trusting the values the file stores.

    The standard preset's values are R2's, written out in the reference scorer; a custom rule set built
    without values (``defaulted``) has each animal's count (E6); one built with values keeps them.
    """
    if ruleset["name"] == "standard":
        return STANDARD_VALUES
    if defaulted:
        return _per_animal(ruleset["counts"])
    return _per_animal(ruleset["bonus_values"])


def _sheet_outcome(sheet: dict[str, Any]) -> Outcome:
    return Outcome(
        _per_animal(sheet["tile_holders"]),
        tuple(seat["total"] for seat in sheet["seats"]),
        tuple(sheet["winners"]),
        sheet["decided_by"],
    )


# --- the reference scorer itself, on hand-worked cases ----------------------------------------------


def test_reference_scorer_gives_the_hand_worked_results() -> None:
    """The reference gives (5, 11) for [E, E] against [M], and (11, 11, 7) won by seat 1 on the tie-break."""
    e, l_, m = 0, 6, 7
    assert reference_score(stacks_to_rows([[e, e], [m]]), STANDARD_VALUES) == Outcome(
        (0, None, None, None, None, None, None, 1), (5, 11), (1,), "score"
    )
    rows = stacks_to_rows([[e] + [l_] * 7, [m], [l_] * 7])
    assert reference_score(rows, STANDARD_VALUES) == Outcome(
        (0, None, None, None, None, None, None, 1), (11, 11, 7), (1,), "tie-break"
    )
    assert reference_score(rows, STANDARD_VALUES, tiles=False) == Outcome((None,) * 8, (8, 1, 7), (0,), "score")


@pytest.mark.parametrize(
    ("holdings", "holder"),
    [([2, 1], 0), ([1, 2], 1), ([2, 2], None), ([0, 0], None), ([0, 0, 1], 2), ([3, 3, 1], None), ([1], 0)],
)
def test_reference_tile_holder_follows_r16(holdings: list[int], holder: int | None) -> None:
    """R16 in the reference: strictly the most and at least one, else nobody."""
    assert tile_holder(holdings) == holder


# --- every golden score sheet -------------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=[path.stem for path in RECORDS])
def test_golden_record_score_sheet_agrees_with_the_reference_scorer(path: Path) -> None:
    """R16-R18: the saved final stacks, scored by the reference under R2's values, give the saved sheet."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    ruleset = golden["record"]["ruleset"]
    values = _values_by_the_rulings(ruleset, defaulted=False)
    if ruleset["bonus_tiles"]:
        assert _per_animal(ruleset["bonus_values"]) == values, "the record's rule set has the wrong tile values"
    stacks = [[ANIMAL_NAMES.index(token) for token in stack] for stack in golden["final_state"]["stacks"]]
    rows = stacks_to_rows(stacks)
    sheet = golden["score"]
    assert reference_score(rows, values, tiles=ruleset["bonus_tiles"]) == _sheet_outcome(sheet)
    for seat, line in enumerate(sheet["seats"]):
        assert _per_animal(line["counts"]) == tuple(rows[seat])
        assert line["tokens"] == sum(rows[seat])
        taken = [values[a] for a in range(8) if _per_animal(sheet["tile_holders"])[a] == seat]
        assert line["bonus"] == sum(taken)
        assert line["best_tile"] == (max(taken) if taken else None)


@pytest.mark.parametrize("players", [2, 3])
def test_golden_z3_witnesses_agree_with_the_reference_scorer(players: int) -> None:
    """R16-R18: every stored z3 witness table scores, by the reference, as the file says z3 found."""
    document = json.loads((GOLDEN / f"z3_witnesses_{players}.json").read_text(encoding="utf-8"))
    rulesets_ = document["rulesets"]
    # "distinct" is built with default values (E6: each tile worth its count), "repeat" with explicit ones.
    values = {
        "distinct": _values_by_the_rulings(rulesets_["distinct"], defaulted=True),
        "repeat": _values_by_the_rulings(rulesets_["repeat"], defaulted=False),
    }
    assert _per_animal(rulesets_["distinct"]["bonus_values"]) == values["distinct"]
    assert document["cases"]
    for case in document["cases"]:
        expected = Outcome(tuple(case["holders"]), tuple(case["totals"]), tuple(case["winners"]), case["decision"])
        assert reference_score(case["table"], values[case["ruleset"]]) == expected, case


# --- the engine against the reference on random tables -----------------------------------------------


def _engine_outcome(table: tuple[tuple[int, ...], ...], ruleset: Ruleset) -> Outcome:
    sheet = score_counts(table, ruleset)
    return Outcome(sheet.tile_holders, sheet.totals, sheet.winners, sheet.decided_by.value)


@given(st.data())
def test_engine_scores_random_tables_of_any_rule_set_as_the_reference_does(data: st.DataObject) -> None:
    """R16-R19: score_counts and the reference agree on count tables of presets and custom rule sets."""
    ruleset = data.draw(rulesets())
    table = data.draw(seat_counts(ruleset).flatmap(lambda players: count_tables(ruleset, players)))
    expected = reference_score(table, ruleset.bonus_values, tiles=ruleset.bonus_tiles)
    assert _engine_outcome(table, ruleset) == expected


@given(st.integers(2, 6).flatmap(lambda players: count_tables(Ruleset.standard(), players)))
def test_engine_scores_standard_tables_with_r2s_values_as_the_reference_does(
    table: tuple[tuple[int, ...], ...],
) -> None:
    """R2, R16-R18: on the standard game the engine agrees with the reference using R2's values written out."""
    assert _engine_outcome(table, Ruleset.standard()) == reference_score(table, STANDARD_VALUES)
