"""Leduc poker's state, a seat's view of it, and its events.

>>> from cheekymonkey_leduc import LEDUC
>>> state = LEDUC.new_game(2)
>>> state.cards, state.public, state.chips, state.seat
((None, None), None, (1, 1), None)
"""

from __future__ import annotations

import attrs

from cheekymonkey_leduc.actions import Bet
from cheekymonkey_leduc.rules import Rules

__all__ = ["Dealt", "LeducState", "LeducView", "Paid", "Placed", "Showdown"]


@attrs.frozen(slots=True)
class LeducState:
    """A moment of a game of Leduc poker, as a value: the engine builds a new one for every action."""

    rules: Rules
    """The rule set played."""
    first_player: int
    """The seat that acts first in each round (the first still in from it)."""
    cards: tuple[int | None, ...]
    """Each seat's private card, None until dealt (L3)."""
    public: int | None
    """The public card, None until dealt after the first round (L6)."""
    round: int
    """The betting round, 1 or 2."""
    betting: tuple[tuple[int, ...], tuple[int, ...]]
    """Each round's decisions in order, by index (0 fold, 1 call, 2 raise)."""
    chips: tuple[int, ...]
    """Each seat's chips in the pot."""
    folded: tuple[bool, ...]
    """Whether each seat has folded."""
    seat: int | None
    """The seat to act; None while chance deals and at the end."""
    raises: int
    """The raises made this round."""
    calls: int
    """The calls (and checks) made since the round's last raise."""
    over: bool
    """Whether the hand has ended: all but one seat folded, or the second round is done (L7)."""


@attrs.frozen(slots=True)
class LeducView:
    """What one seat (or a spectator) sees: its own card, the public card, the betting; hands only at a showdown."""

    round: int
    """The betting round, 1 or 2."""
    public: str
    """The public card, ``"-"`` before it is dealt."""
    hands: tuple[str, ...]
    """Each seat's card as this viewer sees it: ``"-"`` not dealt, ``"?"`` face down, else the card (L8)."""
    chips: tuple[int, ...]
    """Each seat's chips in the pot."""
    folded: tuple[bool, ...]
    """Whether each seat has folded."""
    betting: str
    """The betting so far, each round's decisions as letters (``f`` fold, ``c`` call, ``r`` raise)."""


@attrs.frozen(slots=True)
class Dealt:
    """Chance dealt a card: to ``seat`` (None: the public card), ``card`` None where the viewer sees its back."""

    seat: int | None
    """Whose card it is, None for the public card."""
    card: int | None
    """The card, or None: face down to this viewer."""


@attrs.frozen(slots=True)
class Placed:
    """A seat decided: ``bet``, putting ``chips`` more in the pot."""

    seat: int
    """The seat."""
    bet: Bet
    """Fold, call or raise."""
    chips: int
    """The chips the decision put in the pot (0 for a check or a fold)."""


@attrs.frozen(slots=True)
class Showdown:
    """The hands still in are turned up (L8); a folded hand stays face down, None here."""

    hands: tuple[int | None, ...]
    """Each seat's card, None for a seat that folded."""


@attrs.frozen(slots=True)
class Paid:
    """The hand is over: each seat's chips won (or lost, negative)."""

    returns: tuple[float, ...]
    """Each seat's chips won, in seat order; they add up to 0."""
