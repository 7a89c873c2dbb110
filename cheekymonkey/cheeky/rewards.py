"""Returns: what each seat gets at the end of a game, for learning. Rewards are zero before the end.

A sole winner gets 1; ``k`` seats sharing the win (R18, R19) get ``1/k`` each; everybody else gets 0. So
the returns of a finished game always add up to 1 (a constant-sum game), and a seat's expected return is
its share of wins. Points are deliberately not the return: the rules reward winning, not margin.

>>> from cheekymonkey import Animal, Ruleset, score_stacks
>>> sheet = score_stacks([(Animal.SEAL,), (Animal.SEAL,), ()], Ruleset.younger())
>>> sheet.winners, returns_of(sheet)
((0, 1), (0.5, 0.5, 0.0))
"""

from __future__ import annotations

from cheekymonkey.cheeky.scoring import ScoreSheet, score
from cheekymonkey.cheeky.state import GameState
from cheekymonkey.errors import InvalidValueError

__all__ = ["returns", "returns_of"]


def returns_of(sheet: ScoreSheet) -> tuple[float, ...]:
    """Each seat's return under a score sheet: ``1/k`` for each of the ``k`` winners, 0 for the others.

    Raises:
        InvalidValueError: If ``sheet`` is not a :class:`~cheekymonkey.ScoreSheet`.
    """
    if not isinstance(sheet, ScoreSheet):
        raise InvalidValueError(f"expected a ScoreSheet, got {sheet!r}")
    share = 1.0 / len(sheet.winners)
    winners = set(sheet.winners)
    return tuple(share if seat in winners else 0.0 for seat in range(len(sheet.seats)))


def returns(state: GameState) -> tuple[float, ...]:
    """Each seat's return in a finished game (see :func:`returns_of`).

    Raises:
        GameNotOverError: If the game has not ended (R15).
    """
    return returns_of(score(state))
