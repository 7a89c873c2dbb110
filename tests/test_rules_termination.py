"""R22 termination: no turn limit in the rules, so drivers guard, bots may always stop, and the end is reachable."""

from __future__ import annotations

import random

import pytest

from cheekymonkey import (
    ANIMALS,
    Action,
    Draw,
    GameState,
    GameTooLongError,
    Phase,
    RandomBot,
    Stop,
    apply,
    legal_actions,
    play_game,
    sample_chance,
)
from cheekymonkey.cheeky.actions import Place
from tests.helpers import E, G, H, K, L, M, P, S, make


class _NeverStops:
    """Draws whenever it can: a bot that breaks R22, for the driver's guard to catch."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        actions = legal_actions(state)
        return actions[0]


class _StopsAtOnce:
    """Stops as soon as it may and places in animal order: the shortest way through every turn."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        actions = legal_actions(state)
        return Stop() if Stop() in actions else actions[0]


def test_play_game_gives_up_on_a_bot_that_never_stops() -> None:
    """R22: a bot that never stops busts forever; play_game's max_actions guard raises GameTooLongError."""
    with pytest.raises(GameTooLongError, match=r"passed 2000 actions: does every bot stop\?"):
        play_game([_NeverStops(), _NeverStops()], seed=1, max_actions=2000)


def test_game_too_long_error_is_a_runtime_error() -> None:
    """R22: the guard's error is the library's own and a RuntimeError (the bots, not the input, are at fault)."""
    assert issubclass(GameTooLongError, RuntimeError)


def test_bot_that_stops_at_once_ends_every_game_with_one_draw_per_turn() -> None:
    """R22: stopping after the compulsory draw stacks one token per turn, so the game ends after 52 turns."""
    game = play_game([_StopsAtOnce(), _StopsAtOnce(), _StopsAtOnce()], seed=5, max_actions=None)
    assert game.state.phase is Phase.OVER
    # Every turn is a Reveal then a Stop: 52 of each, whatever was drawn.
    assert len(game.record.actions) == 104
    assert [len(stack) for stack in game.state.stacks] == [18, 17, 17]


def _reachable_states(games: int) -> list[GameState]:
    states: list[GameState] = []

    def keep(state: GameState, action: Action) -> None:
        states.append(state)

    for seed in range(games):
        play_game([RandomBot()] * (2 + seed % 5), seed=seed, on_action=keep)
    return states


REACHABLE = _reachable_states(8)


def test_stop_is_legal_in_every_deciding_state_and_every_place_shrinks_the_front() -> None:
    """R22: whenever a player decides, Stop is legal; while placing, each Place puts a token down.

    So a bot choosing among legal actions at random ends its turn with positive probability.
    """
    deciding = [s for s in REACHABLE if s.phase is Phase.DECIDE]
    placing = [s for s in REACHABLE if s.phase is Phase.PLACING]
    assert len(deciding) > 200
    assert len(placing) > 20
    for state in deciding:
        assert Stop() in legal_actions(state)
    for state in placing:
        for action in legal_actions(state):
            after = apply(state, action)
            assert len(after.front) < len(state.front)
            assert sum(map(len, after.stacks)) > sum(map(len, state.stacks))


def test_random_bot_chooses_stop_with_positive_probability() -> None:
    """R22: RandomBot picks every legal action, Stop included, for some random stream."""
    state = make(((), (S,)), (M,), claimable=M, swap_open=True)
    seen = {RandomBot().choose(state, random.Random(seed)) for seed in range(200)}
    assert seen == set(legal_actions(state))
    assert Stop() in seen
    assert Draw() in seen


def test_stopping_policy_reaches_the_end_from_sampled_reachable_states() -> None:
    """R22: from every sampled reachable state, stopping at each decision reaches the end within a known bound.

    Each turn after the current one draws exactly one token (a first draw never busts) and stacks it,
    so at most ``bag + front + 1`` more turns are needed.
    """
    rng = random.Random(22)
    sampled = REACHABLE[::7]
    assert len(sampled) > 100
    for start in sampled:
        bound = start.bag_size + len(start.front) + 1
        state = start
        turns = 0
        while state.phase is not Phase.OVER:
            assert turns <= bound, f"no end within {bound} turns from {start!r}"
            seat = state.seat
            if state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))
            elif state.phase is Phase.DECIDE:
                state = apply(state, Stop())
            else:
                state = apply(state, Place(state.front[0]))
            if state.phase is Phase.OVER or (state.seat != seat):
                turns += 1
        assert state.bag_size == 0
        assert sum(map(len, state.stacks)) == start.ruleset.total_tokens


def _draw_must_bust(state: GameState) -> bool:
    return all(state.bag[animal] == 0 or animal in state.front for animal in ANIMALS)


def test_random_bot_never_draws_into_a_certain_bust() -> None:
    """R22: when every token left in the bag matches one in front, RandomBot does not draw (it may still stop)."""
    rest = (E,) * 3 + (S,) * 2 + (H,) * 4 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 10
    state = make((rest, ()), (S, H), seat=1)
    assert state.bag == (0, 1, 0, 0, 0, 0, 0, 0)
    assert _draw_must_bust(state)
    assert legal_actions(state) == (Draw(), Stop())
    assert {RandomBot().choose(state, random.Random(seed)) for seed in range(50)} == {Stop()}
    # With one token in the bag that would not bust, the draw is offered again.
    loose = make((rest[:-1], ()), (S, H), seat=1)
    assert not _draw_must_bust(loose)
    assert {RandomBot().choose(loose, random.Random(seed)) for seed in range(50)} == {Draw(), Stop()}


def test_random_bot_games_never_draw_into_a_certain_bust() -> None:
    """R22: over whole seeded games, no RandomBot decision is a draw that must bust."""
    decisions = 0

    def check(state: GameState, action: Action) -> None:
        nonlocal decisions
        if state.phase is Phase.DECIDE:
            decisions += 1
            assert not (isinstance(action, Draw) and _draw_must_bust(state)), state

    for seed in range(20):
        play_game([RandomBot()] * (2 + seed % 5), seed=seed, on_action=check)
    assert decisions > 1000
