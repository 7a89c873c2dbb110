"""What a game declares of its secrets and stakes: the defaults every game without secrets or payoffs gets."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cheekymonkey.base import Played
from cheekymonkey.errors import InvalidValueError, NotOfferedError
from cheekymonkey.games import game_named
from cheekymonkey.outcome import Stakes, Utility
from tests.minimal_game import RACE, Race, Roll


def _finished(name: str, seed: int) -> tuple[Any, Any]:
    game = game_named(name)
    rng = random.Random(seed)
    state = game.new_game(game.default_seats())
    while not game.is_terminal(state):
        if game.is_chance_node(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    return game, state


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_a_game_without_payoffs_pays_its_outcome_and_declares_the_outcome_scale(name: str) -> None:
    """returns() defaults to the outcome's returns, inside the declared default stakes: constant-sum, 0..1, total 1."""
    game, state = _finished(name, 7)
    stakes = game.stakes(game.players(state))
    assert stakes == Stakes(Utility.CONSTANT_SUM, 0.0, 1.0, 1.0)
    returns = game.returns(state)
    assert returns == game.outcome(state).returns
    assert all(stakes.low <= value <= stakes.high for value in returns)
    assert sum(returns) == pytest.approx(stakes.total)


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_a_game_without_private_information_shows_every_seat_the_state_and_every_event(name: str) -> None:
    """Built-in games hide only chance's future: the information state is the state, resampling keeps it."""
    game = game_named(name)
    assert game.private_information is False
    assert game.default_seats() == 3
    state = game.new_game(3)
    rng = random.Random(1)
    state, events = game.apply_with_events(state, game.sample_chance(state, rng))
    for seat in range(3):
        assert game.information_state(state, seat) == state
        assert game.resample(state, seat, rng) is state
    assert events
    for event in events:
        assert game.event_for(event, 0) is event
        assert game.event_for(event, None) is event


def test_a_game_that_declares_private_information_must_say_what_each_seat_knows() -> None:
    """With private_information set and no overrides, the three members refuse, naming the game."""

    class Secretive(Race):
        private_information = True

    game = Secretive()
    state = game.new_game(2)
    with pytest.raises(NotOfferedError, match="information state"):
        game.information_state(state, 0)
    with pytest.raises(NotOfferedError, match="resampling"):
        game.resample(state, 0, random.Random(0))
    with pytest.raises(NotOfferedError, match="event"):
        game.event_for(Played(None, Roll(1), "1"), None)


def test_default_seats_is_three_or_the_nearest_count_the_rules_allow() -> None:
    """A game for 2 seats at most starts with 2 by default."""
    low, high = RACE.seat_range()
    assert RACE.default_seats() == max(low, min(high, 3))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((Utility.ZERO_SUM, 1.0, -1.0, 0.0), "low <= high"),
        ((Utility.GENERAL_SUM, -1.0, 1.0, 0.0), "total exactly"),
        ((Utility.CONSTANT_SUM, -1.0, 1.0, None), "total exactly"),
        ((Utility.ZERO_SUM, -1.0, 1.0, 2.0), "add up to 0"),
        (("zero-sum", -1.0, 1.0, 0.0), "Utility"),
    ],
)
def test_impossible_stakes_are_refused(args: tuple[object, ...], message: str) -> None:
    """Stakes check themselves: bounds in order, a total exactly for games that are not general-sum."""
    with pytest.raises(InvalidValueError, match=message):
        Stakes(*args)  # type: ignore[arg-type]
