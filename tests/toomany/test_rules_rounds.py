"""Rounds and the end.

Winning a round (TM21), the next round (TM22, TM5), winning the game (TM23), and the outcome's ranking.
"""

from __future__ import annotations

import pytest

from cheekymonkey.errors import GameNotOverError
from cheekymonkey.outcome import Outcome
from cheekymonkey.toomany import (
    Card,
    Discarded,
    Drew,
    GameWon,
    Phase,
    RaccoonTake,
    Reason,
    Reshuffled,
    Reveal,
    RoundStarted,
    RoundWon,
    TurnedUp,
    Uncovered,
    WildPlaced,
    apply,
    apply_all,
    apply_with_events,
    is_terminal,
    legal_actions,
    new_game,
    outcome,
    winner,
)
from tests.toomany.helpers import STANDARD, TINY, Stacked, make, row


def test_a_round_is_won_the_moment_the_row_is_face_up_and_the_card_picked_up_is_not_played() -> None:
    """TM21: the 6 completes the row; the card it uncovers is never revealed; TM22: the next round is dealt."""
    state = make(["1 2 3 4 5 ?", "? ? ? ? ? ?", "? ? ? ? ? ?"], skips=(2,))
    state, events = apply_with_events(state, Reveal(Card.SIX))
    assert events[1:] == (TurnedUp(0, Card.SIX, 6), RoundWon(0, 1), RoundStarted(2, 1, (5, 6, 6)))
    # A fresh deal: every card shuffled together (TM22), the winner one card shorter, Skips cancelled.
    assert state.round == 2
    assert state.rows == (row("? ? ? ? ?"), row("? ? ? ? ? ?"), row("? ? ? ? ? ?"))
    assert (state.discard, state.pile, state.pile_size, state.unseen) == ((), None, 55 - 17, STANDARD.counts)
    assert state.skips == (False, False, False)
    # TM5: the next round begins with the seat to the left of this round's first, whoever won.
    assert (state.round_first, state.seat, state.phase) == (1, 1, Phase.DRAW)


def test_a_round_won_with_a_known_card_in_hand() -> None:
    """TM21: the known card picked up with the last placement is in hand, and is not played."""
    state = make(["1 2 3 4 5 (6)", "? ? ? ? ? ?"], discard="6", phase=Phase.CHOSEN_DRAW)
    state, events = apply_with_events(state, Reveal(Card.SIX))
    assert events[1:4] == (TurnedUp(0, Card.SIX, 6), Uncovered(0, Card.SIX), RoundWon(0, 1))
    assert state.round == 2


def test_the_next_rounds_shorter_row_needs_one_to_n_only() -> None:
    """TM22: the winner has 5 cards and needs 1 to 5; a 6 is too high for them, not for the others."""
    state = apply(make(["1 2 3 4 5 ?", "? ? ? ? ? ?"]), Reveal(Card.SIX))
    assert state.row_sizes == (5, 6)
    state = apply_all(state, [Reveal(Card.SIX), Reveal(Card.GIRAFFE)])  # seat 1 begins round 2
    assert state.rows[1] == row("? ? ? ? ? 6")
    state, events = apply_with_events(state, Reveal(Card.SIX))
    assert events == (Drew(0, Card.SIX), Discarded(0, Card.SIX, Reason.TOO_HIGH))
    assert state.rows[0] == row("? ? ? ? ?")


def test_rounds_rotate_from_the_named_first_seat() -> None:
    """TM5: the first round begins with the named seat; each later round with the next seat to the left."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?", "1 2 3 4 5 ?"], seat=2, round_first=2)
    state = apply(state, Reveal(Card.SIX))
    assert (state.round, state.round_first, state.seat) == (2, 0, 0)


@pytest.mark.parametrize("card", [Card.ONE, Card.WILD])
def test_a_one_card_row_turned_up_wins_the_game_with_a_1_or_a_wild(card: Card) -> None:
    """TM23 ruling: completing a one-card row by any legal means wins the game: a 1, or a wild (TM11, TM18)."""
    state = make(["?", "? ? ?", "? ? ? ?"], seat=0)
    state, events = apply_with_events(state, Reveal(card))
    placed = TurnedUp(0, Card.ONE, 1) if card is Card.ONE else WildPlaced(0, 1)
    assert events[1:] == (placed, GameWon(0))
    assert is_terminal(state)
    assert (state.phase, winner(state), legal_actions(state)) == (Phase.OVER, 0, ())
    assert state.rows[0] == (card,)


def test_the_raccoon_can_win_the_game() -> None:
    """TM23: by any legal means: the raccoon takes the 1 its one-card row needs."""
    state = apply_all(make(["?", "? ?"], discard="1 G"), [Reveal(Card.RACCOON)])
    state, events = apply_with_events(state, RaccoonTake(1))
    assert events[-1] == GameWon(0)
    assert state.hand is None  # the card picked up was never seen, and never will be


def test_the_outcome_ranks_the_others_by_row_size_smaller_better_ties_shared() -> None:
    """Outcome ruling: exactly one winner; the others by current row size, tied where equal; returns 1 and 0."""
    state = apply(make(["? ? ?", "?", "? ?", "? ? ?"], seat=1), Reveal(Card.ONE))
    assert outcome(state) == Outcome(winners=(1,), ranks=(3, 1, 2, 3), returns=(0.0, 1.0, 0.0, 0.0))


def test_the_outcome_is_refused_before_the_end() -> None:
    """TM23: a game not over has no outcome."""
    with pytest.raises(GameNotOverError):
        outcome(new_game(2))
    assert winner(new_game(2)) is None


# -- whole games on a stacked deck -------------------------------------------------------------------------


def test_a_whole_game_with_a_reshuffle_a_round_won_with_a_card_in_hand_and_the_game_won_with_a_wild() -> None:
    """TM20, TM21, TM22, TM23: the tiny deck, 2 seats, rows of 2, every card chance reveals chosen.

    Round 1: three giraffes and a 3 (too high) are discarded; seat 0 takes nothing from the pile's top 3,
    draws a 2 and turns up the other 2 (a duplicate); the draw pile is empty, so seat 1's draw reshuffles the
    discard pile; seat 1 draws the 2, turns up the wild, which goes on position 1 by itself and completes the
    row: the card it picked up is never played. Round 2: seat 1, one card, draws the other wild and wins.
    """
    game = Stacked(new_game(2, ruleset=TINY), "G G G 3 2 2 2 W W").play("d, d")
    assert game.kinds() == [
        *["Drew", "Discarded"] * 4,
        *["Drew", "TurnedUp", "Uncovered", "Discarded"],  # seat 0: the 2, then a duplicate 2
        *["Reshuffled", "Drew", "TurnedUp", "Uncovered", "WildPlaced", "RoundWon", "RoundStarted"],
        *["Drew", "WildPlaced", "GameWon"],
    ]
    reshuffled = next(event for event in game.events if isinstance(event, Reshuffled))
    assert reshuffled.cards == 5
    won = [event for event in game.events if isinstance(event, RoundWon | GameWon)]
    assert won == [RoundWon(1, 1), GameWon(1)]
    assert (game.state.rows, game.state.hand) == (((None, None), (Card.WILD,)), None)
    assert outcome(game.state).ranks == (2, 1)


def test_a_whole_game_won_with_a_1() -> None:
    """TM21, TM22, TM23: seat 0 turns up 1 and 2 in its first turn; in round 2 its one card is completed by a 1."""
    game = Stacked(new_game(2, ruleset=TINY), "1 2 G 1").play()
    assert game.kinds() == [
        *["Drew", "TurnedUp", "Uncovered", "TurnedUp", "RoundWon", "RoundStarted"],
        *["Drew", "Discarded"],  # round 2 begins with seat 1 (TM5): a giraffe
        *["Drew", "TurnedUp", "GameWon"],
    ]
    assert (game.state.rows, winner(game.state)) == (((Card.ONE,), (None, None)), 0)
