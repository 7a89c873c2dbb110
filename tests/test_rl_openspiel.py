"""The OpenSpiel games: OpenSpiel's own checks, chance nodes, serialization, parameters, observations, truncation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import make_observation

from cheekymonkey import (
    CHEEKY_MONKEY,
    Action,
    Animal,
    Draw,
    IllegalActionError,
    InvalidValueError,
    Phase,
    Place,
    Reveal,
    Ruleset,
    Stop,
    apply,
    chance_outcomes,
    new_game,
)
from cheekymonkey.cheeky.encoding import ActionCodec, observation_text, observe
from cheekymonkey.cheeky.rewards import returns
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.rl.openspiel_game import (
    GAME_NAME,
    CheekyMonkeyGame,
    SpielGame,
    load,
    rules_parameter,
    spiel_name,
)

MINI = Ruleset.custom({Animal.ELEPHANT: 2, Animal.SEAL: 3, Animal.MONKEY: 4}, name="mini")
"""The training guide's 9-token variant."""


@pytest.mark.slow
@pytest.mark.parametrize("rules", Ruleset.preset_names())
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sim_test_passes_with_serialization_for_every_preset_and_seat_count(rules: str, players: int) -> None:
    """OpenSpiel's own consistency checks: clone, serialize, legal actions sorted, masks, returns in range."""
    game = pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "rules": CHEEKY_MONKEY.documents().dumps(MINI)},
        {"players": 3, "observation": "table", "max_steps": 60},
        {"players": 2, "max_turns": 4},
    ],
)
def test_random_sim_test_passes_with_custom_rules_table_observations_and_limits(params: dict[str, Any]) -> None:
    """The same checks with a JSON rule set, the table observation, and games cut off at a limit."""
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_every_game_of_the_library_is_registered() -> None:
    """Each game of GAME_NAMES that offers encodings has its OpenSpiel game, built by the one generic class."""
    offered = [name for name in GAME_NAMES if game_named(name).observation_kinds()]
    assert "cheeky-monkey" in offered
    for name in GAME_NAMES:
        assert (spiel_name(name) in pyspiel.registered_names()) == (name in offered)
    for name in offered:
        game = pyspiel.load_game(spiel_name(name))
        assert isinstance(game, SpielGame)
        assert game.game.name == name
    assert issubclass(CheekyMonkeyGame, SpielGame)


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


def test_chance_nodes_and_actions_are_the_engines_counted_from_the_mover() -> None:
    """Chance outcomes with the engine's probabilities; player indices count seats from the player to move."""
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
            for index in state.legal_actions():
                assert state.action_to_string(engine_state.seat, index) == codec.describe(index)

    final = _play(game, 1, check)
    assert seen
    assert max(seen) == 8
    assert not final.truncated
    assert final.returns() == list(returns(final.game_state))
    assert sum(final.returns()) == pytest.approx(1.0)


def test_serialization_round_trips_a_game_in_progress_with_any_rule_set() -> None:
    """OpenSpiel's serialization keeps the game's parameters (a JSON rule set too) and the state."""
    for game in (load(players=4, rules="younger"), load(players=2, rules=MINI, observation="table", max_turns=50)):
        state = game.new_initial_state()
        rng = np.random.default_rng(5)
        for _ in range(30):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(int(state.chance_outcomes()[0][0]))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        text = pyspiel.serialize_game_and_state(game, state)
        game_back, state_back = pyspiel.deserialize_game_and_state(text)
        assert str(game_back) == str(game)
        assert game_back.ruleset == game.ruleset
        assert state_back.history() == state.history()
        assert state_back.game_state == state.game_state
        assert str(state_back) == str(state)
    assert str(load(players=4, rules="younger")) == (
        "python_cheeky_monkey(max_steps=10000,max_turns=0,observation=full,players=4,rules=younger)"
    )


def test_any_rule_set_and_observation_kind_are_game_parameters() -> None:
    """A custom rule set as a JSON string and the observation kind load by name, in a game string too."""
    document = CHEEKY_MONKEY.documents().dumps(MINI)
    by_dict = pyspiel.load_game(GAME_NAME, {"rules": document, "observation": "table"})
    assert by_dict.ruleset == MINI
    by_string = pyspiel.load_game(str(by_dict))
    assert by_string.ruleset == MINI
    assert str(by_string) == str(by_dict)
    assert by_string.observation_tensor_size() == len(observe(new_game(2, ruleset=MINI), 0, "table"))
    assert by_string.new_initial_state().game_state == new_game(2, ruleset=MINI)
    assert load(rules="younger").ruleset == Ruleset.younger()
    written = rules_parameter(CHEEKY_MONKEY, MINI)
    assert written.startswith("json:")
    assert not set(",=()") & set(written)  # OpenSpiel's game strings split at these
    assert rules_parameter(CHEEKY_MONKEY, Ruleset.younger()) == "younger"


def test_observation_tensors_and_strings_are_the_librarys_from_each_seat() -> None:
    """Tensors are the library's observations from the observer's seat; strings are their texts."""
    game = load(players=2)
    state = game.new_initial_state()
    state.apply_action(3)  # Reveal(Giraffe): seat 0 decides
    state.apply_action(1)  # Stop
    full = make_observation(game)
    table = make_observation(game, params={"observation": "table"})
    for player in (0, 1):
        full.set_from(state, player)
        table.set_from(state, player)
        assert full.tensor.tolist() == list(observe(state.game_state, player, "full"))
        assert table.tensor.tolist() == list(observe(state.game_state, player, "table"))
        assert state.observation_tensor(player) == full.tensor.tolist()
        assert state.information_state_tensor(player) == full.tensor.tolist()
        assert state.observation_string(player) == observation_text(state.game_state, player, "full")
        assert table.string_from(state, player) == observation_text(state.game_state, player, "table")
    assert full.dict["bag"].tolist() == list(state.game_state.bag)
    # The stack with the Giraffe is the observer's own for seat 0, the other seat's for seat 1.
    full.set_from(state, 1)
    assert full.dict["stack_heights"].tolist() == [0, 1]


def _played(game: Any, *actions: Action) -> Any:
    """A new state of ``game`` after ``actions`` (engine actions, encoded where each falls)."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(game.encoding.encode(action, state.game_state))
    return state


def test_the_table_observation_string_shows_no_more_than_its_tensor() -> None:
    """Positions with the same table tensor have the same table string; the full string tells them apart."""
    table = load(players=2, observation="table")
    full = load(players=2)
    turns = {
        animal: (Reveal(animal), Draw(), Reveal(Animal.LION), Stop(), Place(animal))  # the Lion goes on top
        for animal in (Animal.SEAL, Animal.HIPPO)
    }
    # Seat 0 stacks a Lion on a Seal, or on a Hippo: the same heights and tops, different bags and stacks.
    seal, hippo = (_played(table, *turns[animal]) for animal in (Animal.SEAL, Animal.HIPPO))
    assert seal.observation_tensor(1) == hippo.observation_tensor(1)
    assert seal.observation_string(1) == hippo.observation_string(1)
    assert "Seal" not in seal.observation_string(1)
    seal, hippo = (_played(full, *turns[animal]) for animal in (Animal.SEAL, Animal.HIPPO))
    assert seal.observation_tensor(1) != hippo.observation_tensor(1)
    assert seal.observation_string(1) != hippo.observation_string(1)
    assert "Seal" in seal.observation_string(1)


def test_information_state_keys_do_not_grow_with_the_number_of_decisions() -> None:
    """One position reached after different numbers of decisions has one information state string."""
    game = load(players=2)
    fresh = game.new_initial_state()
    busted = game.new_initial_state()
    # Each seat draws an Elephant, draws again and draws another: a bust (R6), every token back in the bag.
    for action in (int(Animal.ELEPHANT), 0, int(Animal.ELEPHANT)) * 2:
        busted.apply_action(action)
    assert busted.game_state == fresh.game_state
    assert len(busted.history()) == 6
    for player in (0, 1):
        assert busted.information_state_string(player) == fresh.information_state_string(player)
        assert busted.observation_string(player) == fresh.observation_string(player)
        assert busted.information_state_tensor(player) == fresh.information_state_tensor(player)


def test_an_illegal_index_raises_the_usual_error() -> None:
    """An index the mask rules out is the engine's IllegalActionError."""
    state = load(players=2).new_initial_state()
    state.apply_action(0)  # Reveal(Elephant): now seat 0 decides, and there is nothing to claim
    with pytest.raises(IllegalActionError):
        state.apply_action(ActionCodec(2).claim_index(1))


def test_a_game_cut_off_at_a_limit_is_truncated_and_returns_nothing() -> None:
    """At max_steps the game stops, truncated, with every return 0, in a game declared general-sum."""
    game = load(players=2, max_steps=6)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility(), game.max_game_length()) == (0.0, 1.0, 6)
    state = game.new_initial_state()
    for action in (int(Animal.LION), 0, int(Animal.SEAL), 0, int(Animal.HIPPO), 0):  # drawing and drawing
        state.apply_action(action)
    assert state.truncated
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [0.0, 0.0]
    assert state.game_state.phase is not Phase.OVER
    # The turn limit: the third turn may not begin after two.
    turns = _played(load(players=2, max_turns=2), Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL))
    assert not turns.is_terminal()
    turns.apply_action(1)  # Stop: the third turn would begin
    assert turns.truncated
    assert turns.returns() == [0.0, 0.0]


def test_bad_parameters_are_refused() -> None:
    """Out-of-range counts, unknown presets and parameters, bad documents and observation kinds."""
    bads: list[dict[str, Any]] = [
        {"players": 7},
        {"players": 1},
        {"rules": "chess"},
        {"rules": "{not json"},
        {"rules": '{"format": "cheekymonkey/1", "kind": "state"}'},
        {"max_steps": 0},
        {"max_turns": -1},
        {"observation": "pixels"},
        {"colour": "red"},
    ]
    for params in bads:
        with pytest.raises(InvalidValueError):
            CheekyMonkeyGame(params)
    with pytest.raises(InvalidValueError):
        load(rules="chess")
    with pytest.raises(InvalidValueError):
        make_observation(load(), params={"observation": "pixels"})


def test_a_state_reached_by_engine_actions_matches_the_adapter() -> None:
    """Applying indices through the adapter and actions through the engine gives the same states."""
    state = load(players=2).new_initial_state()
    engine_state = new_game(2)
    for action in (Reveal(Animal.LION), Draw(), Reveal(Animal.SEAL)):
        state.apply_action(ActionCodec(2).encode_at(engine_state, action))
        engine_state = apply(engine_state, action)
    assert state.game_state == engine_state


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in GAME_NAMES if game_named(name).observation_kinds()])
def test_openspiels_mcts_bot_plays_a_whole_game_through_the_adapter(name: str) -> None:
    """OpenSpiel's MCTS (chance nodes sampled from chance_outcomes) plays seat 0 of each game against random play."""
    game = load(players=2, game=name)
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
    assert not state.truncated
    assert game.game.is_terminal(state.game_state)
    # The game's own returns, adding up to its stakes' total: 1 shared by the winners by default, 0 if zero-sum.
    assert state.returns() == list(game.game.returns(state.game_state))
    assert sum(state.returns()) == pytest.approx(game.game.stakes(2).total)
