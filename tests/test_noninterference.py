"""Noninterference over every registered game, and the check catching games that leak a seat's secret."""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import Any

import pytest

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.testing import NoninterferenceError, check_noninterference
from cheekymonkey.testing.noninterference import FAMILIES
from cheekymonkey.text_table import Cell, Column, TextTable
from tests.secret_games import CARDS, GUESS, GuessGame, GuessState, LeakyEventsGame, LeakyViewGame


def _has_batched_engine(name: str) -> bool:
    return name in {entry.name for entry in entry_points(group="cheekymonkey.batched")}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_no_route_facing_a_seat_tells_apart_states_it_cannot(name: str) -> None:
    """Every registered game: the built-in ones (nothing private: it holds trivially) and any plug-in installed.

    A game with private information plays 40 random games at its usual seats; one without, one short game
    (its resample is the state itself, so every route compares a state with itself). Every optional front
    end is installed here, so every family of routes is compared that the game can take: those of the
    learning environments wherever it has encodings, the vector environment's wherever it has a batched engine.
    """
    game = game_named(name)
    if game.private_information:
        report = check_noninterference(game, seed=11, games=40)
        assert report.bots == game.bot_names()
        assert report.events > report.games
    else:
        report = check_noninterference(game, seed=11, games=1, max_steps=40)
        assert report.bots == ()
    assert report.games >= 1
    assert report.pairs == report.states * report.seats * 2
    assert report.openspiel == bool(game.observation_kinds())
    left_out = {}
    if not game.observation_kinds():
        left_out = dict.fromkeys(FAMILIES[:4], "the game offers no encodings for learning")
    elif not _has_batched_engine(name):
        left_out = {"gymnasium vector": "the game has no batched engine"}
    assert dict(report.unchecked) == left_out
    assert report.checked == tuple(family for family in FAMILIES if family not in left_out)
    assert (report.vector_states > 0) == ("gymnasium vector" in report.checked)


def test_a_game_with_a_secret_written_right_passes() -> None:
    report = check_noninterference(GUESS, seed=3, games=30)
    assert (report.games, report.seats, report.openspiel) == (30, 2, False)
    assert report.states == 30 * 4  # the first state, two deals and the guess
    assert report.pairs == report.states * 2 * 2
    assert report.events > 30


def test_a_view_that_is_the_whole_state_fails_naming_the_route_and_seat() -> None:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(LeakyViewGame(), seed=3, games=30)
    assert failure.value.route == "view"
    assert failure.value.seat == 1  # seat 0's card, dealt first, is the first secret: seat 1 must not see it
    assert failure.value.game == "guess-leaky-view"
    assert len(failure.value.history) == 1
    assert "seat 1 can tell apart" in str(failure.value)
    assert "'view'" in str(failure.value)


def test_events_shown_to_every_seat_fail_on_the_events_route() -> None:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(LeakyEventsGame(), seed=3, games=30)
    assert failure.value.route == "events"
    assert failure.value.seat == 1
    assert len(failure.value.history) == 1  # the deal of seat 0's card, which seat 1 must not see
    assert failure.value.history[0].endswith("to seat 0")


class _RedrawsOwnCard(GuessGame):
    """A resample that deals the seat a new card of its own: no longer a state the seat cannot tell apart."""

    name = "guess-redraws"

    def resample(self, state: GuessState, seat: int, rng: random.Random) -> GuessState:
        if state.cards[seat] is None:
            return state
        left = [card for card in CARDS if card not in state.cards]
        cards = list(state.cards)
        cards[seat] = left[0] if left else cards[seat]
        return GuessState((cards[0], cards[1]), state.guess)


class _BoardShowsCards(GuessGame):
    """The view is right, but the board is drawn from the state."""

    name = "guess-leaky-board"

    def board_table(self, state: GuessState, names: Sequence[str], viewer: int | None = None) -> TextTable:
        return TextTable((Column(Cell("cards")),), ((Cell(repr(state.cards)),),))


def test_a_resample_that_changes_what_the_seat_knows_fails_on_the_information_state() -> None:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(_RedrawsOwnCard(), seed=3, games=10)
    assert failure.value.route == "information state"
    assert failure.value.seat == 0


def test_a_board_drawn_from_the_state_fails_on_the_board() -> None:
    with pytest.raises(NoninterferenceError) as failure:
        check_noninterference(_BoardShowsCards(), seed=3, games=10)
    assert failure.value.route == "board"
    assert failure.value.seat == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seed": "1"}, "seed must be an integer"),
        ({"seed": 1, "games": 0}, "games must be an integer of at least 1"),
        ({"seed": 1, "draws": True}, "draws must be"),
        ({"seed": 1, "max_steps": 2.5}, "max_steps must be"),
    ],
)
def test_bad_arguments_are_refused_with_a_typed_error(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        check_noninterference(GUESS, **arguments)
