"""Ending a turn: R9 stopping in any order, E2 automatic stacking, R10 the herd."""

from __future__ import annotations

import itertools

import pytest

from cheekymonkey import (
    Animal,
    Claim,
    Draw,
    Herd,
    IllegalActionError,
    Phase,
    Place,
    Reveal,
    Stop,
    Swap,
    apply_all,
    legal_actions,
    stop_in_order,
)
from tests.helpers import E, G, H, K, L, M, P, S, draws, frozen, make, play, same_as

# --- R9: stop -----------------------------------------------------------------------------------------


def test_stop_with_several_animals_enters_placing_with_nothing_stacked_yet() -> None:
    """R9: stopping with different animals in front lets the player choose the order, one Place at a time."""
    start = make(((L, E), (S,)))
    state = play(start, *draws(H, G, P), Stop())
    assert state == make(((L, E), (S,)), (H, G, P), phase=Phase.PLACING)
    assert legal_actions(state) == (Place(H), Place(G), Place(P))


def test_last_token_placed_ends_on_top_above_the_old_stack() -> None:
    """R9: the tokens go on top of the old stack, which is not rearranged; the last one placed is visible."""
    start = make(((L, E), (S,)))
    state = play(start, *draws(H, G, P), Stop(), Place(G))
    assert state == make(((L, E, G), (S,)), (H, P), phase=Phase.PLACING)
    state = play(state, Place(P))
    # With only a Hippo left, it goes on by itself (E2) and ends on top.
    assert state == make(((L, E, G, P, H), (S,)), seat=1)
    assert state.stacks[0][-1] is H


@pytest.mark.parametrize("order", list(itertools.permutations((H, G, P, K))))
def test_every_order_of_four_animals_is_reachable_with_place(order: tuple[Animal, ...]) -> None:
    """R9: each of the 24 orders of four different animals can be chosen, bottom first, last on top."""
    start = make(((M,), (S,)))
    state = play(start, *draws(H, G, P, K), Stop())
    state = play(state, *(Place(animal) for animal in order[:-1]))
    assert state == make(((M, *order), (S,)), seat=1)


@pytest.mark.parametrize(
    "order",
    sorted(set(itertools.permutations((S, S, E, S)))),
)
def test_every_order_with_claimed_duplicates_is_reachable_with_stop_in_order(order: tuple[Animal, ...]) -> None:
    """R9: with claimed duplicates in front, each distinct order is reachable through stop_in_order."""
    start = make(((), (S, S)))
    state = play(start, *draws(E, S), Claim(1), Claim(1))
    assert state == make(((), ()), (E, S, S, S), claimable=S)
    assert stop_in_order(state, order) == make((order, ()), seat=1)


def test_stop_in_order_works_from_the_middle_of_placing() -> None:
    """R9: stop_in_order finishes an order already begun with Place."""
    state = play(make(((K,), ())), *draws(H, G, P), Stop(), Place(P))
    assert stop_in_order(state, [H, G]) == make(((K, P, H, G), ()), seat=1)


@pytest.mark.parametrize(
    "order",
    [
        pytest.param([S, H], id="missing-a-token"),
        pytest.param([S, H, G, G], id="extra-token"),
        pytest.param([S, H, E], id="wrong-animal"),
        pytest.param([S, H, 3], id="not-an-animal"),
    ],
)
def test_stop_in_order_refuses_an_order_that_is_not_the_front(order: list[object]) -> None:
    """R9: the order must list exactly the tokens in front; otherwise nothing happens and the state stays."""
    state = play(make(((), ())), *draws(S, H, G))
    before = frozen(state)
    with pytest.raises(IllegalActionError, match="R9") as caught:
        stop_in_order(state, order)  # type: ignore[arg-type]
    assert caught.value.state is state
    assert same_as(state, before)


def test_stop_in_order_refuses_a_state_that_cannot_stop() -> None:
    """R9: stopping is only possible while deciding or placing; at a chance node it is refused."""
    state = make(((), ()))
    before = frozen(state)
    with pytest.raises(IllegalActionError, match="R5: a draw is being resolved") as caught:
        stop_in_order(state, [])
    assert caught.value.state is state
    assert same_as(state, before)


def test_place_of_an_animal_not_in_front_is_refused() -> None:
    """R9: only tokens in front can be put on the stack."""
    state = play(make(((), ())), *draws(S, H), Stop())
    with pytest.raises(IllegalActionError, match="R9: no Elephant is in front of you"):
        play(state, Place(E))


# --- E2: automatic stacking ---------------------------------------------------------------------------


def test_stop_with_one_animal_in_front_stacks_everything_at_once() -> None:
    """E2: with one animal in front there is no order to choose: Stop stacks it all and the turn ends."""
    start = make(((G,), (P, P)))
    state = play(start, Reveal(P), Claim(1), Claim(1), Stop())
    assert state == make(((G, P, P, P), ()), seat=1)


def test_placing_ends_by_itself_when_the_rest_is_one_animal() -> None:
    """E2: once the tokens left in front are all one animal, they go on together with the last Place."""
    start = make(((), (S, S)))
    state = play(start, *draws(E, S), Claim(1), Claim(1), Stop())
    assert state.phase is Phase.PLACING
    assert play(state, Place(E)) == make(((E, S, S, S), ()), seat=1)


def test_stop_in_order_of_one_animal_is_one_step() -> None:
    """E2, R9: stop_in_order with one animal in front gives the same state as Stop."""
    state = play(make(((), ())), Reveal(L))
    assert stop_in_order(state, [L]) == play(state, Stop()) == make(((L,), ()), seat=1)


# --- R10: the herd ------------------------------------------------------------------------------------


def test_herd_goes_to_the_bottom_of_the_stack() -> None:
    """R10: a herd goes under the old stack, and the turn ends."""
    start = make(((M, E), (K, K)))
    state = play(start, Reveal(K), Claim(1), Claim(1), Herd())
    assert state == make(((K, K, K, M, E), ()), seat=1)


def test_herd_on_an_empty_stack_is_its_top_and_can_be_claimed() -> None:
    """R10: on an empty stack the herd is also the top, so the next player may claim it (and swap for it)."""
    state = play(make(((), ())), Reveal(L), Herd())
    assert state == make(((L,), ()), seat=1)
    after = play(state, Reveal(L))
    assert Claim(0) in legal_actions(after)
    assert play(after, Claim(0)).front == (L, L)
    assert Swap(0) in legal_actions(play(state, Reveal(M)))


def test_herd_of_one_token_counts() -> None:
    """R10: a single token in front is a herd of one and may be put at the bottom."""
    start = make(((M, E), ()))
    state = play(start, Reveal(S))
    assert Herd() in legal_actions(state)
    assert play(state, Herd()) == make(((S, M, E), ()), seat=1)


def test_herd_is_optional() -> None:
    """R10: with a herd in front the player may still draw or stop (which puts it on top instead)."""
    start = make(((M,), ()))
    state = play(start, Reveal(S))
    assert legal_actions(state) == (Draw(), Stop(), Herd())
    assert play(state, Stop()) == make(((M, S), ()), seat=1)
    assert play(state, Draw()) == make(((M,), ()), (S,), phase=Phase.CHANCE)


def test_herd_is_refused_when_the_front_is_mixed() -> None:
    """R10: with two animals in front there is no herd: it is not offered and is refused."""
    state = play(make(((), ())), *draws(S, H))
    assert Herd() not in legal_actions(state)
    before = frozen(state)
    with pytest.raises(IllegalActionError, match="R10") as caught:
        play(state, Herd())
    assert caught.value.state is state
    assert same_as(state, before)


def test_herd_of_the_last_token_ends_the_game() -> None:
    """R10, R15: herding the last token from the bag leaves nothing anywhere, so the game is over."""
    rest = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 9
    state = play(make(((), rest), seat=0), Reveal(M), Herd())
    assert state == make(((M,), rest), seat=1)
    assert state.phase is Phase.OVER


def test_apply_all_with_a_whole_turn_matches_step_by_step() -> None:
    """R9: apply_all applies a turn in order, the same as one action at a time."""
    actions = (*draws(S, H), Stop(), Place(H))
    assert apply_all(make(((), ())), actions) == play(make(((), ())), *actions) == make(((H, S), ()), seat=1)
