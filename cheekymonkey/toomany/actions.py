"""Actions: small frozen values, one kind per decision of the rules, whose repr is the call that builds them.

A player's decisions (TM6, TM11, TM12, TM14, TM15, TM16) and chance's outcomes (:class:`Reveal`, TM19). The
engine makes every forced move itself (TM18), so each of these is a real choice where it is legal.
Positions count from 1, as the rules do (TM3); seats from 0. Whether a game has the seat or the position
is checked by :func:`~cheekymonkey.toomany.apply`, which can name what it has.

>>> PlaceWild(3), TurnDown(1, 4), GiveSkip(2), RaccoonTake(5), Reveal("giraffe")
(PlaceWild(3), TurnDown(1, 4), GiveSkip(2), RaccoonTake(Card.FIVE), Reveal(Card.GIRAFFE))
"""

from __future__ import annotations

from typing import ClassVar, Final, TypeAlias

from cheekymonkey._values import ActionField, BaseAction
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, NUMBERS, Card
from cheekymonkey.toomany.rules import MAX_PLAYERS

__all__ = [
    "Action",
    "Decline",
    "Draw",
    "GiveSkip",
    "PlaceWild",
    "RaccoonTake",
    "Reveal",
    "TakeBonus",
    "TakeDiscard",
    "TurnDown",
]


def _seat(value: object) -> int:
    # TME8: an action is built only from values of its kind; anything else is an InvalidValueError.
    if value.__class__ is not int or value < 0:
        raise InvalidValueError(f"{value!r} is not a seat number: a seat is an integer, 0 for the first seat")
    return value


def _position(value: object) -> int:
    if value.__class__ is not int or value < 1:
        raise InvalidValueError(f"{value!r} is not a position: positions are integers from 1, the leftmost (TM3)")
    return value


def _raccoon_card(value: object) -> Card:
    card = Card.parse(value)
    if not card.is_number:
        raise InvalidValueError(f"the raccoon takes only numbered monkeys from the discard pile, not {card!r}")
    return card


_SEAT: Final = ActionField(int, _seat)
_POSITION: Final = ActionField(int, _position)


class Draw(BaseAction):
    """Begin the turn by drawing the top card of the draw pile (TM6); chance reveals it.

    From an empty draw pile, the discard pile is shuffled into a new one first (TM20).
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class TakeDiscard(BaseAction):
    """Begin the turn by taking the top card of the discard pile, a number the player can use (TM6)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class TakeBonus(BaseAction):
    """Put the number in hand on its position in place of the wild there, and take the wild (TM12)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class Decline(BaseAction):
    """Decline the choice offered, which ends the turn.

    The wild bonus (TM12), the raccoon's pick (TM14), the Do Not Disturb (TM15) or the Skip (TM16).
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()


class Reveal(BaseAction):
    """Chance's outcome: the card drawn, or the face-down card picked up from the row, shows ``card`` (TM19)."""

    __slots__ = ("card",)
    __match_args__: ClassVar = ("card",)
    _fields: ClassVar = (ActionField(Card, Card.parse),)

    card: Card
    """The card revealed."""

    def __init__(self, card: object) -> None:
        super().__init__(card)


class PlaceWild(BaseAction):
    """Put the wild in hand on face-down ``position`` of the row; the card there comes into hand (TM11)."""

    __slots__ = ("position",)
    __match_args__: ClassVar = ("position",)
    _fields: ClassVar = (_POSITION,)

    position: int
    """The position, from 1."""

    def __init__(self, position: object) -> None:
        super().__init__(position)


class RaccoonTake(BaseAction):
    """Let the raccoon take a ``card`` from the discard pile, to be placed at its position (TM14).

    If the pile holds several of that number, the one nearest the top is taken; the other cards keep their
    order.
    """

    __slots__ = ("card",)
    __match_args__: ClassVar = ("card",)
    _fields: ClassVar = (ActionField(Card, _raccoon_card),)

    card: Card
    """The number taken."""

    def __init__(self, card: object) -> None:
        super().__init__(card)


class TurnDown(BaseAction):
    """With the Do Not Disturb, turn the face-up card at ``position`` of ``seat``'s row face down (TM15)."""

    __slots__ = ("position", "seat")
    __match_args__: ClassVar = ("seat", "position")
    _fields: ClassVar = (_SEAT, _POSITION)

    seat: int
    """The opponent whose card is turned down."""
    position: int
    """The position of that card in their row, from 1."""

    def __init__(self, seat: object, position: object) -> None:
        super().__init__(seat, position)


class GiveSkip(BaseAction):
    """Put the Skip in front of opponent ``seat``, whose next turn is skipped (TM16)."""

    __slots__ = ("seat",)
    __match_args__: ClassVar = ("seat",)
    _fields: ClassVar = (_SEAT,)

    seat: int
    """The opponent given the Skip."""

    def __init__(self, seat: object) -> None:
        super().__init__(seat)


Action: TypeAlias = Draw | TakeDiscard | TakeBonus | Decline | Reveal | PlaceWild | RaccoonTake | TurnDown | GiveSkip
"""Any action: a player's decision, or chance's outcome (:class:`Reveal`)."""

ACTION_KINDS: Final[tuple[type, ...]] = (
    Draw,
    TakeDiscard,
    TakeBonus,
    Decline,
    Reveal,
    PlaceWild,
    RaccoonTake,
    TurnDown,
    GiveSkip,
)
"""Every action class."""

# Shared instances: legal_actions hands these out instead of building new values.
DRAW: Final = Draw()
TAKE_DISCARD: Final = TakeDiscard()
TAKE_BONUS: Final = TakeBonus()
DECLINE: Final = Decline()
REVEALS: Final = tuple(Reveal(card) for card in CARDS)
"""One Reveal per card, indexed by ``card - 1``."""
PLACE_WILDS: Final = tuple(PlaceWild(position) for position in range(1, MAX_NUMBER + 1))
"""One PlaceWild per position, indexed by ``position - 1``."""
RACCOON_TAKES: Final = tuple(RaccoonTake(card) for card in NUMBERS)
"""One RaccoonTake per number, indexed by ``number - 1``."""
TURN_DOWNS: Final = tuple(
    tuple(TurnDown(seat, position) for position in range(1, MAX_NUMBER + 1)) for seat in range(MAX_PLAYERS)
)
"""One TurnDown per seat and position, indexed ``[seat][position - 1]``."""
GIVE_SKIPS: Final = tuple(GiveSkip(seat) for seat in range(MAX_PLAYERS))
"""One GiveSkip per seat, indexed by seat."""
