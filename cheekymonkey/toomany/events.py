"""Events: what an action did, in order, as typed values a front end can animate or narrate.

One action can do much: a number placed uncovers a known card that is placed in turn, the turn ends, the
next seat's turn is skipped, the discard pile is reshuffled. :func:`~cheekymonkey.toomany.apply_with_events`
returns every step as an event, in the order it happened. The engine makes the same moves with or without
events; only :func:`~cheekymonkey.toomany.apply_with_events` writes them down.

>>> from cheekymonkey.toomany import Card, Reveal, apply_with_events, new_game
>>> apply_with_events(new_game(2), Reveal(Card.GIRAFFE))[1]
(Drew(seat=0, card=Card.GIRAFFE), Discarded(seat=0, card=Card.GIRAFFE, reason=Reason.ENDS_TURN))
"""

from __future__ import annotations

import enum
from typing import TypeAlias

import attrs

from cheekymonkey.toomany.cards import Card

__all__ = [
    "BonusTaken",
    "Discarded",
    "Drew",
    "Event",
    "GameWon",
    "RaccoonTook",
    "Reason",
    "Reshuffled",
    "RoundStarted",
    "RoundWon",
    "SkipGiven",
    "Skipped",
    "TookDiscard",
    "TurnedDown",
    "TurnedUp",
    "Uncovered",
    "WildPlaced",
]


class Reason(enum.Enum):
    """Why a card went onto the discard pile."""

    DUPLICATE = "duplicate"
    """A number already face up in the row (TM9)."""
    TOO_HIGH = "too high"
    """A number greater than the row size (TM9)."""
    ENDS_TURN = "ends the turn"
    """A giraffe or an elephant (TM13)."""
    PLAYED = "played"
    """A raccoon, which goes onto the pile before it searches it (TM14), or a Do Not Disturb that turned a card
    down (TM15)."""
    DECLINED = "declined"
    """The player declined what the card offered: the wild bonus (TM12), the Do Not Disturb (TM15), the Skip
    (TM16)."""
    NO_TARGET = "no target"
    """A Do Not Disturb with no face-up card to turn down (TM15), or a Skip with no opponent free to take it
    (TM16, TM17)."""

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


@attrs.frozen(slots=True)
class Drew:
    """``seat`` drew ``card`` from the draw pile (TM6)."""

    seat: int
    """The seat that drew."""
    card: Card
    """The card drawn."""


@attrs.frozen(slots=True)
class TookDiscard:
    """``seat`` took ``card``, a number, from the top of the discard pile (TM6)."""

    seat: int
    """The seat that took it."""
    card: Card
    """The card taken."""


@attrs.frozen(slots=True)
class TurnedUp:
    """``seat`` put ``card``, a number, face up at its ``position``; the face-down card there came into hand (TM7).

    An :class:`Uncovered` event says what that card is, when it is known: at once for a card turned down by a
    Do Not Disturb, after chance's :class:`~cheekymonkey.toomany.Reveal` for a card never seen. A card picked up
    as the round is won is not played, and stays unseen (TM21).
    """

    seat: int
    """The seat whose row it is."""
    card: Card
    """The number placed."""
    position: int
    """Its position, the same as its number."""


@attrs.frozen(slots=True)
class WildPlaced:
    """``seat`` put the wild face up at face-down ``position``; the card there came into hand (TM11)."""

    seat: int
    """The seat whose row it is."""
    position: int
    """The position chosen (or the only one left)."""


@attrs.frozen(slots=True)
class BonusTaken:
    """``seat`` put ``card`` at its position in place of the wild there, and took the wild into hand (TM12)."""

    seat: int
    """The seat whose row it is."""
    card: Card
    """The number placed; its position is its number."""


@attrs.frozen(slots=True)
class Uncovered:
    """The card ``seat`` just picked up from its row is ``card`` (TM7, TM19)."""

    seat: int
    """The seat holding it."""
    card: Card
    """The card."""


@attrs.frozen(slots=True)
class RaccoonTook:
    """``seat``'s raccoon took ``card`` from the discard pile, to place it (TM14); None: nothing, and the turn ended."""

    seat: int
    """The seat that played the raccoon."""
    card: Card | None
    """The number taken, or None."""


@attrs.frozen(slots=True)
class TurnedDown:
    """``seat``'s Do Not Disturb turned ``card`` at ``target``'s ``position`` face down (TM15)."""

    seat: int
    """The seat that played the Do Not Disturb."""
    target: int
    """The opponent whose card was turned down."""
    position: int
    """The card's position in their row."""
    card: Card
    """The card, known to everybody."""


@attrs.frozen(slots=True)
class SkipGiven:
    """``seat`` put a Skip in front of ``target``, whose next turn is skipped (TM16)."""

    seat: int
    """The seat that played the Skip."""
    target: int
    """The opponent given it."""


@attrs.frozen(slots=True)
class Skipped:
    """``seat``'s turn was skipped, and its Skip went onto the discard pile (TM16)."""

    seat: int
    """The seat skipped."""


@attrs.frozen(slots=True)
class Discarded:
    """``seat`` put ``card`` face up onto the discard pile, for ``reason``."""

    seat: int
    """The seat that discarded."""
    card: Card
    """The card."""
    reason: Reason
    """Why."""


@attrs.frozen(slots=True)
class Reshuffled:
    """The discard pile, ``cards`` cards, was shuffled into a new draw pile (TM20)."""

    cards: int
    """How many cards the new draw pile holds."""


@attrs.frozen(slots=True)
class RoundWon:
    """``seat`` turned the last card of its row face up and won round ``round`` (TM21)."""

    seat: int
    """The winner of the round."""
    round: int
    """The round won."""


@attrs.frozen(slots=True)
class RoundStarted:
    """Round ``round`` began: all the cards were shuffled and new rows of ``row_sizes`` dealt (TM22, TM5)."""

    round: int
    """The new round."""
    first_seat: int
    """The seat that begins it."""
    row_sizes: tuple[int, ...]
    """Each seat's row size."""


@attrs.frozen(slots=True)
class GameWon:
    """``seat`` turned its one card face up and won the game (TM23)."""

    seat: int
    """The winner."""


Event: TypeAlias = (
    Drew
    | TookDiscard
    | TurnedUp
    | WildPlaced
    | BonusTaken
    | Uncovered
    | RaccoonTook
    | TurnedDown
    | SkipGiven
    | Skipped
    | Discarded
    | Reshuffled
    | RoundWon
    | RoundStarted
    | GameWon
)
"""Any event."""
