"""Leduc poker passes the library's conformance kit, noninterference included: the one call any game's author runs."""

from __future__ import annotations

from cheekymonkey.outcome import Utility
from cheekymonkey.testing import check_game

from cheekymonkey_leduc.game import LEDUC


def test_leduc_passes_the_conformance_kit_with_its_secrets() -> None:
    """Seats, capabilities, seeded games state by state, zero-sum returns in chips, and no seat told another's card."""
    assert LEDUC.private_information
    assert LEDUC.stakes(2).utility is Utility.ZERO_SUM
    for seed in range(3):
        check_game(LEDUC, seed=seed)
