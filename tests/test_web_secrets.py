"""What the web routes give a seat of a game with secrets: its own events and view, a record with no hidden draw.

The game is :data:`tests.secret_games.GUESS` (each of two seats holds a card; seat 0 guesses seat 1's), served
by a real uvicorn server: the manager serves it beside the installed games (its ``games``, the list the
server offers). Two rooms made with seeds that deal seat ``s`` the same card and the other seat different
ones must give seat ``s`` the same bytes on every route until the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cheekymonkey.games import game_named
from cheekymonkey.table import Seat, Table
from cheekymonkey.web import Limits, Room, RoomManager
from cheekymonkey.web.app import CLAIM_PREFIX
from tests.secret_games import GUESS, Deal, GuessState
from tests.web_support import LiveServer, call, live_server, open_stream, read_event


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)
    manager = RoomManager(allow_seeds=True, limits=limits)
    manager.games = (*manager.games, GUESS)
    with live_server(manager) as running:
        yield running


def cards_of(seed: int) -> tuple[int | None, int | None]:
    """The cards a room of Guess made with ``seed`` deals (as a table with that seed deals them)."""
    table = Table(GUESS, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
    table.advance(bots=False)
    state = table.state
    assert isinstance(state, GuessState)
    return state.cards


def seeds_apart(seat: int) -> tuple[int, int]:
    """Two seeds that deal ``seat`` the same card and the other seat different cards."""
    seen: dict[int | None, tuple[int, int | None]] = {}
    for seed in range(200):
        cards = cards_of(seed)
        mine, theirs = cards[seat], cards[1 - seat]
        if mine in seen and seen[mine][1] != theirs:
            return seen[mine][0], seed
        seen.setdefault(mine, (seed, theirs))
    raise AssertionError("no two seeds of 200 deal the same card to the seat and different ones to the other")


def guess_room(server: LiveServer, seed: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "guess", "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    if seed is not None:
        body["seed"] = seed
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def tokens_of(server: LiveServer, room: dict[str, Any]) -> list[str]:
    """Each seat's token: seat 0's from its link, seat 1's claimed with its link's one-time code."""
    first = room["seats"][0]["link"].removeprefix("/play#")
    code = room["seats"][1]["link"].removeprefix("/play#" + CLAIM_PREFIX)
    status, claimed = call(server, "POST", "/api/claim", {"claim": code})
    assert status == 200, claimed
    return [first, claimed["token"]]


def held(server: LiveServer, room: dict[str, Any]) -> Room:
    return server.manager.rooms[room["room"]]


def without_room(message: dict[str, Any]) -> str:
    """A table message as bytes, its room's id (different for every room) left out."""
    return json.dumps({key: value for key, value in message.items() if key != "room"}, sort_keys=True)


def guess(server: LiveServer, token: str) -> dict[str, Any]:
    """Seat 0 plays its first legal guess; the answer's table."""
    status, table = call(server, "GET", "/api/table", token=token)
    assert status == 200
    first = table["legal"][0]["text"]
    status, answer = call(server, "POST", "/api/move", {"version": table["version"], "text": first}, token=token)
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


@pytest.mark.parametrize("seat", [0, 1])
def test_web_secrets_a_seat_is_sent_the_same_bytes_whatever_the_other_seats_card(server: LiveServer, seat: int) -> None:
    """Table, stream and record refusal of a seat are the same for two deals that differ in the other card only."""
    seeds = seeds_apart(seat)
    rooms = [guess_room(server, seed) for seed in seeds]
    tokens = [tokens_of(server, room)[seat] for room in rooms]
    theirs = [held(server, room).table.state.cards[1 - seat] for room in rooms]
    assert theirs[0] != theirs[1]  # the two rooms do differ, in the other seat's card

    tables = [call(server, "GET", "/api/table", token=token)[1] for token in tokens]
    assert without_room(tables[0]) == without_room(tables[1])
    streamed = []
    for token in tokens:
        connection, response = open_stream(server, token)
        try:
            streamed.append(read_event(response))
        finally:
            connection.close()
    assert without_room(streamed[0]) == without_room(streamed[1])
    assert without_room(streamed[0]) == without_room(tables[0])
    # What the seat is shown: its own card dealt, the other's dealt face down.
    mine = held(server, rooms[0]).table.state.cards[seat]
    dealt = [event["event"]["value"]["fields"]["action"]["fields"] for event in tables[0]["events"]]
    assert dealt == [{"seat": 0, "card": mine if seat == 0 else None}, {"seat": 1, "card": mine if seat == 1 else None}]
    assert [event["seq"] for event in tables[0]["events"]] == [0, 1]
    view = tables[0]["view"]["value"]["fields"]
    assert (view["mine"], view["theirs"]) == (mine, None)
    for token in tokens:  # no record before the end: it would hold the hidden deal
        status, refused = call(server, "GET", "/api/record", token=token)
        assert status == 409
        assert "once the game is finished" in refused["error"]


def test_web_secrets_after_the_end_each_seat_sees_what_the_rules_reveal_and_its_record_no_more(
    server: LiveServer,
) -> None:
    """At the end the view shows the other card (Guess's rules reveal it to both seats); the deals stay masked."""
    room = guess_room(server, 11)
    tokens = tokens_of(server, room)
    cards = held(server, room).table.state.cards
    ended = guess(server, tokens[0])
    assert ended["waiting"] == "over"
    for seat, token in enumerate(tokens):
        table = call(server, "GET", "/api/table", token=token)[1]
        view = table["view"]["value"]["fields"]
        assert (view["mine"], view["theirs"]) == (cards[seat], cards[1 - seat])
        status, record = call(server, "GET", "/api/record", token=token)
        assert status == 200
        assert record["kind"] == "seat-record"
        assert (record["seat"], record["seed"], record["names"]) == (seat, None, ["Ann", "Bob"])
        # Its events are the seat's table's, and its view the seat's last view: nothing more.
        assert record["events"] == [
            {"seq": event["seq"], "event": {k: v for k, v in event["event"].items() if k not in ("format", "kind")}}
            for event in table["events"]
        ]
        assert record["view"] == {k: v for k, v in table["view"].items() if k not in ("format", "kind")}
        deals = [e["event"]["value"]["fields"]["action"] for e in record["events"]][:2]
        assert [d["fields"]["card"] for d in deals] == [
            cards[0] if seat == 0 else None,
            cards[1] if seat == 1 else None,
        ]
        assert "actions" not in record
        assert record["returns"] == list(GUESS.returns(held(server, room).table.state))
        assert record["outcome"] == table["outcome"]


def test_web_secrets_a_seat_of_a_game_with_secrets_is_claimed_once_by_the_first_to_open_its_link(
    server: LiveServer,
) -> None:
    """The maker's link opens its seat; the other seat's link carries a code that works once, and is no token."""
    room = guess_room(server, 4)
    first, second = room["seats"][0]["link"], room["seats"][1]["link"]
    assert not first.removeprefix("/play#").startswith(CLAIM_PREFIX)
    assert second.startswith("/play#" + CLAIM_PREFIX)
    code = second.removeprefix("/play#" + CLAIM_PREFIX)
    assert call(server, "GET", "/api/table", token=code)[0] == 404  # the code is not the seat's token
    assert call(server, "GET", "/api/table", token=first.removeprefix("/play#"))[1]["seat"] == 0
    status, claimed = call(server, "POST", "/api/claim", {"claim": code})
    assert status == 200
    assert (claimed["room"], claimed["seat"]) == (room["room"], 1)
    assert call(server, "GET", "/api/table", token=claimed["token"])[1]["seat"] == 1
    status, again = call(server, "POST", "/api/claim", {"claim": code})  # the maker's copy, or anyone else's
    assert status == 409
    assert "already been opened in another browser" in again["error"]
    assert "token" not in again
    assert call(server, "POST", "/api/claim", {"claim": "x" * 43})[0] == 404
    assert call(server, "POST", "/api/claim", {"claim": 7})[0] == 404
    assert call(server, "POST", "/api/claim", {"code": code})[0] == 400


def test_web_secrets_a_game_without_secrets_keeps_its_plain_links_and_replayable_record(server: LiveServer) -> None:
    """Cheeky Monkey: every person's link is its token, and the record is the whole replayable record."""
    body = {"preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 5}
    room = call(server, "POST", "/api/rooms", body)[1]
    tokens = [seat["link"].removeprefix("/play#") for seat in room["seats"]]
    assert not any(token.startswith(CLAIM_PREFIX) for token in tokens)
    kept = held(server, room)
    table = call(server, "GET", "/api/table", token=tokens[1])[1]
    documents = kept.game.documents()
    assert table["events"] == [
        {
            "seq": i,
            "event": documents.to_document(event),
            "text": kept.game.event_text(event, kept.table.names, 1),
            "log": [kept.game.event_text(event, kept.table.names, 1)],  # each a move of its own: a line each
        }
        for i, event in enumerate(kept.table.events)
    ]
    assert table["view"] == documents.to_document(kept.table.view(1))
    assert call(server, "GET", "/api/record", token=tokens[0])[0] == 409
    rng = random.Random(1)
    while not kept.finished:  # played out on the server's table itself: the record route only reads it
        legal = kept.table.legal_actions()
        kept.table.play(legal[rng.randrange(len(legal))])
    status, record = call(server, "GET", "/api/record", token=tokens[0])
    assert status == 200
    assert record == documents.to_document(kept.table.record())
    assert record["seed"] == 5


def test_web_secrets_a_seeded_room_says_so_to_every_seat_and_an_unseeded_one_draws_from_the_system(
    server: LiveServer,
) -> None:
    """``seeded`` is true for each seat of a room made with a chosen seed; otherwise chance is the system's."""
    seeded = guess_room(server, 9)
    for token in tokens_of(server, seeded):
        assert call(server, "GET", "/api/table", token=token)[1]["seeded"] is True
    drawn = guess_room(server, None)
    for token in tokens_of(server, drawn):
        assert call(server, "GET", "/api/table", token=token)[1]["seeded"] is False
    table = held(server, drawn).table
    assert table.seed is None
    assert isinstance(table._chance_rng, random.SystemRandom)


def test_web_secrets_events_left_out_for_a_seat_keep_their_numbers_for_since() -> None:
    """An event that shows a seat nothing is left out; the others keep the room's numbering, so since works."""
    from cheekymonkey.base import Played
    from cheekymonkey.web.messages import events_seen_since

    class Hiding(type(GUESS)):  # type: ignore[misc]
        name = "guess-hiding"

        def event_for(self, event: Played[Any], viewer: int | None) -> Played[Any] | None:
            if isinstance(event.action, Deal) and event.action.seat != viewer:
                return None
            return event

    table = Table(Hiding(), [Seat.person("Ann"), Seat.person("Bob")], seed=2)
    table.advance(bots=False)
    assert [seq for seq, _ in events_seen_since(table, 0, 0)] == [0]
    assert [seq for seq, _ in events_seen_since(table, 1, 0)] == [1]
    assert events_seen_since(table, 1, 1) == [(1, table.events[1])]
    assert events_seen_since(table, 0, 1) == []
    assert game_named("cheeky-monkey").private_information is False
