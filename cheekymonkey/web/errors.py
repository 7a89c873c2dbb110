"""What a room, or the room manager, refuses: one error class per answer, each with its HTTP status.

Every class here is a :class:`~cheekymonkey.errors.CheekyMonkeyError` whose message is fit to show to the
player; :mod:`cheekymonkey.web.app` answers it with its :attr:`~cheekymonkey.web.RoomError.status`. Each
is importable from :mod:`cheekymonkey.web` and, as before, from :mod:`cheekymonkey.web.rooms`.
"""

from __future__ import annotations

from cheekymonkey.errors import CheekyMonkeyError

__all__ = [
    "GameNotFinishedError",
    "LimitError",
    "NotYourTurnError",
    "RoomClosedError",
    "RoomDamagedError",
    "RoomError",
    "RoomsFullError",
    "SeatNotFoundError",
    "StaleMoveError",
]


class RoomError(CheekyMonkeyError):
    """Something a room or the room manager refuses; the message is fit to show to the player."""

    status: int = 400
    """The HTTP status the server answers with."""


class NotYourTurnError(RoomError):
    """A seat sent a move while another seat is to act; the room is unchanged."""

    status = 409


class StaleMoveError(RoomError):
    """A move named a version the room has passed (a retry, or a move chosen from an old table): not played."""

    status = 409


class GameNotFinishedError(RoomError):
    """The record of a game is given out only once the game is finished."""

    status = 409


class SeatNotFoundError(RoomError):
    """No open room has a seat with this token (a wrong link, or the room has ended)."""

    status = 404


class RoomClosedError(RoomError):
    """The room has ended (see :meth:`~cheekymonkey.web.RoomManager.sweep`); it takes no more moves."""

    status = 409


class RoomDamagedError(RoomError):
    """The room's record in the store cannot be read or replayed: the room is closed, and says so (410).

    Its seats exist (so not 404), but nothing can be played or read in it; the rows stay in the store as they
    are, for whoever looks after the server, until the room's idle time ends it.
    """

    status = 410


class LimitError(RoomError):
    """A limit of :class:`~cheekymonkey.web.Limits` was reached; ``retry_after`` says how many seconds to wait."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)
        """Seconds to wait before asking again (the answer's ``Retry-After``)."""


class RoomsFullError(LimitError):
    """The server already holds as many rooms, or streams, as it is allowed to."""

    status = 503
