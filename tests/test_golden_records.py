"""Golden records: saved games that must replay, in every future version, to the same final states and scores.

Each file in ``tests/golden/records`` holds a game record, the final state it reached and its score sheet,
all as JSON documents. The files were written once by ``write_golden_records`` (bots playing seeded
games) and are never regenerated to make a test pass: a difference means the engine's behaviour changed.

When a ruling deliberately changes how games score, the games stay as they are and only their rule sets
and scores are re-derived: ``python -m tests.test_golden_records rederive`` puts each preset's current
rule set in its records, replays the same actions (tile values never change which actions are legal) and
writes the final state and score sheet again; ``tests/test_reference_scorer.py`` then checks every sheet
against a scorer written from the rulings alone. That was done once, when R2 was corrected (the tiles
are worth the animals' counts); replaying with bots again would give other games, since the bots weigh
tiles by their values.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from cheekymonkey import (
    Animal,
    Bot,
    Busted,
    Claimed,
    GameState,
    HerdSecured,
    Phase,
    RandomBot,
    Ruleset,
    Stacked,
    Swapped,
    apply_with_events,
    play_game,
    score,
)
from cheekymonkey.cheeky.bots import ExpectimaxBot, HeuristicBot
from cheekymonkey.cheeky.documents import load_record, load_score, load_state, to_document

GOLDEN = Path(__file__).parent / "golden" / "records"
FILES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def test_the_golden_corpus_is_there() -> None:
    """At least five golden games, covering every preset and a custom rule set."""
    assert len(FILES) >= 5
    names = {load_record(json.dumps(_load(path)["record"])).ruleset.name for path in FILES}
    assert names >= {"standard", "younger", "little-children", "little-children-no-kangaroo", "custom"}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_golden_record_replays_to_its_final_state_and_score_sheet(path: Path) -> None:
    """Replaying the record reaches exactly the saved final state and score sheet; every state on the way is valid."""
    golden = _load(path)
    record = load_record(json.dumps(golden["record"]))
    states = record.states()
    for state in states:
        GameState(**{field.name: getattr(state, field.name) for field in attrs.fields(GameState)})  # checks it
    final = states[-1]
    assert final.phase is Phase.OVER
    assert final == load_state(json.dumps(golden["final_state"]))
    assert score(final) == load_score(json.dumps(golden["score"]))


def test_the_golden_games_exercise_busts_claims_swaps_herds_and_placing() -> None:
    """Between them the golden games contain every kind of event, so they pin every rule's effect."""
    seen: set[type] = set()
    for path in FILES:
        record = load_record(json.dumps(_load(path)["record"]))
        state = record.start()
        for action in record.actions:
            state, events = apply_with_events(state, action)
            seen.update(type(event) for event in events)
    assert {Busted, Claimed, Swapped, HerdSecured, Stacked} <= seen


def _golden_games() -> dict[str, tuple[list[Bot], Ruleset, int, int]]:
    custom = Ruleset.custom(
        {Animal.ELEPHANT: 2, Animal.SEAL: 3, Animal.HIPPO: 2, Animal.MONKEY: 4},
        bonus_values={Animal.ELEPHANT: 5, Animal.SEAL: 5, Animal.HIPPO: 3, Animal.MONKEY: 2},
        max_players=6,
    )
    return {
        "standard-3-players": ([ExpectimaxBot(), HeuristicBot(), RandomBot()], Ruleset.standard(), 2024, 0),
        "standard-6-players": ([HeuristicBot(0.2 + 0.1 * i) for i in range(6)], Ruleset.standard(), 6, 3),
        "younger-2-players": ([HeuristicBot(0.4), ExpectimaxBot()], Ruleset.younger(), 7, 1),
        "little-children-4-players": (
            [RandomBot(), HeuristicBot(), ExpectimaxBot(), HeuristicBot(0.5)],
            Ruleset.little_children(),
            11,
            2,
        ),
        "little-children-no-kangaroo-2-players": (
            [ExpectimaxBot(), HeuristicBot()],
            Ruleset.little_children(without_kangaroo=True),
            12,
            0,
        ),
        "custom-5-players": (
            [HeuristicBot(0.5), RandomBot(), ExpectimaxBot(), RandomBot(), HeuristicBot()],
            custom,
            99,
            4,
        ),
    }


def write_golden_records() -> None:
    """Write the golden files (run once, by hand, when adding a game to the corpus)."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (bots, ruleset, seed, first) in _golden_games().items():
        game = play_game(bots, ruleset=ruleset, seed=seed, first_player=first)
        golden = {
            "record": to_document(game.record),
            "final_state": to_document(game.state),
            "score": to_document(game.score),
        }
        (GOLDEN / f"{name}.json").write_text(json.dumps(golden, sort_keys=True, indent=1) + "\n", encoding="utf-8")


def rederive_golden_scores() -> None:
    """Re-derive each golden file's rule set, final state and score from its actions (see the module docstring)."""
    for path in FILES:
        golden = _load(path)
        name = golden["record"]["ruleset"]["name"]
        if name in Ruleset.preset_names():
            golden["record"]["ruleset"] = {
                key: value
                for key, value in to_document(Ruleset.preset(name)).items()
                if key in golden["record"]["ruleset"]
            }
        record = load_record(json.dumps(golden["record"]))
        final = record.final_state()
        golden["final_state"] = to_document(final)
        golden["score"] = to_document(score(final))
        path.write_text(json.dumps(golden, sort_keys=True, indent=1) + "\n", encoding="utf-8")


def test_golden_records_of_presets_use_the_presets_as_they_are_now() -> None:
    """R2: a golden game under a preset carries that preset's current rule set, so its score sheet is today's."""
    for path in FILES:
        record = load_record(json.dumps(_load(path)["record"]))
        if record.ruleset.name in Ruleset.preset_names():
            assert record.ruleset == Ruleset.preset(record.ruleset.name), path.name


if __name__ == "__main__":
    if sys.argv[1:] == ["rederive"]:
        rederive_golden_scores()
    else:
        write_golden_records()
    sys.exit(0)
