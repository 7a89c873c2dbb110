"""The event streams: their slots within the limits, and what each one sends until its room ends.

A stream holds a *slot* for as long as it is open (:meth:`StreamSlots.slot`): one of the
:attr:`~cheekymonkey.web.Limits.max_streams` of this process, and one of its seat's and its client's, counted
by the manager's :class:`~cheekymonkey.web.limits.Counters` (in Redis, across processes, for a shared
store; each slot there is a lease, renewed at every heartbeat).

:func:`follow` is what a stream sends: the seat's table at once, then again at every change, with a comment
line every :data:`HEARTBEAT` seconds while nothing happens. Once the game is finished, nothing changes but
the room's end, so the stream lets go of the room and waits for its end holding only its last table (the
manager may have let go of the finished room too: finished games pile up in the store, not in memory).
When the server shuts down (:meth:`StreamSlots.end_all`), every stream ends at once.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any, Final, Protocol

from cheekymonkey.web.errors import RoomsFullError
from cheekymonkey.web.limits import Counters, Limits, StreamSlot, reserved
from cheekymonkey.web.store import StoreError

__all__ = ["HEARTBEAT", "Followed", "Following", "StreamSlots", "follow"]


class Followed(Protocol):
    """What a stream follows: a :class:`~cheekymonkey.web.Room`, as this module sees it."""

    @property
    def id(self) -> str:
        """The room's id."""
        ...

    @property
    def streams(self) -> collections.Counter[int]:
        """How many streams are open on each seat, in this process."""
        ...

    @property
    def closed(self) -> bool:
        """Whether the room has ended."""
        ...

    @property
    def finished(self) -> bool:
        """Whether the game is finished."""
        ...

    @property
    def event_count(self) -> int:
        """How many events the room has logged."""
        ...

    async def refresh(self) -> None:
        """Catch up with the store."""
        ...

    def start_bots(self) -> None:
        """Start the bots' turns if a bot is to move."""
        ...

    def message(self, seat: int | None, since: int = 0) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees now."""
        ...

    async def wait_for_change(self, version: int, timeout: float) -> bool:
        """Wait until the room is past ``version``."""
        ...


class Following(Protocol):
    """Who serves the streams: a :class:`~cheekymonkey.web.RoomManager`, as this module sees it."""

    @property
    def stopping(self) -> bool:
        """Whether the server is shutting down."""
        ...

    async def wait_for_end(self, room_id: str, timeout: float) -> bool:
        """Wait until the room ends or the server stops."""
        ...

    async def renew_streams(self) -> None:
        """Renew the open streams' slots."""
        ...


HEARTBEAT: Final = 15.0
"""Seconds between keep-alive comments on an idle event stream (and renewals of its slot)."""


class StreamSlots:
    """The slots of this process's event streams.

    Args:
        limits (~cheekymonkey.web.Limits): The limits the slots are held to.
        counters (~cheekymonkey.web.limits.Counters): Where the seat's and the client's slots are counted.
    """

    def __init__(self, limits: Limits, counters: Counters) -> None:
        self.limits: Final = limits
        """The limits the slots are held to."""
        self.counters: Final = counters
        """Where the seat's and the client's slots are counted (:class:`~cheekymonkey.web.limits.Counters`)."""
        self._open = 0
        self._slots: dict[str, StreamSlot] = {}
        self._ended: dict[str, asyncio.Event] = {}
        self._stop: asyncio.Event | None = None
        self._stopping = False

    @property
    def open(self) -> int:
        """How many event streams are open in this process."""
        return self._open

    @property
    def stopping(self) -> bool:
        """Whether the server is shutting down: every stream ends."""
        return self._stopping

    @contextlib.asynccontextmanager
    async def slot(self, room: Followed, seat: int, client: str = "") -> AsyncIterator[StreamSlot]:
        """Hold a slot for a stream on ``room``'s ``seat`` from ``client`` while the ``with`` block runs.

        Raises:
            LimitError: If the seat has :attr:`~cheekymonkey.web.Limits.streams_per_seat` streams open, or
                ``client`` :attr:`~cheekymonkey.web.Limits.streams_per_client` (429), or ``client`` holds a
                stream already and the streams open here reach the :func:`~cheekymonkey.web.limits.reserved`
                last quarter of :attr:`~cheekymonkey.web.Limits.max_streams` (429).
            RoomsFullError: If :attr:`~cheekymonkey.web.Limits.max_streams` streams are open here (503).
        """
        if self._open >= self.limits.max_streams:
            raise RoomsFullError(f"the server already serves {self._open} event streams; try again later", 10)
        taken = StreamSlot(room.id, seat, client)
        # The last quarter of the streams is kept for clients that hold none yet.
        crowded = self._open >= self.limits.max_streams - reserved(self.limits.max_streams)
        self._open += 1
        try:
            await self.counters.open_stream(taken, self.limits, 1 if crowded else None)
        except BaseException:
            self._open -= 1
            raise
        room.streams[seat] += 1
        self._slots[taken.id] = taken
        try:
            yield taken
        finally:
            room.streams[seat] -= 1
            self._open -= 1
            self._slots.pop(taken.id, None)
            with contextlib.suppress(StoreError):
                await self.counters.close_stream(taken)

    async def renew(self) -> None:
        """Renew every open slot (a shared store's slots are leases that end unless renewed)."""
        await self.counters.renew_streams(list(self._slots.values()))

    async def wait_for_end(self, room_id: str, timeout: float) -> bool:
        """Wait until the room ends (:meth:`room_ended`) or the server stops; False if ``timeout`` seconds pass."""
        if self._stopping:
            return True
        if self._stop is None:
            self._stop = asyncio.Event()
        ended = self._ended.setdefault(room_id, asyncio.Event())
        waits = [asyncio.ensure_future(ended.wait()), asyncio.ensure_future(self._stop.wait())]
        try:
            done, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        return bool(done)

    def room_ended(self, room_id: str) -> None:
        """Wake the streams waiting for the room's end."""
        ended = self._ended.pop(room_id, None)
        if ended is not None:
            ended.set()

    def end_all(self) -> None:
        """The server is shutting down: every stream ends."""
        self._stopping = True
        if self._stop is not None:
            self._stop.set()


def _event(message: dict[str, Any]) -> str:
    return f"event: table\nid: {message['version']}\ndata: {json.dumps(message)}\n\n"


async def follow(rooms: Following, room: Followed | None, seat: int | None, since: int) -> AsyncIterator[str]:
    """A seat's event stream, as server-sent events: its table now, then at every change, until the room ends.

    ``seat`` None is a spectator's stream (a watch link): the public table (:meth:`Followed.message`).

    ``since`` is the first event the first table carries; each later table carries the events since the one
    before. A finished game's stream waits for the room's end holding only its last table, and sends it once
    more, marked closed. The stream ends when the server shuts down.
    """
    sent = since
    while room is not None:
        await room.refresh()
        room.start_bots()
        message = room.message(seat, sent)
        sent = room.event_count
        yield _event(message)
        if room.closed or rooms.stopping:
            return
        if room.finished:
            room_id, room = room.id, None
            while not await rooms.wait_for_end(room_id, HEARTBEAT):
                yield ": still here\n\n"
                await rooms.renew_streams()
            if not rooms.stopping:
                yield _event({**message, "closed": True, "legal": [], "events": []})
            return
        # The table just sent is this version's; wait for a newer one. Reading the table and taking its
        # version happen with no await between, so no change can slip past unseen.
        while not await room.wait_for_change(message["version"], HEARTBEAT):
            yield ": still here\n\n"  # a comment line keeps proxies from closing an idle stream
            await rooms.renew_streams()  # a shared store's stream slots are leases
            await room.refresh()  # another process may have moved (a shared store)
            room.start_bots()
