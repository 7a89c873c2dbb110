"""Pig passes the library's conformance kit, the one call any game's author runs."""

from __future__ import annotations

from cheekymonkey.outcome import Utility
from cheekymonkey.testing import check_game

from cheekymonkey_pig import PIG


def test_pig_passes_the_conformance_kit() -> None:
    """Seats, capabilities (its encodings), and seeded games checked state by state, at three seeds."""
    for seed in range(3):
        check_game(PIG, seed=seed)


def test_pig_s_stakes_are_openspiel_s_zero_sum_returns() -> None:
    """Zero-sum between -1 and 1, as OpenSpiel declares Pig at any seat count (a loser's ``-1/(n-1)`` lies inside)."""
    for players in range(2, 7):
        stakes = PIG.stakes(players)
        assert (stakes.utility, stakes.low, stakes.high, stakes.total) == (
            Utility.ZERO_SUM,
            -1.0,
            1.0,
            0.0,
        )
