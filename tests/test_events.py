"""Events: apply_with_events says exactly what an action did, and agrees with the states before and after."""

from __future__ import annotations

import random

import pytest

from cheekymonkey import (
    Animal,
    Busted,
    Claim,
    Claimed,
    Draw,
    Drew,
    Event,
    GameOver,
    GameState,
    Herd,
    HerdSecured,
    IllegalActionError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stacked,
    Stop,
    Stopped,
    Swap,
    Swapped,
    apply,
    apply_all,
    apply_with_events,
    new_game,
    play_game,
    score,
)
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.bots import HeuristicBot


def _check(before: GameState, action: Action, after: GameState, events: tuple[Event, ...]) -> None:
    """Every event is what the two states say happened, and nothing that happened is left unsaid."""
    seat = before.seat
    kinds = [type(e) for e in events]
    body = [e for e in events if not isinstance(e, GameOver)]
    if isinstance(action, Draw):
        assert body == []
    elif isinstance(action, Reveal):
        (event,) = body
        if after.seat != seat or after.phase is not Phase.DECIDE:
            # R6: a bust returns the front and the drawn token to the bag.
            assert event == Busted(seat, action.animal, (*before.front, action.animal))
            for animal in set(event.returned):
                assert after.bag[animal] == before.bag[animal] + before.front.count(animal)
        else:
            assert event == Drew(seat, action.animal)
            assert after.front == (*before.front, action.animal)
    elif isinstance(action, Claim):
        (event,) = body
        assert event == Claimed(seat, action.seat, before.stacks[action.seat][-1])
        assert after.stacks[action.seat] == before.stacks[action.seat][:-1]
    elif isinstance(action, Swap):
        (event,) = body
        assert event == Swapped(seat, action.seat, before.stacks[action.seat][-1])
        assert after.stacks[action.seat][-1] is Animal.MONKEY
    elif isinstance(action, Stop):
        assert isinstance(body[0], Stopped)
        assert body[0] == Stopped(seat, before.front)
        if after.phase is Phase.PLACING:
            assert len(body) == 1
        else:
            assert body[1:] == [Stacked(seat, before.front)]
            assert after.stacks[seat] == before.stacks[seat] + before.front
    elif isinstance(action, Place):
        (event,) = body
        assert isinstance(event, Stacked)
        assert event.animals[0] is action.animal
        # R9: what was stacked sits on top of the old stack, in the order the event gives.
        assert after.stacks[seat] == before.stacks[seat] + event.animals
    elif isinstance(action, Herd):
        (event,) = body
        assert event == HerdSecured(seat, before.front)
        assert after.stacks[seat] == before.front + before.stacks[seat]  # R10: at the bottom
    if after.phase is Phase.OVER:
        assert kinds[-1] is GameOver
        last = events[-1]
        assert isinstance(last, GameOver)
        assert last.sheet == score(after)
    else:
        assert GameOver not in kinds


def test_events_agree_with_the_states_in_hundreds_of_seeded_games() -> None:
    """In 300 seeded games (2-6 seats, every preset), each action's events match the state it led to."""
    presets = [Ruleset.preset(name) for name in Ruleset.preset_names()]
    seen: set[type] = set()
    for seed in range(300):
        rng = random.Random(seed)
        ruleset = presets[seed % len(presets)]
        bots = [
            HeuristicBot(rng.choice((0.2, 0.4, 0.6))) if rng.random() < 0.7 else RandomBot()
            for _ in range(2 + seed % 5)
        ]
        game = play_game(bots, ruleset=ruleset, seed=seed)
        states = game.record.states()
        for before, action, after in zip(states[:-1], game.record.actions, states[1:], strict=True):
            state, events = apply_with_events(before, action)
            assert state == after  # apply_with_events changes nothing about apply
            _check(before, action, after, events)
            seen.update(type(e) for e in events)
    assert seen == {Drew, Busted, Claimed, Swapped, Stopped, Stacked, HerdSecured, GameOver}


def test_a_claim_chain_gives_one_claimed_event_per_token() -> None:
    """R7: two seal claims from one stack give two Claimed events naming that seat."""
    seal, lion = Animal.SEAL, Animal.LION
    state = apply_all(
        new_game(2), [Reveal(lion), Stop(), Reveal(seal), Stop(), Reveal(seal), Claim(1), Stop(), Reveal(seal)]
    )
    # Seat 0's stack is Lion, Seal, Seal; seat 1 drew a Seal and may claim both Seals, one at a time.
    state, first = apply_with_events(state, Claim(0))
    state, second = apply_with_events(state, Claim(0))
    assert first == second == (Claimed(1, 0, seal),)
    assert state.stacks[0] == (lion,)
    assert state.front == (seal, seal, seal)


def test_a_swap_names_the_seat_and_the_token_taken() -> None:
    """R12: swapping the drawn monkey with seat 0's Lion gives Swapped(1, 0, Lion)."""
    state = apply_all(new_game(2), [Reveal(Animal.LION), Stop(), Reveal(Animal.MONKEY)])
    state, events = apply_with_events(state, Swap(0))
    assert events == (Swapped(1, 0, Animal.LION),)
    assert state.front == (Animal.LION,)


def test_a_bust_returns_every_token_in_front_and_the_drawn_one() -> None:
    """R6: after Seal, Lion, a second Seal busts and all three go back, in order, the drawn one last."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION), Draw()])
    after, events = apply_with_events(state, Reveal(Animal.SEAL))
    assert events == (Busted(0, Animal.SEAL, (Animal.SEAL, Animal.LION, Animal.SEAL)),)
    assert after.seat == 1
    assert after.bag == Ruleset.standard().counts


def test_stopping_with_one_animal_stacks_at_once_and_says_so() -> None:
    """R9: a stop with one animal in front gives Stopped then Stacked in the same call."""
    state = apply(new_game(3), Reveal(Animal.HIPPO))
    _, events = apply_with_events(state, Stop())
    assert events == (Stopped(0, (Animal.HIPPO,)), Stacked(0, (Animal.HIPPO,)))


def test_the_last_placement_stacks_the_rest_in_one_event() -> None:
    """R9: placing a Seal from Seal, Lion leaves a lone Lion, which goes on in the same Stacked event."""
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION), Stop()])
    _, events = apply_with_events(state, Place(Animal.SEAL))
    assert events == (Stacked(0, (Animal.SEAL, Animal.LION)),)


def test_a_draw_alone_says_nothing_until_its_outcome() -> None:
    """The draw is a chance node: its token is only known, and narrated, when the Reveal comes."""
    state = apply(new_game(2), Reveal(Animal.PANDA))
    _, events = apply_with_events(state, Draw())
    assert events == ()


def test_an_illegal_action_raises_and_tells_nothing() -> None:
    """apply_with_events refuses what apply refuses, with the same error."""
    with pytest.raises(IllegalActionError, match="R7"):
        apply_with_events(apply(new_game(2), Reveal(Animal.PANDA)), Claim(1))


def test_the_last_action_of_a_game_ends_with_the_game_over_event_and_its_sheet() -> None:
    """R15: the action that ends the game is followed by GameOver with the final score sheet."""
    game = play_game([RandomBot(), RandomBot()], seed=8)
    before = game.record.states()[-2]
    _, events = apply_with_events(before, game.record.actions[-1])
    assert events[-1] == GameOver(game.score)
