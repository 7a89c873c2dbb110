"""The random bot: a uniform choice among the legal actions, the baseline every other bot must beat.

>>> import random
>>> from cheekymonkey.toomany import Card, Reveal, apply, new_game
>>> RandomBot().choose(apply(new_game(2), Reveal(Card.SKIP)), random.Random(3))
GiveSkip(1)
"""

from __future__ import annotations

import random
from typing import Final

from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.engine import legal_actions
from cheekymonkey.toomany.state import GameState

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among the legal actions, with ``rng``: the baseline every other bot must beat."""

    kind: Final = "random"
    """The bot's kind, as :func:`~cheekymonkey.toomany.bot_named` knows it and records name it."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return a legal action chosen uniformly with ``rng``."""
        actions = legal_actions(state)
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomBot()"
