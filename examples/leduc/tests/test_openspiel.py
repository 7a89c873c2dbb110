"""Leduc poker is held to OpenSpiel's ``leduc_poker`` through the library's OpenSpiel adapter, history by history."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

from cheekymonkey_leduc import LEDUC

pyspiel = pytest.importorskip("pyspiel")
openspiel_game = pytest.importorskip("cheekymonkey.rl.openspiel_game")


def _walk(ours: Any, theirs: Any, seen: dict[str, Any]) -> None:
    """Every history below ``theirs``, played in both; what each side says of it, recorded by history."""
    history = ",".join(map(str, theirs.history()))
    assert ",".join(map(str, ours.history())) == history
    assert ours.current_player() == theirs.current_player(), history
    assert ours.is_terminal() == theirs.is_terminal(), history
    assert ours.is_chance_node() == theirs.is_chance_node(), history
    assert ours.legal_actions() == theirs.legal_actions(), history
    if theirs.is_chance_node():
        assert ours.chance_outcomes() == theirs.chance_outcomes(), history  # the same doubles: 1/6, 1/5, 1/4
    if theirs.is_terminal():
        assert ours.returns() == theirs.returns(), history
    else:
        assert ours.returns() == theirs.returns() == [0.0, 0.0]
    seen[history] = (
        theirs.current_player(),
        [ours.information_state_string(p) for p in range(2)],
        [theirs.information_state_string(p) for p in range(2)],
    )
    for action in theirs.legal_actions():
        _walk(ours.child(action), theirs.child(action), seen)


def _classes(keys: dict[str, str]) -> set[frozenset[str]]:
    """The partition of the histories that ``keys`` makes: histories with equal keys together."""
    groups: dict[str, set[str]] = defaultdict(set)
    for history, key in keys.items():
        groups[key].add(history)
    return {frozenset(group) for group in groups.values()}


def test_every_history_agrees_and_the_information_states_partition_the_histories_alike() -> None:
    """Legal actions, chance odds, current player, terminal, returns at all 9,457 histories; the same information.

    Before the end both sides' information states split the histories into the same classes, for each
    player. At the end ours also holds the hands a showdown turns up (OpenSpiel's does not), so our
    classes there are OpenSpiel's split by what was shown, and equal to them where a hand ended by a fold.
    """
    ours_game = pyspiel.load_game("python_leduc")
    theirs_game = pyspiel.load_game("leduc_poker")
    assert ours_game.get_type().information == theirs_game.get_type().information
    assert ours_game.get_type().utility == theirs_game.get_type().utility
    for figure in ("num_distinct_actions", "max_chance_outcomes", "num_players", "min_utility", "max_utility"):
        assert getattr(ours_game, figure)() == getattr(theirs_game, figure)(), figure
    assert ours_game.utility_sum() == theirs_game.utility_sum() == 0.0
    seen: dict[str, Any] = {}
    _walk(ours_game.new_initial_state(), theirs_game.new_initial_state(), seen)
    assert len(seen) == 9457
    terminal = {history for history, (mover, _, _) in seen.items() if mover == pyspiel.PlayerId.TERMINAL}
    assert len(terminal) == 5520
    counts = []
    for player in range(2):
        # Once both private cards are out and until the end: the same classes.
        playing = {h: s for h, s in seen.items() if h not in terminal and h.count(",") >= 1}
        ours = _classes({h: s[1][player] for h, s in playing.items()})
        theirs = _classes({h: s[2][player] for h, s in playing.items()})
        assert ours == theirs
        # During the deal OpenSpiel keys seat 1's information alike before and after seat 0's card is out;
        # ours tells the two apart (seat 1 sees a card dealt). That is the one difference.
        dealing = {h: s for h, s in seen.items() if h.count(",") == 0}
        ours_deal = _classes({h: s[1][player] for h, s in dealing.items()})
        theirs_deal = _classes({h: s[2][player] for h, s in dealing.items()})
        if player == 0:
            assert ours_deal == theirs_deal
        else:
            assert theirs_deal == {frozenset(dealing)}
            assert ours_deal == {frozenset({""}), frozenset(dealing) - {""}}
        ended = {h: s for h, s in seen.items() if h in terminal}
        ours_end = _classes({h: s[1][player] for h, s in ended.items()})
        theirs_end = _classes({h: s[2][player] for h, s in ended.items()})
        assert all(any(mine <= group for group in theirs_end) for mine in ours_end)  # a refinement
        acting = {h: s for h, s in seen.items() if s[0] == player}
        counts.append((len(_classes({h: s[1][player] for h, s in acting.items()})), len(ours), len(theirs)))
        folded = {h for h in ended if LEDUC.outcome(_replay(h)).winners and _folded(h)}
        assert {c for c in ours_end if c <= folded} == {c for c in theirs_end if c <= folded}
        assert len({c for c in ours_end if c <= folded}) > 0
    # Where each player acts: 468 information states each, OpenSpiel's 936 of two-player Leduc poker.
    assert counts == [(468, 966, 966), (468, 966, 966)]


def _replay(history: str) -> Any:
    state = LEDUC.new_game(2)
    encoding = LEDUC.encoding(2)
    for index in history.split(","):
        state = LEDUC.apply(state, encoding.decode(int(index), state))
    return state


def _folded(history: str) -> bool:
    return any(_replay(history).folded)


def test_a_resampled_state_keeps_the_seats_information_and_draws_every_hidden_card() -> None:
    game = pyspiel.load_game("python_leduc")
    state = game.new_initial_state()
    for action in (5, 0, 2):  # Kh to seat 0, Js to seat 1, seat 0 raises
        state.apply_action(action)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    drawn = [state.resample_from_infostate(1, sampler) for _ in range(200)]
    assert {other.information_state_string(1) for other in drawn} == {state.information_state_string(1)}
    assert {other.game_state.cards[1] for other in drawn} == {0}
    assert {other.game_state.cards[0] for other in drawn} == {1, 2, 3, 4, 5}
    assert state.game_state.cards == (5, 0)  # the state resampled from is unchanged


def test_the_state_as_text_shows_no_seats_card_until_the_showdown() -> None:
    state = pyspiel.load_game("python_leduc").new_initial_state()
    for action in (5, 0):
        state.apply_action(action)
    assert "Kh" not in str(state)
    assert "Js" not in str(state)
    for action in (1, 1, 3, 1, 1):  # check, check; Qh turned up; check, check: a showdown
        state.apply_action(action)
    assert state.is_terminal()
    assert "Kh" in str(state)
    assert "Js" in str(state)
    assert state.returns() == [1.0, -1.0]  # the antes: Kh beats Js


@pytest.mark.slow
def test_cfr_on_the_adapter_reaches_the_same_nash_conv_as_on_openspiels_game() -> None:
    """20 iterations of CFR on each; NashConv of the average policies equal to 1e-9 (about a minute)."""
    from open_spiel.python.algorithms import cfr, exploitability

    figures = []
    for name in ("python_leduc", "leduc_poker"):
        game = pyspiel.load_game(name)
        solver = cfr.CFRSolver(game)
        for _ in range(20):
            solver.evaluate_and_update_policy()
        figures.append(exploitability.nash_conv(game, solver.average_policy()))
    assert figures[0] == pytest.approx(figures[1], abs=1e-9)
    assert 0.5 < figures[0] < 1.5  # 0.906 at 20 iterations: far from 0, so the agreement says something


def test_ismcts_plays_on_the_adapter() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_leduc")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 60, random_state=rng)
    python_rng = random.Random(7)
    totals = [0.0, 0.0]
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(python_rng.choices(actions, odds)[0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(python_rng.choice(state.legal_actions()))
        totals = [a + b for a, b in zip(totals, state.returns(), strict=True)]
    assert totals[0] == -totals[1]


def test_random_sim_test_passes() -> None:
    for players in (2, 3):
        pyspiel.random_sim_test(
            pyspiel.load_game("python_leduc", {"players": players}), num_sims=20, serialize=True, verbose=False
        )
