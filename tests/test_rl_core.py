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
from cheekymonkey.cheeky.encoding import (
    DEFAULT_OBSERVATION,
    ActionCodec,
    full_observation,
    observation_layout,
    observation_text,
    observe,
    table_observation,
)
from cheekymonkey.cheeky.rewards import returns, returns_of
from cheekymonkey.cheeky.scoring import score_stacks
from tests.helpers import frozen, make, same_as
from tests.strategies import play_randomly, reachable_states


@pytest.mark.parametrize("players", [2, 3, 6, 16])
def test_indices_follow_the_documented_layout(players: int) -> None:
    """Draw 0, Stop 1, Herd 2, claim 3+k, swap 3+n+k (k seats after the mover), Place(a) 3+2n+a; Reveal(a) is a."""
    codec = ActionCodec(players)
    for seat in range(players):
        expected: dict[int, Action] = {0: Draw(), 1: Stop(), 2: Herd()}
        for offset in range(players):
            expected[3 + offset] = Claim((seat + offset) % players)
            expected[3 + players + offset] = Swap((seat + offset) % players)
        for animal in ANIMALS:
            expected[3 + 2 * players + animal] = Place(animal)
        assert codec.num_actions == 11 + 2 * players == len(expected)
        for index, action in expected.items():
            assert codec.decode(index, seat) == action
            assert codec.encode(action, seat) == index
    for animal in ANIMALS:
        assert codec.encode(Reveal(animal)) == int(animal)
        assert codec.decode_outcome(int(animal)) == Reveal(animal)
    assert codec.claim_index(1) == 4
    assert codec.swap_index(1) == 4 + players
    assert codec.claim_index(-1) == 3 + players - 1  # the seat before the mover
    assert codec.place_index(0) == 3 + 2 * players
    assert codec.describe(4) == "Claim(+1)"
    assert codec.describe(4, seat=players - 1) == "Claim(0)"


@given(reachable_states())
def test_every_legal_action_has_one_index_and_the_mask_marks_exactly_those(state: GameState) -> None:
    codec = ActionCodec(state.players)
    actions = legal_actions(state)
    indices = codec.legal_indices(state)
    assert len(set(indices)) == len(actions)
    assert list(indices) == sorted(indices)  # OpenSpiel asks for ascending legal actions
    assert {codec.decode_at(state, i) for i in indices} == set(actions)
    assert all(codec.encode_at(state, codec.decode_at(state, i)) == i for i in indices)
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
    for seat in (-1, 3, True, None):
        with pytest.raises(InvalidValueError, match="seat"):
            codec.decode(0, seat)  # type: ignore[arg-type]
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
    """Read the bag and the whole stacks back out of a full observation, the viewer's stack first."""
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
    first = seat or 0
    assert bag == state.bag
    assert stacks == state.stacks[first:] + state.stacks[:first]


def test_table_fields_say_what_the_view_shows_counting_seats_from_the_viewer() -> None:
    """Each field of the table observation, as seat 0, seat 1 and a spectator see one position."""
    state = make([(Animal.SEAL, Animal.LION), ()], [Animal.LION], seat=1, claimable=Animal.LION)
    layout = observation_layout("table", 2)
    lion_row = tuple(1 if i == Animal.LION else 0 for i in range(8))

    def field(observation: tuple[int, ...], name: str) -> tuple[int, ...]:
        f = layout.field(name)
        return observation[f.offset : f.offset + f.size]

    mine, theirs, nobody = (table_observation(view(state, seat)) for seat in (0, 1, None))
    assert field(mine, "viewer") == field(theirs, "viewer") == (1, 0)
    assert field(nobody, "viewer") == (0, 0)  # a spectator is nobody
    assert field(mine, "to_move") == field(nobody, "to_move") == (0, 1)
    assert field(theirs, "to_move") == (1, 0)  # seat 1 is to move: its own turn
    assert field(mine, "stack_heights") == field(nobody, "stack_heights") == (2, 0)
    assert field(theirs, "stack_heights") == (0, 2)
    assert field(mine, "stack_tops") == lion_row + (0,) * 8
    assert field(theirs, "stack_tops") == (0,) * 8 + lion_row
    for observation in (mine, theirs, nobody):
        assert field(observation, "phase") == (0, 1, 0, 0)
        assert field(observation, "bag_size") == (49,)
        assert field(observation, "front") == field(observation, "claimable") == lion_row
        assert field(observation, "swap_open") == (0,)


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
        from cheekymonkey.cheeky.encoding import ActionCodec, observe
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


def _rotated(state: GameState, shift: int) -> GameState:
    """The same position with every seat moved ``shift`` places clockwise (seat s sits at s + shift)."""
    n = state.players
    stacks: list[tuple[Animal, ...]] = [()] * n
    for seat, stack in enumerate(state.stacks):
        stacks[(seat + shift) % n] = stack
    return GameState(
        ruleset=state.ruleset,
        seat=(state.seat + shift) % n,
        phase=state.phase,
        bag=state.bag,
        stacks=tuple(stacks),
        front=state.front,
        claimable=state.claimable,
        swap_open=state.swap_open,
    )


def _rotated_action(action: Action, shift: int, players: int) -> Action:
    if isinstance(action, Claim):
        return Claim((action.seat + shift) % players)
    if isinstance(action, Swap):
        return Swap((action.seat + shift) % players)
    return action


@given(reachable_states(), st.data())
def test_a_position_is_observed_the_same_from_every_seat_up_to_the_rotation(
    state: GameState, data: st.DataObject
) -> None:
    """Observations, their texts, masks and action indices do not depend on where the seats are numbered from."""
    n = state.players
    shift = data.draw(st.integers(1, n - 1), label="shift")
    turned = _rotated(state, shift)
    codec = ActionCodec(n)
    for seat in range(n):
        for kind in ("full", "table"):
            assert observe(turned, (seat + shift) % n, kind) == observe(state, seat, kind)
            assert observation_text(turned, (seat + shift) % n, kind) == observation_text(state, seat, kind)
    assert codec.action_mask(turned) == codec.action_mask(state)
    assert codec.legal_indices(turned) == codec.legal_indices(state)
    for index in codec.legal_indices(state):
        assert codec.decode_at(turned, index) == _rotated_action(codec.decode_at(state, index), shift, n)


def test_an_observation_text_shows_what_its_vector_shows() -> None:
    """Over thousands of positions from every seat, equal texts mean equal vectors, and equal vectors equal texts."""
    rng = random.Random(3)
    for kind in ("table", "full"):
        seen: dict[str, tuple[int, ...]] = {}
        for players in (2, 3):
            layout = observation_layout(kind, players)
            for _ in range(12):
                state = new_game(players)
                while state.phase is not Phase.OVER:
                    for seat in (*range(players), None):
                        vector = layout.encode(state, seat)
                        text = layout.text(vector)
                        assert seen.setdefault(text, vector) == vector, text
                        assert observation_text(state, seat, kind) == text
                    state = play_randomly(state, rng, 1)
        assert len(seen) > 1000
    with pytest.raises(InvalidValueError, match="entries"):
        observation_layout("table", 2).text([0, 1])


def test_the_table_text_leaves_out_what_the_table_observation_leaves_out() -> None:
    """Two positions that differ only below the stack tops and in the bag's make-up read the same."""
    first = make([(Animal.SEAL, Animal.LION), (Animal.HIPPO,)], [Animal.GIRAFFE], claimable=Animal.GIRAFFE)
    second = make(
        [(Animal.PANDA, Animal.LION), (Animal.HIPPO,)],
        [Animal.GIRAFFE],
        claimable=Animal.GIRAFFE,
    )
    assert observe(first, 0, "table") == observe(second, 0, "table")
    assert observation_text(first, 0, "table") == observation_text(second, 0, "table")
    assert observation_text(first, 0, "full") != observation_text(second, 0, "full")
    assert "Seal" not in observation_text(first, 0, "table")


@given(reachable_states())
def test_the_movers_own_claim_and_swap_keep_their_indices_and_are_never_legal(state: GameState) -> None:
    """Cheeky Monkey numbers claims and swaps by offset 0 to n - 1, offset 0 being the mover's own seat.

    Those two indices stay in the action space (the numbering the learned bot's outputs and every saved
    policy are laid out on) and no state ever allows them; the docs say why.
    """
    codec = ActionCodec(state.players)
    mask = codec.action_mask(state)
    assert not mask[codec.claim_index(0)]
    assert not mask[codec.swap_index(0)]
    if state.phase is not Phase.CHANCE:
        assert codec.decode_at(state, codec.claim_index(0)) == Claim(state.seat)
        assert codec.decode_at(state, codec.swap_index(0)) == Swap(state.seat)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_too_many_monkeys_has_no_index_for_the_movers_own_seat(players: int) -> None:
    """Too Many Monkeys numbers its seat actions by offset 1 to n - 1: no index names the mover's own seat."""
    from cheekymonkey.games import game_named
    from cheekymonkey.toomany import GiveSkip, TurnDown

    game = game_named("too-many-monkeys")
    encoding = game.encoding(players)
    assert encoding.num_actions == 16 + 7 * (players - 1)
    rng = random.Random(players)
    movers: dict[int, object] = {}
    state = game.new_game(players)
    while len(movers) < players:
        if game.is_terminal(state):
            state = game.new_game(players)
        elif game.is_chance_node(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            mover = game.to_move(state)
            assert mover is not None
            movers.setdefault(mover, state)
            state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    for seat, decision in movers.items():
        actions = [encoding.decode(index, decision) for index in range(encoding.num_actions)]
        named = {action.seat for action in actions if isinstance(action, TurnDown | GiveSkip)}
        assert named == set(range(players)) - {seat}


def test_the_learned_networks_outputs_are_laid_out_on_todays_indices() -> None:
    """The shipped network has one output per Cheeky Monkey action index, own-seat claim and swap included."""
    pytest.importorskip("numpy")
    from cheekymonkey.cheeky.bots.learned import load_network

    network = load_network()
    codec = ActionCodec(network.players)
    state = new_game(network.players)
    while state.phase is Phase.CHANCE:
        state = apply(state, chance_outcomes(state)[0][0])
    assert network.outputs(state).shape == (codec.num_actions,) == (11 + 2 * network.players,)
