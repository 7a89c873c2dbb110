"""Leduc poker's actions, numbered as OpenSpiel numbers them: fold 0, call 1, raise 2; chance deals a card.

>>> FOLD, CALL, RAISE, Deal(5)
(Fold(), Call(), Raise(), Deal(card=5))
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError

__all__ = ["CALL", "FOLD", "RAISE", "Action", "Bet", "Call", "Deal", "Fold", "Raise"]


@attrs.frozen
class Fold:
    """L5: give up the hand and every chip put in (only when facing a bet)."""


@attrs.frozen
class Call:
    """L5: match the bet (a check when there is nothing to match)."""


@attrs.frozen
class Raise:
    """L5: match the bet and raise it by the round's amount (while the round allows another raise)."""


def _card(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if not is_whole_number(value) or value < 0:
        raise InvalidValueError(f"{value!r} is not a card: cards are numbered from 0")


@attrs.frozen
class Deal:
    """Chance's outcome: the card dealt, by its index in the deck (L3)."""

    card: int = attrs.field(validator=_card)
    """The card's index: rank ``card // 2``, suit ``card % 2``."""


FOLD: Final = Fold()
"""The one :class:`Fold`."""
CALL: Final = Call()
"""The one :class:`Call`."""
RAISE: Final = Raise()
"""The one :class:`Raise`."""

Bet: TypeAlias = Fold | Call | Raise
"""A seat's decision."""
Action: TypeAlias = Fold | Call | Raise | Deal
"""Every action of Leduc poker, chance's included."""

BETS: Final[tuple[Bet, ...]] = (FOLD, CALL, RAISE)
"""The decisions in OpenSpiel's order: an action's index is its place here."""
