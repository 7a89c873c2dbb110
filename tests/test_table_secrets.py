"""The Table and the library's drivers use a game's secrets: bots see their seat's information, events per viewer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cheekymonkey import CHEEKY_MONKEY
from cheekymonkey.base import Played
from cheekymonkey.games import game_named
from cheekymonkey.play import play_game
from cheekymonkey.simulation import simulate
from cheekymonkey.table import Seat, Table, bot_state, events_seen
from tests.secret_games import GUESS, Deal, Guess, GuessState, PeekingBot


def test_a_bot_of_a_game_with_secrets_is_handed_a_resampled_state_never_the_true_one() -> None:
    """A bot that reads seat 1's card from its state guesses right one time in two, not every time."""
    right = 0
    handed_other = 0
    for seed in range(300):
        bot = PeekingBot()
        table = Table(GUESS, [Seat.of(bot), Seat.person("Bob")], seed=seed)
        table.advance()
        assert table.over
        truth = table.history[-2]  # the state the bot chose in
        (handed,) = bot.handed
        assert GUESS.information_state(handed, 0) == GUESS.information_state(truth, 0)
        handed_other += handed.cards[1] != truth.cards[1]
        right += table.outcome() is not None and GUESS.returns(table.state) == (1.0, -1.0)
    # Seat 1's card is one of the two seat 0 does not hold; the resample draws it evenly: 150 of 300 expected.
    assert 110 < right < 190
    assert right + handed_other == 300
    # Handed the true state, it is right every time: the difference is the table's doing.
    truth_bot = PeekingBot()
    state = GUESS.apply(GUESS.apply(GUESS.new_game(2), Deal(0, 2)), Deal(1, 0))
    assert truth_bot.choose(state, random.Random(0)) == Guess(0)


def test_the_resample_is_drawn_from_the_tables_seeded_bot_stream() -> None:
    def handed(seed: int) -> list[GuessState]:
        bot = PeekingBot()
        Table(GUESS, [Seat.of(bot), Seat.person("Bob")], seed=seed).advance()
        return bot.handed

    assert [handed(seed) for seed in range(20)] == [handed(seed) for seed in range(20)]
    assert len({handed(seed)[0].cards[1] for seed in range(20)}) > 1


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_a_game_without_secrets_hands_its_bots_the_true_state_and_draws_nothing_more(name: str) -> None:
    game = game_named(name)
    seen: list[tuple[Any, Any]] = []

    class Recording:
        kind = "recording"

        def __init__(self) -> None:
            self.inner = game.bot_named("random")

        def choose(self, state: Any, rng: random.Random) -> Any:
            seen.append((state, table.state))
            return self.inner.choose(state, rng)

    table = Table(game, [Seat.of(Recording()), Seat.of(Recording())], seed=5)
    table.advance()
    assert seen
    assert all(handed is truth for handed, truth in seen)
    rng = random.Random(3)
    state = game.new_game(2)
    assert bot_state(game, state, 0, rng) is state
    assert rng.random() == random.Random(3).random()  # no number drawn
    # The same seeded games as a plain random bot would play: the record is the same.
    plain = Table(game, [Seat.bot(game, "random"), Seat.bot(game, "random")], seed=5)
    plain.advance()
    assert plain.actions == table.actions


def test_events_per_viewer_mask_a_deal_to_everybody_but_its_seat() -> None:
    table = Table(GUESS, [Seat.person("Ann"), Seat.person("Bob")], seed=1)
    table.advance()
    assert len(table.events) == 2
    first, second = table.events
    assert isinstance(first, Played)
    assert isinstance(second, Played)
    assert table.events_for(0) == (first, Played(None, Deal(1, None), "a card to seat 1"))
    assert table.events_for(1) == (Played(None, Deal(0, None), "a card to seat 0"), second)
    assert table.events_for(None) == (
        Played(None, Deal(0, None), "a card to seat 0"),
        Played(None, Deal(1, None), "a card to seat 1"),
    )
    assert table.events_for(1, since=1) == (second,)
    assert all(event.action.card is not None for event in table.events)  # the table keeps what happened


def test_events_of_a_game_without_secrets_are_the_same_for_every_viewer() -> None:
    table = Table(CHEEKY_MONKEY, [Seat.bot(CHEEKY_MONKEY, "random"), Seat.bot(CHEEKY_MONKEY, "random")], seed=2)
    table.advance()
    for viewer in (None, 0, 1):
        assert table.events_for(viewer) == table.events
    assert events_seen(CHEEKY_MONKEY, table.events[:3], 0) == table.events[:3]


def test_play_game_plays_a_game_with_secrets_through_the_table() -> None:
    bot = PeekingBot()
    played = play_game([bot, GUESS.bot_named("random")], game=GUESS, seed=4)
    assert GUESS.is_terminal(played.state)
    (handed,) = bot.handed
    truth = GUESS.apply(GUESS.new_game(2), played.record.actions[0])
    truth = GUESS.apply(truth, played.record.actions[1])
    assert GUESS.information_state(handed, 0) == GUESS.information_state(truth, 0)


def test_the_simulation_reports_mean_returns_beside_win_rates() -> None:
    summary = simulate(["random", "random"], 200, seed=1, game=GUESS)
    assert summary.games == 200
    for line in summary.bots:
        # Zero-sum chips: one for a win, minus one for a loss, so the mean return is 2 * rate - 1.
        assert line.mean_return == pytest.approx(2 * line.win_rate - 1)
    assert sum(line.mean_return for line in summary.bots) == pytest.approx(0.0)


def test_the_default_stakes_make_the_mean_return_the_win_rate() -> None:
    summary = simulate(["random", "random", "random"], 30, seed=2, players=3, game="too-many-monkeys")
    for line in summary.bots:
        assert line.mean_return == pytest.approx(line.win_rate)
    assert summary.to_dict()["bots"][0]["mean_return"] == summary.bots[0].mean_return
