"""The web server on the open internet: limits by network, a budget of work per client, bots that fail cleanly.

Every test drives a real server (uvicorn on loopback, or ``cheekymonkey serve`` as its own process). Many
clients are many loopback addresses: on Linux all of 127.0.0.0/8 reaches the server, so a client socket
bound to 127.0.0.2, 127.0.0.3, ... is a client of its own. The assertions count answers, rooms, streams,
log lines and bytes, never seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import http.client
import importlib.metadata
import json
import logging
import os
import random
import signal
import socket
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, NoReturn

import attrs
import pytest

import cheekymonkey.games
import cheekymonkey.web
from cheekymonkey.cli.serve import add_arguments
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import ENTRY_POINT_GROUP, Registry, game_named
from cheekymonkey.web import BotPool, LimitError, Limits, RoomManager, SeatSpec, SqliteStore, create_app, open_store
from cheekymonkey.web.limits import RequestBudget, client_network, request_cost, reserved
from cheekymonkey.web.rooms import Room
from tests.minimal_game import Race
from tests.web_support import LiveServer, live_server, redis_server, serve_process, token_of

LOOPBACK_OK = sys.platform.startswith("linux")  # 127.0.0.0/8 answers on Linux, which CI runs

ROOM = {"preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}


def ask(
    port: int,
    method: str,
    path: str,
    body: object = None,
    *,
    source: str = "127.0.0.1",
    token: str | None = None,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
) -> tuple[int, dict[str, str], Any]:
    """One request from the loopback address ``source``; the status, the headers (lower-cased) and the JSON body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    sent = dict(headers or {})
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    if data is not None:
        sent["Content-Type"] = "application/json"
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, data, sent)
        response = connection.getresponse()
        text = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(text) if text else None
    finally:
        connection.close()


def open_stream_from(port: int, token: str, source: str) -> tuple[http.client.HTTPConnection, int]:
    """A seat's event stream opened from ``source``; the connection (left open if the stream was) and the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    if response.status != 200:
        response.read()
        connection.close()
    else:
        response.readline()  # the first line of the first table: the stream is open and counted
    return connection, response.status


# -- clients are networks ---------------------------------------------------------------------------------


def test_a_client_is_its_ipv4_address_or_its_ipv6_64() -> None:
    """IPv4 by address, IPv6 by /64; other prefixes on request; a mapped IPv4 address is the IPv4 address."""
    assert client_network("198.51.100.7") == "198.51.100.7/32"
    assert client_network("198.51.100.7") != client_network("198.51.100.8")
    assert client_network("198.51.100.7", ipv4_prefix=24) == client_network("198.51.100.200", ipv4_prefix=24)
    one = {client_network(f"2001:db8:5:6:{i:x}::{i:x}") for i in range(1, 200)}
    assert one == {"2001:db8:5:6::/64"}
    assert client_network("2001:db8:5:7::1") != client_network("2001:db8:5:6::1")
    assert client_network("2001:db8:5:7::1", ipv6_prefix=48) == client_network("2001:db8:5:6::1", ipv6_prefix=48)
    assert client_network("::ffff:198.51.100.7") == client_network("198.51.100.7")
    assert client_network("::1") == "::/64"
    assert client_network("[2001:db8::1]") == "2001:db8::/64"
    assert client_network("not an address") == "not an address"
    with pytest.raises(InvalidValueError, match="ipv6_prefix"):
        Limits(ipv6_prefix=129)
    with pytest.raises(InvalidValueError, match="ipv4_prefix"):
        Limits(ipv4_prefix=33)


def test_the_prefixes_are_options_of_serve_and_of_the_app_factory() -> None:
    """``--ipv4-prefix`` and ``--ipv6-prefix`` reach the limits; the factory's ``ipv4_prefix=24`` joins 127.0.0.x."""
    import argparse

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--ipv4-prefix", "24", "--ipv6-prefix", "56", "--request-rate", "5"])
    assert (args.ipv4_prefix, args.ipv6_prefix, args.request_rate) == (24, 56, 5.0)
    with pytest.raises(SystemExit):
        parser.parse_args(["--ipv6-prefix", "129"])
    with pytest.raises(InvalidValueError, match="ipv4_prefix"):
        create_app(RoomManager(), ipv4_prefix=0)
    assert LOOPBACK_OK
    for prefix, second in ((32, 201), (24, 429)):
        with live_server(RoomManager(limits=Limits(rooms_per_client=1)), ipv4_prefix=prefix) as server:
            assert ask(server.port, "POST", "/api/rooms", ROOM, source="127.0.0.2")[0] == 201
            status, headers, answer = ask(server.port, "POST", "/api/rooms", ROOM, source="127.0.0.3")
            assert status == second, answer
            if status == 429:
                assert "1 rooms open" in answer["error"]
                assert int(headers["retry-after"]) >= 1


def test_the_addresses_of_one_ipv6_64_are_one_client_through_the_apps_client_address() -> None:
    """Addresses a trusted proxy names in one /64 share a client's rooms; an address of another /64 is another."""
    limits = Limits(rooms_per_client=2)
    with live_server(RoomManager(limits=limits), trusted_proxies=["127.0.0.1"]) as server:
        for address in ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"):
            assert ask(server.port, "POST", "/api/rooms", ROOM, headers={"X-Forwarded-For": address})[0] == 201
        status, _, answer = ask(server.port, "POST", "/api/rooms", ROOM, headers={"X-Forwarded-For": "2001:db8:1:2::9"})
        assert status == 429, answer
        assert "2 rooms open" in answer["error"]
        assert ask(server.port, "POST", "/api/rooms", ROOM, headers={"X-Forwarded-For": "2001:db8:1:3::1"})[0] == 201


def test_the_reserved_part_of_a_cap_is_a_quarter() -> None:
    """A quarter of each server-wide cap, at least one, is kept for clients that hold none of it."""
    assert [reserved(cap) for cap in (1, 3, 4, 500, 1000)] == [1, 1, 1, 125, 250]


def test_an_honest_client_opens_a_stream_while_40_networks_hold_all_they_can_get() -> None:
    """At the default limits, 40 clients each open every stream the server grants them; a 41st is still served.

    Counted by exact address, 32 clients at 16 streams took all 500. Now the last quarter (125) is kept for
    clients that hold none: each of the 40 gets at most its 16 while three quarters are free, and one after.
    """
    limits = Limits()
    held: list[http.client.HTTPConnection] = []
    with live_server(RoomManager(limits=limits)) as server:
        try:
            granted = {}
            refusals = set()
            for n in range(40):
                source = f"127.0.0.{n + 2}"
                status, _, room = ask(server.port, "POST", "/api/rooms", {
                    "preset": "standard", "seats": [{"name": name} for name in ("Ann", "Bob", "Cy", "Dee")]
                }, source=source)  # fmt: skip
                assert status == 201, room
                granted[source] = 0
                for seat in range(4):
                    for _ in range(limits.streams_per_seat):
                        connection, status = open_stream_from(server.port, token_of(room, seat), source)
                        if status != 200:
                            refusals.add(status)
                            break
                        held.append(connection)
                        granted[source] += 1
                    if status != 200:
                        break
            assert max(granted.values()) == limits.streams_per_client
            assert min(granted.values()) == 1  # the latecomers got one each, from the reserved quarter
            assert refusals == {429}  # each was refused as a client over its share, never as a full server
            assert sum(granted.values()) == len(held) == server.manager.open_streams
            assert len(held) <= limits.max_streams - reserved(limits.max_streams) + 40
            status, _, room = ask(server.port, "POST", "/api/rooms", ROOM, source="127.0.1.1")
            assert status == 201, room
            connection, status = open_stream_from(server.port, token_of(room, 0), "127.0.1.1")
            held.append(connection)
            assert status == 200
            print(f"40 clients hold {sum(granted.values())} of {limits.max_streams} streams; the 41st is served")
        finally:
            for connection in held:
                connection.close()


def test_an_honest_client_makes_a_room_while_40_networks_hold_all_the_rooms_they_can_get() -> None:
    """40 clients each make rooms until refused; a 41st still makes one (counted by address, 20 filled 400)."""
    limits = Limits(max_rooms=400, rooms_per_minute=100)
    with live_server(RoomManager(limits=limits)) as server:
        made = {}
        refusals = set()
        for n in range(40):
            source = f"127.0.0.{n + 2}"
            made[source] = 0
            while True:
                status, headers, answer = ask(server.port, "POST", "/api/rooms", ROOM, source=source)
                if status != 201:
                    refusals.add(status)
                    assert int(headers["retry-after"]) >= 1
                    break
                made[source] += 1
        assert refusals == {429}
        assert max(made.values()) == limits.rooms_per_client
        assert min(made.values()) == 1
        held = sum(made.values())
        assert held == len(server.manager.rooms)
        assert held <= limits.max_rooms - reserved(limits.max_rooms) + 40
        status, _, answer = ask(server.port, "POST", "/api/rooms", ROOM, source="127.0.1.1")
        assert status == 201, answer
        print(f"40 clients hold {held} of {limits.max_rooms} rooms; the 41st makes one")


# -- each client's budget of work ---------------------------------------------------------------------------


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_request_budget_charges_by_size_refuses_when_spent_and_forgets_refilled_clients() -> None:
    """A burst of units, refilled at a rate; a spent client waits, told how long; the others are untouched."""
    clock = Clock()
    budget = RequestBudget(Limits(request_burst=100, request_rate=10.0), clock)
    assert request_cost(300 * 1024) >= 100 * request_cost(2 * 1024)  # a long history, a hundred version checks
    for _ in range(3):
        budget.check("a")
        budget.charge("a", request_cost(40 * 1024))  # 41 units each: 100 - 123 = -23
    with pytest.raises(LimitError) as refused:
        budget.check("a")
    assert refused.value.retry_after == 3  # (1 + 23) / 10 s, rounded up
    assert refused.value.status == 429
    budget.check("b")  # another client is not held back
    assert budget.refused == 1
    clock.now += 2.5  # -23 + 25 = 2
    budget.check("a")
    clock.now += 100  # both full again: forgotten at the next charge
    budget.charge("c", 1)
    assert budget.clients == 1


def long_game(manager: RoomManager, seats: int = 2) -> tuple[Room, dict[int, str]]:
    """A room of people whose game is played to the move limit (or its end) in this process, before serving."""
    game = manager.game("cheeky-monkey")
    ruleset = attrs.evolve(game.ruleset("standard"), counts=(120,) * 8, name="big")

    async def play() -> tuple[Room, dict[int, str]]:
        people = [SeatSpec(f"P{i}") for i in range(seats)]
        room, tokens = await manager.create(game, ruleset, people, seed=3)
        rng = random.Random(1)
        while not room.finished:
            table = room.table
            mover = table.to_move
            assert mover is not None  # a table of people waits for chance never: it resolves it itself
            await room.play(mover, room.version, action=rng.choice(table.legal_actions()))
        return room, tokens

    return asyncio.run(play())


def test_32_concurrent_since_0_readers_of_one_client_get_429_while_another_client_is_served() -> None:
    """One client floods the history of a long game from 32 connections; the other client's reads are all served.

    The flood is served its budget's worth (the burst and what the rate adds), then refused with 429 and
    Retry-After; the honest client, reading its table from where it is, is never refused.
    """
    limits = Limits(request_burst=3000, request_rate=1.0, max_moves=2000, rooms_per_minute=100)
    manager = RoomManager(allow_seeds=True, limits=limits)
    _, tokens = long_game(manager)
    with live_server(manager) as server:
        status, _, whole = ask(server.port, "GET", "/api/table?since=0", token=tokens[0], source="127.0.0.9")
        assert status == 200
        big = request_cost(len(json.dumps(whole, ensure_ascii=False, separators=(",", ":")).encode()))
        assert big >= 200  # a history of hundreds of KiB
        version = whole["version"]

        def flood(reader: int) -> list[tuple[int, str | None]]:
            answers = []
            for _ in range(6):
                status, headers, _ = ask(server.port, "GET", "/api/table?since=0", token=tokens[0], source="127.0.0.2")
                answers.append((status, headers.get("retry-after")))
            return answers

        def honest(read: int) -> int:
            status, _, table = ask(
                server.port, "GET", f"/api/table?since={len(whole['events'])}", token=tokens[1], source="127.0.0.3"
            )
            assert table["version"] == version
            return status

        with concurrent.futures.ThreadPoolExecutor(40) as pool:
            flooded = pool.map(flood, range(32))
            honestly = pool.map(honest, range(20))
            flood_answers = [answer for answers in flooded for answer in answers]
            honest_answers = list(honestly)
    assert honest_answers == [200] * 20
    served = sum(1 for status, _ in flood_answers if status == 200)
    refused = [retry for status, retry in flood_answers if status == 429]
    assert served + len(refused) == 32 * 6
    assert len(refused) >= 32 * 6 - 20
    assert all(retry is not None and int(retry) >= 1 for retry in refused)
    # Served: what the burst allows, one answer past it, and what the rate of 1 unit a second added (at most
    # a few minutes' worth, a very wide margin for a loaded machine).
    assert served <= (limits.request_burst + 300) // big + 1
    print(f"the flood: {served} served, {len(refused)} refused (429); the other client: 20 of 20 served")


def test_a_long_table_read_again_at_the_same_version_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty reads of one seat's history from since=0, one version: the table is built once, sent twenty times."""
    manager = RoomManager(allow_seeds=True, limits=Limits(max_moves=600))
    _, tokens = long_game(manager)
    made = []
    original = Room.message

    def counted(self: Room, seat: int, since: int = 0) -> dict[str, Any]:
        made.append((seat, since))
        return original(self, seat, since)

    monkeypatch.setattr(Room, "message", counted)
    with live_server(manager) as server:
        bodies = {json.dumps(ask(server.port, "GET", "/api/table?since=0", token=tokens[0])[2]) for _ in range(20)}
        assert len(bodies) == 1
        assert made == [(0, 0)]
        ask(server.port, "GET", "/api/table?since=0", token=tokens[1])
        assert made == [(0, 0), (1, 0)]  # another seat sees another table


# -- bots that fail cleanly ---------------------------------------------------------------------------------


def test_a_bot_whose_extra_is_missing_is_offered_as_unavailable_and_a_room_with_it_is_refused_with_400(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without numpy the lobby shows the learned bot as unavailable, with its install line; asking for it: 400."""
    monkeypatch.setitem(sys.modules, "numpy", None)  # numpy not installed, as with the web extra alone
    monkeypatch.delitem(sys.modules, "cheekymonkey.cheeky.bots.learned", raising=False)
    with live_server(RoomManager()) as server:
        status, _, options = ask(server.port, "GET", "/api/options")
        assert status == 200
        bots = {bot["name"]: bot["unavailable"] for bot in options["games"][0]["bots"]}
        assert bots["learned"] is not None
        assert "pip install 'cheekymonkey[rl]'" in bots["learned"]
        # strongest names expectimax, which needs no extra.
        assert {name for name, why in bots.items() if why is None} == {
            "random",
            "heuristic",
            "expectimax",
            "mcts",
            "mcts400",
            "strongest",
        }
        body = {"preset": "standard", "seats": [{"name": "Ann"}, {"name": "Lea", "bot": "learned"}]}
        status, _, answer = ask(server.port, "POST", "/api/rooms", body)
        assert status == 400
        assert "learned bot cannot play on this server" in answer["error"]
        assert "pip install 'cheekymonkey[rl]'" in answer["error"]
        assert server.manager.rooms == {}
    lobby = (Path(cheekymonkey.web.__file__).parent / "static" / "lobby.js").read_text(encoding="utf-8")
    assert "bot.unavailable" in lobby
    assert "option.disabled" in lobby


class Fumble:
    """A bot with a bug: it fails at every decision."""

    def choose(self, state: Any, rng: random.Random) -> NoReturn:
        raise RuntimeError("the fumbler's table of moves has no row for this position")


class FumblingRace(Race):
    """The dice race of :mod:`tests.minimal_game`, with a bot that fails (and the random bot)."""

    name = "fumbling-race"
    title = "Fumbling Race"

    def bot_names(self) -> tuple[str, ...]:
        return ("random", "fumbler")

    def bot_named(self, name: str, *, memory: int | None = None) -> Any:
        return Fumble() if name == "fumbler" else super().bot_named(name, memory=memory)


class HopelessRace(FumblingRace):
    """A race whose only bot fails: nothing can stand in for it."""

    name = "hopeless-race"
    title = "Hopeless Race"

    def bot_names(self) -> tuple[str, ...]:
        return ("fumbler",)


FUMBLING = FumblingRace()
HOPELESS = HopelessRace()


@pytest.fixture
def fumbling_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two races installed as plug-ins beside the other games, for one test."""
    entries = [
        *importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
        importlib.metadata.EntryPoint(FUMBLING.name, f"{__name__}:FUMBLING", ENTRY_POINT_GROUP),
        importlib.metadata.EntryPoint(HOPELESS.name, f"{__name__}:HOPELESS", ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(cheekymonkey.games, "_REGISTRY", [Registry(entries)])


def failure_lines(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    """The log lines that hold ``words``."""
    return [record.getMessage() for record in caplog.records if words in record.getMessage()]


def wait_for(server: LiveServer, token: str, ready: Any, reads: int = 2000) -> dict[str, Any]:
    """Read the table until ``ready(table)``, at most ``reads`` times (each read waits a little)."""
    for _ in range(reads):
        status, _, table = ask(server.port, "GET", "/api/table", token=token)
        assert status == 200, table
        if ready(table):
            return table  # type: ignore[no-any-return]
        time.sleep(0.01)
    raise AssertionError("the table never got there")


@pytest.mark.usefixtures("fumbling_games")
def test_a_bot_that_fails_to_decide_is_logged_once_and_the_random_bot_plays_its_seat_to_the_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The room says so in every seat's table, the log has one line (no traceback), and the game is finished."""
    caplog.set_level(logging.INFO)
    manager = RoomManager(games=[FUMBLING.name], allow_seeds=True)
    with live_server(manager) as server:
        body = {"game": FUMBLING.name, "preset": "standard", "seed": 4,
                "seats": [{"name": "Ann"}, {"name": "Fum", "bot": "fumbler"}]}  # fmt: skip
        status, _, room = ask(server.port, "POST", "/api/rooms", body)
        assert status == 201, room
        token = token_of(room, 0)
        moves = 0
        while True:
            table = wait_for(server, token, lambda t: t["outcome"] is not None or t["legal"])
            if table["outcome"] is not None:
                break
            step = {"version": table["version"], "action": table["legal"][0]["action"]}
            assert ask(server.port, "POST", "/api/move", step, token=token)[0] == 200
            moves += 1
        for _ in range(20):  # reading the table again starts nothing, and logs nothing
            assert ask(server.port, "GET", "/api/table", token=token)[0] == 200
    assert moves > 1
    assert table["waiting"] == "over"
    assert table["notices"] == ["Fum (Fumbler bot) could not decide; a Random bot plays that seat from now on."]
    lines = failure_lines(caplog, "failed to decide")
    assert len(lines) == 1, lines
    assert "fumbler bot of seat 1 failed to decide (RuntimeError: the fumbler's table" in lines[0]
    assert "the random bot plays the seat from now on" in lines[0]
    assert not [record for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text


@pytest.mark.usefixtures("fumbling_games")
def test_when_no_bot_can_stand_in_the_rooms_bots_stop_once_and_the_seats_are_told(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A failing bot with no random bot to stand in: one log line, a notice, and no retry at every read."""
    caplog.set_level(logging.INFO)
    manager = RoomManager(games=[HOPELESS.name], allow_seeds=True)
    with live_server(manager) as server:
        body = {"game": HOPELESS.name, "preset": "standard", "seed": 4,
                "seats": [{"name": "Ann"}, {"name": "Fum", "bot": "fumbler"}]}  # fmt: skip
        status, _, room = ask(server.port, "POST", "/api/rooms", body)
        assert status == 201, room
        token = token_of(room, 0)
        table = wait_for(server, token, lambda t: t["legal"] or t["notices"])
        if not table["notices"]:
            step = {"version": table["version"], "action": table["legal"][0]["action"]}
            assert ask(server.port, "POST", "/api/move", step, token=token)[0] == 200
            table = wait_for(server, token, lambda t: t["notices"])
        for _ in range(30):
            assert ask(server.port, "GET", "/api/table", token=token)[0] == 200
    assert table["waiting"] == "bot"
    assert len(table["notices"]) == 1
    assert "could not go on" in table["notices"][0]
    lines = failure_lines(caplog, "its bots have stopped")
    assert len(lines) == 1, lines
    assert "fumbler bot of seat 1 failed to decide" in lines[0]
    assert not [record for record in caplog.records if record.exc_info or record.levelno >= logging.ERROR]


def test_a_dead_bot_worker_is_started_again_and_each_restart_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    """The worker is killed after each of five decisions: each next one is still made; five restarts, five lines."""
    caplog.set_level(logging.WARNING)
    game = game_named("cheeky-monkey")
    state = game.new_game(3, None)
    while game.is_chance_node(state):
        state = game.apply(state, game.sample_chance(state, random.Random(1)))
    pool = BotPool(1, restart_delay=0.01)

    async def decide_and_kill() -> list[int]:
        pids = []
        for seed in range(6):
            answer = await pool.choose(game.name, "heuristic", 100, state, random.Random(seed))
            assert answer.action in game.legal_actions(state)
            pids.append(answer.pid)
            if seed < 5:
                os.kill(answer.pid, signal.SIGKILL)
        return pids

    try:
        pids = asyncio.run(decide_and_kill())
    finally:
        pool.close()
    assert len(set(pids)) == 6  # a new worker each time
    assert pool.restarts == 5
    lines = failure_lines(caplog, "bot worker process died")
    assert len(lines) == 5, lines
    assert [line.endswith(f"(restart {n})") for n, line in enumerate(lines, 1)] == [True] * 5
    assert "Traceback" not in caplog.text
    with pytest.raises(InvalidValueError, match="restart_delay"):
        BotPool(1, restart_delay=-1)


def children_of(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, with their command lines, from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found[int(entry.name)] = command
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_kill_9_of_the_server_leaves_neither_its_bot_worker_nor_its_resource_tracker() -> None:
    """``cheekymonkey serve`` with a bot worker running is killed outright: within a bounded wait, no child survives."""
    with serve_process(["--store", ":memory:", "--bot-workers", "1", "--bot-delay", "0", "--allow-seeds"]) as server:
        status, _, room = ask(server.port, "POST", "/api/rooms", {
            "preset": "standard", "seed": 2, "seats": [{"name": "Ann"}, {"name": "Mo", "bot": "heuristic"}]
        })  # fmt: skip
        assert status == 201, room
        token = token_of(room, 0)
        children: dict[int, str] = {}
        for _ in range(600):
            children = children_of(server.process.pid)
            if any("resource_tracker" in c for c in children.values()) and any(
                "spawn_main" in c for c in children.values()
            ):
                break
            status, _, table = ask(server.port, "GET", "/api/table", token=token)
            if table["legal"]:
                step = {"version": table["version"], "action": table["legal"][0]["action"]}
                ask(server.port, "POST", "/api/move", step, token=token)
            time.sleep(0.05)
        assert any("spawn_main" in c for c in children.values()), children
        assert any("resource_tracker" in c for c in children.values()), children
        server.kill()
        for _ in range(400):
            survivors = [pid for pid in children if alive(pid)]
            if not survivors:
                break
            time.sleep(0.05)
        assert survivors == [], {pid: children[pid] for pid in survivors}


# -- hygiene ------------------------------------------------------------------------------------------------


def test_a_503_never_names_the_stores_address_the_log_does(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """With Redis gone, a table read answers 503 and Retry-After, and the body says nothing of where Redis is."""
    caplog.set_level(logging.WARNING)
    with redis_server(tmp_path) as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        with live_server(RoomManager(store=open_store(url))) as server:
            status, _, room = ask(server.port, "POST", "/api/rooms", ROOM)
            assert status == 201
            with socket.create_connection(("127.0.0.1", int(port))) as sock:
                sock.sendall(b"SHUTDOWN NOSAVE\r\n")
                sock.recv(64)
            server.manager.rooms.clear()  # read from the store again
            status, headers, answer = ask(server.port, "GET", "/api/table", token=token_of(room, 0))
    assert status == 503
    assert int(headers["retry-after"]) >= 1
    assert answer == {"error": "the rooms cannot be reached now; try again in a few seconds"}
    assert port not in json.dumps(answer)
    assert "redis" not in json.dumps(answer).lower()
    assert any(port in line for line in failure_lines(caplog, "503 GET /api/table"))


def test_every_api_answer_says_no_store() -> None:
    """Tables, moves, refusals, options, rooms, records, streams: ``Cache-Control: no-store`` on each."""
    with live_server(RoomManager(allow_seeds=True)) as server:
        status, headers, room = ask(server.port, "POST", "/api/rooms", {**ROOM, "seed": 1})
        answers = [(status, headers)]
        token = token_of(room, 0)
        for method, path, body, auth in (
            ("GET", "/api/options", None, None),
            ("GET", "/api/table", None, token),
            ("GET", "/api/table", None, None),  # 401
            ("GET", "/api/table", None, "x" * 20),  # 404
            ("GET", "/api/record", None, token),  # 409
            ("POST", "/api/move", {"version": 99, "text": "d"}, token),  # 409
            ("POST", "/api/rooms", {"preset": "none"}, None),  # 400
            ("GET", "/api/table?since=x", None, token),  # 400
        ):
            status, headers, _ = ask(server.port, method, path, body, token=auth)
            answers.append((status, headers))
        connection, status = open_stream_from(server.port, token, "127.0.0.1")
        connection.close()
        page = ask_page(server.port)
    assert {status for status, _ in answers} == {200, 201, 400, 401, 404, 409}
    assert [headers.get("cache-control") for _, headers in answers] == ["no-store"] * len(answers)
    assert page == "no-cache"  # the pages are revalidated, not forbidden from caches


def ask_page(port: int) -> str | None:
    """The lobby page's Cache-Control."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.getheader("cache-control")


def test_a_key_given_twice_is_refused_as_the_librarys_loaders_refuse_it() -> None:
    """A room or a move whose JSON repeats a key: 400 naming the key, the library's own words; nothing made."""
    with live_server(RoomManager(allow_seeds=True)) as server:
        raw = b'{"preset": "standard", "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}'
        status, _, answer = ask(server.port, "POST", "/api/rooms", raw=raw)
        assert status == 400
        assert "the key 'preset' appears twice in one object" in answer["error"]
        assert server.manager.rooms == {}
        status, _, room = ask(server.port, "POST", "/api/rooms", {**ROOM, "seed": 1})
        token = token_of(room, 0)
        raw = b'{"version": 0, "text": "d", "text": "d"}'
        status, _, answer = ask(server.port, "POST", "/api/move", raw=raw, token=token)
        assert status == 400
        assert "the key 'text' appears twice" in answer["error"]
        assert ask(server.port, "GET", "/api/table", token=token)[2]["version"] == room_version(server, room)


def room_version(server: LiveServer, room: dict[str, Any]) -> int:
    """The version of the room as the server holds it."""
    return server.manager.rooms[room["room"]].version


ROOM_BOUND = 2 * 1024 * 1024
"""The bytes a room at the default move limit holds in the server's memory, at most (the how-to states it)."""


def test_a_room_at_the_move_limit_holds_less_than_the_stated_bound(tmp_path: Path) -> None:
    """A six-seat game of a big bag, played to the 2,000-action limit: measured with tracemalloc, under the bound."""
    manager = RoomManager(allow_seeds=True, store=SqliteStore(str(tmp_path / "warm.sqlite3")))
    long_game(manager, seats=6)  # warm up: imports and caches are not the room's
    manager = RoomManager(allow_seeds=True, store=SqliteStore(str(tmp_path / "rooms.sqlite3")))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        room, _ = long_game(manager, seats=6)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert room.version == Limits().max_moves
    assert room.table.waiting.value == "truncated"
    assert 100 * 1024 < held < ROOM_BOUND, held
    print(f"a room at the move limit holds {held / 1024:.0f} KiB")


@pytest.fixture(autouse=True)
def _loopback() -> None:
    assert LOOPBACK_OK, "these tests bind client sockets to 127.0.0.x, which Linux answers"
