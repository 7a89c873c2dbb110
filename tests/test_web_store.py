"""Where rooms are kept: SQLite by default, Redis for several processes; how rooms end; a game's record.

The restart test and the Redis tests run ``cheekymonkey serve`` as real processes, and the Redis tests a real
``redis-server`` (from the system's packages: ``.ci/system-deps`` installs it), started here on a free port
with a temporary folder.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import http.client
import json
import logging
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import CHEEKY_MONKEY
from cheekymonkey.cheeky.documents import load_record
from cheekymonkey.table import Table
from cheekymonkey.web import (
    Limits,
    RedisStore,
    RoomManager,
    SeatSpec,
    SqliteStore,
    StoredRoom,
    StoreError,
    token_hash,
)
from tests.web_support import (
    ServeProcess,
    call,
    free_port,
    live_server,
    make_room,
    move,
    read_event,
    redis_server,
    serve_process,
    token_of,
)


def stored(room_id: str = "r1", actions: int = 0) -> StoredRoom:
    return StoredRoom(room_id, "cheeky-monkey", "standard", {"kind": "record"}, ({"a": 1},) * actions, 1.0, 2.0, False)


def test_an_sqlite_store_keeps_rooms_across_reopening_and_appends_only_at_the_version_named(tmp_path: Path) -> None:
    """Appends are compare-and-set on the version; everything written is there after the file is opened again."""
    path = tmp_path / "rooms.sqlite3"

    async def write() -> None:
        store = SqliteStore(str(path))
        await store.create(stored(actions=2), {0: token_hash("secret-0"), 2: token_hash("secret-2")})
        assert await store.append("r1", 2, [{"a": 2}], last_move=5.0, finished=True)
        assert not await store.append("r1", 2, [{"a": 3}], last_move=6.0, finished=True)  # stale: nothing written
        assert not await store.append("nothing", 0, [{"a": 3}], last_move=6.0, finished=True)
        await store.close()

    async def read() -> None:
        store = SqliteStore(str(path))
        room = await store.load("r1")
        assert room is not None
        assert room.actions == ({"a": 1}, {"a": 1}, {"a": 2})
        assert room.finished
        assert room.last_move != 5.0  # the store's own clock, not the process's time passed in
        assert await store.seat_for(token_hash("secret-2")) == ("r1", 2)
        assert await store.actions_since("r1", 2) == [{"a": 2}]
        assert [s.id for s in await store.summaries()] == ["r1"]
        await store.delete("r1")
        assert await store.load("r1") is None
        assert await store.seat_for(token_hash("secret-0")) is None
        assert await store.count() == 0
        await store.close()

    asyncio.run(write())
    asyncio.run(read())


def test_a_file_that_is_not_a_database_is_refused_with_a_store_error(tmp_path: Path) -> None:
    """A path that cannot hold the rooms gives one clear error, not a traceback."""
    bad = tmp_path / "not-a-database"
    bad.write_bytes(b"this is not SQLite" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        SqliteStore(str(bad))
    with pytest.raises(StoreError, match="cannot use"):
        SqliteStore(str(tmp_path))  # a folder


def test_the_store_keeps_records_and_token_hashes_never_the_tokens(tmp_path: Path) -> None:
    """The database file holds each seat token's hash and the record, and no token."""
    path = tmp_path / "rooms.sqlite3"
    manager = RoomManager(store=SqliteStore(str(path)), allow_seeds=True)
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Bob")
        call(server, "POST", "/api/move", move(1, "stop"), token=token_of(room, 0))
    written = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for seat in (0, 1):
        assert token_of(room, seat).encode() not in written
        assert token_hash(token_of(room, seat)).encode() in written
    with sqlite3.connect(path) as db:
        (record,) = db.execute("SELECT record FROM rooms").fetchone()
        actions = [json.loads(a) for (a,) in db.execute("SELECT action FROM actions ORDER BY number")]
    assert json.loads(record)["names"] == ["Ann", "Bob"]
    assert [a["type"] for a in actions] == ["reveal", "stop", "reveal"]


def end_turn(url: str, token: str) -> None:
    """Stop, and put the tokens down in the order offered, until the seat's turn is over."""
    while (table := call(url, "GET", "/api/table", token=token)[1])["legal"]:
        actions = [item["action"] for item in table["legal"]]
        chosen = {"type": "stop"} if {"type": "stop"} in actions else actions[0]
        status, _ = call(url, "POST", "/api/move", {"version": table["version"], "action": chosen}, token=token)
        assert status == 200


def tables(url: str, room: dict[str, Any]) -> list[dict[str, Any]]:
    return [call(url, "GET", "/api/table", token=token_of(room, seat))[1] for seat in (0, 1)]


@pytest.mark.slow
def test_a_server_killed_mid_game_comes_back_with_every_room_as_it_was(tmp_path: Path) -> None:
    """SIGKILL mid-game, then a new process on the same store: every link works, the tables match, play goes on."""
    store = ["--store", str(tmp_path / "rooms.sqlite3"), "--allow-seeds", "--bot-delay", "0"]
    first = ServeProcess(store)
    try:
        first.wait_ready()
        room = make_room(first.url, "Ann", "Bob", "Mo", bots={2: "heuristic"}, seed=8)
        other = make_room(first.url, "Cy", "Di", seed=9)
        token = token_of(room, 0)
        assert call(first.url, "POST", "/api/move", move(1, "draw"), token=token)[0] == 200
        end_turn(first.url, token)
        before = tables(first.url, room) + tables(first.url, other)
        first.kill()
    finally:
        first.stop()
    with serve_process(store) as second:
        after = tables(second.url, room) + tables(second.url, other)
        assert after == before
        # The game goes on: Bob moves from the version he saw, and the other room too.
        bob = before[1]
        assert bob["to_move"] == 1
        status, moved = call(second.url, "POST", "/api/move", move(bob["version"], "draw"), token=token_of(room, 1))
        assert status == 200, moved
        end_turn(second.url, token_of(room, 1))
        deadline = time.monotonic() + 30
        while call(second.url, "GET", "/api/table", token=token)[1]["to_move"] != 0:  # Mo, the bot, plays on
            assert time.monotonic() < deadline, "the bot did not play after the restart"
            time.sleep(0.05)
        status, _ = call(second.url, "POST", "/api/move", move(before[2]["version"], "stop"), token=token_of(other, 0))
        assert status == 200


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def gone(server: Any, token: str, seconds: float = 10) -> bool:
    """Whether the seat's link stops working within ``seconds`` (the sweeper runs every 0.05 s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if call(server, "GET", "/api/table", token=token)[0] == 404:
            return True
        time.sleep(0.05)
    return False


def test_a_game_nobody_moves_in_ends_after_the_idle_time_even_if_its_table_is_read() -> None:
    """Reading a table keeps nothing open: a game with no move for ``idle_minutes`` ends, and its links with it."""
    clock = Clock()
    manager = RoomManager(limits=Limits(idle_minutes=60), clock=clock, allow_seeds=True)
    with live_server(manager, sweep_seconds=0.05) as server:
        room = make_room(server, "Ann", "Bob")
        token = token_of(room, 0)
        for _ in range(5):  # a read every 12 minutes, as a client keeping the room alive would
            clock.now += 12 * 60 - 1
            assert call(server, "GET", "/api/table", token=token)[0] == 200
        assert not gone(server, token, 0.5)
        clock.now += 10
        assert gone(server, token)
        status, answer = call(server, "GET", "/api/table", token=token_of(room, 1))
        assert status == 404
        assert "ended" in answer["error"]
        assert manager.rooms == {}


def test_a_finished_games_record_can_be_downloaded_until_its_room_ends() -> None:
    """The record is refused before the end, given after it (replaying to the same end), then the room ends."""
    clock = Clock()
    manager = RoomManager(limits=Limits(finished_minutes=15, max_moves=8), clock=clock, allow_seeds=True)
    with live_server(manager, sweep_seconds=0.05) as server:
        room = make_room(server, "Ann", "Bob")
        token = token_of(room, 0)
        status, answer = call(server, "GET", "/api/record", token=token)
        assert (status, answer["error"]) == (409, "the record can be downloaded once the game is finished")
        table = call(server, "GET", "/api/table", token=token)[1]
        while table["waiting"] == "person":
            seat_token = token_of(room, table["to_move"])
            status, table = call(server, "POST", "/api/move", move(table["version"], "stop"), token=seat_token)
            assert status == 200
        held = manager.rooms[room["room"]]
        clock.now += 14 * 60
        assert not gone(server, token, 0.5)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/api/record", headers={"Authorization": f"Bearer {token_of(room, 1)}"})
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        assert response.status == 200
        assert response.getheader("content-disposition") == f'attachment; filename="cheeky-monkey-{room["room"]}.json"'
        record = load_record(text)
        assert record.actions == held.table.actions
        assert record.names == ("Ann", "Bob")
        assert Table.from_record(CHEEKY_MONKEY, record).actions == held.table.actions
        clock.now += 2 * 60
        assert gone(server, token)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server on a free port of 127.0.0.1, with its own folder, for this module's tests."""
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


def test_a_redis_store_appends_only_at_the_version_named_and_forgets_a_room_whole(redis_url: str) -> None:
    """The Redis store's compare-and-set, lookups, leases and deletion, against a real redis-server."""

    async def check() -> None:
        store = RedisStore(redis_url, prefix="unit-test:")
        await store.create(stored("u1", 1), {1: token_hash("t")})
        assert await store.append("u1", 1, [{"a": 2}], last_move=3.0, finished=False)
        assert not await store.append("u1", 1, [{"a": 9}], last_move=3.0, finished=False)
        room = await store.load("u1")
        assert room is not None
        assert room.actions == ({"a": 1}, {"a": 2})
        assert await store.seat_for(token_hash("t")) == ("u1", 1)
        assert await store.claim_bots("u1", "me", 30)
        assert not await store.claim_bots("u1", "you", 30)
        assert await store.claim_bots("u1", "me", 30)  # renewed
        await store.release_bots("u1", "me")
        assert await store.claim_bots("u1", "you", 30)
        await store.delete("u1")
        assert await store.load("u1") is None
        assert await store.seat_for(token_hash("t")) is None
        assert await store.count() == 0
        await store.close()

    asyncio.run(check())


@pytest.fixture(scope="module")
def two_servers(redis_url: str) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two ``cheekymonkey serve`` processes sharing one Redis."""
    args = ["--store", redis_url, "--allow-seeds", "--bot-delay", "0", "--forwarded-allow-ips", "127.0.0.1"]
    with serve_process(args) as first, serve_process(args) as second:
        yield first, second


@pytest.mark.slow
def test_a_move_posted_to_one_process_reaches_a_stream_opened_on_the_other(
    two_servers: tuple[ServeProcess, ServeProcess],
) -> None:
    """A room made on one process is played on the other, and each process's streams hear the other's moves."""
    first, second = two_servers
    room = make_room(first.url, "Ann", "Bob", seed=2)
    connection = http.client.HTTPConnection("127.0.0.1", second.port, timeout=20)
    connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token_of(room, 1)}"})
    stream = connection.getresponse()
    try:
        assert stream.status == 200
        assert read_event(stream)["version"] == 1
        status, answer = call(first.url, "POST", "/api/move", move(1, "draw"), token=token_of(room, 0))
        assert status == 200
        heard = read_event(stream)
        assert heard["version"] == answer["version"]
        assert heard["view"] == call(first.url, "GET", "/api/table", token=token_of(room, 1))[1]["view"]
        assert heard["events"][0]["text"].startswith("Ann draws")
    finally:
        connection.close()


@pytest.mark.slow
def test_a_move_posted_to_both_processes_at_once_is_played_once(
    two_servers: tuple[ServeProcess, ServeProcess],
) -> None:
    """The same move, sent to both processes at the same moment, twenty times: one is played, one refused."""
    first, second = two_servers
    for trial in range(20):
        room = make_room(first.url, "Ann", "Bob", seed=trial, headers={"X-Forwarded-For": f"10.1.0.{trial}"})
        token = token_of(room, 0)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            urls = (first.url, second.url)
            posts = [pool.submit(call, url, "POST", "/api/move", move(1, "draw"), token=token) for url in urls]
            answers = [post.result() for post in posts]
        assert sorted(status for status, _ in answers) == [200, 409], answers
        played = next(answer for status, answer in answers if status == 200)
        refused = next(answer for status, answer in answers if status == 409)
        assert refused["table"]["version"] == played["version"]
        for url in (first.url, second.url):
            table = call(url, "GET", "/api/table", token=token)[1]
            assert table["version"] == played["version"]
            anns = [e["event"]["type"] for e in table["events"] if e["event"].get("seat") == 0]
            assert anns in (["drew", "drew"], ["drew", "busted"])  # the first draw and one more: played once


@pytest.mark.slow
def test_bots_play_once_when_two_processes_serve_their_room(two_servers: tuple[ServeProcess, ServeProcess]) -> None:
    """A room with a bot, followed on both processes: the bot's turn is played by one of them, once."""
    first, second = two_servers
    room = make_room(first.url, "Ann", "Mo", bots={1: "heuristic"}, seed=5)
    token = token_of(room, 0)
    for url in (first.url, second.url):
        call(url, "GET", "/api/table", token=token)  # both processes now hold the room
    status, table = call(second.url, "POST", "/api/move", move(1, "stop"), token=token)
    assert status == 200
    deadline = time.monotonic() + 30
    while (table := call(first.url, "GET", "/api/table", token=token)[1])["to_move"] != 0:
        assert time.monotonic() < deadline, "the bot did not play"
        time.sleep(0.05)
    record = call(second.url, "GET", "/api/table", token=token)[1]
    assert record["version"] == table["version"]
    mo_turns = [
        e
        for e in table["events"]
        if e["event"]["type"] in ("stopped", "busted", "herd_secured") and e["event"]["seat"] == 1
    ]
    assert len(mo_turns) == 1


# -- a damaged store: one room's rows, or the whole file ---------------------------------------------------


def fill(path: Path) -> list[tuple[str, dict[int, str]]]:
    """Two rooms of two people in an SQLite file, each a move in; their ids and seat tokens."""

    async def make() -> list[tuple[str, dict[int, str]]]:
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

    return asyncio.run(make())


def rows(path: Path) -> list[tuple[Any, ...]]:
    """Every row of the three tables, in a fixed order."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        found: list[tuple[Any, ...]] = []
        for table in ("rooms", "actions", "tokens"):
            found += db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
        return found


DAMAGES = {
    "an actions row that is not JSON": "UPDATE actions SET action = '{not json' WHERE room = ? AND number = 1",
    "an action that does not replay": (
        'UPDATE actions SET action = \'{"format": "cheekymonkey/1", "kind": "action", "type": "claim", '
        '"seat": 1}\' WHERE room = ? AND number = 1'
    ),
    "a record that is not JSON": "UPDATE rooms SET record = 'garbage' WHERE id = ?",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_room_whose_rows_cannot_be_read_is_closed_alone_and_its_seats_are_told_it_is_damaged(
    tmp_path: Path, damage: str
) -> None:
    """One damaged room: one log line names it and why; the server serves the others; its seats get 410."""
    path = tmp_path / "rooms.sqlite3"
    (bad, bad_tokens), (good, good_tokens) = fill(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(DAMAGES[damage], (bad,))
        db.commit()
    before = rows(path)
    log = tmp_path / "server.log"
    with serve_process(["--store", str(path), "--bot-delay", "0"], stderr=log) as server:
        mover = call(server, "GET", "/api/table", token=good_tokens[1])[1]["to_move"]
        status, table = call(server, "GET", "/api/table", token=good_tokens[mover])
        assert status == 200
        played = {"version": table["version"], "action": table["legal"][0]["action"]}
        assert call(server, "POST", "/api/move", played, token=good_tokens[mover])[0] == 200  # the others play on
        for token in bad_tokens.values():
            for method, path_, body in (("GET", "/api/table", None), ("POST", "/api/move", move(2, "stop"))):
                status, answer = call(server, method, path_, body, token=token)
                assert status == 410, answer
                assert "damaged" in answer["error"]
        assert [r for r in rows(path) if bad in r] == [r for r in before if bad in r]  # the refusals changed nothing
    text = log.read_text()
    assert "Traceback" not in text
    naming = [line for line in text.splitlines() if bad in line]
    assert len(naming) == 1, text
    assert "damaged" in naming[0]
    assert good not in text


def flip_bytes(path: Path) -> None:
    """Overwrite part of the file's second page (the rooms' B-tree) with other bytes."""
    data = bytearray(path.read_bytes())
    for offset in range(4096 + 8, 4096 + 200):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def serve_once(args: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """``cheekymonkey serve`` on a free port with ``args``, expected to stop by itself."""
    command = [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(free_port()), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, **options)


@pytest.mark.parametrize("damage", ["flipped bytes", "not a database"])
def test_a_damaged_database_file_is_refused_at_start_in_one_line(tmp_path: Path, damage: str) -> None:
    """A database whose pages are damaged, or a file that is not one: one line, a non-zero exit, no traceback."""
    path = tmp_path / "rooms.sqlite3"
    fill(path)
    if damage == "flipped bytes":
        flip_bytes(path)
    else:
        path.write_bytes(b"these are not the rooms you are looking for\n" * 200)
    done = serve_once(["--store", str(path)])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"cheekymonkey serve: cannot use {path} as the room store")
    assert "Serving" not in done.stdout


def read_only(path: Path, on: bool) -> None:
    """Make ``path`` (a file or a folder) read-only for this process, or writable again.

    Root writes a file whatever its mode, so as root the path is made immutable (``chattr +i``) instead.
    """
    if os.geteuid() != 0:
        path.chmod((0o555 if path.is_dir() else 0o444) if on else 0o755)
        return
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"chattr cannot make {path} read-only for root here: {done.stderr}"


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_refused_at_start_in_one_line(tmp_path: Path, what: str) -> None:
    """A database file, or its folder, the server may not write: one line and a non-zero exit, before serving."""
    path = tmp_path / "rooms.sqlite3"
    fill(path)
    locked = path if what == "file" else tmp_path
    read_only(locked, True)
    try:
        done = serve_once(["--store", str(path)])
    finally:
        read_only(locked, False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"cheekymonkey serve: cannot use {path} as the room store")
    assert "Serving" not in done.stdout


def test_every_room_the_sweep_ends_is_logged_once_with_why(caplog: pytest.LogCaptureFixture) -> None:
    """A finished game past its time and a game nobody moves in: one log line each, naming the room and why."""
    clock = Clock()
    manager = RoomManager(limits=Limits(idle_minutes=60, finished_minutes=15, max_moves=2), clock=clock,
                          allow_seeds=True)  # fmt: skip
    with caplog.at_level(logging.INFO, logger="cheekymonkey.web"), live_server(manager, sweep_seconds=0.05) as server:
        idle = make_room(server, "Ann", "Bob")
        done = make_room(server, "Cy", "Di")
        status, table = call(server, "POST", "/api/move", move(1, "draw"), token=token_of(done, 0))
        assert (status, table["waiting"]) == (200, "truncated")
        clock.now += 16 * 60
        assert gone(server, token_of(done, 1))
        clock.now += 60 * 60
        assert gone(server, token_of(idle, 1))
    lines = [r.getMessage() for r in caplog.records if r.name == "cheekymonkey.web" and "ended" in r.getMessage()]
    assert len([line for line in lines if done["room"] in line]) == 1, lines
    assert len([line for line in lines if idle["room"] in line]) == 1, lines
    (finished,) = (line for line in lines if done["room"] in line)
    (quiet,) = (line for line in lines if idle["room"] in line)
    assert "finished" in finished
    assert "no move" in quiet
