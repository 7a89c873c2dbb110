"""The special cards in every situation their clauses name.

Wild (TM11), bonus (TM12), giraffe and elephant (TM13), raccoon (TM14), Do Not Disturb (TM15), Skip (TM16, TM17),
and the moves the engine makes itself (TM18).
"""

from __future__ import annotations

import pytest

from cheekymonkey.errors import IllegalActionError
from cheekymonkey.toomany import (
    BonusTaken,
    Card,
    Decline,
    Discarded,
    Draw,
    Drew,
    GameWon,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    RaccoonTook,
    Reason,
    Reveal,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
    apply,
    apply_all,
    apply_with_events,
    check_state,
    face_down,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
)
from cheekymonkey.toomany.state import trusted_state
from tests.toomany.helpers import TINY, Stacked, cards, make, random_game, row

# -- TM11 wild -----------------------------------------------------------------------------------------------


def test_a_wild_goes_on_any_face_down_position_the_player_chooses() -> None:
    """TM11: the choices are the face-down positions; the card there comes into hand and the chain goes on."""
    state = make(["1 ? 3 ? ? ?", "? ? ? ? ? ?"])
    state = apply(state, Reveal(Card.WILD))
    assert (state.phase, state.hand) == (Phase.WILD, Card.WILD)
    assert legal_actions(state) == (PlaceWild(2), PlaceWild(4), PlaceWild(5), PlaceWild(6))
    state, events = apply_with_events(state, PlaceWild(5))
    assert events == (WildPlaced(0, 5),)
    assert state.rows[0] == row("1 ? 3 ? W ?")
    assert (state.phase, state.hand) == (Phase.TURN_UP, None)  # chance reveals the card picked up


def test_a_wild_cannot_go_on_a_face_up_position_or_off_the_row() -> None:
    """TM11: a wild replaces a face-down card; the error cites the clause and nothing changes."""
    state = apply(make(["1 ? 3 ? ?", "? ? ? ? ? ?"]), Reveal(Card.WILD))
    for action, reason in ((PlaceWild(3), "TM11: position 3 is face up"), (PlaceWild(6), "positions 1 to 5")):
        with pytest.raises(IllegalActionError, match=reason) as caught:
            apply(state, action)
        assert caught.value.state is state
    assert state.rows[0] == row("1 ? 3 ? ?")


def test_a_wild_on_a_known_face_down_card_brings_it_up_without_chance() -> None:
    """TM11, TM15, TM19: the card turned down by a Do Not Disturb is known: it comes into hand, no chance node."""
    state = apply(make(["? ? (3) ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.WILD))
    state, events = apply_with_events(state, PlaceWild(3))
    assert events == (WildPlaced(0, 3), Uncovered(0, Card.THREE))
    # The 3 came into hand and goes on at once: its position now holds the wild, so the bonus is offered.
    assert (state.phase, state.hand, state.rows[0]) == (Phase.BONUS, Card.THREE, row("? ? W ? ? ?"))


def test_a_wild_with_one_face_down_position_is_placed_by_the_engine_and_wins_the_round() -> None:
    """TM11, TM18, TM21: one place for the wild, so no question; that was the last face-down card."""
    state = make(["1 2 3 4 5 ?", "? ? ? ? ? ?"])
    state, events = apply_with_events(state, Reveal(Card.WILD))
    assert events[:2] == (Drew(0, Card.WILD), WildPlaced(0, 6))
    assert state.round == 2
    assert state.row_sizes == (5, 6)


def test_a_wild_turned_up_from_the_row_is_placed_like_a_drawn_one() -> None:
    """TM11, TM9: the rules apply alike to a card turned up: the wild under the 2 asks for its place."""
    game = Stacked(make(["1 ? ? ? ? ?", "? ? ? ? ? ?"]), "2 W").play()
    assert (game.state.phase, game.state.hand, game.row(0)) == (Phase.WILD, Card.WILD, "1 2 ? ? ? ?")
    assert legal_actions(game.state) == tuple(PlaceWild(p) for p in (3, 4, 5, 6))


def test_a_wild_placed_on_a_turned_down_wild_brings_that_wild_up_to_be_placed() -> None:
    """TM11, TM15: the known wild under the new one comes into hand, with no chance, and asks for a place."""
    game = Stacked(make(["? (W) ? ? ? ?", "1 ? ? ? ? ?"]), "W").play("w 2")
    assert game.kinds() == ["Drew", "WildPlaced", "Uncovered"]
    assert (game.state.phase, game.state.hand, game.row(0)) == (Phase.WILD, Card.WILD, "? W ? ? ? ?")


# -- TM12 the wild bonus --------------------------------------------------------------------------------------


def test_the_bonus_puts_the_number_in_the_wilds_place_and_the_wild_is_placed_again() -> None:
    """TM12: take the bonus: k goes to position k, the wild back into hand, then onto another face-down card."""
    state = apply(make(["? ? W ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.THREE))
    assert (state.phase, legal_actions(state)) == (Phase.BONUS, (TakeBonus(), Decline()))
    state, events = apply_with_events(state, TakeBonus())
    assert events == (BonusTaken(0, Card.THREE),)
    assert (state.phase, state.hand, state.rows[0]) == (Phase.WILD, Card.WILD, row("? ? 3 ? ? ?"))
    assert legal_actions(state) == tuple(PlaceWild(p) for p in (1, 2, 4, 5, 6))


def test_the_bonus_declined_discards_the_number_and_ends_the_turn() -> None:
    """TM12: the bonus is optional; declining discards k (it cannot go anywhere else) and the turn ends."""
    state = apply(make(["? ? W ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.THREE))
    state, events = apply_with_events(state, Decline())
    assert events == (Discarded(0, Card.THREE, Reason.DECLINED),)
    assert (state.seat, state.discard, state.rows[0]) == (1, (Card.THREE,), row("? ? W ? ? ?"))


def test_the_bonus_applies_to_a_card_turned_up_the_same_turn_the_wild_was_placed() -> None:
    """TM12 ruling: from the moment the wild is placed, the same turn included, to any number however it came."""
    state = apply_all(make(["? ? ? ? ? ?", "? ? ? ? ? ?"]), [Reveal(Card.WILD), PlaceWild(4)])
    state = apply(state, Reveal(Card.FOUR))  # the card under the wild is a 4: its position holds the wild
    assert (state.phase, state.hand) == (Phase.BONUS, Card.FOUR)
    state = apply(state, TakeBonus())
    assert state.rows[0] == row("? ? ? 4 ? ?")


def test_taking_the_bonus_with_one_other_face_down_position_places_the_wild_there() -> None:
    """TM12, TM11, TM18: the wild taken back has one place to go, so the engine puts it there."""
    state = apply(make(["1 2 W 4 5 ?", "? ? ? ? ? ?"], discard="3"), TakeDiscard())
    state, events = apply_with_events(state, TakeBonus())
    assert events[:2] == (BonusTaken(0, Card.THREE), WildPlaced(0, 6))
    assert state.round == 2  # and that completed the row (TM21)


def test_a_number_whose_position_holds_a_turned_down_wild_is_placed_as_usual() -> None:
    """TM7, TM12: a wild turned face down is a face-down card: the 3 swaps with it, and the wild comes up."""
    game = Stacked(make(["? ? (W) ? ? ?", "1 ? ? ? ? ?"]), "3").play()
    assert game.kinds() == ["Drew", "TurnedUp", "Uncovered"]
    assert (game.state.phase, game.state.hand, game.row(0)) == (Phase.WILD, Card.WILD, "? ? 3 ? ? ?")


def test_a_wild_freed_by_the_bonus_can_uncover_a_second_bonus() -> None:
    """TM12: the 2 takes the wild's place; the wild goes on 4 and uncovers a 4, which is offered the bonus again."""
    game = Stacked(make(["? W ? ? ? ?", "? ? ? ? ? ?"]), "2 4").play("b, w 4")
    assert game.kinds() == ["Drew", "BonusTaken", "WildPlaced", "Uncovered"]
    assert (game.state.phase, game.state.hand, game.row(0)) == (Phase.BONUS, Card.FOUR, "? 2 ? W ? ?")
    assert legal_actions(game.state) == (TakeBonus(), Decline())


# -- TM13 giraffe and elephant --------------------------------------------------------------------------------


@pytest.mark.parametrize("card", [Card.GIRAFFE, Card.ELEPHANT])
def test_a_giraffe_or_an_elephant_ends_the_turn_at_once(card: Card) -> None:
    """TM13: drawn or turned up, the card goes onto the discard pile and the turn ends."""
    state, events = apply_with_events(new_game(2), Reveal(card))
    assert events == (Drew(0, card), Discarded(0, card, Reason.ENDS_TURN))
    assert (state.seat, state.discard) == (1, (card,))
    turned = apply_all(new_game(2), [Reveal(Card.TWO)])
    turned, events = apply_with_events(turned, Reveal(card))
    assert events == (Uncovered(0, card), Discarded(0, card, Reason.ENDS_TURN))
    assert turned.seat == 1


# -- TM14 raccoon ---------------------------------------------------------------------------------------------


def test_the_raccoon_takes_a_number_it_needs_from_below_it_and_places_it() -> None:
    """TM14: the raccoon goes on top; the player takes a number k whose position is face down, placed as TM7."""
    state = apply_all(make(["1 ? ? ? ? ?", "? ? ? ? ? ?"], discard="4 1 G 2 5"), [Draw(), Reveal(Card.RACCOON)])
    assert state.discard == cards("4 1 G 2 5 R")
    assert state.phase is Phase.RACCOON
    # The 1 is face up already and the giraffe is no number: 2, 4 and 5 qualify, or nothing.
    assert legal_actions(state) == (RaccoonTake(2), RaccoonTake(4), RaccoonTake(5), Decline())
    state, events = apply_with_events(state, RaccoonTake(4))
    assert events == (RaccoonTook(0, Card.FOUR), TurnedUp(0, Card.FOUR, 4))
    assert state.discard == cards("1 G 2 5 R")  # the others keep their order
    assert (state.rows[0], state.phase) == (row("1 ? ? 4 ? ?"), Phase.TURN_UP)


def test_the_raccoon_takes_the_copy_nearest_the_top() -> None:
    """TM14: with two of a number in the pile, the one nearest the top goes; the rest keep their order."""
    state = apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3 5 3 G"), Reveal(Card.RACCOON))
    state = apply(state, RaccoonTake(3))
    assert state.discard == cards("3 5 G R")


def test_the_raccoon_with_nothing_to_take_ends_the_turn() -> None:
    """TM14, TM18: no number whose position is face down, so no question: the raccoon stays, the turn ends."""
    # The 3 is face up, the 6 too high, the wild's position does not qualify (ruling), a giraffe is no number.
    state, events = apply_with_events(make(["? W 3 ? ?", "? ? ? ? ? ?"], discard="3 6 2 G"), Reveal(Card.RACCOON))
    assert events == (Drew(0, Card.RACCOON), Discarded(0, Card.RACCOON, Reason.PLAYED), RaccoonTook(0, None))
    assert (state.seat, state.discard[-1]) == (1, Card.RACCOON)


def test_the_raccoon_declined_ends_the_turn_with_the_pile_as_it_was() -> None:
    """TM14: taking is optional."""
    state = apply_all(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="2"), [Draw(), Reveal(Card.RACCOON)])
    state, events = apply_with_events(state, Decline())
    assert events == (RaccoonTook(0, None),)
    assert (state.seat, state.discard) == (1, cards("2 R"))


def test_a_raccoon_turned_up_from_the_row_searches_the_pile_too() -> None:
    """TM14, TM9: the raccoon under the 2 goes on the pile and offers the 5 below it, or nothing."""
    game = Stacked(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="5 G"), "2 R").play()
    assert (game.state.phase, game.discard) == (Phase.RACCOON, "5 G R")
    assert legal_actions(game.state) == (RaccoonTake(Card.FIVE), Decline())


def test_the_raccoon_may_take_a_number_whose_own_copy_lies_turned_down() -> None:
    """TM14, TM15: position 4 is face down (turned down), so the 4 qualifies; the known 4 comes up, a duplicate."""
    game = Stacked(make(["? ? ? (4) ? ?", "? ? ? ? ? ?"], discard="4 G"), "R").play("r 4")
    assert game.kinds() == ["Drew", "Discarded", "RaccoonTook", "TurnedUp", "Uncovered", "Discarded"]
    assert (game.row(0), game.discard, game.state.seat) == ("? ? ? 4 ? ?", "G R 4", 1)


@pytest.mark.parametrize(
    ("take", "why"),
    [
        (Card.TWO, "TM14: position 2 of your row is face up"),
        (Card.THREE, "TM14: position 3 of your row is face up"),
        (Card.SIX, "TM14: a 6 is too high"),
        (Card.FOUR, "TM14: there is no 4 in the discard pile below the raccoon"),
    ],
)
def test_the_raccoon_refuses_what_the_rules_refuse(take: Card, why: str) -> None:
    """TM14: a face-up position (a wild's too: the ruling), a number too high, a number not in the pile."""
    state = apply_all(make(["? 2 W ? ?", "? ? ? ? ? ?"], discard="1 2 3 6"), [Draw(), Reveal(Card.RACCOON)])
    with pytest.raises(IllegalActionError, match=why):
        apply(state, RaccoonTake(take))


# -- TM15 Do Not Disturb --------------------------------------------------------------------------------------


def test_do_not_disturb_turns_an_opponents_face_up_card_down_where_all_know_it() -> None:
    """TM15: any face-up card of an opponent (number or wild) goes face down in place; then the DND is discarded."""
    state = apply(make(["? ? ? ? ? ?", "1 ? W ? ? ?", "? 2 ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    assert (state.phase, state.hand) == (Phase.DISTURB, Card.DO_NOT_DISTURB)
    assert legal_actions(state) == (TurnDown(1, 1), TurnDown(1, 3), TurnDown(2, 2), Decline())
    state, events = apply_with_events(state, TurnDown(1, 3))
    assert events == (
        TurnedDown(0, 1, 3, Card.WILD),
        Discarded(0, Card.DO_NOT_DISTURB, Reason.PLAYED),
    )
    assert state.rows[1] == row("1 ? (W) ? ? ?")
    assert state.rows[1][2] == face_down(Card.WILD)
    assert (state.seat, state.discard) == (1, (Card.DO_NOT_DISTURB,))


def test_a_card_turned_down_comes_back_up_without_chance() -> None:
    """TM15, TM19: its owner places a number there and the known card comes into hand: no chance node."""
    state = make(["? ? ? ? ? ?", "? ? ? ? (5) ?"], seat=1)
    state, events = apply_with_events(state, Reveal(Card.FIVE))
    # The 5 goes up at 5; the known 5 comes into hand and is a duplicate (TM9).
    assert events == (
        Drew(1, Card.FIVE),
        TurnedUp(1, Card.FIVE, 5),
        Uncovered(1, Card.FIVE),
        Discarded(1, Card.FIVE, Reason.DUPLICATE),
    )
    assert not is_chance_node(state)


def test_do_not_disturb_with_no_face_up_card_to_turn_down_has_no_effect() -> None:
    """TM15, TM18: nobody shows a face-up card (the player's own do not count): discarded, turn over."""
    state = make(["1 ? ? ? ? ?", "? ? ? ? ? ?"])
    state, events = apply_with_events(state, Reveal(Card.DO_NOT_DISTURB))
    assert events == (Drew(0, Card.DO_NOT_DISTURB), Discarded(0, Card.DO_NOT_DISTURB, Reason.NO_TARGET))
    assert state.seat == 1


def test_do_not_disturb_declined_is_discarded() -> None:
    """TM15: using it is optional."""
    state = apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    state, events = apply_with_events(state, Decline())
    assert events == (Discarded(0, Card.DO_NOT_DISTURB, Reason.DECLINED),)
    assert state.rows[1] == row("1 ? ? ? ? ?")


def test_do_not_disturb_turned_up_from_the_row_asks_for_its_target() -> None:
    """TM15, TM9: the Do Not Disturb under the 2 is played at once: seat 1's 3, or nothing."""
    game = Stacked(make(["? ? ? ? ? ?", "? ? 3 ? ? ?"]), "2 D").play()
    assert (game.state.phase, game.state.hand, game.row(0)) == (Phase.DISTURB, Card.DO_NOT_DISTURB, "? 2 ? ? ? ?")
    assert legal_actions(game.state) == (TurnDown(1, 3), Decline())


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (TurnDown(0, 1), "TM15: the Do Not Disturb's effect goes to an opponent"),
        (TurnDown(1, 2), "TM15: seat 1's position 2 is face down already"),
        (TurnDown(1, 7), "TM15: seat 1's row has positions 1 to 6"),
        (TurnDown(4, 1), "TM2: there is no seat 4"),
    ],
)
def test_do_not_disturb_refuses_own_cards_face_down_cards_and_missing_ones(action: TurnDown, why: str) -> None:
    """TM15: one face-up card in an opponent's row."""
    state = apply(make(["1 ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    with pytest.raises(IllegalActionError, match=why):
        apply(state, action)


# -- TM16, TM17 Skip ------------------------------------------------------------------------------------------


def test_a_skip_given_skips_that_opponents_next_turn_and_then_is_discarded() -> None:
    """TM16: the Skip waits in front of the opponent; their next turn is passed over, the Skip discarded."""
    state = apply(new_game(3), Reveal(Card.SKIP))
    assert (state.phase, legal_actions(state)) == (Phase.SKIP, (GiveSkip(1), GiveSkip(2), Decline()))
    state, events = apply_with_events(state, GiveSkip(2))
    assert events == (SkipGiven(0, 2),)
    assert state.skips == (False, False, True)
    assert (state.seat, state.hand) == (1, None)  # giving it away ends the turn
    state, events = apply_with_events(state, Reveal(Card.GIRAFFE))
    # Seat 1 draws a giraffe, which ends its turn; seat 2's turn is skipped, and its Skip discarded.
    assert events == (Drew(1, Card.GIRAFFE), Discarded(1, Card.GIRAFFE, Reason.ENDS_TURN), Skipped(2))
    assert (state.seat, state.skips, state.discard) == (0, (False, False, False), cards("G S"))


def test_a_skip_waiting_takes_effect_at_once_when_the_turn_passes() -> None:
    """TM16: the opponent to the left is skipped as soon as the giver's turn ends; several in a row too."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], skips=(1,))
    state = apply(state, Reveal(Card.SKIP))
    state, events = apply_with_events(state, GiveSkip(2))
    assert events == (SkipGiven(0, 2), Skipped(1), Skipped(2))
    assert (state.seat, state.discard, state.skips) == (0, cards("S S"), (False, False, False))


def test_a_second_skip_for_the_same_seat_is_refused() -> None:
    """TM17: nobody may have more than one Skip waiting; the error names the seat and the clause."""
    state = apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], skips=(2,)), Reveal(Card.SKIP))
    assert legal_actions(state) == (GiveSkip(1), Decline())
    with pytest.raises(IllegalActionError) as caught:
        apply(state, GiveSkip(2))
    assert caught.value.reason == "TM17: seat 2 already has a Skip waiting"


def test_a_skip_with_every_opponent_waiting_already_has_no_effect() -> None:
    """TM16, TM17, TM18: nobody can take it, so it is discarded at once and the turn ends."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], skips=(1,))
    state, events = apply_with_events(state, Reveal(Card.SKIP))
    assert events == (Drew(0, Card.SKIP), Discarded(0, Card.SKIP, Reason.NO_TARGET), Skipped(1))
    assert state.seat == 0


def test_a_skip_turned_up_from_the_row_asks_for_its_opponent() -> None:
    """TM16, TM9: the Skip under the 2 is played at once: to seat 1, or to nobody."""
    game = Stacked(make(["? ? ? ? ? ?", "? ? ? ? ? ?"]), "2 S").play()
    assert (game.state.phase, game.state.hand) == (Phase.SKIP, Card.SKIP)
    assert legal_actions(game.state) == (GiveSkip(1), Decline())


def test_a_skip_declined_is_discarded_and_the_player_cannot_skip_themselves() -> None:
    """TM16 ruling: only opponents; declining discards it with no effect."""
    state = apply(new_game(2), Reveal(Card.SKIP))
    with pytest.raises(IllegalActionError, match="TM16: the Skip goes to an opponent"):
        apply(state, GiveSkip(0))
    state, events = apply_with_events(state, Decline())
    assert events == (Discarded(0, Card.SKIP, Reason.DECLINED),)
    assert (state.seat, state.skips) == (1, (False, False))


# -- TM18 -----------------------------------------------------------------------------------------------------


def test_no_decision_is_ever_asked_with_a_single_answer() -> None:
    """TM18: over every state of 40 seeded random games, a player deciding has two choices or more."""
    decisions = 0
    for seed in range(40):
        for state in random_game(seed, 2 + seed % 5):
            if not is_chance_node(state) and not is_terminal(state):
                assert len(legal_actions(state)) >= 2, state
                decisions += 1
    assert decisions > 1000


def test_a_wild_placed_on_a_turned_down_wild_tells_all_that_follows_from_it() -> None:
    """TM11, TM15, TM18, TM21: one action, every step an event, to the round won.

    The wild uncovered goes on the last face-down position by itself, and the row complete wins the round.
    """
    state = make(["1 2 (W) 4 5 ?", "? ? ? ? ? ?"], phase=Phase.WILD, hand=Card.WILD, discard="G")
    after, events = apply_with_events(state, PlaceWild(3))
    assert events == (
        WildPlaced(0, 3),
        Uncovered(0, Card.WILD),
        WildPlaced(0, 6),
        RoundWon(0, 1),
        RoundStarted(2, 1, (5, 6)),
    )
    assert after == apply(state, PlaceWild(3))
    assert after.round == 2


def test_declining_the_raccoon_ends_the_turn_and_the_next_seat_loses_its_turn_to_its_skip() -> None:
    """TM14, TM16: the raccoon takes nothing, the turn passes, and a Skip waiting costs the next seat its turn."""
    state = make(["? ? ? ? ? ?"] * 3, phase=Phase.RACCOON, discard="3 R", skips=(1,))
    after, events = apply_with_events(state, Decline())
    assert events == (RaccoonTook(0, None), Skipped(1))
    assert (after.seat, after.skips, after.discard) == (2, (False, False, False), (Card.THREE, Card.RACCOON, Card.SKIP))


def test_a_wild_placed_on_a_turned_down_card_after_a_reshuffle_keeps_the_draw_pile() -> None:
    """TM11, TM15, TM20: uncovering a known card draws nothing, so the reshuffled draw pile stays as it was."""
    # The tiny deck (1 1 2 2 3 W G G G): the wild in hand, a 1 turned down, a reshuffled pile of one giraffe.
    state = make(["(1) ?", "? ?"], ruleset=TINY, phase=Phase.WILD, hand=Card.WILD, discard="2 G G", pile="G")
    after = apply(state, PlaceWild(1))
    assert (after.phase, after.hand, after.pile, after.pile_size) == (Phase.BONUS, Card.ONE, state.pile, 1)
    check_state(after)


def test_the_last_card_of_a_one_card_row_turned_up_after_a_reshuffle_ends_the_game_as_it_stands() -> None:
    """TM15, TM20, TM21, TM23: the 1 drawn from a reshuffled pile uncovers the turned-down wild and wins.

    The final state is the one before with only what the draw changed: the pile one card smaller, the row
    face up, the wild picked up in hand, and nothing else.
    """
    state = make(["(W)", "? ?"], ruleset=TINY, discard="1 2 G G G", pile="1")
    assert state.phase is Phase.DRAW
    after, events = apply_with_events(state, Reveal(Card.ONE))
    assert events == (Drew(0, Card.ONE), TurnedUp(0, Card.ONE, 1), Uncovered(0, Card.WILD), GameWon(0))
    expected = trusted_state(
        state.ruleset,
        state.round,
        state.round_first,
        0,
        Phase.OVER,
        ((Card.ONE,), state.rows[1]),
        Card.WILD,
        state.discard,
        0,
        (0,) * 12,
        state.unseen,
        state.skips,
    )
    assert after == expected


def test_a_wild_drawn_to_a_one_card_row_turned_down_goes_there_by_itself_and_the_card_uncovered_is_kept() -> None:
    """TM11, TM15, TM18, TM21, TM23: the wild placed by the engine wins the game with the 1 it uncovers in hand.

    The one-card row has one face-down position, so the engine places the wild there; the row is complete.
    """
    state = make(["(1)", "? ?"], ruleset=TINY, discard="G")
    assert state.phase is Phase.DRAW
    after, events = apply_with_events(state, Reveal(Card.WILD))
    assert events == (Drew(0, Card.WILD), WildPlaced(0, 1), Uncovered(0, Card.ONE), GameWon(0))
    assert (after.phase, after.rows[0], after.hand) == (Phase.OVER, (Card.WILD,), Card.ONE)
    check_state(after)
