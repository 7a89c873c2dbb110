"""What every game's record holds, and its replay: the record protocol and the checks every record makes.

A record is a game as data: the rules, the seats and every action, chance's outcomes included, enough to
replay the game exactly. Each game's record class (Cheeky Monkey's :class:`~cheekymonkey.GameRecord`,
:class:`cheekymonkey.toomany.GameRecord`) has the fields of :class:`RecordLike`, checks its seats with
:func:`check_record_seats` and replays with :func:`replay_states`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from cheekymonkey.errors import IllegalActionError, InvalidGameError, ReplayError

__all__ = ["RecordLike", "check_record_seats", "replay_states"]

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
R_co = TypeVar("R_co", covariant=True)


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
