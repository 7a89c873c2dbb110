"""The batched engine plays exactly the scalar engine's games, draws with its exact odds, and keeps the API's promises.

The differential tests play batched games with random legal actions, replay every game at a scalar
:class:`~cheekymonkey.table.Table` with the same actions and the chance outcomes the batch drew, and compare,
at every step of every game, the decoded state, the mask, the seat to move, the observation, the rewards and
the end flags. The sampler's test drives the batched engine's chance nodes through every value of the draw.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

import numba
import numpy as np
import numpy.typing as npt
import pytest

from cheekymonkey import CHEEKY_MONKEY, Animal, HeuristicBot, Ruleset, apply, legal_actions
from cheekymonkey import batched as shared
from cheekymonkey.batched import draw_below, random_legal_actions, seed_streams, stream_before
from cheekymonkey.cheeky.actions import DRAW, STOP, Reveal
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey, CheekyBatchState
from cheekymonkey.cheeky.engine import chance_outcomes, current_player, is_terminal
from cheekymonkey.cheeky.state import GameState, Phase, new_game
from cheekymonkey.errors import IllegalActionError, InvalidRulesetError, InvalidValueError
from cheekymonkey.table import Seat, Table, Waiting

E, S, H, G, P, K, L, M = Animal

# Odd but legal rule sets, beside the presets: tiny bags, one animal only, repeated and unusual tile values, the
# swap off with monkeys in play, no tiles, many tokens of one animal, more seats than the box allows.
TINY = Ruleset.custom({E: 1, M: 2}, name="tiny")
MONKEYS_ONLY = Ruleset.custom({M: 12}, name="monkeys only")
REPEATED_TILES = Ruleset.custom({S: 5, L: 1, M: 4}, bonus_values={S: 2, L: 9, M: 2}, name="repeated tiles")
NO_SWAP = Ruleset.custom({H: 3, G: 4, P: 2, M: 5}, swap=False, name="no swap")
NO_TILES = Ruleset.custom({E: 2, S: 2, K: 6, M: 3}, bonus_tiles=False, name="no tiles")
LOPSIDED = Ruleset.custom({E: 1, S: 2, H: 3, G: 4, P: 13, K: 2, L: 1, M: 20}, name="lopsided")
CROWD = Ruleset.custom({E: 3, G: 5, L: 4, M: 6}, min_players=2, max_players=9, name="crowd")
ODD_RULES = (TINY, MONKEYS_ONLY, REPEATED_TILES, NO_SWAP, NO_TILES, LOPSIDED, CROWD)


class Replay:
    """Batched games stepped with random legal moves and replayed, game by game, at scalar Tables."""

    def __init__(self, engine: BatchedCheekyMonkey, batch: int, seed: int, *, all_seats: bool) -> None:
        self.engine = engine
        self.encoding = CHEEKY_MONKEY.encoding(engine.players, engine.ruleset, engine.observation_kind)
        self.all_seats = all_seats
        self.policy = seed_streams(seed + 1, batch)
        self.coin = np.random.default_rng(seed + 2)
        self.steps = 0
        self.decisions = 0
        self.games = 0
        self.states = engine.init(batch, seed)
        self.tables: list[Table[Any, Any, Any, Any, Any]] = [self._new_table() for _ in range(batch)]
        self.ends = {"terminated": 0, "truncated": 0, "no decision": 0}
        self._replay_outcomes(range(batch))
        self._compare()

    def _new_table(self) -> Table[Any, Any, Any, Any, Any]:
        seats = [Seat.person(f"Seat {i}") for i in range(self.engine.players)]
        engine = self.engine
        table = Table(
            CHEEKY_MONKEY,
            seats,
            ruleset=engine.ruleset,
            max_turns=engine.max_turns,
            max_steps=engine.max_steps,
            events=False,
        )
        self.games += 1
        return table

    def _replay_outcomes(self, games: Sequence[int] | range) -> None:
        for i in games:
            for outcome in self.engine.outcomes(self.states, i):
                self.tables[i].play(outcome)  # an outcome the scalar engine refuses raises here

    def _actions(self) -> npt.NDArray[np.int64]:
        # Uniform over the legal actions, except that a legal Draw is taken 60% of the time, for long turns
        # with big fronts, busts, placing and swaps.
        mask = self.states.legal_action_mask
        actions = random_legal_actions(mask, self.policy)
        draw = mask[:, 0] & (self.coin.random(mask.shape[0]) < 0.6)
        actions[draw] = 0
        # A finished game, or one with no decision, ignores its action: give it anything, out of range included.
        finished = self.states.terminated | self.states.truncated | self.states.no_decision
        actions[finished] = self.coin.integers(-5, 100, int(finished.sum()))
        return actions

    def step(self) -> None:
        states = self.states
        finished = (states.terminated | states.truncated).copy()
        pending = states.no_decision.copy()
        seats = states.current_player.copy()
        actions = self._actions()
        self.engine.step(states, actions)
        self.steps += 1
        for i, table in enumerate(self.tables):
            if finished[i]:
                assert states.started[i]
                self.tables[i] = self._new_table()
            elif pending[i]:
                # The second beat of a game with no decision: nothing is played, the end is reported.
                assert not states.started[i]
                assert not states.no_decision[i]
            else:
                assert not states.started[i]
                action = self.encoding.decode(int(actions[i]), table.state)
                assert table.to_move == seats[i]
                table.play(action)
                self.decisions += 1
        self._replay_outcomes(range(len(self.tables)))
        self._compare()

    def _compare(self) -> None:
        # Lean, as the slow test compares a million steps: each array read once a step, as Python lists.
        states, engine, encoding = self.states, self.engine, self.encoding
        observed = engine.observation(states, dtype=np.int64).tolist()
        seats = range(engine.players if self.all_seats else 0)
        by_seat = [engine.observation(states, seat, dtype=np.int64).tolist() for seat in seats]
        steps, turns = states.steps.tolist(), states.turns.tolist()
        terminated, truncated, started = states.terminated.tolist(), states.truncated.tolist(), states.started.tolist()
        no_decision = states.no_decision.tolist()
        rewards, movers, masks = (
            states.rewards.tolist(),
            states.current_player.tolist(),
            states.legal_action_mask.tolist(),
        )
        zeros = [0.0] * engine.players
        for i, table in enumerate(self.tables):
            state = table.state
            assert engine.decode(states, i) == state, f"game {i} after {self.steps} steps"
            assert steps[i] == len(table.actions)
            assert turns[i] == table.turns
            over = is_terminal(state)
            waiting = table.waiting
            if no_decision[i]:
                # The first beat of a game that ended before its first decision: a start, with nothing to play.
                assert started[i]
                assert over or table.truncated
                assert not terminated[i]
                assert not truncated[i]
                assert rewards[i] == zeros
                self.ends["no decision"] += 1
            else:
                assert terminated[i] == over
                assert truncated[i] == table.truncated
                outcome = table.outcome()
                assert rewards[i] == (zeros if outcome is None else [float(np.float32(r)) for r in outcome.returns])
            if over or table.truncated:
                if not no_decision[i]:
                    self.ends["terminated" if over else "truncated"] += 1
                assert movers[i] == -1
                assert not any(masks[i])
                seat = None
            else:
                assert waiting is Waiting.PERSON  # the batch stopped where the Table waits for a player
                seat = current_player(state)
                assert movers[i] == seat
                assert tuple(masks[i]) == encoding.action_mask(state)
            assert tuple(observed[i]) == encoding.observe(state, seat)
            if self.all_seats:
                for viewer in range(engine.players):
                    assert tuple(by_seat[viewer][i]) == encoding.observe(state, viewer)


def _play(replay: Replay, decisions: int, steps: int = 10**9) -> Replay:
    while replay.decisions < decisions and replay.steps < steps:
        replay.step()
    return replay


QUICK = [
    (2, None, None, None, "full"),
    (3, "little-children", None, None, "table"),
    (6, "younger", None, 300, "full"),
    (2, TINY, None, None, "full"),
    (3, MONKEYS_ONLY, 4, None, "full"),
    (4, REPEATED_TILES, None, None, "table"),
    (2, NO_SWAP, None, None, "full"),
    (5, NO_TILES, None, 60, "full"),
    (6, LOPSIDED, None, None, "full"),
    (9, CROWD, None, None, "table"),
]


@pytest.mark.parametrize(("players", "ruleset", "max_turns", "max_steps", "observation"), QUICK)
def test_batched_games_replay_exactly_at_scalar_tables(
    players: int, ruleset: Ruleset | str | None, max_turns: int | None, max_steps: int | None, observation: str
) -> None:
    """Every step of every game: the same state, mask, seat, observation (every seat's), rewards and flags."""
    engine = BatchedCheekyMonkey(players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=observation)
    replay = _play(Replay(engine, 8, seed=players * 101, all_seats=True), 2000)
    assert replay.ends["terminated"] + replay.ends["truncated"] > 0, "no game ended: the end went untested"


@pytest.mark.parametrize("limit", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("kind", ["max_turns", "max_steps"])
def test_tiny_limits_cut_games_off_as_the_table_does(kind: str, limit: int) -> None:
    """At limits 1 to 5, games are truncated where the Table truncates them, before a first decision too."""
    for players, ruleset in ((2, TINY), (3, None), (6, MONKEYS_ONLY)):
        engine = BatchedCheekyMonkey(players, ruleset, **{kind: limit})  # type: ignore[arg-type]
        replay = _play(Replay(engine, 6, seed=limit, all_seats=False), 60, steps=60)
        assert replay.ends["truncated"] > 0
    if kind == "max_steps" and limit == 1:
        # The first draw is a step: every game is cut off before its first decision, reported in two beats.
        assert replay.ends["no decision"] >= replay.ends["truncated"] > 0
        assert replay.decisions == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "configurations"),
    [
        (
            2,
            [
                (None, "full", None, 50_000),
                (TINY, "table", None, 100_000),
                (NO_SWAP, "table", 200, 100_000),
                ("little-children", "table", None, 100_000),
            ],
        ),
        (
            3,
            [
                (REPEATED_TILES, "full", None, 50_000),
                (None, "table", None, 150_000),
                (MONKEYS_ONLY, "table", None, 150_000),
            ],
        ),
        (6, [(LOPSIDED, "full", None, 50_000), ("younger", "table", None, 150_000), (CROWD, "table", 500, 150_000)]),
    ],
)
def test_a_million_batched_steps_replay_exactly(
    players: int, configurations: list[tuple[Ruleset | str | None, str, int | None, int]]
) -> None:
    """350,000 decisions per seat count, a million in all, custom rule sets among them: every step exact.

    The full observation, the costlier to compare, has 50,000 decisions per seat count; the table one the rest.
    """
    total = 0
    for number, (ruleset, observation, max_steps, decisions) in enumerate(configurations):
        engine = BatchedCheekyMonkey(players, ruleset, observation=observation, max_steps=max_steps)
        replay = _play(Replay(engine, 64, seed=1000 * players + number, all_seats=False), decisions)
        assert replay.ends["terminated"] > 100
        total += replay.decisions
    assert total >= 350_000


# --- the sampler -------------------------------------------------------------------------------------------


def _bits(total: int) -> int:
    # The bits of draw_below's candidate: none for a total of 1, which draws no word.
    return (total - 1).bit_length()


def _decision_states(count: int) -> list[GameState]:
    """Decisions reached by random play, under several rule sets and seat counts."""
    found: list[GameState] = []
    rng = np.random.default_rng(5)
    configurations = [(2, Ruleset.standard()), (3, LOPSIDED), (6, Ruleset.standard()), (2, TINY), (4, NO_SWAP)]
    while len(found) < count:
        players, ruleset = configurations[len(found) % len(configurations)]
        state = new_game(players, ruleset=ruleset)
        for _ in range(int(rng.integers(1, 400))):
            if is_terminal(state):
                break
            if state.phase is Phase.CHANCE:
                outcomes = chance_outcomes(state)
                state = apply(state, outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = legal_actions(state)
                state = apply(state, legal[int(rng.integers(len(legal)))])
        if current_player(state) is not None:
            found.append(state)
    return found


def test_every_value_of_the_draw_gives_the_scalar_engines_exact_probabilities() -> None:
    """At 300 chance nodes the batch reaches, each candidate draw is driven in turn: the outcomes are exact.

    For each decision, Draw (where legal) and Stop lead to a chance node (a draw, or the next turn's first
    draw). Every candidate value of the generator's draw is forced (the word's top bits), one slot of the
    batch each, and the step taken: the values below the bag's size give each animal exactly as many times as
    the scalar engine's probability times the size (Fractions), and each value at or above it is turned down
    and the draw made from the stream's next word, which is independent of it.
    """
    nodes = 0
    for state in _decision_states(200):
        engine = BatchedCheekyMonkey(state.players, state.ruleset)
        for action in (DRAW, STOP):
            if action not in legal_actions(state):
                continue
            after = apply(state, action)
            if after.phase is not Phase.CHANCE:
                continue  # the game ended: no draw
            nodes += 1
            total = after.bag_size
            bits = _bits(total)
            words = [value << (64 - bits) for value in range(1 << bits)]
            states = engine.init(len(words), seed=0)
            for slot, word in enumerate(words):
                engine.put(states, slot, state)
                states.rng[slot] = stream_before(word)
            index = CHEEKY_MONKEY.encoding(state.players, state.ruleset).encode(action, state)
            engine.step(states, np.full(len(words), index))
            drawn = [int(states.outcomes[slot, 0]) for slot in range(len(words))]
            tally = [0] * 8
            for value in range(total):
                tally[drawn[value]] += 1
            expected = [Fraction(0)] * 8
            for outcome, probability in chance_outcomes(after):
                expected[outcome.animal] = probability * total
            assert [Fraction(count) for count in tally] == expected
            # A candidate of the size or more is turned down: the draw comes from the next word instead.
            rejected = range(total, 1 << bits)
            assert 2 * len(rejected) < len(words)  # more than half the candidates are kept
            if rejected:
                again = engine.init(len(rejected), seed=0)
                for slot, value in enumerate(rejected):
                    engine.put(again, slot, state)
                    again.rng[slot] = (stream_before(words[value]) + int(shared._GAMMA)) % (1 << 64)
                engine.step(again, np.full(len(rejected), index))
                assert again.outcomes[:, 0].tolist() == [drawn[value] for value in rejected]
    assert nodes >= 250


def test_a_draw_below_a_total_keeps_exactly_the_candidates_below_it() -> None:
    """``draw_below`` reads the word's top bits; below the total it keeps them, else it draws the next word."""
    low = random.Random(3)
    for total in [*range(1, 70), 100, 127, 128, 129, 1000, 4097]:
        bits = _bits(total)
        for candidate in range(1 << bits) if bits <= 7 else [low.getrandbits(bits) for _ in range(200)]:
            word = (candidate << (64 - bits)) | low.getrandbits(64 - bits)
            state = stream_before(word)
            after, value = draw_below(np.uint64(state), total)
            if total == 1:
                assert (int(after), value) == (state, 0)  # nothing to draw: no word used
            elif candidate < total:
                assert value == candidate
                assert int(after) == (state + int(shared._GAMMA)) % (1 << 64)  # one word used
            else:
                expected = draw_below(np.uint64((state + int(shared._GAMMA)) % (1 << 64)), total)
                assert (int(after), value) == (int(expected[0]), expected[1])


def test_stream_before_inverts_the_generator() -> None:
    """The state ``stream_before`` gives yields the word asked for."""
    for word in [0, 1, 2**63, 2**64 - 1, 0x123456789ABCDEF0]:
        _, got = shared.splitmix(np.uint64(stream_before(word)))
        assert int(got) == word
    with pytest.raises(InvalidValueError):
        stream_before(2**64)


# --- the API's promises ---------------------------------------------------------------------------------


def _arrays(states: CheekyBatchState) -> dict[str, list[Any]]:
    return {name: array.tolist() for name, array in states.arrays().items()}


def test_a_seed_deals_each_game_the_same_whatever_the_batch_size() -> None:
    """Game i's stream depends on the seed and i only; another seed deals other games."""
    engine = BatchedCheekyMonkey(3)
    small, large = engine.init(3, seed=11), engine.init(7, seed=11)
    player_small, player_large = seed_streams(4, 3), seed_streams(4, 7)
    for _ in range(300):
        engine.step(small, random_legal_actions(small.legal_action_mask, player_small))
        engine.step(large, random_legal_actions(large.legal_action_mask, player_large))
    for name, array in small.arrays().items():
        assert array.tolist() == getattr(large, name)[:3].tolist(), name
    other = engine.init(3, seed=12)
    assert [engine.decode(other, i) for i in range(3)] != [engine.decode(engine.init(3, seed=11), i) for i in range(3)]


def test_a_finished_game_reports_its_end_once_and_the_next_step_deals_a_new_one() -> None:
    """The step that ends a game has its returns and flags; the next one starts a new game, whatever the action."""
    engine = BatchedCheekyMonkey(2, TINY)
    states = engine.init(16, seed=3)
    player = seed_streams(9, 16)
    seen = 0
    for _ in range(200):
        was_over = states.terminated.copy()
        engine.step(states, random_legal_actions(states.legal_action_mask, player))
        for i in np.flatnonzero(states.terminated):
            assert abs(float(states.rewards[i].sum()) - 1.0) < 1e-6
            assert states.current_player[i] == -1
            assert not states.legal_action_mask[i].any()
            seen += 1
        for i in np.flatnonzero(was_over):
            assert states.started[i]
            assert not states.terminated[i]
            assert states.steps[i] == 1  # a new game, its first draw played
            assert states.turns[i] == 1
            assert not states.rewards[i].any()
            first = engine.decode(states, int(i))
            assert first == apply(new_game(2, ruleset=TINY), Reveal(first.front[0]))
    assert seen > 20


def test_a_game_cut_off_before_its_first_decision_is_reported_in_two_beats() -> None:
    """With max_steps=1 the first draw ends every game: a start with nothing to play, then the end, then a new game.

    The same two beats as the RL adapters (cheekymonkey.rl.episodes): the step that deals the game reports
    a start with an all-False mask and ``no_decision``; the next, whatever action it is given, plays nothing
    and reports the game truncated with zero rewards; the one after deals a new game.
    """
    engine = BatchedCheekyMonkey(3, max_steps=1)
    states = engine.init(5, seed=1)
    for step in range(6):
        first_beat = step % 2 == 0
        assert not states.legal_action_mask.any()
        assert (states.current_player == -1).all()
        assert not states.rewards.any()
        assert not states.terminated.any()
        assert bool(states.no_decision.all()) is first_beat
        assert bool(states.truncated.all()) is not first_beat
        assert bool(states.started.all()) is first_beat
        assert (states.outcome_count == (1 if first_beat else 0)).all()  # the first draw, then nothing
        assert (states.steps == 1).all()
        before = [engine.decode(states, i) for i in range(5)]
        engine.step(states, np.arange(5) + step)  # ignored either way
        if first_beat:
            assert [engine.decode(states, i) for i in range(5)] == before  # nothing played at the second beat


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    """An action the mask refuses, or out of range, raises IllegalActionError naming the game; nothing changes."""
    engine = BatchedCheekyMonkey(3)
    states = engine.init(4, seed=2)
    before = _arrays(states)
    actions = np.zeros(4, np.int64)
    actions[2] = engine.encoding.num_actions - 1  # Place(Monkey), never legal while deciding
    with pytest.raises(IllegalActionError, match="game 2 of the batch") as raised:
        engine.step(states, actions)
    assert raised.value.state == engine.decode(states, 2)
    assert _arrays(states) == before
    actions[2] = 99
    with pytest.raises(IllegalActionError, match="action index 99"):
        engine.step(states, actions)
    assert _arrays(states) == before
    for wrong in (np.zeros(3, np.int64), np.zeros(4, np.float64), [[0, 0, 0, 0]]):
        with pytest.raises(InvalidValueError):
            engine.step(states, wrong)
    with pytest.raises(InvalidValueError):
        engine.step(BatchedCheekyMonkey(2).init(4, seed=2), np.zeros(4, np.int64))
    assert _arrays(states) == before


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"players": 7}, InvalidValueError),
        ({"players": True}, InvalidValueError),
        ({"players": 2, "ruleset": "no such preset"}, InvalidRulesetError),
        ({"players": 2, "ruleset": 5}, InvalidValueError),
        ({"players": 2, "max_turns": 0}, InvalidValueError),
        ({"players": 2, "max_steps": 2.5}, InvalidValueError),
        ({"players": 2, "observation": "partial"}, InvalidValueError),
    ],
)
def test_the_engine_refuses_bad_arguments(arguments: dict[str, Any], error: type[Exception]) -> None:
    """Seats, rule set, limits and observation kind are checked when the engine is made."""
    with pytest.raises(error):
        BatchedCheekyMonkey(**arguments)


def test_the_other_calls_refuse_bad_input() -> None:
    """init, observation, decode, outcomes and put check what they are given."""
    engine = BatchedCheekyMonkey(2)
    states = engine.init(3, seed=1)
    for size in (0, -1, True, 2.0):
        with pytest.raises(InvalidValueError):
            engine.init(size, seed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError):
        engine.init(2, seed="x")  # type: ignore[arg-type]
    for seat in (2, -2, True, 1.0, "0", np.array([0, 1]), np.array([0, 1, 2]), np.array([0.0, 1.0, 0.0])):
        with pytest.raises(InvalidValueError):
            engine.observation(states, seat)
    with pytest.raises(InvalidValueError):
        engine.observation(states, out=np.zeros((3, 5), np.float32))
    for index in (3, -1, True):
        with pytest.raises(InvalidValueError):
            engine.decode(states, index)
        with pytest.raises(InvalidValueError):
            engine.outcomes(states, index)
    with pytest.raises(InvalidValueError, match="only a decision"):
        engine.put(states, 0, new_game(2))
    with pytest.raises(InvalidValueError):
        engine.put(states, 0, new_game(3))
    with pytest.raises(InvalidValueError):
        random_legal_actions(states.legal_action_mask, seed_streams(1, 2))
    with pytest.raises(AttributeError):
        states.rewards = np.zeros((3, 2), np.float32)
    for width in (states.outcomes.shape[1], 1, True, 40.0):
        with pytest.raises(InvalidValueError):
            states.widen_outcomes(width)  # type: ignore[arg-type]


def test_observations_come_for_one_seat_per_game_into_any_array() -> None:
    """A seat per game (-1 a spectator), any dtype, and ``out`` filled in place, each equal to the scalar vector."""
    engine = BatchedCheekyMonkey(3, observation="table")
    states = engine.init(3, seed=4)
    encoding = CHEEKY_MONKEY.encoding(3, None, "table")
    out = np.full((3, engine.observation_size), 7, np.uint8)
    assert engine.observation(states, np.array([2, -1, 0]), out=out) is out
    for i, seat in enumerate([2, None, 0]):
        assert tuple(out[i].tolist()) == encoding.observe(engine.decode(states, i), seat)
    by_one = engine.observation(states, np.int64(1), dtype=np.int16)
    for i in range(3):
        assert tuple(by_one[i].tolist()) == encoding.observe(engine.decode(states, i), 1)
    for spectator in (-1, np.int32(-1)):
        watched = engine.observation(states, spectator)
        for i in range(3):
            assert tuple(watched[i].tolist()) == encoding.observe(engine.decode(states, i), None)


def test_the_outcomes_array_widens_keeping_what_was_drawn_and_the_engine_plays_on() -> None:
    """widen_outcomes replaces only the outcomes array, wider, with the last step's draws kept; steps go on."""
    engine = BatchedCheekyMonkey(2)
    states = engine.init(4, seed=3)
    player = seed_streams(5, 4)
    states = engine.step(states, random_legal_actions(states.legal_action_mask, player))
    before = states.outcomes.copy()
    width = before.shape[1]
    drawn = [engine.outcomes(states, i) for i in range(4)]
    rng = states.rng
    states.widen_outcomes(width * 2)
    assert states.outcomes.shape == (4, width * 2)
    assert (states.outcomes[:, :width] == before).all()
    assert not states.outcomes[:, width:].any()
    assert [engine.outcomes(states, i) for i in range(4)] == drawn
    assert states.rng is rng
    for _ in range(50):
        states = engine.step(states, random_legal_actions(states.legal_action_mask, player))
    assert states.outcomes.shape == (4, width * 2)


def test_the_module_without_numba_names_the_extra() -> None:
    """Importing the batched engine without numba raises one ImportError that says what to install."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "try:\n"
        "    import cheekymonkey.cheeky.batched\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'cheekymonkey[batched]'" in done.stdout


def test_jit_compiles_without_a_disk_cache_where_numba_cannot_write_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where numba refuses to cache (no folder it may write), the function is compiled without a cache."""
    calls: list[dict[str, Any]] = []
    real = numba.njit

    def njit(**options: Any) -> Any:
        calls.append(options)
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real(**options)

    # numba imports its typed containers at the first compile, decorating with numba.njit: before the patch.
    cast(Any, numba.njit)(lambda: 0)()
    monkeypatch.setattr(numba, "njit", njit)
    monkeypatch.setattr(shared, "_CACHE", [])

    def double(x: int) -> int:
        return 2 * x

    double.__module__ = "cheekymonkey.batched"  # a function of the package: a cache is tried first
    compiled = shared.jit(double)
    assert compiled(21) == 42
    assert [options.get("cache", False) for options in calls] == [True, False]
    assert not shared.caching()


def test_jit_caches_no_module_imported_under_a_name_outside_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file imported by another name (``batched``, not ``cheekymonkey.cheeky.batched``) is compiled uncached.

    Its cache entries would name the module it was compiled in, and no process importing the package could
    load them.
    """
    calls: list[dict[str, Any]] = []
    real = numba.njit

    def njit(**options: Any) -> Any:
        calls.append(options)
        return real(**options)

    monkeypatch.setattr(numba, "njit", njit)

    def triple(x: int) -> int:
        return 3 * x

    triple.__module__ = "batched"
    assert shared.jit(triple)(5) == 15
    assert [options.get("cache", False) for options in calls] == [False]


def test_a_step_where_some_games_only_leaves_the_others_exactly_as_they_were() -> None:
    """step(where=...) plays the chosen games as a full step would and leaves the others' arrays untouched.

    The engine's own kernel agrees with the base class's general form (a copy of the rows put back).
    """
    rules = Ruleset.custom({S: 2, L: 2, M: 3})
    engine = BatchedCheekyMonkey(3, rules, max_turns=6)
    states = engine.init(16, seed=2)
    player = seed_streams(3, 16)
    choose = np.random.default_rng(4)
    for _ in range(300):
        actions = random_legal_actions(states.legal_action_mask, player)
        where = choose.random(16) < 0.5
        before = states.copy()
        everything = engine.step(before.copy(), actions)
        general = before.copy()
        assert shared.BatchedGame._advance_where(engine, general, actions, where) == -1
        engine.step(states, actions, where=where)
        for name, array in states.arrays().items():
            assert (array[~where] == getattr(before, name)[~where]).all(), name
            assert (array[where] == getattr(everything, name)[where]).all(), name
            assert (array == getattr(general, name)).all(), name
    with pytest.raises(InvalidValueError):
        engine.step(states, actions, where=np.ones(15, np.bool_))
    with pytest.raises(InvalidValueError):
        engine.step(states, actions, where=np.ones(16, np.int64))


@pytest.mark.parametrize(
    ("players", "ruleset"),
    [(2, "standard"), (3, "standard"), (6, "standard"), (3, REPEATED_TILES), (2, LOPSIDED), (4, NO_SWAP)],
)
def test_the_batched_heuristic_bot_chooses_what_heuristic_bot_chooses(players: int, ruleset: Ruleset | str) -> None:
    """bot_mask(states, "heuristic") holds exactly HeuristicBot's choice at every decision, nothing elsewhere.

    HeuristicBot chooses without chance: its choice under several rng seeds is one action, the mask's only
    True. The games mix the heuristic's moves and random ones, so that they reach varied positions.
    """
    engine = BatchedCheekyMonkey(players, ruleset, max_turns=40)
    states = engine.init(32, seed=players)
    player = seed_streams(players + 100, 32)
    bot = HeuristicBot()
    compared = 0
    for step in range(250):
        mask = engine.bot_mask(states, "heuristic")
        for b in range(32):
            if states.current_player[b] < 0:
                assert not mask[b].any()
                continue
            state = engine.decode(states, b)
            chosen = {engine.encoding.encode(bot.choose(state, random.Random(seed)), state) for seed in range(3)}
            assert set(np.flatnonzero(mask[b]).tolist()) == chosen, state
            compared += 1
        assert (engine.heuristic_actions(states) == np.argmax(mask, axis=1)).all()
        moves = random_legal_actions(engine.bot_mask(states) if step % 2 else mask, player)
        engine.step(states, moves)
    assert compared > 4000


def test_the_batched_bots_are_the_engines_own() -> None:
    """Each engine names the bots it batches; a bot it lacks, or a bad threshold, is refused with a typed error."""
    from cheekymonkey.toomany.batched import BatchedTooManyMonkeys

    assert BatchedCheekyMonkey.bots == ("random", "heuristic", "expectimax")
    assert BatchedTooManyMonkeys.bots == ("random", "heuristic")
    assert set(BatchedCheekyMonkey.bots) | set(BatchedTooManyMonkeys.bots) == set(shared.BATCHED_BOTS)
    engine = BatchedTooManyMonkeys(2)
    with pytest.raises(InvalidValueError, match="expectimax"):
        engine.bot_mask(engine.init(2, seed=0), "expectimax")
    cheeky = BatchedCheekyMonkey(2)
    states = cheeky.init(4, seed=1)
    with pytest.raises(InvalidValueError):
        cheeky.bot_mask(states, "learned")
    for risk in (0, 1, True, "0.3"):
        with pytest.raises(InvalidValueError):
            cheeky.heuristic_actions(states, risk)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError):
        cheeky.heuristic_actions(states, out=np.zeros(3, np.int64))
    mixed = cheeky.mixed_bot_mask(states, ("random", "heuristic"), np.array([0, 1, 0, 1]))
    assert (mixed[0::2] == cheeky.bot_mask(states, "random")[0::2]).all()
    assert (mixed[1::2] == cheeky.bot_mask(states, "heuristic")[1::2]).all()
    for choice in (np.array([0, 1, 2, 0]), np.array([0, 1]), np.array([0.0, 1.0, 0.0, 1.0])):
        with pytest.raises(InvalidValueError):
            cheeky.mixed_bot_mask(states, ("random", "heuristic"), choice)
