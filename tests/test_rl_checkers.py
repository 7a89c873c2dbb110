"""The frameworks' own checkers at every tiny cut-off: both games, 2 to 6 seats, turn and step limits 1 to 5.

PettingZoo's ``api_test`` passes in every case. Gymnasium's ``check_env`` passes in every case but for one
assertion of its own, that the step after ``reset(seed=123)`` is not truncated ("something has gone very
wrong"): true of any environment whose limit is that short, whatever it does at reset. Where it fails, it
fails on that assertion alone, and replaying the checker's own sequence shows the truncation is real.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo import test as pettingzoo_test

from cheekymonkey.games import GAME_NAMES
from cheekymonkey.rl.gymnasium_env import SoloEnv
from cheekymonkey.rl.pettingzoo_env import env

SEATS = (2, 3, 4, 5, 6)
LIMITS = (1, 2, 3, 4, 5)
KINDS = ("max_turns", "max_steps")


def _limits(kind: str, limit: int) -> dict[str, Any]:
    return {"max_turns": limit, "max_steps": None} if kind == "max_turns" else {"max_steps": limit}


@pytest.mark.slow
@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_pettingzoos_api_test_passes_at_every_cut_off(name: str, players: int) -> None:
    for kind in KINDS:
        for limit in LIMITS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the dict observation's notes, not failures
                pettingzoo_test.api_test(env(players=players, game=name, **_limits(kind, limit)), num_cycles=20)


@pytest.mark.slow
@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_gymnasiums_check_env_passes_unless_its_own_first_step_is_cut_off(name: str, players: int) -> None:
    passed = cut = 0
    for kind in KINDS:
        for limit in LIMITS:
            options = {"players": players, "game": name, "opponents": "random", **_limits(kind, limit)}
            probe = SoloEnv(**options)
            probe.action_space.seed(123)  # the checker's own sequence: seed the actions, sample, reset, step
            action = probe.action_space.sample()
            probe.reset(seed=123)
            *_, cut_off, _ = probe.step(action)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the render-mode note: built without one
                if cut_off:
                    with pytest.raises(AssertionError, match="truncates after 1 step"):
                        check_env(SoloEnv(**options))
                    cut += 1
                else:
                    check_env(SoloEnv(**options))
                    passed += 1
    assert passed + cut == len(KINDS) * len(LIMITS)
    if name == "cheeky-monkey":
        assert passed >= 7  # every turn limit, and step limits past the first draws
