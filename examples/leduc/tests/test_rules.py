"""Leduc poker's rules, secrets and stakes, clause by clause."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from cheekymonkey.errors import GameNotOverError, IllegalActionError, InvalidGameError, NotAChanceNodeError
from cheekymonkey.outcome import Stakes, Utility
from cheekymonkey.table import Seat, Table
from cheekymonkey.testing import NoninterferenceError, check_noninterference

from cheekymonkey_leduc import CALL, FOLD, LEDUC, RAISE, Action, Deal, Dealt, LeducState, Paid, Placed, Rules, Showdown
from cheekymonkey_leduc.game import Leduc


def _play(*actions: Action, players: int = 2) -> LeducState:
    state = LEDUC.new_game(players)
    for action in actions:
        state = LEDUC.apply(state, action)
    return state


def test_the_deck_and_the_deal() -> None:
    """L1, L3: two suits of players + 1 ranks; seat 0's card first, each card left as likely."""
    state = LEDUC.new_game(3)
    assert [card for card, _ in LEDUC.chance_outcomes(state)] == [Deal(card) for card in range(8)]
    state = LEDUC.apply(state, Deal(7))
    assert state.cards == (7, None, None)
    assert {p for _, p in LEDUC.chance_outcomes(state)} == {Fraction(1, 7)}
    assert Deal(7) not in LEDUC.legal_actions(state)
    with pytest.raises(IllegalActionError, match="L3"):
        LEDUC.apply(state, Deal(7))
    with pytest.raises(IllegalActionError, match="L3"):
        LEDUC.apply(state, CALL)


def test_betting_raises_and_their_cap() -> None:
    """L4, L5: no fold without a bet; raises of 2 then 4; at most two a round; a call ends the round."""
    state = _play(Deal(5), Deal(0))
    assert LEDUC.legal_actions(state) == (CALL, RAISE)
    with pytest.raises(IllegalActionError, match="L5"):
        LEDUC.apply(state, FOLD)
    state = _play(Deal(5), Deal(0), RAISE, RAISE)
    assert state.chips == (3, 5)
    assert LEDUC.legal_actions(state) == (FOLD, CALL)
    with pytest.raises(IllegalActionError, match="L4") as refused:
        LEDUC.apply(state, RAISE)
    assert refused.value.state is state
    state = LEDUC.apply(state, CALL)
    assert LEDUC.is_chance_node(state)
    assert state.round == 2
    state = LEDUC.apply(LEDUC.apply(state, Deal(2)), RAISE)
    assert state.chips == (9, 5)


def test_a_fold_ends_the_hand_with_no_card_shown() -> None:
    """L7: the last seat in takes the pot; nothing is turned up, the folded card stays hidden."""
    state, events = LEDUC.apply_with_events(_play(Deal(0), Deal(5), RAISE), FOLD)
    assert LEDUC.is_terminal(state)
    assert LEDUC.returns(state) == (1.0, -1.0)
    assert events == (Placed(1, FOLD, 0), Paid((1.0, -1.0)))
    assert LEDUC.view(state, 0).hands == ("Js", "?")
    assert LEDUC.view(state, None).hands == ("?", "?")
    assert LEDUC.outcome(state).winners == (0,)


def test_a_showdown_shows_the_hands_still_in_and_a_pair_wins() -> None:
    """L8: Js pairs the public Jh and beats Kh; three seats, the folded hand stays face down."""
    state = _play(Deal(0), Deal(5), Deal(4), CALL, RAISE, FOLD, CALL, Deal(1), CALL, CALL, players=3)
    assert LEDUC.is_terminal(state)
    assert LEDUC.returns(state) == (4.0, -3.0, -1.0)
    assert LEDUC.view(state, None).hands == ("Js", "Kh", "?")
    assert LEDUC.view(state, 2).hands == ("Js", "Kh", "Ks")
    assert sum(LEDUC.returns(state)) == 0


def test_equal_hands_share_the_pot() -> None:
    state = _play(Deal(4), Deal(5), CALL, CALL, Deal(0), CALL, CALL)
    assert LEDUC.returns(state) == (0.0, 0.0)
    assert LEDUC.outcome(state).winners == (0, 1)


def test_the_end_and_chance_refuse() -> None:
    with pytest.raises(GameNotOverError):
        LEDUC.returns(LEDUC.new_game(2))
    with pytest.raises(NotAChanceNodeError):
        LEDUC.chance_outcomes(_play(Deal(0), Deal(1)))
    with pytest.raises(IllegalActionError, match="L7"):
        LEDUC.apply(_play(Deal(0), Deal(1), RAISE, FOLD), CALL)
    with pytest.raises(InvalidGameError, match="L1"):
        LEDUC.new_game(11)


def test_the_stakes_bound_every_return() -> None:
    assert LEDUC.stakes(2) == Stakes(Utility.ZERO_SUM, -13.0, 13.0, 0.0)
    assert LEDUC.stakes(3, Rules(ante=2)) == Stakes(Utility.ZERO_SUM, -14.0, 28.0, 0.0)
    rng = random.Random(5)
    for players in (2, 3, 4):
        stakes = LEDUC.stakes(players)
        for _ in range(300):
            state = LEDUC.new_game(players)
            while not LEDUC.is_terminal(state):
                state = LEDUC.apply(state, rng.choice(LEDUC.legal_actions(state)))
            returns = LEDUC.returns(state)
            assert all(stakes.low <= value <= stakes.high for value in returns)
            assert sum(returns) == pytest.approx(0.0)


def test_a_deal_shows_its_card_to_its_seat_only() -> None:
    _, (dealt,) = LEDUC.apply_with_events(LEDUC.new_game(2), Deal(5))
    assert dealt == Dealt(0, 5)
    assert LEDUC.event_for(dealt, 0) == dealt
    assert LEDUC.event_for(dealt, 1) == Dealt(0, None)
    assert LEDUC.event_for(dealt, None) == Dealt(0, None)
    names = ["Ann", "Bob"]
    assert LEDUC.event_text(dealt, names, 0) == "You: dealt Kh"
    assert LEDUC.event_text(dealt, names, 1) == "Ann: dealt a card face down"
    public = LEDUC.apply_with_events(_play(Deal(5), Deal(0), CALL, CALL), Deal(3))[1]
    assert public == (Dealt(None, 3),)
    assert LEDUC.event_for(public[0], 1) == public[0]
    shown = LEDUC.apply_with_events(_play(Deal(5), Deal(0), CALL, CALL, Deal(3), CALL), CALL)[1]
    assert shown == (Placed(1, CALL, 0), Showdown((5, 0)), Paid((1.0, -1.0)))


def test_a_table_hands_its_bots_a_resampled_state_and_its_viewers_their_own_events() -> None:
    table = Table(LEDUC, [Seat.bot(LEDUC, "heuristic"), Seat.person("Bob")], seed=9)
    table.advance()
    assert table.to_move == 1
    own = [event for event in table.events_for(1) if isinstance(event, Dealt)]
    assert own == [Dealt(0, None), Dealt(1, table.state.cards[1])]
    assert [event for event in table.events_for(None) if isinstance(event, Dealt)] == [Dealt(0, None), Dealt(1, None)]


def test_noninterference_at_two_and_three_seats() -> None:
    for players, games in ((2, 150), (3, 60)):
        report = check_noninterference(LEDUC, seed=players, games=games, players=players)
        assert report.openspiel
        assert report.bots == ("random", "heuristic")
        assert report.states > 5 * games


class _ShowsEveryHand(Leduc):
    """A view that shows every card: what the check must catch."""

    def view(self, state: LeducState, seat: int | None) -> object:  # type: ignore[override]
        return state.cards


def test_a_view_showing_every_hand_is_caught() -> None:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(_ShowsEveryHand(), seed=1, games=5, openspiel=False)
    assert failure.value.route == "view"
    assert failure.value.seat == 1
