"""The cards of *Too Many Monkeys* (TM1), and how a row position holds one.

Twelve kinds of card: the numbered monkeys 1 to 6, the wild monkey, and five other special cards. A row
position holds one card in one of three ways (TM3, TM15, TM19):

- face up: the :class:`Card` itself;
- face down and known to everybody, because a Do Not Disturb turned it down: :class:`FaceDown`;
- face down and never seen: ``None``. The engine deals lazily (TM19), so such a card has no identity
  until it is turned up.

>>> Card.THREE, Card.THREE.number, str(Card.WILD), Card.parse("dnd")
(Card.THREE, 3, 'wild', Card.DO_NOT_DISTURB)
>>> FaceDown(Card.FOUR)
FaceDown(Card.FOUR)
"""

from __future__ import annotations

from typing import ClassVar, Final, TypeAlias

from attrs import NOTHING

from cheekymonkey._values import Frozen, ValueEnum, attrs_view
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError

__all__ = ["CARDS", "MAX_NUMBER", "NUMBERS", "Card", "FaceDown", "Slot", "face_down"]


class Card(ValueEnum):
    """A kind of card (TM1). The numbered monkeys are worth their number: ``Card.THREE == 3``.

    Every card that is not a number is *special*, the wild monkey included (TM1): special cards are never
    taken from the discard pile.
    """

    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    WILD = 7
    SKIP = 8
    ELEPHANT = 9
    GIRAFFE = 10
    RACCOON = 11
    DO_NOT_DISTURB = 12

    def __str__(self) -> str:
        # What a person reads: "3", "wild", "Skip", "Do Not Disturb".
        return _WORDS[self.value - 1]

    @property
    def number(self) -> int | None:
        """The number of a numbered monkey (1 to 6), None for a special card."""
        return self.value if self.value <= MAX_NUMBER else None

    @property
    def is_number(self) -> bool:
        """Whether this is a numbered monkey (TM1)."""
        return self.value <= MAX_NUMBER

    @property
    def label(self) -> str:
        """The card's name for people: ``"3"``, ``"wild"``, ``"Skip"`` (the same as ``str(card)``)."""
        return _WORDS[self.value - 1]

    @property
    def code(self) -> str:
        """The card's short code on the board and in the notation: ``"3"``, ``"W"``, ``"S"``, ``"D"``."""
        return _CODES[self.value - 1]

    @classmethod
    def parse(cls, value: object) -> Card:
        """The card ``value`` stands for: a :class:`Card`, a number 1 to 6, or a name or code in any case.

        Names are the members' (``"three"``, ``"do_not_disturb"``), the words of :attr:`label` (``"Do Not
        Disturb"``), the codes of :attr:`code` (``"w"``), ``"dnd"``, and the digits ``"1"`` to ``"6"``.

        Raises:
            InvalidValueError: If ``value`` is none of these.

        >>> Card.parse(2), Card.parse("w"), Card.parse("Raccoon"), Card.parse("do not disturb")
        (Card.TWO, Card.WILD, Card.RACCOON, Card.DO_NOT_DISTURB)
        """
        if isinstance(value, cls):
            return value
        if is_whole_number(value) and 1 <= value <= MAX_NUMBER:
            return CARDS[value - 1]
        if isinstance(value, str):
            found = _BY_NAME.get(" ".join(value.strip().lower().replace("_", " ").split()))
            if found is not None:
                return found
        names = ", ".join(card.label for card in CARDS)
        raise InvalidValueError(f"{value!r} is not a card: give a Card, a number 1 to 6, or a name ({names})")


MAX_NUMBER: Final = 6
"""The highest numbered monkey, and so the longest row (TM1, TM24)."""

CARDS: Final[tuple[Card, ...]] = tuple(Card)
"""Every kind of card, in :class:`Card` order: the order of every per-kind tuple of counts."""

NUMBERS: Final[tuple[Card, ...]] = CARDS[:MAX_NUMBER]
"""The numbered monkeys, 1 to 6."""

_WORDS: Final = ("1", "2", "3", "4", "5", "6", "wild", "Skip", "elephant", "giraffe", "raccoon", "Do Not Disturb")
_CODES: Final = ("1", "2", "3", "4", "5", "6", "W", "S", "E", "G", "R", "D")
_BY_NAME: Final[dict[str, Card]] = {
    **{card.name.lower().replace("_", " "): card for card in CARDS},
    **{word.lower(): card for word, card in zip(_WORDS, CARDS, strict=True)},
    **{code.lower(): card for code, card in zip(_CODES, CARDS, strict=True)},
    "wild monkey": Card.WILD,
    "dnd": Card.DO_NOT_DISTURB,
}


class FaceDown(Frozen):
    """A card lying face down in a row whose identity everybody knows (TM15).

    Only a Do Not Disturb makes one: it turns a face-up card (a number at its own position, or a wild) face
    down in its place. When its owner later turns that position up, the card comes into hand with no draw
    of chance (TM19). The engine shares one instance per card (:func:`face_down`).
    """

    __slots__ = ("card",)
    __match_args__: ClassVar = ("card",)

    card: Card
    """The card lying face down."""

    def __init__(self, card: object) -> None:
        # Typed object: compiled, a Card annotation would refuse anything else with a bare TypeError.
        parsed = Card.parse(card)
        if parsed is not Card.WILD and not parsed.is_number:
            raise InvalidValueError(f"only a number or a wild is ever turned face down in a row (TM15), not {parsed!r}")
        object.__setattr__(self, "card", parsed)

    def _values(self) -> tuple[object, ...]:
        return (self.card,)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not FaceDown:
            return NotImplemented
        that: FaceDown = other
        return self.card is that.card

    def __hash__(self) -> int:
        return hash((FaceDown, self.card))

    def __repr__(self) -> str:
        return f"FaceDown({self.card!r})"


attrs_view(FaceDown, [("card", Card, NOTHING)])

_FACE_DOWN: Final = tuple(FaceDown(card) for card in (*NUMBERS, Card.WILD))


def face_down(card: Card) -> FaceDown:
    """The shared :class:`FaceDown` of a number or a wild (the engine's rows hold these instances).

    >>> face_down(Card.TWO) is face_down(Card.TWO)
    True
    """
    # The wild's value (7) follows the six numbers, as its FaceDown follows theirs in _FACE_DOWN.
    return _FACE_DOWN[card.value - 1]


Slot: TypeAlias = Card | FaceDown | None
"""What a row position holds: a face-up :class:`Card`, a known :class:`FaceDown` card, or ``None`` for a
face-down card nobody has seen."""
