"""The engine's fast paths give exactly what the step-by-step rules give.

``stop_in_order`` builds the final state in one step instead of applying ``Stop`` and one ``Place``
per token, ``claim_all`` takes every claim in one step instead of one ``Claim`` at a time,
``sample_chance`` skips ``randrange``'s argument handling for a plain ``random.Random``, and
``bust_probability`` counts with native ints in the compiled build. These tests hold each shortcut to the
long way round.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cheekymonkey import (
    Animal,
    Claim,
    GameNotOverError,
    GameState,
    IllegalActionError,
    NotAChanceNodeError,
    Phase,
    Reveal,
    Ruleset,
    apply,
    apply_all,
    claim_all,
    legal_actions,
    new_game,
    resolve_chance,
    sample_chance,
    score,
    stop_in_order,
)
from cheekymonkey._values import count_sum
from cheekymonkey.cheeky.actions import DRAW, PLACES, STOP
from cheekymonkey.cheeky.engine import bust_probability
from cheekymonkey.cheeky.scoring import _final_winners
from cheekymonkey.cheeky.state import make_state, trusted_state
from tests.strategies import games, play_randomly, reachable_states


def _advance_to(state: GameState, rng: random.Random, phases: tuple[Phase, ...]) -> GameState | None:
    """Play on at random from ``state`` until the phase is one of ``phases``; None if the game ends first."""
    while state.phase not in phases:
        if state.phase is Phase.OVER:
            return None
        state = play_randomly(state, rng, 1)
    return state


_STOPPING = (Phase.DECIDE, Phase.PLACING)


def _stop_step_by_step(state: GameState, order: tuple[Animal, ...]) -> GameState:
    """R9 the long way: Stop (when deciding), then one Place per token until the turn has ended."""
    if state.phase is Phase.DECIDE:
        state = apply(state, STOP)
    seat = state.seat
    for animal in order:
        if state.phase is not Phase.PLACING or state.seat != seat:
            break
        state = apply(state, PLACES[animal])
    return state


def _rebuilt(state: GameState) -> GameState:
    """The same state through the public, validating constructor: it raises if an invariant is broken."""
    return GameState(
        state.ruleset, state.seat, state.phase, state.bag, state.stacks, state.front, state.claimable, state.swap_open
    )


@given(reachable_states(max_steps=60), st.randoms(use_true_random=False))
def test_stop_in_order_reaches_the_state_of_stop_and_one_place_per_token(start: GameState, rng: random.Random) -> None:
    """R9: for any order of the tokens in front, stop_in_order equals Stop followed by Place in that order."""
    state = _advance_to(start, rng, _STOPPING)
    assume(state is not None)
    assert state is not None
    order = list(state.front)
    rng.shuffle(order)
    fast = stop_in_order(state, order)
    assert fast == _stop_step_by_step(state, tuple(order))
    assert _rebuilt(fast) == fast


@given(reachable_states(max_steps=60), st.randoms(use_true_random=False))
def test_stop_in_order_in_the_order_they_came_stacks_the_front_as_it_is(start: GameState, rng: random.Random) -> None:
    """R9: stopping with the front in its own order puts exactly those tokens on top of the stack."""
    state = _advance_to(start, rng, _STOPPING)
    assume(state is not None)
    assert state is not None
    after = stop_in_order(state, state.front)
    assert after.stacks[state.seat] == state.stacks[state.seat] + state.front
    assert after.front == ()
    assert after.phase in (Phase.CHANCE, Phase.OVER)


def test_stop_in_order_refuses_integers_that_equal_animals() -> None:
    """R9: the order must hold Animal members; an int equal to one (IntEnum compares equal) is refused."""
    state = apply(new_game(3), Reveal(Animal.SEAL))
    with pytest.raises(IllegalActionError, match="sequence of animals"):
        stop_in_order(state, [1])  # type: ignore[list-item]
    assert state.front == (Animal.SEAL,)


@given(reachable_states(max_steps=60), st.randoms(use_true_random=False), st.integers(0, 2**32))
def test_sample_chance_picks_what_randrange_of_the_bag_size_picks(
    start: GameState, rng: random.Random, seed: int
) -> None:
    """R5: with a plain random.Random, the draw is the token at randrange(bag size), counting tokens in animal order."""
    state = _advance_to(start, rng, (Phase.CHANCE,))
    assume(state is not None)
    assert state is not None
    pick = random.Random(seed).randrange(sum(state.bag))
    for animal, count in zip(Animal, state.bag, strict=True):
        if pick < count:
            expected = animal
            break
        pick -= count
    assert sample_chance(state, random.Random(seed)).animal is expected


@given(reachable_states(max_steps=60), st.randoms(use_true_random=False), st.integers(0, 2**32))
def test_resolve_chance_is_apply_of_sample_chance_with_the_same_rng(
    start: GameState, rng: random.Random, seed: int
) -> None:
    """R5: the fused draw reaches the state apply(state, sample_chance(state, rng)) reaches, from the same seed."""
    state = _advance_to(start, rng, (Phase.CHANCE,))
    assume(state is not None)
    assert state is not None
    assert resolve_chance(state, random.Random(seed)) == apply(state, sample_chance(state, random.Random(seed)))


def test_resolve_chance_refuses_a_state_that_is_not_a_chance_node() -> None:
    """R5: only a pending draw can be resolved; the state is left as it was."""
    state = apply(new_game(2), Reveal(Animal.SEAL))
    with pytest.raises(NotAChanceNodeError, match="no draw is pending in phase DECIDE"):
        resolve_chance(state, random.Random(1))
    assert state.front == (Animal.SEAL,)


@given(reachable_states(max_steps=120))
def test_the_compiled_builds_state_constructor_builds_the_same_state(state: GameState) -> None:
    """The compiled build's unchecked constructor and make_state (pure: _Unfrozen) build equal, frozen GameStates."""
    fields = (
        state.ruleset,
        state.seat,
        state.phase,
        state.bag,
        state.stacks,
        state.front,
        state.claimable,
        state.swap_open,
    )
    built = trusted_state(*fields)
    fast = make_state(*fields)
    assert type(built) is GameState
    assert type(fast) is GameState
    assert built == fast == state
    with pytest.raises(AttributeError):
        fast.seat = 0  # the engine's states are as frozen as any other
    assert _rebuilt(built) == built


def _claim_one_at_a_time(state: GameState) -> GameState:
    """R7 the long way: apply the first legal Claim until none is left."""
    while True:
        claim = next((a for a in legal_actions(state) if isinstance(a, Claim)), None)
        if claim is None:
            return state
        state = apply(state, claim)


@given(reachable_states(max_steps=80), st.randoms(use_true_random=False))
def test_claim_all_reaches_the_state_of_one_claim_at_a_time(start: GameState, rng: random.Random) -> None:
    """R7: claim_all equals taking the first legal Claim until none is left; with none, it returns the state itself."""
    state = _advance_to(start, rng, (Phase.DECIDE,))
    assume(state is not None)
    assert state is not None
    fast = claim_all(state)
    assert fast == _claim_one_at_a_time(state)
    if any(isinstance(a, Claim) for a in legal_actions(state)):
        assert fast.front[: len(state.front)] == state.front
        assert len(fast.front) > len(state.front)
        assert not fast.swap_open  # R11: a claim gives up the swap
        assert _rebuilt(fast) == fast
    else:
        assert fast is state


def test_claim_all_takes_whole_runs_seat_by_seat() -> None:
    """R7: seat 0's two seals (a chain) come first, then seat 1's; the lion under them stays."""
    lion, seal = Animal.LION, Animal.SEAL
    rules = Ruleset.standard()
    bag = list(rules.counts)
    for token in (lion, seal, seal, seal, seal):
        bag[token] -= 1
    state = GameState(rules, 2, Phase.DECIDE, tuple(bag), ((lion, seal, seal), (seal,), ()), (seal,), seal, False)
    after = claim_all(state)
    assert after.stacks == ((lion,), (), ())
    assert after.front == (seal, seal, seal, seal)
    assert (after.phase, after.seat, after.claimable, after.bag) == (Phase.DECIDE, 2, seal, state.bag)


def test_claim_all_refuses_a_player_who_is_not_deciding() -> None:
    """R5, R9, E9: claim_all needs a deciding player and a GameState; the error says so, and the state is unchanged."""
    state = new_game(2)
    with pytest.raises(IllegalActionError) as chance:
        claim_all(state)
    assert (chance.value.state, chance.value.action) == (state, "claim_all")
    assert chance.value.reason == "R5: a draw is being resolved: the next action is the chance outcome, a Reveal"
    placing = apply_all(state, [Reveal(Animal.SEAL), DRAW, Reveal(Animal.LION), STOP])
    assert placing.phase is Phase.PLACING
    with pytest.raises(IllegalActionError) as stopping:
        claim_all(placing)
    assert (stopping.value.state, stopping.value.action) == (placing, "claim_all")
    assert stopping.value.reason == "R9: you are stopping: put the tokens in front of you on your stack"
    with pytest.raises(IllegalActionError) as not_a_state:
        claim_all("state")  # type: ignore[arg-type]  # a wrong type on purpose: E9 at run time
    assert not_a_state.value.state == "state"  # what was given, kept
    assert not_a_state.value.action == "claim_all"
    assert not_a_state.value.reason == "E9: 'state' is not a GameState"
    assert state == new_game(2)


@given(reachable_states(max_steps=120))
def test_bust_probability_is_the_share_of_the_bag_showing_an_animal_in_front(state: GameState) -> None:
    """R6: the chance a draw busts is the bag's tokens of the animals in front over the bag's size (0 when empty)."""
    size = sum(state.bag)
    busting = sum(state.bag[animal] for animal in set(state.front))
    assert bust_probability(state) == (busting / size if size else 0.0)
    assert count_sum(state.bag) == size


@given(games(), st.randoms(use_true_random=False))
def test_final_winners_are_the_score_sheets_winners(start: GameState, rng: random.Random) -> None:
    """R16-R19: the search's sheet-free scoring names the winners score() names, and refuses a game not over."""
    with pytest.raises(GameNotOverError):
        _final_winners(start)
    state = play_randomly(start, rng, 2000)
    assume(state.phase is Phase.OVER)
    assert _final_winners(state) == score(state).winners
