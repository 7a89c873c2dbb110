"""Scaled observations: each entry divided by its declared bound, float32 in [0, 1], the same in every adapter.

The pure-Python quotients (:func:`~cheekymonkey.rl.episodes.scaled_observation`), numpy's float32 division,
Gymnasium's, PettingZoo's and OpenSpiel's tensors are compared bit for bit; each framework's own checks run on
the scaled environments of both games at 2 to 6 seats.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any, cast

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.observation import make_observation
from pettingzoo import test as pettingzoo_test

from cheekymonkey import Animal, InvalidValueError, Ruleset
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.rl.episodes import observation_divisors, scaled, scaled_observation
from cheekymonkey.rl.gymnasium_env import ENV_ID, SoloEnv
from cheekymonkey.rl.openspiel_game import load, spiel_name
from cheekymonkey.rl.pettingzoo_env import GameEnv, env
from cheekymonkey.simulation import PolicyBot

_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
_MOST_GAMES = 10
"""The most seeded games each adapter plays to give more than 30 observations between them."""


def _warnings_of(check: Callable[[], object]) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


def _states(name: str, players: int, count: int, seed: int) -> list[Any]:
    """Decision states of seeded random games: varied positions to observe."""
    game = game_named(name)
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_game(players)
        while not game.is_terminal(state) and len(states) < count:
            if game.is_chance_node(state):
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                states.append(state)
                state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    return states


def _expected(encoding: Any, state: Any, seat: int | None) -> np.ndarray[Any, Any]:
    """The scaled observation computed the plainest way: float32 numbers divided in float32 by float32 bounds."""
    raw = np.array(encoding.observe(state, seat), np.float32)
    return raw / np.array(encoding.observation_bounds, np.float32)


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_scaled_observations_are_the_entries_over_their_bounds_bit_for_bit(name: str, players: int) -> None:
    """The pure-Python quotients and every adapter's float32 arrays equal numpy's float32 division exactly.

    Each adapter plays a seeded game of random legal moves, and every observation it gives is checked; each
    plays another game while the three have given 30 observations or fewer (a game of short games, such as
    Leduc poker's hands, needs several), up to a cap.
    """
    game = game_named(name)
    encoding = game.encoding(players)
    rng = random.Random(players)

    def check(state: Any, seat: int | None, given: Any) -> None:
        expected = _expected(encoding, state, seat)
        assert np.asarray(given, np.float32).tobytes() == expected.tobytes()
        assert np.array(scaled_observation(encoding, state, seat), np.float32).tobytes() == expected.tobytes()
        assert float(expected.min()) >= 0.0
        assert float(expected.max()) <= 1.0
        inside.update(float(value) for value in expected if 0.0 < value < 1.0)

    inside: set[float] = set()
    solo = SoloEnv(players=players, seat=1, game=name, opponents=["random"] * (players - 1), scaled=True)
    box = solo.observation_space
    assert isinstance(box, gymnasium.spaces.Box)
    assert np.array_equal(box.high, np.ones(encoding.observation_size, np.float32))
    aec = GameEnv(players=players, game=name, scaled=True)
    spaces = aec.observation_space("player_0")
    assert isinstance(spaces, gymnasium.spaces.Dict)
    agent_box = spaces["observation"]
    assert isinstance(agent_box, gymnasium.spaces.Box)
    assert np.array_equal(agent_box.high, box.high)
    spiel = load(players=players, game=name, scaled=True)
    observer = make_observation(spiel)
    steps = 0
    for number in range(_MOST_GAMES):
        seed = players + 100 * number
        observation, info = solo.reset(seed=seed)
        while True:
            check(solo.game_state, 1, observation)
            steps += 1
            observation, _, terminated, truncated, info = solo.step(rng.choice(np.flatnonzero(info["action_mask"])))
            if terminated or truncated:
                check(solo.game_state, 1, observation)
                break

        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            check(aec.game_state, aec.possible_agents.index(agent), observation["observation"])
            steps += 1
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(None if terminated or truncated else int(rng.choice(legal)))

        state = spiel.new_initial_state()
        while not state.is_terminal():
            for seat in range(players):
                check(state.game_state, seat, state.observation_tensor(seat))
                observer.set_from(state, seat)
                check(state.game_state, seat, observer.tensor)
            steps += 1
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if steps > 30:
            break
    assert steps > 30, f"{_MOST_GAMES} games in each adapter gave only {steps} observations"
    assert len(inside) > 3  # entries strictly between 0 and 1: the scaling did something


def test_a_bound_of_zero_divides_by_one_and_bad_options_are_refused() -> None:
    """An entry that can only be 0 keeps 0; scaled must be a bool in every adapter."""
    assert scaled((0, 2), (0, 4)) == (0.0, 0.5)
    assert scaled((0, 2), observation_divisors(cast(Any, _Bounds((0, 4))))) == (0.0, 0.5)
    for make in (
        lambda: SoloEnv(scaled=1),  # type: ignore[arg-type]
        lambda: GameEnv(scaled="yes"),  # type: ignore[arg-type]
        lambda: load(scaled=None),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidValueError, match="scaled"):
            make()
    with pytest.raises(pyspiel.SpielError, match="scaled"):  # OpenSpiel checks a parameter's type itself
        pyspiel.load_game(spiel_name("cheeky-monkey"), {"scaled": 1})
    with pytest.raises(InvalidValueError, match="scaled"):
        load().make_py_observer(params={"scaled": "yes"})


class _Bounds:
    """Stands for an encoding in observation_divisors: only its bounds are read."""

    def __init__(self, bounds: tuple[int, ...]) -> None:
        self.observation_bounds = bounds


def test_a_custom_rule_set_scales_by_its_own_bounds() -> None:
    """A small bag lowers the bounds, and the scaled observation divides by those."""
    mini = Ruleset.custom({Animal.ELEPHANT: 2, Animal.SEAL: 3, Animal.MONKEY: 4}, name="mini")
    solo = SoloEnv(players=2, seat=0, ruleset=mini, observation="table", scaled=True)
    raw = SoloEnv(players=2, seat=0, ruleset=mini, observation="table")
    observation, _ = solo.reset(seed=5)
    plain, _ = raw.reset(seed=5)
    bounds = np.array(solo.encoding.observation_bounds, np.float32)
    assert observation.tobytes() == (plain / bounds).astype(np.float32).tobytes()
    assert max(solo.encoding.observation_bounds) < max(game_named("cheeky-monkey").encoding(2).observation_bounds)


def test_a_policy_gets_the_scaled_observation_the_environment_gives() -> None:
    """PolicyBot(scaled=True) hands the policy exactly the learner's scaled observation and mask."""
    seen: list[tuple[bytes, list[bool]]] = []

    def policy(observation: Any, mask: Any) -> int:
        seen.append((observation.tobytes(), mask.tolist()))
        return int(np.flatnonzero(mask)[0])

    game = game_named("too-many-monkeys")
    bot = PolicyBot(policy, game, scaled=True)
    solo = SoloEnv(players=3, seat=1, game="too-many-monkeys", scaled=True)
    observation, info = solo.reset(seed=9)
    bot.choose(solo.game_state, random.Random(0))
    assert seen == [(observation.tobytes(), info["action_mask"].astype(bool).tolist())]


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_frameworks_checks_pass_on_the_scaled_adapters(name: str, players: int) -> None:
    """check_env, api_test, seed_test and OpenSpiel's random_sim_test, scaled, both games, 2 to 6 seats."""
    kwargs: dict[str, Any] = {"players": players, "game": name, "opponents": ["random"] * (players - 1)}
    solo = gymnasium.make(ENV_ID, disable_env_checker=True, scaled=True, **kwargs).unwrapped
    assert isinstance(solo, SoloEnv)
    assert solo.scaled
    assert not _warnings_of(lambda: check_env(solo))
    found = _warnings_of(lambda: pettingzoo_test.api_test(env(players=players, game=name, scaled=True), num_cycles=150))
    assert found <= _DICT_OBSERVATION_WARNINGS, found - _DICT_OBSERVATION_WARNINGS
    assert not _warnings_of(
        lambda: pettingzoo_test.seed_test(lambda: env(players=players, game=name, scaled=True), num_cycles=150)
    )
    pyspiel.random_sim_test(load(players=players, game=name, scaled=True), num_sims=1, serialize=True, verbose=False)
