"""Pig's state: the banked scores, the turn's points, whose turn it is, and whether the die is rolling.

>>> state = new_game(3, first_player=1)
>>> state.scores, state.turn_total, state.seat, state.rolling, state.moves
((0, 0, 0), 0, 1, False, 0)
"""

from __future__ import annotations

import attrs
from cheekymonkey.errors import InvalidGameError

from cheekymonkey_pig.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

__all__ = ["PigState", "new_game"]


@attrs.frozen
class PigState:
    """A moment of a game of Pig, as a value: the engine builds a new one for every action."""

    rules: Rules
    """The rule set played."""
    scores: tuple[int, ...]
    """Each seat's banked score, in seat order."""
    turn_total: int
    """The points rolled this turn and not yet banked (P3)."""
    seat: int
    """The seat whose turn it is; at a chance node, the seat that rolled."""
    rolling: bool
    """Whether the die is in the air: chance acts next (P3)."""
    moves: int
    """The decisions (rolls and holds) made so far: the game ends undecided at the rules' horizon (P6)."""


def new_game(players: int, rules: Rules | None = None, *, first_player: int = 0) -> PigState:
    """The state before the first decision: every score 0, ``first_player`` to decide (P1).

    Raises:
        InvalidGameError: If ``players`` is not from 2 to 6, or ``first_player`` is not one of the seats.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidGameError(f"Pig seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r} (P1)")
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
        raise InvalidGameError(f"first_player must be one of the seats 0 to {players - 1}, got {first_player!r}")
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidGameError(f"rules must be a Rules of Pig, got {rules!r}")
    return PigState(rules or Rules(), (0,) * players, 0, first_player, False, 0)
