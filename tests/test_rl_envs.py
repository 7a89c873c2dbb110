"""The PettingZoo and Gymnasium environments: their frameworks' own checks, seats, seeding, rewards, limits, errors."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo import test as pettingzoo_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from cheekymonkey import (
    CHEEKY_MONKEY,
    Animal,
    CheekyMonkeyError,
    HeuristicBot,
    IllegalActionError,
    InvalidValueError,
    Phase,
    RandomBot,
    Ruleset,
    play_game,
)
from cheekymonkey.cheeky.encoding import ActionCodec, observe
from cheekymonkey.cheeky.rewards import returns
from cheekymonkey.rl.episodes import lead
from cheekymonkey.rl.gymnasium_env import ENV_ID, CheekyMonkeySoloEnv, SoloEnv
from cheekymonkey.rl.pettingzoo_env import CheekyMonkeyEnv, GameEnv, env, raw_env
from cheekymonkey.table import Seat, Table

# api_test keeps name lists of PettingZoo's own environments that may observe a dict; any other
# environment with dict observations (observation + action_mask) gets these two.
_DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _warnings_of(check: Any) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


# -- PettingZoo ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "observation"), [(2, "full"), (3, "table"), (6, "full")])
def test_pettingzoo_api_test_passes(players: int, observation: str) -> None:
    """PettingZoo's own api_test, on the environment as env() builds it (wrapped) and bare."""
    for aec in (env(players=players, observation=observation), raw_env(players=players, render_mode="ansi")):
        found = _warnings_of(lambda aec=aec: pettingzoo_test.api_test(aec, num_cycles=300))
        assert found <= _DICT_OBSERVATION_WARNINGS, found - _DICT_OBSERVATION_WARNINGS


def test_pettingzoo_seed_test_passes() -> None:
    """PettingZoo's seed_test: the same seed, the same games."""
    found = _warnings_of(lambda: pettingzoo_test.seed_test(lambda: env(players=3), num_cycles=300))
    assert not found


def test_pettingzoo_render_test_passes_with_a_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test, which needs a "human" mode, and human mode prints the board."""
    pettingzoo_test.render_test(env)
    assert "bag" in capsys.readouterr().out
    assert env.__module__ == "cheekymonkey.rl.pettingzoo_env"
    assert GameEnv.metadata["render_modes"] == ["ansi", "human"]


def test_pettingzoo_env_is_order_enforcing() -> None:
    """env() wraps the environment in OrderEnforcingWrapper: a step before reset is PettingZoo's own error."""
    aec = env(players=2)
    assert isinstance(aec, OrderEnforcingWrapper)
    with pytest.raises(AssertionError, match="reset"):
        aec.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        _ = aec.agent_selection
    aec.reset(seed=1)
    assert aec.game_state.players == 2  # other attributes pass through
    assert isinstance(raw_env(), GameEnv)
    assert CheekyMonkeyEnv is GameEnv


def _play_aec(aec: Any, seed: int) -> tuple[list[int], dict[str, float]]:
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
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        chosen.append(action)
        aec.step(action)
    return chosen, totals


def test_pettingzoo_rewards_are_the_returns_at_the_end_and_a_seed_repeats_a_game() -> None:
    """Zero before the end, the game's returns at the end; a seed plays the same game again."""
    aec = GameEnv(players=3)
    first, totals = _play_aec(aec, 11)
    assert aec.game_state.phase is Phase.OVER
    assert totals == {f"player_{seat}": value for seat, value in enumerate(returns(aec.game_state))}
    again, _ = _play_aec(aec, 11)
    other, _ = _play_aec(aec, 12)
    assert again == first
    assert other != first


def test_pettingzoo_observations_and_masks_are_the_librarys_from_each_agents_seat() -> None:
    """Each agent observes from its own seat, and the mover's mask counts seats from the mover."""
    aec = GameEnv(players=2, observation="table")
    aec.reset(seed=0)
    _play_until(aec, lambda: aec.table.to_move == 1)
    state = aec.game_state
    assert aec.observe("player_1")["observation"].tolist() == list(observe(state, 1, "table"))
    assert aec.observe("player_0")["observation"].tolist() == list(observe(state, 0, "table"))
    assert aec.observe("player_1")["action_mask"].tolist() == [int(b) for b in ActionCodec(2).action_mask(state)]
    assert not aec.observe("player_0")["action_mask"].any()


def _play_until(aec: GameEnv, done: Any) -> None:
    rng = np.random.default_rng(0)
    while not done():
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))


def test_pettingzoo_illegal_actions_raise_and_change_nothing() -> None:
    """An illegal index is IllegalActionError, a bad one InvalidValueError, and the game is as it was."""
    aec = GameEnv(players=2, render_mode="ansi")
    aec.reset(seed=0)
    before = aec.game_state
    illegal = [i for i, ok in enumerate(aec.observe(aec.agent_selection)["action_mask"]) if not ok]
    with pytest.raises(IllegalActionError):
        aec.step(illegal[0])
    for index in (99, -1, "0", 1.5):
        with pytest.raises(InvalidValueError):
            aec.step(index)
    with pytest.raises(InvalidValueError):
        aec.step(None)
    assert aec.game_state is before
    board = aec.render()
    assert board == CHEEKY_MONKEY.board_text(before)
    assert GameEnv(players=2).render() is None
    bads: list[dict[str, Any]] = [
        {"render_mode": "rgb_array"},
        {"max_steps": 0},
        {"max_turns": -1},
        {"margin": float("nan")},
        {"game": "chess"},
        {"ruleset": "chess"},
        {"players": 7},
    ]
    for bad in bads:
        with pytest.raises(CheekyMonkeyError):
            GameEnv(**bad)


# -- Gymnasium -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 3, "seat": 2, "observation": "table", "render_mode": "ansi"},
        {"players": 4, "seat": 1, "opponents": [RandomBot(), "random", RandomBot()], "margin": 0.01},
    ],
)
def test_gymnasium_check_env_passes(kwargs: dict[str, Any]) -> None:
    """Gymnasium's own check_env, with no warning."""
    solo = gymnasium.make(ENV_ID, disable_env_checker=True, **kwargs).unwrapped
    assert not _warnings_of(lambda: check_env(solo))


@pytest.mark.parametrize(
    "make",
    [
        'solo = gymnasium.make("cheekymonkey.rl:cheekymonkey/Solo-v0", players=3)',
        "import cheekymonkey.rl\ngymnasium.register_envs(cheekymonkey.rl)\n"
        'solo = gymnasium.make("cheekymonkey/Solo-v0", players=3)',
    ],
    ids=["module-prefix", "register-envs"],
)
def test_gymnasium_make_finds_the_environment_the_ways_gymnasium_documents(make: str) -> None:
    """In a fresh interpreter: ``module:id`` imports the package and makes it; so does ``register_envs``."""
    code = f"import gymnasium\n{make}\nobservation, info = solo.reset(seed=0)\n"
    code += "print(type(solo.unwrapped).__name__, observation.shape, sorted(info))\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["SoloEnv", "(1335,)", "['action_mask',", "'no_decision',", "'seat']"]


def _episode(solo: SoloEnv, seed: int, *, plain: bool = True) -> tuple[list[int], float, int]:
    """Play an episode of random legal actions: the actions, the sum of the rewards, the learner's seat."""
    observation, info = solo.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen: list[int] = []
    total = 0.0
    while True:
        assert solo.game_state.seat == solo.seat == info["seat"]
        assert solo.game_state.phase in (Phase.DECIDE, Phase.PLACING)
        assert info["action_mask"].tolist() == solo.action_masks().astype(int).tolist()
        assert observation.tolist() == list(observe(solo.game_state, solo.seat))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        chosen.append(action)
        observation, reward, terminated, truncated, info = solo.step(action)
        total += float(reward)
        if terminated or truncated:
            return chosen, total, solo.seat
        assert reward == 0 or not plain  # no reward before the end, unless shaped


def test_gymnasium_episode_reward_is_the_learners_return_and_a_seed_repeats_it() -> None:
    """The reward is the learner's return at the end, and reset(seed) repeats the episode."""
    solo = SoloEnv(players=3, seat=1)
    chosen, reward, _ = _episode(solo, 8)
    assert solo.game_state.phase is Phase.OVER
    assert reward == returns(solo.game_state)[1]
    assert _episode(solo, 8)[0] == chosen
    assert _episode(solo, 9)[0] != chosen
    assert CheekyMonkeySoloEnv is SoloEnv


def test_gymnasium_picks_the_learners_seat_per_episode_at_random_unless_it_is_fixed() -> None:
    """By default every seat comes up over a run of episodes; seat=k keeps seat k; the seed repeats the draws."""
    free = SoloEnv(players=3)
    free.reset(seed=5)
    seats = [free.reset()[1]["seat"] for _ in range(60)]
    assert set(seats) == {0, 1, 2}
    again = SoloEnv(players=3)
    again.reset(seed=5)
    assert [again.reset()[1]["seat"] for _ in range(60)] == seats
    fixed = SoloEnv(players=3, seat=2)
    fixed.reset(seed=5)
    assert {fixed.reset()[1]["seat"] for _ in range(20)} == {2}


def test_gymnasium_opponents_sit_in_turn_order_after_the_learner() -> None:
    """opponents[0] sits just after the learner, whatever seat the learner drew."""
    first, second = RandomBot(), RandomBot()
    solo = SoloEnv(players=3, opponents=[first, second])
    solo.reset(seed=2)
    for _ in range(10):
        seat = solo.reset()[1]["seat"]
        assert solo.table.seats[(seat + 1) % 3].player is first
        assert solo.table.seats[(seat + 2) % 3].player is second
        assert not solo.table.seats[seat].is_bot


def test_soloenv_takes_one_bot_name_for_every_other_seat_as_make_vec_does() -> None:
    """``opponents="random"`` seats the random bot in each other seat; omitted, the default is make_vec's too."""
    solo = SoloEnv(players=3, opponents="random", seat=0)
    assert [seat.kind for seat in solo._opponents] == ["random", "random"]
    assert [seat.kind for seat in SoloEnv(players=3)._opponents] == ["heuristic", "heuristic"]


def test_gymnasium_illegal_actions_lose_or_raise() -> None:
    """An illegal action loses the episode (or raises, and nothing changes); bad arguments are refused."""
    solo = SoloEnv(players=2)
    _, info = solo.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = solo.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert not solo.action_masks().any()
    with pytest.raises(InvalidValueError, match="reset"):
        solo.step(0)
    strict = SoloEnv(players=2, illegal_action="raise")
    strict.reset(seed=1)
    before = strict.game_state
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    for index in (99, "1", 2.5):
        with pytest.raises(InvalidValueError):
            strict.step(index)
    assert strict.game_state is before
    bads: list[dict[str, Any]] = [
        {"seat": 2},
        {"seat": True},
        {"opponents": []},
        {"opponents": [RandomBot]},
        {"opponents": ["chess"]},
        {"illegal_action": "x"},
        {"render_mode": "rgb_array"},
        {"max_steps": 0},
        {"margin": "0.1"},
    ]
    for bad in bads:
        with pytest.raises(InvalidValueError):
            SoloEnv(players=2, **bad)


def test_gymnasium_human_mode_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    """render_mode="human" prints the board at reset and after each step; render() then returns None."""
    solo = SoloEnv(players=2, seat=0, render_mode="human")
    solo.reset(seed=0)
    assert solo.render() is None
    printed = capsys.readouterr().out
    assert printed.count(CHEEKY_MONKEY.board_text(solo.game_state)) == 2


def test_gymnasium_keeps_a_tiny_game_that_ends_before_the_learner_acts_and_reports_its_end() -> None:
    """A game an opponent ends before the learner decides is not dealt again: the first step reports its end.

    The bag of one elephant and one seal is emptied by the first seat's turn whenever it draws both; the
    learner in the second seat then has no decision, and the game's outcome (a win for the seat holding
    more, or shared) is the learner's reward, on a step that plays nothing.
    """
    tiny = Ruleset.custom({Animal.ELEPHANT: 1, Animal.SEAL: 1})
    solo = SoloEnv(players=2, seat=1, ruleset=tiny, opponents=[RandomBot()])
    kept = played = 0
    for seed in range(20):
        observation, info = solo.reset(seed=seed)
        table = Table(CHEEKY_MONKEY, [Seat.of(RandomBot()), Seat.person("learner")], ruleset=tiny, seed=seed)
        table.advance()
        assert solo.game_state == table.state  # the seeded game, whatever happened in it
        if table.over:
            kept += 1
            assert info["no_decision"] is True
            assert info["action_mask"].all()  # any action is accepted, and ignored: never an all-0 mask
            assert solo.action_masks().all()
            assert observation.tolist() == list(observe(table.state, 1))
            before = solo.table.actions
            observation, reward, terminated, truncated, info = solo.step(0)
            assert (terminated, truncated, info["no_decision"]) == (True, False, True)
            assert reward == returns(table.state)[1]
            assert solo.table.actions == before  # nothing played
            with pytest.raises(InvalidValueError, match="episode is over"):
                solo.step(0)
        else:
            played += 1
            assert info["no_decision"] is False
            assert solo.game_state.phase is Phase.DECIDE
    assert kept  # both kinds of deal happen in these seeds
    assert played
    never = SoloEnv(players=2, seat=1, ruleset=Ruleset.custom({Animal.ELEPHANT: 1}))
    _, info = never.reset(seed=0)
    assert info["no_decision"]
    assert never.step(5)[2] is True  # the lone elephant: the first seat wins at once


def test_gymnasium_autoreset_step_has_an_all_zero_mask_as_documented() -> None:
    """In a vector environment the step that ends an episode gives an all-0 mask, and the docs say so."""
    vector = gymnasium.make_vec(ENV_ID, num_envs=1, vectorization_mode="sync", players=2, seat=0, max_steps=40)
    _, infos = vector.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = False
    for _ in range(200):
        mask = infos["action_mask"][0]
        if ended:
            assert not mask.any()
            break
        _, _, terminated, truncated, infos = vector.step(np.array([rng.choice(np.flatnonzero(mask))]))
        ended = bool(terminated[0] or truncated[0])
    else:
        pytest.fail("no episode ended")
    vector.close()
    docs = sys.modules[SoloEnv.__module__].__doc__ or ""
    assert "autoreset" in docs
    assert "all-0 mask" in docs


# -- One truncation rule, the reward options -----------------------------------------------------------


def test_every_adapter_truncates_where_the_table_does_and_pays_no_outcome() -> None:
    """With the same step limit, the environments stop where a Table stops, truncated, with no reward."""
    limit = 25
    table = Table(CHEEKY_MONKEY, [Seat.person("a"), Seat.person("b")], seed=4, max_steps=limit)
    rng = np.random.default_rng(4)
    while not table.finished:
        table.advance()
        if table.to_move is not None:
            table.play(table.legal_actions()[0])
    assert table.truncated
    assert len(table.actions) == limit

    aec = GameEnv(players=2, max_steps=limit)
    _, totals = _play_aec(aec, 4)
    assert aec.table.truncated
    assert len(aec.table.actions) == limit
    assert all(aec.truncations.values()) or not aec.agents
    assert totals == {"player_0": 0.0, "player_1": 0.0}

    solo = SoloEnv(players=2, seat=0, max_steps=limit)
    _, info = solo.reset(seed=4)
    done = False
    rewards = []
    while not done:
        _, reward, terminated, truncated, info = solo.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        rewards.append(reward)
        done = terminated or truncated
    assert (terminated, truncated) == (False, True)
    assert solo.table.truncated
    assert len(solo.table.actions) == limit
    assert set(rewards) == {0.0}

    turns = SoloEnv(players=2, seat=0, max_turns=3, max_steps=None)
    _, info = turns.reset(seed=4)
    while True:
        _, reward, terminated, truncated, info = turns.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated
    assert turns.table.turns == 4  # the fourth turn was about to begin
    assert reward == 0.0


def test_the_old_limit_argument_still_works_with_a_deprecation_warning() -> None:
    """max_decisions, the old limit of both environments, is read as max_turns and warns."""
    with pytest.warns(DeprecationWarning, match="max_decisions"):
        solo = SoloEnv(max_decisions=7)
    with pytest.warns(DeprecationWarning, match="max_decisions"):
        aec = GameEnv(max_decisions=9)
    assert (solo.max_turns, aec.max_turns) == (7, 9)


def test_margin_shaping_adds_up_to_the_final_point_margin_and_is_off_by_default() -> None:
    """With margin=c each episode's rewards add up to the return plus c times the final lead; c=0 is plain."""
    for seed in range(3):
        shaped = SoloEnv(players=3, seat=None, margin=0.01)
        chosen, total, seat = _episode(shaped, seed, plain=False)
        state = shaped.game_state
        points = [float(t) for t in CHEEKY_MONKEY.encoding(3).points(state)]
        assert total == pytest.approx(returns(state)[seat] + 0.01 * lead(points, seat))
        plain = SoloEnv(players=3, seat=None)
        again, plain_total, _ = _episode(plain, seed)
        assert again == chosen  # shaping changes the rewards only
        assert plain_total == returns(plain.game_state)[seat]
    aec = GameEnv(players=2, margin=0.5)
    _, totals = _play_aec(aec, 1)
    final_points = CHEEKY_MONKEY.encoding(2).points(aec.game_state)
    final = returns(aec.game_state)
    assert totals == {
        f"player_{seat}": pytest.approx(final[seat] + 0.5 * lead(final_points, seat)) for seat in range(2)
    }


def test_a_seed_plays_the_game_a_table_with_that_seed_plays() -> None:
    """Both environments, given seed s and the heuristic bot's choices, play play_game's game of seed s."""
    for seed in (3, 21):
        reference = play_game([HeuristicBot(), HeuristicBot()], seed=seed)
        rng = random.Random(0)  # unused: the heuristic bot is deterministic
        aec = GameEnv(players=2)
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            *_, terminated, truncated, _ = aec.last()
            state = aec.game_state
            aec.step(None if terminated or truncated else aec.encoding.encode(HeuristicBot().choose(state, rng), state))
        assert aec.table.actions == reference.record.actions
        solo = SoloEnv(players=2, seat=1, opponents=["heuristic"])
        solo.reset(seed=seed)
        done = False
        while not done:
            state = solo.game_state
            *_, terminated, truncated, _ = solo.step(solo.encoding.encode(HeuristicBot().choose(state, rng), state))
            done = terminated or truncated
        assert solo.table.actions == reference.record.actions
        assert solo.game_state == aec.game_state == reference.state


def test_the_default_opponent_is_the_games_heuristic_bot_or_else_its_first() -> None:
    """SoloEnv seats default_opponent(game) by default: "heuristic" where the game has it, else its first bot."""
    from cheekymonkey.games import GAME_NAMES, game_named
    from cheekymonkey.rl.episodes import PREFERRED_OPPONENT, default_opponent
    from cheekymonkey.rl.gymnasium_env import DEFAULT_OPPONENT

    assert DEFAULT_OPPONENT == PREFERRED_OPPONENT == "heuristic"
    for name in GAME_NAMES:
        game = game_named(name)
        expected = "heuristic" if "heuristic" in game.bot_names() else game.bot_names()[0]
        assert default_opponent(game) == expected
        solo = SoloEnv(players=3, game=name)
        assert [seat.kind for seat in solo.table.seats if seat.is_bot] == [expected, expected]
    assert default_opponent(CHEEKY_MONKEY) == "heuristic"

    class OnlyRandom:
        """Cheeky Monkey, offering its random bot alone."""

        def __getattr__(self, name: str) -> Any:
            return getattr(CHEEKY_MONKEY, name)

        def bot_names(self) -> tuple[str, ...]:
            return ("random",)

    plain = SoloEnv(players=2, game=OnlyRandom())
    assert [seat.kind for seat in plain.table.seats if seat.is_bot] == ["random"]
