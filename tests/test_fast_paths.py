"""The engine's fast paths give exactly what the step-by-step rules give.

``stop_in_order`` builds the final state in one step instead of applying ``Stop`` and one ``Place``
per token, and ``sample_chance`` skips ``randrange``'s argument handling for a plain ``random.Random``.
These tests hold each shortcut to the long way round.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cheekymonkey import (
    Animal,
    GameState,
    IllegalActionError,
    NotAChanceNodeError,
    Phase,
    Reveal,
    apply,
    new_game,
    resolve_chance,
    sample_chance,
    stop_in_order,
)
from cheekymonkey._gamestate import trusted_state
from cheekymonkey.actions import PLACES, STOP
from cheekymonkey.state import make_state
from tests.strategies import play_randomly, reachable_states


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
