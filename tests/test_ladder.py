"""The bot ladder: random < heuristic < expectimax, each step held by a seeded tournament with a margin.

Each tournament rotates the seats as ``cheekymonkey simulate`` does (game ``i``, seed ``i``, has every bot
moved ``i`` seats round the table), so the first player's edge cancels. A bot *beats* another when the
95% Wilson interval of its win rate lies above its fair share: 1/2 head to head, and 1/3 in a 3-seat
game against two copies of the other bot. The games are seeded, so a run gives the same figures every
time: the tests cannot flake, and they fail if a change weakens a bot. The last step, expectimax < MCTS,
needs hundreds of games at about a second of CPU each, so only docs/explanation/bots.md measures it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from cheekymonkey import Bot, RandomBot, play_game
from cheekymonkey.bots import ExpectimaxBot, HeuristicBot


def _wilson_low(wins: float, games: int, z: float = 1.96) -> float:
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - half) / (1 + z * z / games)


def _wins_of_first(makers: list[Callable[[], Bot]], games: int) -> float:
    """Play ``games`` seeded games with seats rotated; return the first bot's wins (shared wins as fractions)."""
    n = len(makers)
    wins = 0.0
    for game in range(games):
        order = [(seat + game) % n for seat in range(n)]  # seat s holds bot (s + game) % n
        sheet = play_game([makers[bot]() for bot in order], seed=game).score
        first_seat = order.index(0)
        if first_seat in sheet.winners:
            wins += 1 / len(sheet.winners)
    return wins


def test_the_heuristic_beats_the_random_bot_head_to_head() -> None:
    """100 two-seat games: the heuristic's win rate has its 95% interval above 1/2 (it wins nearly all)."""
    wins = _wins_of_first([HeuristicBot, RandomBot], 100)
    assert _wilson_low(wins, 100) > 0.5, wins


@pytest.mark.slow
def test_expectimax_beats_the_heuristic_head_to_head() -> None:
    """240 two-seat games: expectimax's win rate has its 95% interval above 1/2."""
    wins = _wins_of_first([ExpectimaxBot, HeuristicBot], 240)
    assert _wilson_low(wins, 240) > 0.5, wins


@pytest.mark.slow
def test_expectimax_beats_two_heuristics_at_three_seats() -> None:
    """150 three-seat games against two heuristic bots: expectimax's 95% interval is above its fair share, 1/3."""
    wins = _wins_of_first([ExpectimaxBot, HeuristicBot, HeuristicBot], 150)
    assert _wilson_low(wins, 150) > 1 / 3, wins
