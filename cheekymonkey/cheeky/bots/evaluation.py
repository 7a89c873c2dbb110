"""The position value the searching bots play by: an estimate of a seat's lead at the end of the game."""

from __future__ import annotations

import math
from typing import Final

from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.state import GameState
from cheekymonkey.errors import InvalidValueError

__all__ = ["position_value"]


# The evaluation's constants. In 300-game matches against two heuristic bots, sharpness 0.8 or 2.5 and
# 1.5 or 4 draws a turn did no better than these, within the intervals.
_DRAWS_PER_TURN: Final = 2.5
"""About how many draws a turn makes: R5 draws are what expose a stack's top to claims (R7)."""
_SHARPNESS: Final = 1.5
"""How firmly a lead in an animal holds while tokens of it are still to come (see :func:`position_value`)."""

_SHARES: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}


def _shares(column: tuple[int, ...], left: int) -> tuple[float, ...]:
    """Each seat's estimated share of one bonus tile, from its tokens of the animal and the tokens still out."""
    key = (column, left)
    cached = _SHARES.get(key)
    if cached is not None:
        return cached
    best = max(column)
    if left == 0:
        # R16: with every token of the animal stacked, the tile is settled: one sole leader, or nobody.
        shares = tuple(1.0 if c == best and column.count(best) == 1 and best > 0 else 0.0 for c in column)
    else:
        # Tokens still out can overturn a lead: the fewer there are, the firmer it holds.
        beta = _SHARPNESS / math.sqrt(left)
        weights = [math.exp(beta * (c - best)) for c in column]
        total = sum(weights)
        shares = tuple(w / total for w in weights)
    if len(_SHARES) > 100_000:
        _SHARES.clear()
    _SHARES[key] = shares
    return shares


def _strongest(points: list[float], me: int) -> float:
    # The lead is over the strongest opponent: in a game of several, only the best of them stands in the way.
    return max(points[:me] + points[me + 1 :])


class _Evaluator:
    """:func:`position_value` for the positions one search reaches from one root, computed incrementally.

    A turn changes few stacks: the mover's (a stop or a herd) and those it claims from or swaps with
    (R7, R12). The engine shares every unchanged stack tuple between a state and the next, so a stack
    that ``is`` the root's has the root's counts, and only the animals whose counts changed have their
    tile shares recomputed.
    """

    __slots__ = ("_base", "_columns", "_exposures", "_in_play", "_me", "_root", "_rows", "_ruleset", "_turns")

    def __init__(
        self, ruleset: Ruleset, stacks: tuple[tuple[Animal, ...], ...], me: int, mover: int | None = None
    ) -> None:
        self._ruleset = ruleset
        self._root = stacks
        self._me = me
        self._exposures: dict[tuple[object, ...], float] = {}
        n = len(stacks)
        self._in_play = ruleset.animals if ruleset.bonus_tiles else ()
        self._rows = [self._row(stack) for stack in stacks]
        # R7: a top is exposed to the opponents who play before its owner plays again; ``mover`` plays
        # next (by default the seat after ``me``: the positions where ``me`` has just ended its turn).
        first = (me + 1) % n if mover is None else mover
        self._turns = [(seat - first) % n for seat in range(n)]
        base = [float(len(stack)) for stack in stacks]  # R17: a point per token
        columns: list[tuple[int, ...]] = [()] * len(ANIMALS)
        counts = ruleset.counts
        values = ruleset.bonus_values
        for animal in self._in_play:
            column = tuple([row[animal] for row in self._rows])
            columns[animal] = column
            shares = _shares(column, counts[animal] - sum(column))
            value = values[animal]
            for seat in range(n):
                base[seat] += value * shares[seat]  # R16, R17: the tile's value, by the chance of holding it
        self._base = base
        self._columns = columns

    def _row(self, stack: tuple[Animal, ...]) -> list[int]:
        row = [0] * len(ANIMALS)
        for animal in self._in_play:
            row[animal] = stack.count(animal)
        return row

    def _points(self, stacks: tuple[tuple[Animal, ...], ...]) -> tuple[list[float], list[tuple[int, ...]]]:
        """Every seat's tokens plus its expected tiles, and the counts per animal by seat."""
        root = self._root
        points = self._base[:]
        columns = self._columns
        n = len(stacks)
        changed = [seat for seat in range(n) if stacks[seat] is not root[seat]]
        if not changed:
            return points, columns
        ruleset = self._ruleset
        counts = ruleset.counts
        values = ruleset.bonus_values
        columns = columns[:]
        moved: set[Animal] = set()
        rows: dict[int, list[int]] = {}
        for seat in changed:
            points[seat] += len(stacks[seat]) - len(root[seat])
            row = self._row(stacks[seat])
            rows[seat] = row
            old = self._rows[seat]
            for animal in self._in_play:
                if row[animal] != old[animal]:
                    moved.add(animal)
        for animal in moved:
            before = columns[animal]
            column = list(before)
            for seat, row in rows.items():
                column[seat] = row[animal]
            after = tuple(column)
            columns[animal] = after
            old_shares = _shares(before, counts[animal] - sum(before))
            new_shares = _shares(after, counts[animal] - sum(after))
            value = values[animal]
            for seat in range(n):
                points[seat] += value * (new_shares[seat] - old_shares[seat])
        return points, columns

    def _exposure(
        self, seat: int, stack: tuple[Animal, ...], bag: tuple[int, ...], in_bag: int, columns: list[tuple[int, ...]]
    ) -> float:
        """What ``seat`` expects to lose from its top before it plays again (R7), ``stack`` not empty."""
        turns = self._turns[seat]
        top = stack[-1]
        if not turns or not bag[top]:
            return 0.0
        key: tuple[object, ...] | None = None
        if stack is self._root[seat]:
            # A stack the search has not touched loses the same for the same bag and the same counts.
            key = (seat, bag[top], in_bag, columns[top])
            cached = self._exposures.get(key)
            if cached is not None:
                return cached
        risk = 1.0 - math.pow(1.0 - bag[top] / in_bag, _DRAWS_PER_TURN * turns)
        run = 1
        height = len(stack)
        while run < height and stack[-1 - run] is top:
            run += 1  # R7: claims chain down a run of the same animal
        loss = float(run)
        if self._in_play:
            column = columns[top]
            lower = list(column)
            lower[seat] -= run
            left = self._ruleset.counts[top] - sum(column)
            before = _shares(column, left)[seat]
            after = _shares(tuple(lower), left + run)[seat]
            loss += self._ruleset.bonus_values[top] * (before - after)
        if key is not None:
            self._exposures[key] = risk * loss
        return risk * loss

    def value(self, stacks: tuple[tuple[Animal, ...], ...], bag: tuple[int, ...]) -> float:
        """The position value for the root's player, of ``stacks`` (reached from the root's) and ``bag``."""
        points, columns = self._points(stacks)
        in_bag = sum(bag)
        if in_bag:
            for seat, stack in enumerate(stacks):
                if stack:
                    points[seat] -= self._exposure(seat, stack, bag, in_bag, columns)
        me = self._me
        mine = points[me]
        return mine - _strongest(points, me)

    def best_stack(
        self, stacks: list[tuple[Animal, ...]], options: list[tuple[Animal, ...]], bag: tuple[int, ...]
    ) -> tuple[int, float]:
        """The best of ``options`` for the root player's stack (the same tokens in different orders), and its value."""
        me = self._me
        stacks[me] = options[0]
        points, columns = self._points(tuple(stacks))
        in_bag = sum(bag)
        if in_bag:
            for seat, stack in enumerate(stacks):
                if stack and seat != me:
                    points[seat] -= self._exposure(seat, stack, bag, in_bag, columns)
        mine = points[me]
        lead = mine - _strongest(points, me)
        if not in_bag:
            return 0, lead
        best, best_value = 0, -math.inf
        for i, option in enumerate(options):
            value = lead - self._exposure(me, option, bag, in_bag, columns)
            if value > best_value:
                best, best_value = i, value
        return best, best_value


def position_value(state: GameState, seat: int) -> float:
    """How far ``seat`` leads its strongest opponent, by the expectimax bot's estimate of the final scores.

    Each seat is credited with a point per stacked token (R17) and, for each animal, the bonus tile's
    value times an estimate of its chance of holding the majority (R16): certain once every token of
    the animal is stacked (nothing for a tie), and otherwise a share that grows with the seat's lead
    and shrinks with the tokens still in the bag or in front. Then each stack's top is charged for the
    chance that an opponent draws its animal before the seat plays again and claims it, with any run
    of the same animal under it (R7): the chance comes from the bag, and ``seat`` is taken to have just
    ended its turn, so its top faces every opponent's turn. The value is the seat's estimate minus the
    highest of the others'. Tokens in front are not counted: call it on a state between turns.

    Args:
        state: Any state; only its stacks, bag and rule set are read.
        seat: The seat to value the position for.

    Raises:
        InvalidValueError: If ``seat`` is not one of the state's seats.

    >>> from cheekymonkey import new_game
    >>> position_value(new_game(2), 0)
    0.0
    """
    if not is_whole_number(seat) or not 0 <= seat < len(state.stacks):
        raise InvalidValueError(f"seat {seat!r} is not one of the {len(state.stacks)} seats")
    return _Evaluator(state.ruleset, state.stacks, seat).value(state.stacks, state.bag)
