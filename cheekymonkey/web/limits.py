"""What one server allows (:class:`Limits`), and the counters that hold each client to it, in one process or many.

A client is known by its network (:func:`~cheekymonkey.web.limits.client_network`): the connection's address,
or the one a trusted reverse proxy names in ``X-Forwarded-For`` (``cheekymonkey serve --forwarded-allow-ips``;
by default no proxy is trusted), cut to its first :attr:`~cheekymonkey.web.Limits.ipv4_prefix` bits for IPv4
(32: the address) and :attr:`~cheekymonkey.web.Limits.ipv6_prefix` bits for IPv6 (64: one site's /64, which a
single machine may hold whole). The counters keep, for each client, the rooms it made in the last minute and
those it has open, and for each seat and each client the event streams open:

- :class:`LocalCounters` keep them in this process (a memory or SQLite store: one process serves);
- :class:`RedisCounters` keep them in the Redis that shares the rooms, each check and count in one Lua script,
  so that a client gets the same budget whether it talks to one process or to several. Every key has an
  expiry; a stream's slot is a lease that its process renews while the stream is open, so the slots of a
  process that dies come back by themselves within :data:`STREAM_LEASE` seconds.

The server-wide caps: the rooms in all are counted in the store, and the streams in all
(:attr:`~cheekymonkey.web.Limits.max_streams`) per process, since each holds a connection of that process. The
last quarter of each cap (:func:`~cheekymonkey.web.limits.reserved`) is kept for clients that hold none yet:
once the rest is taken, a client that already holds a room (or a stream) gets no more (429), while one that
holds none still gets one. A few dozen clients at their own limits fill three quarters of a cap at most;
filling the rest takes as many more clients as the quarter holds.

Every request of a client is also charged to its :class:`~cheekymonkey.web.limits.RequestBudget` (in this
process): a bucket of :attr:`~cheekymonkey.web.Limits.request_burst` units that refills at
:attr:`~cheekymonkey.web.Limits.request_rate` units a second, where a request costs one unit plus one per KiB
of its answer (:func:`~cheekymonkey.web.limits.request_cost`). A client whose bucket is empty gets 429 with
``Retry-After`` until it has refilled enough: a table read from ``since=0`` of a long game (hundreds of KiB)
costs a hundred times a version check.
"""

from __future__ import annotations

import collections
import ipaddress
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

__all__ = [
    "SAFE_INTEGER",
    "STREAM_LEASE",
    "Counters",
    "Limits",
    "LocalCounters",
    "RedisCounters",
    "RequestBudget",
    "StreamSlot",
    "client_network",
    "request_cost",
    "reserved",
]

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
    """Rooms one client (one network, :func:`~cheekymonkey.web.limits.client_network`) may have open at once (more:
    429); one only, once the rooms in all reach the :func:`~cheekymonkey.web.limits.reserved` last quarter of
    :attr:`max_rooms`."""
    rooms_per_minute: int = attrs.field(default=10, validator=_positive(int))
    """Rooms one client may make in any 60 seconds (more: 429)."""
    max_streams: int = attrs.field(default=500, validator=_positive(int))
    """Event streams open at once in one server process, in all (more: 503)."""
    streams_per_seat: int = attrs.field(default=4, validator=_positive(int))
    """Event streams open at once on one seat (more: 429): a few tabs, not a flood."""
    streams_per_client: int = attrs.field(default=16, validator=_positive(int))
    """Event streams one client (one network) may have open at once, on any seats (more: 429); one only, once
    this process's streams reach the :func:`~cheekymonkey.web.limits.reserved` last quarter of
    :attr:`max_streams`."""
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
    request_burst: int = attrs.field(default=5000, validator=_positive(int))
    """Units of work one client may ask for at once (:func:`~cheekymonkey.web.limits.request_cost`: a request is 1,
    plus 1 a KiB answered)."""
    request_rate: float = attrs.field(default=500.0, validator=_positive(float))
    """Units a second a client's budget refills by (more asked for: 429 until it has refilled)."""
    ipv4_prefix: int = attrs.field(default=32, validator=_positive(int))
    """The leading bits of an IPv4 address that name its client (32: each address is a client of its own)."""
    ipv6_prefix: int = attrs.field(default=64, validator=_positive(int))
    """The leading bits of an IPv6 address that name its client (64: a /64, which one machine may hold whole)."""

    def __attrs_post_init__(self) -> None:
        if self.max_number > SAFE_INTEGER:
            raise InvalidValueError(
                f"max_number must be at most 2**53 - 1 (exact in JavaScript), got {self.max_number}"
            )
        if self.ipv4_prefix > 32 or self.ipv6_prefix > 128:
            raise InvalidValueError(
                f"ipv4_prefix must be 1 to 32 and ipv6_prefix 1 to 128, got {self.ipv4_prefix} and {self.ipv6_prefix}"
            )


def client_network(address: str, ipv4_prefix: int = 32, ipv6_prefix: int = 64) -> str:
    """The client an address belongs to, for every per-client limit: its network, as text.

    An IPv4 address keeps its first ``ipv4_prefix`` bits, an IPv6 address its first ``ipv6_prefix`` (an
    IPv4 address mapped into IPv6, ``::ffff:a.b.c.d``, counts as the IPv4 address). Text that is not an
    address (a Unix socket's peer, say) is its own client.

    >>> client_network("203.0.113.7"), client_network("203.0.113.7", ipv4_prefix=24)
    ('203.0.113.7/32', '203.0.113.0/24')
    >>> client_network("2001:db8:1:2:aaaa::1"), client_network("2001:db8:1:2:ffff::9")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> client_network("::ffff:192.0.2.1")
    '192.0.2.1/32'
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = ipv4_prefix if ip.version == 4 else ipv6_prefix
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def reserved(cap: int) -> int:
    """How much of a server-wide cap is kept for clients that hold none of it yet: a quarter (at least one).

    >>> reserved(1000), reserved(500), reserved(2)
    (250, 125, 1)
    """
    return max(1, cap // 4)


def request_cost(answer_bytes: int) -> int:
    """What a request costs its client's :class:`~cheekymonkey.web.limits.RequestBudget`: one unit, one more a KiB.

    >>> request_cost(0), request_cost(1023), request_cost(4096), request_cost(300 * 1024)
    (1, 1, 5, 301)
    """
    return 1 + answer_bytes // 1024


def _budget_refusal(wait: int) -> LimitError:
    return LimitError(f"you have asked for more than this server serves one client; try again in {wait} s", wait)


class RequestBudget:
    """Each client's budget of work in this process: a burst, and a refill a second (:class:`Limits`).

    The burst is :attr:`~cheekymonkey.web.Limits.request_burst` units, the refill
    :attr:`~cheekymonkey.web.Limits.request_rate` a second. :meth:`check` refuses a request while its client's
    bucket is empty; :meth:`charge` takes a served request's cost once its answer is known (the bucket may go
    below zero: the client then waits until it has refilled past zero). Buckets that have refilled are
    forgotten, so memory holds only busy clients.

    Args:
        limits: The burst and the rate.
        clock: Seconds, for the refill (``time.monotonic``).
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self._burst = float(limits.request_burst)
        self._rate = float(limits.request_rate)
        self._clock = clock
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = collections.OrderedDict()
        self.refused = 0
        """How many requests were refused."""

    def _level(self, client: str, now: float) -> float:
        held = self._buckets.get(client)
        if held is None:
            return self._burst
        level, then = held
        return min(self._burst, level + (now - then) * self._rate)

    def check(self, client: str) -> None:
        """Refuse a request of ``client`` if its budget is spent.

        Raises:
            LimitError: With the seconds until the budget is above zero again (429).
        """
        now = self._clock()
        level = self._level(client, now)
        if level <= 0:
            self.refused += 1
            raise _budget_refusal(math.ceil((1 - level) / self._rate))

    def charge(self, client: str, cost: int) -> None:
        """Take ``cost`` units from ``client``'s budget."""
        now = self._clock()
        self._buckets[client] = (self._level(client, now) - cost, now)
        self._buckets.move_to_end(client)
        # Forget the buckets that have refilled since (the oldest first): they hold nothing a fresh one does not.
        while len(self._buckets) > 1:
            oldest, (level, then) = next(iter(self._buckets.items()))
            if level + (now - then) * self._rate < self._burst:
                break
            del self._buckets[oldest]

    @property
    def clients(self) -> int:
        """How many clients' buckets are held (those not yet refilled)."""
        return len(self._buckets)


@attrs.frozen
class StreamSlot:
    """One open event stream, as the counters know it: whose seat, and which client."""

    room: str
    seat: int
    client: str
    id: str = attrs.field(factory=lambda: uuid.uuid4().hex)


def _rate_refusal(made: int, wait: int) -> LimitError:
    return LimitError(f"you made {made} rooms in the last minute, this server's limit; try again in {wait} s", wait)


def _open_refusal(count: int, limit: int, limits: Limits) -> LimitError:
    if limit < limits.rooms_per_client:
        return LimitError(
            f"you have {count} rooms open and this server is nearly full: its last rooms are kept for players "
            "who have none; finish or leave one first",
            60,
        )
    return LimitError(f"you have {count} rooms open, this server's limit: finish or leave one first", 60)


def _seat_refusal(count: int) -> LimitError:
    return LimitError(f"this seat already has {count} event streams open: close a tab", 10)


def _client_refusal(count: int, limit: int, limits: Limits) -> LimitError:
    if limit < limits.streams_per_client:
        return LimitError(
            f"you have {count} event streams open and this server is nearly full: its last streams are kept "
            "for players who have none; close a tab",
            10,
        )
    return LimitError(f"you have {count} event streams open, this server's limit: close a tab", 10)


class Counters(Protocol):
    """Where the per-client counts are kept; every check and count is one step (no two requests both pass)."""

    async def count_room(self, client: str, room_id: str, limits: Limits, open_limit: int | None = None) -> None:
        """Count the room ``client`` is about to make.

        ``open_limit`` is the rooms the client may have open (:attr:`~cheekymonkey.web.Limits.rooms_per_client`
        if None; 1 once the server's rooms reach their :func:`~cheekymonkey.web.limits.reserved` part).

        Raises:
            LimitError: If ``client`` made :attr:`~cheekymonkey.web.Limits.rooms_per_minute` rooms in the last
                minute, or has ``open_limit`` open; nothing is counted.
        """
        ...

    async def uncount_room(self, client: str, room_id: str) -> None:
        """Take back a room counted by :meth:`count_room` that could not be made after all."""
        ...

    async def room_ended(self, room_id: str) -> None:
        """The room has ended: it no longer counts as open for the client that made it."""
        ...

    async def open_stream(self, slot: StreamSlot, limits: Limits, client_limit: int | None = None) -> None:
        """Count a stream about to open.

        ``client_limit`` is the streams the client may have open (:attr:`~cheekymonkey.web.Limits.streams_per_client`
        if None; 1 once this process's streams reach their :func:`~cheekymonkey.web.limits.reserved` part).

        Raises:
            LimitError: If the seat has :attr:`~cheekymonkey.web.Limits.streams_per_seat` streams open, or the client
                ``client_limit``; nothing is counted.
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

    async def count_room(self, client: str, room_id: str, limits: Limits, open_limit: int | None = None) -> None:
        """As :meth:`Counters.count_room`."""
        limit = limits.rooms_per_client if open_limit is None else open_limit
        now = self._clock()
        made = self._made.get(client)
        if made is not None:
            while made and made[0][0] <= now - 60:
                made.popleft()
            if len(made) >= limits.rooms_per_minute:
                raise _rate_refusal(len(made), math.ceil(made[0][0] + 60 - now))
        if len(self._open.get(client, ())) >= limit:
            raise _open_refusal(len(self._open[client]), limit, limits)
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

    async def open_stream(self, slot: StreamSlot, limits: Limits, client_limit: int | None = None) -> None:
        """As :meth:`Counters.open_stream`."""
        limit = limits.streams_per_client if client_limit is None else client_limit
        seat = (slot.room, slot.seat)
        if self._seats[seat] >= limits.streams_per_seat:
            raise _seat_refusal(self._seats[seat])
        if self._clients[slot.client] >= limit:
            raise _client_refusal(self._clients[slot.client], limit, limits)
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

    async def count_room(self, client: str, room_id: str, limits: Limits, open_limit: int | None = None) -> None:
        """As :meth:`Counters.count_room`."""
        limit = limits.rooms_per_client if open_limit is None else open_limit
        keys = [
            self._store.key("limit", "made", client),
            self._store.key("limit", "open", client),
            self._store.key("rooms"),
        ]
        args = [limits.rooms_per_minute, limit, room_id, self._open_seconds, _PENDING]
        refused, count, wait = await self._store.call(self._count_room(keys=keys, args=args))
        if refused == 1:
            raise _rate_refusal(int(count), int(wait))
        if refused == 2:
            raise _open_refusal(int(count), limit, limits)

    async def uncount_room(self, client: str, room_id: str) -> None:
        """As :meth:`Counters.uncount_room`."""
        pipe = self._store.client.pipeline(transaction=True)
        pipe.zrem(self._store.key("limit", "made", client), room_id)
        pipe.zrem(self._store.key("limit", "open", client), room_id)
        await self._store.call(pipe.execute())

    async def room_ended(self, room_id: str) -> None:
        """As :meth:`Counters.room_ended`: an ended room is no longer in the store's set, and stops counting."""
        return None

    async def open_stream(self, slot: StreamSlot, limits: Limits, client_limit: int | None = None) -> None:
        """As :meth:`Counters.open_stream`."""
        limit = limits.streams_per_client if client_limit is None else client_limit
        args = [limits.streams_per_seat, limit, slot.id, self._lease]
        refused, count = await self._store.call(self._open_stream(keys=self._stream_keys(slot), args=args))
        if refused == 1:
            raise _seat_refusal(int(count))
        if refused == 2:
            raise _client_refusal(int(count), limit, limits)

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
