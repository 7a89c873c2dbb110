"""Policies beside named bots everywhere: weights files (``policy:PATH``) and callables in every route.

A policy's weights file (:func:`~cheekymonkey.simulation.policies.load_policy`) is read into a
:class:`~cheekymonkey.simulation.policies.NetworkPolicy` and seated by :func:`simulate`, the batched simulation,
:func:`league`, :func:`table_league` and the command line. The batched simulation gives a policy what its
:class:`~cheekymonkey.simulation.PolicyBot` would give it at a Table (checked against the decoded games), and a
file refused anywhere is refused with :class:`~cheekymonkey.InvalidValueError` (status 2 from the command line).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cheekymonkey import Animal, InvalidValueError, Ruleset
from cheekymonkey.batched import engine_class
from cheekymonkey.cli import main
from cheekymonkey.games import game_named
from cheekymonkey.simulation import PolicyBot, SimulationProgress, as_bot, league, simulate
from cheekymonkey.simulation.batched import _PolicyMover, simulate_batched
from cheekymonkey.simulation.leagues import table_league
from cheekymonkey.simulation.policies import NetworkPolicy, load_policy, policy_file
from tests.test_simulation_batched import assert_agree

ROOT = Path(__file__).resolve().parent.parent
TRAINED = ROOT / "training" / "tmm_policy.npz"
"""Too Many Monkeys' trained network (two seats, the full observation): a weights file as the trainer writes it."""
SMALL = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})
GAMES = ("cheeky-monkey", "too-many-monkeys")


def first_legal(observation: Any, mask: Any) -> int:
    """A policy: the lowest legal index (module level, so worker processes can unpickle it)."""
    return int(np.flatnonzero(mask)[0])


def last_legal(observation: Any, mask: Any) -> int:
    """A policy: the highest legal index."""
    return int(np.flatnonzero(mask)[-1])


def first_legal_tuples(observation: Any, mask: Any) -> int:
    """The same policy on tuples."""
    assert isinstance(observation, tuple)
    assert isinstance(mask, tuple)
    return mask.index(True)


def lowest_index_file(
    path: Path, game: str, *, seats: int = 2, ruleset: Any = None, observation: str | None = None
) -> Path:
    """A weights file for ``seats`` seats whose network plays the lowest legal index: the bias falls with the index.

    Two layers, so the ReLU between them is crossed (the hidden units are 0 and the bias of the last layer decides).
    """
    encoding = game_named(game).encoding(seats, ruleset, observation)
    size, actions = encoding.observation_size, encoding.num_actions
    parts: dict[str, Any] = {
        "w1": np.zeros((size, 4), np.float32),
        "b1": np.full(4, -1.0, np.float32),
        "w2": np.ones((4, actions), np.float32),
        "b2": -np.arange(actions, dtype=np.float32),
        "scale": np.full(size, 0.5, np.float32),
    }
    if observation is not None:
        parts["observation"] = np.array(observation)
    np.savez(path, **parts)
    return path


# -- the network --------------------------------------------------------------------------------------------


def test_a_network_scales_its_input_applies_each_layer_with_a_relu_between_and_plays_the_best_legal_index() -> None:
    """A network worked by hand: x * scale, then x @ w1 + b1, ReLU, then @ w2 + b2; the legal index of top score."""
    network = NetworkPolicy(
        [
            (np.array([[1.0, -1.0], [0.0, 2.0]]), np.array([0.0, 1.0])),
            (np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]]), np.array([0.0, 0.0, -1.0])),
        ],
        scale=np.array([1.0, 0.5]),
    )
    # [3, 2] * [1, 0.5] = [3, 1]; @ w1 + b1 = [3, -3 + 2 + 1] = [3, 0]; ReLU; @ w2 + b2 = [3, 0, 5].
    np.testing.assert_array_equal(network.scores(np.array([[3.0, 2.0]])), [[3.0, 0.0, 5.0]])
    # [1, 4] -> [1, 4]; @ w1 + b1 = [1, -1 + 8 + 1] = [1, 8]; @ w2 + b2 = [1, 8, 1].
    np.testing.assert_array_equal(network.scores(np.array([[1.0, 8.0]])), [[1.0, 8.0, 1.0]])
    assert network(np.array([3.0, 2.0]), np.array([True, True, True])) == 2
    assert network(np.array([3.0, 2.0]), np.array([True, True, False])) == 0
    assert network(np.array([3.0, 2.0]), np.array([False, True, False])) == 1
    # A tie goes to the lowest legal index.
    assert network(np.array([1.0, 8.0]), np.array([True, False, True])) == 0
    assert network(np.array([1.0, 8.0]), np.array([False, False, True])) == 2
    # [-5, 0] -> @ w1 + b1 = [-5, 6]; the ReLU cuts -5 to 0 (without it the scores would be [-5, 6, -11]).
    np.testing.assert_array_equal(network.scores(np.array([[-5.0, 0.0]])), [[0.0, 6.0, -1.0]])
    batch = network.choose_batch(
        np.array([[3.0, 2.0], [1.0, 8.0]]), np.array([[True, True, False], [True, True, True]])
    )
    assert batch.tolist() == [0, 1]
    assert (network.inputs, network.outputs) == (2, 3)
    assert repr(network) == "NetworkPolicy(network: 2 -> 2 -> 3)"


def test_the_trained_file_loads_as_its_trainer_plays_it() -> None:
    """Too Many Monkeys' weights: one hidden layer of ReLU units after the scale, as the trainer plays them."""
    network = load_policy(TRAINED)
    with np.load(TRAINED) as weights:
        parts = {key: weights[key].astype(np.float64) for key in ("scale", "w1", "b1", "w2", "b2")}
        players = int(weights["players"])
    assert network.players == players == 2
    assert network.observation is None
    game = game_named("too-many-monkeys")
    network.check(game.encoding(2), 2)
    rows = np.random.default_rng(0).integers(0, 4, size=(50, network.inputs)).astype(np.float64)
    hidden = np.maximum(rows * parts["scale"] @ parts["w1"] + parts["b1"], 0.0)
    np.testing.assert_allclose(network.scores(rows), hidden @ parts["w2"] + parts["b2"], rtol=1e-12, atol=1e-9)
    with pytest.raises(InvalidValueError, match="trained for 2 seats, not 3"):
        network.check(game.encoding(3), 3)
    with pytest.raises(InvalidValueError, match=r"reads 780 observation entries and scores 23 actions; .* 144"):
        network.check(game.encoding(2, None, "table"), 2)


def _save(path: Path, **parts: Any) -> Path:
    np.savez(path, **parts)
    return path


W = np.zeros((3, 2))
B = np.zeros(2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "missing.npz", "cannot read the policy's weights file .*missing.npz: No such file"),
        (lambda tmp: tmp, "is a folder, not a policy's weights file"),
        (lambda tmp: _text(tmp / "junk.npz", "not numbers"), r"junk.npz is not a policy's weights file \(an .npz"),
        (lambda tmp: _npy(tmp / "one.npy"), "it holds a single array"),
        (lambda tmp: _save(tmp / "empty.npz"), "holds no layer: a policy's weights file has w1 and b1 at least"),
        (lambda tmp: _save(tmp / "half.npz", w1=W), "lacks b1: each layer k needs both wk and bk"),
        (lambda tmp: _save(tmp / "gap.npz", w1=W, b1=B, w3=W, b3=B), "holds parts .* does not have: b3, w3"),
        (lambda tmp: _save(tmp / "extra.npz", w1=W, b1=B, bias=B), "holds parts .* does not have: bias"),
        (lambda tmp: _save(tmp / "shape.npz", w1=W, b1=np.zeros(3)), r"w1 of shape \(3, 2\) and b1 of shape \(3,\)"),
        (lambda tmp: _save(tmp / "flat.npz", w1=np.zeros(3), b1=B), r"w1 of shape \(3,\)"),
        (
            lambda tmp: _save(tmp / "chain.npz", w1=W, b1=B, w2=np.zeros((3, 2)), b2=B),
            "layer 2 takes 3 inputs, but layer 1 gives 2",
        ),
        (lambda tmp: _save(tmp / "nan.npz", w1=np.full((3, 2), np.nan), b1=B), "layer 1 holds a number that is not"),
        (lambda tmp: _save(tmp / "inf.npz", w1=W, b1=np.array([0, np.inf])), "not finite"),
        (lambda tmp: _save(tmp / "text.npz", w1=np.array([["a", "b"]]), b1=B), "not numbers"),
        (lambda tmp: _save(tmp / "objects.npz", w1=np.array([None, 1], dtype=object), b1=B), "is not a policy's"),
        (lambda tmp: _save(tmp / "scale.npz", w1=W, b1=B, scale=np.ones(2)), r"scale must be 3 numbers.*\(2,\)"),
        (lambda tmp: _save(tmp / "nanscale.npz", w1=W, b1=B, scale=np.array([1, np.nan, 1])), "scale holds a number"),
        (lambda tmp: _save(tmp / "seats.npz", w1=W, b1=B, players=np.array([2, 3])), "players must be one whole"),
        (lambda tmp: _save(tmp / "zero.npz", w1=W, b1=B, players=np.int64(0)), "players must be a positive whole"),
        (lambda tmp: _save(tmp / "kind.npz", w1=W, b1=B, observation=np.int64(1)), "observation must be the name"),
        (lambda tmp: Path(" "), "needs a path: policy:PATH"),
    ],
)
def test_a_file_that_is_not_a_policys_weights_is_refused_saying_why(make: Any, message: str, tmp_path: Path) -> None:
    """Missing, a folder, not numpy's, one array, a part missing, extra or of the wrong shape, not finite: refused."""
    path = make(tmp_path)
    with pytest.raises(InvalidValueError, match=message):
        load_policy(str(path) if path == Path(" ") else path)


def _text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _npy(path: Path) -> Path:
    np.save(path, np.zeros(3))
    return path


def test_a_files_observation_kind_is_the_one_its_bot_reads(tmp_path: Path) -> None:
    """A file that names an observation kind is given that kind; one the game lacks is refused, naming the file."""
    path = lowest_index_file(tmp_path / "table.npz", "too-many-monkeys", observation="table")
    bot = policy_file(path, game_named("too-many-monkeys"))
    assert bot.observation == "table"
    assert bot.name == f"policy:{path}"
    bot.check_table(2, None)
    full = load_policy(lowest_index_file(tmp_path / "full.npz", "too-many-monkeys"))
    with pytest.raises(InvalidValueError, match=r"reads 780 observation entries and scores 23 actions; .* 144"):
        PolicyBot(full, game_named("too-many-monkeys"), observation="table").check_table(2, None)
    np.savez(tmp_path / "odd.npz", w1=W, b1=B, observation=np.array("everything"))
    with pytest.raises(InvalidValueError, match=r"odd.npz: no observation kind 'everything'"):
        policy_file(tmp_path / "odd.npz", game_named("too-many-monkeys"))


# -- simulate, league, table_league ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_simulate_seats_a_weights_file_beside_a_named_bot_as_the_policy_it_holds(name: str, tmp_path: Path) -> None:
    """``"policy:PATH"``, a Path and the callable it is equivalent to (the lowest legal index) play the same games."""
    rules = SMALL if name == "cheeky-monkey" else None
    path = lowest_index_file(tmp_path / "lowest.npz", name, ruleset=rules)
    options: dict[str, Any] = {"seed": 4, "game": name, "max_turns": 300, "ruleset": rules}
    by_text = simulate(["heuristic", f"policy:{path}"], 16, **options)
    by_path = simulate(["heuristic", path], 16, **options)
    by_callable = simulate(
        ["heuristic", PolicyBot(first_legal, game_named(name), name=f"policy:{path}")], 16, **options
    )
    pooled = simulate(["heuristic", f"policy:{path}"], 16, workers=2, **options)
    assert [line.name for line in by_text.bots] == ["heuristic", f"policy:{path}"]
    assert by_text == by_path == by_callable == pooled
    other = PolicyBot(last_legal, game_named(name), name=f"policy:{path}")
    assert simulate(["heuristic", other], 16, **options) != by_text  # the file's choices are what it played


def test_simulate_refuses_a_file_that_does_not_fit_the_table_before_any_game(tmp_path: Path) -> None:
    """Other seats or another game's shapes: InvalidValueError before a block is played (no progress reported)."""
    seen: list[SimulationProgress] = []
    with pytest.raises(InvalidValueError, match="trained for 2 seats, not 3"):
        simulate(["heuristic", f"policy:{TRAINED}"], 10, players=3, game="too-many-monkeys", progress=seen.append)
    with pytest.raises(InvalidValueError, match="reads 780 observation entries and scores 23 actions"):
        simulate(["heuristic", f"policy:{TRAINED}"], 10, game="cheeky-monkey", progress=seen.append)
    with pytest.raises(InvalidValueError, match="cannot read the policy's weights file"):
        simulate(["heuristic", f"policy:{tmp_path / 'nothing.npz'}"], 10, progress=seen.append)
    assert seen == []
    with pytest.raises(InvalidValueError, match="is a folder"):
        as_bot(tmp_path, game_named("cheeky-monkey"))


def test_a_policy_of_another_game_is_refused_before_any_game() -> None:
    """A PolicyBot wrapped for Cheeky Monkey at a Too Many Monkeys table: refused by every route, naming both."""
    other = PolicyBot(first_legal, game_named("cheeky-monkey"), name="cheeky policy")
    refusal = "policy cheeky policy plays Cheeky Monkey, not Too Many Monkeys"
    with pytest.raises(InvalidValueError, match=refusal):
        simulate(["heuristic", other], 4, game="too-many-monkeys")
    with pytest.raises(InvalidValueError, match=refusal):
        simulate_batched(["heuristic", other], 4, game="too-many-monkeys")
    with pytest.raises(InvalidValueError, match=refusal):
        league(["heuristic", other], 2, game="too-many-monkeys")
    with pytest.raises(InvalidValueError, match=refusal):
        table_league(["heuristic", "random", other], 2, 3, game="too-many-monkeys")


def test_a_league_and_a_table_league_rate_a_weights_file_beside_named_bots(tmp_path: Path) -> None:
    """The file enters as ``"policy:PATH"`` and plays as the callable it is equivalent to; a bad one is refused."""
    path = lowest_index_file(tmp_path / "lowest.npz", "too-many-monkeys")
    label = f"policy:{path}"
    same = PolicyBot(first_legal, game_named("too-many-monkeys"), name=label)
    options: dict[str, Any] = {"seed": 2, "game": "too-many-monkeys", "max_turns": 300}
    by_file = league(["random", "heuristic", label], 6, **options)
    assert by_file == league(["random", "heuristic", same], 6, **options)
    assert {line.name for line in by_file.standings} == {"random", "heuristic", label}
    three = f"policy:{lowest_index_file(tmp_path / 'three.npz', 'too-many-monkeys', seats=3)}"
    tables = table_league(["random", "heuristic", three], 2, 3, **options)
    same_three = PolicyBot(first_legal, game_named("too-many-monkeys"), name=three)
    assert tables == table_league(["random", "heuristic", same_three], 2, 3, **options)
    assert {line.name for line in tables.standings} == {"random", "heuristic", three}
    with pytest.raises(InvalidValueError, match="trained for 2 seats, not 3"):
        table_league(["random", "heuristic", f"policy:{TRAINED}"], 2, 3, **options)
    with pytest.raises(InvalidValueError, match="scores 23 actions"):
        league(["random", f"policy:{TRAINED}"], 2, game="cheeky-monkey")


# -- the batched simulation ------------------------------------------------------------------------------------


def _played_states(name: str, players: int, rows: int, steps: int, seed: int) -> tuple[Any, list[Any]]:
    """An engine and the batch after each of ``steps`` random steps from ``seed``."""
    engine = engine_class(name)(players, SMALL if name == "cheeky-monkey" else None)
    states = engine.init(rows, seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        mask = states.legal_action_mask
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask], np.int64)
        states = engine.step(states, actions)
        seen.append(states.copy())
    return engine, seen


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("observation", "scaled", "arrays"), [(None, False, True), ("table", True, True), (None, True, False)]
)
def test_the_batched_simulation_gives_a_policy_what_its_bot_gives_it_at_a_table(
    name: str, observation: str | None, scaled: bool, arrays: bool
) -> None:
    """Each game's observation and mask, read from the batch, equal PolicyBot.inputs of the decoded game."""
    game = game_named(name)
    calls: list[tuple[Any, Any]] = []

    def record(seen: Any, mask: Any) -> int:
        calls.append((seen, mask))
        return first_legal(np.asarray(mask), np.asarray(mask))

    bot = PolicyBot(record, game, observation=observation, scaled=scaled, arrays=arrays, name="recorder")
    engine, batches = _played_states(name, 3, 16, 40, seed=11)
    mover = _PolicyMover(bot, [0, 1, 2], engine_class(name)(3, engine.ruleset, observation=observation))
    compared = 0
    for states in batches:
        calls.clear()
        rows = np.arange(states.batch_size, dtype=np.int64)
        mask = np.zeros_like(states.legal_action_mask)
        mover.choose(states, rows, mask)
        deciding = [i for i in range(states.batch_size) if states.current_player[i] >= 0]
        assert len(calls) == len(deciding)
        for (seen, given_mask), i in zip(calls, deciding, strict=True):
            expected_observation, expected_mask = bot.inputs(engine.decode(states, i))
            if arrays:
                assert seen.dtype == np.float32
                assert given_mask.dtype == np.bool_
                np.testing.assert_array_equal(seen, expected_observation)
                np.testing.assert_array_equal(given_mask, expected_mask)
            else:
                assert seen == expected_observation
                assert given_mask == expected_mask
            assert mask[i].tolist() == [k == first_legal(None, expected_mask) for k in range(mask.shape[1])]
            compared += 1
        for i in set(range(states.batch_size)) - set(deciding):
            assert not mask[i].any()  # a row where chance acts is left as it was
    assert compared > 200


def test_the_batched_simulation_plays_a_weights_file_as_its_bot_chooses_at_a_table() -> None:
    """The trained network called once for many games picks, in every game, what PolicyBot.choose picks."""
    game = game_named("too-many-monkeys")
    bot = policy_file(TRAINED, game)
    engine, batches = _played_states("too-many-monkeys", 2, 32, 60, seed=5)
    mover = _PolicyMover(bot, [0, 1], engine_class("too-many-monkeys")(2))
    assert mover.batch is not None  # the whole batch in one call
    encoding = game.encoding(2)
    compared = 0
    for states in batches:
        rows = np.arange(states.batch_size, dtype=np.int64)
        mask = np.zeros_like(states.legal_action_mask)
        mover.choose(states, rows, mask)
        for i in range(states.batch_size):
            if states.current_player[i] < 0:
                continue
            state = engine.decode(states, i)
            assert np.flatnonzero(mask[i]).tolist() == [encoding.encode(bot.choose(state, random.Random(0)), state)]
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize("name", GAMES)
def test_simulate_batched_seats_policies_beside_batched_bots(name: str, tmp_path: Path) -> None:
    """A weights file, a callable, and a PolicyBot on tuples: one summary, the policy's own choices in it."""
    rules = SMALL if name == "cheeky-monkey" else None
    path = lowest_index_file(tmp_path / "lowest.npz", name, seats=3, ruleset=rules)
    options: dict[str, Any] = {"seed": 3, "game": name, "players": 3, "batch_size": 16, "ruleset": rules}
    label = f"policy:{path}"
    by_file = simulate_batched(["heuristic", label], 60, **options)
    by_callable = simulate_batched(["heuristic", PolicyBot(first_legal, game_named(name), name=label)], 60, **options)
    tuples = PolicyBot(first_legal_tuples, game_named(name), arrays=False, name=label)
    assert by_file == by_callable == simulate_batched(["heuristic", tuples], 60, **options)
    assert [line.name for line in by_file.bots] == ["heuristic 0", label, "heuristic 2"]
    assert by_file.games + by_file.truncated == 60
    other = PolicyBot(last_legal, game_named(name), name=label)
    assert simulate_batched(["heuristic", other], 60, **options) != by_file
    assert simulate_batched(["heuristic", first_legal], 60, **options).bots[1].name == "first_legal"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "players", "games"), [("cheeky-monkey", 3, 3000), ("too-many-monkeys", 2, 1500)], ids=["cheeky", "tmm"]
)
def test_a_policy_beside_a_bot_gets_the_same_figures_batched_as_at_tables(
    name: str, players: int, games: int, tmp_path: Path
) -> None:
    """The same entries (the heuristic bot and a weights file) batched and at Tables: figures within intervals.

    Cheeky Monkey: the lowest-index network at three seats of small rules; Too Many Monkeys: the trained network.
    The games differ (the engine's streams), so the win rates, places, scores and lengths are compared.
    """
    rules = SMALL if name == "cheeky-monkey" else None
    path = lowest_index_file(tmp_path / "lowest.npz", name, seats=players, ruleset=rules) if rules else TRAINED
    bots = ["heuristic", f"policy:{path}"]
    options: dict[str, Any] = {"seed": 0, "ruleset": rules, "players": players, "game": name}
    scalar = simulate(bots, games, **options)
    batched = simulate_batched(bots, games, **options)
    assert_agree(scalar, batched)
    assert [line.name for line in batched.bots] == [line.name for line in scalar.bots]


def test_simulate_batched_refuses_bots_without_a_batched_form_and_bad_policies(tmp_path: Path) -> None:
    """A bot object, a file that does not fit, an illegal choice: InvalidValueError naming it."""
    game = game_named("too-many-monkeys")
    from cheekymonkey.toomany import HeuristicBot

    with pytest.raises(InvalidValueError, match="has no batched form: the batched simulation plays the bots named"):
        simulate_batched(["heuristic", HeuristicBot()], 4, game=game)
    with pytest.raises(InvalidValueError, match=r"has no batched form for Too Many Monkeys.*and policies"):
        simulate_batched(["expectimax", f"policy:{TRAINED}"], 4, game=game)
    with pytest.raises(InvalidValueError, match="trained for 2 seats, not 4"):
        simulate_batched(["heuristic", f"policy:{TRAINED}"], 4, game=game, players=4)
    with pytest.raises(InvalidValueError, match="is not a policy's weights file"):
        simulate_batched(["heuristic", f"policy:{_text(tmp_path / 'x.npz', 'x')}"], 4, game=game)

    def nine(observation: Any, mask: Any) -> int:
        return 99

    with pytest.raises(InvalidValueError, match=r"policy .*nine chose index 99, which is not legal here \(legal: "):
        simulate_batched(["heuristic", nine], 4, game=game)

    class Batch:
        def __call__(self, observation: Any, mask: Any) -> int:
            return 0

        def choose_batch(self, observations: Any, masks: Any) -> Any:
            return np.zeros(len(observations) + 1, np.int64)

    with pytest.raises(InvalidValueError, match=r"chose \d+ actions for \d+ games"):
        simulate_batched(["heuristic", Batch()], 4, game=game)


# -- the command line ------------------------------------------------------------------------------------------


def test_the_command_simulates_a_weights_file_beside_a_bot_scalar_and_batched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bots heuristic,policy:FILE`` plays the file's network, with --batched too; the summary names it."""
    out = tmp_path / "summary.json"
    bots = f"heuristic,POLICY:{TRAINED}"
    common = ["--game", "too-many-monkeys", "--bots", bots, "--games", "20", "--seed", "1"]
    assert main(["simulate", *common, "--json", str(out)]) == 0
    scalar = json.loads(out.read_text())
    assert [line["name"] for line in scalar["bots"]] == ["heuristic", f"policy:{TRAINED}"]
    direct = simulate(["heuristic", f"policy:{TRAINED}"], 20, seed=1, game="too-many-monkeys")
    assert json.loads(json.dumps(direct.to_dict())) == scalar
    assert main(["simulate", *common, "--batched", "--json", str(out)]) == 0
    batched = json.loads(out.read_text())
    assert [line["name"] for line in batched["bots"]] == ["heuristic", f"policy:{TRAINED}"]
    assert batched["games"] + batched["truncated"] == 20
    assert f"policy:{TRAINED}" in capsys.readouterr().out


def test_the_league_command_rates_a_weights_file_beside_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``league --bots random,heuristic,policy:FILE`` (and with --seats) plays it; the table names it."""
    path = lowest_index_file(tmp_path / "lowest.npz", "too-many-monkeys")
    at_three = lowest_index_file(tmp_path / "three.npz", "too-many-monkeys", seats=3)
    out = tmp_path / "league.json"
    bots = f"random,heuristic,policy:{path}"
    assert main(["league", "--game", "too-many-monkeys", "--bots", bots, "--games", "4", "--json", str(out)]) == 0
    entries = {line["name"] for line in json.loads(out.read_text())["standings"]}
    assert entries == {"random", "heuristic", f"policy:{path}"}
    capsys.readouterr()
    bots = f"random,heuristic,policy:{at_three}"
    assert main(["league", "--game", "too-many-monkeys", "--bots", bots, "--games", "2", "--seats", "3"]) == 0
    assert f"policy:{at_three}" in capsys.readouterr().out


def _bad_files(tmp_path: Path) -> list[tuple[list[str], str]]:
    junk = _text(tmp_path / "junk.npz", "junk")
    lacking = _save(tmp_path / "lacking.npz", w1=W)
    trained = f"policy:{TRAINED}"
    too_many = ["--game", "too-many-monkeys"]
    return [
        (["simulate", *too_many, "--bots", f"heuristic,policy:{tmp_path / 'none.npz'}"], "No such file or directory"),
        (["simulate", *too_many, "--bots", f"heuristic,policy:{junk}"], "junk.npz is not a policy's weights file"),
        (["simulate", *too_many, "--bots", f"heuristic,policy:{lacking}"], "lacking.npz lacks b1"),
        (["simulate", *too_many, "--bots", f"heuristic,policy:{tmp_path}"], "is a folder"),
        (["simulate", *too_many, "--bots", f"heuristic,{trained}", "--players", "3"], "trained for 2 seats, not 3"),
        (["simulate", "--bots", f"heuristic,{trained}"], "reads 780 observation entries"),
        (["simulate", *too_many, "--bots", f"heuristic,{trained}", "--batched", "--players", "3"], "for 2 seats"),
        (["simulate", *too_many, "--bots", f"expectimax,{trained}", "--batched"], "and policies, not expectimax"),
        (["league", *too_many, "--bots", f"heuristic,policy:{junk}"], "junk.npz is not a policy's weights file"),
        (["league", *too_many, "--bots", f"heuristic,{trained}", "--seats", "3"], "trained for 2 seats, not 3"),
        (["league", "--bots", f"heuristic,{trained}"], "reads 780 observation entries"),
    ]


def test_the_commands_refuse_a_bad_weights_file_with_status_2_and_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every bad file, or one that does not fit the table: status 2, the command and the file named, no game."""
    for arguments, message in _bad_files(tmp_path):
        assert main([*arguments, "--games", "2"]) == 2, arguments
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"cheekymonkey {arguments[0]}: --"), captured.err
        assert message in captured.err, (arguments, captured.err)
        assert len(captured.err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "--bots", "heuristic,policy:"])
    assert exited.value.code == 2
    assert "name the policy's weights file, e.g. policy:net.npz" in capsys.readouterr().err


def test_a_bad_weights_file_shows_no_traceback_from_the_installed_command(tmp_path: Path) -> None:
    """The real process: status 2, one line naming the file on standard error, no traceback."""
    junk = _text(tmp_path / "junk.npz", "junk")
    for command in ("simulate", "league"):
        done = subprocess.run(
            [sys.executable, "-m", "cheekymonkey", command, "--bots", f"heuristic,policy:{junk}", "--games", "2"],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            env={**os.environ, "COLUMNS": "120"},
        )
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        refusal = f"{junk} is not a policy's weights file (an .npz of w1, b1, ...)"
        assert done.stderr.strip() == f"cheekymonkey {command}: --bots policy:{junk}: {refusal}"
