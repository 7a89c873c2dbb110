"""An exhaustive model check of small games: every reachable state, every invariant, the end always reachable.

For each small custom rule set below, every state reachable from :func:`new_game` is visited
breadth-first (states are values, so they are deduplicated by equality), following every legal action
and every chance outcome. On each state the check asserts the invariants of
:func:`tests.invariants.check_state_invariants` (tokens conserved, the validating constructor accepts
the state, exactly one of chance / to move / over, over exactly when the bag and the front are empty,
exact chance probabilities summing to 1, no dead end), that the legal actions are exactly those the
rules allow, that every legal action applies and does what its rule says (R5-R12), that ``apply`` is
deterministic, and that every other action raises :class:`IllegalActionError` and changes nothing.
Finally it proves R22 on the explored graph: working backwards from the finished states, every state
can reach the end.

Figures on this machine (one core, Python 3.11), all eleven cases together: 176,396 states and 333,820
transitions, about 32 seconds (the largest, 59,508 states, about 10 seconds).
"""

from __future__ import annotations

import time
from collections import deque

import attrs
import pytest

from cheekymonkey import Animal, GameState, Ruleset, apply, is_chance_node, is_terminal, new_game, score
from tests.invariants import (
    all_candidate_actions,
    check_illegal_actions,
    check_legal_set,
    check_state_invariants,
    check_transition,
)
from tests.state_graphs import can_reach

E, S, H, M = Animal.ELEPHANT, Animal.SEAL, Animal.HIPPO, Animal.MONKEY


@attrs.frozen
class Case:
    """One small game to explore."""

    name: str
    """The test id."""
    counts: dict[Animal, int]
    """The animals in play and their counts."""
    players: int
    """The number of seats."""
    swap: bool
    """Whether the cheeky-monkey swap is on."""
    states: int
    """The number of reachable states: found by this check, and pinned so that a change in the engine shows."""


# Small enough to finish in seconds, large enough for busts after claims and swaps, claim chains two
# deep, herds under existing stacks, and the placing phase with three animals in front.
CASES = (
    Case("2 animals x2, 2 seats, swap", {E: 2, M: 2}, 2, True, 474),
    Case("2 animals x2, 3 seats, swap", {E: 2, M: 2}, 3, True, 1188),
    Case("2 animals x3, 2 seats, swap", {E: 3, M: 3}, 2, True, 3696),
    Case("2 animals x3, 3 seats, swap", {S: 3, M: 3}, 3, True, 13725),
    Case("2 animals x3, 2 seats, no swap", {E: 3, M: 3}, 2, False, 3490),
    Case("3 animals x1, 3 seats, swap", {E: 1, S: 1, M: 1}, 3, True, 128),
    Case("3 animals 1-2, 3 seats, swap", {E: 1, S: 2, M: 2}, 3, True, 11343),
    Case("3 animals x2, 2 seats, no swap", {E: 2, H: 2, M: 2}, 2, False, 15248),
    Case("3 animals x2, 2 seats, swap", {E: 2, S: 2, M: 2}, 2, True, 16444),
    Case("3 animals x2, 3 seats, swap", {E: 2, S: 2, M: 2}, 3, True, 59508),
    Case("3 animals 2-3, 2 seats, swap", {E: 2, S: 2, M: 3}, 2, True, 51152),
)


def explore(start: GameState) -> tuple[list[GameState], list[list[int]]]:
    """Visit every state reachable from ``start``, checking each; return the states and the successor lists."""
    index = {start: 0}
    states = [start]
    successors: list[list[int]] = []
    queue = deque([start])
    while queue:
        state = queue.popleft()
        legal = check_state_invariants(state)
        check_legal_set(state, legal)
        check_illegal_actions(state, legal, all_candidate_actions(state))
        targets = []
        for action in legal:
            after = apply(state, action)
            assert apply(state, action) == after  # apply is deterministic
            check_transition(state, action, after)
            target = index.get(after)
            if target is None:
                target = index[after] = len(states)
                states.append(after)
                queue.append(after)
            targets.append(target)
        successors.append(targets)
    return states, successors


def can_reach_end(states: list[GameState], successors: list[list[int]]) -> list[bool]:
    """For each state, whether some path in the graph reaches a finished state (backwards reachability)."""
    return can_reach(successors, [is_terminal(state) for state in states])


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_reachable_state_keeps_every_invariant_and_can_reach_the_end(case: Case) -> None:
    """Exhaustive: every reachable state is valid, acts by the rules, and can reach the end (R15, R22)."""
    ruleset = Ruleset.custom(case.counts, swap=case.swap, max_players=3)
    began = time.perf_counter()
    states, successors = explore(new_game(case.players, ruleset=ruleset))
    reached = can_reach_end(states, successors)
    stuck = [states[i] for i, ok in enumerate(reached) if not ok]
    assert not stuck, f"{len(stuck)} states cannot reach the end, for example {stuck[0]!r}"
    finished = [state for state in states if is_terminal(state)]
    assert finished
    for state in finished:
        sheet = score(state)
        assert sum(s.tokens for s in sheet.seats) == ruleset.total_tokens
    assert any(is_chance_node(state) for state in states)
    assert len(states) == case.states
    elapsed = time.perf_counter() - began
    print(f"{case.name}: {len(states)} states, {sum(map(len, successors))} transitions, {elapsed:.1f}s")
