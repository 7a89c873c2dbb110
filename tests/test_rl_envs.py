"""The PettingZoo and Gymnasium environments: their frameworks' own checks, seeding, rewards, errors."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is part of dev")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is part of dev")
pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the rl extra is part of dev")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from cheekymonkey import (  # noqa: E402
    Animal,
    IllegalActionError,
    InvalidGameError,
    InvalidValueError,
    Phase,
    RandomBot,
    Ruleset,
)
from cheekymonkey.rl import ActionCodec, observe, returns  # noqa: E402
from cheekymonkey.rl.gymnasium_env import ENV_ID, CheekyMonkeySoloEnv  # noqa: E402
from cheekymonkey.rl.pettingzoo_env import CheekyMonkeyEnv, env  # noqa: E402

# api_test keeps name lists of PettingZoo's own environments that may observe a dict; any other
# environment with dict observations, as action-masking learners expect (observation + action_mask), gets these two.
_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _warnings_of(check: Any) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


@pytest.mark.parametrize(("players", "observation"), [(2, "full"), (3, "table"), (6, "full")])
def test_pettingzoo_api_test_passes(players: int, observation: str) -> None:
    aec = CheekyMonkeyEnv(players=players, observation=observation, render_mode="ansi")
    found = _warnings_of(lambda: pettingzoo_test.api_test(aec, num_cycles=300))
    assert found <= _DICT_OBSERVATION_WARNINGS, found - _DICT_OBSERVATION_WARNINGS


def test_pettingzoo_seed_test_passes() -> None:
    found = _warnings_of(lambda: pettingzoo_test.seed_test(lambda: env(players=3), num_cycles=300))
    assert not found


def _play_aec(aec: CheekyMonkeyEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    totals: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            aec.step(None)
            continue
        assert reward == 0  # zero rewards before the end
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        chosen.append(action)
        aec.step(action)
    return chosen, totals


def test_pettingzoo_rewards_are_the_returns_at_the_end_and_a_seed_repeats_a_game() -> None:
    aec = CheekyMonkeyEnv(players=3)
    first, totals = _play_aec(aec, 11)
    assert aec.game_state.phase is Phase.OVER
    assert totals == {f"player_{seat}": value for seat, value in enumerate(returns(aec.game_state))}
    again, _ = _play_aec(aec, 11)
    other, _ = _play_aec(aec, 12)
    assert again == first
    assert other != first


def test_pettingzoo_observations_and_masks_are_the_librarys() -> None:
    aec = CheekyMonkeyEnv(players=2, observation="table")
    aec.reset(seed=0)
    state = aec.game_state
    mover = f"player_{state.seat}"
    waiting = f"player_{1 - state.seat}"
    assert aec.observe(mover)["observation"].tolist() == list(observe(state, state.seat, "table"))
    assert aec.observe(mover)["action_mask"].tolist() == [int(b) for b in ActionCodec(2).action_mask(state)]
    assert not aec.observe(waiting)["action_mask"].any()


def test_pettingzoo_illegal_actions_raise_and_change_nothing() -> None:
    aec = CheekyMonkeyEnv(players=2, render_mode="ansi")
    aec.reset(seed=0)
    before = aec.game_state
    illegal = [i for i, ok in enumerate(aec.observe(aec.agent_selection)["action_mask"]) if not ok]
    with pytest.raises(IllegalActionError):
        aec.step(illegal[0])
    with pytest.raises(InvalidValueError):
        aec.step(99)
    with pytest.raises(InvalidValueError):
        aec.step(None)
    assert aec.game_state is before
    board = aec.render()
    assert board is not None
    assert "bag" in board
    assert CheekyMonkeyEnv(players=2).render() is None
    with pytest.raises(InvalidValueError):
        CheekyMonkeyEnv(render_mode="human")
    with pytest.raises(InvalidValueError):
        CheekyMonkeyEnv(max_decisions=0)


def test_pettingzoo_truncates_a_game_at_max_decisions() -> None:
    aec = CheekyMonkeyEnv(players=2, max_decisions=3)
    chosen, totals = _play_aec(aec, 4)
    assert len(chosen) == 3
    assert aec.game_state.phase is not Phase.OVER
    assert totals == {"player_0": 0.0, "player_1": 0.0}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 3, "seat": 2, "observation": "table", "render_mode": "ansi"},
        {"players": 4, "seat": 1, "opponents": [RandomBot(), RandomBot(), RandomBot()]},
    ],
)
def test_gymnasium_check_env_passes(kwargs: dict[str, Any]) -> None:
    solo = gymnasium.make(ENV_ID, disable_env_checker=True, **kwargs).unwrapped
    assert not _warnings_of(lambda: check_env(solo))


def _episode(solo: CheekyMonkeySoloEnv, seed: int) -> tuple[list[int], float, int]:
    observation, info = solo.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    while True:
        assert solo.game_state.seat == solo.seat
        assert solo.game_state.phase in (Phase.DECIDE, Phase.PLACING)
        assert info["action_mask"].tolist() == solo.action_masks().astype(int).tolist()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        chosen.append(action)
        observation, reward, terminated, truncated, info = solo.step(action)
        assert observation.tolist() == list(observe(solo.game_state, solo.seat))
        if terminated or truncated:
            return chosen, float(reward), len(chosen)
        assert reward == 0


def test_gymnasium_episode_reward_is_the_learners_return_and_a_seed_repeats_it() -> None:
    solo = CheekyMonkeySoloEnv(players=3, seat=1)
    chosen, reward, _ = _episode(solo, 8)
    assert solo.game_state.phase is Phase.OVER
    assert reward == returns(solo.game_state)[1]
    assert _episode(solo, 8)[0] == chosen
    assert _episode(solo, 9)[0] != chosen


def test_gymnasium_illegal_actions_lose_or_raise() -> None:
    solo = CheekyMonkeySoloEnv(players=2)
    _, info = solo.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = solo.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert not solo.action_masks().any()
    with pytest.raises(InvalidValueError, match="reset"):
        solo.step(0)
    strict = CheekyMonkeySoloEnv(players=2, illegal_action="raise")
    strict.reset(seed=1)
    before = strict.game_state
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.game_state is before
    bads: list[dict[str, Any]] = [{"seat": 2}, {"opponents": []}, {"illegal_action": "x"}, {"render_mode": "human"}]
    for bad in bads:
        with pytest.raises(InvalidValueError):
            CheekyMonkeySoloEnv(players=2, **bad)


def test_gymnasium_truncates_at_max_decisions() -> None:
    solo = CheekyMonkeySoloEnv(players=2, max_decisions=1)
    _, info = solo.reset(seed=2)
    draw = 0
    assert info["action_mask"][draw]
    _, reward, terminated, truncated, _ = solo.step(draw)
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_gymnasium_deals_again_when_a_tiny_game_ends_before_the_learner_acts() -> None:
    tiny = Ruleset.custom({Animal.ELEPHANT: 1, Animal.SEAL: 1})
    solo = CheekyMonkeySoloEnv(players=2, seat=1, ruleset=tiny, opponents=[RandomBot()])
    for seed in range(20):
        solo.reset(seed=seed)
        assert solo.game_state.seat == 1
        assert solo.game_state.phase is Phase.DECIDE
    never = CheekyMonkeySoloEnv(players=2, seat=1, ruleset=Ruleset.custom({Animal.ELEPHANT: 1}))
    with pytest.raises(InvalidGameError):
        never.reset(seed=0)
