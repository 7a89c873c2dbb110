"""The pure reinforcement-learning core: action indices and masks, observation vectors, returns."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheekymonkey import (
    ANIMALS,
    Action,
    Animal,
    Claim,
    Draw,
    GameNotOverError,
    GameState,
    Herd,
    IllegalActionError,
    InvalidValueError,
    Phase,
    Place,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    score,
    view,
)
from cheekymonkey.rl import (
    DEFAULT_OBSERVATION,
    ActionCodec,
    full_observation,
    observation_layout,
    observe,
    returns,
    returns_of,
    table_observation,
)
from cheekymonkey.scoring import score_stacks
from tests.helpers import frozen, make, same_as
from tests.strategies import play_randomly, reachable_states


@pytest.mark.parametrize("players", [2, 3, 6, 16])
def test_indices_follow_the_documented_layout(players: int) -> None:
    """Draw 0, Stop 1, Herd 2, Claim(s) 3+s, Swap(s) 3+n+s, Place(a) 3+2n+a; Reveal(a) is a in its own space."""
    codec = ActionCodec(players)
    expected: dict[int, Action] = {0: Draw(), 1: Stop(), 2: Herd()}
    for seat in range(players):
        expected[3 + seat] = Claim(seat)
        expected[3 + players + seat] = Swap(seat)
    for animal in ANIMALS:
        expected[3 + 2 * players + animal] = Place(animal)
    assert codec.num_actions == 11 + 2 * players == len(expected)
    for index, action in expected.items():
        assert codec.decode(index) == action
        assert codec.encode(action) == index
    for animal in ANIMALS:
        assert codec.encode(Reveal(animal)) == int(animal)
        assert codec.decode_outcome(int(animal)) == Reveal(animal)
    assert codec.claim_index(1) == 4
    assert codec.swap_index(1) == 4 + players
    assert codec.place_index(0) == 3 + 2 * players


@given(reachable_states())
def test_every_legal_action_has_one_index_and_the_mask_marks_exactly_those(state: GameState) -> None:
    codec = ActionCodec(state.players)
    actions = legal_actions(state)
    indices = codec.legal_indices(state)
    assert len(set(indices)) == len(actions)
    assert list(indices) == sorted(indices)  # OpenSpiel asks for ascending legal actions
    assert [codec.decode_at(state, i) for i in indices] == list(actions)
    mask = codec.action_mask(state)
    assert len(mask) == codec.num_actions
    if state.phase is Phase.CHANCE:
        assert not any(mask)
        assert [i for i, legal in enumerate(codec.outcome_mask(state)) if legal] == list(indices)
        assert [codec.encode(reveal) for reveal, _ in chance_outcomes(state)] == list(indices)
    else:
        assert {i for i, legal in enumerate(mask) if legal} == set(indices)
        assert not any(codec.outcome_mask(state))


@given(reachable_states(), st.data())
def test_an_index_that_is_not_legal_decodes_to_an_action_that_apply_refuses(
    state: GameState, data: st.DataObject
) -> None:
    codec = ActionCodec(state.players)
    mask = codec.action_mask(state) if state.phase is not Phase.CHANCE else codec.outcome_mask(state)
    illegal = [i for i, legal in enumerate(mask) if not legal]
    if not illegal:
        return
    index = data.draw(st.sampled_from(illegal))
    snapshot = frozen(state)
    with pytest.raises(IllegalActionError):
        apply(state, codec.decode_at(state, index))
    assert same_as(state, snapshot)


def test_bad_indices_actions_and_seat_counts_get_invalid_value_errors() -> None:
    codec = ActionCodec(3)
    for index in (-1, codec.num_actions, 1.0, "0", True, None):
        with pytest.raises(InvalidValueError):
            codec.decode(index)  # type: ignore[arg-type]
    for index in (-1, 8, True):
        with pytest.raises(InvalidValueError):
            codec.decode_outcome(index)
    with pytest.raises(InvalidValueError, match="seat 5"):
        codec.encode(Claim(5))
    with pytest.raises(InvalidValueError):
        codec.encode("Draw()")  # type: ignore[arg-type]
    for players in (1, 17, True, 2.0):
        with pytest.raises(InvalidValueError):
            ActionCodec(players)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="2 seats"):
        codec.action_mask(new_game(2))


def test_numpy_style_integers_decode() -> None:
    class Index:
        def __index__(self) -> int:
            return 1

    assert ActionCodec(2).decode(Index()) == Stop()


def _decode_full(
    observation: tuple[int, ...], state: GameState
) -> tuple[tuple[int, ...], tuple[tuple[Animal, ...], ...]]:
    """Read the bag and the whole stacks back out of a full observation."""
    layout = observation_layout("full", state.players, state.ruleset)
    bag_field = layout.field("bag")
    bag = observation[bag_field.offset : bag_field.offset + bag_field.size]
    field = layout.field("stacks")
    total = state.ruleset.total_tokens
    stacks = []
    for seat in range(state.players):
        tokens = []
        for depth in range(total):
            start = field.offset + (seat * total + depth) * len(ANIMALS)
            row = observation[start : start + len(ANIMALS)]
            if not any(row):
                break
            assert sum(row) == 1
            tokens.append(ANIMALS[row.index(1)])
        stacks.append(tuple(reversed(tokens)))
    return bag, tuple(stacks)


@given(reachable_states(), st.data())
def test_observations_fit_their_layout_and_the_full_one_holds_the_whole_state(
    state: GameState, data: st.DataObject
) -> None:
    seat = data.draw(st.none() | st.integers(0, state.players - 1))
    table = table_observation(view(state, seat))
    full = full_observation(state, seat)
    for kind, observation in (("table", table), ("full", full)):
        layout = observation_layout(kind, state.players, state.ruleset)
        assert len(observation) == layout.size == len(layout.bounds)
        assert all(0 <= value <= bound for value, bound in zip(observation, layout.bounds, strict=True))
        assert layout.encode(state, seat) == observation == observe(state, seat, kind)
    # The full observation starts with the table one, and from the rest the bag and stacks read back whole.
    assert full[: len(table)] == table
    bag, stacks = _decode_full(full, state)
    assert bag == state.bag
    assert stacks == state.stacks


def test_table_fields_say_what_the_view_shows() -> None:
    state = make([(Animal.SEAL, Animal.LION), ()], [Animal.LION], seat=1, claimable=Animal.LION)
    layout = observation_layout("table", 2)
    observation = table_observation(view(state, 0))

    def field(name: str) -> tuple[int, ...]:
        f = layout.field(name)
        return observation[f.offset : f.offset + f.size]

    assert field("viewer") == (1, 0)
    assert field("to_move") == (0, 1)
    assert field("phase") == (0, 1, 0, 0)
    assert field("bag_size") == (49,)
    assert field("stack_heights") == (2, 0)
    assert field("stack_tops") == tuple(1 if i == Animal.LION else 0 for i in range(8)) + (0,) * 8
    assert field("front") == tuple(1 if i == Animal.LION else 0 for i in range(8))
    assert field("claimable") == field("front")
    assert field("swap_open") == (0,)
    assert table_observation(view(state, None))[:2] == (0, 0)  # a spectator is nobody


def test_observation_errors_are_typed() -> None:
    with pytest.raises(InvalidValueError, match="no observation kind"):
        observation_layout("pixels", 2)
    with pytest.raises(InvalidValueError):
        observation_layout("full", 7)
    with pytest.raises(InvalidValueError):
        observe(new_game(2), 2)
    with pytest.raises(InvalidValueError):
        observe(new_game(2), 0, "pixels")
    with pytest.raises(InvalidValueError):
        table_observation(new_game(2))  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="does not fit"):
        observation_layout("full", 3).encode(new_game(2), 0)
    with pytest.raises(InvalidValueError):
        observation_layout("table", 2).field("bag")
    assert DEFAULT_OBSERVATION == "full"


def test_a_sole_winner_gets_one_and_a_shared_win_is_split() -> None:
    younger = Ruleset.younger()
    sole = score_stacks([(Animal.SEAL, Animal.SEAL), (Animal.SEAL,)], younger)
    assert returns_of(sole) == (1.0, 0.0)
    shared = score_stacks([(Animal.SEAL,), (Animal.HIPPO,), (Animal.LION,), ()], younger)
    assert returns_of(shared) == (1 / 3, 1 / 3, 1 / 3, 0.0)
    with pytest.raises(InvalidValueError):
        returns_of("sheet")  # type: ignore[arg-type]


@settings(max_examples=40)  # whole games: a few dozen cover the seat counts and outcomes
@given(st.integers(2, 6), st.randoms(use_true_random=False))
def test_returns_of_a_finished_game_add_up_to_one_and_follow_the_winners(players: int, rng: random.Random) -> None:
    state = play_randomly(new_game(players), rng, 100_000)
    assert state.phase is Phase.OVER
    values = returns(state)
    winners = score(state).winners
    assert sum(values) == pytest.approx(1.0)
    assert [seat for seat, value in enumerate(values) if value > 0] == list(winners)


def test_returns_of_an_unfinished_game_raise() -> None:
    with pytest.raises(GameNotOverError):
        returns(new_game(2))


def _run_without(blocked: list[str], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter in which importing any of ``blocked`` fails, as if not installed."""
    guard = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in blocked)
    return subprocess.run(
        [sys.executable, "-c", guard + textwrap.dedent(code)], capture_output=True, text=True, check=False, timeout=120
    )


def test_the_core_works_without_numpy_or_any_framework() -> None:
    result = _run_without(
        ["numpy", "pyspiel", "pettingzoo", "gymnasium"],
        """
        from cheekymonkey import new_game, apply, Reveal, Animal
        from cheekymonkey.rl import ActionCodec, observe
        state = apply(new_game(2), Reveal(Animal.SEAL))
        print(ActionCodec(2).action_mask(state)[:3], len(observe(state, 0)))
        """,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(True, True, True) 900"


@pytest.mark.parametrize(
    ("module", "missing"),
    [("openspiel_game", "pyspiel"), ("pettingzoo_env", "pettingzoo"), ("gymnasium_env", "gymnasium")],
)
def test_an_adapter_without_its_framework_names_the_extra(module: str, missing: str) -> None:
    result = _run_without([missing], f"import cheekymonkey.rl.{module}")
    assert result.returncode != 0
    assert "pip install 'cheekymonkey[rl]'" in result.stderr
