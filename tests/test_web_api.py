"""The web front end's HTTP API, against a real uvicorn server: documents in and out, versions, tokens, hosts."""

from __future__ import annotations

import ast
import http.client
import json
import logging
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from cheekymonkey import CHEEKY_MONKEY, Claim, Ruleset, apply, toomany
from cheekymonkey.cheeky.bots import bust_probability
from cheekymonkey.cheeky.documents import load_action, load_view, to_document
from cheekymonkey.errors import IllegalActionError
from cheekymonkey.games import GAME_NAMES, game_named, games
from cheekymonkey.refusals import refusal_text
from cheekymonkey.serialization import DocumentError
from cheekymonkey.table import Seat, Table
from cheekymonkey.web import STATIC_DIR, Limits, RoomManager
from cheekymonkey.web.app import page_script
from tests.helpers import BUILT_IN_GAMES
from tests.web_support import (
    LiveServer,
    ServeProcess,
    action,
    call,
    live_server,
    make_room,
    move,
    open_stream,
    read_event,
    serve_process,
    token_of,
)

WEB = Path(__file__).resolve().parent.parent / "cheekymonkey" / "web"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)
    with live_server(RoomManager(allow_seeds=True, limits=limits)) as running:
        yield running


def held(server: LiveServer, room: dict[str, Any]) -> Any:
    """The room as the server holds it."""
    return server.manager.rooms[room["room"]]


def test_each_seat_gets_its_view_document_and_never_the_full_state(server: LiveServer) -> None:
    """A seat's table is the game's view document for that seat, with nothing of the full state."""
    room = make_room(server, "Ann", "Bob")
    status, table = call(server, "GET", "/api/table", token=token_of(room, 1))
    assert status == 200
    assert set(table) == {
        "game", "title", "rules", "room", "seat", "version", "closed", "seats", "waiting", "to_move", "view",
        "board", "legal", "facts", "events", "outcome", "notices", "seeded",
    }  # fmt: skip
    assert (table["room"], table["seat"], [s["name"] for s in table["seats"]]) == (room["room"], 1, ["Ann", "Bob"])
    game = held(server, room).game
    assert table["board"] == game.board_table(held(server, room).table.state, ["Ann", "Bob"], 1).text()
    assert "Bob (you)" in table["board"]
    assert (table["game"], table["title"], table["rules"]) == ("cheeky-monkey", "Cheeky Monkey", "standard")
    seen = load_view(json.dumps(table["view"]))  # a valid view document, checked by the library
    state = held(server, room).table.state
    assert seen.viewer == 1
    assert seen.legal == ()
    assert table["legal"] == []
    assert seen.front == state.front
    text = json.dumps(table)
    assert '"kind": "state"' not in text
    assert '"stacks"' not in text
    assert '"bag"' not in text


def test_the_mover_gets_each_legal_move_with_its_document_notation_and_words(server: LiveServer) -> None:
    """``legal`` lists the seat's moves in the view's order, each with the game's own text and words for it."""
    room = make_room(server, "Ann", "Bob")
    table = call(server, "GET", "/api/table", token=token_of(room, 0))[1]
    state = held(server, room).table.state
    assert [item["action"] for item in table["legal"]] == table["view"]["legal"]
    assert [(item["text"], item["words"]) for item in table["legal"]] == [
        ("d", "draw"),
        ("s", "stop"),
        ("h", "secure a herd"),
    ]
    assert table["facts"]["bust_odds"] == bust_probability(state)


def test_a_move_answers_with_the_new_table_and_the_other_seat_sees_it(server: LiveServer) -> None:
    """A move names its version; the answer is the mover's new table, and the other seat's table moved too."""
    room = make_room(server, "Ann", "Bob")
    status, mine = call(server, "POST", "/api/move", move(1, "stop"), token=token_of(room, 0))
    assert status == 200, mine
    assert mine["version"] == 3  # Ann's first draw, her stop (one token stacks itself), Bob's first draw
    assert [e["event"]["type"] for e in mine["events"]][:2] == ["stopped", "stacked"]
    status, theirs = call(server, "GET", "/api/table", token=token_of(room, 1))
    assert theirs["version"] == 3
    assert theirs["view"]["to_move"] == 1
    assert theirs["legal"]
    assert theirs["view"]["stack_heights"][0] == 1


def test_every_seat_reads_each_event_in_words_written_for_it(server: LiveServer) -> None:
    """The narration comes from the server, per seat: the mover reads "You", the others read the mover's name."""
    room = make_room(server, "Ann", "Bob", "Cy")
    call(server, "POST", "/api/move", move(1, "stop"), token=token_of(room, 0))
    tables = [call(server, "GET", "/api/table", token=token_of(room, seat))[1] for seat in range(3)]
    events = held(server, room).table.events
    names = ("Ann", "Bob", "Cy")
    for seat, table in enumerate(tables):
        assert [item["text"] for item in table["events"]] == [
            CHEEKY_MONKEY.event_text(event, names, seat) for event in events
        ]
    assert tables[0]["events"][1]["text"].startswith("You stop")
    assert tables[1]["events"][1]["text"].startswith("Ann stops")


def test_a_retried_move_is_refused_with_409_and_the_current_table_so_it_never_plays_twice(
    server: LiveServer,
) -> None:
    """The same move posted twice from the same version is played once; the second answer carries the table."""
    room = make_room(server, "Ann", "Bob")
    token = token_of(room, 0)
    first = call(server, "POST", "/api/move", move(1, "draw"), token=token)
    assert first[0] == 200
    room_now = held(server, room)
    actions_after_one = room_now.table.actions
    status, answer = call(server, "POST", "/api/move", move(1, "draw"), token=token)
    assert status == 409
    assert "version 1" in answer["error"]
    assert answer["table"]["version"] == room_now.version == len(actions_after_one)
    assert room_now.table.actions == actions_after_one


def test_a_move_sent_before_the_seats_turn_is_refused_and_not_played_when_the_turn_comes(server: LiveServer) -> None:
    """Bob's draw, sent while Ann is to move, is refused; it is not kept and played once Bob's turn comes."""
    room = make_room(server, "Ann", "Bob")
    status, answer = call(server, "POST", "/api/move", move(1, "draw"), token=token_of(room, 1))
    assert (status, answer["error"]) == (409, "it is Ann's turn (seat 0), not seat 1's")
    after = call(server, "POST", "/api/move", move(1, "stop"), token=token_of(room, 0))[1]
    assert after["to_move"] == 1
    assert held(server, room).version == after["version"] == 3  # Bob's early draw was not played
    assert call(server, "POST", "/api/move", move(1, "draw"), token=token_of(room, 1))[0] == 409
    assert held(server, room).version == 3


def test_a_move_without_a_version_gets_400_and_the_room_is_unchanged(server: LiveServer) -> None:
    """A bare action document (the old protocol) is refused with a reason that says what to send."""
    room = make_room(server, "Ann", "Bob")
    status, answer = call(server, "POST", "/api/move", action("draw"), token=token_of(room, 0))
    assert status == 400
    assert "version" in answer["error"]
    assert held(server, room).version == 1


def test_a_typed_move_is_read_by_the_games_notation(server: LiveServer) -> None:
    """``{"text": ...}`` plays what the game's parser reads; a move the rules refuse gets the engine's reason."""
    room = make_room(server, "Ann", "Bob")
    token = token_of(room, 0)
    status, answer = call(server, "POST", "/api/move", {"version": 1, "text": "c 1"}, token=token)
    assert status == 400
    assert answer["error"].startswith("'c 1': seat 1's stack is empty (rule R7, Claims)")
    status, answer = call(server, "POST", "/api/move", {"version": 1, "text": "s"}, token=token)
    assert status == 200
    assert answer["events"][0]["text"].startswith("You stop")


def test_a_seat_token_acts_only_for_its_own_seat(server: LiveServer) -> None:
    """A token moves its own seat in its own room and nothing elsewhere; a token nobody holds gets 404."""
    first, second = make_room(server, "Ann", "Bob"), make_room(server, "Cy", "Di")
    before = held(server, first).table.state, held(server, second).table.state
    status, answer = call(server, "POST", "/api/move", move(1, "draw"), token=token_of(first, 1))
    assert (status, answer["error"]) == (409, "it is Ann's turn (seat 0), not seat 1's")
    status, answer = call(server, "POST", "/api/move", move(1, "stop"), token=token_of(second, 0))
    assert status == 200
    assert answer["room"] == second["room"]
    assert held(server, first).table.state is before[0]
    assert held(server, second).table.state is not before[1]
    assert call(server, "POST", "/api/move", move(1, "stop"), token="x" * 43)[0] == 404
    status, answer = call(server, "GET", "/api/table")
    assert status == 401
    assert "Authorization" in answer["error"]


BAD_ACTIONS = [
    {"kind": "action", "type": "draw"},  # half a header (an action comes with both parts or neither)
    {"format": "cheekymonkey/1", "kind": "action", "type": "fly"},
    {"format": "cheekymonkey/1", "kind": "action", "type": "claim", "seat": "two"},
    {"format": "cheekymonkey/1", "kind": "action", "type": "draw", "extra": 1},
]


@pytest.mark.parametrize("document", BAD_ACTIONS)
def test_a_malformed_action_gets_400_with_the_library_reason_and_the_room_unchanged(
    server: LiveServer, document: dict[str, Any]
) -> None:
    """The action document is checked by the game's own loader, whose reason is the answer."""
    room = make_room(server, "Ann", "Bob")
    before = held(server, room).table.state
    with pytest.raises(DocumentError) as expected:
        load_action(json.dumps(document))
    status, answer = call(server, "POST", "/api/move", {"version": 1, "action": document}, token=token_of(room, 0))
    assert (status, answer) == (400, {"error": str(expected.value)})
    assert held(server, room).table.state is before


def test_an_illegal_move_gets_409_with_the_library_reason_and_the_room_unchanged(server: LiveServer) -> None:
    """A move the rules forbid is refused with the engine's reason (naming its clause) and the current table."""
    room = make_room(server, "Ann", "Bob")
    before = held(server, room).table.state
    with pytest.raises(IllegalActionError) as expected:
        apply(before, Claim(1))
    status, answer = call(server, "POST", "/api/move", move(1, "claim", seat=1), token=token_of(room, 0))
    assert status == 409
    assert answer["error"] == refusal_text(CHEEKY_MONKEY, str(expected.value))
    assert "rule R7, Claims" in answer["error"]
    assert "R7" not in answer["error"].replace("rule R7", "")  # no bare rule number
    assert answer["table"]["version"] == 1
    assert held(server, room).table.state is before


def test_bodies_over_the_cap_get_413_with_or_without_a_declared_length(server: LiveServer) -> None:
    """The cap holds for a declared length and for a body sent in chunks with none."""
    room = make_room(server, "Ann", "Bob")
    token = token_of(room, 0)
    padded = json.dumps({**move(1, "draw"), "pad": "x" * 9000}).encode()
    assert call(server, "POST", "/api/move", raw=padded, token=token)[0] == 413
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    connection.request("POST", "/api/move", body=iter([b"{" + b" " * 4096] * 4), headers=headers, encode_chunked=True)
    response = connection.getresponse()
    assert response.status == 413
    assert "limit" in json.loads(response.read())["error"]
    connection.close()
    assert held(server, room).version == 1


def test_a_body_that_is_not_json_content_gets_415(server: LiveServer) -> None:
    """A move must come as application/json."""
    room = make_room(server, "Ann", "Bob")
    status, answer = call(
        server, "POST", "/api/move", raw=b"d", token=token_of(room, 0), headers={"Content-Type": "text/plain"}
    )
    assert status == 415
    assert "application/json" in answer["error"]


def test_deeply_nested_json_gets_400_not_500(server: LiveServer) -> None:
    """3,000 levels of nesting (which made ``json`` raise RecursionError) are refused with a reason."""
    for path in ("/api/rooms", "/api/move"):
        room = make_room(server, "Ann", "Bob")
        status, answer = call(server, "POST", path, raw=b"[" * 3000 + b"]" * 3000, token=token_of(room, 0))
        assert status == 400, (path, answer)
        assert "nests deeper" in answer["error"]


@pytest.mark.parametrize("since", ["\u00b2", "-1", "1e3", "\u0661", "1" * 10, "", "0x1"])
def test_a_since_that_is_not_plain_digits_gets_400_not_500(server: LiveServer, since: str) -> None:
    """``?since=²`` passed ``str.isdigit()`` and failed in ``int()``; every non-ASCII-digit text is refused."""
    room = make_room(server, "Ann", "Bob")
    for path in ("/api/table", "/api/events"):
        query = urllib_quote(since)
        status, answer = call(server, "GET", f"{path}?since={query}", token=token_of(room, 0))
        assert status == 400, (path, since, answer)
        assert "since" in answer["error"]


def urllib_quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"preset": "chess", "seats": [{"name": "A"}, {"name": "B"}]}, "no preset named 'chess'"),
        ({"preset": "standard", "seats": [{"name": "A"}]}, "1 players: the standard rules allow 2 to 6"),
        ({"preset": "standard", "seats": [{"name": "A"}, {"name": "B", "bot": "oracle"}]}, "no bot named 'oracle'"),
        ({"preset": "standard", "seats": [{"name": "A\u0007"}, {"name": "B"}]}, "control"),
        ({"preset": "standard", "seats": [{"name": "x" * 40}, {"name": "B"}]}, "longer than 24"),
        ({"preset": "standard", "seats": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]}, "person"),
        ({"ruleset": {"format": "cheekymonkey/1", "kind": "ruleset"}, "seats": [{"name": "A"}]}, "invalid ruleset"),
        ({"game": "chess", "preset": "standard", "seats": [{"name": "A"}, {"name": "B"}]}, "no game named 'chess'"),
        ({"preset": "standard", "seats": [{"name": "Ann"}, {"name": "ann"}]}, "look alike"),
        ({"preset": "standard", "seats": [{"name": "You"}, {"name": "Bob"}]}, "'you'"),
    ],
)
def test_a_bad_room_gets_400_with_the_reason(server: LiveServer, body: dict[str, Any], reason: str) -> None:
    """Every field of a room is checked, with a reason a person can act on."""
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 400, answer
    assert reason in answer["error"]


@pytest.mark.parametrize(
    ("names", "allowed"),
    [
        (["Ann", "Bob"], True),
        (["Player 0", "Heuristic bot 1"], True),
        (["Ann", "Anne"], True),
        (["Ann", "ANN"], False),
        (["Ann", "A n n"], False),
        (["Ann", "\u0410nn"], False),  # a Cyrillic capital A
        (["Bob", "B0b"], False),
        (["Al", "AI"], False),
        (["you", "Bob"], False),
        (["Y\u043eu", "Bob"], False),  # a Cyrillic o
        (["YOU!", "Bob"], False),
        (["Your", "Bob"], False),
        (["Yousef", "Bob"], True),
        (["...", "Bob"], False),
        (["\u028f\u1d0f\u1d1c", "Bob"], False),  # small capital Y, O, U: the trial's look-alike of "you"
        (["\u0392ob", "Bob"], False),  # a Greek capital Beta
        (["Ann", "\U0001d5ba\U0001d5c7\U0001d5c7"], False),  # mathematical sans-serif letters
        (["Ann", "\u0251nn"], False),  # a Latin alpha
        (["Ann", "\u0410\u043b\u044f"], True),  # Alya, in Cyrillic: a name of its own
    ],
)
def test_names_that_read_as_you_or_look_like_another_seats_are_refused(
    server: LiveServer, names: list[str], allowed: bool
) -> None:
    """Every player reads their own seat as "you", and must tell every other seat apart from the rest."""
    body = {"preset": "standard", "seats": [{"name": n} for n in names]}
    status, answer = call(server, "POST", "/api/rooms", body)
    assert (status == 201) is allowed, answer


def test_a_custom_rule_set_document_makes_a_room_under_those_rules(server: LiveServer) -> None:
    """A room's rules may be any valid ruleset document within the server's number bound."""
    ruleset = Ruleset.custom({Ruleset.standard().animals[0]: 3, Ruleset.standard().animals[1]: 4}, swap=False)
    document = to_document(ruleset)
    body = {"ruleset": document, "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201, room
    assert room["rules"] == "custom"
    status, table = call(server, "GET", "/api/table", token=token_of(room, 0))
    assert table["view"]["ruleset"] == {k: v for k, v in document.items() if k not in ("format", "kind")}
    assert table["view"]["bag_size"] == 6


def test_seeds_are_refused_unless_the_server_allows_them() -> None:
    """A seeded room's draws are predictable, so a server takes seeds only when told to."""
    with live_server(RoomManager()) as strict:
        body = {"preset": "standard", "seats": [{"name": "A"}, {"name": "B"}], "seed": 1}
        status, answer = call(strict, "POST", "/api/rooms", body)
        assert status == 400
        assert "seeds" in answer["error"]


def event_stream(server: LiveServer, token: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection, response = open_stream(server, token)
    assert response.status == 200
    assert response.getheader("content-type", "").startswith("text/event-stream")
    return connection, response


def test_the_event_stream_sends_the_table_then_every_change(server: LiveServer) -> None:
    """A stream opens with the seat's table, then sends a table at each change, with the new events only."""
    room = make_room(server, "Ann", "Bob")
    connection, stream = event_stream(server, token_of(room, 1))
    try:
        first = read_event(stream)
        assert first["version"] == 1
        assert first["seat"] == 1
        assert [e["seq"] for e in first["events"]] == [0]
        call(server, "POST", "/api/move", move(1, "draw"), token=token_of(room, 0))
        second = read_event(stream)
        assert second["version"] == 3
        assert second["events"][0]["seq"] == 1
        assert second["events"][0]["text"].startswith("Ann draws")
    finally:
        connection.close()


def test_pages_and_answers_carry_the_security_headers(server: LiveServer) -> None:
    """Pages, files, answers and refusals all carry the security headers."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for path, expected in (
        ("/", 200), ("/play", 200), ("/static/play.js", 200), ("/static/games/cheeky-monkey.js", 200),
        ("/static/games/too-many-monkeys.js", 200), ("/static/games/chess.js", 404),
        ("/api/options", 200), ("/api/table?since=%C2%B2", 400), ("/api/nothing", 404), ("/static/../app.py", 404),
    ):  # fmt: skip
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        assert response.status == expected, path
        assert "default-src 'self'" in (response.getheader("content-security-policy") or ""), path
        assert response.getheader("x-content-type-options") == "nosniff"
    connection.close()


@pytest.mark.parametrize(
    "host",
    ["evil.example", "127.0.0.1.evil.example", "localhost.", "[::2]:8000", "[::1]:80", "[::1].evil.example",
     "[::1]evil.example:80", "[::1]:80:80", "[::1", "[::1]:", "[::1]:8o"],
)  # fmt: skip
def test_a_request_for_a_host_not_served_is_refused(server: LiveServer, host: str) -> None:
    """A page rebinding its own name to 127.0.0.1 sends its own Host: the server refuses it, with a reason."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/static", headers={"Host": host})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if host in ("localhost.", "[::1]:80"):
        assert response.status == 307  # served names (the first written as fully qualified): /static/ is the folder
        return
    assert response.status == 400
    assert "host" in json.loads(body)["error"].lower()
    assert response.getheader("location") is None  # nothing reflects the host asked for
    assert response.getheader("x-frame-options") == "DENY"


def test_a_request_with_no_host_is_refused(server: LiveServer) -> None:
    """An HTTP/1.0 request may leave the Host out: it is refused too, as a host not served."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        raw.sendall(b"GET /api/options HTTP/1.0\r\n\r\n")
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert json.loads(body) == {"error": "a Host header is needed"}


def test_the_served_hosts_are_127_0_0_1_localhost_and_those_named() -> None:
    """``allowed_hosts`` adds names (as ``--host`` and ``--allowed-host`` do); the others stay refused."""
    with live_server(RoomManager(), allowed_hosts=["127.0.0.1", "localhost", "games.example"]) as named:
        for host, status in (("games.example", 200), ("GAMES.example:443", 200), ("localhost:1", 200), ("x.io", 400)):
            connection = http.client.HTTPConnection("127.0.0.1", named.port, timeout=10)
            connection.request("GET", "/api/options", headers={"Host": host})
            response = connection.getresponse()
            response.read()
            connection.close()
            assert response.status == status, host


@pytest.mark.slow
def test_cheekymonkey_serve_starts_a_server_that_serves_the_page(tmp_path: Path) -> None:
    """The command starts a real server that serves the lobby, and says where."""
    with serve_process(["--store", str(tmp_path / "rooms.sqlite3")]) as running:
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
        connection.request("GET", "/")
        response = connection.getresponse()
        page = response.read().decode()
        connection.close()
        assert response.status == 200
        assert "Make a room" in page
        assert f"http://127.0.0.1:{running.port}/" in running.first_line
        assert str(tmp_path / "rooms.sqlite3") in running.first_line


def test_a_bot_in_the_first_seat_plays_its_turn_before_the_person_comes(server: LiveServer) -> None:
    """Bots play from the start, through the Table; the person finds it their turn, with the bot's events."""
    room = make_room(server, "Mo", "Ann", bots={0: "heuristic"}, seed=2)
    deadline = time.monotonic() + 120  # a guard against a hang: the bot's turn takes milliseconds
    while (table := call(server, "GET", "/api/table", token=token_of(room, 0 + 1))[1])["to_move"] != 1:
        assert time.monotonic() < deadline, "the bot never finished its turn"
        time.sleep(0.02)
    assert table["legal"]
    assert {item["event"]["seat"] for item in table["events"]} == {0, 1}  # Mo's turn, then Ann's first draw
    assert table["seats"][0]["title"] == "Heuristic"


def test_the_options_give_each_games_presets_bots_with_titles_and_seat_range(server: LiveServer) -> None:
    """The lobby learns everything about a game from the server: presets, bots (MCTS, not Mcts), seat counts."""
    status, options = call(server, "GET", "/api/options")
    assert status == 200
    games = {game["name"]: game for game in options["games"]}
    assert tuple(games) == GAME_NAMES  # every game is served
    game = games["cheeky-monkey"]
    assert (game["title"], game["seats"]) == ("Cheeky Monkey", [2, 6])
    assert {"name": "mcts", "title": "MCTS", "unavailable": None} in game["bots"]
    assert game["presets"]["standard"] == to_document(Ruleset.standard())
    other = games["too-many-monkeys"]
    assert (other["title"], other["seats"]) == ("Too Many Monkeys", [2, 6])
    documents = game_named("too-many-monkeys").documents()
    assert other["presets"] == {
        name: documents.to_document(toomany.Ruleset.preset(name)) for name in ("standard", "short")
    }


def test_every_file_the_pages_load_ships_in_the_package() -> None:
    """The pages load only files of the package, each present, and nothing from elsewhere."""
    for page in ("index.html", "play.html"):
        html = (STATIC_DIR / page).read_text(encoding="utf-8")
        loaded = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
        assert loaded, page
        for name in loaded:
            assert (STATIC_DIR / name).is_file(), name
        assert "://" not in html  # nothing fetched from elsewhere
    # Each game's drawing ships in the game's own package, served as /static/games/<name>.js. Every built-in
    # game has one; a plug-in may ship none (Pig, Leduc poker), and its table is shown by the generic page.
    for game in games():
        script = page_script(game)
        assert script is not None or game.name not in BUILT_IN_GAMES, game.name
        assert script is None or script.is_file(), game.name
    assert set(BUILT_IN_GAMES) <= {game.name for game in games()}


def test_the_web_package_reaches_games_only_through_the_game_surface() -> None:
    """No module of the server imports a game's own modules: only the shared surface, the registry and the Table."""
    allowed = {
        "cheekymonkey.checks",
        "cheekymonkey.errors",
        "cheekymonkey.game",
        "cheekymonkey.games",
        "cheekymonkey.names",
        "cheekymonkey.outcome",
        "cheekymonkey.refusals",  # a refusal in words: the game's rule titles, found through the game object
        "cheekymonkey.serialization._parsing",  # the JSON parser's duplicate-key check, shared with the loaders
        "cheekymonkey.table",
        "cheekymonkey.text_table",
    }
    for module in WEB.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cheekymonkey"):
                assert node.module in allowed or node.module.startswith("cheekymonkey.web"), (module.name, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("cheekymonkey") or alias.name in allowed, (module.name, alias.name)


def test_the_page_has_no_narration_of_its_own() -> None:
    """Event text comes from the server; the page's scripts hold no sentence of an event."""
    scripts = "".join(path.read_text(encoding="utf-8") for path in STATIC_DIR.rglob("*.js"))
    for phrase in ("claimed the", "went back into the bag", "secured a herd", "gave a Monkey"):
        assert phrase not in scripts


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--port", "99999", "give 0 to 65535"),
        ("--port", "-1", "give 0 to 65535"),
        ("--max-rooms", "0", "give 1"),
        ("--bot-delay", "-2", "give 0 to 10"),
        ("--header-timeout", "nan", "give 0.1 to 3600"),
        ("--max-number", str(2**53), "give 1 to"),
    ],
)
def test_a_serve_option_out_of_range_is_refused_before_anything_starts(option: str, value: str, said: str) -> None:
    """Each bad value exits 2 with the option and the range named, and no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "serve", "--store", ":memory:", option, value],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert option in done.stderr
    assert said in done.stderr
    assert done.stdout == ""


@pytest.mark.slow
def test_a_busy_port_is_refused_in_one_line_before_the_server_says_where_it_serves() -> None:
    """A port already in use: exit 2 with one line naming it, and no "Serving on" line first."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "cheekymonkey", "serve", "--store", ":memory:", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"cheekymonkey serve: cannot listen on 127.0.0.1:{port}: Address already in use (is another server using it?)"
    ]


def test_each_refused_request_writes_one_log_line_and_no_traceback(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A 4xx is one line in the ``cheekymonkey.web`` log, naming the status, the request and the reason."""
    with caplog.at_level(logging.WARNING, logger="cheekymonkey.web"):
        for raw in (b"[" * 3000 + b"]" * 3000, b"{", b'{"preset": "chess", "seats": []}'):
            assert call(server, "POST", "/api/rooms", raw=raw)[0] == 400
        assert call(server, "GET", "/api/table?since=%C2%B2", token="A" * 43)[0] == 400
        deadline = time.monotonic() + 60
        while len([r for r in caplog.records if r.name == "cheekymonkey.web"]) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = [r for r in caplog.records if r.name == "cheekymonkey.web"]
    assert [r.getMessage().split(" from ")[0] for r in lines] == ["400 POST /api/rooms"] * 3 + ["400 GET /api/table"]
    assert all("\n" not in r.getMessage() and r.exc_info is None for r in lines)
    assert lines[0].getMessage().endswith("the body nests deeper than 16 levels")


def test_the_serve_options_default_to_the_limits_defaults() -> None:
    """``cheekymonkey serve``'s flags and :class:`~cheekymonkey.web.Limits` agree on every default."""
    import argparse

    from cheekymonkey.cli.serve import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    defaults = vars(parser.parse_args([]))
    limits = Limits()
    for field in attrs.fields(Limits):
        assert defaults[field.name] == getattr(limits, field.name), field.name


def test_a_seeded_room_plays_the_same_game_as_a_table_with_the_same_seed_and_players(server: LiveServer) -> None:
    """A person playing the heuristic's moves in a seeded room gets the game of a seeded two-heuristic table.

    The heuristic uses no random numbers, so the draws and the bot's choices must be the same.
    """
    room = make_room(server, "Ann", "Mo", bots={1: "heuristic"}, seed=21)
    kept = held(server, room)
    token = token_of(room, 0)
    mine = CHEEKY_MONKEY.bot_named("heuristic")
    deadline = time.monotonic() + 120
    while (table := call(server, "GET", "/api/table", token=token)[1])["waiting"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        if not table["legal"]:
            time.sleep(0.01)
            continue
        chosen = to_document(mine.choose(kept.table.state, random.Random()))
        body = {"version": table["version"], "action": chosen}
        assert call(server, "POST", "/api/move", body, token=token)[0] == 200
    seats = [Seat.bot(CHEEKY_MONKEY, "heuristic", name) for name in ("Ann", "Mo")]
    alone = Table(CHEEKY_MONKEY, seats, seed=21)
    alone.advance()
    assert kept.table.actions == alone.actions
    assert kept.table.state == alone.state


def test_sigterm_with_an_event_stream_open_stops_the_server_cleanly(tmp_path: Path) -> None:
    """SIGTERM while a page follows a room: the stream ends, the process exits 0, and stderr holds no traceback."""
    log = tmp_path / "server.log"
    server = ServeProcess(["--store", str(tmp_path / "rooms.sqlite3"), "--allow-seeds"], stderr=log)
    try:
        server.wait_ready()
        room = make_room(server, "Ann", "Bob")
        connection, stream = open_stream(server, token_of(room, 1))
        assert stream.status == 200
        assert read_event(stream)["version"] == 1
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
        connection.close()
    finally:
        server.stop()
    text = log.read_text()
    assert "Traceback" not in text, text
    assert "Error" not in text, text


@pytest.mark.parametrize("request_line", [b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n"])
def test_the_http_parsers_own_400s_carry_the_security_headers(server: LiveServer, request_line: bytes) -> None:
    """A request uvicorn cannot parse is answered before the app runs: that 400 carries the headers too."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        raw.sendall(request_line)
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk
    head = answer.partition(b"\r\n\r\n")[0].decode("latin-1").lower()
    assert head.startswith("http/1.1 400")
    for name in ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"):
        assert f"\r\n{name}: " in head, name


def test_every_connection_answers_without_waiting_for_the_clients_acknowledgement(server: LiveServer) -> None:
    """TCP_NODELAY on each accepted connection, even from a listening socket made without naming TCP.

    An answer is written in two parts (head, body); without it the second waits for the client's delayed
    acknowledgement, about 40 ms on every request of a keep-alive connection.
    """
    assert server.listening.proto == 0  # made as cheekymonkey serve once made it: asyncio then skips TCP_NODELAY
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/api/options")
    connection.getresponse().read()
    held = [
        c for c in server.connections() if c.transport.get_extra_info("peername")[1] == connection.sock.getsockname()[1]
    ]
    try:
        assert len(held) == 1
        sock = held[0].transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        connection.close()
