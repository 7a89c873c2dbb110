"""Pig is held to OpenSpiel's C++ ``pig``: the same dice and the same decisions give the same game, step by step."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import pytest
from cheekymonkey.errors import GameNotOverError, IllegalActionError, NotAChanceNodeError

from cheekymonkey_pig import HOLD, PIG, ROLL, Action, Face, PigState, Rules

pyspiel = pytest.importorskip("pyspiel")

_TEXT = re.compile(r"Scores: ([\d ]+), Turn total: (\d+)\nCurrent player: (\d+)( \(rolling\))?\n")


def _index(action: Action) -> int:
    # OpenSpiel's actions: 0 roll, 1 stop; a chance outcome x is the face x + 1.
    if isinstance(action, Face):
        return action.face - 1
    return 0 if action == ROLL else 1


def _check_same(ours: PigState, theirs: Any) -> None:
    match = _TEXT.fullmatch(str(theirs))
    assert match, str(theirs)
    assert ours.scores == tuple(int(score) for score in match.group(1).split())
    assert ours.turn_total == int(match.group(2))
    assert ours.seat == int(match.group(3))
    assert PIG.is_terminal(ours) == theirs.is_terminal()
    assert PIG.is_chance_node(ours) == theirs.is_chance_node()
    assert PIG.returns(ours) == pytest.approx(theirs.returns(), abs=1e-12)
    assert [_index(action) for action in PIG.legal_actions(ours)] == theirs.legal_actions()
    if theirs.is_terminal():
        assert PIG.to_move(ours) is None
    elif theirs.is_chance_node():
        assert [(_index(face), float(p)) for face, p in PIG.chance_outcomes(ours)] == theirs.chance_outcomes()
        assert sum(p for _, p in PIG.chance_outcomes(ours)) == 1
    else:
        assert PIG.to_move(ours) == theirs.current_player()


def _play_both(players: int, rules: Rules, rng: random.Random) -> tuple[PigState, int]:
    """One game through both engines, dice and decisions from ``rng``; the final state and the steps taken."""
    game = pyspiel.load_game(
        "pig",
        {"players": players, "winscore": rules.winscore, "diceoutcomes": rules.diceoutcomes, "horizon": rules.horizon},
    )
    theirs = game.new_initial_state()
    ours = PIG.new_game(players, rules)
    boldness = rng.random()  # each game its own player: from timid to reckless
    steps = 0
    _check_same(ours, theirs)
    while not PIG.is_terminal(ours):
        options = PIG.legal_actions(ours)
        if PIG.is_chance_node(ours):
            action: Action = Face(rng.randint(1, rules.diceoutcomes))
        else:
            action = ROLL if ROLL in options and rng.random() < boldness else HOLD
        ours = PIG.apply(ours, action)
        theirs.apply_action(_index(action))
        steps += 1
        _check_same(ours, theirs)
    return ours, steps


@pytest.mark.parametrize(
    ("players", "rules", "games"),
    [
        (2, Rules(), 40),  # OpenSpiel's defaults
        (2, Rules(winscore=10, diceoutcomes=2, horizon=12), 300),
        (3, Rules(winscore=30), 200),
        (3, Rules(winscore=25, diceoutcomes=4, horizon=20), 300),
        (4, Rules(winscore=40, diceoutcomes=8), 100),
        (6, Rules(winscore=20), 200),
        (6, Rules(winscore=10, diceoutcomes=3, horizon=40), 200),
    ],
)
def test_every_step_equals_openspiels_pig(players: int, rules: Rules, games: int) -> None:
    """Scores, turn totals, seats, terminal and chance flags, legal actions, chance odds and returns, every step."""
    rng = random.Random(f"pig {players} {rules}")
    won = at_horizon = steps = 0
    for _ in range(games):
        final, taken = _play_both(players, rules, rng)
        steps += taken
        result = PIG.outcome(final)
        openspiel = PIG.returns(final)
        # The library's outcome is OpenSpiel's returns in its own scale: times (n-1)/n, plus 1/n.
        assert result.returns == pytest.approx([r * (players - 1) / players + 1 / players for r in openspiel])
        if max(final.scores) >= rules.winscore:
            won += 1
            assert result.winners == (openspiel.index(1.0),)
        else:
            at_horizon += 1
            assert final.moves == rules.horizon
            assert result.winners == tuple(range(players))
    assert won + at_horizon == games
    assert steps > 10 * games
    if rules.horizon < 100:  # the short horizons are there to end games undecided: some must, and some not
        assert won > 0
        assert at_horizon > 0


def test_a_hold_that_reaches_the_target_is_the_only_move() -> None:
    """P5 as in OpenSpiel: once the turn's points reach the target, rolling is refused and nothing changes."""
    state = PIG.apply(PIG.apply(PIG.new_game(2, Rules(winscore=5)), ROLL), Face(6))
    assert PIG.legal_actions(state) == (HOLD,)
    with pytest.raises(IllegalActionError, match="P5") as refused:
        PIG.apply(state, ROLL)
    assert refused.value.state is state
    final = PIG.apply(state, HOLD)
    assert PIG.is_terminal(final)
    assert PIG.outcome(final).winners == (0,)
    assert PIG.returns(final) == (1.0, -1.0)


@pytest.mark.parametrize(
    ("action", "rolling", "rule"),
    [(Face(3), False, "P2"), (ROLL, True, "P3"), (HOLD, True, "P3"), (Face(7), True, "P3"), ("roll", False, "P2")],
)
def test_illegal_actions_are_refused_with_the_rule(action: Any, rolling: bool, rule: str) -> None:
    state = PIG.new_game(3)
    if rolling:
        state = PIG.apply(state, ROLL)
    with pytest.raises(IllegalActionError, match=rule):
        PIG.apply(state, action)


def test_the_end_refuses_actions_and_chance_and_the_middle_has_no_outcome() -> None:
    state = PIG.new_game(2, Rules(horizon=1))
    with pytest.raises(GameNotOverError):
        PIG.outcome(state)
    with pytest.raises(NotAChanceNodeError):
        PIG.chance_outcomes(state)
    state = PIG.apply(state, ROLL)  # the horizon's one decision: over before the die lands, as in OpenSpiel
    assert PIG.is_terminal(state)
    assert not PIG.is_chance_node(state)
    assert PIG.legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="P6"):
        PIG.apply(state, Face(2))
    assert PIG.outcome(state).returns == (0.5, 0.5)
    assert PIG.returns(state) == (0.0, 0.0)


def test_chance_is_exact() -> None:
    state = PIG.apply(PIG.new_game(2, Rules(diceoutcomes=5)), ROLL)
    assert PIG.chance_outcomes(state) == tuple((Face(face), Fraction(1, 5)) for face in range(1, 6))
