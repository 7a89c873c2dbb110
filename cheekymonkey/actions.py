"""Actions: small frozen values, one per kind of move, whose repr is the call that builds them.

One rule for what they accept: an animal is an :class:`~cheekymonkey.Animal`, its number 0-7 or its
name in any case (:meth:`~cheekymonkey.Animal.parse`), and a seat is a whole number 0 or more (whether
the game has that seat is checked by :func:`~cheekymonkey.apply`, which names the seats it has).
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.rules import ANIMALS, MAX_PLAYERS, Animal

__all__ = ["Action", "Claim", "Draw", "Herd", "Place", "Reveal", "Stop", "Swap"]


def _animal(value: object) -> Animal:
    # One rule for every animal field: an Animal, its number 0-7, or its name in any case (Animal.parse).
    return Animal.parse(value)


def _seat(value: object) -> int:
    # Any seat number is a value; whether the game has that seat is checked when the action is applied,
    # where the error can name the game's seats (R3).
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidValueError(f"{value!r} is not a seat number: a seat is an integer, 0 for the first seat")
    return value


@attrs.frozen(slots=True, repr=False)
class Draw:
    """Draw another token from the bag (R5, R8). The state becomes a chance node."""

    def __repr__(self) -> str:
        return "Draw()"


@attrs.frozen(slots=True, repr=False)
class Reveal:
    """The chance outcome of a draw: the token that came out of the bag shows ``animal`` (R5)."""

    animal: Animal = attrs.field(converter=_animal)
    """The animal drawn."""

    def __repr__(self) -> str:
        return f"Reveal({self.animal!r})"


@attrs.frozen(slots=True, repr=False)
class Claim:
    """Claim the top token of ``seat``'s stack, which shows the animal just drawn (R7)."""

    seat: int = attrs.field(converter=_seat)
    """The opponent whose top token is claimed."""

    def __repr__(self) -> str:
        return f"Claim({self.seat})"


@attrs.frozen(slots=True, repr=False)
class Swap:
    """Give the monkey just drawn to ``seat`` and take that seat's top token (R11, R12)."""

    seat: int = attrs.field(converter=_seat)
    """The opponent swapped with."""

    def __repr__(self) -> str:
        return f"Swap({self.seat})"


@attrs.frozen(slots=True, repr=False)
class Stop:
    """End the turn by putting the tokens in front on the stack (R9); the order is chosen next."""

    def __repr__(self) -> str:
        return "Stop()"


@attrs.frozen(slots=True, repr=False)
class Place:
    """While stopping, put one token showing ``animal`` from the front on top of the stack (R9)."""

    animal: Animal = attrs.field(converter=_animal)
    """The animal put down."""

    def __repr__(self) -> str:
        return f"Place({self.animal!r})"


@attrs.frozen(slots=True, repr=False)
class Herd:
    """Put the tokens in front, all of one animal, at the bottom of the stack and end the turn (R10)."""

    def __repr__(self) -> str:
        return "Herd()"


Action: TypeAlias = Draw | Reveal | Claim | Swap | Stop | Place | Herd
"""Any action: a player's move or a chance outcome."""

# Shared instances: legal_actions hands these out instead of building new values.
DRAW: Final = Draw()
STOP: Final = Stop()
HERD: Final = Herd()
REVEALS: Final = tuple(Reveal(a) for a in ANIMALS)
PLACES: Final = tuple(Place(a) for a in ANIMALS)
CLAIMS: Final = tuple(Claim(s) for s in range(MAX_PLAYERS))
SWAPS: Final = tuple(Swap(s) for s in range(MAX_PLAYERS))
