"""Actions: small frozen values, one per kind of move, whose repr is the call that builds them.

One rule for what they accept: an animal is an :class:`~cheekymonkey.Animal`, its number 0-7 or its
name in any case (:meth:`~cheekymonkey.Animal.parse`), and a seat is a whole number 0 or more (whether
the game has that seat is checked by :func:`~cheekymonkey.apply`, which names the seats it has). An enum of
another kind is a mistake, not a number: ``Claim(Animal.SEAL)`` and ``Place(Phase.DECIDE)`` are refused.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar, Final, TypeAlias

import attrs

from cheekymonkey._values import Frozen, attrs_view
from cheekymonkey.cheeky.rules import ANIMALS, MAX_PLAYERS, Animal
from cheekymonkey.errors import InvalidValueError

__all__ = ["Action", "Claim", "Draw", "Herd", "Place", "Reveal", "Stop", "Swap"]


def _animal(value: object) -> Animal:
    # One rule for every animal field: an Animal, its number 0-7, or its name in any case (Animal.parse).
    # The public constructors alone run this; the engine hands out the shared actions built below.
    if isinstance(value, Animal):
        return value
    if isinstance(value, Enum):
        # Phase.DECIDE is the number 1, but it is no Seal: an enum of another kind is a mistake.
        raise InvalidValueError(f"{value!r} is not an Animal: give an Animal, its number 0 to 7, or its name")
    return Animal.parse(value)


def _seat(value: object) -> int:
    # Any seat number is a value; whether the game has that seat is checked when the action is applied,
    # where the error can name the game's seats (R3). An enum (Animal.SEAL is the number 1) is not a seat.
    if isinstance(value, (bool, Enum)) or not isinstance(value, int) or value < 0:
        raise InvalidValueError(f"{value!r} is not a seat number: a seat is an integer, 0 for the first seat")
    return value


class _Fieldless(Frozen):
    """An action without fields: all of one class are equal."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__

    def __hash__(self) -> int:
        return hash(self.__class__.__name__)

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (self.__class__, ())

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Draw(_Fieldless):
    """Draw another token from the bag (R5, R8). The state becomes a chance node."""

    __slots__ = ()


class Reveal(Frozen):
    """The chance outcome of a draw: the token that came out of the bag shows ``animal`` (R5)."""

    __slots__ = ("animal",)
    __match_args__: ClassVar = ("animal",)

    animal: Animal
    """The animal drawn."""

    def __init__(self, animal: object) -> None:
        object.__setattr__(self, "animal", _animal(animal))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Reveal and self.animal == other.animal

    def __hash__(self) -> int:
        return hash(("Reveal", self.animal))

    def __reduce__(self) -> tuple[type, tuple[Animal]]:
        return (Reveal, (self.animal,))

    def __repr__(self) -> str:
        return f"Reveal({self.animal!r})"


class Claim(Frozen):
    """Claim the top token of ``seat``'s stack, which shows the animal just drawn (R7)."""

    __slots__ = ("seat",)
    __match_args__: ClassVar = ("seat",)

    seat: int
    """The opponent whose top token is claimed."""

    def __init__(self, seat: object) -> None:
        object.__setattr__(self, "seat", _seat(seat))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Claim and self.seat == other.seat

    def __hash__(self) -> int:
        return hash(("Claim", self.seat))

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Claim, (self.seat,))

    def __repr__(self) -> str:
        return f"Claim({self.seat})"


class Swap(Frozen):
    """Give the monkey just drawn to ``seat`` and take that seat's top token (R11, R12)."""

    __slots__ = ("seat",)
    __match_args__: ClassVar = ("seat",)

    seat: int
    """The opponent swapped with."""

    def __init__(self, seat: object) -> None:
        object.__setattr__(self, "seat", _seat(seat))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Swap and self.seat == other.seat

    def __hash__(self) -> int:
        return hash(("Swap", self.seat))

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Swap, (self.seat,))

    def __repr__(self) -> str:
        return f"Swap({self.seat})"


class Stop(_Fieldless):
    """End the turn by putting the tokens in front on the stack (R9); the order is chosen next."""

    __slots__ = ()


class Place(Frozen):
    """While stopping, put one token showing ``animal`` from the front on top of the stack (R9)."""

    __slots__ = ("animal",)
    __match_args__: ClassVar = ("animal",)

    animal: Animal
    """The animal put down."""

    def __init__(self, animal: object) -> None:
        object.__setattr__(self, "animal", _animal(animal))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Place and self.animal == other.animal

    def __hash__(self) -> int:
        return hash(("Place", self.animal))

    def __reduce__(self) -> tuple[type, tuple[Animal]]:
        return (Place, (self.animal,))

    def __repr__(self) -> str:
        return f"Place({self.animal!r})"


class Herd(_Fieldless):
    """Put the tokens in front, all of one animal, at the bottom of the stack and end the turn (R10)."""

    __slots__ = ()


# The actions are plain classes, so that mypyc compiles them natively (a field read is one load); their
# frozen, value behaviour is written above, and attrs' view of their fields keeps attrs.fields,
# attrs.asdict and cattrs working as for the attrs classes they were.
attrs_view(Draw, [])
attrs_view(Stop, [])
attrs_view(Herd, [])
attrs_view(Reveal, [("animal", Animal, attrs.NOTHING)])
attrs_view(Place, [("animal", Animal, attrs.NOTHING)])
attrs_view(Claim, [("seat", int, attrs.NOTHING)])
attrs_view(Swap, [("seat", int, attrs.NOTHING)])


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
