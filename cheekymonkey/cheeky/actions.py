"""Actions: small frozen values, one per kind of move, whose repr is the call that builds them.

One rule for what they accept: an animal is an :class:`~cheekymonkey.Animal`, its number 0-7 or its
name in any case (:meth:`~cheekymonkey.Animal.parse`), and a seat is a whole number 0 or more (whether
the game has that seat is checked by :func:`~cheekymonkey.apply`, which names the seats it has). An enum of
another kind is a mistake, not a number: ``Claim(Animal.SEAL)`` and ``Place(Phase.DECIDE)`` are refused.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar, Final, TypeAlias

from cheekymonkey._values import ActionField, BaseAction
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


_ANIMAL: Final = ActionField(Animal, _animal)
_SEAT: Final = ActionField(int, _seat)

# The actions are plain classes, so that mypyc compiles them natively (a field read is one load); their
# frozen, value behaviour comes from BaseAction, with attrs' view of their fields (attrs.fields, attrs.asdict
# and cattrs work as for the attrs classes they were). Each constructor names its fields, typed as the checks
# take them, so that mypy checks every call, and leaves the work to the base.


class Draw(BaseAction):
    """Draw another token from the bag (R5, R8). The state becomes a chance node."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class Reveal(BaseAction):
    """The chance outcome of a draw: the token that came out of the bag shows ``animal`` (R5)."""

    __slots__ = ("animal",)
    __match_args__: ClassVar = ("animal",)
    _fields: ClassVar = (_ANIMAL,)

    animal: Animal
    """The animal drawn."""

    def __init__(self, animal: object) -> None:
        super().__init__(animal)


class Claim(BaseAction):
    """Claim the top token of ``seat``'s stack, which shows the animal just drawn (R7)."""

    __slots__ = ("seat",)
    __match_args__: ClassVar = ("seat",)
    _fields: ClassVar = (_SEAT,)

    seat: int
    """The opponent whose top token is claimed."""

    def __init__(self, seat: object) -> None:
        super().__init__(seat)


class Swap(BaseAction):
    """Give the monkey just drawn to ``seat`` and take that seat's top token (R11, R12)."""

    __slots__ = ("seat",)
    __match_args__: ClassVar = ("seat",)
    _fields: ClassVar = (_SEAT,)

    seat: int
    """The opponent swapped with."""

    def __init__(self, seat: object) -> None:
        super().__init__(seat)


class Stop(BaseAction):
    """End the turn by putting the tokens in front on the stack (R9); the order is chosen next."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class Place(BaseAction):
    """While stopping, put one token showing ``animal`` from the front on top of the stack (R9)."""

    __slots__ = ("animal",)
    __match_args__: ClassVar = ("animal",)
    _fields: ClassVar = (_ANIMAL,)

    animal: Animal
    """The animal put down."""

    def __init__(self, animal: object) -> None:
        super().__init__(animal)


class Herd(BaseAction):
    """Put the tokens in front, all of one animal, at the bottom of the stack and end the turn (R10)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


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
