"""Leduc poker through the library's Gymnasium and PettingZoo adapters, checked by each framework's own suite.

OpenSpiel's own ``random_sim_test`` of the adapter is in ``test_openspiel.py``. Beside the frameworks' checks,
each adapter is held to what a seat may know: what it hands a seat (its observation, its mask) is the same
for any two deals the seat cannot tell apart, and deals that differ only in what the seat cannot see do occur.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Callable, Hashable
from typing import Any

import gymnasium
import pytest
from cheekymonkey.rl.gymnasium_env import ENV_ID, SoloEnv
from cheekymonkey.rl.pettingzoo_env import env
from gymnasium.utils.env_checker import check_env
from pettingzoo import test as pettingzoo_test

from cheekymonkey_leduc import LEDUC
from cheekymonkey_leduc.rules import card_text

# api_test names the environments of PettingZoo's own whose observation may be a dict; any other environment
# observing a dict (observation and action mask) is told these two.
_DICT_OBSERVATION = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _warnings_of(check: Callable[[], object]) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


def _solo(**kwargs: Any) -> SoloEnv:
    made = gymnasium.make(ENV_ID, disable_env_checker=True, game="leduc", **kwargs).unwrapped
    assert isinstance(made, SoloEnv)
    return made


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 3, "seat": 1, "opponents": ["random", "heuristic"], "render_mode": "ansi"},
        {"players": 2, "observation": "information"},
    ],
)
def test_gymnasiums_check_env_passes(kwargs: dict[str, Any]) -> None:
    """Gymnasium's own checker, the learner against Leduc's bots, with no warning."""
    solo = _solo(**kwargs)
    assert not _warnings_of(lambda: check_env(solo))
    assert solo.game is LEDUC


def test_the_learner_is_handed_the_same_for_deals_it_cannot_tell_apart() -> None:
    """80 seeded games against the heuristic bot, the learner always checking or calling.

    At every decision, the observation and the mask are a function of the learner's information state (its
    card, the public card, the betting), whatever the bot holds; and the bot's card does vary under one
    information state, so the check could fail. The board rendered for the learner shows no card of the bot's.
    """
    handed: dict[Hashable, tuple[tuple[float, ...], tuple[int, ...]]] = {}
    hidden: dict[Hashable, set[int | None]] = {}
    for seed in range(80):
        solo = _solo(players=2, seat=0, opponents=["heuristic"], render_mode="ansi")
        observation, info = solo.reset(seed=seed)
        done = False
        while not done:
            state = solo.game_state
            key = LEDUC.information_state(state, 0)
            seen = (tuple(observation.tolist()), tuple(info["action_mask"].tolist()))
            assert handed.setdefault(key, seen) == seen, key
            hidden.setdefault(key, set()).add(state.cards[1])
            shown = solo.render()
            assert isinstance(shown, str)
            if not state.over:
                assert card_text(state.cards[1]) not in shown
            observation, _, terminated, truncated, info = solo.step(1)  # call (a check when nothing is owed)
            done = terminated or truncated
    assert any(len(cards) > 1 for cards in hidden.values())  # the bot's card varied under one information state


@pytest.mark.parametrize(("players", "observation"), [(2, "view"), (3, "view"), (2, "information"), (4, "information")])
def test_pettingzoos_api_test_passes(players: int, observation: str) -> None:
    aec = env(players=players, game="leduc", observation=observation)
    found = _warnings_of(lambda: pettingzoo_test.api_test(aec, num_cycles=300))
    assert found <= _DICT_OBSERVATION, found - _DICT_OBSERVATION
    assert aec.unwrapped.metadata["name"] == "leduc_v0"


def test_pettingzoos_seed_test_passes() -> None:
    found = _warnings_of(lambda: pettingzoo_test.seed_test(lambda: env(players=3, game="leduc"), num_cycles=300))
    assert not found


def test_each_agent_observes_only_its_own_information() -> None:
    """Random games at 3 seats: every agent's observation, at every step, is a function of its information state."""
    rng = random.Random(11)
    seen: dict[tuple[int, Hashable], tuple[float, ...]] = {}
    hidden: dict[tuple[int, Hashable], set[tuple[int | None, ...]]] = {}
    for seed in range(40):
        aec = env(players=3, game="leduc", observation="information")
        aec.reset(seed=seed)
        while aec.agents:
            state = aec.unwrapped.game_state
            for seat, agent in enumerate(aec.possible_agents):
                if agent not in aec.agents:
                    continue
                key = (seat, LEDUC.information_state(state, seat))
                observed = tuple(aec.observe(agent)["observation"].tolist())
                assert seen.setdefault(key, observed) == observed, key
                hidden.setdefault(key, set()).add(tuple(c for other, c in enumerate(state.cards) if other != seat))
            _, _, terminated, truncated, info = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            mask = info.get("action_mask")
            if mask is None:
                mask = aec.observe(aec.agent_selection)["action_mask"]
            aec.step(rng.choice([index for index, allowed in enumerate(mask.tolist()) if allowed]))
    assert any(len(deals) > 1 for deals in hidden.values())


def test_pettingzoos_render_test_passes_and_the_board_is_a_spectators(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test on Leduc; the board rendered is what a spectator sees, hand after hand.

    Rendering is for someone watching the environment, seated nowhere: before the end it names no private
    card, only the public one once it is turned up; at the end the hands a showdown turns up, never a folded one.
    """
    pettingzoo_test.render_test(lambda render_mode=None: env(players=2, game="leduc", render_mode=render_mode))
    assert "hands" in capsys.readouterr().out
    rng = random.Random(5)
    showdowns = folds = 0
    for seed in range(30):
        aec = env(players=3, game="leduc", render_mode="ansi")
        aec.reset(seed=seed)
        while True:
            state = aec.unwrapped.game_state
            shown = aec.render()
            assert isinstance(shown, str)
            named = set(re.findall(r"(?<![A-Za-z0-9])[JQKA][sh](?![A-Za-z0-9])", shown))
            public = set() if state.public is None else {card_text(state.public)}
            if not state.over:
                assert named == public, shown
            else:
                hands = zip(state.cards, state.folded, strict=True)
                still_in = [card_text(card) for card, folded in hands if not folded]
                revealed = set(still_in) if len(still_in) > 1 else set()
                assert named == public | revealed, shown
                showdowns += bool(revealed)
                folds += any(state.folded)
            if not aec.agents:
                break
            _, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            mask = aec.observe(aec.agent_selection)["action_mask"].tolist()
            aec.step(rng.choice([index for index, allowed in enumerate(mask) if allowed]))
    assert showdowns
    assert folds
