"""Game records: the rule set, the seats and every action, enough to replay a game exactly.

>>> from cheekymonkey.toomany import Card, Reveal
>>> record = GameRecord(Ruleset.standard(), 2, actions=(Reveal(Card.GIRAFFE), Reveal(Card.ELEPHANT)))
>>> record.final_state().discard
(Card.GIRAFFE, Card.ELEPHANT)
"""

from __future__ import annotations

from cheekymonkey.record import BaseRecord
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.engine import apply
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, new_game

__all__ = ["GameRecord"]


class GameRecord(BaseRecord[Ruleset, Action, GameState]):
    """A whole game as data: replaying its actions from its start reproduces every state.

    Its fields and methods are every game's (:class:`~cheekymonkey.record.BaseRecord`); the actions include
    chance's outcomes (:class:`~cheekymonkey.toomany.Reveal`), and a :class:`~cheekymonkey.table.Table`
    replays it like any game's record.
    """

    __slots__ = ()
    _new_game = new_game
    _apply = apply
    _ruleset_type = Ruleset
