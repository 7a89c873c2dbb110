"""The bot protocol, and the garbage collector's pause that the searching bots of every game share."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from cheekymonkey._gc import paused_gc
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.state import GameState

__all__ = ["Bot", "paused_gc"]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for the player to move.

    A bot must stop with positive probability in every state (R22), or games may never end. It is
    :class:`cheekymonkey.game.GameBot` for Cheeky Monkey's states and actions.
    """

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return one of ``legal_actions(state)``; ``state`` is never a chance node."""
        ...
