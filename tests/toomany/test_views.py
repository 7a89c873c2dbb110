"""Views: every seat sees the same table (TM19), as a type of its own that holds no unseen card's identity."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.outcome import Outcome
from cheekymonkey.toomany import (
    CARDS,
    Card,
    GameState,
    PlaceWild,
    Reshuffled,
    Reveal,
    RoundStarted,
    Ruleset,
    TableView,
    apply_all,
    apply_with_events,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    outcome,
    view,
)
from tests.toomany.helpers import random_game
from tests.toomany.test_lazy_deal import Table, follow, policy


def test_every_seat_sees_the_same_table_and_only_the_mover_sees_actions() -> None:
    """TM19: over two seeded games, all views of a state differ in the viewer and the legal actions only."""
    for seed, players in ((1, 2), (2, 5)):
        for state in random_game(seed, players):
            views = [view(state, seat) for seat in (*range(players), None)]
            public = {attrs.evolve(table, viewer=None, legal=()) for table in views}
            assert len(public) == 1
            for table in views:
                mine = table.viewer == state.seat and not is_chance_node(state) and not is_terminal(state)
                assert table.legal == (legal_actions(state) if mine else ())
                assert table.my_turn == mine
                assert table.state() == state
            if is_terminal(state):
                assert views[0].outcome == outcome(state)


def _play_dealt(order: tuple[Card, ...], steps: int) -> tuple[GameState, tuple[Card, ...]]:
    """Play ``steps`` actions of a 2-seat game dealt from ``order``, chance answered by the physical cards."""
    state = new_game(2)
    table = Table.dealt(order, state.row_sizes)
    revealed: list[Card] = []
    for _ in range(steps):
        if is_chance_node(state):
            card = table.chance_card(state)
            revealed.append(card)
            state, events = apply_with_events(state, Reveal(card))
        else:
            state, events = apply_with_events(state, policy(state))
        assert not any(isinstance(event, RoundStarted | Reshuffled) for event in events)  # no shuffle in the way
        ((table, _),) = follow(table, events, (), set())
    return state, tuple(revealed)


def test_twin_deals_that_differ_only_in_unseen_cards_give_equal_states_and_views() -> None:
    """TM19: two shuffles differing in cards nobody has turned up give the same table, and the same views.

    A card still face down and unseen after 25 actions is swapped with the bottom card of the draw pile (a
    card of another kind); played again, the twin deal reveals the same cards, and every view is the same.
    """
    order = [card for card in CARDS for _ in range(Ruleset.standard().count(card))]
    random.Random(8).shuffle(order)
    first, seen_first = _play_dealt(tuple(order), 25)
    bottom = 12  # seat 0's row is order[0:6], seat 1's order[6:12]; the pile's bottom card is order[12]
    hidden = [
        seat * 6 + index
        for seat in (0, 1)
        for index in range(6)
        if first.rows[seat][index] is None and order[seat * 6 + index] is not order[bottom]
    ]
    twin = list(order)
    twin[hidden[0]], twin[bottom] = twin[bottom], twin[hidden[0]]
    second, seen_second = _play_dealt(tuple(twin), 25)
    assert twin != order
    assert seen_first == seen_second
    assert first == second
    for seat in (0, 1, None):
        assert view(first, seat) == view(second, seat)


def test_a_view_holds_no_state_and_no_unseen_identity() -> None:
    """The view is its own type: no field is a GameState, and a card nobody has seen is None in its row."""
    state = apply_all(new_game(3), [Reveal(Card.WILD), PlaceWild(2)])
    table = view(state, 0)
    assert not isinstance(table, GameState)
    assert not any(isinstance(value, GameState) for value in attrs.astuple(table, recurse=False))
    assert table.rows[0] == (None, Card.WILD, None, None, None, None)
    assert table.unseen == state.unseen
    assert str(table) == str(state)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"legal": ()}, "not the viewer's legal actions"),
        ({"viewer": 1}, "not the viewer's legal actions"),
        ({"viewer": 3}, "viewer 3 is not one of the 3 seats"),
        ({"pile_size": 0}, "never seen"),
        ({"hand": Card.SKIP}, "in phase WILD the hand holds Card.WILD, not Card.SKIP"),
        ({"outcome": Outcome((0,), (1, 2, 2), (1.0, 0.0, 0.0))}, "is not the game's"),
    ],
)
def test_the_views_checking_constructor_refuses_a_view_of_no_reachable_state(
    changes: dict[str, Any], message: str
) -> None:
    """A view built directly must be the view of a state play can reach; InvalidValueError says why."""
    state = apply_all(new_game(3), [Reveal(Card.WILD)])
    fields = attrs.asdict(view(state, 0), recurse=False)
    assert TableView(**fields) == view(state, 0)
    fields.update(changes)
    with pytest.raises(InvalidValueError, match=message):
        TableView(**fields)


def test_a_seat_that_is_not_in_the_game_has_no_view() -> None:
    """View refuses a seat the game does not have."""
    with pytest.raises(InvalidValueError, match="seat 2 is not one of the 2 seats"):
        view(new_game(2), 2)
