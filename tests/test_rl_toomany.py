"""Too Many Monkeys in the RL frameworks: OpenSpiel, PettingZoo and Gymnasium, their own checks, 2 to 6 seats.

The adapters are the ones *Cheeky Monkey* plays in, unchanged: these tests play the second game through them
and run each framework's conformance checks on it.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.observation import make_observation
from pettingzoo import test as pettingzoo_test

from cheekymonkey.rl.episodes import default_opponent, lead
from cheekymonkey.rl.gymnasium_env import ENV_ID, SoloEnv
from cheekymonkey.rl.openspiel_game import SpielGame, load, spiel_name
from cheekymonkey.rl.pettingzoo_env import GameEnv, env
from cheekymonkey.table import Seat, Table
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    Card,
    Phase,
    RandomBot,
    Reveal,
    Ruleset,
    TakeDiscard,
    chance_outcomes,
    new_game,
    outcome,
)
from cheekymonkey.toomany.encoding import TAKE_DISCARD_INDEX, TooManyEncoding
from tests.test_rl_openspiel import _play

GAME = "too-many-monkeys"
SPIEL = spiel_name(GAME)

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


def _taker(legal: list[int], rng: Any) -> int:
    """Take the discard top whenever it may be taken, else any legal index: two such seats can loop for ever."""
    return TAKE_DISCARD_INDEX if TAKE_DISCARD_INDEX in legal else int(rng.choice(legal))


# -- OpenSpiel ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test_passes_with_serialization_for_2_to_6_seats(players: int) -> None:
    """OpenSpiel's own checks at every seat count, the short game and the table observation too."""
    for params in ({"players": players}, {"players": players, "rules": "short", "observation": "table"}):
        game = pyspiel.load_game(SPIEL, params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test_passes_more_games_of_the_standard_rules(players: int) -> None:
    """More simulated games of OpenSpiel's checks (each check of serialization replays the game so far)."""
    game = pyspiel.load_game(SPIEL, {"players": players})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_sim_test_passes_with_games_cut_off_at_a_limit() -> None:
    """The checks hold when the turn or step limit truncates games."""
    for params in ({"players": 3, "max_turns": 12}, {"players": 2, "max_steps": 40, "rules": "short"}):
        pyspiel.random_sim_test(pyspiel.load_game(SPIEL, params), num_sims=3, serialize=True, verbose=False)


def test_a_rule_set_of_the_games_own_is_an_openspiel_parameter() -> None:
    """A custom rule set travels in the game string as JSON, and passes OpenSpiel's checks with serialization."""
    tiny = Ruleset((6, 6, 6, 6, 6, 6, 4, 4, 3, 3, 3, 2), row_size=3, name="tiny")
    game = load(players=3, rules=tiny, game=GAME)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.ruleset == tiny
    assert again.new_initial_state().game_state == new_game(3, ruleset=tiny)
    pyspiel.random_sim_test(again, num_sims=2, serialize=True, verbose=False)


def test_the_game_is_registered_with_openspiel_by_the_generic_class() -> None:
    """Offering encodings registers the game: one SpielGame subclass, its sizes the encoding's."""
    game = pyspiel.load_game(f"{SPIEL}(players=4,rules=short)")
    assert isinstance(game, SpielGame)
    assert game.game is TOO_MANY_MONKEYS
    assert game.ruleset == Ruleset.short()
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (4, 37, 12)
    assert game.observation_tensor_size() == TooManyEncoding(4, Ruleset.short()).observation_size
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert (
        str(load(players=3, game=GAME))
        == f"{SPIEL}(max_steps=10000,max_turns=0,observation=full,players=3,rules=standard)"
    )


@pytest.mark.parametrize("players", [2, 4])
def test_chance_nodes_actions_and_returns_are_the_engines(players: int) -> None:
    """Chance with the engine's exact probabilities, indices counted from the mover, the outcome's returns."""
    game = load(players=players, game=GAME)
    codec = TooManyEncoding(players)
    kinds = set()

    def check(state: Any) -> None:
        engine = state.game_state
        if state.is_chance_node():
            expected = [(codec.encode(reveal, engine), float(p)) for reveal, p in chance_outcomes(engine)]
            assert state.chance_outcomes() == expected
            assert state.legal_actions() == [index for index, _ in expected]
        else:
            assert state.current_player() == engine.seat
            assert state.legal_actions() == list(codec.legal_indices(engine))
            for index in state.legal_actions():
                assert state.action_to_string(engine.seat, index) == codec.action_name(index)
            kinds.add(engine.phase)
        for seat in range(players):
            assert state.observation_string(seat) == codec.observation_text(engine, seat)
            assert state.information_state_string(seat) == state.observation_string(seat)
            assert state.observation_tensor(seat) == list(codec.observe(engine, seat))

    final = _play(game, 3, check)
    assert Phase.START in kinds
    assert not final.truncated
    assert final.game_state.phase is Phase.OVER
    assert final.returns() == list(outcome(final.game_state).returns)
    assert sum(final.returns()) == pytest.approx(1.0)


def test_information_state_keys_do_not_grow_with_the_length_of_a_game() -> None:
    """One position, the start of round 2, reached in 6 steps or in 8, has one information state string."""
    game = load(players=2, game=GAME)
    codec = game.encoding

    def reached(*cards: Card) -> Any:
        state = game.new_initial_state()
        for card in cards:
            state.apply_action(codec.encode(Reveal(card), state.game_state))
        return state

    # Seat 0 draws a 1, and its row turns up 2 to 6 in order: its row is complete in its first turn. Or
    # both seats first draw a giraffe and an elephant, which end their turns.
    quick = reached(Card.ONE, Card.TWO, Card.THREE, Card.FOUR, Card.FIVE, Card.SIX)
    slow = reached(Card.GIRAFFE, Card.ELEPHANT, Card.ONE, Card.TWO, Card.THREE, Card.FOUR, Card.FIVE, Card.SIX)
    assert quick.game_state.round == 2
    assert len(slow.history()) > len(quick.history())
    assert slow.game_state == quick.game_state
    for player in (0, 1):
        assert slow.information_state_string(player) == quick.information_state_string(player)
        assert slow.information_state_tensor(player) == quick.information_state_tensor(player)


def test_serialization_and_observers_keep_the_game_and_the_state() -> None:
    """OpenSpiel's serialization round trip mid-game; observers of either kind fill the library's vectors."""
    game = load(players=3, rules="short", observation="table", max_turns=300, game=GAME)
    state = game.new_initial_state()
    rng = np.random.default_rng(8)
    for _ in range(60):
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(int(state.chance_outcomes()[-1][0]))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game_back, state_back = pyspiel.deserialize_game_and_state(text)
    assert str(game_back) == str(game)
    assert state_back.game_state == state.game_state
    assert state_back.history() == state.history()
    full = make_observation(game, params={"observation": "full"})
    full.set_from(state, 1)
    assert full.tensor.tolist() == list(TooManyEncoding(3, Ruleset.short()).observe(state.game_state, 1))
    assert full.dict["discard"].shape == (55 - 3, 12)
    assert full.string_from(state, 1) == TooManyEncoding(3, Ruleset.short()).observation_text(state.game_state, 1)


# -- PettingZoo --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "observation"), [(2, "full"), (3, "table"), (4, "full"), (5, "table"), (6, "full")]
)
def test_pettingzoo_api_test_passes(players: int, observation: str) -> None:
    """PettingZoo's own api_test at 2 to 6 seats, on the environment as env() builds it."""
    aec = env(players=players, observation=observation, game=GAME)
    found = _warnings_of(lambda: pettingzoo_test.api_test(aec, num_cycles=300))
    assert found <= _DICT_OBSERVATION_WARNINGS, found - _DICT_OBSERVATION_WARNINGS
    assert aec.unwrapped.metadata["name"] == "too_many_monkeys_v0"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_seed_test_passes(players: int) -> None:
    """PettingZoo's own seed_test at 2 to 6 seats: the same seed, the same games."""
    found = _warnings_of(lambda: pettingzoo_test.seed_test(lambda: env(players=players, game=GAME), num_cycles=300))
    assert not found


def _play_aec(aec: Any, seed: int, pick: Callable[[list[int], Any], int]) -> dict[str, float]:
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step(pick(np.flatnonzero(observation["action_mask"]).tolist(), rng))
    return totals


def _uniform(legal: list[int], rng: Any) -> int:
    return int(rng.choice(legal))


def test_pettingzoo_rewards_are_the_outcomes_returns_and_margin_shaping_adds_the_final_lead() -> None:
    """Plain rewards add up to the outcome's returns; with margin=c, to the returns plus c times the final lead."""
    for seed in (1, 2):
        plain = GameEnv(players=3, game=GAME)
        totals = _play_aec(plain, seed, _uniform)
        final = plain.game_state
        assert final.phase is Phase.OVER
        assert totals == {f"player_{seat}": value for seat, value in enumerate(outcome(final).returns)}
        shaped = GameEnv(players=3, game=GAME, margin=0.01)
        shaped_totals = _play_aec(shaped, seed, _uniform)
        assert shaped.game_state == final  # shaping changes the rewards only
        points = TooManyEncoding(3).points(final)
        for seat in range(3):
            expected = outcome(final).returns[seat] + 0.01 * lead(points, seat)
            assert shaped_totals[f"player_{seat}"] == pytest.approx(expected)


# -- Gymnasium ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_gymnasium_check_env_passes(players: int) -> None:
    """Gymnasium's own check_env at 2 to 6 seats against the random bot, with no warning."""
    kwargs: dict[str, Any] = {"players": players, "game": GAME, "opponents": ["random"] * (players - 1)}
    if players == 3:
        kwargs.update(observation="table", render_mode="ansi", margin=0.01)
    solo = gymnasium.make(ENV_ID, disable_env_checker=True, **kwargs).unwrapped
    assert not _warnings_of(lambda: check_env(solo))


def test_gymnasium_plays_the_games_default_opponent_and_rewards_the_learners_return() -> None:
    """Opponents default to the game's own choice; an episode pays the learner's return, from any seat."""
    solo = SoloEnv(players=3, game=GAME)
    assert {seat.kind for seat in solo.table.seats if seat.is_bot} == {default_opponent(TOO_MANY_MONKEYS)}
    seats = set()
    observation, info = solo.reset(seed=4)
    for episode in range(6):
        rng = np.random.default_rng(episode)
        done, total = False, 0.0
        while not done:
            assert observation.tolist() == list(solo.encoding.observe(solo.game_state, solo.seat))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, truncated, info = solo.step(action)
            total += float(reward)
            done = terminated or truncated
        assert terminated
        assert total == outcome(solo.game_state).returns[solo.seat]
        seats.add(solo.seat)
        observation, info = solo.reset()
    assert len(seats) > 1


# -- The turn limit, declared once -------------------------------------------------------------------------


class _Taker:
    """A bot that takes the discard top whenever it may, else plays at random."""

    kind = "taker"

    def choose(self, state: Any, rng: random.Random) -> Any:
        legal = TOO_MANY_MONKEYS.legal_actions(state)
        return TakeDiscard() if TakeDiscard() in legal else legal[rng.randrange(len(legal))]


def _first_truncated(play: Callable[[int], tuple[bool, int, list[float]]]) -> tuple[int, list[float]]:
    """Play seeds 0, 1, ... until a game is cut off; its length and the rewards it paid. Most are."""
    for seed in range(20):
        truncated, length, rewards = play(seed)
        if truncated:
            return length, rewards
    raise AssertionError("no game of 20 was cut off")


def test_every_adapter_cuts_off_a_game_that_would_never_end_where_the_table_does() -> None:
    """Seats that always take the discard top can pass a card too high for them round for ever (TM26).

    Every adapter cuts such a game off at the step limit, the Table's rule, as truncated and paying nothing.
    """
    limit = 1000

    def at_a_table(seed: int) -> tuple[bool, int, list[float]]:
        table = Table(TOO_MANY_MONKEYS, [Seat.of(_Taker()), Seat.of(_Taker())], seed=seed, max_steps=limit)
        table.advance()
        return table.truncated, len(table.actions), []

    def in_pettingzoo(seed: int) -> tuple[bool, int, list[float]]:
        aec = GameEnv(players=2, game=GAME, max_steps=limit)
        totals = _play_aec(aec, seed, _taker)
        return aec.table.truncated, len(aec.table.actions), list(totals.values())

    def in_openspiel(seed: int) -> tuple[bool, int, list[float]]:
        state = load(players=2, max_steps=limit, game=GAME).new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(_taker(state.legal_actions(), rng))
        return state.truncated, len(state.history()), state.returns()

    def in_gymnasium(seed: int) -> tuple[bool, int, list[float]]:
        solo = SoloEnv(players=2, seat=0, game=GAME, opponents=[_Taker()], max_steps=limit)
        _, info = solo.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards = []
        while True:
            _, reward, terminated, truncated, info = solo.step(
                _taker(np.flatnonzero(info["action_mask"]).tolist(), rng)
            )
            rewards.append(float(reward))
            if terminated or truncated:
                return truncated and not terminated, len(solo.table.actions), rewards

    for play in (at_a_table, in_pettingzoo, in_openspiel, in_gymnasium):
        length, rewards = _first_truncated(play)
        assert length == limit
        assert set(rewards) <= {0.0}

    turns = SoloEnv(players=2, seat=0, game=GAME, opponents=[RandomBot()], max_turns=5, max_steps=None)
    _, info = turns.reset(seed=1)
    while True:
        *_, terminated, truncated, info = turns.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated
    assert turns.table.turns == 6  # the sixth turn was about to begin


class _First:
    """A bot that always plays the first of the legal actions: it never uses its random stream."""

    kind = "first"

    def choose(self, state: Any, rng: random.Random) -> Any:
        return TOO_MANY_MONKEYS.legal_actions(state)[0]


def test_a_turn_limit_cuts_the_game_at_the_same_action_in_every_adapter() -> None:
    """With max_turns, OpenSpiel, PettingZoo and Gymnasium stop at the action where a Table with that limit stops.

    The same seeded game (the first legal action every time) is played in each: all four end truncated on
    the same action, in the same state, as the sixth turn would begin, and pay no outcome.
    """
    limit, seed = 5, 2
    reference = Table(TOO_MANY_MONKEYS, [Seat.of(_First()), Seat.of(_First())], seed=seed, max_turns=limit)
    reference.advance()
    assert reference.truncated
    assert reference.turns == limit + 1
    actions, final = reference.actions, reference.state

    spiel = load(players=2, max_turns=limit, game=GAME)
    state = spiel.new_initial_state()
    for action in actions:
        assert not state.is_terminal()
        state.apply_action(spiel.encoding.encode(action, state.game_state))
    assert state.is_terminal()
    assert state.truncated
    assert state.game_state == final
    assert state.returns() == [0.0, 0.0]

    aec = GameEnv(players=2, game=GAME, max_turns=limit, max_steps=None)
    aec.reset(seed=seed)
    totals = dict.fromkeys(aec.agents, 0.0)
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            assert (terminated, truncated) == (False, True)
            aec.step(None)
        else:
            aec.step(aec.encoding.encode(_First().choose(aec.game_state, random.Random()), aec.game_state))
    assert aec.table.actions == actions
    assert aec.game_state == final
    assert totals == {"player_0": 0.0, "player_1": 0.0}

    solo = SoloEnv(players=2, seat=0, game=GAME, opponents=[_First()], max_turns=limit, max_steps=None)
    solo.reset(seed=seed)
    rewards = []
    while True:
        chosen = _First().choose(solo.game_state, random.Random())
        _, reward, terminated, truncated, _ = solo.step(solo.encoding.encode(chosen, solo.game_state))
        rewards.append(float(reward))
        if terminated or truncated:
            break
    assert (terminated, truncated) == (False, True)
    assert solo.table.actions == actions
    assert solo.game_state == final
    assert set(rewards) == {0.0}


def test_a_new_game_is_the_same_in_every_adapter() -> None:
    """The first state each adapter deals is the engine's new game."""
    assert load(players=4, game=GAME).new_initial_state().game_state == new_game(4)
    aec = GameEnv(players=4, game=GAME)
    assert aec.table.history[0] == new_game(4)
