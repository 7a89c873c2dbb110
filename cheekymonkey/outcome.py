"""How a finished game came out, the same shape for every game, and what a game pays: :class:`Stakes`."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import attrs

from cheekymonkey.errors import InvalidValueError

__all__ = ["Outcome", "Stakes", "Utility", "ranks_by"]


def ranks_by(keys: Sequence[float], winners: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4): the winners first, then the others by ``keys``, higher is better.

    Seats with equal keys share a rank, and the next rank skips as many places as shared it.

    >>> ranks_by([10, 30, 20, 20], [1])
    (4, 1, 2, 2)
    """
    won = set(winners)

    def standing(seat: int) -> tuple[bool, float]:
        return (seat in won, keys[seat])

    return tuple(1 + sum(standing(other) > standing(seat) for other in range(len(keys))) for seat in range(len(keys)))


@attrs.frozen(slots=True)
class Outcome:
    """How a finished game came out, the same shape for every game.

    A game cut off by a turn or step limit has no outcome: it is *truncated*
    (:attr:`cheekymonkey.Table.truncated`), never a result.

    >>> Outcome(winners=(1,), ranks=(2, 1, 3), returns=(0.0, 1.0, 0.0))
    Outcome(winners=(1,), ranks=(2, 1, 3), returns=(0.0, 1.0, 0.0), scores=None)
    """

    winners: tuple[int, ...]
    """The seats that won, ascending (more than one when a win is shared)."""
    ranks: tuple[int, ...]
    """Each seat's place, 1 for the winners; seats that tie share a place."""
    returns: tuple[float, ...]
    """Each seat's return for learning: ``1/k`` for each of ``k`` winners, 0 for the others (they add up to 1)."""
    scores: tuple[int, ...] | None = None
    """Each seat's final score, for a game that counts points (Cheeky Monkey's totals); None for one that does not."""

    def __attrs_post_init__(self) -> None:
        n = len(self.ranks)
        if len(self.returns) != n or not self.winners or any(not 0 <= w < n for w in self.winners):
            raise InvalidValueError(f"an outcome needs one rank and one return per seat and a winner: {self!r}")
        if self.scores is not None and len(self.scores) != n:
            raise InvalidValueError(f"an outcome's scores, if any, are one per seat: {self!r}")

    @classmethod
    def of_winners(cls, winners: Sequence[int], keys: Sequence[float], scores: Sequence[int] | None = None) -> Outcome:
        """The outcome where ``winners`` share the win and the others are ranked by ``keys`` (higher is better).

        ``scores``, for a game that counts points, are each seat's final score.
        """
        share = 1.0 / len(winners)
        won = set(winners)
        returns = tuple(share if seat in won else 0.0 for seat in range(len(keys)))
        return cls(tuple(sorted(won)), ranks_by(keys, winners), returns, None if scores is None else tuple(scores))


class Utility(Enum):
    """How a game's returns relate across seats, as OpenSpiel's ``GameType.Utility`` says it."""

    ZERO_SUM = "zero-sum"
    """The returns of every finished game add up to 0 (chips won are chips lost)."""
    CONSTANT_SUM = "constant-sum"
    """The returns of every finished game add up to the same number (a win shared out: 1)."""
    GENERAL_SUM = "general-sum"
    """The returns' sum varies from game to game."""


@attrs.frozen(slots=True)
class Stakes:
    """What a game pays at its end, declared before it is played: the bounds of one seat's return and their sum.

    A game's :meth:`~cheekymonkey.Game.returns` stay inside ``low..high`` for every seat, and add up to
    ``total`` in every finished game unless the game is general-sum. The default of every game that declares
    none is the :class:`Outcome` scale: the winners share 1, the others get 0.

    >>> Stakes.of_outcome()
    Stakes(utility=<Utility.CONSTANT_SUM: 'constant-sum'>, low=0.0, high=1.0, total=1.0)
    >>> Stakes(Utility.ZERO_SUM, -13.0, 13.0, 0.0).utility.value
    'zero-sum'
    """

    utility: Utility
    """Zero-sum, constant-sum or general-sum."""
    low: float
    """The least one seat's return can be."""
    high: float
    """The most one seat's return can be."""
    total: float | None
    """What the returns of a finished game add up to: 0 for zero-sum, None for general-sum."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.utility, Utility):
            raise InvalidValueError(f"stakes need a Utility, got {self.utility!r}")
        if not self.low <= self.high:
            raise InvalidValueError(f"stakes need low <= high, got {self.low!r} and {self.high!r}")
        if (self.total is None) != (self.utility is Utility.GENERAL_SUM):
            raise InvalidValueError("stakes have a total exactly when the game is not general-sum")
        if self.utility is Utility.ZERO_SUM and self.total != 0:
            raise InvalidValueError(f"zero-sum stakes add up to 0, not {self.total!r}")

    @classmethod
    def of_outcome(cls) -> Stakes:
        """The default: the :class:`Outcome` scale, the winners sharing 1 and the others 0."""
        return cls(Utility.CONSTANT_SUM, 0.0, 1.0, 1.0)
