"""Cheeky Monkey's own invariants of every reachable state (the kit checks the rest), for stateful and model checks."""

from __future__ import annotations

from fractions import Fraction

import attrs

from cheekymonkey import (
    CHEEKY_MONKEY,
    Action,
    Animal,
    Claim,
    Draw,
    GameState,
    Herd,
    Phase,
    Place,
    Reveal,
    Stop,
    Swap,
    chance_outcomes,
    current_player,
    is_chance_node,
    is_terminal,
    legal_actions,
)
from cheekymonkey.cheeky.actions import CLAIMS, DRAW, HERD, PLACES, REVEALS, STOP, SWAPS
from cheekymonkey.testing import check_illegal_actions as kit_illegal_actions
from cheekymonkey.testing import check_state

__all__ = [
    "all_candidate_actions",
    "check_illegal_actions",
    "check_legal_set",
    "check_state_invariants",
    "check_transition",
    "rebuild",
]


def tokens_held(state: GameState) -> list[int]:
    """How many tokens of each animal the bag, the front and the stacks hold together."""
    held = list(state.bag)
    for stack in state.stacks:
        for token in stack:
            held[token] += 1
    for token in state.front:
        held[token] += 1
    return held


def rebuild(state: GameState) -> GameState:
    """The same state built again through the validating public constructor (raises if invalid)."""
    return GameState(**attrs.asdict(state, recurse=False))


def all_candidate_actions(state: GameState) -> tuple[Action, ...]:
    """Every action of every kind that could make sense in a game with this many seats, and one seat more."""
    seats = range(min(state.players + 1, len(CLAIMS)))
    return (DRAW, STOP, HERD, *REVEALS, *PLACES, *(CLAIMS[s] for s in seats), *(SWAPS[s] for s in seats))


def check_state_invariants(state: GameState) -> tuple[Action, ...]:
    """Assert the invariants of one state, and return its legal actions (chance outcomes at a chance node).

    What every game promises (exactly one of chance node / player to move / terminal, distinct legal
    actions, exact chance odds adding up to 1 and naming the legal Reveals, pickle and hash round trips) is
    :func:`cheekymonkey.testing.check_state`'s. Cheeky Monkey's own, checked here: tokens conserved per
    animal, no count negative, the validating constructor accepts the state, terminal exactly when the bag
    and the front are empty (R15), no dead end (R22), each Reveal's odds its animal's share of the bag (R5),
    and a decision the seat's in a deciding phase.
    """
    actions = check_state(CHEEKY_MONKEY, state)
    ruleset = state.ruleset
    assert all(count >= 0 for count in state.bag), state.bag
    assert tokens_held(state) == list(ruleset.counts)
    assert sum(tokens_held(state)) == ruleset.total_tokens
    assert rebuild(state) == state
    over = is_terminal(state)
    assert over == (not any(state.bag) and not state.front)
    if over:
        return actions
    # R22 (no dead end): a state that is not over always offers a move or a chance outcome.
    assert actions
    if is_chance_node(state):
        size = state.bag_size
        assert all(p == Fraction(state.bag[r.animal], size) for r, p in chance_outcomes(state))
    else:
        assert current_player(state) == state.seat
        assert state.phase in (Phase.DECIDE, Phase.PLACING)
    return actions


def check_illegal_actions(state: GameState, legal: tuple[Action, ...], sample: tuple[Action, ...]) -> int:
    """Assert that every action in ``sample`` not in ``legal`` is refused and leaves ``state`` unchanged.

    :func:`cheekymonkey.testing.check_illegal_actions` (the error names the action and the state).

    Returns:
        How many illegal actions were tried.
    """
    assert set(legal) == set(legal_actions(state))
    return kit_illegal_actions(CHEEKY_MONKEY, state, sample)


def expected_legal(state: GameState) -> set[Action]:
    """The legal actions, worked out again from the rules' own words (a second, independent reading)."""
    seat, front, stacks, bag = state.seat, state.front, state.stacks, state.bag
    if state.phase is Phase.CHANCE:
        return {Reveal(a) for a, count in enumerate(bag) if count > 0}  # R5: any animal left in the bag
    if state.phase is Phase.PLACING:
        return {Place(a) for a in set(front)}  # R9: any token in front, in any order
    if state.phase is Phase.OVER:
        return set()
    expected: set[Action] = {Stop()}  # R8: stopping is always allowed
    if sum(bag) > 0:
        expected.add(Draw())  # R8: no draw from an empty bag
    if len(set(front)) == 1:
        expected.add(Herd())  # R10: a herd needs one animal in front
    opponents = [s for s in range(len(stacks)) if s != seat and stacks[s]]  # R7, R12: never one's own stack
    if state.claimable is not None:
        expected.update(Claim(s) for s in opponents if stacks[s][-1] == state.claimable)
    if state.swap_open:
        expected.update(Swap(s) for s in opponents if stacks[s][-1] != Animal.MONKEY)
    return expected


def check_legal_set(state: GameState, legal: tuple[Action, ...]) -> None:
    """Assert that ``legal`` is exactly the set the rules allow (see :func:`expected_legal`)."""
    assert set(legal) == expected_legal(state), (state, legal)


def _counts(tokens: tuple[Animal, ...]) -> list[int]:
    counts = [0] * len(Animal)
    for token in tokens:
        counts[token] += 1
    return counts


def check_transition(state: GameState, action: Action, after: GameState) -> None:
    """Assert what the rules say ``action`` does to ``state`` (R5-R12), given the engine's ``after``."""
    seat, front, stacks = state.seat, state.front, state.stacks
    mine, after_mine = stacks[seat], after.stacks[seat]
    turn_over = after.front == () and after.phase in (Phase.CHANCE, Phase.OVER)
    if turn_over:
        # R3: play passes to the next seat up, wrapping round.
        assert after.seat == (seat + 1) % state.players
    else:
        assert after.seat == seat
    if isinstance(action, Reveal):
        animal = action.animal
        assert state.bag[animal] > 0  # R5: only a token in the bag can come out
        if animal in front:
            # R6: a bust returns every token in front (claimed and swapped-in ones too) and the drawn one.
            refill = [b + f for b, f in zip(state.bag, _counts(front), strict=True)]
            assert list(after.bag) == refill
            assert after.stacks == stacks
            assert turn_over
        else:
            assert after.front == (*front, animal)
            assert after.bag[animal] == state.bag[animal] - 1
            assert after.claimable is animal  # R7: claims follow the animal just drawn
            assert after.swap_open == (animal is Animal.MONKEY and state.ruleset.swap)  # R11
    elif isinstance(action, Claim):
        taken = stacks[action.seat][-1]
        assert action.seat != seat  # R7: never from one's own stack
        assert taken is state.claimable  # R7: only the animal just drawn
        assert after.stacks[action.seat] == stacks[action.seat][:-1]
        assert after.front == (*front, taken)
        assert after.claimable is taken  # R7: claims chain
        assert not after.swap_open  # R11: a claim gives up the swap
    elif isinstance(action, Swap):
        taken = stacks[action.seat][-1]
        assert action.seat != seat  # R12: never with one's own stack
        assert state.swap_open
        assert front[-1] is Animal.MONKEY
        assert after.stacks[action.seat] == (*stacks[action.seat][:-1], Animal.MONKEY)  # R12
        assert after.front == (*front[:-1], taken)
        assert after.claimable is None  # R12: a swap opens no claims
        assert not after.swap_open
        assert not any(isinstance(a, Claim | Swap) for a in legal_actions(after))
    elif isinstance(action, Draw):
        assert state.bag_size > 0  # R8
        assert after.phase is Phase.CHANCE
        assert (after.front, after.stacks) == (front, stacks)
    elif isinstance(action, Herd):
        assert len(set(front)) == 1  # R10
        assert after_mine == front + mine  # R10: the herd goes to the bottom
        assert turn_over
    elif isinstance(action, Stop | Place):
        # R9: the tokens go on top, one by one; the stack below is untouched.
        assert after_mine[: len(mine)] == mine
        placed = after_mine[len(mine) :]
        if isinstance(action, Place):
            assert placed[:1] == (action.animal,)
        assert sorted(placed + after.front) == sorted(front)
    for other in range(state.players):
        if other != seat and not (isinstance(action, Claim | Swap) and action.seat == other):
            assert after.stacks[other] == stacks[other]  # nobody else's stack moves
