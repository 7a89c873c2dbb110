"""The batched engine's compiled expectimax search chooses exactly what ExpectimaxBot chooses.

:meth:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey.expectimax_actions` ports the bot's search and the
position value it reads to a compiled loop over the batch's arrays, adding its numbers in the bot's order. These
tests play batched games (the compiled choice in half the games, random legal moves in the others, to reach
varied positions), decode every decision, ask a scalar ``ExpectimaxBot`` what it chooses, and count the
decisions where the two differ: none, ties included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cheekymonkey import Animal, ExpectimaxBot, Ruleset, apply
from cheekymonkey.batched import random_legal_actions, seed_streams
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey
from cheekymonkey.cheeky.bots.evaluation import _Evaluator
from cheekymonkey.cheeky.bots.expectimax import _best_stacking
from cheekymonkey.cheeky.state import Phase
from cheekymonkey.errors import InvalidValueError

E, S, H, G, P, K, L, M = Animal
REPEATED_TILES = Ruleset.custom({S: 5, L: 1, M: 4}, bonus_values={S: 2, L: 9, M: 2}, name="repeated tiles")
NO_SWAP = Ruleset.custom({H: 3, G: 4, P: 2, M: 5}, swap=False, name="no swap")
NO_TILES = Ruleset.custom({E: 2, S: 2, K: 6, M: 3}, bonus_tiles=False, name="no tiles")
LOPSIDED = Ruleset.custom({E: 1, S: 2, H: 3, G: 4, P: 13, K: 2, L: 1, M: 20}, name="lopsided")


def disagreements(engine: BatchedCheekyMonkey, depth: int, decisions: int, seed: int) -> tuple[int, int, set[str]]:
    """(decisions compared, decisions where the compiled search and ExpectimaxBot differ, kinds of action seen)."""
    batch = 32
    states = engine.init(batch, seed)
    streams = seed_streams(seed + 1, batch)
    bot = ExpectimaxBot(depth)
    rng = random.Random(seed)
    compared = 0
    differ = 0
    kinds: set[str] = set()
    while compared < decisions:
        ours = engine.expectimax_actions(states, depth)
        for b in np.flatnonzero(states.current_player >= 0):
            state = engine.decode(states, int(b))
            expected = bot.choose(state, rng)
            kinds.add(type(expected).__name__)
            if engine.encoding.decode(int(ours[b]), state) != expected:
                differ += 1
            compared += 1
        moves = random_legal_actions(states.legal_action_mask, streams)
        moves[::2] = ours[::2]
        engine.step(states, moves)
    return compared, differ, kinds


@pytest.mark.parametrize(
    ("players", "ruleset", "depth"),
    [
        (2, "standard", 2),
        (3, "standard", 2),
        (2, "standard", 1),
        (2, LOPSIDED, 3),
        (3, REPEATED_TILES, 2),
        (4, NO_SWAP, 2),
        (3, NO_TILES, 2),
    ],
)
def test_the_compiled_expectimax_chooses_what_expectimax_bot_chooses(
    players: int, ruleset: Ruleset | str, depth: int
) -> None:
    """At every decision of seeded batched games, the same action as ExpectimaxBot(depth), and every kind met."""
    engine = BatchedCheekyMonkey(players, ruleset, max_turns=60)
    compared, differ, kinds = disagreements(engine, depth, 1500, seed=players * 10 + depth)
    assert compared >= 1500
    assert differ == 0
    # Placing, stopping, drawing and claiming all came up (herds and swaps too where the games reach them).
    assert {"Place", "Stop", "Draw", "Claim"} <= kinds


def test_the_batched_expectimax_bot_is_one_action_where_somebody_decides() -> None:
    """bot_mask(states, "expectimax") holds the compiled choice alone, nothing where nobody decides; where= too."""
    engine = BatchedCheekyMonkey(2)
    states = engine.init(64, seed=9)
    player = seed_streams(10, 64)
    for _ in range(40):
        mask = engine.bot_mask(states, "expectimax")
        deciding = states.current_player >= 0
        assert (mask.sum(axis=1) == deciding).all()
        chosen = engine.expectimax_actions(states)
        assert (np.argmax(mask, axis=1)[deciding] == chosen[deciding]).all()
        assert (chosen[~deciding] == 0).all()
        assert (states.legal_action_mask[deciding, chosen[deciding]]).all()
        # where=: the same choice in the games asked for, 0 in the others.
        where = np.arange(64) % 3 == 0
        some = engine.expectimax_actions(states, where=where)
        assert (some[where] == chosen[where]).all()
        assert (some[~where] == 0).all()
        engine.step(states, random_legal_actions(mask, player))


def test_the_compiled_expectimax_refuses_a_bad_depth_out_or_where() -> None:
    """A depth that is not a positive integer, or an out or where array of the wrong kind, is a typed error."""
    engine = BatchedCheekyMonkey(2)
    states = engine.init(4, seed=1)
    for depth in (0, -1, True, 2.0, "2"):
        with pytest.raises(InvalidValueError, match="depth"):
            engine.expectimax_actions(states, depth)  # type: ignore[arg-type]
    for out in (np.zeros(3, np.int64), np.zeros(4, np.int32), [0, 0, 0, 0]):
        with pytest.raises(InvalidValueError, match="out"):
            engine.expectimax_actions(states, out=out)  # type: ignore[arg-type]
    for where in (np.ones(3, np.bool_), np.ones(4, np.int64), [True] * 4):
        with pytest.raises(InvalidValueError, match="where"):
            engine.expectimax_actions(states, where=where)  # type: ignore[arg-type]
    out = np.full(4, -7, np.int64)
    assert engine.expectimax_actions(states, out=out) is out
    assert (out >= 0).all()


def test_the_compiled_expectimax_keeps_the_values_of_the_candidates_it_weighed() -> None:
    """values= receives ExpectimaxBot.action_values' number for each candidate weighed, NaN for every other action.

    While placing it receives a value for each animal in front, the bot's choice among the best.
    """
    engine = BatchedCheekyMonkey(3)
    states = engine.init(32, seed=21)
    player = seed_streams(22, 32)
    values = np.zeros((32, engine.num_actions), np.float64)
    weighed = 0
    placings = 0
    for _ in range(60):
        chosen = engine.expectimax_actions(states, values=values)
        for b in range(32):
            found = np.flatnonzero(~np.isnan(values[b]))
            if found.size == 0:
                continue
            assert found.size >= 2
            assert chosen[b] in found
            state = engine.decode(states, b)
            if state.phase is Phase.PLACING:
                # One value per animal in front, the bot's valuation of where placing it first leads (its best
                # order of the rest, or the position once the rest has followed); its choice is one of the best.
                assert set(found.tolist()) == set(np.flatnonzero(states.legal_action_mask[b]).tolist())
                evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
                for index in found:
                    after = apply(state, engine.encoding.decode(int(index), state))
                    if after.phase is Phase.PLACING:
                        expected = _best_stacking(after, evaluator)[1]
                    else:
                        expected = evaluator.value(after.stacks, after.bag)
                    assert values[b, index] == pytest.approx(expected, rel=1e-12, abs=1e-12)
                assert values[b, chosen[b]] >= values[b, found].max() - 1e-12
                placings += 1
                continue
            scalar = {
                engine.encoding.encode(action, state): value for action, value in ExpectimaxBot().action_values(state)
            }
            for index in found:
                assert values[b, index] == pytest.approx(scalar[int(index)], rel=1e-12, abs=1e-12)
            assert values[b, chosen[b]] >= values[b, found].max() - 1e-12  # ties go to the earlier candidate
            weighed += 1
        engine.step(states, random_legal_actions(engine.bot_mask(states), player))
    assert weighed > 300
    assert placings > 100
    with pytest.raises(InvalidValueError, match="values"):
        engine.expectimax_actions(states, values=np.zeros((32, 3), np.float64))


def test_the_batched_simulation_and_the_vector_env_play_the_batched_expectimax_bot() -> None:
    """simulate_batched and SoloVectorEnv take "expectimax"; it beats the heuristic bot in a seeded batched run."""
    from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv
    from cheekymonkey.simulation.batched import simulate_batched

    summary = simulate_batched(["expectimax", "heuristic"], 1000, seed=3)
    assert summary.games + summary.truncated == 1000
    expectimax, heuristic = summary.bots
    assert expectimax.wins + heuristic.wins == pytest.approx(summary.games)
    assert expectimax.low > 0.5
    envs = SoloVectorEnv(8, players=2, seat=0, opponents="expectimax")
    envs.reset(seed=5)
    ended = 0
    for _ in range(400):
        masks = envs.action_masks()
        _, rewards, terminated, truncated, _ = envs.step(np.argmax(masks, axis=1))
        ended += int((terminated | truncated).sum())
        assert set(np.unique(rewards).tolist()) <= {0.0, 0.5, 1.0}
    assert ended > 0
