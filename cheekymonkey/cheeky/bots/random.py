"""The random bot: a uniform choice among the legal actions, leaving out a draw that must bust (R22)."""

from __future__ import annotations

import random

from cheekymonkey.cheeky.actions import Action, Draw
from cheekymonkey.cheeky.engine import legal_actions
from cheekymonkey.cheeky.rules import ANIMALS
from cheekymonkey.cheeky.state import GameState

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among the legal actions, but never a draw that must bust.

    So it stops with positive probability, and never draws when every token left in the bag would bust
    it, as R22 asks.
    """

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return a legal action chosen uniformly with ``rng``, leaving out a draw that must bust (R22)."""
        actions = legal_actions(state)
        if actions[0].__class__ is Draw:
            bag = state.bag
            front = state.front
            for animal in ANIMALS:
                if bag[animal] and animal not in front:
                    break
            else:
                # R22: every token left in the bag matches one in front, so drawing is a certain bust.
                actions = actions[1:]
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomBot()"
