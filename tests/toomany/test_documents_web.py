"""The web server serves Too Many Monkeys through its documents: rooms, views, moves and records over HTTP.

Only the server side: a real uvicorn server, asked what a page would ask. The page's drawing of this game
is not tested here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from cheekymonkey.games import game_of_document
from cheekymonkey.toomany import TOO_MANY_MONKEYS, Ruleset
from cheekymonkey.toomany import documents as tmm
from cheekymonkey.web import Limits, RoomManager
from cheekymonkey.web.rooms import SERVED_GAMES
from tests.toomany.helpers import TINY
from tests.web_support import LiveServer, call, live_server, token_of


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=50, rooms_per_minute=50, max_rooms=50)
    with live_server(RoomManager(allow_seeds=True, limits=limits)) as running:
        yield running


def _room(server: LiveServer, rules: dict[str, Any], seed: int) -> dict[str, Any]:
    seats = [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]
    body = {"game": "too-many-monkeys", **rules, "seats": seats, "seed": seed}
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def test_a_room_of_too_many_monkeys_is_played_through_its_documents_and_its_record_replays(
    server: LiveServer,
) -> None:
    """A person plays the offered action documents to the end; every view loads; the record replays to the end."""
    assert "too-many-monkeys" in SERVED_GAMES
    room = _room(server, {"preset": "short"}, seed=4)
    assert (room["game"], room["rules"]) == ("too-many-monkeys", "short")
    token = token_of(room, 0)
    moves = 0
    deadline = time.monotonic() + 120  # against a hang only: a game takes well under a second
    while True:
        status, table = call(server, "GET", "/api/table", token=token)
        assert status == 200
        view = tmm.from_document(table["view"], "view")  # the seat's view, checked as any client's would be
        assert view.viewer == 0
        assert all(item["event"]["format"] == tmm.FORMAT for item in table["events"])
        if table["waiting"] == "over":
            break
        if not table["legal"]:
            assert time.monotonic() < deadline, "the bot never finished its turn"
            time.sleep(0.02)  # the bot is playing
            continue
        assert [tmm.from_document(item["action"], "action") for item in table["legal"]] == list(view.legal)
        choice = table["legal"][moves % len(table["legal"])]
        status, answer = call(
            server, "POST", "/api/move", {"version": table["version"], "action": choice["action"]}, token=token
        )
        assert status == 200, answer
        moves += 1
    assert moves > 3
    assert view.outcome is not None
    assert table["outcome"]["winners"] == list(view.outcome.winners)
    status, record = call(server, "GET", "/api/record", token=token)
    assert status == 200
    assert game_of_document(record) is TOO_MANY_MONKEYS
    loaded = tmm.from_document(record, "record")
    assert loaded.final_state().phase.name == "OVER"
    assert (loaded.names, loaded.bots, loaded.seed) == (("Ann", "Bot"), ("human", "random"), 4)


def test_a_room_takes_a_custom_rule_set_document_and_refuses_a_bad_one_or_a_bad_move(server: LiveServer) -> None:
    """The game's own loader reads a rule-set document and an action document; what it refuses is a 400 or 409."""
    room = _room(server, {"ruleset": tmm.to_document(TINY)}, seed=1)
    assert room["rules"] == "custom"
    token = token_of(room, 0)
    status, table = call(server, "GET", "/api/table", token=token)
    assert tmm.from_document(table["view"], "view").ruleset == TINY
    impossible = tmm.to_document(Ruleset.standard())
    impossible["row_size"] = 7
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    status, answer = call(
        server, "POST", "/api/rooms", {"game": "too-many-monkeys", "ruleset": impossible, "seats": seats}
    )
    assert status == 400
    assert "$.row_size" in answer["error"]
    status, answer = call(
        server, "POST", "/api/move", {"version": table["version"], "action": {"type": "fly"}}, token=token
    )
    assert status == 400
    assert "'fly' is not an action" in answer["error"]
    cheeky = {"format": "cheekymonkey/1", "kind": "action", "type": "draw"}
    status, answer = call(server, "POST", "/api/move", {"version": table["version"], "action": cheeky}, token=token)
    assert status == 400
    assert "format 'cheekymonkey/1' is not 'too-many-monkeys/1'" in answer["error"]
