"""The bot protocol, and the garbage collector's pause that the searching bots share."""

from __future__ import annotations

import contextlib
import gc
import random
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

from cheekymonkey.actions import Action
from cheekymonkey.state import GameState

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


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a search, and restore it as it was (used by the search bots).

    A search makes many short-lived tuples, which trigger collections that scan everything the program
    holds: pauses of tens of milliseconds in the middle of a decision. Paused, the collection waits until
    the decision is made. Reference counting still frees memory as usual; the search makes no cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
