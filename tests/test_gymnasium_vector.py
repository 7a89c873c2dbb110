"""The Gymnasium vector environment on the batched engine, against the scalar SoloEnv it stands for.

Gymnasium 1.x has no checker for vector environments (``gymnasium.utils.env_checker`` checks a single ``Env``),
so the tests here check what its single-environment checks ask, on every slot: observations in the space,
seeded determinism, no array handed back twice, and Gymnasium's NEXT_STEP autoreset. The games are the batched
engine's, not a seeded Table's, so the comparison with ``SoloEnv`` is of spaces, of every observation against
the scalar encoding of the same state, and of the episodes' statistics within their intervals.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest

from cheekymonkey import Animal, Ruleset
from cheekymonkey.batched import ENTRY_POINT_GROUP
from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.rl._arrays import Observations
from cheekymonkey.rl.episodes import NO_DECISION
from cheekymonkey.rl.gymnasium_env import ENV_ID, SoloEnv
from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv

SMALL = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})

BATCHED_GAMES = sorted(entry.name for entry in entry_points(group=ENTRY_POINT_GROUP))
"""The games with a batched engine: every test parametrized by game runs for each."""

RULES: dict[str, Any] = {"cheeky-monkey": SMALL}
"""A rule set per game that keeps its games short (the standard rules otherwise)."""


def test_every_game_with_a_batched_engine_registers_it() -> None:
    """A game package holding a batched module names it in the entry points, so make_vec and simulate find it."""
    assert "cheeky-monkey" in BATCHED_GAMES
    for name in GAME_NAMES:
        package = type(game_named(name)).__module__.rpartition(".")[0]
        if importlib.util.find_spec(f"{package}.batched") is not None:
            assert name in BATCHED_GAMES, f"{package}.batched is not in the entry points' {ENTRY_POINT_GROUP}"


def random_actions(masks: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal index per slot (0 where nothing is legal)."""
    return np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks], np.int64)


def stop_first(mask: npt.NDArray[np.bool_]) -> int:
    """A fixed policy, far from random: stop (index 1) when it may, else the lowest legal index."""
    if mask[1]:
        return 1
    legal = np.flatnonzero(mask)
    return int(legal[0]) if legal.size else 0


@pytest.mark.parametrize(("players", "observation", "scaled"), [(2, None, False), (3, "table", True), (6, None, True)])
def test_make_vec_builds_the_batched_env_with_soloenvs_spaces(
    players: int, observation: str | None, scaled: bool
) -> None:
    """The registered id's vector entry point is the batched env; its single spaces are SoloEnv's exactly."""
    envs = gymnasium.make_vec(ENV_ID, num_envs=5, players=players, observation=observation, scaled=scaled)
    assert isinstance(envs, SoloVectorEnv)
    assert envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    single = SoloEnv(players=players, opponents=["random"] * (players - 1), observation=observation, scaled=scaled)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (5, envs.engine.observation_size)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([envs.engine.num_actions] * 5)
    synced = gymnasium.make_vec(
        ENV_ID, num_envs=2, vectorization_mode="sync", players=players, opponents=["random"] * (players - 1)
    )
    assert synced.single_action_space == envs.single_action_space
    synced.close()


@pytest.mark.parametrize("game", BATCHED_GAMES)
@pytest.mark.parametrize(("players", "scaled", "seat"), [(2, False, None), (3, True, 1), (4, False, 3)])
def test_every_observation_and_mask_is_the_scalar_encodings_of_the_same_state(
    game: str, players: int, scaled: bool, seat: int | None
) -> None:
    """Each slot's observation is SoloEnv's vector of its game's state, raw or scaled, bit for bit.

    At every step, from the learner's seat; its mask is the scalar mask, and the learner is the one to move.
    """
    envs = SoloVectorEnv(6, players=players, seat=seat, ruleset=RULES.get(game), scaled=scaled, max_turns=12, game=game)
    observe = Observations(envs.engine.encoding, scaled)
    encoding = envs.engine.encoding
    played = envs.game
    rng = np.random.default_rng(1)
    observations, infos = envs.reset(seed=3)
    seen_seats = set()
    for _ in range(150):
        assert envs.observation_space.contains(observations)
        for i in range(6):
            state = envs.engine.decode(envs.states, i)
            learner = int(infos["seat"][i])
            seen_seats.add(learner)
            assert np.array_equal(observations[i], observe(state, learner))
            mask = infos["action_mask"][i]
            assert mask.any()  # never all 0: where the action is ignored, every action is allowed
            if not mask.all():
                assert played.to_move(state) == learner
                assert tuple(mask.tolist()) == tuple(encoding.action_mask(state))
        observations, _, _, _, infos = envs.step(random_actions(envs.action_masks(), rng))
    assert seen_seats == ({seat} if seat is not None else set(range(players)))


def run(
    envs: SoloVectorEnv, seed: int, steps: int, choose: Callable[[npt.NDArray[np.bool_]], npt.NDArray[np.int64]]
) -> list[tuple[Any, ...]]:
    """Every step's arrays, copied."""
    observations, infos = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(observations.copy(), infos["seat"].copy())]
    for _ in range(steps):
        result = envs.step(choose(envs.action_masks()))
        out.append(tuple(np.copy(part) for part in result[:4]))
    return out


def test_the_same_seed_gives_the_same_episodes_and_no_array_is_handed_back_twice() -> None:
    """Seeded runs are equal array for array, another seed differs; each step returns new arrays."""
    first = run(SoloVectorEnv(8, players=3), 11, 60, lambda m: np.argmax(m, axis=1))
    again = run(SoloVectorEnv(8, players=3), 11, 60, lambda m: np.argmax(m, axis=1))
    other = run(SoloVectorEnv(8, players=3), 12, 60, lambda m: np.argmax(m, axis=1))
    assert all(all(np.array_equal(a, b) for a, b in zip(x, y, strict=True)) for x, y in zip(first, again, strict=True))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(first, other, strict=True))
    envs = SoloVectorEnv(4, players=2)
    observations, _ = envs.reset(seed=1)
    later = envs.step(np.argmax(envs.action_masks(), axis=1))
    assert later[0] is not observations
    assert not np.shares_memory(later[0], observations)


@pytest.mark.parametrize("game", BATCHED_GAMES)
@pytest.mark.parametrize("kind", ["max_turns", "max_steps"])
@pytest.mark.parametrize("limit", [1, 2, 3, 4, 5])
def test_the_cut_off_rule_is_soloenvs_two_beats_and_autoreset_is_next_step(game: str, kind: str, limit: int) -> None:
    """An episode with no decision: a start with no_decision (every action allowed), its end at the next step.

    The step after an end deals (flags False, reward 0). The share of episodes with no decision, and of those
    cut off, agree with SoloEnv's at the same limit within their intervals.
    """
    options: dict[str, Any] = {kind: limit, "players": 3, "seat": 1, "ruleset": RULES.get(game), "game": game}
    options["opponents"] = "random"
    envs = SoloVectorEnv(64, **options)
    rng = np.random.default_rng(limit)
    _, infos = envs.reset(seed=limit)
    done = np.zeros(64, np.bool_)
    pending = infos[NO_DECISION].copy()
    episodes = no_decision = cut = 0
    for _ in range(60):
        assert infos["action_mask"][pending].all()
        assert infos["action_mask"][done].all()  # the dealing step ignores the action too
        _, rewards, terminated, truncated, infos = envs.step(random_actions(envs.action_masks(), rng))
        ended = terminated | truncated
        assert not ended[done].any()  # the step after an end deals
        assert not rewards[done].any()
        assert ended[pending].all()  # a start with no decision ends at the next step
        assert not infos[NO_DECISION][~done].any()  # only a dealing step starts an episode with no decision
        episodes += int(ended.sum())
        no_decision += int((ended & pending).sum())
        cut += int(truncated.sum())
        pending = infos[NO_DECISION].copy()
        done = ended
    scalar = SoloEnv(**options)
    scalar_episodes = scalar_none = scalar_cut = 0
    for seed in range(300):
        _, info = scalar.reset(seed=seed)
        scalar_none += bool(info[NO_DECISION])
        while True:
            mask = scalar.action_masks()
            _, _, terminated_, truncated_, info = scalar.step(
                int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
            )
            if terminated_ or truncated_:
                scalar_cut += bool(truncated_)
                break
        scalar_episodes += 1
    assert agree(no_decision, episodes, scalar_none, scalar_episodes)
    assert agree(cut, episodes, scalar_cut, scalar_episodes)


def agree(hits: int, total: int, other_hits: int, other_total: int, z: float = 4.0) -> bool:
    """Whether two proportions agree: their difference within ``z`` standard errors (exactly equal at 0 or 1)."""
    p, q = hits / total, other_hits / other_total
    pooled = (hits + other_hits) / (total + other_total)
    error = math.sqrt(pooled * (1 - pooled) * (1 / total + 1 / other_total))
    return abs(p - q) <= z * error if error else p == q


@pytest.mark.parametrize(
    ("opponents", "seat"),
    [(["random", "random"], 2), (["heuristic", "heuristic"], 0), (["heuristic", "random"], 1)],
)
def test_a_fixed_policys_rewards_and_episode_lengths_agree_with_soloenvs(opponents: list[str], seat: int) -> None:
    """Against the same opponents, a fixed policy's mean reward and decisions per episode agree with SoloEnv's.

    The opponents are the batched random and heuristic bots; mixed, the first sits just after the learner.
    """
    options: dict[str, Any] = {"players": 3, "seat": seat, "ruleset": SMALL, "max_turns": 40}
    envs = SoloVectorEnv(128, opponents=opponents, **options)
    envs.reset(seed=21)
    per_slot = 12  # each slot's first 12 episodes: a count fixed in advance, so short episodes are not favoured
    rewards_: list[float] = []
    lengths: list[int] = []
    counted = np.zeros(128, np.int64)
    running = np.zeros(128, np.int64)
    while (counted < per_slot).any():
        masks = envs.action_masks()
        actions = np.array([stop_first(mask) for mask in masks], np.int64)
        running += ~masks.all(axis=1)  # a learner's decision (every action allowed: an ignored step)
        _, rewards, terminated, truncated, _ = envs.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            if counted[i] < per_slot:
                rewards_.append(float(rewards[i]))
                lengths.append(int(running[i]))
                counted[i] += 1
            running[i] = 0
    scalar = SoloEnv(opponents=opponents, **options)
    scalar_rewards: list[float] = []
    scalar_lengths: list[int] = []
    for seed in range(1500):
        scalar.reset(seed=seed)
        decisions = 0
        while True:
            mask = scalar.action_masks()
            decisions += not mask.all()
            _, reward, terminated_, truncated_, _ = scalar.step(stop_first(mask))
            if terminated_ or truncated_:
                break
        scalar_rewards.append(float(reward))
        scalar_lengths.append(decisions)
    for ours, theirs in ((rewards_, scalar_rewards), (lengths, scalar_lengths)):
        a, b = np.array(ours), np.array(theirs)
        error = math.sqrt(a.var() / a.size + b.var() / b.size)
        assert abs(a.mean() - b.mean()) <= 4 * error, (a.mean(), b.mean(), error)
    # The policy is far from a random one's 1/3: the statistic can tell seats and policies apart.
    assert abs(np.mean(scalar_rewards) - 1 / 3) > 0.05


def test_an_illegal_action_loses_or_raises_and_changes_nothing() -> None:
    """Under "lose" an illegal index ends that slot's episode with illegal_reward; under "raise" it raises."""
    envs = SoloVectorEnv(3, players=2, seat=0)
    envs.reset(seed=2)
    masks = envs.action_masks()
    actions = np.argmax(masks, axis=1)
    bad = int(np.flatnonzero(~masks[0])[0])
    actions[0] = bad
    _, rewards, terminated, truncated, infos = envs.step(actions)
    assert terminated[0]
    assert rewards[0] == -1.0
    assert infos["illegal"][0]
    assert not infos["illegal"][1:].any()
    _, rewards, terminated, truncated, infos = envs.step(np.zeros(3, np.int64))
    assert not terminated[0]  # the next step dealt a new game there
    assert not truncated[0]
    assert rewards[0] == 0
    strict = SoloVectorEnv(3, players=2, seat=0, illegal_action="raise")
    strict.reset(seed=2)
    before = strict.states.copy()
    actions = np.argmax(strict.action_masks(), axis=1)
    actions[1] = int(np.flatnonzero(~strict.action_masks()[1])[0])
    with pytest.raises(IllegalActionError):
        strict.step(actions)
    for name, array in strict.states.arrays().items():
        assert np.array_equal(array, getattr(before, name)), name


class _WithoutStatistics(SoloVectorEnv):
    """The vector environment with its own episode statistics taken out of ``info``, for Gymnasium's wrapper."""

    def step(self, actions: npt.ArrayLike) -> Any:
        result = super().step(actions)
        result[4].pop("episode", None)
        result[4].pop("_episode", None)
        return result


def test_info_carries_the_episode_statistics_gymnasiums_wrapper_gives() -> None:
    """info["episode"] and info["_episode"] are those of Gymnasium's RecordEpisodeStatistics, step for step.

    The same games are played twice, once with the statistics built in and once by the wrapper over a copy
    whose own are taken out: the returns, lengths and masks agree at every step (the times are wall clock).
    """
    ours = SoloVectorEnv(16, players=2, ruleset=SMALL)
    inner = _WithoutStatistics(16, players=2, ruleset=SMALL)
    theirs = gymnasium.wrappers.vector.RecordEpisodeStatistics(inner)
    ours.reset(seed=0)
    theirs.reset(seed=0)
    rng = np.random.default_rng(0)
    returns: list[float] = []
    for _ in range(200):
        actions = random_actions(ours.action_masks(), rng)
        *_, mine = ours.step(actions)
        *_, wrapped = theirs.step(actions)
        assert ("episode" in mine) is ("episode" in wrapped)
        if "episode" in mine:
            assert np.array_equal(mine["_episode"], wrapped["_episode"])
            assert np.allclose(mine["episode"]["r"], wrapped["episode"]["r"])
            assert np.array_equal(mine["episode"]["l"], wrapped["episode"]["l"])
            assert (mine["episode"]["t"][mine["_episode"]] >= 0).all()
            returns.extend(mine["episode"]["r"][mine["_episode"]].tolist())
    assert returns
    assert set(returns) <= {-1.0, 0.0, 0.5, 1.0}  # a loss by an illegal action among them, if any


def test_make_and_make_vec_take_the_same_opponents_and_default() -> None:
    """One bot name for every other seat in both; omitted, the heuristic bot in both (Cheeky Monkey)."""
    vector = SoloVectorEnv(2, players=3)
    assert vector.opponents == ("heuristic", "heuristic")
    assert SoloVectorEnv(2, players=3, opponents="random").opponents == ("random", "random")
    # Too Many Monkeys' batched engine plays its heuristic bot too: the same rule picks it, as SoloEnv does.
    assert SoloVectorEnv(2, players=2, game="too-many-monkeys").opponents == ("heuristic",)
    solo = gymnasium.make("cheekymonkey/Solo-v0", players=3, opponents="random", seat=0)
    assert [seat.kind for seat in solo.unwrapped._opponents] == ["random", "random"]  # type: ignore[attr-defined]
    made = gymnasium.make_vec("cheekymonkey/Solo-v0", num_envs=2, players=3)
    assert made.unwrapped.opponents == ("heuristic", "heuristic")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "options",
    [
        {"num_envs": 0},
        {"num_envs": 2, "players": 2, "seat": 2},
        {"num_envs": 2, "opponents": "mcts"},
        {"num_envs": 2, "opponents": "expectimax", "game": "too-many-monkeys"},
        {"num_envs": 2, "opponents": [3]},
        {"num_envs": 2, "players": 3, "opponents": ["random"]},
        {"num_envs": 2, "illegal_action": "ignore"},
        {"num_envs": 2, "max_steps": 0},
        {"num_envs": 2, "scaled": 1},
        {"num_envs": 2, "game": "no-such-game"},
    ],
)
def test_bad_arguments_are_refused(options: dict[str, Any]) -> None:
    """Every argument is checked when the environment is made."""
    with pytest.raises(InvalidValueError):
        SoloVectorEnv(**options)


def test_step_refuses_bad_actions_and_a_step_before_reset() -> None:
    """Actions are one index in range per slot; stepping before reset is refused."""
    envs = SoloVectorEnv(2)
    with pytest.raises(InvalidValueError):
        envs.step(np.zeros(2, np.int64))
    envs.reset(seed=0)
    for actions in (np.zeros(3, np.int64), np.zeros(2), np.array([0, 99])):
        with pytest.raises(InvalidValueError):
            envs.step(actions)
