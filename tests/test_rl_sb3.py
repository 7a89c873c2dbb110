"""sb3-contrib's MaskablePPO on the vector environment through cheekymonkey.rl.sb3.MaskableVecEnv, and the adapter.

The training runs are seeded and single-threaded (``torch.set_num_threads(1)``), so each is the same on every
run: its figures are checked against ranges that run hits, with a wide margin over the random policy's.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from cheekymonkey import Animal, Ruleset
from cheekymonkey.batched import random_legal_actions, seed_streams
from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.rl.gymnasium_env import ENV_ID
from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv
from cheekymonkey.rl.sb3 import MaskableVecEnv

SMALL = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})
"""A short Cheeky Monkey (about 8 decisions a game for the learner): a few thousand steps teach it something."""

GAMES: dict[str, dict[str, Any]] = {
    "cheeky-monkey": {"game": "cheeky-monkey", "ruleset": SMALL},
    "too-many-monkeys": {"game": "too-many-monkeys"},
}


class Checked(MaskableVecEnv):
    """Records every mask the learner is handed, and checks each.

    Never an all-False row; where the learner decides, its legal actions.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.masks_handed = 0
        self.decisions = 0

    def action_masks(self) -> list[npt.NDArray[np.bool_]]:
        masks = super().action_masks()
        states = self.envs.states
        deciding = self.envs._status == 0
        for i, mask in enumerate(masks):
            assert mask.any(), f"game {i}: an all-False mask"
            if deciding[i]:
                assert np.array_equal(mask, states.legal_action_mask[i])
                assert states.current_player[i] == self.envs.seats[i]
        self.masks_handed += 1
        self.decisions += int(np.count_nonzero(deciding))
        return masks


def train(game: str, steps: int, seed: int = 1) -> tuple[MaskablePPO, Checked]:
    torch.set_num_threads(1)
    envs = Checked(16, players=2, opponents="random", seat=0, scaled=True, illegal_action="raise", **GAMES[game])
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        seed=seed,
        n_steps=128,
        batch_size=256,
        n_epochs=4,
        learning_rate=1e-3,
        policy_kwargs={"net_arch": [64, 64]},
        device="cpu",
    )
    model.learn(steps)
    return model, envs


def mean_return(game: str, model: MaskablePPO | None, episodes: int = 1000, seed: int = 7) -> float:
    """The learner's mean return over ``episodes`` seeded games: the trained policy's greedy choice, or random."""
    envs = MaskableVecEnv(
        100, players=2, opponents="random", seat=0, scaled=True, illegal_action="raise", **GAMES[game]
    )
    envs.seed(seed)
    observations: Any = envs.reset()
    streams = seed_streams(seed, 100)
    returns: list[float] = []
    while len(returns) < episodes:
        masks = np.stack(envs.action_masks())
        if model is None:
            actions = random_legal_actions(masks, streams)
        else:
            actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
        observations, _, done, infos = envs.step(actions)
        returns += [infos[i]["episode"]["r"] for i in np.flatnonzero(done)]
    return float(np.mean(returns[:episodes]))


TRAINED: dict[str, tuple[float, float]] = {"cheeky-monkey": (0.76, 0.88), "too-many-monkeys": (0.72, 0.84)}
"""The greedy trained policy's mean return over the seeded evaluation, for each game: the seeded run made 0.8195
(Cheeky Monkey, short rules) and 0.776 (Too Many Monkeys) with torch 2.13.0, Stable-Baselines3 and sb3-contrib
2.9.2; the random policy made 0.4725 and 0.498 (random bots, two seats: about even)."""


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_maskable_ppo_learns_to_beat_a_random_policy_without_an_illegal_action(game: str) -> None:
    """8,192 seeded steps of MaskablePPO against random bots: it learns, never illegally.

    No illegal action (they would raise), no all-False mask, and a greedy policy that wins measurably more than
    the random one over 1,000 seeded games.
    """
    model, envs = train(game, 8192)
    assert envs.masks_handed == 8192 // 16  # one mask per game at every step, each checked
    assert envs.decisions >= 0.99 * 8192  # nearly every step is the learner's decision (same-step reset)
    trained, random = mean_return(game, model), mean_return(game, None)
    low, high = TRAINED[game]
    assert low <= trained <= high
    assert 0.45 <= random <= 0.55
    assert trained >= random + 0.2


@pytest.mark.slow
def test_a_seeded_run_is_the_same_twice() -> None:
    """Seeded and single-threaded, two runs of MaskablePPO end with the same weights."""
    first, _ = train("cheeky-monkey", 2048, seed=3)
    second, _ = train("cheeky-monkey", 2048, seed=3)
    other, _ = train("cheeky-monkey", 2048, seed=4)
    weights = [model.policy.state_dict() for model in (first, second, other)]
    assert all(torch.equal(weights[0][name], weights[1][name]) for name in weights[0])
    assert not all(torch.equal(weights[0][name], weights[2][name]) for name in weights[0])


def play(envs: VecEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    streams = seed_streams(seed, envs.num_envs)
    out = []
    for _ in range(steps):
        masks = np.stack(envs.env_method("action_masks"))
        out.append((masks, *envs.step(random_legal_actions(masks, streams))))
    return out


def test_the_step_that_ends_an_episode_returns_the_next_games_first_observation() -> None:
    """Same-step reset: done, with the episode's last observation in terminal_observation.

    The next game's first observation is returned in its place; the episode's return and length are in info.
    """
    inner = SoloVectorEnv(8, players=3, opponents="random", ruleset=SMALL, max_turns=6)
    envs = MaskableVecEnv(inner)
    envs.seed(5)
    observations: Any = envs.reset()
    assert observations.shape == (8, inner.engine.observation_size)
    ends = truncations = 0
    streams = seed_streams(6, 8)
    for _ in range(200):
        masks = np.stack(envs.action_masks())
        assert masks.any(axis=1).all()
        before, seats = inner.states.current_player.copy(), inner.seats.copy()
        observations, rewards, done, infos = envs.step(random_legal_actions(masks, streams))
        assert len(infos) == 8
        for i in range(8):
            assert infos[i]["seat"] == seats[i]  # the episode's seat, where it ended too
            if done[i]:
                ends += 1
                last = infos[i]["terminal_observation"]
                assert last.shape == observations[i].shape
                assert not np.array_equal(last, observations[i]) or before[i] < 0
                episode = infos[i]["episode"]
                assert episode["r"] == pytest.approx(float(rewards[i]))
                assert episode["l"] >= 1
                truncations += infos[i]["TimeLimit.truncated"]
                # The next game is dealt at once: its learner decides now, or its end comes at the next step.
                assert inner._status[i] in (0, 2)
            else:
                assert "terminal_observation" not in infos[i]
                assert rewards[i] == 0.0
    assert ends > 50
    assert 0 < truncations < ends  # max_turns cuts some games off, and PPO is told to bootstrap those


def test_the_adapter_is_the_same_with_the_same_seed_and_through_make_vec() -> None:
    """A seeded adapter plays the same; one over gymnasium.make_vec's environment, under VecMonitor, too."""
    options: dict[str, Any] = {"players": 2, "opponents": "random", "ruleset": SMALL}
    first = MaskableVecEnv(6, **options)
    second = VecMonitor(MaskableVecEnv(gymnasium.make_vec(ENV_ID, num_envs=6, **options)))
    for envs in (first, second):
        envs.seed(2)
        envs.reset()
    one, two = play(first, 40, 3), play(second, 40, 3)
    for x, y in zip(one, two, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(x[:4], y[:4], strict=True))
    assert sum(int(x[3].sum()) for x in one) > 0
    assert any("episode" in info for x in two for info in x[4])


def test_what_sb3_asks_of_a_vec_env() -> None:
    """Masking is found, attributes and methods are the vector environment's, the spaces are one game's."""
    envs = MaskableVecEnv(4, players=2, opponents="random")
    assert envs.observation_space == envs.envs.single_observation_space
    assert envs.action_space == gymnasium.spaces.Discrete(envs.envs.engine.num_actions)
    assert envs.has_attr("action_masks")
    assert not envs.has_attr("no_such_attribute")
    assert envs.get_attr("players") == [2, 2, 2, 2]
    assert envs.get_attr("players", indices=[1, 3]) == [2, 2]
    envs.set_attr("illegal_reward", -2.0)
    assert envs.envs.illegal_reward == -2.0
    assert envs.env_is_wrapped(gymnasium.Wrapper) == [False] * 4
    envs.reset()
    masks = envs.env_method("action_masks", indices=[0, 2])
    assert len(masks) == 2
    assert np.array_equal(masks[1], envs.envs.action_masks()[2])
    envs.close()


def test_an_illegal_action_loses_or_raises() -> None:
    """Under "lose" the episode ends with illegal_reward and info says so; under "raise" IllegalActionError."""
    envs = MaskableVecEnv(3, players=2, opponents="random", seat=0)
    envs.reset()
    masks = np.stack(envs.action_masks())
    illegal = np.argmin(masks, axis=1)
    assert not masks[0, illegal[0]]
    _, rewards, done, infos = envs.step(np.where(np.arange(3) == 0, illegal, np.argmax(masks, axis=1)))
    assert done[0]
    assert rewards[0] == -1.0
    assert infos[0]["illegal"]
    assert "illegal" not in infos[1]
    strict = MaskableVecEnv(3, players=2, opponents="random", seat=0, illegal_action="raise")
    strict.reset()
    masks = np.stack(strict.action_masks())
    with pytest.raises(IllegalActionError):
        strict.step(np.argmin(masks, axis=1))


@pytest.mark.parametrize(
    ("envs", "options"),
    [
        (0, {}),
        ("8", {}),
        (2.5, {}),
        (4, {"players": 9}),
        (4, {"opponents": "nobody"}),
        (SoloVectorEnv(2), {"players": 2}),
        (gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(ENV_ID)]), {}),
    ],
)
def test_bad_arguments_are_refused(envs: Any, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidValueError):
        MaskableVecEnv(envs, **options)


def test_bad_steps_and_indices_are_refused() -> None:
    envs = MaskableVecEnv(3, players=2, opponents="random")
    envs.reset()
    with pytest.raises(InvalidValueError, match="step_async"):
        envs.step_wait()
    with pytest.raises(InvalidValueError, match="actions"):
        envs.step(np.zeros(2, np.int64))
    with pytest.raises(InvalidValueError, match="index"):
        envs.get_attr("players", indices=[5])
    _, _, _, _ = envs.step(np.argmax(np.stack(envs.action_masks()), axis=1)[:, None])  # a column is taken too


def test_sb3_contribs_evaluate_policy_takes_the_adapter() -> None:
    """sb3-contrib's masked evaluate_policy plays whole episodes on it: each return a share of one game's win."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    torch.set_num_threads(1)
    envs = MaskableVecEnv(8, players=2, opponents="random", seat=0, ruleset=SMALL, scaled=True)
    model = MaskablePPO("MlpPolicy", envs, n_steps=32, batch_size=64, seed=1, device="cpu")
    evaluation = MaskableVecEnv(8, players=2, opponents="random", seat=0, ruleset=SMALL, scaled=True)
    evaluation.seed(3)
    returns, lengths = evaluate_policy(model, evaluation, n_eval_episodes=40, warn=False, return_episode_rewards=True)
    assert isinstance(returns, list)
    assert isinstance(lengths, list)
    assert len(returns) == len(lengths) == 40
    assert set(returns) <= {0.0, 0.5, 1.0}
    assert min(lengths) >= 1
