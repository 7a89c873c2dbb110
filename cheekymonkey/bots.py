"""Bots beyond :class:`~cheekymonkey.RandomBot`: a push-your-luck heuristic and an exact expectimax player.

Both follow the :class:`~cheekymonkey.Bot` protocol (``choose(state, rng) -> action``) and both stop
with certainty once every token left in the bag would bust them, as R22 asks.

>>> from cheekymonkey import play_game
>>> game = play_game([ExpectimaxBot(), HeuristicBot()], seed=3)
>>> sum(game.score.totals) >= 52
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from cheekymonkey.actions import DRAW, HERD, PLACES, STOP, Action, Claim, Draw, Herd, Stop, Swap
from cheekymonkey.engine import apply, chance_outcomes, legal_actions
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.play import Bot, RandomBot
from cheekymonkey.rules import ANIMALS
from cheekymonkey.state import GameState, Phase

__all__ = ["BOTS", "Bot", "ExpectimaxBot", "HeuristicBot", "RandomBot", "bot_named", "bust_probability"]


def bust_probability(state: GameState) -> float:
    """The chance that drawing now busts the player to move (R5, R6): the share of the bag that matches the front.

    Args:
        state: A state whose player is deciding (or any state: the front and bag are read as they are).

    Returns:
        A probability from 0 to 1; 0 if the bag is empty (no draw is possible then).

    >>> from cheekymonkey import new_game, apply, Reveal, Animal
    >>> bust_probability(apply(new_game(2), Reveal(Animal.ELEPHANT)))  # 2 elephants left of 51 tokens
    0.0392156862745098
    """
    bag = state.bag
    total = sum(bag)
    if not total:
        return 0.0
    return sum(bag[a] for a in set(state.front)) / total


def _placing_order_choice(state: GameState) -> Action:
    # R9: the last token put down is the one exposed to claims and swaps. Put down first the animal
    # most likely to be drawn next (most left in the bag), so the top is the one least likely to be claimed.
    bag = state.bag
    front = state.front
    best = max((a for a in ANIMALS if a in front), key=lambda a: (bag[a], -a))
    return PLACES[best]


def _stop_action(state: GameState) -> Action:
    front = state.front
    # R10: a herd goes to the bottom, out of reach of claims and swaps, so it is never worse than a stop.
    if front.count(front[0]) == len(front):
        return HERD
    return STOP


class HeuristicBot:
    """A push-your-luck player: takes every claim, swaps for the most valuable top, stops at a risk threshold.

    While deciding it claims whenever it can (R7), otherwise swaps a drawn monkey for the opponent top
    with the highest bonus value (R12), otherwise draws again while the chance of busting is at most
    ``risk`` and stops (or secures a herd) once it is higher. When stopping it puts the animal least
    likely to be drawn next on top.

    Args:
        risk: The highest bust probability it will draw at, strictly between 0 and 1.

    Raises:
        InvalidValueError: If ``risk`` is not a number strictly between 0 and 1.
    """

    __slots__ = ("risk",)

    def __init__(self, risk: float = 0.3) -> None:
        if isinstance(risk, bool) or not isinstance(risk, int | float) or not 0 < risk < 1:
            raise InvalidValueError(f"risk must be a number strictly between 0 and 1, got {risk!r}")
        self.risk = float(risk)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the heuristic's action for the player to move (``rng`` is not used: it is deterministic)."""
        if state.phase is Phase.PLACING:
            return _placing_order_choice(state)
        actions = legal_actions(state)
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims:
            return claims[0]
        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps:
            values = state.ruleset.bonus_values
            return max(swaps, key=lambda s: (values[state.stacks[s.seat][-1]], -s.seat))
        if DRAW in actions and bust_probability(state) <= self.risk:
            return DRAW
        return _stop_action(state)

    def __repr__(self) -> str:
        return f"HeuristicBot(risk={self.risk!r})"


class ExpectimaxBot:
    """Maximises the expected number of tokens banked this turn, with the exact chance outcomes.

    At each decision it compares, for every legal action, the expected tokens it banks by the end of
    the turn when it then plays on optimally: stopping or securing a herd banks the tokens in front,
    a bust banks nothing (R6), claims and swaps change the front. A draw is averaged over
    :func:`~cheekymonkey.chance_outcomes`, the exact probabilities of R5 (no sampling). The search
    looks at most ``depth`` draws ahead; past that it stops. Values are memoised per state.

    Args:
        depth: How many draws ahead to look, 1 or more.

    Raises:
        InvalidValueError: If ``depth`` is not a positive integer.
    """

    __slots__ = ("_memo", "depth")

    def __init__(self, depth: int = 2) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidValueError(f"depth must be a positive integer, got {depth!r}")
        self.depth = depth
        self._memo: dict[tuple[object, ...], float] = {}

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the action with the highest expected tokens banked this turn (``rng`` is not used)."""
        if state.phase is Phase.PLACING:
            return _placing_order_choice(state)
        if len(self._memo) > 200_000:
            self._memo.clear()
        best: Action = _stop_action(state)
        best_value = float(len(state.front))
        for action in legal_actions(state):
            if isinstance(action, Stop | Herd):
                continue
            value = self._action_value(state, action, self.depth)
            # Ties go to stopping: the same expectation with no risk taken.
            if value > best_value + 1e-12:
                best, best_value = action, value
        return best

    def expected_banked(self, state: GameState) -> float:
        """The expected tokens banked this turn from a deciding ``state`` with optimal play to the bot's depth.

        Raises:
            InvalidValueError: If the player in ``state`` is not deciding (a chance node, placing, or the end).
        """
        if state.phase is not Phase.DECIDE:
            raise InvalidValueError(f"expected a deciding state, got one in phase {state.phase.name}")
        return self._value(state, self.depth)

    def _action_value(self, state: GameState, action: Action, depth: int) -> float:
        if isinstance(action, Draw):
            if depth == 0:
                return float("-inf")
            drawing = apply(state, action)
            total = 0.0
            for reveal, probability in chance_outcomes(drawing):
                after = apply(drawing, reveal)
                if after.phase is Phase.DECIDE and after.seat == state.seat:
                    total += float(probability) * self._value(after, depth - 1)
                # else: R6, a bust banks nothing this turn.
            return total
        if isinstance(action, Stop | Herd):
            return float(len(state.front))
        return self._value(apply(state, action), depth)

    def _value(self, state: GameState, depth: int) -> float:
        # The value does not depend on the order the tokens in front came in, so permutations share an entry.
        key = (state.seat, state.bag, tuple(sorted(state.front)), state.claimable, state.swap_open, state.stacks, depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        best = float(len(state.front))
        for action in legal_actions(state):
            if action is DRAW and depth == 0:
                continue
            if isinstance(action, Stop | Herd):
                continue
            value = self._action_value(state, action, depth)
            if value > best:
                best = value
        self._memo[key] = best
        return best

    def __repr__(self) -> str:
        return f"ExpectimaxBot(depth={self.depth!r})"


BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expectimax": ExpectimaxBot,
}
"""The bots by name, as the command line knows them: each entry builds a fresh bot."""


def bot_named(name: str) -> Bot:
    """A fresh bot of the kind called ``name``: one of :data:`BOTS`.

    Raises:
        InvalidValueError: If there is no bot of that name.
    """
    factory = BOTS.get(name)
    if factory is None:
        raise InvalidValueError(f"no bot named {name!r}; the bots are {', '.join(BOTS)}")
    return factory()
