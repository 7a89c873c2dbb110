"""The expectimax bot: an exact search of the rest of its turn, valued by the position value.

>>> from cheekymonkey import play_game
>>> from cheekymonkey.cheeky.bots import HeuristicBot
>>> game = play_game([ExpectimaxBot(), HeuristicBot()], seed=3)
>>> sum(game.score.totals) >= 52
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.actions import DRAW, PLACES, REVEALS, Action, Claim, Draw, Herd, Stop, Swap
from cheekymonkey.cheeky.bots.base import paused_gc
from cheekymonkey.cheeky.bots.evaluation import _Evaluator
from cheekymonkey.cheeky.engine import apply, legal_actions
from cheekymonkey.cheeky.rules import ANIMALS, Animal
from cheekymonkey.cheeky.state import GameState, Phase
from cheekymonkey.errors import InvalidValueError

__all__ = ["ExpectimaxBot"]


def _stacking_key(bag: tuple[int, ...]) -> Callable[[Animal], tuple[int, int]]:
    # Lower in the stack go the animals most likely to be drawn next: they are the ones most often claimed.
    return lambda animal: (-bag[animal], animal)


def _best_stacking(state: GameState, evaluator: _Evaluator) -> tuple[tuple[Animal, ...], float]:
    """The placing order (bottom first) whose final stacks evaluate best for the player, and that value (R9).

    Each animal in front is tried on top; under it the others go most likely to be drawn first, and the
    top's own duplicates lowest, away from it, so that a claim cannot chain through them (R7).
    """
    front = state.front
    bag = state.bag
    seat = state.seat
    key = _stacking_key(bag)
    rest = sorted(front, key=key)
    stack = state.stacks[seat]
    orders: list[tuple[Animal, ...]] = []
    for top in sorted(set(front), key=key, reverse=True):
        others = [a for a in rest if a is not top]
        orders.append((*([top] * (front.count(top) - 1)), *others, top))
    best, value = evaluator.best_stack(list(state.stacks), [stack + order for order in orders], bag)
    return orders[best], value


def _herd_value(state: GameState, evaluator: _Evaluator) -> float:
    # R10: a herd goes under the stack, so the top (and its exposure) stays as it was.
    stacks = list(state.stacks)
    stacks[state.seat] = state.front + stacks[state.seat]
    return evaluator.value(tuple(stacks), state.bag)


def _placing_choice(state: GameState) -> Action:
    """While placing, the next token of the best-valued order (R9)."""
    order, _ = _best_stacking(state, _Evaluator(state.ruleset, state.stacks, state.seat))
    return PLACES[order[0]]


def _candidates(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The actions worth searching among ``actions``: Stop and Herd first, and one claim for all of them.

    A claim takes a token of the animal just drawn, which is already in front, so it leaves the bust
    odds as they were (R6), and its token is the opponent's loss whether the turn banks it or busts
    (R6: claimed tokens go back into the bag). So the search takes every claim open, one after another,
    in seat order (the chain ends in the same place in any order, R7); the only alternative it weighs
    is a swap (R11: claiming gives the swap up).
    """
    claims = [a for a in actions if isinstance(a, Claim)]
    if claims:
        swaps = [a for a in actions if isinstance(a, Swap)]
        return (claims[0], *swaps)
    if actions[0] is DRAW:
        return (*actions[1:], DRAW)
    return actions


class ExpectimaxBot:
    """Searches the rest of its turn exactly and values where each line ends with :func:`position_value`.

    At each decision it compares every legal action by the expected value of the position it leads to
    when it then plays on optimally: a draw is averaged over :func:`~cheekymonkey.chance_outcomes`, the
    exact probabilities of R5 (no sampling), so the bust odds are exact; claims and swaps move tokens
    between stacks and the front; stopping is valued with the best stacking order (R9), a herd with its
    tokens under the stack (R10), and a bust with the tokens back in the bag (R6). Positions where the
    turn ends are valued with :func:`position_value`: tiles at stake, exposed tops, the bag. The search
    looks at most ``depth`` draws ahead; past that it stops. Values are memoised per state.

    Args:
        depth: How many draws ahead to look, 1 or more.

    Raises:
        InvalidValueError: If ``depth`` is not a positive integer.
    """

    __slots__ = ("_memo", "depth")

    def __init__(self, depth: object = 2) -> None:
        # Typed object and checked here, as HeuristicBot's risk (a compiled int parameter raises TypeError).
        if not is_whole_number(depth) or depth < 1:
            raise InvalidValueError(f"depth must be a positive integer, got {depth!r}")
        self.depth = depth
        self._memo: dict[tuple[object, ...], float] = {}

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the action with the highest expected value (``rng`` is not used: it is deterministic)."""
        if state.phase is Phase.PLACING:
            return _placing_choice(state)
        candidates = _candidates(legal_actions(state))
        if len(candidates) == 1:
            return candidates[0]
        if len(self._memo) > 100_000:
            self._memo.clear()
        with paused_gc():
            evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
            best = candidates[0]
            best_value = -math.inf
            for action in candidates:
                value = self._action_value(state, action, self.depth, evaluator)
                # Ties go to the earlier candidate: stop and herd come before draws, so a draw must gain something.
                if value > best_value + 1e-12:
                    best, best_value = action, value
        return best

    def action_values(self, state: GameState) -> tuple[tuple[Action, float], ...]:
        """Every legal action in a deciding ``state`` with its expected value to the player, as the bot sees it.

        A value is a :func:`position_value` for the player to move, expected over the draws to come.
        Stop and Herd come first, so that a draw must be worth strictly more to be chosen.

        Raises:
            InvalidValueError: If the player in ``state`` is not deciding (a chance node, placing, or the end).
        """
        if state.phase is not Phase.DECIDE:
            raise InvalidValueError(f"expected a deciding state, got one in phase {state.phase.name}")
        # Values do not depend on where the search started, so the memo serves the rest of the turn too.
        if len(self._memo) > 100_000:
            self._memo.clear()
        evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
        actions = legal_actions(state)
        ordered = [a for a in actions if isinstance(a, Stop | Herd)] + [
            a for a in actions if not isinstance(a, Stop | Herd)
        ]
        return tuple((action, self._action_value(state, action, self.depth, evaluator)) for action in ordered)

    def _values_of(
        self,
        state: GameState,
        actions: tuple[Action, ...],
        *,
        depth: int | None = None,
        evaluator: _Evaluator | None = None,
    ) -> list[float]:
        """The values of ``actions``, legal in the deciding ``state``, looking ``depth`` draws ahead (default: own)."""
        if len(self._memo) > 100_000:
            self._memo.clear()
        if evaluator is None:
            evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
        depth = self.depth if depth is None else depth
        return [self._action_value(state, action, depth, evaluator) for action in actions]

    def _action_value(self, state: GameState, action: Action, depth: int, evaluator: _Evaluator) -> float:
        if isinstance(action, Draw):
            drawing = apply(state, action)
            bag = drawing.bag
            front = state.front
            value = 0.0
            busting = 0
            for animal in ANIMALS:
                count = bag[animal]
                if not count:
                    continue
                if animal in front:
                    busting += count
                else:
                    value += count * self._value(apply(drawing, REVEALS[animal]), depth - 1, evaluator)
            if busting:
                # R6: every busting draw leads to the same position: the front back in the bag, stacks as they were.
                returned = list(bag)
                for token in front:
                    returned[token] += 1
                value += busting * evaluator.value(state.stacks, tuple(returned))
            return value / sum(bag)  # R5: each token in the bag equally likely
        if isinstance(action, Stop):
            return _best_stacking(state, evaluator)[1]
        if isinstance(action, Herd):
            return _herd_value(state, evaluator)
        return self._value(apply(state, action), depth, evaluator)

    def _value(self, state: GameState, depth: int, evaluator: _Evaluator) -> float:
        # The value does not depend on the order the tokens in front came in, so permutations share an entry.
        key = (state.seat, state.bag, tuple(sorted(state.front)), state.claimable, state.swap_open, state.stacks, depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        best = -math.inf
        for action in _candidates(legal_actions(state)):
            if action is DRAW and depth == 0:
                continue  # past the horizon the search stops
            value = self._action_value(state, action, depth, evaluator)
            if value > best:
                best = value
        self._memo[key] = best
        return best

    def __repr__(self) -> str:
        return f"ExpectimaxBot(depth={self.depth!r})"
