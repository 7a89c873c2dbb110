"""The vector environment's fast opponents' loop against the plain one, its move count, and its partial reset.

The opponents' moves are played by one of two loops (stepping the chosen games in place, or gathering the
games to move into a shrinking batch): both must give, array for array, what the plain loop gives, which
draws every opponent's move for every game of the batch at once and steps the games to move. That loop is
written out here as the reference.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from cheekymonkey import Animal, Ruleset
from cheekymonkey.batched import ENTRY_POINT_GROUP, BatchState, random_legal_actions, seed_streams
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv

BATCHED_GAMES = sorted(entry.name for entry in entry_points(group=ENTRY_POINT_GROUP))
SMALL = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})
RULES: dict[str, Any] = {"cheeky-monkey": SMALL}


class PlainLoop(SoloVectorEnv):
    """The vector environment with the plain opponents' loop: every round draws for every game, steps the movers."""

    def _play_opponents(self, where: npt.NDArray[np.bool_]) -> None:
        states = self.states
        while True:
            moving = (
                where
                & ~(states.terminated | states.truncated)
                & (states.no_decision | ((states.current_player >= 0) & (states.current_player != self.seats)))
            )
            if not moving.any():
                return
            choice = np.maximum((states.current_player - self.seats) % self.players - 1, 0)
            mask = self.engine.mixed_bot_mask(states, self.opponents, choice)
            moves = random_legal_actions(mask, self._opponent_streams)
            self.engine.step(states, moves, where=moving)


def trace(envs: SoloVectorEnv, seed: int, steps: int) -> list[tuple[Any, ...]]:
    """Every step's observations, rewards, flags, seats and no-decision marks, and the games' arrays at the end."""
    policy = seed_streams(seed + 1, envs.num_envs)
    observations, info = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(observations, info["seat"], info["no_decision"])]
    for _ in range(steps):
        observations, rewards, terminated, truncated, info = envs.step(
            random_legal_actions(envs.action_masks(), policy)
        )
        out.append((observations, rewards, terminated, truncated, info["seat"], info["no_decision"]))
    out.append(tuple(envs.states.arrays().values()))
    out.append((envs._opponent_streams.copy(),))
    return out


def same(first: list[tuple[Any, ...]], second: list[tuple[Any, ...]]) -> bool:
    return len(first) == len(second) and all(
        len(x) == len(y) and all(np.array_equal(a, b) for a, b in zip(x, y, strict=True))
        for x, y in zip(first, second, strict=True)
    )


@pytest.mark.parametrize("game", BATCHED_GAMES)
@pytest.mark.parametrize(
    ("players", "opponents", "seat"),
    [(2, "random", None), (3, "random", 1), (4, ["random", "random", "random"], None), (3, None, None)],
)
@pytest.mark.parametrize("in_place", [True, False])
def test_the_fast_opponents_loops_give_what_the_plain_loop_gives(
    game: str, players: int, opponents: Any, seat: int | None, in_place: bool
) -> None:
    """In place or gathered, every step's arrays, the games and the opponents' streams equal the plain loop's."""
    options: dict[str, Any] = {"players": players, "seat": seat, "game": game, "max_turns": 30}
    options["ruleset"] = RULES.get(game)
    if opponents is None and game == "cheeky-monkey":
        opponents = ["heuristic", "random"]  # two bots: each game's mask mixes them by the mover's seat
    fast = SoloVectorEnv(24, opponents=opponents, **options)
    fast._in_place = in_place
    plain = PlainLoop(24, opponents=opponents, **options)
    expected = trace(plain, 5, 80)
    assert same(trace(fast, 5, 80), expected)
    assert not same(trace(fast, 6, 80), expected)  # the comparison can fail: another seed's games differ


class CountingEngineSteps(SoloVectorEnv):
    """Counts, before each step of the engine's kernels, the games it steps where a seat decides.

    Only the outermost call is counted: an engine without a kernel of its own for chosen games (Leduc poker's)
    has the general ``_advance_where``, which steps every game through ``_advance`` and puts back the rows of
    the games left alone; that inner step is part of the outer one, not another.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions_stepped = 0
        engine = self.engine
        advance, advance_where = engine._advance, engine._advance_where
        stepping = [False]  # whether a counted call is under way

        def count(states: BatchState, where: npt.NDArray[np.bool_]) -> bool:
            if stepping[0]:
                return False
            deciding = where & ~(states.terminated | states.truncated) & (states.current_player >= 0)
            self.decisions_stepped += int(np.count_nonzero(deciding))
            stepping[0] = True
            return True

        def counted(states: BatchState, actions: npt.NDArray[np.int64]) -> int:
            outer = count(states, np.ones(states.batch_size, np.bool_))
            try:
                return advance(states, actions)
            finally:
                if outer:
                    stepping[0] = False

        def counted_where(states: BatchState, actions: npt.NDArray[np.int64], where: npt.NDArray[np.bool_]) -> int:
            outer = count(states, where)
            try:
                return advance_where(states, actions, where)
            finally:
                if outer:
                    stepping[0] = False

        engine._advance = counted  # type: ignore[method-assign]
        engine._advance_where = counted_where  # type: ignore[method-assign]


@pytest.mark.parametrize("game", BATCHED_GAMES)
@pytest.mark.parametrize("in_place", [True, False])
def test_moves_played_counts_every_decision_the_learner_and_the_opponents_play(game: str, in_place: bool) -> None:
    """moves_played is the number of steps the engine took in games where a seat decided, from the last reset."""
    envs = CountingEngineSteps(16, players=3, opponents="random", game=game, ruleset=RULES.get(game))
    envs._in_place = in_place
    envs.reset(seed=2)
    assert envs.moves_played == envs.decisions_stepped
    policy = seed_streams(3, 16)
    learner = 0
    for _ in range(60):
        masks = envs.action_masks()
        learner += int(np.count_nonzero(envs._status == 0))
        envs.step(random_legal_actions(masks, policy))
        assert envs.moves_played == envs.decisions_stepped
    assert envs.moves_played > learner > 0  # the opponents' moves are counted beside the learner's
    envs.reset(seed=2)
    assert 0 < envs.moves_played < learner


@pytest.mark.parametrize("game", BATCHED_GAMES)
def test_reset_mask_deals_new_games_there_and_leaves_the_others_as_they_are(game: str) -> None:
    """Only the masked games are dealt anew, to their learner's first decision; the rest keep every array."""
    envs = SoloVectorEnv(12, players=3, opponents="random", game=game, ruleset=RULES.get(game))
    envs.reset(seed=4)
    policy = seed_streams(5, 12)
    for _ in range(7):
        envs.step(random_legal_actions(envs.action_masks(), policy))
    before = {name: array.copy() for name, array in envs.states.arrays().items()}
    observations = envs._observe()
    masks, seats, status = envs.action_masks(), envs.seats.copy(), envs._status.copy()
    mask = np.zeros(12, np.bool_)
    mask[[0, 3, 4, 11]] = True
    after, info = envs.reset(options={"reset_mask": mask})
    kept = ~mask
    for name, array in envs.states.arrays().items():
        old = before[name]
        now = array[:, : old.shape[1]] if name == "outcomes" else array  # a deal may widen the row of outcomes
        assert np.array_equal(now[kept], old[kept]), name
    assert np.array_equal(after[kept], observations[kept])
    assert np.array_equal(info["action_mask"][kept].astype(np.bool_), masks[kept])
    assert np.array_equal(info["seat"][kept], seats[kept])
    assert np.array_equal(envs._status[kept], status[kept])
    states = envs.states
    # The games dealt anew: started, none past a few turns, each awaiting its learner (or ended with no decision).
    assert not np.array_equal(after[mask], observations[mask])
    waiting = mask & (envs._status == 0)
    assert np.array_equal(states.current_player[waiting], envs.seats[waiting])
    assert (envs._status[mask & ~waiting] == 2).all()
    assert np.array_equal(envs._episode_lengths[mask], np.zeros(4))
    # The next step plays on in every game.
    _, rewards, terminated, truncated, _ = envs.step(random_legal_actions(envs.action_masks(), policy))
    assert rewards.shape == terminated.shape == truncated.shape == (12,)


def test_reset_mask_is_seeded_with_the_environment() -> None:
    """The same seed and the same partial resets give the same games."""

    def run() -> list[Any]:
        envs = SoloVectorEnv(6, players=2, opponents="random", ruleset=SMALL)
        envs.reset(seed=9)
        out = []
        for step in range(20):
            observations, *_ = envs.step(np.argmax(envs.action_masks(), axis=1))
            if step % 5 == 4:
                observations, _ = envs.reset(options={"reset_mask": np.arange(6) % 2 == step % 2})
            out.append(observations)
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(), run(), strict=True))


@pytest.mark.parametrize(
    "mask",
    [
        np.zeros(5, np.bool_),
        np.ones(4, np.bool_),
        np.ones(5, np.int64),
        [True] * 5,
    ],
)
def test_a_bad_reset_mask_is_refused_and_changes_nothing(mask: Any) -> None:
    """A mask of the wrong kind or size, or with nothing to reset, raises InvalidValueError; nothing changes."""
    envs = SoloVectorEnv(5, players=2, opponents="random")
    envs.reset(seed=1)
    before = {name: array.copy() for name, array in envs.states.arrays().items()}
    with pytest.raises(InvalidValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": mask})
    with pytest.raises(InvalidValueError, match="seed"):
        envs.reset(seed=3, options={"reset_mask": np.ones(5, np.bool_)})
    assert all(np.array_equal(array, before[name]) for name, array in envs.states.arrays().items())
    fresh = SoloVectorEnv(5, players=2, opponents="random")
    with pytest.raises(InvalidValueError, match="reset"):
        fresh.reset(options={"reset_mask": np.ones(5, np.bool_)})


def test_cheeky_monkeys_random_bot_never_draws_into_a_sure_bust() -> None:
    """Cheeky Monkey's random bot's mask, compiled, is the legal actions less a draw that must bust (R22).

    Exactly as the array expression of the rule gives it, over games that meet that case.
    """
    engine = BatchedCheekyMonkey(3, SMALL)
    states = engine.init(256, seed=3)
    streams = seed_streams(4, 256)
    met = 0
    for _ in range(200):
        mask = engine.bot_mask(states, "random")
        sure_bust = ~((states.bag > 0) & (states.front_counts == 0)).any(axis=1)
        expected = states.legal_action_mask.copy()
        expected[:, 0] &= ~sure_bust  # index 0: draw
        assert np.array_equal(mask, expected)
        met += int(np.count_nonzero(sure_bust & states.legal_action_mask[:, 0]))
        engine.step(states, random_legal_actions(states.legal_action_mask, streams))
    assert met > 0
