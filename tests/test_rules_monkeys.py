"""Cheeky monkeys: R11 claim or swap, R12 the swap, R13 later monkeys, R14 a bust after a swap."""

from __future__ import annotations

import pytest

from cheekymonkey import (
    Claim,
    Draw,
    Herd,
    IllegalActionError,
    Phase,
    Reveal,
    Stop,
    Swap,
    legal_actions,
)
from tests.helpers import E, G, H, K, L, M, P, S, draws, frozen, make, play, same_as

# --- R11: claim or swap, never both -------------------------------------------------------------------


def test_drawn_monkey_offers_both_monkey_claims_and_swaps() -> None:
    """R11: after a monkey that did not bust, the player may claim monkey tops or swap with other tops."""
    state = play(make(((), (S, M), (H,), ())), Reveal(M))
    assert state == make(((), (S, M), (H,), ()), (M,), claimable=M, swap_open=True)
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(1), Swap(2))


def test_claiming_a_monkey_closes_the_swap() -> None:
    """R11: once the player claims a monkey, the swap is gone; further monkey claims stay open."""
    state = play(make(((), (M, M), (H,))), Reveal(M), Claim(1))
    assert state == make(((), (M,), (H,)), (M, M), claimable=M, swap_open=False)
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(1))
    with pytest.raises(IllegalActionError, match="R11"):
        play(state, Swap(2))


def test_swapping_closes_the_claims() -> None:
    """R11, R12: once the player swaps, no monkey (nor anything else) can be claimed this draw."""
    state = play(make(((), (M,), (H,))), Reveal(M), Swap(2))
    assert state == make(((), (M,), (M,)), (H,), claimable=None, swap_open=False)
    assert legal_actions(state) == (Draw(), Stop(), Herd())
    with pytest.raises(IllegalActionError, match="R7, R12"):
        play(state, Claim(1))
    with pytest.raises(IllegalActionError, match="R11"):
        play(state, Swap(1))


def test_swap_is_open_only_right_after_a_monkey() -> None:
    """R11: a draw of any other animal opens no swap."""
    state = play(make(((), (H,))), Reveal(G))
    assert state.swap_open is False
    with pytest.raises(IllegalActionError, match="R11, R12"):
        play(state, Swap(1))


def test_swap_closes_when_the_player_draws_again() -> None:
    """R11: the swap belongs to the draw that brought the monkey; the next decision ends it."""
    state = play(make(((), (H,))), Reveal(M), Draw(), Reveal(G))
    assert state == make(((), (H,)), (M, G), claimable=G)
    with pytest.raises(IllegalActionError, match="R11"):
        play(state, Swap(1))


# --- R12: the swap ------------------------------------------------------------------------------------


def test_swap_gives_the_monkey_and_takes_the_top_token() -> None:
    """R12: the drawn monkey goes on top of the opponent's stack and their top token comes in front."""
    start = make(((E,), (S, L), (K,)))
    state = play(start, *draws(H, M), Swap(1))
    assert state == make(((E,), (S, M), (K,)), (H, L))
    assert state.bag == (2, 3, 4, 6, 7, 7, 8, 9)


def test_swap_with_an_empty_stack_is_refused() -> None:
    """R12: an opponent with no stack cannot be swapped with."""
    state = play(make(((), (), (H,))), Reveal(M))
    assert Swap(1) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="R12: seat 1's stack is empty"):
        play(state, Swap(1))


def test_swap_for_a_monkey_top_is_refused() -> None:
    """R12: swapping a monkey for a monkey would change nothing, so it is neither offered nor allowed."""
    state = play(make(((), (S, M), (H,))), Reveal(M))
    assert Swap(1) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="R12: seat 1's top is a monkey"):
        play(state, Swap(1))


def test_swap_with_oneself_is_refused() -> None:
    """R12: the player cannot swap with their own stack."""
    state = play(make(((H,), (S,))), Reveal(M))
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Swap(1))
    with pytest.raises(IllegalActionError, match="R12: you cannot take from your own stack"):
        play(state, Swap(0))


def test_swap_opens_no_claims_for_the_token_taken() -> None:
    """R12: taking a Lion by swap does not let the player claim a Lion on another top."""
    state = play(make(((), (L,), (L,))), Reveal(M), Swap(1))
    assert state == make(((), (M,), (L,)), (L,))
    assert Claim(2) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="a swap opens no claims"):
        play(state, Claim(2))


def test_swapped_in_token_may_duplicate_one_in_front_without_a_bust() -> None:
    """R12: a swapped-in Hippo next to a drawn Hippo does not bust."""
    state = play(make(((), (E, H))), *draws(H, M), Swap(1))
    assert state == make(((), (E, M)), (H, H))
    assert state.phase is Phase.DECIDE
    # Both Hippos are one animal, so the player may even herd them.
    assert play(state, Herd()) == make(((H, H), (E, M)), seat=1)


def test_swapped_in_token_counts_for_a_later_bust() -> None:
    """R12, R6: drawing the animal of a swapped-in token later in the turn busts."""
    start = make(((), (E, L)))
    state = play(start, Reveal(M), Swap(1), Draw(), Reveal(L))
    # The Lion goes back to the bag; the opponent keeps the monkey.
    assert state == make(((), (E, M)), seat=1)
    assert state.bag == (2, 4, 5, 6, 7, 8, 9, 9)


# --- R13: later monkeys -------------------------------------------------------------------------------


def test_later_monkey_after_a_swap_does_not_bust() -> None:
    """R13: after a swap no monkey is in front, so a second monkey is kept and R11 applies again."""
    state = play(make(((), (S,), (G,))), Reveal(M), Swap(1), Draw(), Reveal(M))
    assert state == make(((), (M,), (G,)), (S, M), claimable=M, swap_open=True)
    assert legal_actions(state) == (Draw(), Stop(), Claim(1), Swap(2))


def test_later_monkey_may_claim_the_monkey_just_given_away() -> None:
    """R13: the monkey given away in a swap is a monkey top, so the next monkey may claim it back."""
    state = play(make(((), (S,), (G,))), Reveal(M), Swap(1), Draw(), Reveal(M), Claim(1))
    assert state == make(((), (), (G,)), (S, M, M), claimable=M)


def test_later_monkey_may_swap_again() -> None:
    """R13: a second monkey may be swapped too, with any opponent whose top is not a monkey."""
    state = play(make(((), (S,), (G,))), Reveal(M), Swap(1), Draw(), Reveal(M), Swap(2))
    assert state == make(((), (M,), (M,)), (S, G))


def test_monkey_in_front_still_busts_a_later_monkey() -> None:
    """R13, R6: a monkey kept in front (no swap) makes a later monkey a bust."""
    state = play(make(((), (S,))), *draws(M, M))
    assert state == make(((), (S,)), seat=1)


# --- R14: a bust after a swap -------------------------------------------------------------------------


def test_bust_after_a_swap_returns_the_swapped_in_token_and_the_opponent_keeps_the_monkey() -> None:
    """R14: a later bust puts the swapped-in token back in the bag; the monkey stays on the opponent's stack."""
    start = make(((P,), (K, G), (H,)))
    state = play(start, *draws(S, M), Swap(1), Draw(), Reveal(S))
    assert state == make(((P,), (K, M), (H,)), seat=1)
    assert state.bag == (3, 4, 4, 6, 6, 7, 9, 9)
    assert state.stacks[1] == (K, M)


def test_illegal_swap_leaves_the_state_unchanged() -> None:
    """R12: a refused swap raises with the state given, which is unchanged."""
    state = play(make(((), (M,))), Reveal(M))
    before = frozen(state)
    with pytest.raises(IllegalActionError) as caught:
        play(state, Swap(1))
    assert caught.value.state is state
    assert caught.value.action == Swap(1)
    assert same_as(state, before)
    assert Stop() in legal_actions(state)
