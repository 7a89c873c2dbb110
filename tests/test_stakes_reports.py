"""The simulation and both leagues report each bot's returns in the game's own stakes, beside its win rate.

The game here is the test game *Guess* (``tests/secret_games.py``): zero-sum, the winner +1 and the loser -1, so
a bot's mean return must be ``2 * win rate - 1``, figured from its wins by other code than its returns.
The built-in games pay the outcome's scale and their tables stay as they were: no returns column.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cheekymonkey.cli import league as league_command
from cheekymonkey.cli import simulate as simulate_command
from cheekymonkey.cli.options import pays_stakes
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.simulation import league, simulate
from cheekymonkey.simulation.leagues import table_league
from tests.secret_games import GUESS


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None), out


def test_only_a_game_with_stakes_of_its_own_gets_the_returns_column() -> None:
    """Guess pays +1/-1; every registered built-in game pays the outcome's 1 to the winners at every seat count."""
    assert pays_stakes(GUESS, 2, None)
    for name in ("cheeky-monkey", "too-many-monkeys"):
        assert name in GAME_NAMES
        game = game_named(name)
        low, high = game.seat_range()
        for players in range(low, high + 1):
            assert not pays_stakes(game, players, game.ruleset()), (name, players)


def test_the_simulation_reports_each_bots_returns_as_its_wins_imply() -> None:
    summary = simulate(["random", "random"], 300, game=GUESS, players=2, seed=3)
    assert summary.games == 300
    for line in summary.bots:
        assert line.mean_return == pytest.approx(2 * line.win_rate - 1, abs=1e-12)
    assert sum(line.mean_return for line in summary.bots) == pytest.approx(0.0, abs=1e-12)
    assert len({line.mean_return for line in summary.bots}) == 2  # seeded: the two bots did not tie
    console, out = _console()
    simulate_command._print_table(console, summary, pays_stakes(GUESS, 2, None))
    text = out.getvalue()
    assert "mean return" in text
    for line in summary.bots:
        assert f"{line.mean_return:+.3f}" in text


def test_a_two_seat_league_reports_returns_per_bot_and_per_pairing() -> None:
    result = league(["random", "random"], 200, game=GUESS, seed=5)
    (pairing,) = result.pairings
    assert pairing.first_return == pytest.approx(2 * pairing.first_wins / pairing.games - 1, abs=1e-12)
    assert pairing.second_return == pytest.approx(-pairing.first_return, abs=1e-12)
    for standing in result.standings:
        assert standing.mean_return == pytest.approx(2 * standing.score - 1, abs=1e-12)
    console, out = _console()
    league_command._print_table(console, result, GUESS.title, staked=True)
    text = out.getvalue()
    assert "mean returns" in text  # the head-to-head table's column; the standings' is "mean return"
    for standing in result.standings:
        assert f"{standing.mean_return:+.3f}" in text
    assert f"{pairing.first_return:+.3f} - {pairing.second_return:+.3f}" in text


def test_a_league_at_a_table_reports_returns_per_seat_held() -> None:
    result = table_league(["random", "random"], 60, 2, game=GUESS, seed=2)
    for standing in result.standings:
        # At two seats, place 1 is a win: the mean place gives the win rate, 2 - mean place.
        assert standing.mean_return == pytest.approx(2 * (2 - standing.mean_place) - 1, abs=1e-12)
    assert sum(s.mean_return * s.seatings for s in result.standings) == pytest.approx(0.0, abs=1e-9)


def test_the_built_in_games_tables_have_no_returns_column() -> None:
    summary = simulate(["random", "random"], 4, game="too-many-monkeys", players=2, seed=0)
    console, out = _console()
    simulate_command._print_table(console, summary, pays_stakes(game_named("too-many-monkeys"), 2, None))
    assert "mean return" not in out.getvalue()
    assert "mean place" in out.getvalue()
