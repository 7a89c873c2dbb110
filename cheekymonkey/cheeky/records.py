"""Game records: the rule set, the seats and every action, enough to replay a game exactly."""

from __future__ import annotations

from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.engine import apply
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.state import GameState, new_game
from cheekymonkey.record import BaseRecord

__all__ = ["GameRecord"]


class GameRecord(BaseRecord[Ruleset, Action, GameState]):
    """A whole game as data: replaying its actions from its start reproduces every state.

    Its fields and methods are every game's (:class:`~cheekymonkey.record.BaseRecord`); the actions include
    chance's outcomes (:class:`~cheekymonkey.Reveal`).

    >>> from cheekymonkey import RandomBot, play_game
    >>> game = play_game([RandomBot(), RandomBot()], seed=7)
    >>> game.record.final_state() == game.state
    True
    """

    __slots__ = ()
    _new_game = new_game
    _apply = apply
    _ruleset_type = Ruleset
