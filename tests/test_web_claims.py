"""Seat links claimed once, kept in the store: across a restart, and between processes sharing one Redis.

A room of a game with private information (:data:`tests.secret_games.GUESS`, served beside the installed
games) gives every person but its maker a link ``/play#claim:<code>``. The store keeps the code's hash and
whether it was claimed, so that

- a server restarted on the same SQLite file still opens an outstanding link, once, and still refuses one
  claimed before the restart (a real uvicorn server, stopped, and another started on the file);
- two app instances sharing one real ``redis-server`` and racing to claim one link: exactly one wins;
- a claim row that cannot be read answers 410 with a clear reason and one log line, a missing one 404.

Everything runs against real parts: SQLite files, a real ``redis-server`` (from the system's packages) and
real uvicorn servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from cheekymonkey.web import (
    Limits,
    MemoryStore,
    RedisStore,
    RoomError,
    RoomManager,
    SeatSpec,
    SqliteStore,
    StoredRoom,
    token_hash,
)
from cheekymonkey.web.app import CLAIM_PREFIX
from cheekymonkey.web.store import SeatClaim, Store, UnreadableRoomError
from tests.secret_games import GUESS
from tests.web_support import LiveServer, call, live_server, redis_server

LIMITS = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)


def guess_manager(store: Store) -> RoomManager:
    manager = RoomManager(store=store, allow_seeds=True, limits=LIMITS)
    manager.games = (*manager.games, GUESS)
    return manager


def guess_room(server: LiveServer, seed: int) -> tuple[str, str, str]:
    """A room of Guess for Ann and Bob: its id, Ann's token and the one-time code of Bob's link."""
    body = {"game": "guess", "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": seed}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201, room
    first, second = room["seats"][0]["link"], room["seats"][1]["link"]
    assert not first.removeprefix("/play#").startswith(CLAIM_PREFIX)
    assert second.startswith("/play#" + CLAIM_PREFIX)
    return room["room"], first.removeprefix("/play#"), second.removeprefix("/play#" + CLAIM_PREFIX)


def claim(server: LiveServer, code: str) -> tuple[int, Any]:
    return call(server, "POST", "/api/claim", {"claim": code})


def seat_of(server: LiveServer, token: str) -> tuple[int, Any]:
    status, table = call(server, "GET", "/api/table", token=token)
    return status, table.get("seat") if status == 200 else table


# -- the store's claims, for each kind of store ----------------------------------------------------------------


@contextlib.contextmanager
def each_store(kind: str, folder: Path) -> Iterator[Callable[[], Store]]:
    """A way to open (again) one store of ``kind``: memory (one instance), an SQLite file, or a real Redis."""
    if kind == "memory":
        only = MemoryStore()
        yield lambda: only
    elif kind == "sqlite":
        yield lambda: SqliteStore(str(folder / "rooms.sqlite3"))
    else:
        with redis_server(folder) as url:
            yield lambda: RedisStore(url)


def a_room(room_id: str) -> StoredRoom:
    return StoredRoom(room_id, "guess", "standard", {"kind": "record"}, (), 0.0, 0.0, False)


@pytest.mark.parametrize("kind", ["memory", "sqlite", "redis"])
def test_web_claims_a_store_claims_a_link_once_replaces_the_seats_token_and_forgets_it_with_its_room(
    kind: str, tmp_path: Path
) -> None:
    """First claim wins and makes the new token the seat's only one; later claims lose; unknown or gone: None."""

    async def check(open_store: Callable[[], Store]) -> None:
        store = open_store()
        try:
            await store.create(a_room("r1"), {0: token_hash("ann")}, {1: token_hash("code-1")})
            await store.create(a_room("r2"), {0: token_hash("cy")}, {1: token_hash("code-2")})
            assert await store.seat_for(token_hash("ann")) == ("r1", 0)
            assert await store.claim(token_hash("nobody's"), token_hash("t0")) is None
            assert await store.claim(token_hash("code-1"), token_hash("bob")) == SeatClaim("r1", 1, won=True)
            assert await store.seat_for(token_hash("bob")) == ("r1", 1)
            # Claimed: every later call loses and changes nothing (the loser's token opens nothing).
            assert await store.claim(token_hash("code-1"), token_hash("eve")) == SeatClaim("r1", 1, won=False)
            assert await store.seat_for(token_hash("eve")) is None
            assert await store.seat_for(token_hash("bob")) == ("r1", 1)
            assert await store.seat_for(token_hash("ann")) == ("r1", 0)  # the other seat's token is untouched
            await store.delete("r1")
            assert await store.claim(token_hash("code-1"), token_hash("eve")) is None
            assert await store.seat_for(token_hash("bob")) is None
            # The other room's link is still outstanding.
            assert await store.claim(token_hash("code-2"), token_hash("di")) == SeatClaim("r2", 1, won=True)
        finally:
            await store.close()

    with each_store(kind, tmp_path) as open_store:
        asyncio.run(check(open_store))


def test_web_claims_sqlite_keeps_only_the_hashes_of_the_codes_and_tokens(tmp_path: Path) -> None:
    """The database file holds the code's and the token's hashes, never either one itself."""
    path = tmp_path / "rooms.sqlite3"

    async def check() -> tuple[str, str]:
        manager = guess_manager(SqliteStore(str(path)))
        try:
            room, keys = await manager.create(GUESS, None, [SeatSpec("Ann"), SeatSpec("Bob")], seed=3, claim_seats=[1])
            claimed, seat, token = await manager.claim(keys[1])
            assert (claimed, seat) == (room, 1)
            with pytest.raises(RoomError, match="a seat link to claim must be a person's seat"):
                await manager.create(GUESS, None, [SeatSpec("Ann"), SeatSpec("Bo", "random")], claim_seats=[1])
            return keys[1], token
        finally:
            await manager.stop()

    code, token = asyncio.run(check())
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT hash, seat, claimed FROM claims").fetchall()
        tokens = [hashed for (hashed,) in db.execute("SELECT hash FROM tokens WHERE seat = 1")]
    assert rows == [(token_hash(code), 1, 1)]
    assert tokens == [token_hash(token)]
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("rooms.sqlite3"))
    assert code.encode() not in data
    assert token.encode() not in data
    assert token_hash(code).encode() in data


# -- a real restart of the server on one SQLite file ---------------------------------------------------------


def test_web_claims_a_restarted_server_opens_an_outstanding_link_once_and_refuses_one_claimed_before(
    tmp_path: Path,
) -> None:
    """Links handed out before a restart: the outstanding one is claimed once after it, the claimed one stays so."""
    path = tmp_path / "rooms.sqlite3"
    with live_server(guess_manager(SqliteStore(str(path)))) as before:
        waiting_room, waiting_maker, waiting_code = guess_room(before, 3)
        claimed_room, _, claimed_code = guess_room(before, 4)
        status, won = claim(before, claimed_code)
        assert status == 200, won
        assert seat_of(before, won["token"]) == (200, 1)
    with live_server(guess_manager(SqliteStore(str(path)))) as after:
        # Claimed before the restart: still claimed (not claimable twice), and its token still opens the seat.
        status, again = claim(after, claimed_code)
        assert status == 409, again
        assert "already been opened in another browser" in again["error"]
        assert "token" not in again
        assert seat_of(after, won["token"]) == (200, 1)
        # Handed out and not yet opened: the restarted server opens it, once.
        status, first = claim(after, waiting_code)
        assert status == 200, first
        assert (first["room"], first["seat"]) == (waiting_room, 1)
        assert seat_of(after, first["token"]) == (200, 1)
        assert seat_of(after, waiting_maker) == (200, 0)
        assert claim(after, waiting_code)[0] == 409
        assert claimed_room != waiting_room


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE claims SET seat = 'one'",
        "UPDATE claims SET claimed = 7",
        "UPDATE claims SET seat = -1",
    ],
)
def test_web_claims_a_claim_row_that_cannot_be_read_answers_410_with_a_clear_reason_and_a_log_line_each(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A damaged row: 410 naming the damaged link (never 500, never a token); the room's maker plays on."""
    path = tmp_path / "rooms.sqlite3"
    with live_server(guess_manager(SqliteStore(str(path)))) as before:
        room_id, maker, code = guess_room(before, 3)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(damage)
        db.commit()
    with (
        caplog.at_level(logging.INFO, logger="cheekymonkey.web"),
        live_server(guess_manager(SqliteStore(str(path)))) as after,
    ):
        for _ in range(2):
            status, answer = claim(after, code)
            assert status == 410, answer
            assert answer == {
                "error": "this seat's link is damaged in the server's store and cannot be opened; ask whoever "
                "made the room for a new one"
            }
        assert seat_of(after, maker) == (200, 0)
    lines = [r.getMessage() for r in caplog.records if "claim of a seat link cannot be read" in r.getMessage()]
    assert len(lines) == 2  # one for each claim refused
    assert all(f"room {room_id}" in line for line in lines)
    assert not any(r.exc_info for r in caplog.records)


def test_web_claims_a_missing_claim_row_answers_404_and_the_maker_plays_on(tmp_path: Path) -> None:
    """The row gone (the room is kept): the link is a link to nothing, 404, as an unknown code."""
    path = tmp_path / "rooms.sqlite3"
    with live_server(guess_manager(SqliteStore(str(path)))) as before:
        _, maker, code = guess_room(before, 3)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DELETE FROM claims")
        db.commit()
    with live_server(guess_manager(SqliteStore(str(path)))) as after:
        status, answer = claim(after, code)
        assert status == 404, answer
        assert answer == {"error": "no open room has a seat for this link (it may have ended)"}
        assert seat_of(after, maker) == (200, 0)


# -- two processes sharing one Redis ---------------------------------------------------------------------------


def claimed_at_once(servers: tuple[LiveServer, ...], code: str) -> list[tuple[int, Any]]:
    """``code`` claimed through each of ``servers`` at the same moment (threads released together)."""
    start = threading.Barrier(len(servers))
    answers: list[tuple[int, Any]] = [(0, None)] * len(servers)

    def race(index: int) -> None:
        start.wait(timeout=30)
        answers[index] = claim(servers[index], code)

    threads = [threading.Thread(target=race, args=(index,)) for index in range(len(servers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_web_claims_two_app_instances_sharing_redis_racing_for_one_link_exactly_one_wins(tmp_path: Path) -> None:
    """Each of 12 links claimed at once through two servers on one Redis: one 200 and one 409, every time."""
    with (
        redis_server(tmp_path) as url,
        live_server(guess_manager(RedisStore(url))) as one,
        live_server(guess_manager(RedisStore(url))) as two,
    ):
        for seed in range(12):
            _, _, code = guess_room(one if seed % 2 else two, seed)
            answers = claimed_at_once((one, two), code)
            assert sorted(status for status, _ in answers) == [200, 409], answers
            won = next(answer for status, answer in answers if status == 200)
            # The winner's token opens the seat through either server; the link is spent on both.
            assert seat_of(one, won["token"]) == (200, 1)
            assert seat_of(two, won["token"]) == (200, 1)
            assert claim(one, code)[0] == claim(two, code)[0] == 409


def test_web_claims_many_redis_stores_racing_for_one_link_exactly_one_claims_it(tmp_path: Path) -> None:
    """Eight store clients claim one code at once, 20 times over: exactly one wins each, and its token is the seat's."""

    async def check(url: str) -> None:
        stores = [RedisStore(url) for _ in range(8)]
        try:
            for n in range(20):
                await stores[0].create(a_room(f"r{n}"), {0: token_hash(f"ann{n}")}, {1: token_hash(f"code{n}")})
                found = await asyncio.gather(
                    *(store.claim(token_hash(f"code{n}"), token_hash(f"t{n}-{i}")) for i, store in enumerate(stores))
                )
                winners = [i for i, claimed in enumerate(found) if claimed is not None and claimed.won]
                assert len(winners) == 1, found
                assert all(claimed == SeatClaim(f"r{n}", 1, won=i in winners) for i, claimed in enumerate(found))
                for i in range(8):
                    expected = (f"r{n}", 1) if i in winners else None
                    assert await stores[3].seat_for(token_hash(f"t{n}-{i}")) == expected
        finally:
            for store in stores:
                await store.close()

    with redis_server(tmp_path) as url:
        asyncio.run(check(url))


@pytest.mark.parametrize("damage", ["seat", "claimed", "type"])
def test_web_claims_a_redis_claim_that_cannot_be_read_is_an_unreadable_room_and_changes_nothing(
    tmp_path: Path, damage: str
) -> None:
    """A field that is not a number, or the key not a hash: UnreadableRoomError naming what it read, no token made."""

    async def check(url: str) -> None:
        store = RedisStore(url)
        try:
            await store.create(a_room("r1"), {0: token_hash("ann")}, {1: token_hash("code")})
            key = store.key("claim", token_hash("code"))
            with contextlib.closing(redis.Redis.from_url(url, decode_responses=True)) as client:
                if damage == "type":
                    client.delete(key)
                    client.set(key, "r1 1")
                else:
                    client.hset(key, damage, "x")
            with pytest.raises(UnreadableRoomError, match="the claim of a seat link cannot be read"):
                await store.claim(token_hash("code"), token_hash("bob"))
            assert await store.seat_for(token_hash("bob")) is None
            await store.delete("r1")  # the damaged key goes with its room
            with contextlib.closing(redis.Redis.from_url(url, decode_responses=True)) as client:
                assert client.exists(key) == 0
        finally:
            await store.close()

    with redis_server(tmp_path) as url:
        asyncio.run(check(url))
