"""The states the validating constructor accepts, against the states play can reach.

For tiny rule sets, every state that :class:`GameState`'s constructor accepts is enumerated (every
placement of the tokens in the bag, the stacks and the front, with every seat, phase, claimable animal
and swap flag), and compared with every state that play reaches from :func:`new_game` (any first
player). Play reaches only accepted states. The accepted states that play does not reach are kept
because they are harmless, and this test checks the two reasons that make them so:

1. **The rules act on them as written.** The engine's rules look at the position only: the stacks, the
   bag, who is to move, the animals in front (R6, R9, R10), the claimable animal (R7) and the swap
   (R11, R12). On each such state the legal actions are exactly those the rules allow, each does what
   its rule says, every other action is refused, every successor is accepted too, and the end can be
   reached (R22). What play cannot make is only the history behind the position: a stack order that no
   sequence of turns builds with so few tokens, a seat to move after a turn that could not have ended
   there, or a front whose order no sequence of draws, claims and swaps gives.
2. **Their turn is one play can produce.** The part of the turn that the rules consult (the phase, the
   animals in front, the claimable animal, whether the swap is open) equals that of a turn play gives
   with the same animals and enough tokens. So no such state offers a claim, a swap or a herd that R7,
   R11 or R12 would refuse (a tampered state with a claimable Elephant after a Lion was drawn fails this
   check and is refused).
"""

from __future__ import annotations

import contextlib
import itertools
from collections import deque
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    GameState,
    InvalidStateError,
    Phase,
    Ruleset,
    apply,
    is_terminal,
    legal_actions,
    new_game,
)
from cheekymonkey.cheeky.state import make_state
from tests.invariants import all_candidate_actions, check_illegal_actions, check_legal_set, check_transition

E, S, M = Animal.ELEPHANT, Animal.SEAL, Animal.MONKEY
Turn = tuple[Phase, frozenset[Animal], Animal | None, bool, Animal | None]


@attrs.frozen
class Case:
    """One tiny game to enumerate."""

    name: str
    counts: dict[Animal, int]
    players: int
    swap: bool


CASES = (
    Case("E2 M2, 2 seats, swap", {E: 2, M: 2}, 2, True),
    Case("E2 M2, 2 seats, no swap", {E: 2, M: 2}, 2, False),
    Case("E1 S1 M1, 3 seats, swap", {E: 1, S: 1, M: 1}, 3, True),
    Case("E1 S1 M2, 2 seats, swap", {E: 1, S: 1, M: 2}, 2, True),
)


def reachable(ruleset: Ruleset, players: int) -> set[GameState]:
    """Every state play reaches from a new game, whoever starts."""
    seen = {new_game(players, ruleset=ruleset, first_player=first) for first in range(players)}
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        for action in legal_actions(state):
            after = apply(state, action)
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return seen


def _sequences(counts: dict[Animal, int]) -> Iterator[tuple[Animal, ...]]:
    """Every sequence of tokens taken from ``counts`` (each animal at most its count times)."""
    yield ()
    for animal, count in counts.items():
        if count:
            for rest in _sequences({**counts, animal: count - 1}):
                yield (animal, *rest)


def _less(counts: dict[Animal, int], tokens: tuple[Animal, ...]) -> dict[Animal, int]:
    left = dict(counts)
    for token in tokens:
        left[token] -= 1
    return left


def accepted(ruleset: Ruleset, players: int) -> set[GameState]:
    """Every state the validating constructor accepts: all placements of the tokens, all turn fields."""
    counts = {animal: ruleset.counts[animal] for animal in ruleset.animals}
    found: set[GameState] = set()

    def place(seat: int, left: dict[Animal, int], stacks: tuple[tuple[Animal, ...], ...]) -> None:
        if seat < players:
            for stack in set(_sequences(left)):
                place(seat + 1, _less(left, stack), (*stacks, stack))
            return
        for front in set(_sequences(left)):
            rest = _less(left, front)
            bag = tuple(rest.get(animal, 0) for animal in ANIMALS)
            for to_move, phase, claimable, swap_open in itertools.product(
                range(players), Phase, (None, *ruleset.animals), (False, True)
            ):
                with contextlib.suppress(InvalidStateError):
                    found.add(GameState(ruleset, to_move, phase, bag, stacks, front, claimable, swap_open))

    place(0, counts, ())
    return found


def turn_of(state: GameState) -> Turn:
    """What of the turn the rules consult: the phase, the animals in front, claims, the swap, and the last token.

    The last token in front says which animal was drawn last (R7) while deciding: claims follow it.
    """
    last = state.front[-1] if state.phase is Phase.DECIDE else None
    return state.phase, frozenset(state.front), state.claimable, state.swap_open, last


def turns_play_gives(ruleset: Ruleset, longest: int) -> set[Turn]:
    """The turns play can produce with the rule set's animals and as many tokens as needed, up to a front length.

    Built from the rules directly, not from the engine: a draw adds an animal not yet in front (R5, R6)
    and opens its claims (R7) and, for a monkey under the swap, the swap (R11); a claim adds one more of the
    claimable animal and closes the swap; a swap replaces that monkey with any other animal and opens no
    claims (R12); deciding ends in a draw (a chance node), a stop (placing, while two animals or more
    remain) or the end of the turn.
    """
    start: tuple[tuple[Animal, ...], Animal | None, bool] = ((), None, False)
    seen = {start}
    queue = deque([start])
    turns: set[Turn] = {(Phase.CHANCE, frozenset(), None, False, None), (Phase.OVER, frozenset(), None, False, None)}
    while queue:
        front, claimable, swap_open = queue.popleft()
        moves: list[tuple[tuple[Animal, ...], Animal | None, bool]] = []
        if len(front) < longest:
            moves += [((*front, a), a, a is M and ruleset.swap) for a in ruleset.animals if a not in front]
            if claimable is not None:
                moves.append(((*front, claimable), claimable, False))
        if swap_open:
            moves += [((*front[:-1], a), None, False) for a in ruleset.animals if a is not M]
        for move in moves:
            if move not in seen:
                seen.add(move)
                queue.append(move)
        if front:
            turns.add((Phase.DECIDE, frozenset(front), claimable, swap_open, front[-1]))
            turns.add((Phase.CHANCE, frozenset(front), None, False, None))
            animals = set(front)
            for size in range(2, len(animals) + 1):
                for subset in itertools.combinations(sorted(animals), size):
                    turns.add((Phase.PLACING, frozenset(subset), None, False, None))
    return turns


def can_reach_end(states: set[GameState]) -> set[GameState]:
    """The states of ``states`` from which some sequence of legal actions reaches the end."""
    predecessors: dict[GameState, list[GameState]] = {state: [] for state in states}
    for state in states:
        for action in legal_actions(state):
            predecessors[apply(state, action)].append(state)
    done = {state for state in states if is_terminal(state)}
    queue = deque(done)
    while queue:
        for before in predecessors[queue.popleft()]:
            if before not in done:
                done.add(before)
                queue.append(before)
    return done


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_accepted_state_play_cannot_reach_is_harmless(case: Case) -> None:
    """Reachable states are accepted; accepted ones play cannot reach obey the rules and hold a real turn."""
    ruleset = Ruleset.custom(case.counts, swap=case.swap, max_players=3)
    reach = reachable(ruleset, case.players)
    accept = accepted(ruleset, case.players)
    assert reach <= accept
    turns = turns_play_gives(ruleset, ruleset.total_tokens)
    unreachable = accept - reach
    assert unreachable  # the comparison has something to say about
    for state in unreachable:
        assert turn_of(state) in turns, f"an accepted state holds a turn play never gives: {state!r}"
        legal = legal_actions(state)
        check_legal_set(state, legal)
        check_illegal_actions(state, legal, all_candidate_actions(state))
        for action in legal:
            after = apply(state, action)
            check_transition(state, action, after)
            assert after in accept, f"{action!r} leads out of the accepted states from {state!r}"
    assert can_reach_end(accept) == accept  # R22, from every accepted state


def test_a_claimable_animal_that_was_not_drawn_last_is_a_turn_play_never_gives() -> None:
    """R7: the comparison's second check tells a tampered state apart: a claimable Elephant after a Lion."""
    lion = Animal.LION
    state = make_state(Ruleset.standard(), 1, Phase.DECIDE, Ruleset.standard().counts, ((), ()), (E, lion), E, False)
    assert turn_of(state) not in turns_play_gives(Ruleset.standard(), 3)
    assert turn_of(_with_claimable(state, lion)) in turns_play_gives(Ruleset.standard(), 3)


def _with_claimable(state: GameState, claimable: Animal) -> GameState:
    return make_state(
        state.ruleset, state.seat, state.phase, state.bag, state.stacks, state.front, claimable, state.swap_open
    )


def test_the_turn_check_refuses_each_turn_play_never_gives() -> None:
    """The turns that the comparison found unsafe are refused by the constructor, by rule."""
    ruleset = Ruleset.custom({E: 2, S: 2, M: 2})
    fields: dict[str, Any] = {"ruleset": ruleset, "seat": 0, "phase": Phase.DECIDE, "bag": (0, 1, 0, 0, 0, 0, 0, 0)}
    cases: list[tuple[dict[str, Any], str]] = [
        # The monkey drawn last was not claimed, so it may still be swapped (R11).
        ({"front": (E, M), "claimable": M, "swap_open": False}, "R11: a monkey was just drawn"),
        # No claims are open only after a swap, which takes the monkey away (R12); a kept monkey would bust.
        ({"front": (M, E), "claimable": None, "swap_open": False}, "R12: no claims are open only after a swap"),
        # The Elephant was drawn before the Seal, so claims of Elephants are over (R7).
        ({"front": (E, S), "claimable": E, "swap_open": False}, "R7: claims follow the animal drawn last"),
    ]
    for turn, message in cases:
        front = turn["front"]
        assert isinstance(front, tuple)
        with pytest.raises(InvalidStateError, match=message):
            GameState(stacks=_balance(ruleset, front), **fields, **turn)


def _balance(ruleset: Ruleset, front: tuple[Animal, ...]) -> tuple[tuple[Animal, ...], ...]:
    """Two stacks that, with ``front`` and one Seal in the bag, hold every token of ``ruleset``."""
    left = [ruleset.counts[a] - front.count(a) for a in ANIMALS]
    left[S] -= 1
    return ((), tuple(a for a in ANIMALS for _ in range(left[a])))
