"""The turn, with the worked cases of the rules.

Drawing or taking the discard top (TM6), placing numbers (TM7), the chain (TM8), its end (TM9), and the card in
hand (TM10).
"""

from __future__ import annotations

import pytest

from cheekymonkey.errors import IllegalActionError
from cheekymonkey.toomany import (
    Card,
    Decline,
    Discarded,
    Draw,
    Drew,
    Phase,
    Reason,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TookDiscard,
    TurnedUp,
    Uncovered,
    apply,
    apply_all,
    apply_with_events,
    legal_actions,
    new_game,
    view,
)
from tests.toomany.helpers import Stacked, make, row


def test_001s_example_a_drawn_3_goes_face_up_third_from_the_left() -> None:
    """TM7: 001's example: draw a 3, take the third card from the left, put the 3 face up in its place."""
    state, events = apply_with_events(new_game(2), Reveal(Card.THREE))
    assert state.rows[0] == row("? ? 3 ? ? ?")
    assert events == (Drew(0, Card.THREE), TurnedUp(0, Card.THREE, 3))
    # The card that was there is now in hand, and nobody has seen it: chance reveals it next (TM19).
    assert (state.phase, state.hand, state.seat) == (Phase.TURN_UP, None, 0)


def test_a_chain_goes_on_until_a_card_ends_it() -> None:
    """TM8: a 3 uncovers a 5, the 5 a 1, the 1 a giraffe; the giraffe ends the turn (TM13)."""
    state = apply_all(new_game(2), [Reveal(Card.THREE), Reveal(Card.FIVE), Reveal(Card.ONE)])
    assert state.rows[0] == row("1 ? 3 ? 5 ?")
    assert (state.phase, state.seat) == (Phase.TURN_UP, 0)
    state, events = apply_with_events(state, Reveal(Card.GIRAFFE))
    assert events == (Uncovered(0, Card.GIRAFFE), Discarded(0, Card.GIRAFFE, Reason.ENDS_TURN))
    assert state.rows[0] == row("1 ? 3 ? 5 ?")
    assert state.discard == (Card.GIRAFFE,)
    assert (state.seat, state.phase) == (1, Phase.DRAW)  # TM5: play passes to the left


def test_a_duplicate_ends_the_turn_and_is_discarded() -> None:
    """TM9: a number already face up in the row is discarded, and play passes to the left."""
    state = make(["? ? 3 ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], seat=0)
    state, events = apply_with_events(state, Reveal(Card.THREE))
    assert events == (Drew(0, Card.THREE), Discarded(0, Card.THREE, Reason.DUPLICATE))
    assert state.rows[0] == row("? ? 3 ? ? ?")
    assert (state.discard, state.seat) == ((Card.THREE,), 1)


def test_a_number_turned_up_from_the_row_that_is_already_face_up_is_a_duplicate() -> None:
    """TM9: the rules apply alike to the card turned up: a 1 uncovers a 3 that is already face up."""
    state = make(["? ? 3 ? ? ?", "? ? ? ? ? ?"], seat=0)
    state = apply_all(state, [Reveal(Card.ONE)])
    state, events = apply_with_events(state, Reveal(Card.THREE))
    assert events == (Uncovered(0, Card.THREE), Discarded(0, Card.THREE, Reason.DUPLICATE))
    assert state.rows[0] == row("1 ? 3 ? ? ?")


def test_a_number_higher_than_the_row_is_discarded() -> None:
    """TM9: with a row of 4, a 5 is too high: discarded, turn over (TM22: above n is too high)."""
    state = make(["? ? ? ?", "? ? ? ? ? ?"], seat=0)
    state, events = apply_with_events(state, Reveal(Card.FIVE))
    assert events == (Drew(0, Card.FIVE), Discarded(0, Card.FIVE, Reason.TOO_HIGH))
    assert (state.discard, state.seat) == ((Card.FIVE,), 1)
    # The same number is no trouble for a row of six: the next seat may take it from the discard pile (TM6).
    assert state.phase is Phase.START
    assert apply(state, TakeDiscard()).rows[1] == row("? ? ? ? 5 ?")


def test_a_usable_discard_top_offers_the_choice_of_pile() -> None:
    """TM6: the turn begins with a choice when the discard top is a number the player can place."""
    state = make(["? ? 3 ? ? ?", "? ? ? ? ? ?"], seat=1, discard="G 3")
    assert state.phase is Phase.START
    assert legal_actions(state) == (Draw(), TakeDiscard())
    state, events = apply_with_events(state, TakeDiscard())
    assert events == (TookDiscard(1, Card.THREE), TurnedUp(1, Card.THREE, 3))
    assert state.rows[1] == row("? ? 3 ? ? ?")
    assert state.discard == (Card.GIRAFFE,)


@pytest.mark.parametrize(
    ("top", "own_row", "why"),
    [
        ("G", "? ? ? ? ? ?", "special cards are never taken"),
        ("S", "? ? ? ? ? ?", "special cards are never taken"),
        ("3", "? ? 3 ? ? ?", "already shows at position 3"),
    ],
)
def test_a_discard_top_the_player_cannot_use_is_not_offered(top: str, own_row: str, why: str) -> None:
    """TM6: special cards never; a number only if it is not already face up in front of the player."""
    state = make([own_row, "? ? ? ? ? ?"], seat=0, discard=f"1 {top}")
    assert state.phase is Phase.DRAW  # TM18: drawing was the only way to begin, so the engine drew
    with pytest.raises(IllegalActionError, match=why) as caught:
        apply(state, TakeDiscard())
    assert caught.value.reason.startswith("TM6")


def test_a_discard_top_too_high_for_the_row_may_be_taken_as_001_words_it() -> None:
    """TM6 as 001 words it ("not already face up in front of you"), not its ruling: a 6 for a row of 5 is offered.

    Taken, it is too high (TM9) and goes back onto the pile, and the turn ends: in effect a pass.
    """
    state = make(["? ? ? ? ?", "? ? ? ? ? ?"], discard="1 6")
    assert (state.phase, legal_actions(state)) == (Phase.START, (Draw(), TakeDiscard()))
    state, events = apply_with_events(state, TakeDiscard())
    assert events == (TookDiscard(0, Card.SIX), Discarded(0, Card.SIX, Reason.TOO_HIGH))
    assert (state.seat, state.discard, state.rows[0]) == (1, (Card.ONE, Card.SIX), row("? ? ? ? ?"))


def test_a_discard_top_whose_position_holds_a_wild_is_offered_for_the_bonus() -> None:
    """TM6 ruling, TM12: a number onto its wild's position can be used, through the bonus; declining passes."""
    state = make(["? ? W ? ? ?", "? ? ? ? ? ?"], seat=0, discard="3")
    assert state.phase is Phase.START
    state = apply(state, TakeDiscard())
    assert (state.phase, state.hand) == (Phase.BONUS, Card.THREE)
    assert legal_actions(state) == (TakeBonus(), Decline())
    state, events = apply_with_events(state, Decline())
    assert events == (Discarded(0, Card.THREE, Reason.DECLINED),)
    assert (state.discard, state.seat, state.rows[0]) == ((Card.THREE,), 1, row("? ? W ? ? ?"))


def test_the_card_in_hand_is_shown_to_every_seat() -> None:
    """TM10: the card in hand is public: every seat's view holds it."""
    state = apply_all(new_game(3), [Reveal(Card.TWO), Reveal(Card.SKIP)])
    assert state.hand is Card.SKIP
    assert {view(state, seat).hand for seat in (0, 1, 2, None)} == {Card.SKIP}


def test_drawing_from_the_pile_when_offered_the_discard_top() -> None:
    """TM6: the player may draw instead; the draw the player chose is a chance node of the pile."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], seat=0, discard="4")
    state = apply(state, Draw())
    assert state.phase is Phase.CHOSEN_DRAW
    assert state.discard == (Card.FOUR,)
    assert apply(state, Reveal(Card.FOUR)).rows[0] == row("? ? ? 4 ? ?")


# -- worked cases on a stacked deck ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "discard", "deck", "choices", "rows_after", "discard_after", "seat_after"),
    [
        # TM7, 001's example: a drawn 3 goes face up third from the left; the card there is in hand.
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], "", "3", "", ["? ? 3 ? ? ?", "? ? ? ? ? ?"], "", 0),
        # TM8: the chain goes on, 3 then 5 then 1, until a giraffe ends it (TM13).
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], "", "3 5 1 G", "", ["1 ? 3 ? 5 ?", "? ? ? ? ? ?"], "G", 1),
        # TM9: a drawn number already face up is discarded.
        (["? ? 3 ? ? ?", "? ? ? ? ? ?"], "", "3", "", ["? ? 3 ? ? ?", "? ? ? ? ? ?"], "3", 1),
        # TM9: a number turned up that is already face up ends the turn the same way.
        (["? ? 3 ? ? ?", "? ? ? ? ? ?"], "", "1 3", "", ["1 ? 3 ? ? ?", "? ? ? ? ? ?"], "3", 1),
        # TM9, TM22: a 5 is too high for a row of 4.
        (["? ? ? ?", "? ? ? ? ? ?"], "", "5", "", ["? ? ? ?", "? ? ? ? ? ?"], "5", 1),
        # TM6: the 3 on the discard pile is taken and placed; a 1 comes up, then an elephant.
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], "G 3", "1 E", "t", ["1 ? 3 ? ? ?", "? ? ? ? ? ?"], "G E", 1),
        # TM6 as 001 words it: a 6 too high for a row of 5 may be taken, and goes straight back.
        (["? ? ? ? ?", "? ? ? ? ? ?"], "G 6", "", "t", ["? ? ? ? ?", "? ? ? ? ? ?"], "G 6", 1),
        # TM11: a drawn wild goes where the player says; the card under it is a giraffe.
        (["1 ? ? ? ? ?", "? ? ? ? ? ?"], "", "W G", "w 4", ["1 ? ? W ? ?", "? ? ? ? ? ?"], "G", 1),
        # TM11, TM12, TM15: a wild on a turned-down 2 brings the 2 up, which takes the bonus; the wild goes on.
        (["? (2) ? ? ? ?", "1 ? ? ? ? ?"], "", "W G", "w 2, b, w 6", ["? 2 ? ? ? W", "1 ? ? ? ? ?"], "G", 1),
        # TM12: a 3 drawn onto a wild's position: the bonus declined, the 3 is discarded.
        (["? ? W ? ? ?", "? ? ? ? ? ?"], "", "3", "n", ["? ? W ? ? ?", "? ? ? ? ? ?"], "3", 1),
        # TM14: the raccoon takes the 4 from under the pile, which is placed and turns up a giraffe.
        (
            ["1 ? ? ? ? ?", "? ? ? ? ? ?"],
            "4 1 G 2 5",
            "R G",
            "d, r 4",
            ["1 ? ? 4 ? ?", "? ? ? ? ? ?"],
            "1 G 2 5 R G",
            1,
        ),
        # TM15: a Do Not Disturb turns seat 1's 3 face down.
        (["? ? ? ? ? ?", "? ? 3 ? ? ?"], "", "D", "x 1 3", ["? ? ? ? ? ?", "? ? (3) ? ? ?"], "D", 1),
        # TM16: the Skip goes to seat 2; seat 1 draws a giraffe; seat 2 is skipped; seat 0 plays again.
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"],
            "",
            "S G",
            "s 2",
            ["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"],
            "G S",
            0,
        ),
    ],
    ids=[
        "draw a 3",
        "a chain",
        "a duplicate drawn",
        "a duplicate turned up",
        "too high",
        "the discard top taken",
        "a discard too high taken",
        "a wild placed",
        "a wild on a known card and the bonus",
        "the bonus declined",
        "the raccoon",
        "Do Not Disturb",
        "a Skip",
    ],
)
def test_worked_cases_of_the_rules_on_a_stacked_deck(
    rows: list[str],
    discard: str,
    deck: str,
    choices: str,
    rows_after: list[str],
    discard_after: str,
    seat_after: int,
) -> None:
    """TM6-TM16: each case of the rules played from a table, chance revealing a stacked deck, seat 0 to move."""
    game = Stacked(make(rows, discard=discard), deck).play(choices)
    assert not game.deck  # every card of the stacked deck was revealed
    rows_now = [game.row(seat) for seat in range(len(rows))]
    assert (rows_now, game.discard, game.state.seat) == (rows_after, discard_after, seat_after)
