"""Game records: the rule set, the seats and every action, enough to replay a game exactly.

>>> from cheekymonkey.toomany import Card, Reveal
>>> record = GameRecord(Ruleset.standard(), 2, actions=(Reveal(Card.GIRAFFE), Reveal(Card.ELEPHANT)))
>>> record.final_state().discard
(Card.GIRAFFE, Card.ELEPHANT)
"""

from __future__ import annotations

import attrs

from cheekymonkey.errors import InvalidGameError
from cheekymonkey.record import check_record_seats, replay_states
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.engine import apply
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, new_game

__all__ = ["GameRecord"]


@attrs.frozen(slots=True)
class GameRecord:
    """A whole game as data: replaying its actions from its start reproduces every state.

    It has the fields of :class:`cheekymonkey.record.RecordLike`, so a :class:`~cheekymonkey.table.Table`
    replays it like any game's record.
    """

    ruleset: Ruleset
    """The rules played."""
    players: int
    """The number of seats."""
    first_player: int = 0
    """The seat that began the first round."""
    actions: tuple[Action, ...] = ()
    """Every action in order, chance's outcomes (:class:`~cheekymonkey.toomany.Reveal`) included."""
    seed: int | None = None
    """The seed the game was played with, if it was given as an integer; for information only."""
    names: tuple[str, ...] = ()
    """The players' names in seat order, or empty; for information only."""
    bots: tuple[str, ...] = ()
    """What played each seat, in seat order (a bot's kind, or ``"human"``), or empty."""

    quit_by: int | None = None
    """The seat whose player quit the game where the record ends, or None; for information only.

    A record that ends before the game does was given up there if this is a seat, and was cut short (a program
    killed, a record saved while the game went on) if it is None.
    """

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.ruleset, Ruleset):
            raise InvalidGameError(f"ruleset must be a Ruleset, got {self.ruleset!r}")
        if not isinstance(self.actions, tuple):
            raise InvalidGameError(f"actions must be a tuple of actions, got {self.actions!r}")
        check_record_seats(self.names, self.bots, self.players, self.quit_by)

    def start(self) -> GameState:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return new_game(self.players, ruleset=self.ruleset, first_player=self.first_player)

    def states(self) -> tuple[GameState, ...]:
        """Every state of the game, from the start to the last: one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return replay_states(self.start(), self.actions, apply)

    def final_state(self) -> GameState:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return self.states()[-1]
