"""The OpenSpiel game: OpenSpiel's own checks, chance nodes, serialization, observations and its MCTS bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is part of dev")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from cheekymonkey import IllegalActionError, InvalidValueError, Phase, Ruleset, chance_outcomes  # noqa: E402
from cheekymonkey.rl import ActionCodec, observe, returns  # noqa: E402
from cheekymonkey.rl.openspiel_game import GAME_NAME, CheekyMonkeyGame, load  # noqa: E402
from cheekymonkey.scoring import score_stacks  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("rules", Ruleset.preset_names())
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test_passes_with_serialization_for_every_preset_and_seat_count(rules: str, players: int) -> None:
    """OpenSpiel's own consistency checks: clone, serialize, legal actions sorted, masks, returns in range."""
    game = pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _play(game: Any, seed: int, visit: Callable[[Any], None] | None = None) -> Any:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if visit is not None:
            visit(state)
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_chance_nodes_have_the_engines_outcomes_and_probabilities() -> None:
    game = load(players=3)
    codec = ActionCodec(3)
    seen = []

    def check(state: Any) -> None:
        engine_state = state.game_state
        if engine_state.phase is Phase.CHANCE:
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            expected = [(codec.encode(reveal), float(p)) for reveal, p in chance_outcomes(engine_state)]
            assert state.chance_outcomes() == expected
            assert state.legal_actions() == [a for a, _ in expected]
            seen.append(len(expected))
        else:
            assert state.current_player() == engine_state.seat
            assert state.legal_actions() == list(codec.legal_indices(engine_state))

    final = _play(game, 1, check)
    assert seen
    assert max(seen) == 8
    assert final.returns() == list(returns(final.game_state))
    assert sum(final.returns()) == pytest.approx(1.0)


def test_serialization_round_trips_a_game_in_progress() -> None:
    game = load(players=4, rules="younger")
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(int(state.chance_outcomes()[0][0]))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert str(game_back) == str(game) == "python_cheeky_monkey(max_game_length=5000,players=4,rules=younger)"
    assert state_back.history() == state.history()
    assert state_back.game_state == state.game_state
    assert str(state_back) == str(state)


def test_observation_tensors_are_the_library_observations() -> None:
    game = load(players=2)
    state = game.new_initial_state()
    state.apply_action(3)  # Reveal(Giraffe)
    full = make_observation(game)
    table = make_observation(game, params={"observation": "table"})
    for player in (0, 1):
        full.set_from(state, player)
        table.set_from(state, player)
        assert full.tensor.tolist() == list(observe(state.game_state, player, "full"))
        assert table.tensor.tolist() == list(observe(state.game_state, player, "table"))
        assert state.observation_tensor(player) == full.tensor.tolist()
        assert state.information_state_tensor(player) == full.tensor.tolist()
    assert full.dict["bag"].tolist() == list(state.game_state.bag)
    assert "seat 0" in state.observation_string(0)


def test_an_illegal_index_raises_the_usual_error() -> None:
    state = load(players=2).new_initial_state()
    state.apply_action(0)  # Reveal(Elephant): now seat 0 decides, and there is nothing to claim
    with pytest.raises(IllegalActionError):
        state.apply_action(ActionCodec(2).claim_index(1))


def test_a_game_that_never_stops_is_cut_short_and_scored_on_its_stacks() -> None:
    game = load(players=2, max_game_length=6)
    state = _play(game, 3)
    engine_state = state.game_state
    assert state.truncated or engine_state.phase is Phase.OVER
    assert len([step for step in state.full_history() if step.player >= 0]) <= 6
    if state.truncated:
        expected = score_stacks(engine_state.stacks, engine_state.ruleset).winners
        winners = [seat for seat, value in enumerate(state.returns()) if value > 0]
        assert winners == list(expected)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_bad_parameters_are_refused() -> None:
    for params in ({"players": 7}, {"players": 1}, {"rules": "chess"}, {"max_game_length": 0}):
        with pytest.raises(InvalidValueError):
            CheekyMonkeyGame(params)
    with pytest.raises(InvalidValueError):
        load(rules="chess")
    with pytest.raises(InvalidValueError):
        make_observation(load(), params={"observation": "pixels"})


@pytest.mark.slow
def test_openspiels_mcts_bot_plays_a_whole_game_through_the_adapter() -> None:
    """OpenSpiel's MCTS (chance nodes sampled from chance_outcomes) plays seat 0 against uniform random play."""
    game = load(players=2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probabilities))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert moves > 0
    assert state.game_state.phase is Phase.OVER
    assert sum(state.returns()) == pytest.approx(1.0)
