"""The outcome of a finished game: one winner (TM23), the others ranked by the cards they still need.

>>> from cheekymonkey.toomany import GameState, new_game
>>> winner(new_game(2)) is None
True
"""

from __future__ import annotations

from cheekymonkey.errors import GameNotOverError
from cheekymonkey.outcome import Outcome
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["outcome", "winner", "winners"]


def winner(state: GameState) -> int | None:
    """The seat that won the game, or None if it is not over (TM23)."""
    return state.seat if state.phase is Phase.OVER else None


def winners(state: GameState) -> tuple[int, ...]:
    """The seats that won the game, as Cheeky Monkey's ``winners`` gives them: the one winner (TM23), or ()."""
    return (state.seat,) if state.phase is Phase.OVER else ()


def outcome(state: GameState) -> Outcome:
    """The winner first, the others ranked by their row size, smaller better, tied where equal.

    Exactly one player wins (TM23); the ruling on the outcome ranks the others by their current row size,
    the cards they would still need to turn up (TME1). The returns for learning are 1 for the winner and 0 for
    everybody else.

    Raises:
        GameNotOverError: If the game is not over.
    """
    if state.phase is not Phase.OVER:
        raise GameNotOverError(f"the game is not over: round {state.round}, phase {state.phase.name}")
    # Outcome ranks by keys where higher is better: a shorter row is better.
    return Outcome.of_winners((state.seat,), [-len(row) for row in state.rows])
