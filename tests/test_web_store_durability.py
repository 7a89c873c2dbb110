"""A store that cannot fork a game: one server per SQLite file, damage noticed, store clocks, Redis durability.

Everything here runs against real parts: SQLite files on disk, ``cheekymonkey serve`` as real processes killed
with SIGKILL, and a real ``redis-server`` (from the system's packages: ``.ci/system-deps`` installs it) started
here on a free port with a temporary folder, killed and started again from its snapshot, or stopped with
SIGSTOP to play a Redis that hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from cheekymonkey import CHEEKY_MONKEY
from cheekymonkey.web import Limits, RedisStore, RoomManager, SeatSpec, SqliteStore, StoredRoom, StoreError
from cheekymonkey.web.store import BOT_LEASE_TTL, InconsistentRoomError
from tests.web_support import (
    REDIS_MISSING,
    ServeProcess,
    call,
    free_port,
    live_server,
    make_room,
    move,
    serve_process,
    token_of,
)


def serve_once(args: list[str]) -> subprocess.CompletedProcess[str]:
    """``cheekymonkey serve`` on a free port with ``args``, expected to stop by itself."""
    command = [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(free_port()), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused start wrote, after checking it is one line, exit status 2 and no traceback."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Serving" not in done.stdout
    return lines[0]


def play_drawing(url: str, room: dict[str, Any], moves: int) -> int:
    """Play ``moves`` moves (draw while drawing is offered, else the first legal move); the version after."""
    version = 0
    for _ in range(moves):
        for seat in range(len(room["seats"])):
            status, table = call(url, "GET", "/api/table", token=token_of(room, seat))
            assert status == 200, table
            if table["legal"]:
                break
        actions = [item["action"] for item in table["legal"]]
        draw = [a for a in actions if a["type"] == "draw"]
        chosen = draw[0] if draw else actions[0]
        body = {"version": table["version"], "action": chosen}
        status, answer = call(url, "POST", "/api/move", body, token=token_of(room, seat))
        assert status == 200, answer
        version = answer["version"]
    return version


def logged_naming(path: Path, room_id: str) -> list[str]:
    return [line for line in path.read_text().splitlines() if room_id in line]


# -- one server per SQLite file -----------------------------------------------------------------------------


def test_a_second_store_on_the_same_sqlite_file_is_refused_until_the_first_is_closed(tmp_path: Path) -> None:
    """The lock is held for the store's life: a second store on the file is refused, then let in once it closes."""
    path = tmp_path / "rooms.sqlite3"

    async def check() -> None:
        first = SqliteStore(str(path))
        with pytest.raises(StoreError, match="another server is using it"):
            SqliteStore(str(path))
        await first.close()
        second = SqliteStore(str(path))
        await second.close()

    asyncio.run(check())


@pytest.mark.slow
def test_a_second_server_on_the_same_sqlite_file_is_refused_in_one_line_and_a_killed_ones_lock_is_freed(
    tmp_path: Path,
) -> None:
    """Two real servers on one file: the second exits 2 with one line; after kill -9 of the first, a new one starts."""
    store = ["--store", str(tmp_path / "rooms.sqlite3"), "--bot-workers", "0", "--allow-seeds"]
    first = ServeProcess(store)
    try:
        first.wait_ready()
        room = make_room(first.url, "Ann", "Bob")
        line = one_line(serve_once(store))
        assert line.startswith(f"cheekymonkey serve: cannot use {tmp_path / 'rooms.sqlite3'} as the room store")
        assert "another server is using it" in line
        # The first server is untouched by the refused one.
        assert call(first.url, "POST", "/api/move", move(1, "draw"), token=token_of(room, 0))[0] == 200
        first.kill()
    finally:
        first.stop()
    with serve_process(store) as second:
        assert call(second.url, "GET", "/api/table", token=token_of(room, 1))[0] == 200


OLDER_SCHEMA = """
CREATE TABLE rooms (id TEXT PRIMARY KEY, game TEXT NOT NULL, rules TEXT NOT NULL, record TEXT NOT NULL,
    version INTEGER NOT NULL, created REAL NOT NULL, last_move REAL NOT NULL, finished INTEGER NOT NULL);
CREATE TABLE actions (room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE, number INTEGER NOT NULL,
                      action TEXT NOT NULL, PRIMARY KEY (room, number));
CREATE TABLE tokens (hash TEXT PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(id) ON DELETE CASCADE,
                     seat INTEGER NOT NULL);
INSERT INTO rooms VALUES ('old', 'cheeky-monkey', 'standard', '{"kind": "record"}', 1, 5.0, 6.0, 0);
INSERT INTO actions VALUES ('old', 0, '{"a": 1}');
"""


def test_a_database_made_before_writes_were_numbered_opens_and_its_writes_are_numbered_in_the_lock_file(
    tmp_path: Path,
) -> None:
    """A file of the earlier layout: its room is served, and each write's number reaches the lock file."""
    path = tmp_path / "rooms.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(OLDER_SCHEMA)
    lock = Path(str(path) + ".lock")

    async def check() -> None:
        store = SqliteStore(str(path))
        room = await store.load("old")
        assert room is not None
        assert room.actions == ({"a": 1},)
        assert lock.read_text() == ""
        assert await store.append("old", 1, [{"a": 2}], last_move=0.0, finished=False)
        assert lock.read_text().split() == ["1"]
        assert not await store.append("old", 1, [{"a": 3}], last_move=0.0, finished=False)  # nothing written
        assert lock.read_text().split() == ["1"]
        await store.delete("old")
        assert lock.read_text().split() == ["2"]
        await store.close()
        reopened = SqliteStore(str(path))  # the deletion's number is kept though the room is gone
        await reopened.close()
        lock.write_text("3\n")  # a lock file ahead of the database: writes lost
        with pytest.raises(StoreError, match="it holds 2 writes, but the server that used it last made 3"):
            SqliteStore(str(path))

    asyncio.run(check())


# -- damage noticed, not served from memory -----------------------------------------------------------------


async def two_rooms(path: Path) -> list[tuple[str, dict[int, str]]]:
    """Two rooms of two people in an SQLite file, each a move in; their ids and seat tokens."""
    manager = RoomManager(store=SqliteStore(str(path)), allow_seeds=True)
    made = []
    for seed in (3, 4):
        room, tokens = await manager.create(
            CHEEKY_MONKEY, CHEEKY_MONKEY.ruleset(), [SeatSpec("Ann"), SeatSpec("Bob")], seed=seed
        )
        await room.play(0, room.version, text="d")
        made.append((room.id, tokens))
    await manager.stop()
    return made


def test_a_room_whose_version_disagrees_with_its_actions_answers_410_at_start_and_the_others_play(
    tmp_path: Path,
) -> None:
    """A version column ahead of the actions kept: the room's seats get 410 (not a 409 for ever), one log line."""
    path = tmp_path / "rooms.sqlite3"
    (bad, bad_tokens), (good, good_tokens) = asyncio.run(two_rooms(path))
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE rooms SET version = version + 2 WHERE id = ?", (bad,))
        db.commit()
    log = tmp_path / "server.log"
    with serve_process(["--store", str(path), "--bot-workers", "0"], stderr=log) as server:
        for token in bad_tokens.values():
            status, table = call(server, "GET", "/api/table", token=token)
            assert status == 410, table
            for version in range(6):
                status, answer = call(server, "POST", "/api/move", move(version, "stop"), token=token)
                assert status == 410, answer
        mover = call(server, "GET", "/api/table", token=good_tokens[0])[1]["to_move"]
        table = call(server, "GET", "/api/table", token=good_tokens[mover])[1]
        played = {"version": table["version"], "action": table["legal"][0]["action"]}
        assert call(server, "POST", "/api/move", played, token=good_tokens[mover])[0] == 200
    assert "Traceback" not in log.read_text()
    assert len(logged_naming(log, bad)) == 1
    assert logged_naming(log, good) == []


def test_a_held_rooms_version_changed_under_the_server_answers_410_not_409(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The version column moved on under a running server: the next move gets 410 with one log line, then always."""
    path = tmp_path / "rooms.sqlite3"
    manager = RoomManager(store=SqliteStore(str(path)), allow_seeds=True)
    with caplog.at_level(logging.INFO, logger="cheekymonkey.web"), live_server(manager) as server:
        room = make_room(server, "Ann", "Bob")
        token = token_of(room, 0)
        assert call(server, "POST", "/api/move", move(1, "draw"), token=token)[0] == 200
        version = call(server, "GET", "/api/table", token=token)[1]["version"]
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("UPDATE rooms SET version = version + 3")
            db.commit()
        for _ in range(3):
            status, answer = call(server, "POST", "/api/move", move(version, "stop"), token=token)
            assert status == 410, answer
            assert "damaged" in answer["error"]
    naming = [r.getMessage() for r in caplog.records if r.name == "cheekymonkey.web" and room["room"] in r.getMessage()]
    assert len(naming) == 1, naming
    assert f"at version {version + 3} but holds {version} actions" in naming[0]


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_database_deleted_or_replaced_under_the_server_answers_503_and_what_it_held_is_rescued(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Moves after the file is gone get 503, never 200 from memory; one log line; the rescued copy holds every move."""
    path = tmp_path / "rooms.sqlite3"
    manager = RoomManager(store=SqliteStore(str(path)), allow_seeds=True)
    with caplog.at_level(logging.INFO, logger="cheekymonkey.web"), live_server(manager) as server:
        room = make_room(server, "Ann", "Bob")
        token = token_of(room, 0)
        status, answer = call(server, "POST", "/api/move", move(1, "draw"), token=token)
        assert status == 200
        answered = answer["version"]
        for name in ("rooms.sqlite3", "rooms.sqlite3-wal", "rooms.sqlite3-shm"):
            (tmp_path / name).unlink(missing_ok=True)
        if how == "replaced":
            with contextlib.closing(sqlite3.connect(path)) as db:
                db.execute("CREATE TABLE other (x)")
        for _ in range(3):
            status, refused = call(server, "POST", "/api/move", move(answered, "stop"), token=token)
            assert status == 503, refused
            status, refused = call(
                server, "POST", "/api/rooms", {"preset": "standard", "seats": [{"name": "Cy"}, {"name": "Di"}]}
            )
            assert status == 503, refused
    stops = [r.getMessage() for r in caplog.records if "the room store stops" in r.getMessage()]
    assert len(stops) == 1, stops
    (rescued,) = tmp_path.glob("rooms.sqlite3.rescued-*")
    assert str(rescued) in stops[0]
    with contextlib.closing(sqlite3.connect(rescued)) as db:
        assert db.execute("SELECT version FROM rooms").fetchall() == [(answered,)]
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone() == (answered,)


def flip_last_frame(wal: Path) -> None:
    """Overwrite bytes inside the write-ahead log's last frame (its page), as a damaged disk would."""
    data = bytearray(wal.read_bytes())
    assert len(data) > 32 + 24 + 4096, "the write-ahead log holds no frame"
    for offset in range(len(data) - 600, len(data) - 400):
        data[offset] ^= 0x5A
    wal.write_bytes(bytes(data))


@pytest.mark.slow
def test_a_damaged_write_ahead_log_that_would_lose_answered_moves_is_refused_at_start_in_one_line(
    tmp_path: Path,
) -> None:
    """SIGKILL, then the log's last frame damaged: SQLite would drop its moves; the server refuses to start instead."""
    path = tmp_path / "rooms.sqlite3"
    store = ["--store", str(path), "--bot-workers", "0", "--allow-seeds"]
    first = ServeProcess(store)
    try:
        first.wait_ready()
        room = make_room(first.url, "Ann", "Bob")
        answered = play_drawing(first.url, room, 6)
        first.kill()
    finally:
        first.stop()
    wal = Path(str(path) + "-wal")
    flip_last_frame(wal)
    kept = shutil.copy(wal, tmp_path / "damaged-wal")
    line = one_line(serve_once(store))
    assert line.startswith(f"cheekymonkey serve: cannot use {path} as the room store")
    assert "write-ahead log was damaged" in line
    assert f"delete {path}.lock" in line
    # What SQLite alone makes of that log: the last answered move is gone (so serving it would fork the game).
    shutil.copy(kept, wal)
    with contextlib.closing(sqlite3.connect(path)) as db:
        (version,) = db.execute("SELECT version FROM rooms").fetchone()
    assert version < answered
    # Deleting the lock file is the way to serve what the file holds anyway.
    Path(str(path) + ".lock").unlink()
    with serve_process(store) as second:
        status, table = call(second.url, "GET", "/api/table", token=token_of(room, 0))
        assert (status, table["version"]) == (200, version)


# -- time by the store's clock --------------------------------------------------------------------------------


class Clock:
    """A process's clock, moved by hand (seconds since the epoch)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def a_room_moved_now(manager: RoomManager) -> str:
    room, _ = await manager.create(CHEEKY_MONKEY, CHEEKY_MONKEY.ruleset(), [SeatSpec("Ann"), SeatSpec("Bob")])
    await room.play(0, room.version, text="d")
    return room.id


def test_an_sqlite_servers_clock_stepping_two_hours_ahead_ends_no_room_moved_just_before(tmp_path: Path) -> None:
    """The process's clock steps +2 h after a move: the sweep (60 idle minutes) ends nothing."""

    async def check() -> None:
        clock = Clock(time.time())
        manager = RoomManager(store=SqliteStore(str(tmp_path / "rooms.sqlite3")), clock=clock,
                              limits=Limits(idle_minutes=60))  # fmt: skip
        room_id = await a_room_moved_now(manager)
        clock.now += 2 * 3600
        assert await manager.sweep() == []
        assert await manager.store.load(room_id) is not None
        await manager.stop()

    asyncio.run(check())


def test_an_sqlite_store_ends_rooms_by_its_own_clock_carried_over_a_restart(tmp_path: Path) -> None:
    """The store's monotonic clock ends a room after its idle time, whatever the process's clock says, across runs."""
    path = tmp_path / "rooms.sqlite3"
    monotonic = Clock(1000.0)

    async def first_run() -> str:
        store = SqliteStore(str(path), monotonic=monotonic)
        manager = RoomManager(store=store, clock=Clock(0.0), limits=Limits(idle_minutes=60))  # the epoch's start
        room_id = await a_room_moved_now(manager)
        monotonic.now += 59 * 60
        assert await manager.sweep() == []
        await manager.stop()
        return room_id

    async def second_run(room_id: str) -> None:
        monotonic.now = 5.0  # a new boot: the monotonic clock starts again
        manager = RoomManager(store=SqliteStore(str(path), monotonic=monotonic), clock=Clock(0.0),
                              limits=Limits(idle_minutes=60))  # fmt: skip
        assert await manager.sweep() == []  # 59 minutes carried over
        monotonic.now += 61
        assert await manager.sweep() == [room_id]
        await manager.stop()

    second_run_for = asyncio.run(first_run())
    asyncio.run(second_run(second_run_for))


# -- Redis: a server of our own, killed and started again -------------------------------------------------


class RedisProcess:
    """A real redis-server on a free port of 127.0.0.1, its files in ``folder``; it can be killed and restarted."""

    def __init__(self, folder: Path, *, appendonly: bool, extra: tuple[str, ...] = ()) -> None:
        executable = shutil.which("redis-server")
        if executable is None:
            raise RuntimeError(REDIS_MISSING)
        self.executable = executable
        self.folder = folder
        self.appendonly = appendonly
        self.extra = extra
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start it (from its snapshot or append-only file in ``folder``, if any); return once it answers."""
        command = [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
                   "--save", "", "--appendonly", "yes" if self.appendonly else "no", "--appendfsync", "everysec",
                   "--protected-mode", "yes", *self.extra]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with contextlib.closing(self.client()) as client:
                    if client.ping():
                        return
            except redis.RedisError:
                pass
            assert self.process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=10)

    def command(self, *args: Any) -> Any:
        with contextlib.closing(self.client()) as client:
            return client.execute_command(*args)  # type: ignore[no-untyped-call, unused-ignore]

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def signal(self, which: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(which)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a Redis still writing its first append-only file refuses SIGTERM
                self.kill()


@contextlib.contextmanager
def redis_process(folder: Path, *, appendonly: bool = True, extra: tuple[str, ...] = ()) -> Iterator[RedisProcess]:
    server = RedisProcess(folder, appendonly=appendonly, extra=extra)
    try:
        yield server
    finally:
        server.stop()


def test_a_redis_without_an_append_only_file_is_refused_unless_allowed_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A Redis with appendonly no is refused, naming the setting and the way out; allowed, it says so once."""
    with redis_process(tmp_path, appendonly=False) as server:
        with pytest.raises(StoreError, match="appendonly no") as refused:
            RedisStore(server.url)
        assert "--appendonly yes" in str(refused.value)
        assert "--allow-volatile-redis" in str(refused.value)
        with caplog.at_level(logging.WARNING, logger="cheekymonkey.web"):
            store = RedisStore(server.url, allow_volatile=True)
        warnings = [r.getMessage() for r in caplog.records if r.name == "cheekymonkey.web"]
        assert len(warnings) == 1, warnings
        assert "appendonly no" in warnings[0]
        assert store.description.endswith("(appendonly no, appendfsync everysec, volatile)")
        asyncio.run(store.close())
        server.command("CONFIG", "SET", "appendonly", "yes")
        assert RedisStore(server.url).persistence == "appendonly yes, appendfsync everysec"
        server.command("CONFIG", "SET", "appendfsync", "no")
        with pytest.raises(StoreError, match="appendfsync no"):
            RedisStore(server.url)


@pytest.mark.parametrize("appendonly", [True, False])
def test_a_redis_whose_config_command_is_renamed_away_is_judged_by_its_info(tmp_path: Path, appendonly: bool) -> None:
    """Where CONFIG is renamed away (as hosted Redis do), INFO persistence tells whether the append-only file is on."""
    with redis_process(tmp_path, appendonly=appendonly, extra=("--rename-command", "CONFIG", "")) as server:
        if appendonly:
            assert RedisStore(server.url).persistence == "appendonly yes, appendfsync unknown"
        else:
            with pytest.raises(StoreError, match=r"\(appendonly no, appendfsync unknown\)"):
                RedisStore(server.url)


def test_serve_on_a_redis_it_cannot_reach_stops_in_one_line() -> None:
    """No Redis at the address: exit 2 and one line at start, rather than a server answering 503 to everything."""
    port = free_port()
    line = one_line(serve_once(["--store", f"redis://127.0.0.1:{port}/0", "--bot-workers", "0"]))
    assert line.startswith(f"cheekymonkey serve: cannot reach Redis at redis://127.0.0.1:{port}/0 to check its")


@pytest.mark.slow
def test_serve_refuses_a_volatile_redis_in_one_line_unless_told_to_allow_it(tmp_path: Path) -> None:
    """``cheekymonkey serve --store redis://...`` on a Redis without an append-only file: exit 2, or a warning line."""
    with redis_process(tmp_path, appendonly=False) as server:
        line = one_line(serve_once(["--store", server.url, "--bot-workers", "0"]))
        assert line.startswith(
            f"cheekymonkey serve: Redis at redis://127.0.0.1:{server.port}/0 keeps the rooms without"
        )
        log = tmp_path / "server.log"
        with serve_process(["--store", server.url, "--bot-workers", "0", "--allow-volatile-redis"], stderr=log) as up:
            assert "(appendonly no, appendfsync everysec, volatile)" in up.first_line
        lines = [line for line in log.read_text().splitlines() if "appendonly no" in line]
        assert len(lines) == 1, log.read_text()


@pytest.mark.slow
def test_a_redis_rolled_back_to_an_older_snapshot_closes_the_room_with_410_and_deals_nothing_again(
    tmp_path: Path,
) -> None:
    """Redis saved early, played on, killed and restarted from its snapshot: 410 everywhere, nothing dealt again.

    Both processes answer 410 at every version (not 409 for ever, not a game dealt again), each with one log
    line naming the room, and Redis stays at the snapshot's version.
    """
    with redis_process(tmp_path, appendonly=False) as server:
        args = ["--store", server.url, "--allow-volatile-redis", "--allow-seeds", "--bot-workers", "0"]
        logs = [tmp_path / "first.log", tmp_path / "second.log"]
        with serve_process(args, stderr=logs[0]) as first, serve_process(args, stderr=logs[1]) as second:
            room = make_room(first.url, "Ann", "Bob", seed=11)
            saved = play_drawing(first.url, room, 2)
            server.command("SAVE")
            answered = play_drawing(second.url, room, 4)
            for url in (first.url, second.url):  # both processes hold the room at the version answered
                assert call(url, "GET", "/api/table", token=token_of(room, 0))[1]["version"] == answered
            server.kill()
            server.start()
            key = f"cheekymonkey:room:{room['room']}"
            assert int(server.command("HGET", key, "version")) == saved < answered
            for url in (first.url, second.url):
                for seat in (0, 1):
                    deadline = time.monotonic() + 30  # each process's client reconnects to the new Redis
                    while (status := call(url, "GET", "/api/table", token=token_of(room, seat))[0]) == 503:
                        assert time.monotonic() < deadline
                        time.sleep(0.1)
                    assert status == 410
                    for version in (saved, answered):
                        status, answer = call(
                            url, "POST", "/api/move", move(version, "draw"), token=token_of(room, seat)
                        )
                        assert status == 410, answer
            assert int(server.command("HGET", key, "version")) == saved
            assert int(server.command("LLEN", f"cheekymonkey:actions:{room['room']}")) == saved
    for log in logs:
        text = log.read_text()
        assert "Traceback" not in text
        naming = logged_naming(log, room["room"])
        assert len(naming) == 1, text
        assert f"went back to version {saved} after version {answered} was answered" in naming[0]


def test_a_process_that_never_saw_a_higher_version_loads_the_room_and_one_that_did_refuses_it(
    tmp_path: Path,
) -> None:
    """The store's memory of versions heard: a store that heard of version 5 refuses the room read at 3."""

    async def check(url: str) -> None:
        listener_store = RedisStore(url, prefix="t:")
        heard: list[tuple[str, int | None]] = []

        async def listener(room_id: str, version: int | None) -> None:
            heard.append((room_id, version))

        listening = asyncio.get_running_loop().create_task(listener_store.listen(listener))
        await asyncio.sleep(0.2)
        writer = RedisStore(url, prefix="t:")
        manager = RoomManager(store=writer, allow_seeds=True)
        room, _ = await manager.create(CHEEKY_MONKEY, CHEEKY_MONKEY.ruleset(), [SeatSpec("Ann"), SeatSpec("Bob")])
        await room.play(0, room.version, text="d")
        while not heard:
            await asyncio.sleep(0.01)
        loaded = await listener_store.load(room.id)
        assert loaded is not None
        assert len(loaded.actions) == room.version
        # Redis loses the last move (as a restart from an older copy would).
        await writer.client.rpop(writer.key("actions", room.id))
        await writer.client.hincrby(writer.key("room", room.id), "version", -1)
        with pytest.raises(InconsistentRoomError, match=f"went back to version {room.version - 1}"):
            await listener_store.load(room.id)
        fresh = RedisStore(url, prefix="t:")  # knows nothing of the room: it cannot tell
        assert await fresh.load(room.id) is not None
        listening.cancel()
        for store in (listener_store, writer, fresh):
            await store.close()

    with redis_process(tmp_path) as server:
        asyncio.run(check(server.url))


# -- Redis: the store's clock ---------------------------------------------------------------------------------


def test_a_redis_process_whose_clock_is_two_hours_ahead_ends_no_room_another_played_and_redis_time_ends_it(
    tmp_path: Path,
) -> None:
    """Two processes on one Redis, one 2 h ahead: its sweep ends nothing; a room idle an hour by Redis's clock ends."""

    async def check(url: str) -> None:
        now = time.time()
        playing = RoomManager(store=RedisStore(url), clock=Clock(now), limits=Limits(idle_minutes=60))
        ahead = RoomManager(store=RedisStore(url), clock=Clock(now + 2 * 3600), limits=Limits(idle_minutes=60))
        behind = RoomManager(store=RedisStore(url), clock=Clock(now - 2 * 3600), limits=Limits(idle_minutes=60))
        room_id = await a_room_moved_now(playing)
        assert await ahead.sweep() == []
        assert await playing.store.load(room_id) is not None
        # The room's last move an hour ago by Redis's clock: the process 2 h behind ends it.
        seconds, micro = await playing.store.client.time()  # type: ignore[attr-defined]
        last = seconds + micro / 1e6 - 3601
        await playing.store.client.hset(f"cheekymonkey:room:{room_id}", "last_move", repr(last))  # type: ignore[attr-defined]
        assert await behind.sweep() == [room_id]
        for manager in (playing, ahead, behind):
            await manager.stop()

    with redis_process(tmp_path) as server:
        asyncio.run(check(server.url))


# -- Redis: a crashed server's bots' lease --------------------------------------------------------------------


@pytest.mark.slow
def test_a_killed_servers_bot_lease_runs_out_in_seconds_and_another_process_plays_the_bots(tmp_path: Path) -> None:
    """The process holding a room's bots is killed mid-turn: another process's bots play within a few polls.

    The lease lives at most BOT_LEASE_TTL seconds (Redis's PTTL says so), and the other process's bots play
    within a bounded number of polls, not after a 30-second lease.
    """
    with redis_process(tmp_path) as server:
        base = ["--store", server.url, "--allow-seeds", "--bot-workers", "0"]
        slow = ServeProcess([*base, "--bot-delay", "10"])  # claims the bots, then waits before its move
        try:
            slow.wait_ready()
            with serve_process([*base, "--bot-delay", "0"]) as other:
                room = make_room(slow.url, "Ann", "Mo", bots={1: "heuristic"}, seed=5)
                token = token_of(room, 0)
                # Only the slow process holds the room (the other is asked about it after the kill): its bots'
                # turn is the slow process's, which claims the lease and waits.
                assert call(slow.url, "POST", "/api/move", move(1, "stop"), token=token)[0] == 200
                lease = f"cheekymonkey:bots:{room['room']}"
                deadline = time.monotonic() + 30
                while (left := int(server.command("PTTL", lease))) < 0:
                    assert time.monotonic() < deadline, "the slow process did not claim the bots"
                    time.sleep(0.05)
                assert left <= BOT_LEASE_TTL * 1000
                slow.kill()
                polls = 0
                while call(other.url, "GET", "/api/table", token=token)[1]["to_move"] != 0:
                    polls += 1
                    assert polls <= 150, "the other process's bots did not take over"
                    time.sleep(0.1)
        finally:
            slow.stop()


# -- a store that hangs ----------------------------------------------------------------------------------------


def test_a_locked_sqlite_database_answers_503_within_the_timeout_and_serves_again_once_released(
    tmp_path: Path,
) -> None:
    """Another connection holds the database exclusively: moves and new rooms get 503 in time, then play on."""
    path = tmp_path / "rooms.sqlite3"
    manager = RoomManager(store=SqliteStore(str(path), timeout=0.5), allow_seeds=True)
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Bob")
        token = token_of(room, 0)
        holder = sqlite3.connect(path, isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            holder.execute("UPDATE meta SET value = value WHERE key = 'writes'")
            started = time.monotonic()
            status, answer = call(server, "POST", "/api/move", move(1, "draw"), token=token)
            assert status == 503, answer
            assert answer == {"error": "the rooms cannot be reached now; try again in a few seconds"}  # no detail
            status, answer = call(
                server, "POST", "/api/rooms", {"preset": "standard", "seats": [{"name": "Cy"}, {"name": "Di"}]}
            )
            assert status == 503, answer
            assert time.monotonic() - started < 20  # two calls of 0.5 s each, with a very wide margin
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert call(server, "POST", "/api/move", move(1, "draw"), token=token)[0] == 200
        make_room(server, "Cy", "Di")


def test_an_sqlite_call_stuck_past_the_timeout_is_given_up_interrupted_and_the_next_calls_refused_at_once(
    tmp_path: Path,
) -> None:
    """A call that SQLite itself keeps waiting (as a disk that hangs would): 503 in time, then no queue behind it.

    The store's connection is told to wait 20 s for a lock another connection holds, past the store's 0.5 s:
    the move is given up (and interrupted, so it writes nothing once the lock goes), the calls after it are
    refused at once while it still holds the worker, and the store serves again when it returns.
    """
    path = tmp_path / "rooms.sqlite3"

    async def check() -> None:
        store = SqliteStore(str(path), timeout=0.5)
        await store.create(StoredRoom("r", "cheeky-monkey", "standard", {}, (), 0.0, 0.0, False), {})
        assert store._db is not None
        store._db.execute("PRAGMA busy_timeout = 20000")  # SQLite waits longer than the store: a call stuck
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE rooms SET version = version")
        started = time.monotonic()
        with pytest.raises(StoreError, match=r"did not answer within 0\.5 seconds"):
            await store.append("r", 0, [{"a": 1}], last_move=0.0, finished=False)
        for _ in range(3):
            with pytest.raises(StoreError, match="still waiting for its disk"):
                await store.load("r")
        assert time.monotonic() - started < 10  # 1.5 s, then at once; not the 20 s SQLite would wait
        holder.execute("ROLLBACK")
        holder.close()
        for _ in range(200):  # the stuck call returns once the lock goes (interrupted)
            with contextlib.suppress(StoreError):
                room = await store.load("r")
                break
            await asyncio.sleep(0.05)
        assert room is not None
        assert room.actions == ()  # the move given up on wrote nothing
        assert await store.append("r", 0, [{"a": 1}], last_move=0.0, finished=False)
        await store.close()

    asyncio.run(check())


def test_a_redis_that_hangs_answers_503_within_the_timeout_and_serves_again_once_it_resumes(tmp_path: Path) -> None:
    """redis-server stopped with SIGSTOP: reads and moves get 503 in time (not a wait for ever), then play on."""
    with redis_process(tmp_path) as server:
        manager = RoomManager(store=RedisStore(server.url, timeout=0.5), allow_seeds=True)
        with live_server(manager) as web:
            room = make_room(web, "Ann", "Bob")
            token = token_of(room, 0)
            server.signal(signal.SIGSTOP)
            try:
                started = time.monotonic()
                assert call(web, "GET", "/api/table", token=token)[0] == 503
                assert call(web, "POST", "/api/move", move(1, "draw"), token=token)[0] == 503
                assert time.monotonic() - started < 20  # two calls of about 1.5 s each, with a very wide margin
            finally:
                server.signal(signal.SIGCONT)
            status, answer = call(web, "POST", "/api/move", move(1, "draw"), token=token)
            assert status == 200, answer


@pytest.mark.slow
def test_a_redis_server_killed_mid_game_loses_and_repeats_no_answered_move(tmp_path: Path) -> None:
    """SIGKILL of one of two processes on Redis mid-game: the other serves every answered move, each once."""
    with redis_process(tmp_path) as server:
        args = ["--store", server.url, "--allow-seeds", "--bot-workers", "0"]
        with serve_process(args) as other:
            doomed = ServeProcess(args)
            try:
                doomed.wait_ready()
                room = make_room(doomed.url, "Ann", "Bob", seed=21)
                answered = play_drawing(doomed.url, room, 8)
                before = call(doomed.url, "GET", "/api/table", token=token_of(room, 0))[1]
                doomed.kill()
            finally:
                doomed.stop()
            after = call(other.url, "GET", "/api/table", token=token_of(room, 0))[1]
            assert after["version"] == answered
            assert after["events"] == before["events"]
            played = play_drawing(other.url, room, 1)
            assert played > answered
            key = room["room"]
            assert int(server.command("HGET", f"cheekymonkey:room:{key}", "version")) == played
            assert int(server.command("LLEN", f"cheekymonkey:actions:{key}")) == played
