"""The bot protocol of Too Many Monkeys, and what the bots read off a row."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from cheekymonkey._gc import paused_gc  # the same pause as Cheeky Monkey's search bots
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.cards import Card, Slot
from cheekymonkey.toomany.state import GameState

__all__ = ["Bot", "face_up_count", "paused_gc", "usable"]


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for the player to move in a Too Many Monkeys state.

    It is :class:`cheekymonkey.game.GameBot` for this game's states and actions.
    """

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return one of ``legal_actions(state)``; ``state`` is never a chance node nor the end."""
        ...


def usable(card: Card, row: tuple[Slot, ...]) -> bool:
    """Whether ``card`` makes progress in ``row``: a number whose position does not show it (TM7, TM12).

    Its position is face down (TM7), or holds a face-up wild, which the bonus swaps for it (TM12). A wild
    is always usable (TM11); every other special card ends the chain.
    """
    if card is Card.WILD:
        return True
    return card <= len(row) and card.is_number and row[card - 1] is not card


def face_up_count(row: tuple[Slot, ...]) -> int:
    """How many cards of ``row`` lie face up (numbers and wilds)."""
    return sum(1 for slot in row if slot.__class__ is Card)
