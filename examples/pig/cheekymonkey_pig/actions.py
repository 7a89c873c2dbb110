"""Pig's actions: a player rolls or holds (P2); chance answers a roll with a face of the die (P3).

>>> ROLL, HOLD, Face(4)
(Roll(), Hold(), Face(face=4))
>>> Face(0)
Traceback (most recent call last):
...
cheekymonkey.errors.InvalidValueError: 0 is not a face of a die: faces are integers from 1
"""

from __future__ import annotations

from typing import Final, TypeAlias

import attrs
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError

__all__ = ["HOLD", "ROLL", "Action", "Face", "Hold", "Roll"]


@attrs.frozen
class Roll:
    """Roll the die (P2); chance answers with a :class:`Face`."""


@attrs.frozen
class Hold:
    """Bank the turn's points and end the turn (P4)."""


def _face(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if not is_whole_number(value) or value < 1:
        raise InvalidValueError(f"{value!r} is not a face of a die: faces are integers from 1")


@attrs.frozen
class Face:
    """Chance's outcome of a roll: the die shows ``face`` (P3)."""

    face: int = attrs.field(validator=_face)
    """The face shown, from 1."""


ROLL: Final = Roll()
"""The one :class:`Roll`, shared."""
HOLD: Final = Hold()
"""The one :class:`Hold`, shared."""

Action: TypeAlias = Roll | Hold | Face
"""Every action of Pig, chance's included."""
