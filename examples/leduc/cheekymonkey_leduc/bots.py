"""A bot for Leduc poker that plays on its own card and the public card only.

>>> import random
>>> from cheekymonkey_leduc import LEDUC, Deal
>>> state = LEDUC.apply(LEDUC.apply(LEDUC.new_game(2), Deal(5)), Deal(0))
>>> HeuristicBot().choose(state, random.Random(0))
Raise()
"""

from __future__ import annotations

import random

from cheekymonkey_leduc.actions import CALL, FOLD, RAISE, Action
from cheekymonkey_leduc.rules import rank_of
from cheekymonkey_leduc.state import LeducState

__all__ = ["HeuristicBot"]


class HeuristicBot:
    """Raise a pair or the top card, call a middle card, fold the lowest to a bet (and bluff one time in ten).

    It reads the seat's own card, the public card and the chips: what its seat sees. A table hands it a state
    resampled from its seat's information (:meth:`~cheekymonkey.Game.resample`), so it could read no more.
    """

    __slots__ = ()

    kind = "heuristic"
    """The bot's kind."""

    def choose(self, state: LeducState, rng: random.Random) -> Action:
        """A bet for the seat to act in ``state``."""
        seat = state.seat
        assert seat is not None, "a bot chooses only where a seat acts"
        card = state.cards[seat]
        assert card is not None
        top = len(state.cards)  # the highest rank: players + 1 ranks, from 0
        strength = rank_of(card)
        paired = state.public is not None and rank_of(state.public) == strength
        facing = state.chips[seat] < max(state.chips)
        can_raise = state.raises < state.rules.max_raises
        bluff = rng.random() < 0.1
        if (paired or strength == top or bluff) and can_raise:
            return RAISE
        if facing and strength == 0 and not paired:
            return FOLD
        return CALL

    def __repr__(self) -> str:
        return "HeuristicBot()"
