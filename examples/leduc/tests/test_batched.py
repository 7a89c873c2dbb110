"""The batched engine is the scalar engine: random batched hands replayed step by step through the scalar one.

Every step of every hand is replayed through :meth:`~cheekymonkey_leduc.Leduc.apply` with the same decisions and
the cards the batch dealt, and compared: the decoded state, the seat to act, the mask, both observations of
every seat and a spectator, the rewards (:meth:`~cheekymonkey_leduc.Leduc.returns`) and the flags (by the
Table's rule, :func:`~cheekymonkey.table.past_limits`, or a real :class:`~cheekymonkey.table.Table`). The deal
is shown exact by trying every value of its integer draw at the first deal and at the public card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

import cheekymonkey.batched as shared
import numpy as np
import pytest
from cheekymonkey.batched import BatchedGame, engine_class, random_legal_actions, seed_streams, stream_before
from cheekymonkey.errors import CheekyMonkeyError, IllegalActionError, InvalidValueError
from cheekymonkey.table import Seat, Table, past_limits
from cheekymonkey.testing import check_game

from cheekymonkey_leduc import CALL, LEDUC, Deal, LeducState, Rules
from cheekymonkey_leduc.actions import BETS, Action
from cheekymonkey_leduc.batched import BatchedLeduc, LeducBatchState

ODD = Rules(ante=2, raises=(3, 7), max_raises=3)
"""A rule set of other figures: a bigger ante, other raises, three raises a round."""


class Twin(Protocol):
    """The scalar side of one batched hand."""

    @property
    def state(self) -> LeducState: ...

    @property
    def truncated(self) -> bool: ...

    @property
    def counters(self) -> tuple[int, int]:
        """The steps played and the turns begun, as the Table counts them."""
        ...

    def deal(self) -> None: ...

    def play(self, action: Action) -> None: ...


class Lean:
    """One hand of the scalar engine, counted as a Table counts it (begins_turn, past_limits)."""

    def __init__(self, engine: BatchedLeduc) -> None:
        self.engine = engine
        self.deal()

    @property
    def counters(self) -> tuple[int, int]:
        return self.steps, self.turns

    def deal(self) -> None:
        self.state = LEDUC.new_game(self.engine.players, self.engine.ruleset)
        self.steps = 0
        self.turns = 1 if LEDUC.begins_turn(self.state) else 0
        self.truncated = False

    def play(self, action: Action) -> None:
        assert not self.truncated, f"{action!r} played after the limit"
        self.state = state = LEDUC.apply(self.state, action)
        self.steps += 1
        self.turns += LEDUC.begins_turn(state)
        engine = self.engine
        self.truncated = not state.over and past_limits(self.turns, self.steps, engine.max_turns, engine.max_steps)


class AtTable:
    """One hand played at a real :class:`~cheekymonkey.table.Table`, with the engine's limits."""

    def __init__(self, engine: BatchedLeduc) -> None:
        self.engine = engine
        self.deal()

    def deal(self) -> None:
        engine = self.engine
        seats = [Seat.person(f"P{seat}") for seat in range(engine.players)]
        self.table: Table[Any, Any, Any, Any, Any] = Table(
            LEDUC, seats, ruleset=engine.ruleset, max_turns=engine.max_turns, max_steps=engine.max_steps, events=False
        )

    @property
    def state(self) -> LeducState:
        state: LeducState = self.table.state
        return state

    @property
    def truncated(self) -> bool:
        return self.table.truncated

    @property
    def counters(self) -> tuple[int, int]:
        return len(self.table.actions), self.table.turns

    def play(self, action: Action) -> None:
        self.table.play(action)


def compare(
    engines: tuple[BatchedLeduc, BatchedLeduc], batch: LeducBatchState, i: int, twin: Twin, seen: Counter[str]
) -> None:
    """Hand ``i`` of the batch against its twin, in everything the batch shows."""
    engine = engines[0]
    state = twin.state
    over = state.over
    finished = over or twin.truncated
    assert finished or not LEDUC.is_chance_node(state), f"hand {i} stopped at a chance node: {state!r}"
    assert engine.decode(batch, i) == state, f"hand {i}"
    assert (int(batch.steps[i]), int(batch.turns[i])) == twin.counters, f"hand {i}"
    zeros = [0.0] * engine.players
    if batch.no_decision[i]:
        # The first beat of a hand cut off before anybody decided: a start with nothing to play.
        assert finished, f"hand {i}"
        assert batch.started[i], f"hand {i}"
        assert not batch.terminated[i], f"hand {i}"
        assert not batch.truncated[i], f"hand {i}"
        assert batch.rewards[i].tolist() == zeros, f"hand {i}"
        seen["no decision"] += 1
    else:
        assert bool(batch.terminated[i]) is over, f"hand {i}"
        assert bool(batch.truncated[i]) is twin.truncated, f"hand {i}"
        # The chips won, as the scalar engine pays them (float64 there, float32 here).
        expected = [float(np.float32(value)) for value in LEDUC.returns(state)] if over else zeros
        assert batch.rewards[i].tolist() == expected, f"hand {i}"
        seen["terminated"] += over
        seen["showdown"] += over and state.folded.count(False) > 1
    assert batch.current_player[i] == (-1 if finished else state.seat), f"hand {i}"
    mask = batch.legal_action_mask[i].tolist()
    if finished:
        assert mask == [False] * 3, f"hand {i}"
    else:
        assert mask == list(engine.encoding.action_mask(state)), f"hand {i}"
        legal = [BETS.index(bet) for bet in LEDUC.legal_actions(state)]
        assert [index for index in range(3) if mask[index]] == sorted(legal), f"hand {i}"
    seen["truncated"] += twin.truncated and not batch.no_decision[i]
    seen[f"round {state.round}"] += 1
    seen["folded"] += any(state.folded)
    seen["raises capped"] += state.raises == state.rules.max_raises


def observe_all(engines: tuple[BatchedLeduc, BatchedLeduc], batch: LeducBatchState, twins: list[Any]) -> None:
    """Both kinds of observation, of the seat to act and of every seat and a spectator, against the encoding's."""
    n = engines[0].players
    for engine in engines:
        # Both engines have the same seats and rules, so either reads the other's states.
        encoding = engine.encoding
        movers = engine.observation(batch)
        for i, twin in enumerate(twins):
            seat = int(batch.current_player[i])
            assert movers[i].tolist() == list(encoding.observe(twin.state, None if seat < 0 else seat)), i
        for seat in range(-1, n):
            seen = engine.observation(batch, seat, dtype=np.int32)
            for i, twin in enumerate(twins):
                assert seen[i].tolist() == list(encoding.observe(twin.state, None if seat < 0 else seat)), (i, seat)


def replay(
    engine: BatchedLeduc, batch_size: int, steps: int, seed: int, twin: Callable[[BatchedLeduc], Twin] = Lean
) -> Counter[str]:
    """Play ``steps`` random steps of ``batch_size`` batched hands, replaying and comparing each; what was seen."""
    other = "information" if engine.observation_kind == "view" else "view"
    engines = (engine, BatchedLeduc(engine.players, engine.ruleset, observation=other))
    seen: Counter[str] = Counter()
    batch = engine.init(batch_size, seed)
    player = seed_streams(seed + 1, batch_size)
    twins = [twin(engine) for _ in range(batch_size)]

    def follow(i: int) -> None:
        drawn = int(batch.outcome_count[i])
        for card in batch.outcomes[i, :drawn].tolist():
            assert engine.outcome_action(card) == Deal(card)
            twins[i].play(Deal(card))
        seen["cards dealt"] += drawn

    assert batch.started.all()
    for i in range(batch_size):
        follow(i)
        compare(engines, batch, i, twins[i], seen)
    observe_all(engines, batch, twins)
    for _ in range(steps):
        actions = random_legal_actions(batch.legal_action_mask, player)
        done = (batch.terminated | batch.truncated).tolist()
        pending = batch.no_decision.tolist()
        engine.step(batch, actions)
        assert batch.started.tolist() == done
        for i, action in enumerate(actions.tolist()):
            game = twins[i]
            if done[i]:
                game.deal()
                seen["hands"] += 1
            elif pending[i]:
                # The second beat: nothing is played (the action is ignored).
                assert batch.outcome_count[i] == 0
                assert not batch.no_decision[i]
                seen["second beats"] += 1
            else:
                game.play(engine.encoding.decode(action, game.state))
                seen["decisions"] += 1
            follow(i)
            compare(engines, batch, i, game, seen)
        observe_all(engines, batch, twins)
    return seen


QUICK = [
    pytest.param(2, None, None, None, "view", id="2 seats"),
    pytest.param(2, ODD, None, None, "information", id="2 seats, odd rules, information"),
    pytest.param(3, None, None, None, "information", id="3 seats, information"),
    pytest.param(4, ODD, None, None, "view", id="4 seats, odd rules"),
    pytest.param(6, None, None, None, "view", id="6 seats"),
    pytest.param(10, None, None, None, "information", id="10 seats, information"),
    pytest.param(3, None, 4, None, "view", id="3 seats, max_turns 4"),
    pytest.param(4, None, None, 9, "information", id="4 seats, max_steps 9"),
    pytest.param(5, ODD, 12, 20, "view", id="5 seats, both limits"),
]


@pytest.mark.parametrize(("players", "ruleset", "max_turns", "max_steps", "kind"), QUICK)
def test_batched_hands_replay_step_by_step_through_the_scalar_engine(
    players: int, ruleset: Rules | None, max_turns: int | None, max_steps: int | None, kind: str
) -> None:
    """Random legal play, every step of every hand compared: state, counters, mask, observations, rewards, flags."""
    engine = BatchedLeduc(players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=kind)
    seen = replay(engine, 8, 150, seed=players)
    assert seen["decisions"] > 800
    assert seen["hands"] > 20
    if max_turns is None and max_steps is None:
        assert seen["truncated"] == 0
        assert seen["terminated"] > 20
        assert seen["showdown"] > 0
        assert seen["folded"] > 0
        assert seen["raises capped"] > 0
        assert seen["round 2"] > 0
    else:
        assert seen["truncated"] > 0


@pytest.mark.slow
def test_many_batched_hands_replay_through_the_scalar_engine() -> None:
    """At 2 to 10 seats, both observations, other rules, limits or none: over 180,000 decisions, each compared."""
    cases = [
        (BatchedLeduc(2), 5000),
        (BatchedLeduc(2, observation="information"), 3000),
        (BatchedLeduc(3, ODD), 3000),
        (BatchedLeduc(7, observation="information", max_turns=10), 1500),
        (BatchedLeduc(10), 1500),
    ]
    decisions = 0
    for seed, (engine, steps) in enumerate(cases):
        seen = replay(engine, 16, steps, seed=100 + seed)
        decisions += seen["decisions"]
        # Hands end often, by the rules in every case, and by the turn limit where there is one.
        assert seen["terminated"] + seen["truncated"] > steps // 10
        assert seen["terminated"] > 50
        assert (seen["truncated"] > 50) is (engine.max_turns is not None)
    assert decisions > 180_000


def test_a_hand_cut_off_before_its_first_decision_is_reported_in_two_beats() -> None:
    """With max_steps=1 the first deal ends every hand: a start with nothing to play, then the end, then a new hand.

    The RL adapters' two beats: the step that deals the hand (or init) reports a start, neither terminated nor
    truncated, with an all-False mask and ``no_decision``; the next, whatever action it is given, plays nothing
    and reports the hand truncated with zero rewards; the one after deals anew.
    """
    engine = BatchedLeduc(2, max_steps=1)
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
        assert (batch.outcome_count == (1 if first_beat else 0)).all()  # the first card, then nothing
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
    ("limit", "value"), [(limit, value) for limit in ("max_turns", "max_steps") for value in (1, 2, 3, 5)]
)
def test_limits_end_hands_as_a_table_with_those_limits_does(players: int, limit: str, value: int) -> None:
    """Small limits of either kind, at a real Table: the same hands cut off at the same step, counted alike."""
    engine = BatchedLeduc(
        players, max_turns=value if limit == "max_turns" else None, max_steps=value if limit == "max_steps" else None
    )
    seen = replay(engine, 12, 24, seed=value, twin=AtTable)
    assert seen["truncated"] > 0
    if limit == "max_steps" and value <= players:  # the limit comes in the deal, before any decision
        assert seen["no decision"] > 0
        assert seen["second beats"] > 0
    else:
        assert seen["no decision"] == 0


def to_the_end(engine: BatchedLeduc, batch: LeducBatchState) -> None:
    """Every hand checked through to its end, in step: n calls, the public card, n calls."""
    for _ in range(2 * engine.players):
        engine.step(batch, np.ones(batch.batch_size, np.int64))
    assert batch.terminated.all()


def candidates(total: int) -> tuple[list[int], int]:
    """Every word whose candidate (its top bits) differs, for a draw below ``total``; and the bits."""
    bits = max(1, (total - 1).bit_length())
    return [candidate << (64 - bits) for candidate in range(1 << bits)], bits


@pytest.mark.parametrize("players", [2, 3, 10])
def test_the_first_card_is_each_card_of_the_deck_with_exactly_the_scalar_engines_probability(players: int) -> None:
    """Every candidate the stream can give for the first private card, tried through a real step (a new hand).

    Each candidate below the deck's size deals one card, each card once (the scalar engine's probability times
    the size); a candidate of the size or more is turned down, the card drawn from the next word.
    """
    engine = BatchedLeduc(players)
    total = engine.num_cards
    words, bits = candidates(total)
    batch = engine.init(len(words), seed=0)
    to_the_end(engine, batch)
    for slot, word in enumerate(words):
        batch.rng[slot] = stream_before(word)
    engine.step(batch, np.zeros(len(words), np.int64))
    assert (batch.outcome_count == players).all()
    drawn = batch.outcomes[:, 0].tolist()
    tally = Counter(drawn[:total])
    start = LEDUC.new_game(players)
    assert {card: Fraction(count, total) for card, count in tally.items()} == {
        deal.card: probability  # type: ignore[union-attr]
        for deal, probability in LEDUC.chance_outcomes(start)
    }
    rejected = range(total, 1 << bits)
    assert 2 * len(rejected) < len(words)
    if not rejected:  # a deck of a power of two (8 cards at 3 seats): every candidate deals a card
        assert total == len(words)
        return
    again = engine.init(len(rejected), seed=0)
    to_the_end(engine, again)
    for slot, candidate in enumerate(rejected):
        again.rng[slot] = (stream_before(words[candidate]) + int(shared._GAMMA)) % (1 << 64)
    engine.step(again, np.zeros(len(rejected), np.int64))
    assert again.outcomes[:, 0].tolist() == drawn[total:]


@pytest.mark.parametrize("players", [2, 3, 10])
def test_the_public_card_is_each_card_left_with_exactly_the_scalar_engines_probability(players: int) -> None:
    """The last check of round 1 deals the public card: each candidate below the cards left picks one of them.

    In every hand the candidates below the number of cards left give each card left once, in ascending order,
    as :meth:`~cheekymonkey_leduc.Leduc.chance_outcomes` lists them, each with probability one in that number.
    """
    engine = BatchedLeduc(players)
    total = engine.num_cards - players
    words, _ = candidates(total)
    batch = engine.init(16 * len(words), seed=players)
    for _ in range(players - 1):
        engine.step(batch, np.ones(batch.batch_size, np.int64))
    before = [LEDUC.apply(engine.decode(batch, i), CALL) for i in range(batch.batch_size)]
    for slot in range(batch.batch_size):
        batch.rng[slot] = stream_before(words[slot % len(words)])
    engine.step(batch, np.ones(batch.batch_size, np.int64))
    assert (batch.outcome_count == 1).all()
    hands: Counter[tuple[int | None, ...]] = Counter()
    for slot, state in enumerate(before):
        candidate = slot % len(words)
        if candidate >= total:
            continue
        outcomes = LEDUC.chance_outcomes(state)
        assert all(probability == Fraction(1, total) for _, probability in outcomes)
        left = [deal.card for deal, _ in outcomes]  # type: ignore[union-attr]
        assert batch.outcomes[slot, 0] == left[candidate], slot
        assert engine.decode(batch, slot) == LEDUC.apply(state, Deal(left[candidate]))
        hands[state.cards] += 1
    assert len(hands) > 1  # hands of different private cards, so different cards left


def test_each_hand_has_its_own_stream_from_the_seed_and_its_index() -> None:
    engine = BatchedLeduc(3)
    batches = [engine.init(4, 99), engine.init(8, 99), engine.init(8, 99), engine.init(8, 100)]
    players = [seed_streams(5, 4), seed_streams(5, 8), seed_streams(5, 8), seed_streams(5, 8)]
    for _ in range(50):
        for batch, player in zip(batches, players, strict=True):
            engine.step(batch, random_legal_actions(batch.legal_action_mask, player))
    small, large, again, other = batches
    assert (large.data == again.data).all()
    assert (large.data[:4] == small.data).all()  # hand i is the same whatever the batch size
    assert len({row.tobytes() for row in large.data}) == 8
    assert not (large.data == other.data).all(axis=1).all()


def test_an_illegal_action_is_refused_with_the_hands_state_and_nothing_changes() -> None:
    engine = BatchedLeduc(2)
    batch = engine.init(6, seed=1)
    before = {name: array.copy() for name, array in batch.arrays().items()}
    actions = random_legal_actions(batch.legal_action_mask, seed_streams(2, 6))
    assert not batch.legal_action_mask[3, 0]  # nobody faces a bet at the first decision: no fold (L5)
    actions[3] = 0
    with pytest.raises(IllegalActionError) as error:
        engine.step(batch, actions)
    state = engine.decode(batch, 3)
    assert error.value.state == state
    assert error.value.action == BETS[0]
    assert "game 3" in error.value.reason
    actions[3] = 3  # out of range
    with pytest.raises(IllegalActionError, match="not legal"):
        engine.step(batch, actions)
    for name, array_before in before.items():
        assert (getattr(batch, name) == array_before).all(), name


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda e, b: e.step(b, np.zeros(5, dtype=np.int64)), "one per game"),
        (lambda e, b: e.step(b, np.ones(6, dtype=np.float64)), "one per game"),
        (lambda e, b: e.step(object(), np.ones(6, dtype=np.int64)), "LeducBatchState"),
        (lambda e, b: e.step(BatchedLeduc(3).init(6, 0), np.ones(6, dtype=np.int64)), "2 seats"),
        (lambda e, b: e.init(0, 1), "batch_size"),
        (lambda e, b: e.init(4, 1.5), "seed"),
        (lambda e, b: e.decode(b, 6), "not one of"),
        (lambda e, b: e.decode(b, True), "not one of"),
        (lambda e, b: e.observation(b, 2), "seat"),
        (lambda e, b: e.observation(b, -2), "seat"),
        (lambda e, b: e.observation(b, np.full(6, 5)), "seat"),
        (lambda e, b: e.observation(b, out=np.zeros((6, 3))), "out"),
    ],
)
def test_wrong_input_is_refused_with_a_typed_error(call: Callable[[Any, Any], object], match: str) -> None:
    engine = BatchedLeduc(2)
    batch = engine.init(6, seed=1)
    before = batch.data.copy()
    with pytest.raises(InvalidValueError, match=match):
        call(engine, batch)
    assert (batch.data == before).all()


@pytest.mark.parametrize(
    ("arguments", "match"),
    [
        ({"players": 1}, "seats"),
        ({"players": 11}, "seats"),
        ({"players": 2, "ruleset": "long"}, "preset"),
        ({"players": 2, "observation": "partial"}, "observation kind"),
        ({"players": 2, "max_turns": 0}, "max_turns"),
        ({"players": 2, "max_steps": True}, "max_steps"),
        ({"players": 10, "ruleset": Rules(ante=10**9, raises=(1, 1))}, "32 bits"),
    ],
)
def test_an_engine_that_cannot_be_built_is_refused_with_a_typed_error(arguments: dict[str, Any], match: str) -> None:
    with pytest.raises(CheekyMonkeyError, match=match):
        BatchedLeduc(**arguments)


def test_the_library_finds_the_engine_by_the_games_name_and_the_game_declares_it() -> None:
    """The entry point in cheekymonkey.batched names the engine; the game's capabilities say it has one."""
    assert engine_class("leduc") is BatchedLeduc
    assert issubclass(BatchedLeduc, BatchedGame)
    assert LEDUC.capabilities.batched
    check_game(LEDUC, seed=0)  # the conformance kit checks the declaration against the entry points
    assert BatchedLeduc(2, "standard").ruleset == Rules()


def test_states_are_the_engines_own_and_copy_apart() -> None:
    engine = BatchedLeduc(4)
    batch = engine.init(3, seed=4)
    snapshot = batch.copy()
    engine.step(batch, np.ones(3, np.int64))
    assert not (snapshot.data == batch.data).all()
    assert snapshot.cards.shape == (3, 4)
    assert (snapshot.chips == 1).all()
    assert (snapshot.folded == 0).all()
    assert (snapshot.public == -1).all()
    assert (snapshot.round == 1).all()
    assert (snapshot.seat == 0).all()
    assert snapshot.players == 4
    assert "4 seats" in repr(engine)
