"""What every game's record holds, and its replay: the record protocol and the checks every record makes.

A record is a game as data: the rules, the seats and every action, chance's outcomes included, enough to
replay the game exactly. :class:`Record` is the record of any game, which replays through the game it names;
each built-in game's record class (Cheeky Monkey's :class:`~cheekymonkey.GameRecord`,
:class:`cheekymonkey.toomany.GameRecord`) has the same fields and methods (:class:`RecordLike`), checks its
seats with :func:`check_record_seats` and replays with :func:`replay_states`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

import attrs

from cheekymonkey.errors import IllegalActionError, InvalidGameError, ReplayError

__all__ = ["Record", "RecordLike", "Replays", "check_record_seats", "replay_states"]

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)
R = TypeVar("R")


class RecordLike(Protocol[R_co, A_co]):
    """What every game's record holds: enough to replay the game, and who played it.

    :class:`~cheekymonkey.GameRecord` is Cheeky Monkey's.
    """

    @property
    def ruleset(self) -> R_co:
        """The rules played."""
        ...

    @property
    def players(self) -> int:
        """The number of seats."""
        ...

    @property
    def first_player(self) -> int:
        """The seat that started."""
        ...

    @property
    def actions(self) -> tuple[A_co, ...]:
        """Every action in order, chance outcomes included."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed the game was played with, if known; for information only."""
        ...

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order, or empty."""
        ...

    @property
    def bots(self) -> tuple[str, ...]:
        """What played each seat (a bot's name, or ``"human"``), in seat order, or empty."""
        ...

    @property
    def quit_by(self) -> int | None:
        """The seat whose player quit the game where the record ends, or None."""
        ...

    def start(self) -> Any:
        """The state before the first action (a state of the record's game).

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        ...

    def states(self) -> tuple[Any, ...]:
        """Every state of the game, from the start to the last: one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        ...

    def final_state(self) -> Any:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
        """
        ...


class Replays(Protocol):
    """What :class:`Record` needs of its game to replay: the start of a game, and the rules' ``apply``."""

    def new_game(self, players: int, ruleset: Any = None, *, first_player: int = 0) -> Any:
        """The state before the first action."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """The state after ``action``."""
        ...


@attrs.frozen(slots=True)
class Record(Generic[R, A]):
    """The record of any game: the game, its rules, its seats and every action, replayed through the game.

    It is what :meth:`BaseGame.record() <cheekymonkey.base.BaseGame.record>` gives a game that keeps no record
    class of its own; the built-in games' record classes have the same fields and methods.

    >>> from cheekymonkey.games import game_named
    >>> game = game_named("too-many-monkeys")
    >>> state = game.new_game(2)
    >>> first = game.legal_actions(state)[0]
    >>> record = Record(game, game.ruleset(), 2, actions=(first,))
    >>> record.final_state() == game.apply(state, first), len(record.states())
    (True, 2)
    """

    game: Replays = attrs.field(repr=False)
    """The game played: its ``new_game`` and ``apply`` replay the record."""
    ruleset: R
    """The rules played."""
    players: int
    """The number of seats."""
    first_player: int = 0
    """The seat that started."""
    actions: tuple[A, ...] = ()
    """Every action in order, chance's outcomes included."""
    seed: int | None = None
    """The seed the game was played with, if it was given as an integer; for information only."""
    names: tuple[str, ...] = ()
    """The players' names in seat order, or empty; for information only."""
    bots: tuple[str, ...] = ()
    """What played each seat, in seat order (a bot's kind, or ``"human"``), or empty."""
    quit_by: int | None = None
    """The seat whose player quit the game where the record ends, or None (see :class:`RecordLike`)."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.actions, tuple):
            raise InvalidGameError(f"actions must be a tuple of actions, got {self.actions!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise InvalidGameError(f"players must be an integer, got {self.players!r}")
        check_record_seats(self.names, self.bots, self.players, self.quit_by)

    def start(self) -> Any:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return self.game.new_game(self.players, self.ruleset, first_player=self.first_player)

    def states(self) -> tuple[Any, ...]:
        """Every state of the game, from the start to the last: one more than there are actions.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return replay_states(self.start(), self.actions, self.game.apply)

    def final_state(self) -> Any:
        """The state after the last action.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the seat count or first player does not fit the rule set.
        """
        return self.states()[-1]


def check_record_seats(names: object, bots: object, players: int, quit_by: object = None) -> None:
    """Check a record's seats: ``names`` and ``bots``, and ``quit_by``, the seat that quit the game, if any.

    ``names`` and ``bots`` are optional, but when given, one non-empty string per seat; ``quit_by`` is None or
    one of the seats. Every game's record checks them here, so a replay can show them.

    Raises:
        InvalidGameError: Naming the field and what is wrong with it.

    >>> check_record_seats(("Ann", "Bob"), (), 2)
    >>> check_record_seats(("Ann",), (), 2)
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidGameError: 1 names for 2 seats: give one per seat, or none
    """
    for field, values in (("names", names), ("bots", bots)):
        if not isinstance(values, tuple) or not all(isinstance(v, str) and v.strip() for v in values):
            raise InvalidGameError(f"{field} must be a tuple of non-empty strings, got {values!r}")
        if values and len(values) != players:
            raise InvalidGameError(f"{len(values)} {field} for {players} seats: give one per seat, or none")
    if quit_by is not None and (
        not isinstance(quit_by, int) or isinstance(quit_by, bool) or not 0 <= quit_by < players
    ):
        raise InvalidGameError(f"quit_by must be None or one of the {players} seats, got {quit_by!r}")


def replay_states(start: S, actions: Sequence[A], apply: Callable[[S, A], S]) -> tuple[S, ...]:
    """Every state of a recorded game: ``start``, then one after each action, applied by the game's ``apply``.

    Raises:
        ReplayError: At the first action that is illegal where it falls, naming its step.
    """
    state = start
    states = [state]
    for step, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise ReplayError(step, error) from error
        states.append(state)
    return tuple(states)
