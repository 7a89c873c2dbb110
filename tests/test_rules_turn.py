"""The turn: R5 draws and their exact odds, R6 busts, R7 claims, R8 the decision, E3 the legal action order."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    Claim,
    Draw,
    Herd,
    IllegalActionError,
    NotAChanceNodeError,
    Phase,
    Place,
    Reveal,
    Stop,
    Swap,
    chance_outcomes,
    legal_actions,
    new_game,
    sample_chance,
)
from cheekymonkey.cheeky.actions import Action
from tests.helpers import STANDARD_COUNTS, E, G, H, K, L, M, P, S, draws, make, play

# --- R5: a draw --------------------------------------------------------------------------------------


def test_draw_puts_the_token_in_front_not_on_the_stack() -> None:
    """R5: a revealed token leaves the bag and lies in front of the player; the stacks are untouched."""
    state = play(new_game(2), Reveal(H))
    assert state == make(((), ()), (H,), claimable=H)
    assert state.bag == (3, 4, 4, 6, 7, 8, 9, 10)
    assert state.stacks == ((), ())


def test_draw_action_makes_a_chance_node_and_keeps_the_front() -> None:
    """R5, R8: drawing again turns the state into a chance node with the tokens still in front."""
    state = play(new_game(2), Reveal(H), Draw())
    assert state == make(((), ()), (H,), phase=Phase.CHANCE)


def test_chance_outcomes_of_a_full_bag_are_count_over_52() -> None:
    """R5: at the start each animal comes up with probability (its count) / 52, exactly."""
    outcomes = chance_outcomes(new_game(2))
    assert outcomes == (
        (Reveal(E), Fraction(3, 52)),
        (Reveal(S), Fraction(4, 52)),
        (Reveal(H), Fraction(5, 52)),
        (Reveal(G), Fraction(6, 52)),
        (Reveal(P), Fraction(7, 52)),
        (Reveal(K), Fraction(8, 52)),
        (Reveal(L), Fraction(9, 52)),
        (Reveal(M), Fraction(10, 52)),
    )
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1


def test_chance_outcomes_follow_the_bag_and_skip_animals_not_in_it() -> None:
    """R5: with 1 Seal, 2 Lions and 1 Monkey left, the odds are 1/4, 1/2, 1/4 and nothing else comes up."""
    stacks = ((E, E, E, S, S, S, H, H, H, H, H), (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 7 + (M,) * 9)
    state = make(stacks)
    assert state.bag == (0, 1, 0, 0, 0, 0, 2, 1)
    assert chance_outcomes(state) == (
        (Reveal(S), Fraction(1, 4)),
        (Reveal(L), Fraction(1, 2)),
        (Reveal(M), Fraction(1, 4)),
    )


class _Fixed(random.Random):
    """A random stream that always returns a set value from randrange, to walk through every pick."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value
        self.asked: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.asked.append(start)
        return self.value


def test_sample_chance_gives_every_token_in_the_bag_one_equal_pick() -> None:
    """R5: each of the n picks sample_chance can make maps to one token, so every animal gets exactly its count."""
    state = make(((E, S, S, S, H), (M,) * 10))
    size = state.bag_size
    tally = [0] * 8
    for pick in range(size):
        rng = _Fixed(pick)
        tally[sample_chance(state, rng).animal] += 1
        assert rng.asked == [size]
    assert tally == list(state.bag) == [2, 1, 4, 6, 7, 8, 9, 0]


@pytest.mark.parametrize(
    "state",
    [
        pytest.param(make(((), ()), (S,), claimable=S), id="deciding"),
        pytest.param(make(((), ()), (S, E), phase=Phase.PLACING), id="placing"),
    ],
)
def test_chance_functions_refuse_a_state_that_is_not_a_chance_node(state: object) -> None:
    """R5: chance outcomes exist only while a draw is pending; elsewhere NotAChanceNodeError."""
    with pytest.raises(NotAChanceNodeError):
        chance_outcomes(state)  # type: ignore[arg-type]
    with pytest.raises(NotAChanceNodeError):
        sample_chance(state, random.Random(1))  # type: ignore[arg-type]


def test_reveal_of_an_animal_not_in_the_bag_is_illegal() -> None:
    """R5: only a token that is in the bag can come out of it."""
    state = make(((E, E), (E,)))
    with pytest.raises(IllegalActionError, match="R5") as caught:
        play(state, Reveal(E))
    assert caught.value.reason == "R5: no Elephant is left in the bag"


@pytest.mark.parametrize("animal", ANIMALS)
def test_first_draw_of_a_turn_never_busts(animal: Animal) -> None:
    """R6: the first draw of a turn finds nothing in front, so any animal is kept, even one on both stacks."""
    state = make(((animal,), (animal,)), seat=1)
    after = play(state, Reveal(animal))
    swap_open = animal is Animal.MONKEY
    assert after == make(((animal,), (animal,)), (animal,), seat=1, claimable=animal, swap_open=swap_open)


# --- R6: a bust ---------------------------------------------------------------------------------------


def test_duplicate_draw_busts_and_returns_every_token_in_front() -> None:
    """R6: drawing an animal already in front ends the turn; all tokens in front and the draw go back."""
    start = make(((K,), (S, E)))
    state = play(start, *draws(H, P, G, H))
    assert state == make(((K,), (S, E)), seat=1)
    assert state.bag == (2, 3, 5, 6, 7, 7, 9, 10)
    assert state.phase is Phase.CHANCE


def test_bust_returns_claimed_tokens_to_the_bag() -> None:
    """R6: tokens claimed this turn go back into the bag with the rest; their old owners do not get them back."""
    start = make(((H,), (S, K, K), (P, K)))
    state = play(start, Reveal(K), Claim(1), Claim(1), Claim(2), Draw(), Reveal(K))
    assert state == make(((H,), (S,), (P,)), seat=1)
    assert state.bag == (3, 3, 4, 6, 6, 8, 9, 10)


def test_drawing_the_animal_of_a_claimed_token_busts() -> None:
    """R6: a claimed token counts as a token in front: drawing its animal later busts."""
    start = make(((), (L,), (G,)), seat=0)
    state = play(start, Reveal(L), Claim(1), Draw(), Reveal(G), Draw(), Reveal(L))
    assert state == make(((), (), (G,)), seat=1)
    assert state.bag == (3, 4, 5, 5, 7, 8, 9, 10)


def test_bust_leaves_the_players_own_stack_untouched() -> None:
    """R6: the busting player's stack keeps every token, in the same order."""
    own = (M, S, E, L)
    start = make((own, (H,)))
    state = play(start, *draws(S, P, P))
    assert state.stacks == (own, (H,))
    assert state == make((own, (H,)), seat=1)


def test_bust_on_the_last_token_in_the_bag_refills_it_and_play_goes_on() -> None:
    """R6, R15: a bust on the bag's last token puts the front back, so the game is not over."""
    rest = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 8
    start = make((rest, ()), (M,), seat=1, phase=Phase.CHANCE)
    assert start.bag == (0, 0, 0, 0, 0, 0, 0, 1)
    state = play(start, Reveal(M))
    assert state == make((rest, ()), seat=0)
    assert state.bag == (0, 0, 0, 0, 0, 0, 0, 2)
    assert state.phase is Phase.CHANCE


# --- R7: claims ---------------------------------------------------------------------------------------


def test_claim_moves_the_opponents_top_token_in_front() -> None:
    """R7: a claim takes the top token showing the drawn animal from an opponent's stack to the front."""
    start = make(((), (S, G)))
    state = play(start, Reveal(G), Claim(1))
    assert state == make(((), (S,)), (G, G), claimable=G)
    assert state.bag == (3, 3, 5, 4, 7, 8, 9, 10)


def test_claims_are_optional() -> None:
    """R7, R8: with a claim on offer the player may still draw, stop or herd instead."""
    start = make(((), (G,)))
    state = play(start, Reveal(G))
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(1))
    assert play(state, Stop()) == make(((G,), (G,)), seat=1)
    assert play(state, Herd()) == make(((G,), (G,)), seat=1)
    assert play(state, Draw()) == make(((), (G,)), (G,), phase=Phase.CHANCE)


def test_claims_chain_down_one_stack() -> None:
    """R7: after a claim the newly revealed top of the same animal may be claimed too, and so on."""
    start = make(((), (S, P, P, P)))
    state = play(start, Reveal(P), Claim(1))
    assert state == make(((), (S, P, P)), (P, P), claimable=P)
    assert Claim(1) in legal_actions(state)
    state = play(state, Claim(1), Claim(1))
    assert state == make(((), (S,)), (P, P, P, P), claimable=P)
    # The Seal now on top is not the animal drawn.
    assert legal_actions(state) == (Draw(), Stop(), Herd())


def test_claims_chain_across_several_stacks() -> None:
    """R7: claims of the drawn animal may be taken from every opponent showing it, one at a time, any order."""
    start = make(((K,), (), (E, K), (K, K)), seat=1)
    state = play(start, Reveal(K))
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(0), Claim(2), Claim(3))
    state = play(state, Claim(3), Claim(0), Claim(3), Claim(2))
    assert state == make(((), (), (E,), ()), (K, K, K, K, K), seat=1, claimable=K)


def test_only_the_latest_drawn_animal_can_be_claimed() -> None:
    """R7: after drawing a Hippo, a Seal on an opponent's top is no longer claimable, though a Seal is in front."""
    start = make(((), (S,), (H,)))
    state = play(start, *draws(S, H))
    assert state == make(((), (S,), (H,)), (S, H), claimable=H)
    assert legal_actions(state) == (Draw(), Stop(), Claim(2))
    with pytest.raises(IllegalActionError, match="R7") as caught:
        play(state, Claim(1))
    assert "not a Hippo" in caught.value.reason


@pytest.mark.parametrize(
    "decision",
    [pytest.param(Draw(), id="draw"), pytest.param(Stop(), id="stop"), pytest.param(Herd(), id="herd")],
)
def test_claims_not_taken_expire_at_the_next_decision(decision: Action) -> None:
    """R7: claims left untaken are lost once the player decides (draws again, stops or herds)."""
    start = make(((), (L, L)))
    state = play(start, Reveal(L), Claim(1), decision)
    if isinstance(decision, Draw):
        # Back at a chance node, claims are closed; a fresh animal opens claims only for itself.
        assert state == make(((), (L,)), (L, L), phase=Phase.CHANCE)
        state = play(state, Reveal(E))
        assert state == make(((), (L,)), (L, L, E), claimable=E)
        assert Claim(1) not in legal_actions(state)
    else:
        own = (L, L)
        assert state == make((own, (L,)), seat=1)
    with pytest.raises(IllegalActionError):
        play(state, Claim(1))


def test_player_never_claims_from_their_own_stack() -> None:
    """R7: a matching top on the player's own stack is not offered and is refused."""
    start = make(((S,), (H, S), (S,)), seat=1)
    state = play(start, Reveal(S))
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(0), Claim(2))
    with pytest.raises(IllegalActionError, match="R7: you cannot take from your own stack"):
        play(state, Claim(1))


def test_claim_from_an_empty_stack_is_refused() -> None:
    """R7: an empty stack shows nothing to claim."""
    state = play(make(((), (), (S,))), Reveal(S))
    with pytest.raises(IllegalActionError, match="R7: seat 1's stack is empty"):
        play(state, Claim(1))


def test_claimed_duplicates_do_not_bust() -> None:
    """R7, R6: claiming tokens of the animal just drawn puts duplicates in front without a bust."""
    state = play(make(((), (M, M), (M,))), Reveal(M), Claim(1), Claim(1), Claim(2))
    assert state == make(((), (), ()), (M, M, M, M), claimable=M)


# --- R8: the decision ---------------------------------------------------------------------------------


def test_deciding_offers_draw_and_stop_and_herd_only_for_one_animal() -> None:
    """R8: after the claims the player may draw again or stop; the herd only when the front is one animal."""
    one = play(new_game(2), Reveal(E))
    assert legal_actions(one) == (Draw(), Stop(), Herd())
    two = play(one, Draw(), Reveal(S))
    assert legal_actions(two) == (Draw(), Stop())


def test_no_draw_from_an_empty_bag() -> None:
    """R8: with the bag empty, Draw is not offered and is refused; the player must stop or herd."""
    rest = (E,) * 2 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 10
    state = play(make((rest, ()), seat=1), Reveal(E))
    assert state.bag_size == 0
    assert legal_actions(state) == (Stop(), Herd())
    with pytest.raises(IllegalActionError, match="R8: the bag is empty, so you cannot draw"):
        play(state, Draw())
    assert play(state, Stop()) == make((rest, (E,)), seat=0)
    assert play(state, Stop()).phase is Phase.OVER


def test_claims_stay_open_when_the_bag_is_empty() -> None:
    """R8, R7: drawing the last token still lets the player claim before stopping or herding."""
    rest = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 7 + (M,) * 10
    state = play(make((rest, (L,))), Reveal(L))
    assert state.bag_size == 0
    assert legal_actions(state) == (Stop(), Herd(), Claim(1))
    assert play(state, Claim(1), Herd()) == make(((L, L, *rest), ()), seat=1)


def test_empty_bag_with_mixed_front_leaves_only_stop() -> None:
    """R8: with the bag empty and two animals in front, stopping is the only way on."""
    rest = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 8 + (M,) * 9
    state = play(make((rest, ()), seat=1), *draws(M, L))
    assert state.bag_size == 0
    assert legal_actions(state) == (Stop(),)


# --- E3: the order of legal actions -----------------------------------------------------------------


def test_legal_actions_order_while_deciding() -> None:
    """E3: Draw, Stop, Herd, then claims by seat, then swaps by seat."""
    start = make(((M,), (S,), (), (M,), (H,)), seat=2)
    state = play(start, Reveal(M))
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(0), Claim(3), Swap(1), Swap(4))


def test_legal_actions_order_at_a_chance_node_and_while_placing() -> None:
    """E3: one Reveal per animal in the bag in animal order; one Place per animal in front in animal order."""
    chance = make(((E, E, E), (L,) * 9))
    assert legal_actions(chance) == (Reveal(S), Reveal(H), Reveal(G), Reveal(P), Reveal(K), Reveal(M))
    placing = make(((), ()), (M, S, K, S), phase=Phase.PLACING)
    assert legal_actions(placing) == (Place(S), Place(K), Place(M))


def test_legal_actions_of_a_finished_game_are_empty() -> None:
    """E3, R15: after the end nothing is legal."""
    over = make(((E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6, (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 10))
    assert over.phase is Phase.OVER
    assert legal_actions(over) == ()


def test_bag_counts_in_helpers_match_r1() -> None:
    """R1: the counts the tests assume are the engine's standard counts."""
    assert new_game(2).bag == STANDARD_COUNTS
