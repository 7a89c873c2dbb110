"""The batched engine is the scalar engine: random batched games replayed step by step through the scalar one.

Every step of every game is replayed through :func:`~cheekymonkey.toomany.apply` with the same actions and
the chance outcomes the batch drew, and compared: the decoded state, the mask, the observation, the
rewards and the flags (by the Table's rule, :func:`~cheekymonkey.table.past_limits`, or a real
:class:`~cheekymonkey.table.Table`). The sampler is shown exact by enumerating every value of its integer
draw at hundreds of chance nodes.
"""

from __future__ import annotations

import importlib
import random
import sys
from array import array
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import pytest

import cheekymonkey.batched as shared
import cheekymonkey.toomany.batched as batched_module
from cheekymonkey.batched import random_legal_actions, seed_streams, stream_before
from cheekymonkey.cheeky.rules import Ruleset as CheekyRuleset
from cheekymonkey.errors import CheekyMonkeyError, IllegalActionError, InvalidValueError
from cheekymonkey.table import Seat, Table, past_limits
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    FaceDown,
    GameState,
    Phase,
    Ruleset,
    apply,
    chance_outcomes,
    chance_pool,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    outcome,
    sample_chance,
)
from cheekymonkey.toomany.actions import REVEALS, Action
from cheekymonkey.toomany.batched import BatchedTooManyMonkeys, TooManyBatchState, _state_of
from cheekymonkey.toomany.state import trusted_state

# Odd but legal rule sets: short rows, a number missing and stood in for by wilds, rows of one card, a deck
# twice the size, a seat range that starts at three.
ODD_RULESETS: dict[str, Ruleset] = {
    "rows of 3, no 4-6": Ruleset.custom(
        {1: 3, 2: 3, 3: 3, "wild": 2, "giraffe": 4, "raccoon": 3, "dnd": 3, "skip": 3}, row_size=3, max_players=3
    ),
    "a missing 2, many wilds": Ruleset.custom(
        {1: 5, 3: 5, "wild": 8, "raccoon": 5, "dnd": 4, "skip": 6}, row_size=3, max_players=4
    ),
    "rows of 1": Ruleset.custom(
        {1: 4, 2: 2, "wild": 1, "elephant": 3, "skip": 3, "dnd": 2, "raccoon": 2}, row_size=1, max_players=4
    ),
    "double deck": Ruleset(tuple(2 * count for count in Ruleset.standard().counts), name="double deck"),
    "three seats and more, rows of 5": Ruleset.custom(None, row_size=5, min_players=3),
}

# A deck of giraffes: nobody ever decides (a 1 drawn wins, anything else ends the turn), so every game ends
# before its first decision, after dozens of draws in one step.
GIRAFFES = Ruleset.custom({1: 3, "giraffe": 200}, row_size=1, max_players=2)


class Twin(Protocol):
    """The scalar side of one batched game."""

    @property
    def state(self) -> GameState: ...

    @property
    def truncated(self) -> bool: ...

    @property
    def counters(self) -> tuple[int, int]:
        """The steps played and the turns begun, as the Table counts them."""
        ...

    def deal(self) -> None: ...

    def play(self, action: Action) -> None: ...

    def returns(self) -> tuple[float, ...]: ...


class Lean:
    """One game of the scalar engine counted as a Table counts it (past_limits): lean enough for 10^6 steps."""

    __slots__ = ("max_steps", "max_turns", "players", "ruleset", "state", "steps", "truncated", "turns")

    def __init__(self, engine: BatchedTooManyMonkeys) -> None:
        self.players = engine.players
        self.ruleset = engine.ruleset
        self.max_turns = engine.max_turns
        self.max_steps = engine.max_steps
        self.deal()

    @property
    def counters(self) -> tuple[int, int]:
        return self.steps, self.turns

    def deal(self) -> None:
        self.state = new_game(self.players, ruleset=self.ruleset)
        self.turns = 1
        self.steps = 0
        self.truncated = False

    def play(self, action: Action) -> None:
        assert not self.truncated, f"{action!r} played after the limit"
        assert not is_terminal(self.state), f"{action!r} played after the end"
        self.state = state = apply(self.state, action)
        self.steps += 1
        if TOO_MANY_MONKEYS.begins_turn(state):
            self.turns += 1
        self.truncated = not is_terminal(state) and past_limits(self.turns, self.steps, self.max_turns, self.max_steps)

    def returns(self) -> tuple[float, ...]:
        return outcome(self.state).returns if is_terminal(self.state) else (0.0,) * self.players


class AtTable:
    """One game played at a real :class:`~cheekymonkey.table.Table`, with the engine's limits."""

    def __init__(self, engine: BatchedTooManyMonkeys) -> None:
        self.engine = engine
        self.deal()

    def deal(self) -> None:
        engine = self.engine
        seats = [Seat.person(f"P{seat}") for seat in range(engine.players)]
        self.table: Table[Any, Any, Any, Any, Any] = Table(
            TOO_MANY_MONKEYS,
            seats,
            ruleset=engine.ruleset,
            max_turns=engine.max_turns,
            max_steps=engine.max_steps,
            events=False,
        )

    @property
    def state(self) -> GameState:
        state: GameState = self.table.state
        return state

    @property
    def truncated(self) -> bool:
        return self.table.truncated

    @property
    def counters(self) -> tuple[int, int]:
        return len(self.table.actions), self.table.turns

    def play(self, action: Action) -> None:
        self.table.play(action)

    def returns(self) -> tuple[float, ...]:
        result = self.table.outcome()
        return (0.0,) * self.engine.players if result is None else result.returns


def compare(
    engine: BatchedTooManyMonkeys, batch: TooManyBatchState, i: int, twin: Twin, observed: Any, seen: Counter[str]
) -> None:
    """Game ``i`` of the batch against its twin, in everything the batch shows (``observed``: its observations)."""
    state = twin.state
    encoding = engine.encoding
    over = is_terminal(state)
    finished = over or twin.truncated
    assert finished or not is_chance_node(state), f"game {i} stopped at a chance node: {state!r}"
    if isinstance(twin, Lean):
        # The state built without its checks, for speed; the quick tests decode with them.
        assert _state_of(batch, i, engine.ruleset, trusted_state) == state, f"game {i}"
    else:
        assert engine.decode(batch, i) == state, f"game {i}"
    assert (int(batch.steps[i]), int(batch.turns[i])) == twin.counters, f"game {i}"
    if batch.no_decision[i]:
        # The first beat of a game that ended before anybody decided in it: a start, with nothing to play; the
        # end shows at the next step (cheekymonkey.rl.episodes' rule, as the RL adapters report it).
        assert finished, f"game {i}"
        assert batch.started[i], f"game {i}"
        assert not batch.terminated[i], f"game {i}"
        assert not batch.truncated[i], f"game {i}"
        assert not batch.rewards[i].any(), f"game {i}"
        seen["no decision"] += 1
    else:
        assert bool(batch.terminated[i]) is over, f"game {i}"
        assert bool(batch.truncated[i]) is twin.truncated, f"game {i}"
        assert tuple(batch.rewards[i].tolist()) == twin.returns(), f"game {i}"
        seen["terminated"] += over
    assert batch.current_player[i] == (-1 if finished else state.seat), f"game {i}"
    mask = batch.legal_action_mask[i].tolist()
    assert mask == ([False] * engine.num_actions if finished else list(encoding.action_mask(state))), f"game {i}"
    expected = encoding.observe(state, None if finished else state.seat)  # the mover's, or a spectator's
    if observed.dtype == np.int32:
        assert observed[i].tobytes() == array("i", expected).tobytes(), f"game {i}"
    else:
        assert observed[i].tolist() == [float(value) for value in expected], f"game {i}"
    seen[state.phase.name] += 1
    seen["truncated"] += twin.truncated and not batch.no_decision[i]
    seen["reshuffled"] += state.pile is not None
    seen["turned down"] += any(slot.__class__ is FaceDown for row in state.rows for slot in row)


def replay(
    engine: BatchedTooManyMonkeys,
    batch_size: int,
    steps: int,
    seed: int,
    twin: Callable[[BatchedTooManyMonkeys], Twin] = Lean,
    dtype: Any = np.int32,
) -> Counter[str]:
    """Play ``steps`` random steps of ``batch_size`` batched games, replaying and comparing each; what was seen."""
    seen: Counter[str] = Counter()
    batch = engine.init(batch_size, seed)
    player = seed_streams(seed + 1, batch_size)
    twins = [twin(engine) for _ in range(batch_size)]

    def follow(i: int) -> None:
        game = twins[i]
        drawn = int(batch.outcome_count[i])
        for index in batch.outcomes[i, :drawn].tolist():
            game.play(REVEALS[index])
        seen["chance"] += drawn
        seen["most chance in a step"] = max(seen["most chance in a step"], drawn)

    observed = engine.observation(batch, dtype=dtype)
    assert batch.started.all()
    for i in range(batch_size):
        follow(i)
        compare(engine, batch, i, twins[i], observed, seen)
    decode = engine.encoding.decode
    for _ in range(steps):
        actions = random_legal_actions(batch.legal_action_mask, player)
        done = (batch.terminated | batch.truncated).tolist()
        pending = batch.no_decision.tolist()
        engine.step(batch, actions)
        assert batch.started.tolist() == done
        observed = engine.observation(batch, dtype=dtype)
        for i, action in enumerate(actions.tolist()):
            game = twins[i]
            if done[i]:
                game.deal()
                seen["dealt"] += 1
            elif pending[i]:
                # The second beat: nothing is played (the action, 0 as nothing is legal, is ignored).
                assert batch.outcome_count[i] == 0
                assert not batch.no_decision[i]
                seen["second beats"] += 1
            else:
                game.play(decode(action, game.state))
                seen["decisions"] += 1
            follow(i)
            compare(engine, batch, i, game, observed, seen)
    return seen


DECISIONS = ("START", "WILD", "BONUS", "RACCOON", "DISTURB", "SKIP")

QUICK = [
    pytest.param(2, None, None, None, "full", id="2 seats"),
    pytest.param(3, Ruleset.short(), None, None, "table", id="3 seats, short, table"),
    pytest.param(6, None, None, None, "full", id="6 seats"),
    pytest.param(3, ODD_RULESETS["rows of 3, no 4-6"], None, None, "full", id="3 seats, rows of 3"),
    pytest.param(4, ODD_RULESETS["a missing 2, many wilds"], None, None, "table", id="4 seats, a missing 2"),
    pytest.param(2, ODD_RULESETS["rows of 1"], None, None, "full", id="2 seats, rows of 1"),
    pytest.param(5, ODD_RULESETS["double deck"], None, None, "full", id="5 seats, double deck"),
    pytest.param(6, ODD_RULESETS["three seats and more, rows of 5"], None, None, "table", id="6 seats, rows of 5"),
    pytest.param(2, None, 3, None, "full", id="2 seats, max_turns 3"),
    pytest.param(3, None, None, 4, "full", id="3 seats, max_steps 4"),
    pytest.param(6, Ruleset.short(), 20, 150, "full", id="6 seats, both limits"),
]


@pytest.mark.parametrize(("players", "ruleset", "max_turns", "max_steps", "kind"), QUICK)
def test_batched_games_replay_step_by_step_through_the_scalar_engine(
    players: int, ruleset: Ruleset | None, max_turns: int | None, max_steps: int | None, kind: str
) -> None:
    engine = BatchedTooManyMonkeys(players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=kind)
    seen = replay(engine, 8, 400, seed=players, twin=AtTable, dtype=np.float32)
    assert seen["decisions"] > (500 if max_steps == 4 else 1000)  # at 4 steps, many games end undecided
    assert seen["OVER"] + seen["truncated"] > 0
    if max_turns is None and max_steps is None:
        assert seen["truncated"] == 0
        assert seen["START"] > 0


@pytest.mark.slow
def test_a_million_batched_steps_replay_through_the_scalar_engine() -> None:
    """At 2, 3 and 6 seats, presets and odd rule sets, limits or none: over 10^6 steps, each one compared."""
    cases = [
        (BatchedTooManyMonkeys(2), 200_000),
        (BatchedTooManyMonkeys(3, Ruleset.short(), observation="table"), 140_000),
        (BatchedTooManyMonkeys(6), 200_000),
        (BatchedTooManyMonkeys(3, ODD_RULESETS["rows of 3, no 4-6"], observation="table"), 75_000),
        (BatchedTooManyMonkeys(4, ODD_RULESETS["a missing 2, many wilds"]), 75_000),
        (BatchedTooManyMonkeys(2, ODD_RULESETS["rows of 1"], observation="table"), 75_000),
        (BatchedTooManyMonkeys(5, ODD_RULESETS["double deck"], observation="table"), 75_000),
        (BatchedTooManyMonkeys(6, ODD_RULESETS["three seats and more, rows of 5"]), 75_000),
        (BatchedTooManyMonkeys(2, max_turns=40, observation="table"), 50_000),
        (BatchedTooManyMonkeys(6, Ruleset.short(), max_turns=60, max_steps=300), 50_000),
        (BatchedTooManyMonkeys(2, GIRAFFES, max_steps=5000), 10_000),
    ]
    total: Counter[str] = Counter()
    for seed, (engine, steps) in enumerate(cases):
        batch_size = 50
        seen = replay(engine, batch_size, steps // batch_size, seed=1000 + seed)
        assert seen["OVER"] > 0, engine
        total.update(seen)
        total["steps"] += batch_size * (steps // batch_size + 1)
    assert total["steps"] >= 1_000_000
    assert all(total[phase] > 1000 for phase in DECISIONS)
    assert all(total[what] > 1000 for what in ("OVER", "truncated", "reshuffled", "turned down", "dealt"))


def test_a_game_cut_off_before_its_first_decision_is_reported_in_two_beats() -> None:
    """With max_steps=1 the first draw ends every game: a start with nothing to play, then the end, then a new game.

    The RL adapters' two beats (cheekymonkey.rl.episodes): the step that deals the game (or init) reports a
    start, neither terminated nor truncated, with an all-False mask and ``no_decision``; the next, whatever
    action it is given, plays nothing and reports the game truncated with zero rewards; the one after deals anew.
    """
    engine = BatchedTooManyMonkeys(2, max_steps=1)
    batch = engine.init(16, seed=3)
    firsts = set()
    for step in range(6):
        first_beat = step % 2 == 0
        assert not batch.legal_action_mask.any()
        assert (batch.current_player == -1).all()
        assert not batch.rewards.any()
        assert not batch.terminated.any()
        assert bool(batch.no_decision.all()) is first_beat
        assert bool(batch.truncated.all()) is not first_beat
        assert bool(batch.started.all()) is first_beat
        assert (batch.outcome_count == (1 if first_beat else 0)).all()  # the first draw, then nothing
        assert (batch.steps == 1).all()
        if first_beat:
            firsts.update(batch.outcomes[:, 0].tolist())
        before = batch.data.copy()
        engine.step(batch, np.full(16, 99 + step))  # out of range, and ignored either way
        if first_beat:
            assert (batch.data == before).all()  # nothing played at the second beat
    assert len(firsts) > 1


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize(
    ("limit", "value"), [(limit, value) for limit in ("max_turns", "max_steps") for value in range(1, 6)]
)
def test_limits_from_1_to_5_end_games_as_a_table_with_those_limits_does(players: int, limit: str, value: int) -> None:
    engine = BatchedTooManyMonkeys(
        players, max_turns=value if limit == "max_turns" else None, max_steps=value if limit == "max_steps" else None
    )
    seen = replay(engine, 16, 12, seed=value, twin=AtTable)
    assert seen["truncated"] > 0
    if (limit == "max_steps" and value <= 2) or (limit == "max_turns" and value == 1):
        assert seen["no decision"] > 0
        assert seen["second beats"] > 0


def test_a_game_won_before_any_decision_is_terminated_a_step_later_and_long_steps_widen_the_outcomes() -> None:
    # Every game of giraffes ends before anybody decides: dealt (init, or every second step), then its end.
    engine = BatchedTooManyMonkeys(2, GIRAFFES)
    seen = replay(engine, 8, 20, seed=5, twin=AtTable)
    assert seen["no decision"] == 8 * 11
    assert seen["terminated"] == seen["second beats"] == 8 * 10
    assert seen["OVER"] == 8 * 21
    assert seen["most chance in a step"] > BatchedTooManyMonkeys.max_outcomes  # the row of outcomes was widened


@pytest.mark.parametrize("kind", ["full", "table"])
def test_every_seat_and_a_spectator_observe_as_the_encoding_says(kind: str) -> None:
    engine = BatchedTooManyMonkeys(4, observation=kind)
    batch = engine.init(32, seed=11)
    player = seed_streams(12, 32)
    for _ in range(60):
        engine.step(batch, random_legal_actions(batch.legal_action_mask, player))
    states = [engine.decode(batch, i) for i in range(32)]
    for seat in range(4):
        observed = engine.observation(batch, seat, dtype=np.int64)
        assert [tuple(row) for row in observed.tolist()] == [engine.encoding.observe(s, seat) for s in states]
    spectator = engine.observation(batch, -1, dtype=np.int64)
    assert [tuple(row) for row in spectator.tolist()] == [engine.encoding.observe(s, None) for s in states]
    seats = np.arange(32) % 5 - 1  # -1: a spectator
    observed = engine.observation(batch, seats)
    for i, state in enumerate(states):
        viewer = None if seats[i] == -1 else int(seats[i])
        assert observed[i].tolist() == [float(v) for v in engine.encoding.observe(state, viewer)]
    assert observed.dtype == np.float32
    out = np.full((32, engine.observation_size), 7, np.int16)  # an array of the caller's, written over whole
    assert engine.observation(batch, seats, out=out) is out
    assert (out == observed).all()


def chance_steps(each: int) -> list[tuple[GameState, Action]]:
    """Decisions whose action leads to a chance node, ``each`` of every kind of node, from random games."""
    rng = random.Random(29)
    rulesets = [Ruleset.standard(), Ruleset.short(), *ODD_RULESETS.values()]
    kinds = [
        (phase, reshuffled) for phase in (Phase.DRAW, Phase.CHOSEN_DRAW, Phase.TURN_UP) for reshuffled in (False, True)
    ]
    found: dict[tuple[Phase, bool], list[tuple[GameState, Action]]] = {kind: [] for kind in kinds}
    games = 0
    while any(len(steps) < each for steps in found.values()):
        ruleset = rulesets[games % len(rulesets)]
        games += 1
        state = new_game(rng.randint(ruleset.min_players, ruleset.max_players), ruleset=ruleset)
        while not is_terminal(state):
            if is_chance_node(state):
                state = apply(state, sample_chance(state, rng))
                continue
            action = rng.choice(legal_actions(state))
            after = apply(state, action)
            if is_chance_node(after):
                steps = found[after.phase, after.pile is not None]
                if len(steps) < each and rng.random() < 0.2:
                    steps.append((state, action))
            state = after
    return [step for steps in found.values() for step in steps]


def test_the_sampler_draws_each_card_with_exactly_the_scalar_engines_probability() -> None:
    """At 300 chance nodes of every kind, every candidate the stream can give is tried through a real step.

    Each candidate below the pool's size must reveal one card, each card as many candidates as its count (the
    scalar engine's probability times the size); a candidate of the size or more must be turned down, the draw
    made from the next word.
    """
    for state, action in chance_steps(50):
        engine = BatchedTooManyMonkeys(state.players, state.ruleset)
        after = apply(state, action)
        total = sum(chance_pool(after))
        bits = max(1, (total - 1).bit_length())
        words = [candidate << (64 - bits) for candidate in range(1 << bits)]
        index = engine.encoding.encode(action, state)
        batch = engine.init(len(words), seed=0)
        for slot, word in enumerate(words):
            engine.put(batch, slot, state)
            batch.rng[slot] = stream_before(word)
        engine.step(batch, np.full(len(words), index))
        assert (batch.outcome_count >= 1).all()
        drawn = batch.outcomes[:, 0].tolist()
        tally = Counter(drawn[:total])
        assert {k: Fraction(count, total) for k, count in tally.items()} == {
            reveal.card - 1: probability for reveal, probability in chance_outcomes(after)
        }, state
        rejected = range(total, 1 << bits)
        assert 2 * len(rejected) < len(words) or total == 1
        if rejected:
            again = engine.init(len(rejected), seed=0)
            for slot, candidate in enumerate(rejected):
                engine.put(again, slot, state)
                again.rng[slot] = (stream_before(words[candidate]) + int(shared._GAMMA)) % (1 << 64)
            engine.step(again, np.full(len(rejected), index))
            assert again.outcomes[:, 0].tolist() == drawn[total:]


def test_each_game_has_its_own_stream_from_the_seed_and_its_index() -> None:
    engine = BatchedTooManyMonkeys(3)
    batches = [engine.init(4, 99), engine.init(8, 99), engine.init(8, 99), engine.init(8, 100)]
    players = [seed_streams(5, 4), seed_streams(5, 8), seed_streams(5, 8), seed_streams(5, 8)]
    for _ in range(50):
        for batch, player in zip(batches, players, strict=True):
            engine.step(batch, random_legal_actions(batch.legal_action_mask, player))
    small, large, again, other = batches
    assert (large.data == again.data).all()
    assert (large.data[:4] == small.data).all()  # game i is the same whatever the batch size
    assert len({row.tobytes() for row in large.data}) == 8
    assert not (large.data == other.data).all(axis=1).any()


def test_put_sets_a_game_to_a_decision_and_it_plays_on_from_there() -> None:
    engine = BatchedTooManyMonkeys(3, max_turns=50)
    batch = engine.init(4, seed=2)
    state = engine.decode(batch, 1)
    engine.put(batch, 3, state, steps=7, turns=5)
    assert engine.decode(batch, 3) == state
    assert (batch.legal_action_mask[3] == batch.legal_action_mask[1]).all()
    assert (batch.steps[3], batch.turns[3], batch.current_player[3]) == (7, 5, state.seat)
    for wrong in (new_game(3), new_game(2), "state"):
        with pytest.raises(InvalidValueError):
            engine.put(batch, 0, wrong)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="steps"):
        engine.put(batch, 0, state, steps=-1)


def test_an_illegal_action_is_refused_with_the_games_state_and_nothing_changes() -> None:
    engine = BatchedTooManyMonkeys(2)
    batch = engine.init(6, seed=1)
    before = {name: array.copy() for name, array in batch.arrays().items()}
    actions = random_legal_actions(batch.legal_action_mask, seed_streams(2, 6))
    illegal = int(np.flatnonzero(~batch.legal_action_mask[3])[0])
    actions[3] = illegal
    with pytest.raises(IllegalActionError) as error:
        engine.step(batch, actions)
    state = engine.decode(batch, 3)
    assert error.value.state == state
    assert error.value.action == engine.encoding.decode(illegal, state)
    assert "game 3" in error.value.reason
    actions[3] = engine.num_actions  # out of range
    with pytest.raises(IllegalActionError, match="not legal"):
        engine.step(batch, actions)
    for name, array_before in before.items():
        assert (getattr(batch, name) == array_before).all(), name


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda e, b: e.step(b, np.zeros(5, dtype=np.int64)), "one per game"),
        (lambda e, b: e.step(b, np.zeros(6, dtype=np.float64)), "one per game"),
        (lambda e, b: e.step(b, [[0]] * 6), "one per game"),
        (lambda e, b: e.step(object(), np.zeros(6, dtype=np.int64)), "TooManyBatchState"),
        (lambda e, b: e.step(BatchedTooManyMonkeys(3).init(6, 0), np.zeros(6, dtype=np.int64)), "2 seats"),
        (lambda e, b: e.init(0, 1), "batch_size"),
        (lambda e, b: e.init(True, 1), "batch_size"),
        (lambda e, b: e.init(4, 1.5), "seed"),
        (lambda e, b: e.decode(b, 6), "not one of"),
        (lambda e, b: e.decode(b, True), "not one of"),
        (lambda e, b: e.observation(b, 2), "seat"),
        (lambda e, b: e.observation(b, -2), "seat"),
        (lambda e, b: e.observation(b, [0, 1]), "seat"),
        (lambda e, b: e.observation(b, np.full(6, -2)), "seat"),
        (lambda e, b: e.observation(b, 0.5), "integer"),
        (lambda e, b: e.observation(b, out=np.zeros((6, 3))), "out"),
    ],
)
def test_wrong_input_is_refused_with_a_typed_error(call: Callable[[Any, Any], object], match: str) -> None:
    engine = BatchedTooManyMonkeys(2)
    batch = engine.init(6, seed=1)
    before = batch.data.copy()
    with pytest.raises(InvalidValueError, match=match):
        call(engine, batch)
    assert (batch.data == before).all()


@pytest.mark.parametrize(
    ("arguments", "match"),
    [
        ({"players": 1}, "seats"),
        ({"players": 7}, "seats"),
        ({"players": 4, "ruleset": ODD_RULESETS["rows of 3, no 4-6"]}, "seats"),
        ({"players": 2, "ruleset": CheekyRuleset.standard()}, "Ruleset"),
        ({"players": 2, "ruleset": "long"}, "preset"),
        ({"players": 2, "observation": "partial"}, "observation kind"),
        ({"players": 2, "max_turns": 0}, "max_turns"),
        ({"players": 2, "max_steps": True}, "max_steps"),
        ({"players": 2, "ruleset": Ruleset.custom({1: 40_000, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, "wild": 4})}, "16 bits"),
    ],
)
def test_an_engine_that_cannot_be_built_is_refused_with_a_typed_error(arguments: dict[str, Any], match: str) -> None:
    with pytest.raises(CheekyMonkeyError, match=match):
        BatchedTooManyMonkeys(**arguments)


def test_a_preset_may_be_named() -> None:
    assert BatchedTooManyMonkeys(2, "short").ruleset is Ruleset.short()


def test_without_numba_the_import_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.delitem(sys.modules, "cheekymonkey.batched")
    monkeypatch.delitem(sys.modules, "cheekymonkey.toomany.batched")
    with pytest.raises(ImportError, match=r"pip install 'cheekymonkey\[batched\]'"):
        importlib.import_module("cheekymonkey.toomany.batched")
    monkeypatch.setitem(sys.modules, "cheekymonkey.batched", shared)
    monkeypatch.setitem(sys.modules, "cheekymonkey.toomany.batched", batched_module)
