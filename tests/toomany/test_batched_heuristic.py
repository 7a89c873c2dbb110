"""The batched heuristic bot of Too Many Monkeys chooses exactly as :class:`~cheekymonkey.toomany.HeuristicBot`.

The heuristic uses no chance, so at every decision of a batched game its choice is one action: the game is
decoded to a :class:`~cheekymonkey.toomany.GameState`, the scalar bot asked (under several rng seeds, to show
it ignores them), and its action encoded; :meth:`BatchedTooManyMonkeys.heuristic_actions` and the heuristic's
:meth:`~cheekymonkey.batched.BatchedGame.bot_mask` must hold that index and nothing else. The games mix the
heuristic's moves with random ones so that they reach positions the heuristic alone would not.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from cheekymonkey.batched import random_legal_actions, seed_streams
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany import FaceDown, GameState, HeuristicBot, Phase, Ruleset
from cheekymonkey.toomany.batched import BatchedTooManyMonkeys, TooManyBatchState
from cheekymonkey.toomany.bots.base import face_up_count
from cheekymonkey.toomany.cards import Card
from tests.toomany.test_batched import ODD_RULESETS


def _ties(state: GameState) -> bool:
    """Whether two opponents of the mover show the same number of cards (the turn order breaks the tie)."""
    counts = [face_up_count(state.rows[(state.seat + k) % state.players]) for k in range(1, state.players)]
    return len(set(counts)) < len(counts)


def _kind(state: GameState, chosen: int) -> str:
    """What kind of choice the bot made, to show the test reached every clause of the rule."""
    phase = state.phase
    if phase is Phase.WILD:
        row = state.rows[state.seat]
        return "wild on a card turned down" if isinstance(row[chosen - 2], FaceDown) else "wild on the scarcest"
    if phase is Phase.DISTURB:
        offset, position = divmod(chosen - 10, 6)
        target = state.rows[(state.seat + offset) % state.players]
        kind = "turn down a wild" if target[position] is Card.WILD else "turn down a number"
        return kind + (", tie" if _ties(state) else "")
    if phase is Phase.SKIP:
        waiting = any(state.skips[(state.seat + k) % state.players] for k in range(1, state.players))
        return "skip" + (", another has one waiting" if waiting else "") + (", tie" if _ties(state) else "")
    if phase is Phase.START:
        return "take the discard" if chosen == 1 else "draw past the discard"
    return phase.name


def compare(engine: BatchedTooManyMonkeys, batch: int, steps: int, seed: int) -> Counter[str]:
    """Play ``steps`` steps of ``batch`` games, comparing the batched heuristic with the bot at every decision."""
    states = engine.init(batch, seed=seed)
    player = seed_streams(seed + 500, batch)
    bot = HeuristicBot()
    seen: Counter[str] = Counter()
    for step in range(steps):
        chosen = engine.heuristic_actions(states)
        mask = engine.bot_mask(states, "heuristic")
        for b in range(batch):
            if states.current_player[b] < 0:
                assert chosen[b] == 0
                assert not mask[b].any()
                continue
            state = engine.decode(states, b)
            expected = {engine.encoding.encode(bot.choose(state, random.Random(r)), state) for r in range(3)}
            assert expected == {int(chosen[b])}, state
            assert np.flatnonzero(mask[b]).tolist() == [int(chosen[b])], state
            assert states.legal_action_mask[b, chosen[b]]
            seen[_kind(state, int(chosen[b]))] += 1
            seen["decisions"] += 1
        # Every third step the random bot moves, so the games stray from the heuristic's own lines.
        moves = random_legal_actions(engine.bot_mask(states) if step % 3 == 2 else mask, player)
        engine.step(states, moves)
    return seen


@pytest.mark.parametrize(
    ("players", "ruleset"),
    [
        pytest.param(2, None, id="2 seats"),
        pytest.param(3, None, id="3 seats"),
        pytest.param(4, Ruleset.short(), id="4 seats, short"),
        pytest.param(6, None, id="6 seats"),
        pytest.param(3, ODD_RULESETS["rows of 3, no 4-6"], id="3 seats, rows of 3"),
        pytest.param(4, ODD_RULESETS["a missing 2, many wilds"], id="4 seats, many wilds"),
        pytest.param(2, ODD_RULESETS["rows of 1"], id="2 seats, rows of 1"),
        pytest.param(5, ODD_RULESETS["double deck"], id="5 seats, double deck"),
    ],
)
def test_the_batched_heuristic_chooses_what_heuristic_bot_chooses(players: int, ruleset: Ruleset | None) -> None:
    engine = BatchedTooManyMonkeys(players, ruleset, max_turns=200)
    seen = compare(engine, 24, 150, seed=players)
    assert seen["decisions"] > 1000
    if ruleset is None and players >= 3:
        for phase in ("take the discard", "draw past the discard", "BONUS", "RACCOON", "turn down a number"):
            assert seen[phase] > 0, (phase, seen)


def test_every_clause_of_the_heuristic_is_compared_many_times() -> None:
    """Over every seat count, each clause and each tie-break of the rule is met, and agreed on, often."""
    total: Counter[str] = Counter()
    for players in range(2, 7):
        total += compare(BatchedTooManyMonkeys(players, max_turns=300), 32, 200, seed=100 + players)
    total += compare(BatchedTooManyMonkeys(4, ODD_RULESETS["a missing 2, many wilds"]), 32, 150, seed=7)
    assert total["decisions"] > 20_000
    for kind in (
        "take the discard",
        "draw past the discard",
        "wild on the scarcest",
        "wild on a card turned down",
        "BONUS",
        "RACCOON",
        "turn down a number",
        "turn down a number, tie",
        "turn down a wild",
        "skip",
        "skip, tie",
        "skip, another has one waiting",
    ):
        assert total[kind] >= 5, (kind, total)


def test_the_heuristic_is_a_batched_bot_of_the_engine_and_checks_its_arguments() -> None:
    engine = BatchedTooManyMonkeys(3)
    assert engine.bots == ("random", "heuristic")
    states = engine.init(4, seed=2)
    out = np.full(4, -1, np.int64)
    assert engine.heuristic_actions(states, out=out) is out
    assert (out == engine.heuristic_actions(states)).all()
    mixed = engine.mixed_bot_mask(states, ("random", "heuristic"), np.array([0, 1, 0, 1]))
    assert (mixed[0::2] == states.legal_action_mask[0::2]).all()
    assert (mixed[1::2] == engine.bot_mask(states, "heuristic")[1::2]).all()
    for bad in (np.zeros(3, np.int64), np.zeros(4, np.int32), [0, 0, 0, 0]):
        with pytest.raises(InvalidValueError, match="out must be"):
            engine.heuristic_actions(states, out=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError):
        engine.heuristic_actions(BatchedTooManyMonkeys(2).init(4, seed=0))
    with pytest.raises(InvalidValueError, match="expectimax"):
        engine.bot_mask(states, "expectimax")


def test_the_vector_environment_seats_the_batched_heuristic_against_a_learner() -> None:
    """``SoloVectorEnv`` of Too Many Monkeys takes ``opponents="heuristic"`` (and seats it by default, as SoloEnv).

    Its opponents' moves come from the engine's compiled heuristic (the calls are counted on the real engine),
    and a learner that plays at random wins far less often against it than against the random bot.
    """
    from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv

    assert SoloVectorEnv(2, game="too-many-monkeys").opponents == ("heuristic",)
    wins: dict[str, float] = {}
    for opponent in ("random", "heuristic"):
        envs = SoloVectorEnv(64, players=2, seat=0, opponents=opponent, game="too-many-monkeys", max_turns=400)
        engine = envs.engine
        assert isinstance(engine, BatchedTooManyMonkeys)
        calls = Counter[str]()
        real = engine.heuristic_actions

        def counted(
            states: TooManyBatchState,
            out: npt.NDArray[np.int64] | None = None,
            real: Callable[..., npt.NDArray[np.int64]] = real,
            calls: Counter[str] = calls,
        ) -> npt.NDArray[np.int64]:
            calls["heuristic"] += 1
            return real(states, out)

        engine.heuristic_actions = counted  # type: ignore[method-assign]
        envs.reset(seed=3)
        player = seed_streams(9, 64)
        results: list[float] = []
        while len(results) < 300:
            masks = envs.action_masks()
            _, rewards, terminated, *_ = envs.step(random_legal_actions(masks, player))
            results.extend(rewards[terminated].tolist())
        wins[opponent] = sum(results) / len(results)
        assert (calls["heuristic"] > 0) is (opponent == "heuristic")
    assert 0.35 < wins["random"] < 0.65
    assert wins["heuristic"] < 0.3, wins  # 0.14 on this seed; 0.5 would be a random opponent
