"""Game records: the rule set, the seats and every action, enough to replay a game exactly."""

from __future__ import annotations

import attrs

from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.engine import apply
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.state import GameState, new_game
from cheekymonkey.record import check_record_seats, replay_states

__all__ = ["GameRecord"]


@attrs.frozen(slots=True)
class GameRecord:
    """A whole game as data: replaying its actions from its start reproduces every state.

    >>> from cheekymonkey import RandomBot, play_game
    >>> game = play_game([RandomBot(), RandomBot()], seed=7)
    >>> game.record.final_state() == game.state
    True
    """

    ruleset: Ruleset
    """The rules played."""
    players: int
    """The number of seats."""
    first_player: int = 0
    """The seat that started."""
    actions: tuple[Action, ...] = ()
    """Every action in order, chance outcomes (:class:`~cheekymonkey.Reveal`) included."""
    seed: int | None = None
    """The seed the game was played with, if it was given as an integer; for information only."""
    names: tuple[str, ...] = ()
    """The players' names in seat order, or empty if not recorded; for information only."""
    bots: tuple[str, ...] = ()
    """What played each seat, in seat order (a bot kind such as ``"heuristic"``, or ``"human"``), or empty."""

    quit_by: int | None = None
    """The seat whose player quit the game where the record ends, or None; for information only.

    A record that ends before the game does was given up there if this is a seat, and was cut short (a program
    killed, a record saved while the game went on) if it is None.
    """

    def __attrs_post_init__(self) -> None:
        # Names and kinds are optional, but when given there is one per seat, so a replay can show them.
        check_record_seats(self.names, self.bots, self.players, self.quit_by)

    def start(self) -> GameState:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return new_game(self.players, ruleset=self.ruleset, first_player=self.first_player)

    def states(self) -> tuple[GameState, ...]:
        """Every state of the game, from the start to the last, one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
        """
        return replay_states(self.start(), self.actions, apply)

    def final_state(self) -> GameState:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
        """
        return self.states()[-1]
