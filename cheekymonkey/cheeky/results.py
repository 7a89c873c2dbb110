"""The outcome of a finished game, as Too Many Monkeys' module of the same name gives it: the winners, then the rest.

>>> from cheekymonkey.cheeky import new_game
>>> winners(new_game(2))
()
"""

from __future__ import annotations

from cheekymonkey.cheeky.engine import is_terminal
from cheekymonkey.cheeky.scoring import score
from cheekymonkey.cheeky.state import GameState
from cheekymonkey.outcome import Outcome

__all__ = ["outcome", "winners"]


def winners(state: GameState) -> tuple[int, ...]:
    """The seats that won the game (several share a win only in a tie R18 cannot break); () if it is not over."""
    return tuple(score(state).winners) if is_terminal(state) else ()


def outcome(state: GameState) -> Outcome:
    """The score sheet's winners (R17, R18); the others ranked by their totals, which are the scores.

    Raises:
        GameNotOverError: If the game is not over.
    """
    sheet = score(state)
    return Outcome.of_winners(sheet.winners, sheet.totals, sheet.totals)
