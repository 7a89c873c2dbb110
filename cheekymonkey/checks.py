"""The checks every part of the library (and a plug-in game) makes of what it is given, each written once.

A whole number is an :class:`int` that is not a :class:`bool` (``True`` is an ``int`` to Python, never a
count or a seat here):

>>> is_whole_number(3), is_whole_number(True), is_whole_number(3.0)
(True, False, False)
>>> whole_number(7, "seats", low=2, high=6)
Traceback (most recent call last):
...
cheekymonkey.errors.InvalidValueError: seats must be a whole number from 2 to 6, got 7

:func:`whole_number_validator` is the same check for an attrs field, and :func:`check_memory` and
:func:`check_bot` the checks of a bot's cache bound and of a bot itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

import attrs

from cheekymonkey.errors import InvalidGameError, InvalidValueError

__all__ = ["check_bot", "check_memory", "is_whole_number", "whole_number", "whole_number_validator"]


def is_whole_number(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an :class:`int` and not a :class:`bool`."""
    return isinstance(value, int) and not isinstance(value, bool)


def _between(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}"
    if high is not None:
        return f"a whole number of at most {high}"
    return "a whole number"


def whole_number(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: Callable[[str], Exception] = InvalidValueError,
) -> int:
    """``value``, checked to be a whole number from ``low`` to ``high`` (each None: no bound).

    Args:
        value: What was given.
        name: What it is, as the message names it (``"seats"``).
        low: The smallest value allowed, or None.
        high: The largest value allowed, or None.
        error: The error raised, made from the message (``InvalidRulesetError`` for a rule set's field).

    Raises:
        InvalidValueError: Or ``error``: "``name`` must be a whole number from ``low`` to ``high``, got ...".
    """
    if not is_whole_number(value) or (low is not None and value < low) or (high is not None and value > high):
        raise error(f"{name} must be {_between(low, high)}, got {value!r}")
    return value


def whole_number_validator(
    *, low: int | None = None, high: int | None = None, error: Callable[[str], Exception] = InvalidValueError
) -> Callable[[Any, Any, Any], None]:
    """:func:`whole_number` as an attrs validator (called with the instance, the field and the value), naming the field.

    >>> @attrs.frozen
    ... class Die:
    ...     faces: int = attrs.field(validator=whole_number_validator(low=2))
    >>> Die(1)
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidValueError: faces must be a whole number of at least 2, got 1
    """

    def check(instance: Any, attribute: attrs.Attribute[Any], value: object) -> None:
        whole_number(value, attribute.name, low=low, high=high, error=error)

    return check


def check_memory(memory: object) -> int | None:
    """A bot's ``memory`` (the most cache entries it keeps between moves): None, or a whole number from 1.

    Raises:
        InvalidValueError: If it is neither.
    """
    if memory is not None and not (is_whole_number(memory) and memory >= 1):
        raise InvalidValueError(f"memory must be a positive whole number of cache entries or None, got {memory!r}")
    return memory


def check_bot(bot: object, who: str = "the bot") -> None:
    """Check that ``bot`` is a bot: an instance (not its class) with a ``choose(state, rng)`` method.

    Misuse caught here reads better than the TypeError it would cause at the bot's first move.

    Raises:
        InvalidGameError: Naming ``who`` (``"seat 1's bot"``) and what is wrong.
    """
    if isinstance(bot, type):
        raise InvalidGameError(f"{who} is the class {bot.__name__}, not a bot: pass an instance, {bot.__name__}()")
    if not callable(getattr(bot, "choose", None)):
        raise InvalidGameError(f"{who} {bot!r} has no choose(state, rng) method; see cheekymonkey.Bot")
