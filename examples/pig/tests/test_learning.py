"""Pig through the library's RL adapters, checked by each framework's own suite, and against OpenSpiel's C++ pig."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import pyspiel
import pytest
from cheekymonkey.rl.gymnasium_env import ENV_ID, SoloEnv
from cheekymonkey.rl.openspiel_game import SpielGame, load, spiel_name
from cheekymonkey.rl.pettingzoo_env import env
from gymnasium.utils.env_checker import check_env
from pettingzoo import test as pettingzoo_test

from cheekymonkey_pig import PIG, Rules

SPIEL = spiel_name("pig")
# api_test keeps name lists of PettingZoo's own environments that may observe a dict; any other
# environment with dict observations (observation + action_mask) gets these two.
_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _warnings_of(check: Callable[[], object]) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


# -- OpenSpiel ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_openspiels_random_sim_test_passes_with_serialization(players: int) -> None:
    """OpenSpiel's own checks of the adapter's game, the short rules at every seat count."""
    game = pyspiel.load_game(SPIEL, {"players": players, "rules": "short"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiels_random_sim_test_passes_the_standard_game_and_a_rule_set_of_its_own() -> None:
    """The standard game, and a custom rule set that travels in the game string as a JSON document."""
    pyspiel.random_sim_test(pyspiel.load_game(SPIEL), num_sims=2, serialize=True, verbose=False)
    tiny = Rules(winscore=15, diceoutcomes=4, horizon=10)
    game = load(players=3, rules=tiny, game="pig")
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.ruleset == tiny
    pyspiel.random_sim_test(again, num_sims=5, serialize=True, verbose=False)


def test_the_adapter_is_registered_with_the_sizes_of_openspiels_pig() -> None:
    ours = pyspiel.load_game(SPIEL, {"players": 4})
    theirs = pyspiel.load_game("pig", {"players": 4})
    assert isinstance(ours, SpielGame)
    assert ours.game is PIG
    assert (ours.num_players(), ours.num_distinct_actions(), ours.max_chance_outcomes()) == (
        theirs.num_players(),
        theirs.num_distinct_actions(),
        theirs.max_chance_outcomes(),
    )


@pytest.mark.parametrize(
    ("players", "rules"), [(2, Rules(winscore=30)), (3, Rules(winscore=20, horizon=16)), (6, Rules())]
)
def test_the_adapter_and_openspiels_pig_play_the_same_games_index_for_index(players: int, rules: Rules) -> None:
    """Same indices in both: players, legal actions, chance odds, ends and returns (Pig's stakes, OpenSpiel's) agree."""
    ours_game = load(players=players, rules=rules, game="pig")
    params = {"players": players, "winscore": rules.winscore, "diceoutcomes": rules.diceoutcomes}
    theirs_game = pyspiel.load_game("pig", {**params, "horizon": rules.horizon})
    rng = random.Random(players)
    ends = set()
    for _ in range(40):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            assert ours.current_player() == theirs.current_player()
            assert ours.legal_actions() == theirs.legal_actions()
            if theirs.is_chance_node():
                mine, other = ours.chance_outcomes(), theirs.chance_outcomes()
                assert [index for index, _ in mine] == [index for index, _ in other]
                assert [p for _, p in mine] == pytest.approx([p for _, p in other])
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
        assert ours.is_terminal()
        assert not ours.truncated  # the horizon is Pig's own end, not the adapter's cut-off
        assert ours.returns() == pytest.approx(theirs.returns(), abs=1e-12)
        ends.add(max(theirs.returns()))
    assert 1.0 in ends  # games won
    if rules.horizon < 100:
        assert 0.0 in ends  # and games stopped at the horizon
    assert (ours_game.min_utility(), ours_game.max_utility(), ours_game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert ours_game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


# -- PettingZoo --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_pettingzoos_api_test_passes(players: int) -> None:
    aec = env(players=players, game="pig", ruleset="short")
    found = _warnings_of(lambda: pettingzoo_test.api_test(aec, num_cycles=300))
    assert found <= _DICT_OBSERVATION_WARNINGS, found - _DICT_OBSERVATION_WARNINGS
    assert aec.unwrapped.metadata["name"] == "pig_v0"


def test_pettingzoos_seed_test_passes() -> None:
    found = _warnings_of(lambda: pettingzoo_test.seed_test(lambda: env(players=3, game="pig"), num_cycles=300))
    assert not found


# -- Gymnasium ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_gymnasiums_check_env_passes(players: int) -> None:
    """Gymnasium's own checker, the learner against random bots, with no warning."""
    kwargs: dict[str, Any] = {"players": players, "game": "pig", "opponents": ["random"] * (players - 1)}
    if players == 3:
        kwargs.update(render_mode="ansi", ruleset="short")
    solo = gymnasium.make(ENV_ID, disable_env_checker=True, **kwargs).unwrapped
    assert isinstance(solo, SoloEnv)
    assert not _warnings_of(lambda: check_env(solo))
    observation, info = solo.reset(seed=1)
    assert observation.tolist() == list(solo.encoding.observe(solo.game_state, solo.seat))
    assert info["action_mask"].tolist() == [1, 1]
