"""Chance: hidden cards dealt lazily from the right pool (TM19), and the reshuffle of the discard pile (TM20)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cheekymonkey.errors import IllegalActionError, NotAChanceNodeError
from cheekymonkey.toomany import (
    CARDS,
    Card,
    Discarded,
    Draw,
    Phase,
    Reason,
    Reshuffled,
    Reveal,
    TakeDiscard,
    Uncovered,
    apply,
    apply_with_events,
    chance_outcomes,
    chance_pool,
    legal_actions,
    new_game,
    resolve_chance,
    sample_chance,
)
from tests.toomany.helpers import TINY, TM1_COUNTS, counts, make, row


def test_the_first_draw_is_any_of_the_55_cards_each_equally_likely() -> None:
    """TM19: before anything is seen, each card is 1 in 55: a kind's chance is its count over 55."""
    outcomes = dict(chance_outcomes(new_game(4)))
    assert outcomes == {Reveal(card): Fraction(TM1_COUNTS[card], 55) for card in CARDS}


def test_before_a_reshuffle_the_pile_and_the_unseen_row_cards_are_one_pool() -> None:
    """TM19: a draw and a card picked up from the row come from the same pool of cards never seen."""
    drawn = make(["? ? 3 ? ? ?", "1 ? ? ? ? ?"], discard="5 G")
    assert drawn.phase is Phase.DRAW
    picked = apply(drawn, Reveal(Card.FOUR))
    assert picked.phase is Phase.TURN_UP
    # Seen: 3, 1, giraffe, 5, and the 4 just drawn; 50 cards are left in the pool either way.
    before = dict(chance_outcomes(drawn))
    after = dict(chance_outcomes(picked))
    assert before[Reveal(Card.THREE)] == Fraction(5, 51)
    assert after[Reveal(Card.FOUR)] == Fraction(5, 50)
    assert after[Reveal(Card.GIRAFFE)] == Fraction(2, 50)
    assert sum(after.values()) == 1


def test_drawing_from_the_empty_pile_reshuffles_the_whole_discard_pile_top_included() -> None:
    """TM20: the reshuffle happens at the draw; the new pile is the old discard pile, nothing else."""
    state = make(["? ?", "? ?"], discard="G G G 2 1", ruleset=TINY)
    assert (state.phase, state.pile_size) == (Phase.START, 0)  # the 1 on top may still be taken
    state, events = apply_with_events(state, Draw())
    assert events == (Reshuffled(5),)
    assert (state.discard, state.pile_size, state.pile) == ((), 5, counts((Card.GIRAFFE,) * 3 + (Card.ONE, Card.TWO)))
    assert dict(chance_outcomes(state)) == {
        Reveal(Card.ONE): Fraction(1, 5),
        Reveal(Card.TWO): Fraction(1, 5),
        Reveal(Card.GIRAFFE): Fraction(3, 5),
    }


def test_after_a_reshuffle_the_unseen_row_cards_are_the_rest_of_the_deck() -> None:
    """TM19: a card picked up from the row after a reshuffle comes from the cards never seen, not the pile."""
    state = apply(apply(make(["? ?", "? ?"], discard="G G G 2 1", ruleset=TINY), Draw()), Reveal(Card.ONE))
    assert state.phase is Phase.TURN_UP
    assert chance_pool(state) == counts((Card.ONE, Card.TWO, Card.THREE, Card.WILD))
    assert {probability for _, probability in chance_outcomes(state)} == {Fraction(1, 4)}
    # A card that is only in the pile cannot come up from the row.
    with pytest.raises(IllegalActionError, match="TM19: no giraffe is left among the cards never seen"):
        apply(state, Reveal(Card.GIRAFFE))


def test_a_card_not_in_the_reshuffled_pile_cannot_be_drawn() -> None:
    """TM20: the reshuffled pile holds exactly the old discards."""
    state = apply(make(["? ?", "? ?"], discard="G G G 2 1", ruleset=TINY), Draw())
    with pytest.raises(IllegalActionError, match="TM20: the draw pile holds no 3"):
        apply(state, Reveal(Card.THREE))


def test_taking_the_discard_top_is_still_allowed_before_the_reshuffle() -> None:
    """TM20 ruling: the draw pile is empty, and the player may take the discard top instead of drawing."""
    state = make(["? ?", "? ?"], discard="G G G 2 1", ruleset=TINY)
    assert legal_actions(state) == (Draw(), TakeDiscard())
    state = apply(state, TakeDiscard())
    assert (state.rows[0], state.pile_size, state.pile) == (row("1 ?"), 0, None)


def test_a_turn_that_must_begin_with_a_draw_from_the_empty_pile_reshuffles_first() -> None:
    """TM20, TM18: the engine's draw at the turn's start reshuffles; chance then deals from the discards."""
    state = make(["? ?", "1 ?"], seat=1, phase=Phase.TURN_UP, discard="G G 2 2", ruleset=TINY)
    assert state.pile_size == 0
    state, events = apply_with_events(state, Reveal(Card.GIRAFFE))
    assert events == (Uncovered(1, Card.GIRAFFE), Discarded(1, Card.GIRAFFE, Reason.ENDS_TURN), Reshuffled(5))
    assert (state.seat, state.phase, state.discard) == (0, Phase.DRAW, ())
    assert dict(chance_outcomes(state)) == {Reveal(Card.TWO): Fraction(2, 5), Reveal(Card.GIRAFFE): Fraction(3, 5)}


def test_chance_outcomes_are_refused_where_no_card_is_being_revealed() -> None:
    """TM19: only a draw or a card picked up is revealed by chance."""
    state = apply(new_game(2), Reveal(Card.WILD))
    with pytest.raises(NotAChanceNodeError):
        chance_outcomes(state)
    with pytest.raises(IllegalActionError, match="TM19: no card is being revealed now"):
        apply(state, Reveal(Card.ONE))


class _Subclass(random.Random):
    """A Random subclass: sample_chance calls its randrange rather than reading its bits directly."""


@pytest.mark.parametrize("kind", [random.Random, _Subclass])
def test_sample_chance_is_randrange_over_the_pools_cards_in_card_order(kind: type[random.Random]) -> None:
    """TM19: each card of the pool equally likely; the pick is rng.randrange(n) over the n cards in card order."""
    state = apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?"], discard="5 G"), Reveal(Card.FOUR))
    cards = [card for card, count in zip(CARDS, chance_pool(state), strict=True) for _ in range(count)]
    for seed in range(50):
        reference = random.Random(seed)
        expected = [cards[reference.randrange(len(cards))] for _ in range(5)]
        rng = kind(seed)
        assert [sample_chance(state, rng).card for _ in range(5)] == expected
        again = kind(seed)
        assert resolve_chance(state, again) == apply(state, Reveal(expected[0]))
