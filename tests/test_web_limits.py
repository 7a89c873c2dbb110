"""The server's limits: no client can take the server from the others, and nothing grows without bound.

Each limit of :class:`~cheekymonkey.web.Limits` (and of the uvicorn configuration ``cheekymonkey serve``
uses) is reached here on a real server, and answered as documented: 429 for one client's limit and 503 for
the server's, both with ``Retry-After``; a connection that sends nothing is closed; a game that would not
end stops at the move limit; the bots' caches stay within their bound.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import CHEEKY_MONKEY, Animal, Ruleset, apply, is_chance_node, is_terminal, new_game, sample_chance
from cheekymonkey.cheeky.documents import to_document
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.web import SAFE_INTEGER, BotPool, Limits, RoomManager
from tests.web_support import (
    LiveServer,
    ServeProcess,
    call,
    live_server,
    make_room,
    move,
    open_stream,
    redis_server,
    serve_process,
    token_of,
)

BODY = {"preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}

PROXY = ["127.0.0.1"]
"""The test client's address, named as a trusted proxy where a test makes its requests come from others."""


def client(address: str) -> dict[str, str]:
    """Headers that make a request come from ``address``, where the server trusts 127.0.0.1 as its proxy."""
    return {"X-Forwarded-For": address}


def test_one_client_cannot_take_every_room_and_others_still_get_theirs() -> None:
    """A client at its limit of open rooms gets 429 with Retry-After; another client still makes rooms."""
    with live_server(RoomManager(limits=Limits(rooms_per_client=3, max_rooms=10)), trusted_proxies=PROXY) as server:
        for _ in range(3):
            assert call(server, "POST", "/api/rooms", BODY, headers=client("10.0.0.1"))[0] == 201
        status, answer = call_with_headers(server, "POST", "/api/rooms", BODY, client("10.0.0.1"))
        assert status == 429
        assert "3 rooms open" in answer["body"]["error"]
        assert 1 <= int(answer["retry-after"]) <= 60
        assert call(server, "POST", "/api/rooms", BODY, headers=client("10.0.0.2"))[0] == 201


def test_a_client_makes_at_most_so_many_rooms_a_minute() -> None:
    """Past the rate, a client waits: 429, and Retry-After says for how long (within the minute)."""
    with live_server(RoomManager(limits=Limits(rooms_per_minute=2))) as server:
        for _ in range(2):
            assert call(server, "POST", "/api/rooms", BODY)[0] == 201
        status, answer = call_with_headers(server, "POST", "/api/rooms", BODY, {})
        assert status == 429
        assert "in the last minute" in answer["body"]["error"]
        assert 1 <= int(answer["retry-after"]) <= 60


def test_the_server_wide_room_limit_answers_503_with_retry_after() -> None:
    """Rooms in all are capped too, whoever asks: 503 and Retry-After."""
    with live_server(RoomManager(limits=Limits(max_rooms=2)), trusted_proxies=PROXY) as server:
        for address in ("10.0.0.1", "10.0.0.2"):
            assert call(server, "POST", "/api/rooms", BODY, headers=client(address))[0] == 201
        status, answer = call_with_headers(server, "POST", "/api/rooms", BODY, client("10.0.0.3"))
        assert status == 503
        assert "2 rooms" in answer["body"]["error"]
        assert int(answer["retry-after"]) > 0


def call_with_headers(
    server: LiveServer, method: str, path: str, body: object, headers: dict[str, str]
) -> tuple[int, dict[str, Any]]:
    """A request whose answer's Retry-After header is wanted too."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request(method, path, json.dumps(body), {"Content-Type": "application/json", **headers})
    response = connection.getresponse()
    answer = {"body": json.loads(response.read()), "retry-after": response.getheader("retry-after")}
    connection.close()
    return response.status, answer


def test_streams_are_limited_per_seat_and_in_all() -> None:
    """A seat's streams past its limit get 429; the server's past its own get 503; closing one frees its slot."""
    # Each seat's streams come from a client of their own: a client that holds streams already would be kept
    # out of the last quarter of the streams, kept for clients that hold none (tests/test_web_hardening.py).
    limits = Limits(streams_per_seat=2, max_streams=3)
    with live_server(RoomManager(limits=limits, allow_seeds=True), trusted_proxies=PROXY) as server:
        room = make_room(server, "Ann", "Bob")
        opened = [open_stream(server, token_of(room, 0), client("10.0.0.1")) for _ in range(2)]
        try:
            assert [response.status for _, response in opened] == [200, 200]
            connection, refused = open_stream(server, token_of(room, 0), client("10.0.0.1"))
            assert refused.status == 429
            assert refused.getheader("retry-after") == "10"
            assert "2 event streams open" in json.loads(refused.read())["error"]
            connection.close()
            opened.append(open_stream(server, token_of(room, 1), client("10.0.0.2")))
            assert opened[-1][1].status == 200
            connection, full = open_stream(server, token_of(room, 1), client("10.0.0.3"))
            assert full.status == 503
            assert full.getheader("retry-after") == "10"
            connection.close()
            opened.pop(0)[0].close()
            deadline = time.monotonic() + 10
            while server.manager.open_streams > 2:
                assert time.monotonic() < deadline, "a closed stream kept its slot"
                time.sleep(0.05)
            connection, again = open_stream(server, token_of(room, 0), client("10.0.0.4"))
            assert again.status == 200
            opened.append((connection, again))
        finally:
            for connection, _ in opened:
                connection.close()


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (reading until the end)."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_connection_that_sends_no_request_head_in_time_is_closed() -> None:
    """Nothing at all, or a head sent a few bytes at a time, is cut off at the header timeout."""
    with live_server(RoomManager(), header_timeout=0.5) as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET /api/options HTTP/1.1\r\nHo")
        started = time.monotonic()
        assert closed_within(silent, 15)
        assert closed_within(slow, 15)
        assert time.monotonic() - started < 15
        silent.close()
        slow.close()
        # A client that sends its head in time is served as ever.
        assert call(server, "GET", "/api/options")[0] == 200


def test_a_keep_alive_connection_left_idle_is_closed() -> None:
    """After an answer, a connection with no next request is closed at the idle timeout."""
    with live_server(RoomManager(), idle_timeout=1) as server:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(10)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        assert closed_within(sock, 15)
        sock.close()


def test_a_body_that_trickles_in_is_cut_off_with_408() -> None:
    """A body not all sent within the body timeout gets 408; the room is unchanged."""
    manager = RoomManager(allow_seeds=True)
    with live_server(manager, body_seconds=0.5) as server:
        room = make_room(server, "Ann", "Bob")
        sock = socket.create_connection(("127.0.0.1", server.port))
        head = (
            "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token_of(room, 0)}\r\nContent-Length: 60\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"version": 1,')
        sock.settimeout(15)
        answer = sock.recv(65536)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
        assert manager.rooms[room["room"]].version == 1


def test_a_game_that_reaches_the_move_limit_stops_as_truncated_and_takes_no_more_moves() -> None:
    """A room's game is cut off after ``max_moves`` actions: no winner, no more moves, its record downloadable."""
    manager = RoomManager(limits=Limits(max_moves=12), allow_seeds=True)
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Bob", seed=4)
        tokens = [token_of(room, 0), token_of(room, 1)]
        table = call(server, "GET", "/api/table", token=tokens[0])[1]
        rng = random.Random(0)
        while table["waiting"] == "person":
            token = tokens[table["to_move"]]
            table = call(server, "GET", "/api/table", token=token)[1]
            choice = rng.choice(table["legal"])["action"]
            status, table = call(
                server, "POST", "/api/move", {"version": table["version"], "action": choice}, token=token
            )
            assert status == 200, table
        assert table["waiting"] == "truncated"
        assert table["outcome"] is None
        assert table["legal"] == []
        assert table["version"] == 12
        status, answer = call(server, "POST", "/api/move", move(12, "draw"), token=tokens[0])
        assert (status, answer["error"]) == (409, "the game is finished")
        status, record = call(server, "GET", "/api/record", token=tokens[1])
        assert status == 200
        assert len(record["actions"]) == 12


def test_each_bot_keeps_at_most_its_bound_in_its_caches_between_moves() -> None:
    """An expectimax bot given a memory bound ends every move with its caches within it, for a whole game."""
    bot = CHEEKY_MONKEY.bot_named("expectimax", memory=50)
    rng = random.Random(3)
    state = new_game(4)
    largest = 0
    while not is_terminal(state):
        if is_chance_node(state):
            state = apply(state, sample_chance(state, rng))
            continue
        state = apply(state, bot.choose(state, rng))
        largest = max(largest, bot.cache_entries)  # type: ignore[attr-defined]
        assert bot.cache_entries <= 50  # type: ignore[attr-defined]
    assert largest > 0  # the bound was reached and the caches emptied, not merely never filled
    plain = CHEEKY_MONKEY.bot_named("expectimax")
    assert not hasattr(plain, "cache_entries")
    with pytest.raises(InvalidValueError, match="memory"):
        CHEEKY_MONKEY.bot_named("expectimax", memory=0)


def test_the_servers_bots_play_within_the_servers_memory_bound() -> None:
    """Rooms of expectimax and search bots, thinking in a worker process: every decision ends within the bound."""
    manager = RoomManager(limits=Limits(bot_memory=40), allow_seeds=True, bots=BotPool(1))
    with live_server(manager) as server:
        room = make_room(server, "Ann", "Ex", "Mo", bots={1: "expectimax", 2: "mcts"}, seed=6)
        token = token_of(room, 0)
        for _ in range(4):  # four of Ann's turns, each followed by both bots' turns
            deadline = time.monotonic() + 60
            while (table := call(server, "GET", "/api/table", token=token)[1])["waiting"] != "person":
                assert time.monotonic() < deadline, "the bots never finished their turns"
                time.sleep(0.05)
            if table["waiting"] != "person":
                break
            assert call(server, "POST", "/api/move", move(table["version"], "stop"), token=token)[0] == 200
        pool = manager.bots
        assert pool.decisions >= 8  # both bots' turns, four times
        assert 0 < pool.largest_cache <= 40  # the caches were used, and kept within the bound
        assert os.getpid() not in pool.answered_by  # the decisions were made in the worker process


def custom(count: int, value: int = 1) -> dict[str, Any]:
    animals = {animal.name.lower(): count for animal in Animal}
    return {**to_document(Ruleset.standard()), "name": "custom", "counts": animals,
            "bonus_values": dict.fromkeys(animals, value)}  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "accepted"),
    [
        (custom(2**48), False),  # the largest counts a rule set may have (E7): within JavaScript, over the bound
        (custom(100, 2**48), False),  # so would the totals be, with the largest bonus values
        (custom(2000), False),  # within JavaScript, over this server's bound (16,014)
        (custom(20, 99), True),  # the largest the lobby's editor offers
    ],
)
def test_custom_rules_are_accepted_only_within_the_servers_number_bound(
    ruleset: dict[str, Any], accepted: bool
) -> None:
    """Rules whose numbers could pass the bound (10,000 by default; never past 2**53 - 1) are refused with 400."""
    with live_server(RoomManager()) as server:
        status, answer = call(server, "POST", "/api/rooms", {"ruleset": ruleset, "seats": BODY["seats"]})
        assert (status == 201) is accepted, answer
        if not accepted:
            assert status == 400
            assert "over this server's limit of 10000" in answer["error"]
    with pytest.raises(InvalidValueError, match="2\\*\\*53"):
        Limits(max_number=SAFE_INTEGER + 1)


@pytest.fixture
def crowded(tmp_path: Path) -> Iterator[tuple[ServeProcess, Path]]:
    """A real server process whose open files are limited to 256, with a one-second header timeout."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    log = tmp_path / "server.log"
    server = ServeProcess(["--store", ":memory:", "--header-timeout", "1"], stderr=log, preexec_fn=limit)
    try:
        server.wait_ready()
        yield server, log
    finally:
        server.stop()


@pytest.mark.slow
def test_more_connections_than_open_files_leave_no_flood_of_tracebacks_and_the_server_recovers(
    crowded: tuple[ServeProcess, Path],
) -> None:
    """300 silent connections against 256 open files: the log stays a few lines, and others are served after."""
    server, log = crowded
    flood = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(300)]
    try:
        time.sleep(4)  # the accept loop runs out of files; the header timeout closes the silent connections
        served = False
        deadline = time.monotonic() + 30
        while not served and time.monotonic() < deadline:
            try:
                served = call(server.url, "GET", "/api/options")[0] == 200
            except OSError:
                time.sleep(0.2)
        assert served, "no other client was served while the flood held its connections"
    finally:
        for sock in flood:
            sock.close()
    assert server.process.poll() is None, "the server died"
    text = log.read_text()
    assert "Traceback" not in text
    assert len(text) < 10_000, text[-2000:]


# -- who a client is: X-Forwarded-For only from the proxies named ---------------------------------------


def test_x_forwarded_for_names_the_client_only_when_its_sender_is_a_trusted_proxy() -> None:
    """By default no address is trusted, 127.0.0.1 included: a header cannot get a client past its limits."""
    args = ["--store", ":memory:", "--rooms-per-client", "2"]
    with serve_process(args) as plain:
        made = [call(plain, "POST", "/api/rooms", BODY, headers=client(f"10.2.0.{i}"))[0] for i in range(3)]
        assert made == [201, 201, 429]
    with serve_process([*args, "--forwarded-allow-ips", "127.0.0.1"]) as proxied:
        made = [call(proxied, "POST", "/api/rooms", BODY, headers=client(f"10.2.0.{i}"))[0] for i in range(3)]
        assert made == [201, 201, 201]


def test_the_help_says_that_no_proxy_is_trusted_by_default() -> None:
    """``cheekymonkey serve --help`` says whose X-Forwarded-For is read, and that by default nobody's is."""
    done = subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "serve", "--help"], capture_output=True, text=True, check=True
    )
    text = " ".join(done.stdout.split())
    assert "X-Forwarded-For" in text
    assert "default: none, not even 127.0.0.1" in text


def test_one_client_holds_at_most_so_many_event_streams() -> None:
    """A client's streams past its own cap get 429, whatever seats they are on; another client still gets one."""
    limits = Limits(streams_per_client=3, streams_per_seat=4, max_streams=50)
    manager = RoomManager(limits=limits, allow_seeds=True)
    with live_server(manager, trusted_proxies=PROXY) as server:
        rooms = [make_room(server, "Ann", "Bob", headers=client(f"10.3.0.{i}")) for i in range(2)]
        seats = [token_of(room, seat) for room in rooms for seat in (0, 1)]
        opened = [open_stream(server, token, client("10.3.1.1")) for token in seats[:3]]
        try:
            assert [response.status for _, response in opened] == [200, 200, 200]
            connection, refused = open_stream(server, seats[3], client("10.3.1.1"))
            assert refused.status == 429
            assert "3 event streams open" in json.loads(refused.read())["error"]
            connection.close()
            opened.append(open_stream(server, seats[3], client("10.3.1.2")))
            assert opened[-1][1].status == 200
        finally:
            for connection, _ in opened:
                connection.close()


# -- the limits hold across processes that share the rooms through Redis -----------------------------------


@pytest.fixture(scope="module")
def shared_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two ``cheekymonkey serve`` processes over one real redis-server, trusting 127.0.0.1's X-Forwarded-For."""
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        args = ["--store", url, "--allow-seeds", "--bot-delay", "0", "--forwarded-allow-ips", "127.0.0.1",
                "--rooms-per-minute", "3", "--rooms-per-client", "5", "--streams-per-seat", "2",
                "--streams-per-client", "3"]  # fmt: skip
        with serve_process(args) as first, serve_process(args) as second:
            yield first, second


def test_a_client_makes_no_more_rooms_a_minute_through_two_processes_than_through_one(
    shared_pair: tuple[ServeProcess, ServeProcess],
) -> None:
    """Rooms made in turn on both processes count together: the fourth in the minute is refused by either."""
    first, second = shared_pair
    made = [call(server, "POST", "/api/rooms", BODY, headers=client("10.4.0.1"))[0] for server in (first, second) * 2]
    assert made == [201, 201, 201, 429]
    assert call(first, "POST", "/api/rooms", BODY, headers=client("10.4.0.1"))[0] == 429
    assert call(second, "POST", "/api/rooms", BODY, headers=client("10.4.0.2"))[0] == 201


def test_a_seats_and_a_clients_streams_count_together_on_both_processes(
    shared_pair: tuple[ServeProcess, ServeProcess],
) -> None:
    """Streams opened on two processes count against one seat's cap and one client's cap."""
    first, second = shared_pair
    room = make_room(first, "Ann", "Bob", headers=client("10.5.0.1"))
    other = make_room(second, "Cy", "Di", headers=client("10.5.0.2"))
    ann, bob, cy = token_of(room, 0), token_of(room, 1), token_of(other, 0)
    opened = [open_stream(first, ann, client("10.5.1.1")), open_stream(second, ann, client("10.5.1.2"))]
    try:
        assert [response.status for _, response in opened] == [200, 200]
        for server in (first, second):  # the seat's third stream, from a third client, on either process
            connection, refused = open_stream(server, ann, client("10.5.1.3"))
            assert refused.status == 429
            assert "this seat already has 2 event streams open" in json.loads(refused.read())["error"]
            connection.close()
        opened.append(open_stream(second, bob, client("10.5.1.1")))
        opened.append(open_stream(first, cy, client("10.5.1.1")))
        assert [response.status for _, response in opened[2:]] == [200, 200]
        connection, refused = open_stream(second, token_of(other, 1), client("10.5.1.1"))  # its fourth, in all
        assert refused.status == 429
        assert "you have 3 event streams open" in json.loads(refused.read())["error"]
        connection.close()
    finally:
        for connection, _ in opened:
            connection.close()
    deadline = time.monotonic() + 20  # the slots come back when the streams close
    while True:
        connection, again = open_stream(second, ann, client("10.5.1.3"))
        connection.close()
        if again.status == 200:
            break
        assert time.monotonic() < deadline, again.status
        time.sleep(0.1)


# -- finished games leave memory; their records stay in the store ------------------------------------------


def test_finished_games_pile_up_in_the_store_not_in_memory() -> None:
    """Twelve games played to their end: the manager holds at most ``finished_held`` of them; the rest come back."""
    manager = RoomManager(limits=Limits(max_moves=2, finished_held=3, rooms_per_minute=50), allow_seeds=True)
    with live_server(manager) as server:
        games = []
        for seed in range(12):
            room = make_room(server, "Ann", "Bob", seed=seed)
            status, table = call(server, "POST", "/api/move", move(1, "draw"), token=token_of(room, 0))
            assert (status, table["waiting"]) == (200, "truncated")
            games.append(room)
            assert len(manager.rooms) <= 3
        assert len(manager.rooms) == 3
        first = games[0]
        assert first["room"] not in manager.rooms  # released: read again from the store when asked
        status, record = call(server, "GET", "/api/record", token=token_of(first, 1))
        assert status == 200
        assert len(record["actions"]) == 2
        assert call(server, "GET", "/api/table", token=token_of(first, 0))[1]["waiting"] == "truncated"
        assert len(manager.rooms) == 3
