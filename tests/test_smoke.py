"""Whole seeded games run to the end with every token accounted for after every action."""

from __future__ import annotations

import pytest

from cheekymonkey import GameState, RandomBot, Ruleset, apply, play_game
from cheekymonkey.cheeky.actions import Action
from tests.invariants import tokens_held


@pytest.mark.slow  # 5000 games
def test_many_seeded_games_conserve_all_52_tokens_after_every_action() -> None:
    """R1, R15: 5000 seeded random games, 2 to 6 seats; after every action all 52 tokens are in play."""
    standard = Ruleset.standard()
    checked = 0

    def check(state: GameState, action: Action) -> None:
        nonlocal checked
        after = apply(state, action)
        assert tokens_held(after) == list(standard.counts)
        assert sum(tokens_held(after)) == 52
        checked += 1

    for seed in range(5000):
        players = 2 + seed % 5
        game = play_game([RandomBot() for _ in range(players)], seed=seed, on_action=check)
        assert game.state.bag_size == 0
        assert sum(len(stack) for stack in game.state.stacks) == 52
    assert checked > 500_000


def test_same_seed_same_game() -> None:
    """Same seed and bots, same record and final state."""
    first = play_game([RandomBot(), RandomBot(), RandomBot()], seed=99)
    second = play_game([RandomBot(), RandomBot(), RandomBot()], seed=99)
    assert first.record == second.record
    assert first.state == second.state
    assert play_game([RandomBot(), RandomBot(), RandomBot()], seed=100).record != first.record
