"""What one server allows (:class:`Limits`), and the counters that hold each client to it, in one process or many.

A client is known by its address: the connection's, or the one a trusted reverse proxy names in
``X-Forwarded-For`` (``cheekymonkey serve --forwarded-allow-ips``; by default no proxy is trusted). The
counters keep, for each client, the rooms it made in the last minute and those it has open, and for each
seat and each client the event streams open:

- :class:`LocalCounters` keep them in this process (a memory or SQLite store: one process serves);
- :class:`RedisCounters` keep them in the Redis that shares the rooms, each check and count in one Lua
  script, so that a client gets the same budget whether it talks to one process or to several. Every key
  has an expiry; a stream's slot is a lease that its process renews while the stream is open, so the
  slots of a process that dies come back by themselves within :data:`STREAM_LEASE` seconds.

The server-wide caps stay as they were: the rooms in all are counted in the store, and the streams in all
(:attr:`~cheekymonkey.web.Limits.max_streams`) per process, since each holds a connection of that process.
"""

from __future__ import annotations

import collections
import math
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol

import attrs

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.web.errors import LimitError

if TYPE_CHECKING:
    from cheekymonkey.web.store import RedisStore

__all__ = ["SAFE_INTEGER", "STREAM_LEASE", "Counters", "Limits", "LocalCounters", "RedisCounters", "StreamSlot"]

SAFE_INTEGER: Final = 2**53 - 1
"""The largest whole number JavaScript holds exactly: no rule set the web accepts lets a number pass it."""

STREAM_LEASE: Final = 60.0
"""Seconds a stream's slot is held in Redis without renewal (an open stream renews it every 15 seconds)."""

_PENDING: Final = 30.0  # seconds a room just counted stays counted while the store is still making it


def _positive(kind: type[int] | type[float]) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int if kind is int else (int, float)) or not value > 0:
            raise InvalidValueError(f"{attribute.name} must be a positive {kind.__name__}, got {value!r}")
        if not math.isfinite(value):
            raise InvalidValueError(f"{attribute.name} must be finite, got {value!r}")

    return check


@attrs.frozen
class Limits:
    """What one server allows, so that no client can take it from the others.

    Each has a flag of ``cheekymonkey serve`` of the same name (``--rooms-per-client``, ...). With a Redis
    store the limits of one client (rooms per client and per minute, streams per seat and per client) hold
    across every process that shares it.

    Raises:
        InvalidValueError: If a limit is not a positive number, or ``max_number`` is above :data:`SAFE_INTEGER`.
    """

    max_rooms: int = attrs.field(default=1000, validator=_positive(int))
    """Rooms open at once, in all (more: 503)."""
    rooms_per_client: int = attrs.field(default=20, validator=_positive(int))
    """Rooms one client (one address) may have open at once (more: 429)."""
    rooms_per_minute: int = attrs.field(default=10, validator=_positive(int))
    """Rooms one client may make in any 60 seconds (more: 429)."""
    max_streams: int = attrs.field(default=500, validator=_positive(int))
    """Event streams open at once in one server process, in all (more: 503)."""
    streams_per_seat: int = attrs.field(default=4, validator=_positive(int))
    """Event streams open at once on one seat (more: 429): a few tabs, not a flood."""
    streams_per_client: int = attrs.field(default=16, validator=_positive(int))
    """Event streams one client (one address) may have open at once, on any seats (more: 429)."""
    max_moves: int = attrs.field(default=2000, validator=_positive(int))
    """Actions a room's game may take, chance and bots included; a game that reaches it stops as *truncated*."""
    bot_memory: int = attrs.field(default=1000, validator=_positive(int))
    """Entries each bot may keep in its caches from one move to the next (about half a KiB each)."""
    max_number: int = attrs.field(default=10_000, validator=_positive(int))
    """The largest :meth:`~cheekymonkey.Game.number_bound` of a rule set the server accepts."""
    idle_minutes: float = attrs.field(default=60.0, validator=_positive(float))
    """A game nobody has moved in for this long ends."""
    finished_minutes: float = attrs.field(default=15.0, validator=_positive(float))
    """A finished game's room ends this long after its last move (its record can be downloaded until then)."""
    finished_held: int = attrs.field(default=32, validator=_positive(int))
    """Finished games a process keeps in memory; the others are read again from the store when asked for."""

    def __attrs_post_init__(self) -> None:
        if self.max_number > SAFE_INTEGER:
            raise InvalidValueError(
                f"max_number must be at most 2**53 - 1 (exact in JavaScript), got {self.max_number}"
            )


@attrs.frozen
class StreamSlot:
    """One open event stream, as the counters know it: whose seat, and which client."""

    room: str
    seat: int
    client: str
    id: str = attrs.field(factory=lambda: uuid.uuid4().hex)


def _rate_refusal(made: int, wait: int) -> LimitError:
    return LimitError(f"you made {made} rooms in the last minute, this server's limit; try again in {wait} s", wait)


def _open_refusal(count: int) -> LimitError:
    return LimitError(f"you have {count} rooms open, this server's limit: finish or leave one first", 60)


def _seat_refusal(count: int) -> LimitError:
    return LimitError(f"this seat already has {count} event streams open: close a tab", 10)


def _client_refusal(count: int) -> LimitError:
    return LimitError(f"you have {count} event streams open, this server's limit: close a tab", 10)


class Counters(Protocol):
    """Where the per-client counts are kept; every check and count is one step (no two requests both pass)."""

    async def count_room(self, client: str, room_id: str, limits: Limits) -> None:
        """Count the room ``client`` is about to make.

        Raises:
            LimitError: If ``client`` made :attr:`~cheekymonkey.web.Limits.rooms_per_minute` rooms in the last
                minute, or has :attr:`~cheekymonkey.web.Limits.rooms_per_client` open; nothing is counted.
        """
        ...

    async def uncount_room(self, client: str, room_id: str) -> None:
        """Take back a room counted by :meth:`count_room` that could not be made after all."""
        ...

    async def room_ended(self, room_id: str) -> None:
        """The room has ended: it no longer counts as open for the client that made it."""
        ...

    async def open_stream(self, slot: StreamSlot, limits: Limits) -> None:
        """Count a stream about to open.

        Raises:
            LimitError: If the seat has :attr:`~cheekymonkey.web.Limits.streams_per_seat` streams open, or the client
                :attr:`~cheekymonkey.web.Limits.streams_per_client`; nothing is counted.
        """
        ...

    async def close_stream(self, slot: StreamSlot) -> None:
        """The stream has closed: its slot is free again."""
        ...

    async def renew_streams(self, slots: Iterable[StreamSlot]) -> None:
        """Tell the counters that these streams are still open (a shared store's slots are leases)."""
        ...


class LocalCounters:
    """The counts of one process, in its memory (for a memory or SQLite store)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._made: dict[str, collections.deque[tuple[float, str]]] = {}
        self._open: dict[str, set[str]] = collections.defaultdict(set)
        self._maker: dict[str, str] = {}
        self._seats: collections.Counter[tuple[str, int]] = collections.Counter()
        self._clients: collections.Counter[str] = collections.Counter()

    async def count_room(self, client: str, room_id: str, limits: Limits) -> None:
        """As :meth:`Counters.count_room`."""
        now = self._clock()
        made = self._made.get(client)
        if made is not None:
            while made and made[0][0] <= now - 60:
                made.popleft()
            if len(made) >= limits.rooms_per_minute:
                raise _rate_refusal(len(made), math.ceil(made[0][0] + 60 - now))
        if len(self._open.get(client, ())) >= limits.rooms_per_client:
            raise _open_refusal(len(self._open[client]))
        self._made.setdefault(client, collections.deque()).append((now, room_id))
        self._open[client].add(room_id)
        self._maker[room_id] = client

    async def uncount_room(self, client: str, room_id: str) -> None:
        """As :meth:`Counters.uncount_room`."""
        made = self._made.get(client)
        if made is not None:
            kept = [entry for entry in made if entry[1] != room_id]
            made.clear()
            made.extend(kept)
        await self.room_ended(room_id)

    async def room_ended(self, room_id: str) -> None:
        """As :meth:`Counters.room_ended`."""
        client = self._maker.pop(room_id, None)
        if client is not None:
            mine = self._open.get(client)
            if mine is not None:
                mine.discard(room_id)
                if not mine:
                    del self._open[client]
        for client, made in list(self._made.items()):  # forget clients whose minute has passed
            if not made or made[-1][0] <= self._clock() - 60:
                del self._made[client]

    async def open_stream(self, slot: StreamSlot, limits: Limits) -> None:
        """As :meth:`Counters.open_stream`."""
        seat = (slot.room, slot.seat)
        if self._seats[seat] >= limits.streams_per_seat:
            raise _seat_refusal(self._seats[seat])
        if self._clients[slot.client] >= limits.streams_per_client:
            raise _client_refusal(self._clients[slot.client])
        self._seats[seat] += 1
        self._clients[slot.client] += 1

    async def close_stream(self, slot: StreamSlot) -> None:
        """As :meth:`Counters.close_stream`."""
        seat = (slot.room, slot.seat)
        self._seats[seat] -= 1
        if self._seats[seat] <= 0:
            del self._seats[seat]
        self._clients[slot.client] -= 1
        if self._clients[slot.client] <= 0:
            del self._clients[slot.client]

    async def renew_streams(self, slots: Iterable[StreamSlot]) -> None:
        """As :meth:`Counters.renew_streams`: nothing to renew in one process's memory."""
        return None


# The room counts: the rooms made in the last minute (a sorted set scored by time) and those open (scored
# by when they were counted: a room not yet, or no longer, in the store's set of rooms stops counting once
# it has been pending for a while). Times are Redis's own, so the processes' clocks need not agree.
_COUNT_ROOM: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60)
local made = redis.call('ZCARD', KEYS[1])
if made >= tonumber(ARGV[1]) then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {1, made, math.ceil(tonumber(oldest[2]) + 60 - now)}
end
local open = 0
local counted = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = 1, #counted, 2 do
    if redis.call('SISMEMBER', KEYS[3], counted[i]) == 1 or tonumber(counted[i + 1]) > now - tonumber(ARGV[5]) then
        open = open + 1
    else
        redis.call('ZREM', KEYS[2], counted[i])
    end
end
if open >= tonumber(ARGV[2]) then
    return {2, open, 60}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], 61)
redis.call('ZADD', KEYS[2], now, ARGV[3])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
return {0, 0, 0}
"""

# A stream's slot: a member of its seat's and its client's sorted sets, scored by when its lease runs out.
_OPEN_STREAM: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local seat = redis.call('ZCARD', KEYS[1])
if seat >= tonumber(ARGV[1]) then
    return {1, seat}
end
local mine = redis.call('ZCARD', KEYS[2])
if mine >= tonumber(ARGV[2]) then
    return {2, mine}
end
local lease = tonumber(ARGV[4])
for i = 1, 2 do
    redis.call('ZADD', KEYS[i], now + lease, ARGV[3])
    redis.call('EXPIRE', KEYS[i], math.ceil(lease) + 1)
end
return {0, 0}
"""

_RENEW_STREAM: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease = tonumber(ARGV[2])
for i = 1, 2 do
    redis.call('ZADD', KEYS[i], 'XX', now + lease, ARGV[1])
    redis.call('EXPIRE', KEYS[i], math.ceil(lease) + 1)
end
return 1
"""


class RedisCounters:
    """The counts of every process that shares ``store``, kept in its Redis under the store's prefix.

    Keys: ``limit:made:<client>`` and ``limit:open:<client>`` (sorted sets of room ids),
    ``limit:seat:<room>:<seat>`` and ``limit:streams:<client>`` (sorted sets of stream slots). Each expires
    by itself: a minute after the last room made, a day after the last room counted open, a lease after the
    last stream renewed.
    """

    def __init__(self, store: RedisStore, *, open_seconds: int = 86_400, lease: float = STREAM_LEASE) -> None:
        self._store = store
        self._open_seconds = open_seconds
        self._lease = lease
        self._count_room = store.client.register_script(_COUNT_ROOM)
        self._open_stream = store.client.register_script(_OPEN_STREAM)
        self._renew_stream = store.client.register_script(_RENEW_STREAM)

    def _stream_keys(self, slot: StreamSlot) -> list[str]:
        return [
            self._store.key("limit", "seat", slot.room, str(slot.seat)),
            self._store.key("limit", "streams", slot.client),
        ]

    async def count_room(self, client: str, room_id: str, limits: Limits) -> None:
        """As :meth:`Counters.count_room`."""
        keys = [
            self._store.key("limit", "made", client),
            self._store.key("limit", "open", client),
            self._store.key("rooms"),
        ]
        args = [limits.rooms_per_minute, limits.rooms_per_client, room_id, self._open_seconds, _PENDING]
        refused, count, wait = await self._store.call(self._count_room(keys=keys, args=args))
        if refused == 1:
            raise _rate_refusal(int(count), int(wait))
        if refused == 2:
            raise _open_refusal(int(count))

    async def uncount_room(self, client: str, room_id: str) -> None:
        """As :meth:`Counters.uncount_room`."""
        pipe = self._store.client.pipeline(transaction=True)
        pipe.zrem(self._store.key("limit", "made", client), room_id)
        pipe.zrem(self._store.key("limit", "open", client), room_id)
        await self._store.call(pipe.execute())

    async def room_ended(self, room_id: str) -> None:
        """As :meth:`Counters.room_ended`: an ended room is no longer in the store's set, and stops counting."""
        return None

    async def open_stream(self, slot: StreamSlot, limits: Limits) -> None:
        """As :meth:`Counters.open_stream`."""
        args = [limits.streams_per_seat, limits.streams_per_client, slot.id, self._lease]
        refused, count = await self._store.call(self._open_stream(keys=self._stream_keys(slot), args=args))
        if refused == 1:
            raise _seat_refusal(int(count))
        if refused == 2:
            raise _client_refusal(int(count))

    async def close_stream(self, slot: StreamSlot) -> None:
        """As :meth:`Counters.close_stream`."""
        pipe = self._store.client.pipeline(transaction=True)
        for key in self._stream_keys(slot):
            pipe.zrem(key, slot.id)
        await self._store.call(pipe.execute())

    async def renew_streams(self, slots: Iterable[StreamSlot]) -> None:
        """As :meth:`Counters.renew_streams`."""
        for slot in slots:
            await self._store.call(self._renew_stream(keys=self._stream_keys(slot), args=[slot.id, self._lease]))
