"""The heuristic bot: a push-your-luck player with a risk threshold."""

from __future__ import annotations

import random

from cheekymonkey.cheeky.actions import DRAW, HERD, PLACES, STOP, Action, Claim, Swap
from cheekymonkey.cheeky.engine import bust_probability, legal_actions
from cheekymonkey.cheeky.rules import ANIMALS
from cheekymonkey.cheeky.state import GameState, Phase, all_one_animal
from cheekymonkey.errors import InvalidValueError

__all__ = ["HeuristicBot"]


def _placing_order_choice(state: GameState) -> Action:
    # R9: the last token put down is the one exposed to claims and swaps. Put down first the animal
    # most likely to be drawn next (most left in the bag), so the top is the one least likely to be claimed.
    bag = state.bag
    front = state.front
    best = max((a for a in ANIMALS if a in front), key=lambda a: (bag[a], -a))
    return PLACES[best]


def _stop_action(state: GameState) -> Action:
    # R10: a herd goes to the bottom, out of reach of claims and swaps, so it is never worse than a stop.
    return HERD if all_one_animal(state.front) else STOP


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

    def __init__(self, risk: object = 0.3) -> None:
        # Typed object, checked here: compiled (mypyc), a float parameter would refuse a string with a bare
        # TypeError on entry instead of this error.
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
