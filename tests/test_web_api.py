"""The web front end's HTTP API, against a real uvicorn server: documents in and out, limits, seat tokens."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cheekymonkey import Claim, Ruleset, apply
from cheekymonkey.errors import IllegalActionError
from cheekymonkey.serialization import DocumentError, load_action, load_view, to_document
from cheekymonkey.web import STATIC_DIR, RoomManager
from tests.web_support import LiveServer, action, call, live_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(RoomManager(allow_seeds=True, max_rooms=50)) as running:
        yield running


def make_room(server: LiveServer, *names: str, seed: int | None = 5, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"preset": "standard", "seats": [{"name": n} for n in names], **extra}
    if seed is not None:
        body["seed"] = seed
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def token_of(room: dict[str, Any], seat: int) -> str:
    link: str = room["seats"][seat]["link"]
    assert link.startswith("/play#")
    return link.removeprefix("/play#")


def test_each_seat_gets_its_view_document_and_never_the_full_state(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    status, table = call(server, "GET", "/api/table", token=token_of(room, 1))
    assert status == 200
    assert set(table) == {"room", "seat", "version", "closed", "seats", "view", "bust_odds", "events", "score"}
    assert (table["room"], table["seat"], [s["name"] for s in table["seats"]]) == (room["room"], 1, ["Ann", "Bob"])
    seen = load_view(json.dumps(table["view"]))  # a valid view document, checked by the library
    state = server.manager.rooms[room["room"]].state
    assert seen.viewer == 1
    assert seen.legal == ()
    assert seen.front == state.front
    text = json.dumps(table)
    assert '"kind": "state"' not in text
    assert '"stacks"' not in text
    assert '"bag"' not in text


def test_a_move_answers_with_the_new_table_and_the_other_seat_sees_it(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    status, mine = call(server, "POST", "/api/move", action("stop"), token=token_of(room, 0))
    assert status == 200, mine
    assert mine["version"] == 1
    assert [e["event"]["type"] for e in mine["events"]][:2] == ["stopped", "stacked"]
    status, theirs = call(server, "GET", "/api/table", token=token_of(room, 1))
    assert theirs["version"] == 1
    assert theirs["view"]["to_move"] == 1
    assert theirs["view"]["legal"]
    assert theirs["view"]["stack_heights"][0] == 1


def test_a_seat_token_acts_only_for_its_own_seat(server: LiveServer) -> None:
    first, second = make_room(server, "Ann", "Bob"), make_room(server, "Cy", "Di")
    rooms = server.manager.rooms
    before = rooms[first["room"]].state, rooms[second["room"]].state
    status, answer = call(server, "POST", "/api/move", action("draw"), token=token_of(first, 1))
    assert (status, answer) == (409, {"error": "it is Ann's turn (seat 0), not seat 1's"})
    # A token from one room moves its own seat in its own room, nothing elsewhere.
    status, answer = call(server, "POST", "/api/move", action("stop"), token=token_of(second, 0))
    assert status == 200
    assert answer["room"] == second["room"]
    assert rooms[first["room"]].state is before[0]
    assert rooms[second["room"]].state is not before[1]
    assert call(server, "POST", "/api/move", action("stop"), token="x" * 43)[0] == 404
    status, answer = call(server, "GET", "/api/table")
    assert status == 401
    assert "Authorization" in answer["error"]


BAD_BODIES = [
    b"not json",
    b'{"kind": "action", "type": "draw"}',  # half a header (an action comes with both parts or neither)
    b'{"format": "cheekymonkey/1", "kind": "action", "type": "fly"}',
    b'{"format": "cheekymonkey/1", "kind": "action", "type": "claim", "seat": "two"}',
    b'{"format": "cheekymonkey/1", "kind": "action", "type": "draw", "extra": 1}',
]


@pytest.mark.parametrize("body", BAD_BODIES)
def test_a_malformed_move_gets_400_with_the_library_reason_and_the_room_unchanged(
    server: LiveServer, body: bytes
) -> None:
    room = make_room(server, "Ann", "Bob")
    held = server.manager.rooms[room["room"]]
    before = held.state, held.version
    with pytest.raises(DocumentError) as expected:
        load_action(body)
    status, answer = call(server, "POST", "/api/move", raw=body, token=token_of(room, 0))
    assert (status, answer) == (400, {"error": str(expected.value)})
    assert (held.state, held.version) == before
    assert held.state is before[0]


def test_an_illegal_move_gets_409_with_the_library_reason_and_the_room_unchanged(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    held = server.manager.rooms[room["room"]]
    before = held.state
    with pytest.raises(IllegalActionError) as expected:
        apply(before, Claim(1))
    status, answer = call(server, "POST", "/api/move", action("claim", seat=1), token=token_of(room, 0))
    assert (status, answer) == (409, {"error": str(expected.value)})
    assert "R7" in answer["error"]
    assert held.state is before
    assert held.version == 0


def test_bodies_over_the_cap_get_413_with_or_without_a_declared_length(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    token = token_of(room, 0)
    padded = json.dumps({**action("draw"), "pad": "x" * 9000}).encode()
    assert call(server, "POST", "/api/move", raw=padded, token=token)[0] == 413
    # Sent in chunks with no length, the body is cut off once past the cap.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    connection.request("POST", "/api/move", body=iter([b"{" + b" " * 4096] * 4), headers=headers, encode_chunked=True)
    response = connection.getresponse()
    assert response.status == 413
    assert "limit" in json.loads(response.read())["error"]
    connection.close()
    assert server.manager.rooms[room["room"]].version == 0


def test_a_body_that_is_not_json_content_gets_415(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    status, answer = call(
        server, "POST", "/api/move", raw=b"d", token=token_of(room, 0), headers={"Content-Type": "text/plain"}
    )
    assert status == 415
    assert "application/json" in answer["error"]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"preset": "chess", "seats": [{"name": "A"}, {"name": "B"}]}, "no preset named 'chess'"),
        ({"preset": "standard", "seats": [{"name": "A"}]}, "1 player"),
        ({"preset": "standard", "seats": [{"name": "A"}, {"name": "B", "bot": "oracle"}]}, "no bot named 'oracle'"),
        ({"preset": "standard", "seats": [{"name": "A\u0007"}, {"name": "B"}]}, "control"),
        ({"preset": "standard", "seats": [{"name": "x" * 40}, {"name": "B"}]}, "longer than 24"),
        ({"preset": "standard", "seats": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]}, "person"),
        ({"ruleset": {"format": "cheekymonkey/1", "kind": "ruleset"}, "seats": [{"name": "A"}]}, "invalid ruleset"),
    ],
)
def test_a_bad_room_gets_400_with_the_reason(server: LiveServer, body: dict[str, Any], reason: str) -> None:
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 400, answer
    assert reason in answer["error"]


def test_a_custom_rule_set_document_makes_a_room_under_those_rules(server: LiveServer) -> None:
    ruleset = Ruleset.custom({Ruleset.standard().animals[0]: 3, Ruleset.standard().animals[1]: 4}, swap=False)
    document = to_document(ruleset)
    body = {"ruleset": document, "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201, room
    assert room["ruleset"] == document
    status, table = call(server, "GET", "/api/table", token=token_of(room, 0))
    assert table["view"]["ruleset"] == {k: v for k, v in document.items() if k not in ("format", "kind")}
    assert table["view"]["bag_size"] == 6


def test_seeds_are_refused_unless_the_server_allows_them() -> None:
    with live_server(RoomManager()) as strict:
        body = {"preset": "standard", "seats": [{"name": "A"}, {"name": "B"}], "seed": 1}
        status, answer = call(strict, "POST", "/api/rooms", body)
        assert status == 400
        assert "seeds" in answer["error"]


def test_the_room_limit_answers_503() -> None:
    with live_server(RoomManager(max_rooms=1)) as small:
        body = {"preset": "standard", "seats": [{"name": "A"}, {"name": "B"}]}
        assert call(small, "POST", "/api/rooms", body)[0] == 201
        status, answer = call(small, "POST", "/api/rooms", body)
        assert status == 503
        assert "1 rooms" in answer["error"]


def read_event(response: http.client.HTTPResponse) -> dict[str, Any]:
    """The next ``table`` message of a server-sent event stream (comments skipped)."""
    data = []
    while True:
        line = response.readline().decode().rstrip("\n")
        if line.startswith("data: "):
            data.append(line.removeprefix("data: "))
        elif not line and data:
            message: dict[str, Any] = json.loads("\n".join(data))
            return message


def open_stream(server: LiveServer, token: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token}"})
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("content-type", "").startswith("text/event-stream")
    return connection, response


def test_the_event_stream_sends_the_table_then_every_change(server: LiveServer) -> None:
    room = make_room(server, "Ann", "Bob")
    connection, stream = open_stream(server, token_of(room, 1))
    try:
        first = read_event(stream)
        assert first["version"] == 0
        assert first["seat"] == 1
        assert [e["seq"] for e in first["events"]] == [0]
        call(server, "POST", "/api/move", action("draw"), token=token_of(room, 0))
        second = read_event(stream)
        assert second["version"] == 1
        assert second["events"][0]["seq"] == 1
        assert second["view"]["front"] == first["view"]["front"] + [second["events"][0]["event"]["animal"]] or (
            second["events"][0]["event"]["type"] == "busted"
        )
    finally:
        connection.close()


def test_idle_rooms_are_closed_and_their_links_stop_working() -> None:
    with live_server(RoomManager(idle_seconds=0.3)) as quick:
        body = {"preset": "standard", "seats": [{"name": "A"}, {"name": "B"}]}
        room = call(quick, "POST", "/api/rooms", body)[1]
        connection, stream = open_stream(quick, token_of(room, 0))
        try:
            assert read_event(stream)["closed"] is False
            assert read_event(stream)["closed"] is True  # the sweeper closed it: the stream says so and ends
        finally:
            connection.close()
        assert quick.manager.rooms == {}
        status, answer = call(quick, "GET", "/api/table", token=token_of(room, 0))
        assert status == 404
        assert "closed" in answer["error"]


def test_pages_and_answers_carry_the_security_headers(server: LiveServer) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for path in ("/", "/play", "/static/play.js", "/api/options"):
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, path
        assert "default-src 'self'" in (response.getheader("content-security-policy") or "")
        assert response.getheader("x-content-type-options") == "nosniff"
    connection.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_cheekymonkey_serve_starts_a_server_that_serves_the_page() -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/")
                response = connection.getresponse()
                break
            except OSError:
                assert process.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        page = response.read().decode()
        assert response.status == 200
        assert "Make a room" in page
        connection.close()
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0].decode()
    assert f"http://127.0.0.1:{port}/" in output


def test_a_bot_in_the_first_seat_plays_its_turn_before_the_person_comes(server: LiveServer) -> None:
    body = {"preset": "standard", "seats": [{"name": "Mo", "bot": "heuristic"}, {"name": "Ann"}], "seed": 2}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201
    deadline = time.monotonic() + 10
    while (table := call(server, "GET", "/api/table", token=token_of(room, 1))[1])["view"]["to_move"] != 1:
        assert time.monotonic() < deadline, "the bot never finished its turn"
        time.sleep(0.02)
    assert table["view"]["legal"]
    assert {item["event"]["seat"] for item in table["events"]} == {0, 1}  # Mo's turn, then Ann's first draw


def test_every_file_the_pages_load_ships_in_the_package() -> None:
    for page in ("index.html", "play.html"):
        html = (STATIC_DIR / page).read_text(encoding="utf-8")
        loaded = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
        assert loaded, page
        for name in loaded:
            assert (STATIC_DIR / name).is_file(), name
        assert "://" not in html  # nothing fetched from elsewhere
