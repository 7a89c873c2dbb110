"""The z3 proofs of scoring (cheekymonkey.verify), the golden witnesses they produce, and ``cheekymonkey verify``.

The golden files ``tests/golden/z3_witnesses_{2,3}.json`` hold one count table for every pattern of
outcome (who takes each tile, who wins, how it was decided) of two small rule sets, found by z3 with
blocking clauses. Regenerate them with ``python -m tests.test_verify`` after a deliberate change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey import Animal, Decision, InvalidGameError, Ruleset, score_counts
from cheekymonkey.cheeky.documents import dump_ruleset
from cheekymonkey.cheeky.verify import (
    ScoringModel,
    Status,
    VerificationReport,
    Witness,
    check_agreement,
    enumerate_witnesses,
    verify_ruleset,
)
from cheekymonkey.cli import main
from tests.strategies import count_tables

GOLDEN = Path(__file__).parent / "golden"
E, S, H, M = Animal.ELEPHANT, Animal.SEAL, Animal.HIPPO, Animal.MONKEY

# Two small rule sets for the golden witnesses: one with distinct bonus values (as in every preset), one
# whose values repeat (so the tie-break can fail with tiles). Small, so every outcome pattern is listed.
GOLDEN_RULESETS = {
    "distinct": Ruleset.custom({E: 3, S: 4, H: 5, M: 6}, name="distinct"),
    "repeat": Ruleset.custom({E: 2, S: 3, M: 4}, bonus_values={E: 5, S: 5, M: 3}, name="repeat"),
}
GOLDEN_SEATS = (2, 3)


def _pattern(witness: Witness) -> tuple[object, ...]:
    return (witness.holders, witness.winners, witness.decision)


def _witness_to_json(name: str, witness: Witness) -> dict[str, Any]:
    return {
        "ruleset": name,
        "table": [list(row) for row in witness.table],
        "holders": list(witness.holders),
        "totals": list(witness.totals),
        "winners": list(witness.winners),
        "decision": witness.decision.value,
    }


def _witness_from_json(case: dict[str, Any]) -> Witness:
    return Witness(
        tuple(tuple(row) for row in case["table"]),
        tuple(case["holders"]),
        tuple(case["totals"]),
        tuple(case["winners"]),
        Decision(case["decision"]),
    )


def load_golden(players: int) -> dict[str, list[Witness]]:
    """The stored witnesses for ``players`` seats, by rule set name."""
    document = json.loads((GOLDEN / f"z3_witnesses_{players}.json").read_text(encoding="utf-8"))
    for name, ruleset in GOLDEN_RULESETS.items():
        assert document["rulesets"][name] == json.loads(dump_ruleset(ruleset)), f"regenerate: {name} changed"
    found: dict[str, list[Witness]] = {name: [] for name in GOLDEN_RULESETS}
    for case in document["cases"]:
        found[case["ruleset"]].append(_witness_from_json(case))
    return found


def write_golden() -> None:
    """Enumerate the witnesses with z3 and write the golden files (run after a deliberate change)."""
    GOLDEN.mkdir(exist_ok=True)
    for players in GOLDEN_SEATS:
        cases = [
            _witness_to_json(name, witness)
            for name, ruleset in GOLDEN_RULESETS.items()
            for witness in enumerate_witnesses(ruleset, players)
        ]
        document = {
            "about": f"one count table per scoring outcome pattern, {players} seats, found by z3 (test_verify.py)",
            "rulesets": {name: json.loads(dump_ruleset(ruleset)) for name, ruleset in GOLDEN_RULESETS.items()},
            "cases": cases,
        }
        # One case per line: small files, and a regenerated file diffs line by line.
        text = json.dumps(document, indent=1)
        text = text[: text.index('"cases": [')] + '"cases": [\n'
        text += ",\n".join(json.dumps(case) for case in cases) + "\n ]\n}\n"
        (GOLDEN / f"z3_witnesses_{players}.json").write_text(text, encoding="utf-8")


@pytest.mark.slow  # z3 proofs: about a minute for all seat counts
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_standard_rules_prove_every_scoring_property(players: int) -> None:
    """R16-R18: for the standard game, z3 proves every property for 2 to 6 seats; the best score is 104."""
    report = verify_ruleset(Ruleset.standard(), players)
    assert isinstance(report, VerificationReport)
    assert [r.name for r in report.results] == [
        "one-holder",
        "majority-takes-tile",
        "score-bound",
        "total-bound",
        "tie-break-decides",
        "tie-break-equal-tiles",
    ]
    assert all(r.status is Status.PROVED for r in report.results), report.format()
    assert report.all_proved
    assert report.max_score == 104
    assert score_counts(report.max_score_table, Ruleset.standard()).totals[0] == 104
    assert [sum(column) for column in zip(*report.max_score_table, strict=True)] == [3, 4, 5, 6, 7, 8, 9, 10]


def test_the_score_optimum_is_exact_for_a_custom_rule_set() -> None:
    """R17: z3's optimum is reached by its table and no finished table scores more (checked by brute force)."""
    ruleset = Ruleset.custom({E: 2, M: 3}, bonus_values={E: 4, M: 1})
    report = verify_ruleset(ruleset, 2)
    # Brute force over every finished 2-seat table: seat 0 holds e Elephants and m Monkeys.
    best = max(score_counts([[e, 0, 0, 0, 0, 0, 0, m], [2 - e, 0, 0, 0, 0, 0, 0, 3 - m]], ruleset).totals[0]
               for e in range(3) for m in range(4))  # fmt: skip
    assert report.max_score == best == 10
    assert score_counts(report.max_score_table, ruleset).totals[0] == best


def test_repeated_bonus_values_refute_the_tie_break_with_a_counterexample() -> None:
    """R18: with two equal bonus values z3 finds tied seats whose equal best tiles leave the win shared."""
    ruleset = GOLDEN_RULESETS["repeat"]
    report = verify_ruleset(ruleset, 2)
    assert not report.all_proved
    assert [r.name for r in report.refuted] == ["tie-break-decides"]
    table = report.refuted[0].counterexample
    assert table is not None
    sheet = score_counts(table, ruleset)
    assert sheet.decided_by is Decision.SHARED
    assert len(sheet.winners) >= 2
    best = {sheet.seats[w].best_tile for w in sheet.winners}
    assert best == {5}
    # The weaker statement, that only equal tiles of different animals can leave such a tie, still holds.
    assert next(r for r in report.results if r.name == "tie-break-equal-tiles").proved
    assert "refuted" in report.format()


def test_rules_without_tiles_mark_tile_properties_not_applicable() -> None:
    """R19: the younger-players rules have no tiles; the best score is every token, 52."""
    report = verify_ruleset(Ruleset.younger(), 3)
    status = {r.name: r.status for r in report.results}
    assert status["majority-takes-tile"] is Status.NOT_APPLICABLE
    assert status["tie-break-decides"] is Status.NOT_APPLICABLE
    assert status["one-holder"] is Status.PROVED
    assert report.max_score == 52
    assert report.all_proved


def test_a_mutated_model_is_refuted() -> None:
    """The proofs can fail: a model whose tiles go to any seat with the most (``>=``) breaks one-holder."""
    import z3

    model = ScoringModel(Ruleset.standard(), 2)
    c = model.counts
    for i, j in ((0, 1), (1, 0)):
        for a in model.animals:
            model.awarded[i, a] = z3.And(c[i, a] >= 1, c[i, a] >= c[j, a])
    claim_broken = z3.Or([z3.And(model.awarded[0, a], model.awarded[1, a]) for a in model.animals])
    solver = z3.Solver()
    solver.add(*model.table_constraints(finished=True), claim_broken)
    assert solver.check() == z3.sat


def test_verify_ruleset_refuses_a_seat_count_the_rules_do_not_allow() -> None:
    """R3: the standard rules take 2 to 6 players, so 7 is refused with a typed error."""
    with pytest.raises(InvalidGameError, match="7 players"):
        verify_ruleset(Ruleset.standard(), 7)


@pytest.mark.parametrize("players", GOLDEN_SEATS)
def test_golden_witnesses_agree_with_score_counts(players: int) -> None:
    """R16-R18: score_counts gives every stored z3 witness table the outcome z3 gave it."""
    golden = load_golden(players)
    for name, witnesses in golden.items():
        ruleset = GOLDEN_RULESETS[name]
        assert witnesses, name
        for witness in witnesses:
            sheet = score_counts(witness.table, ruleset)
            assert (sheet.tile_holders, sheet.totals, sheet.winners, sheet.decided_by) == (
                witness.holders,
                witness.totals,
                witness.winners,
                witness.decision,
            ), (name, witness.table)


@pytest.mark.slow  # z3 enumeration: tens of seconds
@pytest.mark.parametrize("players", GOLDEN_SEATS)
def test_z3_enumerates_the_golden_patterns_and_the_model_agrees_with_python(players: int) -> None:
    """Differential: z3 finds exactly the stored outcome patterns, and the model scores each table as Python does."""
    golden = load_golden(players)
    for name, ruleset in GOLDEN_RULESETS.items():
        found = enumerate_witnesses(ruleset, players)
        patterns = [_pattern(w) for w in found]
        assert len(set(patterns)) == len(patterns)  # blocking clauses: each pattern once
        assert set(patterns) == {_pattern(w) for w in golden[name]}
        model = ScoringModel(ruleset, players)
        for witness in (*found, *golden[name]):
            assert check_agreement(model, witness.table) == witness


def test_golden_patterns_cover_every_kind_of_outcome() -> None:
    """The witnesses include tiles to each seat, shared tiles, and all three decisions (a non-trivial set)."""
    witnesses = [w for per in load_golden(3).values() for w in per]
    assert {w.decision for w in witnesses} == set(Decision)
    assert {h for w in witnesses for h in w.holders} == {None, 0, 1, 2}
    repeat = load_golden(2)["repeat"]
    assert any(w.decision is Decision.SHARED and all(w.holders[a] is not None for a in (E, S)) for w in repeat)


@given(st.integers(2, 4).flatmap(lambda players: count_tables(Ruleset.standard(), players)))
def test_the_model_scores_random_standard_tables_as_python_does(table: tuple[tuple[int, ...], ...]) -> None:
    """Differential, on the standard rules: the z3 model and score_counts agree on random count tables."""
    witness = check_agreement(ScoringModel(Ruleset.standard(), len(table)), table)
    assert witness.table == table


def test_cli_verify_proves_a_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """``cheekymonkey verify --preset standard --players 2`` proves everything and exits 0."""
    assert main(["verify", "--preset", "standard", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "[proved] tie-break-decides" in out
    assert "Highest score of one seat in a finished game: 104" in out
    assert "All properties proved." in out


def test_cli_verify_reports_a_counterexample_for_a_json_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cheekymonkey verify --ruleset FILE`` with repeated values prints a counterexample and exits 1."""
    path = tmp_path / "repeat.json"
    path.write_text(dump_ruleset(GOLDEN_RULESETS["repeat"]), encoding="utf-8")
    assert main(["verify", "--ruleset", str(path), "--players", "2"]) == 1
    out = capsys.readouterr().out
    assert "[refuted] tie-break-decides" in out
    assert "seat 0: Elephant" in out
    assert "1 property refuted." in out  # one, in the singular


def test_cli_verify_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file, an invalid document, or a seat count the rules forbid exits 2 with a message."""
    assert main(["verify", "--ruleset", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "ruleset"}', encoding="utf-8")
    assert main(["verify", "--ruleset", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert main(["verify", "--preset", "younger", "--players", "7"]) == 2
    assert "7 players" in capsys.readouterr().err


def test_the_library_imports_without_z3() -> None:
    """The core, the CLI and the proofs' framework import with z3 missing; only the proofs need it, and say so."""
    code = (
        "import sys; sys.modules['z3'] = None\n"
        "import cheekymonkey, cheekymonkey.cli, cheekymonkey.verify\n"
        "assert 'cheekymonkey.cheeky.verify' not in sys.modules\n"
        "try:\n"
        "    import cheekymonkey.cheeky.verify\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'cheekymonkey[verify]'" in done.stdout


if __name__ == "__main__":
    write_golden()
