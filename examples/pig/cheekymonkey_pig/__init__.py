"""*Pig*, the dice game, as a game of :mod:`cheekymonkey` in a distribution of its own.

Two to six players take turns; on your turn you roll a die as often as you like, adding what it shows to
the turn's points, or hold to bank them; a 1 loses the turn's points and ends the turn. The first to the
target score wins. The rules are P1-P6 (:mod:`cheekymonkey_pig.game`), equal to OpenSpiel's ``pig``.

The library finds the game only through this distribution's entry point in the group ``cheekymonkey.games``
(``examples/pig/pyproject.toml``), as ``game_named("pig")``; nothing in ``cheekymonkey`` names it.

>>> state = PIG.apply(PIG.apply(PIG.new_game(2), ROLL), Face(1))
>>> state.seat, state.turn_total
(1, 0)
"""

from __future__ import annotations

from cheekymonkey_pig.actions import HOLD, ROLL, Action, Face, Hold, Roll
from cheekymonkey_pig.game import PIG, Pig
from cheekymonkey_pig.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from cheekymonkey_pig.state import PigState

__all__ = [
    "HOLD",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PIG",
    "PRESETS",
    "ROLL",
    "Action",
    "Face",
    "Hold",
    "Pig",
    "PigState",
    "Roll",
    "Rules",
]
