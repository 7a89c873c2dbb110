"""Where the web rooms are kept: each room's record and its seats' token hashes, committed move by move.

A store keeps, for every open room, what it takes to rebuild it: the game's name, the *record* (the rules,
the seats' names and kinds, the first player, the seed if any, and every action so far, chance outcomes
included), a hash of each person's seat token and of the room's watch token (kept as a seat token of the
seat :data:`~cheekymonkey.web.store.WATCHER`), and for a seat whose link must be claimed (a game with
private information) a hash of the link's one-time code and whether it was claimed. Never the tokens or
codes themselves, never a state: a room is rebuilt by replaying its record, which checks every action again.
A restart forgets no link: an outstanding code still opens its seat once, and a claimed one stays claimed.

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
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import attrs

from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.web.errors import RoomDamagedError

__all__ = [
    "BOT_LEASE_TTL",
    "DEFAULT_TIMEOUT",
    "WATCHER",
    "InconsistentRoomError",
    "Listener",
    "MemoryStore",
    "RedisStore",
    "RoomSummary",
    "SeatClaim",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoredRoom",
    "UnreadableRoomError",
    "open_store",
    "token_hash",
]

Json = dict[str, Any]

_LOG: Final = logging.getLogger("cheekymonkey.web")

WATCHER: Final = -1
"""The seat a room's watch token is kept under, beside the seat tokens: it opens the room to a spectator
(:meth:`~cheekymonkey.web.RoomManager.viewer_for`), never a seat."""

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds a call to an SQLite or Redis store may take before it is given up with a :class:`StoreError` (503)."""


class StoreError(CheekyMonkeyError, OSError):
    """The store cannot be reached or written; nothing was changed (the server answers 503)."""


class UnreadableRoomError(CheekyMonkeyError):
    """The store holds the room, but its rows cannot be read: a text that is not JSON, or not of the right shape.

    The message names the room and the row. The other rooms are not affected: the room manager closes this one
    (:class:`~cheekymonkey.web.RoomDamagedError`) and serves the rest.
    """


class InconsistentRoomError(UnreadableRoomError, RoomDamagedError):
    """The store's rows of a room disagree with each other, or with a version this process has already answered.

    A version column that disagrees with the actions kept, or a Redis that came back from an older copy of its
    data (the room is below a version already answered, and playing on would deal its draws again): the room is
    closed and its seats are answered 410 Gone (it is a :class:`~cheekymonkey.web.RoomDamagedError`), never
    played on. The store writes one log line the first time it finds it (the room manager, when it finds it
    loading the room).
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
    idle: float | None = None
    """Seconds since the last move by the store's own clock (None: the room manager's clock tells)."""


@attrs.frozen
class SeatClaim:
    """What :meth:`~cheekymonkey.web.Store.claim` found: the room and seat a link's code opens, and who claimed it."""

    room: str
    """The room's id."""
    seat: int
    """The seat the link opens."""
    won: bool
    """True if this call claimed it (the new token now opens the seat); False if it was claimed before."""


def _claim_row(room: object, seat: object, claimed: object, code_hash: str) -> SeatClaim:
    """A claim row read back, checked: a room id, a seat number and a claimed flag of 0 or 1.

    Raises:
        UnreadableRoomError: If any of them is not of its shape (the message names the room if it can).
    """
    seat = seat.decode("ascii", "replace") if isinstance(seat, bytes) else seat
    if isinstance(seat, str) and seat.isdigit() and seat.isascii() and len(seat) < 4:
        seat = int(seat)
    claimed = claimed.decode("ascii", "replace") if isinstance(claimed, bytes) else claimed
    flag = {0: False, 1: True, "0": False, "1": True}.get(claimed) if isinstance(claimed, int | str) else None
    if not isinstance(room, str) or not room or type(seat) is not int or not 0 <= seat < 64 or flag is None:
        where = f"room {room}" if isinstance(room, str) and room else f"the seat link {code_hash[:8]}..."
        raise UnreadableRoomError(f"{where}: the claim of a seat link cannot be read ({seat!r}, {claimed!r})")
    return SeatClaim(room, seat, not flag)


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

    async def create(
        self, room: StoredRoom, tokens: Mapping[int, str], claims: Mapping[int, str] | None = None
    ) -> None:
        """Keep a new room, its seats' token hashes (seat -> hash), and its seat links' code hashes (seat -> hash).

        A seat in ``claims`` is reached by its link's one-time code, claimed with :meth:`claim`; it has no
        token until then.
        """
        ...

    async def claim(self, code_hash: str, token_hash: str) -> SeatClaim | None:
        """Claim the seat link whose code has the hash ``code_hash``, atomically, once for all processes.

        The first call for a code marks it claimed and makes ``token_hash`` the seat's token hash (in place of
        any other); every later call finds it claimed (``won`` False) and changes nothing. None if no room kept
        has a link with this code.

        Raises:
            UnreadableRoomError: If the link's claim row is kept but cannot be read.
        """
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
        """The room id and seat of a token's hash, or None.

        The seat of a room's watch token is :data:`~cheekymonkey.web.store.WATCHER`.
        """
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
        self._claims: dict[str, list[Any]] = {}  # a code's hash: [room, seat, claimed]

    async def create(
        self, room: StoredRoom, tokens: Mapping[int, str], claims: Mapping[int, str] | None = None
    ) -> None:
        """As :meth:`Store.create`."""
        self._rooms[room.id] = attrs.evolve(room, actions=())
        self._actions[room.id] = [dict(a) for a in room.actions]
        for seat, hashed in tokens.items():
            self._tokens[hashed] = (room.id, seat)
        for seat, hashed in (claims or {}).items():
            self._claims[hashed] = [room.id, seat, 0]

    async def claim(self, code_hash: str, token_hash: str) -> SeatClaim | None:
        """As :meth:`Store.claim`."""
        row = self._claims.get(code_hash)
        if row is None or row[0] not in self._rooms:
            return None
        found = _claim_row(row[0], row[1], row[2], code_hash)
        if found.won:
            row[2] = 1
            for hashed in [h for h, kept in self._tokens.items() if kept == (found.room, found.seat)]:
                del self._tokens[hashed]
            self._tokens[token_hash] = (found.room, found.seat)
        return found

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
        for hashed in [h for h, row in self._claims.items() if row[0] == room_id]:
            del self._claims[hashed]

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
CREATE TABLE IF NOT EXISTS claims (
    hash TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    claimed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value REAL NOT NULL
);
"""

# The number of the last write that touched each room (a database made before it was kept gets the column).
_SEQ_COLUMN: Final = "ALTER TABLE rooms ADD COLUMN seq INTEGER NOT NULL DEFAULT 0"


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
    waits on the disk, and each call is given up after ``timeout`` seconds (a :class:`StoreError`, which the
    server answers with 503): a disk that hangs, or another program holding the database, delays moves by
    that much at most, and they are taken again once it is back.

    When it opens the file, the store

    - takes an exclusive lock (``flock``) on the file ``PATH.lock`` beside it, held as long as the store is
      open, so that a second server on the same file is refused at once;
    - checks the file whole (SQLite's ``quick_check``: every page and index), and that it can write there (a
      transaction that writes and is rolled back), so that a damaged or read-only database is refused at
      start, in one line, rather than met by the first move;
    - checks that the database holds every write the last server made: the store numbers its writes in the
      database (the room written keeps the number) and copies the number into the lock file after each one,
      so a database that holds fewer (its
      write-ahead log damaged or cut short, or the file replaced by an older copy: answered moves missing)
      is refused at start, and the message says what to do.

    While it runs, every call checks that the file at ``path`` is still the one it opened: a database deleted
    or replaced under the server is reported (one log line, then a :class:`StoreError` at every call, never
    an answer from memory), and what the store still held is first copied to ``PATH.rescued-SECONDS``.

    Times (a room's creation and last move, which the sweep reads) are the store's own: seconds on a
    monotonic clock, carried over from one run to the next in the database (and advanced by the wall clock's
    time between runs, never backwards), so a step of the machine's clock while the server runs ends no
    room early and keeps none open.

    Args:
        path: The database file (``":memory:"`` for a database that lives as long as the store).
        timeout: Seconds a call may take before it is given up.
        monotonic: The monotonic clock the store's times run on (``time.monotonic``; tests give their own).

    Raises:
        StoreError: If the file cannot be opened, is used by another server, is not a database of this kind,
            is damaged, holds fewer writes than were made, or cannot be written (a read-only file, or a
            read-only folder where SQLite cannot keep its journal).
    """

    def __init__(
        self, path: str, *, timeout: float = DEFAULT_TIMEOUT, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.path = str(path)
        self.description = f"in the SQLite database {self.path}"
        self.timeout = timeout
        """Seconds a call may take before it is given up with a :class:`StoreError`."""
        self._monotonic = monotonic
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="cheekymonkey-sqlite")
        self._db: sqlite3.Connection | None = None
        self._lock: int | None = None
        self._identity: tuple[int, int] | None = None
        self._gone: str | None = None
        self._warned: set[str] = set()
        self._clock_base = 0.0
        self._clock_start = 0.0
        self._writes = 0
        self._stuck: concurrent.futures.Future[Any] | None = None
        self._given_up: threading.Event | None = None
        future = self._worker.submit(self._open)
        try:
            future.result()
        except (sqlite3.Error, OSError, StoreError) as error:
            self._worker.shutdown()
            said = str(error).replace("-", "")
            if isinstance(error, PermissionError) or (
                isinstance(error, sqlite3.Error) and ("readonly" in said or "unable to open" in said)
            ):
                error = StoreError(f"it cannot be written ({error}): is the file or its folder read-only?")
            raise StoreError(f"cannot use {self.path} as the room store: {error}") from None

    @property
    def lock_path(self) -> str:
        """The lock file beside the database (``PATH.lock``): held while a server uses the file."""
        return self.path + ".lock"

    def _take_lock(self) -> int | None:
        """Lock the database's lock file for this store's life; the count of writes it holds (None if none)."""
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreError(
                    f"another server is using it (it holds {self.lock_path}): one server per database file"
                ) from None
            text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        except BaseException:
            os.close(fd)
            raise
        self._lock = fd
        return int(text) if text.isdigit() and text.isascii() else None

    def _release_lock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the file releases the flock
            self._lock = None

    def _open(self) -> None:
        written: int | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            written = self._take_lock()
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=self.timeout, check_same_thread=False)
        except BaseException:
            self._release_lock()
            raise
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            found = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
            if found != ["ok"]:
                said = " ".join(" ".join(str(line) for line in found).split())
                raise StoreError(f"the database is damaged (SQLite's check: {said[:300]})")
            db.executescript(_SCHEMA)
            if "seq" not in [column[1] for column in db.execute("PRAGMA table_info(rooms)")]:
                db.execute(_SEQ_COLUMN)
            # Write, and take it back: a read-only file or folder is found now, not at the first move.
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("CREATE TABLE write_check (x)")
            finally:
                db.execute("ROLLBACK")
            (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM rooms").fetchone()
            held = max(int(last), int(self._meta(db, "writes") or 0))
            self._writes = held
            if written is not None and held < written:
                raise StoreError(
                    f"it holds {held} writes, but the server that used it last made {written}: its write-ahead log "
                    "was damaged or cut short, or the file was replaced by an older copy, so moves that were "
                    f"answered are missing. Put the right file back; to serve what it holds anyway, delete "
                    f"{self.lock_path}"
                )
            if self.path != ":memory:":
                status = os.stat(self.path)
                self._identity = (status.st_dev, status.st_ino)
            clock, wall = self._meta(db, "clock"), self._meta(db, "wall")
            now = time.time()
            self._clock_base = now if clock is None or wall is None else clock + max(0.0, now - wall)
            self._clock_start = self._monotonic()
        except BaseException:
            db.close()
            self._release_lock()
            raise
        self._db = db

    @staticmethod
    def _meta(db: sqlite3.Connection, key: str) -> float | None:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else _seconds(row[0])

    def now(self) -> float:
        """The store's clock: seconds, monotonic while the store is open, carried over between runs."""
        return self._clock_base + (self._monotonic() - self._clock_start)

    def _save_clock(self, db: sqlite3.Connection) -> None:
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [("clock", self.now()), ("wall", time.time())])

    def _check_file(self, db: sqlite3.Connection) -> None:
        """Raise a StoreError if the file at ``path`` is no longer the database this store opened."""
        if self._gone is None and self._identity is not None:
            try:
                status = os.stat(self.path)
                same = (status.st_dev, status.st_ino) == self._identity
            except OSError:
                same = False
            if not same:
                self._gone = f"the database file {self.path} was deleted or replaced while the server ran"
                rescued = f"{self.path}.rescued-{int(time.time())}"
                try:
                    with contextlib.closing(sqlite3.connect(rescued)) as copy:
                        db.backup(copy)
                    self._gone += f"; what this server held is copied to {rescued}"
                except (sqlite3.Error, OSError) as error:
                    self._gone += f"; what it held could not be copied ({error})"
                _LOG.error("the room store stops: %s; restart the server once the file is back", self._gone)
        if self._gone is not None:
            raise StoreError("the room store's database file was deleted or replaced: the server must be restarted")

    async def _run(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        given_up = threading.Event()

        def job() -> Any:
            db = self._db
            if db is None:
                raise sqlite3.ProgrammingError("the store is closed")
            self._given_up = given_up
            try:
                self._check_file(db)
                return work(db)
            finally:
                self._given_up = None

        stuck = self._stuck
        if stuck is not None and not stuck.done():
            # A call given up on still holds the worker (a disk that hangs): answer at once, not after a wait.
            raise StoreError("the room store is still waiting for its disk (a call given up on has not returned)")
        submitted = self._worker.submit(job)
        try:
            # SQLite's own busy timeout gives up on a lock held elsewhere; this bound also covers a disk that
            # hangs: the call running is interrupted, and the calls after it are refused until it returns.
            return await asyncio.wait_for(asyncio.wrap_future(submitted), self.timeout + 1.0)
        except TimeoutError:
            given_up.set()
            self._stuck = submitted
            db = self._db
            if db is not None:
                db.interrupt()
            raise StoreError(
                f"the room store did not answer within {self.timeout:g} seconds (its disk, or a lock held on it)"
            ) from None
        except sqlite3.Error as error:
            said = str(error)
            if "locked" in said or "busy" in said:
                said = f"the database stayed locked for {self.timeout:g} seconds"
            raise StoreError(f"the room store failed: {said}") from None

    def _transaction(self, db: sqlite3.Connection, work: Callable[[], Any]) -> Any:
        db.execute("BEGIN IMMEDIATE")
        try:
            self._check_given_up()
            result = work()
            self._check_given_up()
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    def _check_given_up(self) -> None:
        # The caller was answered 503 while this call waited (for a lock, or a disk): write nothing now.
        given_up = self._given_up
        if given_up is not None and given_up.is_set():
            raise sqlite3.OperationalError("given up: the call took longer than the store's timeout")

    def _numbered(self, db: sqlite3.Connection, work: Callable[[int], bool]) -> bool:
        """Run ``work`` (given this write's number) in a transaction; if it wrote, note the number in the lock file."""
        number = self._writes + 1
        wrote: bool = self._transaction(db, lambda: work(number))
        if wrote:
            self._writes = number
            if self._lock is not None:
                # After the commit: a lock file behind the database is harmless, one ahead means writes lost.
                with contextlib.suppress(OSError):
                    os.pwrite(self._lock, f"{number:<20d}\n".encode("ascii"), 0)
        return wrote

    async def create(
        self, room: StoredRoom, tokens: Mapping[int, str], claims: Mapping[int, str] | None = None
    ) -> None:
        """As :meth:`Store.create`; the room's times are the store's clock now (not ``room``'s)."""

        def work(db: sqlite3.Connection) -> None:
            now = self.now()

            def insert(number: int) -> bool:
                db.execute(
                    "INSERT INTO rooms (id, game, rules, record, version, created, last_move, finished, seq) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        room.id,
                        room.game,
                        room.rules,
                        json.dumps(room.record),
                        len(room.actions),
                        now,
                        now,
                        int(room.finished),
                        number,
                    ),
                )
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?)",
                    [(room.id, n, json.dumps(a)) for n, a in enumerate(room.actions)],
                )
                db.executemany("INSERT INTO tokens VALUES (?, ?, ?)", [(h, room.id, s) for s, h in tokens.items()])
                db.executemany(
                    "INSERT INTO claims VALUES (?, ?, ?, 0)", [(h, room.id, s) for s, h in (claims or {}).items()]
                )
                return True

            self._numbered(db, insert)

        await self._run(work)

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """As :meth:`Store.append`; the last move's time is the store's clock now (not ``last_move``)."""

        def work(db: sqlite3.Connection) -> bool:
            def write(number: int) -> bool:
                moved = db.execute(
                    "UPDATE rooms SET version = ?, last_move = ?, finished = ?, seq = ? WHERE id = ? AND version = ?",
                    (version + len(actions), self.now(), int(finished), number, room_id, version),
                ).rowcount
                if moved != 1:
                    return False
                db.executemany(
                    "INSERT INTO actions VALUES (?, ?, ?)",
                    [(room_id, version + n, json.dumps(a)) for n, a in enumerate(actions)],
                )
                return True

            return self._numbered(db, write)

        result: bool = await self._run(work)
        return result

    def _disagrees(self, room_id: str, version: int, kept: int) -> InconsistentRoomError:
        if room_id not in self._warned:
            self._warned.add(room_id)
            _LOG.warning(
                "room %s is damaged and closed: the store says it is at version %d but holds %d actions",
                room_id,
                version,
                kept,
            )
        return InconsistentRoomError(
            "this room is damaged (the server's store disagrees with itself about its moves) and has been "
            "closed; start a new room"
        )

    async def load(self, room_id: str) -> StoredRoom | None:
        """As :meth:`Store.load`."""

        def work(db: sqlite3.Connection) -> StoredRoom | None:
            row = db.execute(
                "SELECT id, game, rules, record, created, last_move, finished, version FROM rooms WHERE id = ?",
                (room_id,),
            ).fetchone()
            if row is None:
                return None
            rows = db.execute(
                "SELECT number, action FROM actions WHERE room = ? ORDER BY number", (room_id,)
            ).fetchall()
            actions = tuple(_document(_json(a, room_id, f"action {n}"), room_id, f"action {n}") for n, a in rows)
            if [n for n, _ in rows] != list(range(len(rows))):
                raise UnreadableRoomError(f"room {room_id}: its actions are not numbered 0 to {len(rows) - 1}")
            if row[7] != len(rows):
                raise InconsistentRoomError(
                    f"room {room_id}: the store says it is at version {row[7]} but holds {len(rows)} actions"
                )
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
        """As :meth:`Store.actions_since`.

        Raises:
            ~cheekymonkey.web.store.InconsistentRoomError: If the room's version disagrees with the actions it
                holds (410; logged once).
        """

        def work(db: sqlite3.Connection) -> list[Json] | None:
            row = db.execute("SELECT version FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return None
            (kept,) = db.execute("SELECT COUNT(*) FROM actions WHERE room = ?", (room_id,)).fetchone()
            if row[0] != kept or kept < start:
                raise self._disagrees(room_id, row[0], kept)
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

    async def claim(self, code_hash: str, token_hash: str) -> SeatClaim | None:
        """As :meth:`Store.claim`: one transaction, numbered as every write (the room keeps its number)."""

        def work(db: sqlite3.Connection) -> SeatClaim | None:
            found: list[SeatClaim | None] = [None]

            def write(number: int) -> bool:
                row = db.execute("SELECT room, seat, claimed FROM claims WHERE hash = ?", (code_hash,)).fetchone()
                if row is None:
                    return False
                found[0] = claim = _claim_row(row[0], row[1], row[2], code_hash)
                if not claim.won:
                    return False
                db.execute("UPDATE claims SET claimed = 1 WHERE hash = ? AND claimed = 0", (code_hash,))
                db.execute("DELETE FROM tokens WHERE room = ? AND seat = ?", (claim.room, claim.seat))
                db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (token_hash, claim.room, claim.seat))
                db.execute("UPDATE rooms SET seq = ? WHERE id = ?", (number, claim.room))
                return True

            self._numbered(db, write)
            return found[0]

        claimed: SeatClaim | None = await self._run(work)
        return claimed

    async def delete(self, room_id: str) -> None:
        """As :meth:`Store.delete`."""

        def work(db: sqlite3.Connection) -> None:
            def remove(number: int) -> bool:
                db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
                # The room kept the number of its last write: the database keeps the highest one of those gone.
                db.execute("INSERT OR REPLACE INTO meta VALUES ('writes', ?)", (number,))
                return True

            self._numbered(db, remove)

        await self._run(work)
        self._warned.discard(room_id)

    async def summaries(self) -> list[RoomSummary]:
        """As :meth:`Store.summaries`: each room's idle time is by the store's clock (which is saved here too)."""

        def work(db: sqlite3.Connection) -> list[RoomSummary]:
            self._transaction(db, lambda: self._save_clock(db))
            now = self.now()
            rows = db.execute("SELECT id, last_move, finished FROM rooms ORDER BY created").fetchall()
            return [RoomSummary(r[0], _seconds(r[1]), bool(r[2]), now - _seconds(r[1])) for r in rows]

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
        """As :meth:`Store.close`: the clock is saved, the database closed and its lock released."""

        def work() -> None:
            db = self._db
            if db is not None:
                if self._gone is None:
                    with contextlib.suppress(sqlite3.Error):
                        self._transaction(db, lambda: self._save_clock(db))
                db.close()
                self._db = None
            self._release_lock()

        # A disk that hangs does not hold the shutdown: the lock goes with the process.
        with contextlib.suppress(RuntimeError, TimeoutError):  # RuntimeError: already shut down
            running = asyncio.get_running_loop().run_in_executor(self._worker, work)
            await asyncio.wait_for(running, self.timeout + 1.0)
        self._worker.shutdown(wait=False)


# Appends the actions only at the expected version, stamps the move with Redis's clock, and tells every
# process, in one step on the server.
_APPEND: Final = """
if redis.replicate_commands then redis.replicate_commands() end  -- before Redis 5: TIME, then writes
local version = tonumber(redis.call('HGET', KEYS[1], 'version'))
if version == nil or version ~= tonumber(ARGV[1]) then
    return 0
end
for i = 4, #ARGV do
    redis.call('RPUSH', KEYS[2], ARGV[i])
end
local now = version + #ARGV - 3
local time = redis.call('TIME')
local seconds = tostring(time[1]) .. '.' .. string.format('%06d', tonumber(time[2]))
redis.call('HSET', KEYS[1], 'version', now, 'last_move', seconds, 'finished', ARGV[2])
redis.call('PUBLISH', ARGV[3], KEYS[1] .. ' ' .. now)
return 1
"""

# Takes the lease if nobody holds it, or renews it if ``owner`` does; 1 if ``owner`` holds it now.
_CLAIM: Final = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
end
return 0
"""

# Claims a seat link's code once, for every process: marks it claimed and keeps the new token's hash for its
# seat. The answer: {0} no such link (or its room is gone); {1, room, seat, claimed} found and not claimed now
# (claimed before, or a row that cannot be read: the caller checks it); {2, room, seat, "0"} claimed now.
_CLAIM_LINK: Final = """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then
    return {0}
end
if kind ~= 'hash' then
    return {1, '', '', kind}
end
local row = redis.call('HMGET', KEYS[1], 'room', 'seat', 'claimed')
local room, seat, claimed = row[1] or '', row[2] or '', row[3] or ''
local room_key = ARGV[1] .. 'room:' .. room
if room ~= '' and redis.call('EXISTS', room_key) == 0 then
    return {0}
end
if claimed ~= '0' or room == '' or not string.match(seat, '^%d+$') then
    return {1, room, seat, claimed}
end
redis.call('HSET', KEYS[1], 'claimed', '1')
local tokens = redis.call('HGET', room_key, 'tokens') or '[]'
local kept = {}
for hashed in string.gmatch(tokens, '"([0-9a-f]+)"') do
    if redis.call('GET', ARGV[1] .. 'token:' .. hashed) == room .. ' ' .. seat then
        redis.call('DEL', ARGV[1] .. 'token:' .. hashed)
    else
        table.insert(kept, '"' .. hashed .. '"')
    end
end
table.insert(kept, '"' .. ARGV[2] .. '"')
redis.call('HSET', room_key, 'tokens', '[' .. table.concat(kept, ', ') .. ']')
redis.call('SET', ARGV[1] .. 'token:' .. ARGV[2], room .. ' ' .. seat)
return {2, room, seat, '0'}
"""

_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""

BOT_LEASE_TTL: Final = 2.0
"""Seconds a Redis store's lease on a room's bots lasts unless renewed: the store renews the leases it holds
four times as often, so a process that dies (even by SIGKILL) leaves its rooms' bots to another within this."""

_VOLATILE_HELP: Final = (
    "start Redis with --appendonly yes (see the web durability how-to), or accept the risk with --allow-volatile-redis"
)


def _seconds_of(time_reply: Any) -> float:
    """Redis's ``TIME`` reply (seconds, microseconds) as seconds."""
    seconds, micro = time_reply
    return int(seconds) + int(micro) / 1_000_000


class RedisStore:
    """Rooms in Redis, shared by every server process that uses the same Redis (the ``redis`` extra).

    Keys (all under ``prefix``): ``room:<id>`` (a hash: the game, rules, record without actions, version,
    times, token hashes, claim-code hashes), ``actions:<id>`` (a list of action documents), ``token:<hash>``
    (``<id> <seat>``), ``claim:<hash>`` (a hash: the room, the seat and whether it was claimed), ``rooms``
    (the set of room ids) and ``bots:<id>`` (the lease of the process playing the room's bots). Changes
    are announced on the channel ``<prefix>changes``.

    What a store needs of Redis (the web durability how-to says why):

    - **Persistence.** The store checks, when it is made, that Redis keeps an append-only file
      (``appendonly yes``, with ``appendfsync`` ``always`` or ``everysec``). Without it a restart of Redis
      brings back an older snapshot, or nothing, and games that were answered would be played again
      differently; the store refuses such a Redis (:class:`StoreError`) unless ``allow_volatile`` is true,
      and then says so in one warning line.
    - **Rollbacks are stopped, not played.** Each store remembers the highest version of every room it
      wrote, read, or heard of from another process. A room read at a lower version (Redis came back from
      an older copy) is closed: :class:`~cheekymonkey.web.store.InconsistentRoomError` (410), with one log
      line, and its moves are not dealt again.
    - **Redis's clock.** A move's time is Redis's ``TIME``, and the sweep measures a room's idle time by it,
      so the processes' own clocks (one of them hours ahead, or stepped) end no room early.
    - **Short leases.** A process's lease on a room's bots lasts :data:`~cheekymonkey.web.store.BOT_LEASE_TTL`
      seconds and the store renews it while the process holds it; a process that dies lets another take the
      bots over within that.
    - **Timeouts.** Each call is given up after ``timeout`` seconds (a :class:`StoreError`: 503), so a
      Redis that hangs delays moves by that much at most.

    Args:
        url: A ``redis://`` or ``rediss://`` URL.
        prefix: Put before every key, so that several servers can share one Redis.
        allow_volatile: Use a Redis without an append-only file (with a warning) rather than refuse it.
        timeout: Seconds a call may take.
        lease_ttl: Seconds a lease on a room's bots lasts unless renewed.

    Raises:
        ImportError: If the ``redis`` package is missing (the message names the extra).
        StoreError: If Redis cannot be reached, or keeps no append-only file and ``allow_volatile`` is false.
    """

    shared: Final = True

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "cheekymonkey:",
        allow_volatile: bool = False,
        timeout: float = DEFAULT_TIMEOUT,
        lease_ttl: float = BOT_LEASE_TTL,
    ) -> None:
        try:
            import redis
            import redis.asyncio
        except ImportError as error:  # pragma: no cover - exercised only without the extra
            raise ImportError(
                f"a Redis store needs the 'redis' extra ({error.name} is missing): pip install 'cheekymonkey[redis]'"
            ) from error
        scheme, colon, rest = url.partition("://")
        self._where = scheme + colon + rest.rpartition("@")[2]  # never the user or the password
        self.timeout = timeout
        """Seconds a call may take before it is given up with a :class:`StoreError`."""
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self.persistence = self._check_persistence(redis, url, allow_volatile)
        """Redis's persistence as found at start (``"appendonly yes, appendfsync everysec"``)."""
        self._redis = redis.asyncio.Redis.from_url(
            url, decode_responses=True, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        # The subscription waits for messages as long as it takes: a client of its own, with no read timeout.
        self._listening = redis.asyncio.Redis.from_url(url, decode_responses=True, socket_connect_timeout=timeout)
        self._prefix = prefix
        self._channel = prefix + "changes"
        self._append = self._redis.register_script(_APPEND)
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._claim_link = self._redis.register_script(_CLAIM_LINK)
        self._lease_ttl = lease_ttl
        self._leases: dict[str, tuple[str, float]] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._highest: dict[str, int] = {}
        self._rolled_back: set[str] = set()
        self.description = f"in Redis at {self._where} ({self.persistence})"

    def _check_persistence(self, redis: Any, url: str, allow_volatile: bool) -> str:
        client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=self.timeout, socket_connect_timeout=self.timeout
        )
        try:
            try:
                found = client.config_get("append*")
                appendonly, fsync = str(found.get("appendonly", "no")), str(found.get("appendfsync", "?"))
            except redis.ResponseError:  # CONFIG renamed away, as some hosted Redis do: INFO tells half of it
                info = client.info("persistence")
                appendonly, fsync = ("yes" if str(info.get("aof_enabled", 0)) == "1" else "no"), "unknown"
        except self._errors as error:
            raise StoreError(f"cannot reach Redis at {self._where} to check its persistence: {error}") from None
        finally:
            with contextlib.suppress(*self._errors):
                client.close()
        said = f"appendonly {appendonly}, appendfsync {fsync}"
        if appendonly == "yes" and fsync != "no":
            return said
        why = (
            f"Redis at {self._where} keeps the rooms without an append-only file synced to disk ({said}): "
            "if Redis restarts, games come back older or not at all"
        )
        if not allow_volatile:
            raise StoreError(f"{why}; {_VOLATILE_HELP}")
        _LOG.warning("%s (rooms found rolled back are closed with 410): --allow-volatile-redis was given", why)
        return said + ", volatile"

    @property
    def client(self) -> Any:
        """The ``redis.asyncio.Redis`` client (:class:`~cheekymonkey.web.limits.RedisCounters` shares it)."""
        return self._redis

    def key(self, *parts: str) -> str:
        """The key of ``parts`` under this store's prefix (``key("room", "r1")`` is ``"cheekymonkey:room:r1"``)."""
        return self._prefix + ":".join(parts)

    async def call(self, call: Awaitable[Any]) -> Any:
        """Await a Redis call; an error of Redis or the connection, or no answer in time, is a :class:`StoreError`."""
        try:
            return await asyncio.wait_for(call, self.timeout + 1.0)
        except TimeoutError:
            raise StoreError(f"the room store (Redis) did not answer within {self.timeout:g} seconds") from None
        except self._errors as error:
            # The log says where and what (a 503's body says neither: cheekymonkey.web.app).
            what = " ".join(str(error).split()) or type(error).__name__
            raise StoreError(f"the room store (Redis at {self._where}) failed: {what}") from None

    # -- the versions this process has seen: a room read below one of them was rolled back -----------------

    def _saw(self, room_id: str, version: int) -> None:
        if version > self._highest.get(room_id, -1):
            self._highest[room_id] = version

    def _check_version(self, room_id: str, version: int, highest: int, *, log: bool) -> None:
        """Raise InconsistentRoomError if the room read is below ``highest`` (logged once).

        ``highest`` is the highest version seen *before* the read was sent: a version heard of while the read
        was on its way may be newer than what the read found, without any rollback.
        """
        if version >= highest and room_id not in self._rolled_back:
            self._saw(room_id, version)
            return
        if room_id not in self._rolled_back:
            self._rolled_back.add(room_id)
            if log:
                _LOG.error(
                    "room %s is closed: the store went back to version %d after version %d was answered (Redis lost "
                    "writes: did it restart without its append-only file?); its moves are not dealt again",
                    room_id,
                    version,
                    highest,
                )
        raise InconsistentRoomError(
            f"room {room_id}: the store went back to version {version} after version {highest} was answered"
            if not log
            else "this room has been closed: the server's store lost moves that had been answered, and they are "
            "not played again differently; start a new room"
        )

    async def create(
        self, room: StoredRoom, tokens: Mapping[int, str], claims: Mapping[int, str] | None = None
    ) -> None:
        """As :meth:`Store.create`; the room's times are Redis's clock now (not ``room``'s)."""
        claims = claims or {}
        now = repr(_seconds_of(await self.call(self._redis.time())))
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(
            self.key("room", room.id),
            mapping={
                "game": room.game,
                "rules": room.rules,
                "record": json.dumps(room.record),
                "version": len(room.actions),
                "created": now,
                "last_move": now,
                "finished": int(room.finished),
                "tokens": json.dumps(sorted(tokens.values())),
                "claims": json.dumps(sorted(claims.values())),
            },
        )
        if room.actions:
            pipe.rpush(self.key("actions", room.id), *[json.dumps(a) for a in room.actions])
        for seat, hashed in tokens.items():
            pipe.set(self.key("token", hashed), f"{room.id} {seat}")
        for seat, hashed in claims.items():
            pipe.hset(self.key("claim", hashed), mapping={"room": room.id, "seat": seat, "claimed": 0})
        pipe.sadd(self.key("rooms"), room.id)
        await self.call(pipe.execute())
        self._saw(room.id, len(room.actions))

    async def append(
        self, room_id: str, version: int, actions: Sequence[Json], *, last_move: float, finished: bool
    ) -> bool:
        """As :meth:`Store.append`; the last move's time is Redis's clock (not ``last_move``)."""
        keys = [self.key("room", room_id), self.key("actions", room_id)]
        args: list[str | int] = [version, int(finished), self._channel]
        args += [json.dumps(a) for a in actions]
        done = bool(await self.call(self._append(keys=keys, args=args)))
        if done:
            self._saw(room_id, version + len(actions))
        return done

    async def load(self, room_id: str) -> StoredRoom | None:
        """As :meth:`Store.load`.

        Raises:
            ~cheekymonkey.web.store.InconsistentRoomError: If the room is below a version this process has seen
                (Redis rolled back).
        """
        highest = self._highest.get(room_id, -1)
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
                raise InconsistentRoomError(f"room {room_id}: it is at version {version} with {len(kept)} actions kept")
            loaded = StoredRoom(
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
        # The room manager logs the damaged room it loads: the store does not log it twice.
        self._check_version(room_id, version, highest, log=False)
        return loaded

    async def actions_since(self, room_id: str, start: int) -> list[Json] | None:
        """As :meth:`Store.actions_since`.

        Raises:
            ~cheekymonkey.web.store.InconsistentRoomError: If the room is below ``start`` or a version this
                process has seen (Redis rolled back; logged once).
        """
        highest = max(start, self._highest.get(room_id, -1))
        pipe = self._redis.pipeline(transaction=True)
        pipe.hget(self.key("room", room_id), "version")
        pipe.lrange(self.key("actions", room_id), start, -1)
        version, actions = await self.call(pipe.execute())
        if version is None:
            return None
        try:
            at = int(version)
        except ValueError as error:
            raise UnreadableRoomError(f"room {room_id}: its version cannot be read ({error})") from None
        self._check_version(room_id, at, highest, log=True)
        return [_document(_json(a, room_id, "an action"), room_id, "an action") for a in actions[: max(0, at - start)]]

    async def seat_for(self, token_hash: str) -> tuple[str, int] | None:
        """As :meth:`Store.seat_for`."""
        found = await self.call(self._redis.get(self.key("token", token_hash)))
        if not isinstance(found, str):
            return None
        room_id, _, seat = found.partition(" ")
        return room_id, int(seat)

    async def claim(self, code_hash: str, token_hash: str) -> SeatClaim | None:
        """As :meth:`Store.claim`: one script on the server, so that of processes racing for a link one wins."""
        keys = [self.key("claim", code_hash)]
        answer = await self.call(self._claim_link(keys=keys, args=[self._prefix, token_hash]))
        if not answer or answer[0] == 0:
            return None
        found = _claim_row(answer[1], answer[2], answer[3], code_hash)
        return SeatClaim(found.room, found.seat, answer[0] == 2)

    def _forget(self, room_id: str) -> None:
        self._highest.pop(room_id, None)
        self._rolled_back.discard(room_id)

    async def delete(self, room_id: str) -> None:
        """As :meth:`Store.delete`."""
        kept, claims = await self.call(self._redis.hmget(self.key("room", room_id), ["tokens", "claims"]))
        hashes = [self.key("token", hashed) for hashed in _hashes(kept)]
        hashes += [self.key("claim", hashed) for hashed in _hashes(claims)]
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self.key("room", room_id), self.key("actions", room_id), self.key("bots", room_id), *hashes)
        pipe.srem(self.key("rooms"), room_id)
        pipe.publish(self._channel, f"{self.key('room', room_id)} closed")
        await self.call(pipe.execute())
        self._forget(room_id)

    async def summaries(self) -> list[RoomSummary]:
        """As :meth:`Store.summaries`: each room's idle time is by Redis's clock."""
        ids = sorted(await self.call(self._redis.smembers(self.key("rooms"))))
        pipe = self._redis.pipeline(transaction=False)
        pipe.time()
        for room_id in ids:
            pipe.hmget(self.key("room", room_id), ["last_move", "finished"])
        now, *rows = await self.call(pipe.execute())
        seconds = _seconds_of(now)
        return [
            RoomSummary(room_id, _seconds(last), finished == "1", seconds - _seconds(last))
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
        """As :meth:`Store.listen`; the versions heard count as seen (a room read below them was rolled back)."""
        prefix = self.key("room", "")
        while True:
            pubsub = self._listening.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel)
                async for message in pubsub.listen():
                    key, _, state = str(message.get("data", "")).rpartition(" ")
                    if not key.startswith(prefix):
                        continue
                    room_id = key.removeprefix(prefix)
                    if state == "closed":
                        self._forget(room_id)
                        version = None
                    else:
                        version = int(state)
                        self._saw(room_id, version)
                    # A room the listener finds damaged or rolled back is closed and logged there: listen on.
                    with contextlib.suppress(UnreadableRoomError, RoomDamagedError, StoreError):
                        await listener(room_id, version)
            except self._errors:
                await asyncio.sleep(1.0)  # Redis went away: listen again once it is back
            finally:
                with contextlib.suppress(*self._errors):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # untyped in older redis releases

    async def claim_bots(self, room_id: str, owner: str, seconds: float) -> bool:
        """As :meth:`Store.claim_bots`: a short lease (:data:`~cheekymonkey.web.store.BOT_LEASE_TTL`), renewed here."""
        key = self.key("bots", room_id)
        if not await self.call(self._claim(keys=[key], args=[owner, self._lease_milliseconds()])):
            return False
        self._leases[key] = (owner, asyncio.get_running_loop().time() + seconds)
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew())
        return True

    def _lease_milliseconds(self) -> int:
        return max(1, int(self._lease_ttl * 1000))

    async def _renew(self) -> None:
        """Renew the leases held, every quarter of their time to live, until none is held."""
        loop = asyncio.get_running_loop()
        while self._leases:
            await asyncio.sleep(self._lease_ttl / 4)
            for key, (owner, until) in list(self._leases.items()):
                if loop.time() >= until:
                    self._leases.pop(key, None)
                    continue
                try:
                    if not await self.call(self._claim(keys=[key], args=[owner, self._lease_milliseconds()])):
                        self._leases.pop(key, None)  # lost (it ran out while Redis was away): another may hold it
                except StoreError:
                    pass  # Redis is away: try again next time

    async def release_bots(self, room_id: str, owner: str) -> None:
        """As :meth:`Store.release_bots`."""
        key = self.key("bots", room_id)
        self._leases.pop(key, None)
        await self.call(self._release(keys=[key], args=[owner]))

    async def close(self) -> None:
        """As :meth:`Store.close`: the leases held are given back first."""
        if self._renewer is not None:
            self._renewer.cancel()
        for key, (owner, _) in list(self._leases.items()):
            with contextlib.suppress(StoreError):
                await self.call(self._release(keys=[key], args=[owner]))
        self._leases.clear()
        for client in (self._redis, self._listening):
            with contextlib.suppress(*self._errors):
                await client.aclose()


def _hashes(kept: object) -> list[str]:
    """The hashes a room's ``tokens`` or ``claims`` field lists (none if it is missing or cannot be read)."""
    try:
        found = json.loads(kept) if isinstance(kept, str | bytes) else []
    except ValueError:
        return []
    return [h for h in found if isinstance(h, str)] if isinstance(found, list) else []


def open_store(where: str, *, allow_volatile_redis: bool = False) -> Store:
    """The store named by ``where``: ``":memory:"``, a ``redis://`` (or ``rediss://``) URL, or an SQLite file path.

    ``allow_volatile_redis``: serve from a Redis that keeps no append-only file, with a warning, rather than
    refuse it (:class:`RedisStore`).

    Raises:
        StoreError: If an SQLite file cannot be used, or Redis cannot be reached or is refused.
        ImportError: For a Redis URL without the ``redis`` extra.
    """
    if where == ":memory:":
        return MemoryStore()
    if where.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(where, allow_volatile=allow_volatile_redis)
    return SqliteStore(where)
