"""Where the web rooms are kept: each room's record and its seats' token hashes, committed move by move.

A store keeps, for every open room, what it takes to rebuild it: the game's name, the *record* (the rules,
the seats' names and kinds, the first player, the seed if any, and every action so far, chance outcomes
included) and a hash of each person's seat token. Never the tokens themselves, never a state: a room is
rebuilt by replaying its record, which checks every action again.

- :class:`MemoryStore` keeps rooms in this process only (they are lost when it stops): for tests and for
  embedding.
- :class:`SqliteStore` keeps them in an SQLite database file, the default of ``cheekymonkey serve``. Each
  move is committed before the server answers it, and the rooms are loaded again when the server starts.
  One server process uses the file.
- :class:`RedisStore` keeps them in Redis (the ``redis`` extra), so that several server processes, on one
  machine or several, share the rooms: a move is appended only if the room is still at the version it was
  chosen from (so a move sent to two processes at once is applied once), and every process hears of it
  through Redis's publish and subscribe, to wake the event streams it serves.

A room's *version* is the number of actions in its record. :meth:`~cheekymonkey.web.Store.append` adds
actions only at the version it is told, atomically: that is how two processes, or two requests, never both
play.

>>> import asyncio
>>> async def demo():
...     store = MemoryStore()
...     room = StoredRoom("r1", "cheeky-monkey", "standard", {"kind": "record"}, (), 0.0, 0.0, False)
...     await store.create(room, {0: token_hash("secret")})
...     first = await store.append("r1", 0, [{"type": "draw"}], last_move=1.0, finished=False)
...     again = await store.append("r1", 0, [{"type": "draw"}], last_move=1.0, finished=False)
...     return first, again, await store.seat_for(token_hash("secret")), len((await store.load("r1")).actions)
>>> asyncio.run(demo())
(True, False, ('r1', 0), 1)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from cheekymonkey.errors import CheekyMonkeyError

__all__ = [
    "Listener",
    "MemoryStore",
    "RedisStore",
    "RoomSummary",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredRoom",
    "UnreadableRoomError",
    "open_store",
    "token_hash",
]

Json = dict[str, Any]


class StoreError(CheekyMonkeyError, OSError):
    """The store cannot be reached or written; nothing was changed (the server answers 503)."""


class UnreadableRoomError(CheekyMonkeyError):
    """The store holds the room, but its rows cannot be read: a text that is not JSON, or not of the right shape.

    The message names the room and the row. The other rooms are not affected: the room manager closes this one
    (:class:`~cheekymonkey.web.RoomDamagedError`) and serves the rest.
    """


def _json(text: object, room_id: str, what: str) -> Any:
    """The value of the JSON text ``text``, one of the room's rows.

    Raises:
        UnreadableRoomError: If it is not JSON text.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableRoomError(f"room {room_id}: {what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise UnreadableRoomError(f"room {room_id}: {what} is not text but {type(text).__name__}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise UnreadableRoomError(f"room {room_id}: {what} is not JSON ({error})") from None


def _document(value: Any, room_id: str, what: str) -> Json:
    if not isinstance(value, dict):
        raise UnreadableRoomError(f"room {room_id}: {what} is not a JSON object")
    return value


def token_hash(token: str) -> str:
    """The hash a store keeps of a seat token: SHA-256, in hex. A token has 256 random bits, so no salt is needed.

    >>> len(token_hash("abc")), token_hash("abc") == token_hash("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.frozen
class StoredRoom:
    """One room as a store keeps it."""

    id: str
    """The room's public id."""
    game: str
    """The game's name (:data:`cheekymonkey.games.GAME_NAMES`)."""
    rules: str
    """The name the rules are shown by (a preset's name, or ``"custom"``)."""
    record: Json
    """The game's record document, with its actions left out (they are :attr:`actions`)."""
    actions: tuple[Json, ...]
    """Every action so far, as action documents, in order."""
    created: float
    """When the room was made (seconds since the epoch)."""
    last_move: float
    """When the last action was played (seconds since the epoch); the room's creation before any."""
    finished: bool
    """Whether the game is finished (over, or cut off at the room's move limit)."""


@attrs.frozen
class RoomSummary:
    """What the sweeper reads of a room to decide whether it has ended."""

    id: str
    last_move: float
    finished: bool


class Listener(Protocol):
    """What :meth:`Store.listen` calls: with a room's id and its new version, or None when the room has ended."""

    async def __call__(self, room_id: str, version: int | None, /) -> None:
        """Hear of a room's change."""
        ...


class Store(Protocol):
    """Where rooms are kept; every method may raise :class:`StoreError`."""

    @property
    def shared(self) -> bool:
        """Whether other processes may change the rooms too (they then must be read again before a move)."""
        ...

    @property
    def description(self) -> str:
        """Where the rooms are kept, for the server's start-up line."""
        ...

    async def create(self, room: StoredRoom, tokens: Mapping[int, str]) -> None:
        """Keep a new room and its seats' token hashes (seat -> hash)."""
        ...

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """Add ``actions`` to the room if it holds exactly ``version`` actions; False (nothing written) if not."""
        ...

    async def load(self, room_id: str) -> StoredRoom | None:
        """The room, or None if it is not kept.

        Raises:
            UnreadableRoomError: If the room is kept but its rows cannot be read.
        """
        ...

    async def actions_since(self, room_id: str, start: int) -> list[Json] | None:
        """The room's actions from number ``start`` on, or None if the room is not kept."""
        ...

    async def seat_for(self, token_hash: str) -> tuple[str, int] | None:
        """The room id and seat of a token's hash, or None."""
        ...

    async def delete(self, room_id: str) -> None:
        """Forget a room, its record and its token hashes (nothing if it is not kept)."""
        ...

    async def summaries(self) -> list[RoomSummary]:
        """Every room kept, briefly."""
        ...

    async def count(self) -> int:
        """How many rooms are kept."""
        ...

    async def publish(self, room_id: str, version: int | None) -> None:
        """Tell every process that the room is at ``version`` now (None: closed)."""
        ...

    async def listen(self, listener: Listener) -> None:
        """Call ``listener`` for every :meth:`publish` (this process's own included), until the store is closed."""
        ...

    async def claim_bots(self, room_id: str, owner: str, seconds: float) -> bool:
        """Whether ``owner`` may play the room's bots now: a lease that ends after ``seconds`` unless renewed."""
        ...

    async def release_bots(self, room_id: str, owner: str) -> None:
        """Give the lease back."""
        ...

    async def close(self) -> None:
        """Release the store's connections."""
        ...


class _LocalStore:
    """What the stores kept by one process share: they need no notifications and no leases."""

    shared: Final = False

    async def publish(self, room_id: str, version: int | None) -> None:
        """As :meth:`Store.publish`."""
        return None

    async def listen(self, listener: Listener) -> None:
        """As :meth:`Store.listen`."""
        return None

    async def claim_bots(self, room_id: str, owner: str, seconds: float) -> bool:
        """As :meth:`Store.claim_bots`."""
        return True

    async def release_bots(self, room_id: str, owner: str) -> None:
        """As :meth:`Store.release_bots`."""
        return None


class MemoryStore(_LocalStore):
    """Rooms in this process's memory only: lost when it stops."""

    description: Final = "in memory (rooms are lost when the server stops)"

    def __init__(self) -> None:
        self._rooms: dict[str, StoredRoom] = {}
        self._actions: dict[str, list[Json]] = {}
        self._tokens: dict[str, tuple[str, int]] = {}

    async def create(self, room: StoredRoom, tokens: Mapping[int, str]) -> None:
        """As :meth:`Store.create`."""
        self._rooms[room.id] = attrs.evolve(room, actions=())
        self._actions[room.id] = [dict(a) for a in room.actions]
        for seat, hashed in tokens.items():
            self._tokens[hashed] = (room.id, seat)

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """As :meth:`Store.append`."""
        kept = self._actions.get(room_id)
        if kept is None or len(kept) != version:
            return False
        kept.extend(dict(a) for a in actions)
        self._rooms[room_id] = attrs.evolve(self._rooms[room_id], last_move=last_move, finished=finished)
        return True

    async def load(self, room_id: str) -> StoredRoom | None:
        """As :meth:`Store.load`."""
        room = self._rooms.get(room_id)
        if room is None:
            return None
        return attrs.evolve(room, actions=tuple(self._actions[room_id]))

    async def actions_since(self, room_id: str, start: int) -> list[Json] | None:
        """As :meth:`Store.actions_since`."""
        kept = self._actions.get(room_id)
        return None if kept is None else kept[start:]

    async def seat_for(self, token_hash: str) -> tuple[str, int] | None:
        """As :meth:`Store.seat_for`."""
        return self._tokens.get(token_hash)

    async def delete(self, room_id: str) -> None:
        """As :meth:`Store.delete`."""
        self._rooms.pop(room_id, None)
        self._actions.pop(room_id, None)
        for hashed in [h for h, (r, _) in self._tokens.items() if r == room_id]:
            del self._tokens[hashed]

    async def summaries(self) -> list[RoomSummary]:
        """As :meth:`Store.summaries`."""
        return [RoomSummary(r.id, r.last_move, r.finished) for r in self._rooms.values()]

    async def count(self) -> int:
        """As :meth:`Store.count`."""
        return len(self._rooms)

    async def close(self) -> None:
        """As :meth:`Store.close`."""
        return None


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    record TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL,
    last_move REAL NOT NULL,
    finished INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, number)
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL
);
"""


def _seconds(value: object) -> float:
    # A time that cannot be read counts as long ago: the sweep ends such a room (and says so) rather than fail.
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0


class SqliteStore(_LocalStore):
    """Rooms in an SQLite database file (created if missing), for one server process.

    Every write is one transaction, committed before the call returns, in write-ahead-log mode with
    ``synchronous=NORMAL``: a move the server has answered survives the process being killed (even with
    SIGKILL); a power cut or a crash of the whole machine may lose the last moments' moves, never the
    database. (``synchronous=FULL`` would wait for the disk at every move, about 5 ms here, and cap the
    server near 200 moves a second.) All database work runs on one worker thread, so the event loop never
    waits on the disk.

    When it opens the file, the store checks it whole (SQLite's ``quick_check``: every page and index) and
    checks that it can write there (a transaction that writes and is rolled back), so that a damaged or
    read-only database is refused at start, in one line, rather than met by the first move.

    Args:
        path: The database file (``":memory:"`` for a database that lives as long as the store).

    Raises:
        StoreError: If the file cannot be opened, is not a database of this kind, is damaged, or cannot be
            written (a read-only file, or a read-only folder where SQLite cannot keep its journal).
    """

    def __init__(self, path: str) -> None:
        self.path = str(path)
        self.description = f"in the SQLite database {self.path}"
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cheekymonkey-sqlite")
        self._db: sqlite3.Connection | None = None
        future = self._worker.submit(self._open)
        try:
            future.result()
        except (sqlite3.Error, OSError, StoreError) as error:
            self._worker.shutdown()
            said = str(error).replace("-", "")
            if isinstance(error, sqlite3.Error) and ("readonly" in said or "unable to open" in said):
                error = StoreError(f"it cannot be written ({error}): is the file or its folder read-only?")
            raise StoreError(f"cannot use {self.path} as the room store: {error}") from None

    def _open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            found = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
            if found != ["ok"]:
                said = " ".join(" ".join(str(line) for line in found).split())
                raise StoreError(f"the database is damaged (SQLite's check: {said[:300]})")
            db.executescript(_SCHEMA)
            # Write, and take it back: a read-only file or folder is found now, not at the first move.
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("CREATE TABLE write_check (x)")
            finally:
                db.execute("ROLLBACK")
        except BaseException:
            db.close()
            raise
        self._db = db

    async def _run(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        def job() -> Any:
            db = self._db
            if db is None:
                raise sqlite3.ProgrammingError("the store is closed")
            return work(db)

        try:
            return await asyncio.get_running_loop().run_in_executor(self._worker, job)
        except sqlite3.Error as error:
            raise StoreError(f"the room store failed: {error}") from None

    @staticmethod
    def _transaction(db: sqlite3.Connection, work: Callable[[], Any]) -> Any:
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work()
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    async def create(self, room: StoredRoom, tokens: Mapping[int, str]) -> None:
        """As :meth:`Store.create`."""

        def work(db: sqlite3.Connection) -> None:
            def insert() -> None:
                db.execute(
                    "INSERT INTO rooms VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        room.id,
                        room.game,
                        room.rules,
                        json.dumps(room.record),
                        len(room.actions),
                        room.created,
                        room.last_move,
                        int(room.finished),
                    ),
                )
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?)",
                    [(room.id, n, json.dumps(a)) for n, a in enumerate(room.actions)],
                )
                db.executemany("INSERT INTO tokens VALUES (?, ?, ?)", [(h, room.id, s) for s, h in tokens.items()])

            self._transaction(db, insert)

        await self._run(work)

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """As :meth:`Store.append`."""

        def work(db: sqlite3.Connection) -> bool:
            def write() -> bool:
                moved = db.execute(
                    "UPDATE rooms SET version = ?, last_move = ?, finished = ? WHERE id = ? AND version = ?",
                    (version + len(actions), last_move, int(finished), room_id, version),
                ).rowcount
                if moved != 1:
                    return False
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?)",
                    [(room_id, version + n, json.dumps(a)) for n, a in enumerate(actions)],
                )
                return True

            result: bool = self._transaction(db, write)
            return result

        result: bool = await self._run(work)
        return result

    async def load(self, room_id: str) -> StoredRoom | None:
        """As :meth:`Store.load`."""

        def work(db: sqlite3.Connection) -> StoredRoom | None:
            row = db.execute(
                "SELECT id, game, rules, record, created, last_move, finished FROM rooms WHERE id = ?", (room_id,)
            ).fetchone()
            if row is None:
                return None
            rows = db.execute(
                "SELECT number, action FROM actions WHERE room = ? ORDER BY number", (room_id,)
            ).fetchall()
            actions = tuple(_document(_json(a, room_id, f"action {n}"), room_id, f"action {n}") for n, a in rows)
            if [n for n, _ in rows] != list(range(len(rows))):
                raise UnreadableRoomError(f"room {room_id}: its actions are not numbered 0 to {len(rows) - 1}")
            record = _document(_json(row[3], room_id, "its record"), room_id, "its record")
            try:
                return StoredRoom(
                    row[0], str(row[1]), str(row[2]), record, actions, float(row[4]), float(row[5]), bool(row[6])
                )
            except (TypeError, ValueError) as error:
                raise UnreadableRoomError(f"room {room_id}: its times cannot be read ({error})") from None

        room: StoredRoom | None = await self._run(work)
        return room

    async def actions_since(self, room_id: str, start: int) -> list[Json] | None:
        """As :meth:`Store.actions_since`."""

        def work(db: sqlite3.Connection) -> list[Json] | None:
            if db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone() is None:
                return None
            rows = db.execute(
                "SELECT action FROM actions WHERE room = ? AND number >= ? ORDER BY number", (room_id, start)
            ).fetchall()
            return [_document(_json(a, room_id, "an action"), room_id, "an action") for (a,) in rows]

        actions: list[Json] | None = await self._run(work)
        return actions

    async def seat_for(self, token_hash: str) -> tuple[str, int] | None:
        """As :meth:`Store.seat_for`."""

        def work(db: sqlite3.Connection) -> tuple[str, int] | None:
            row = db.execute("SELECT room, seat FROM tokens WHERE hash = ?", (token_hash,)).fetchone()
            return None if row is None else (row[0], row[1])

        found: tuple[str, int] | None = await self._run(work)
        return found

    async def delete(self, room_id: str) -> None:
        """As :meth:`Store.delete`."""

        def work(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

        await self._run(work)

    async def summaries(self) -> list[RoomSummary]:
        """As :meth:`Store.summaries`."""

        def work(db: sqlite3.Connection) -> list[RoomSummary]:
            rows = db.execute("SELECT id, last_move, finished FROM rooms ORDER BY created").fetchall()
            return [RoomSummary(r[0], _seconds(r[1]), bool(r[2])) for r in rows]

        found: list[RoomSummary] = await self._run(work)
        return found

    async def count(self) -> int:
        """As :meth:`Store.count`."""

        def work(db: sqlite3.Connection) -> int:
            (n,) = db.execute("SELECT COUNT(*) FROM rooms").fetchone()
            return int(n)

        n: int = await self._run(work)
        return n

    async def close(self) -> None:
        """As :meth:`Store.close`."""

        def work() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None

        with contextlib.suppress(RuntimeError):  # already shut down
            await asyncio.get_running_loop().run_in_executor(self._worker, work)
        self._worker.shutdown(wait=False)


# Appends the actions only at the expected version, and tells every process, in one step on the server.
_APPEND: Final = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version'))
if version == nil or version ~= tonumber(ARGV[1]) then
    return 0
end
for i = 5, #ARGV do
    redis.call('RPUSH', KEYS[2], ARGV[i])
end
local now = version + #ARGV - 4
redis.call('HSET', KEYS[1], 'version', now, 'last_move', ARGV[2], 'finished', ARGV[3])
redis.call('PUBLISH', ARGV[4], KEYS[1] .. ' ' .. now)
return 1
"""

_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisStore:
    """Rooms in Redis, shared by every server process that uses the same Redis (the ``redis`` extra).

    Keys (all under ``prefix``): ``room:<id>`` (a hash: the game, rules, record without actions, version,
    times, token hashes), ``actions:<id>`` (a list of action documents), ``token:<hash>`` (``<id> <seat>``), ``rooms``
    (the set of room ids) and ``bots:<id>`` (the lease of the process playing the room's bots). Changes
    are announced on the channel ``<prefix>changes``.

    Args:
        url: A ``redis://`` or ``rediss://`` URL.
        prefix: Put before every key, so that several servers can share one Redis.

    Raises:
        ImportError: If the ``redis`` package is missing (the message names the extra).
    """

    shared: Final = True

    def __init__(self, url: str, *, prefix: str = "cheekymonkey:") -> None:
        try:
            import redis.asyncio
        except ImportError as error:  # pragma: no cover - exercised only without the extra
            raise ImportError(
                f"a Redis store needs the 'redis' extra ({error.name} is missing): pip install 'cheekymonkey[redis]'"
            ) from error
        self._redis = redis.asyncio.Redis.from_url(url, decode_responses=True)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._prefix = prefix
        self._channel = prefix + "changes"
        self._append = self._redis.register_script(_APPEND)
        self._release = self._redis.register_script(_RELEASE)
        self.description = f"in Redis at {url.split('@')[-1]}"  # never the password

    @property
    def client(self) -> Any:
        """The ``redis.asyncio.Redis`` client (:class:`~cheekymonkey.web.limits.RedisCounters` shares it)."""
        return self._redis

    def key(self, *parts: str) -> str:
        """The key of ``parts`` under this store's prefix (``key("room", "r1")`` is ``"cheekymonkey:room:r1"``)."""
        return self._prefix + ":".join(parts)

    async def call(self, call: Awaitable[Any]) -> Any:
        """Await a Redis call; a Redis or connection error becomes a :class:`StoreError`."""
        try:
            return await call
        except self._errors as error:
            raise StoreError(f"the room store (Redis) failed: {error}") from None

    async def create(self, room: StoredRoom, tokens: Mapping[int, str]) -> None:
        """As :meth:`Store.create`."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(
            self.key("room", room.id),
            mapping={
                "game": room.game,
                "rules": room.rules,
                "record": json.dumps(room.record),
                "version": len(room.actions),
                "created": repr(room.created),
                "last_move": repr(room.last_move),
                "finished": int(room.finished),
                "tokens": json.dumps(sorted(tokens.values())),
            },
        )
        if room.actions:
            pipe.rpush(self.key("actions", room.id), *[json.dumps(a) for a in room.actions])
        for seat, hashed in tokens.items():
            pipe.set(self.key("token", hashed), f"{room.id} {seat}")
        pipe.sadd(self.key("rooms"), room.id)
        await self.call(pipe.execute())

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """As :meth:`Store.append`."""
        keys = [self.key("room", room_id), self.key("actions", room_id)]
        args: list[str | int] = [version, repr(last_move), int(finished), self._channel]
        args += [json.dumps(a) for a in actions]
        done = await self.call(self._append(keys=keys, args=args))
        return bool(done)

    async def load(self, room_id: str) -> StoredRoom | None:
        """As :meth:`Store.load`."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.hgetall(self.key("room", room_id))
        pipe.lrange(self.key("actions", room_id), 0, -1)
        fields, actions = await self.call(pipe.execute())
        if not fields:
            return None
        try:
            version = int(fields["version"])
            record = _document(_json(fields["record"], room_id, "its record"), room_id, "its record")
            kept = tuple(
                _document(_json(a, room_id, f"action {n}"), room_id, f"action {n}")
                for n, a in enumerate(actions[:version])
            )
            if len(kept) != version:
                raise UnreadableRoomError(f"room {room_id}: it is at version {version} with {len(kept)} actions kept")
            return StoredRoom(
                room_id,
                fields["game"],
                fields["rules"],
                record,
                kept,
                float(fields["created"]),
                float(fields["last_move"]),
                fields["finished"] == "1",
            )
        except (KeyError, TypeError, ValueError) as error:
            raise UnreadableRoomError(f"room {room_id}: its fields cannot be read ({error!r})") from None

    async def actions_since(self, room_id: str, start: int) -> list[Json] | None:
        """As :meth:`Store.actions_since`."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.hget(self.key("room", room_id), "version")
        pipe.lrange(self.key("actions", room_id), start, -1)
        version, actions = await self.call(pipe.execute())
        if version is None:
            return None
        try:
            return [
                _document(_json(a, room_id, "an action"), room_id, "an action")
                for a in actions[: max(0, int(version) - start)]
            ]
        except ValueError as error:
            raise UnreadableRoomError(f"room {room_id}: its version cannot be read ({error})") from None

    async def seat_for(self, token_hash: str) -> tuple[str, int] | None:
        """As :meth:`Store.seat_for`."""
        found = await self.call(self._redis.get(self.key("token", token_hash)))
        if not isinstance(found, str):
            return None
        room_id, _, seat = found.partition(" ")
        return room_id, int(seat)

    async def delete(self, room_id: str) -> None:
        """As :meth:`Store.delete`."""
        kept = await self.call(self._redis.hget(self.key("room", room_id), "tokens"))
        hashes = [self.key("token", hashed) for hashed in json.loads(kept or "[]")]
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self.key("room", room_id), self.key("actions", room_id), self.key("bots", room_id), *hashes)
        pipe.srem(self.key("rooms"), room_id)
        pipe.publish(self._channel, f"{self.key('room', room_id)} closed")
        await self.call(pipe.execute())

    async def summaries(self) -> list[RoomSummary]:
        """As :meth:`Store.summaries`."""
        ids = sorted(await self.call(self._redis.smembers(self.key("rooms"))))
        pipe = self._redis.pipeline(transaction=False)
        for room_id in ids:
            pipe.hmget(self.key("room", room_id), ["last_move", "finished"])
        rows = await self.call(pipe.execute())
        return [
            RoomSummary(room_id, _seconds(last), finished == "1")
            for room_id, (last, finished) in zip(ids, rows, strict=True)
            if last is not None
        ]

    async def count(self) -> int:
        """As :meth:`Store.count`."""
        n = await self.call(self._redis.scard(self.key("rooms")))
        return int(n)

    async def publish(self, room_id: str, version: int | None) -> None:
        """As :meth:`Store.publish`."""
        state = "closed" if version is None else str(version)
        await self.call(self._redis.publish(self._channel, f"{self.key('room', room_id)} {state}"))

    async def listen(self, listener: Listener) -> None:
        """As :meth:`Store.listen`."""
        prefix = self.key("room", "")
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel)
                async for message in pubsub.listen():
                    key, _, state = str(message.get("data", "")).rpartition(" ")
                    if key.startswith(prefix):
                        await listener(key.removeprefix(prefix), None if state == "closed" else int(state))
            except self._errors:
                await asyncio.sleep(1.0)  # Redis went away: listen again once it is back
            finally:
                with contextlib.suppress(*self._errors):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # untyped in older redis releases

    async def claim_bots(self, room_id: str, owner: str, seconds: float) -> bool:
        """As :meth:`Store.claim_bots`."""
        key = self.key("bots", room_id)
        milliseconds = max(1, int(seconds * 1000))
        if await self.call(self._redis.set(key, owner, nx=True, px=milliseconds)):
            return True
        # Already ours: renew it.
        if await self.call(self._redis.get(key)) == owner:
            await self.call(self._redis.pexpire(key, milliseconds))
            return True
        return False

    async def release_bots(self, room_id: str, owner: str) -> None:
        """As :meth:`Store.release_bots`."""
        await self.call(self._release(keys=[self.key("bots", room_id)], args=[owner]))

    async def close(self) -> None:
        """As :meth:`Store.close`."""
        with contextlib.suppress(*self._errors):
            await self._redis.aclose()


def open_store(where: str) -> Store:
    """The store named by ``where``: ``":memory:"``, a ``redis://`` (or ``rediss://``) URL, or an SQLite file path.

    Raises:
        StoreError: If an SQLite file cannot be used.
        ImportError: For a Redis URL without the ``redis`` extra.
    """
    if where == ":memory:":
        return MemoryStore()
    if where.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(where)
    return SqliteStore(where)
