"""Graphs of game states, for the exhaustive model checks of both games: which states can reach a goal."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def can_reach(successors: Sequence[Sequence[int]], goal: Sequence[bool]) -> list[bool]:
    """For each state, whether some path reaches a goal state, working backwards from the goals.

    Args:
        successors: For each state (by index), the states its actions lead to.
        goal: For each state, whether it is a goal (a finished game).

    >>> can_reach([[1], [1], [0]], [False, False, True])
    [False, False, True]
    >>> can_reach([[1], [2], []], [False, False, True])
    [True, True, True]
    """
    predecessors: list[list[int]] = [[] for _ in successors]
    for source, targets in enumerate(successors):
        for target in targets:
            predecessors[target].append(source)
    reached = list(goal)
    queue = deque(index for index, done in enumerate(reached) if done)
    while queue:
        for source in predecessors[queue.popleft()]:
            if not reached[source]:
                reached[source] = True
                queue.append(source)
    return reached
