"""Pig's state (the banked scores, the turn's points, whose turn it is, whether the die is rolling) and its view.

>>> from cheekymonkey_pig import PIG
>>> state = PIG.new_game(3, first_player=1)
>>> state.scores, state.turn_total, state.seat, state.rolling, state.moves
((0, 0, 0), 0, 1, False, 0)
"""

from __future__ import annotations

import attrs

from cheekymonkey_pig.rules import Rules

__all__ = ["PigState", "PigView"]


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


@attrs.frozen
class PigView:
    """What every seat sees of the table, and the board shows: the target, the scores and the turn's points."""

    target: int
    """The score that wins (P6)."""
    scores: tuple[int, ...]
    """Each seat's banked score."""
    turn_total: int
    """The points rolled this turn and not yet banked."""
