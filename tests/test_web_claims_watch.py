"""A room's watch link: a spectator sees only what is public, can play nothing, and the link survives a restart.

Every room made over the web gets ``watch``, a link ``/play#watch:<token>``. Its token opens ``GET
/api/table`` and ``GET /api/events`` as a spectator (``seat`` None): the game's view and events for the viewer
None, no moves; ``POST /api/move`` and ``GET /api/record`` refuse it with 403. The game with secrets is
:data:`tests.secret_games.GUESS` (each of two seats holds a card, hidden from the other and from any
spectator), served beside the installed games by real uvicorn servers; the store keeps the watch token's hash
(an SQLite file across a real restart). The page, in the machine's Chromium, shows a watch link as a
spectator's table: no move box, no buttons, and follows the game as it is played.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.table import Seat, Table, events_seen
from cheekymonkey.web import Limits, RedisStore, RoomManager, SqliteStore, Store
from cheekymonkey.web.app import CLAIM_PREFIX, WATCH_PREFIX
from cheekymonkey.web.store import WATCHER, token_hash
from tests.secret_games import GUESS, GuessState
from tests.web_support import (
    LiveServer,
    call,
    chromium,
    live_server,
    open_pages,
    open_stream,
    read_event,
    redis_server,
)

LIMITS = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)


def guess_manager(store: Store | None = None) -> RoomManager:
    manager = RoomManager(store=store, allow_seeds=True, limits=LIMITS, bot_delay=0.0)
    manager.games = (*manager.games, GUESS)
    return manager


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(guess_manager()) as running:
        yield running


def cards_of(seed: int) -> tuple[int | None, int | None]:
    """The cards a room of Guess made with ``seed`` deals (as a table with that seed deals them)."""
    table = Table(GUESS, [Seat.person("Ann"), Seat.person("Bob")], seed=seed)
    table.advance(bots=False)
    state = table.state
    assert isinstance(state, GuessState)
    return state.cards


def seed_of_every_deal() -> dict[tuple[int | None, int | None], int]:
    """A seed for each of the six deals of Guess (the first seed of 0..199 that deals it)."""
    seeds: dict[tuple[int | None, int | None], int] = {}
    for seed in range(200):
        seeds.setdefault(cards_of(seed), seed)
    assert len(seeds) == 6, seeds
    return seeds


def make_room(server: LiveServer, game: str, seed: int, seats: list[dict[str, str]] | None = None) -> dict[str, Any]:
    body = {"game": game, "preset": "standard", "seats": seats or [{"name": "Ann"}, {"name": "Bob"}], "seed": seed}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201, room
    assert isinstance(room, dict)
    return room


def watch_token(room: dict[str, Any]) -> str:
    link = room["watch"]
    assert link.startswith("/play#" + WATCH_PREFIX)
    return str(link.removeprefix("/play#" + WATCH_PREFIX))


def without_room(message: dict[str, Any]) -> str:
    """A table message as bytes, its room's id (different for every room) left out."""
    return json.dumps({key: value for key, value in message.items() if key != "room"}, sort_keys=True)


def deals_shown(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal events a message carries, as their fields (the seat dealt to, and the card shown or None)."""
    fields = [event["event"]["value"]["fields"]["action"]["fields"] for event in message["events"]]
    return [shown for shown in fields if "seat" in shown]


def guess_first(server: LiveServer, token: str) -> dict[str, Any]:
    """Seat 0 plays its first legal guess; the answer's table."""
    status, table = call(server, "GET", "/api/table", token=token)
    assert status == 200, table
    body = {"version": table["version"], "text": table["legal"][0]["text"]}
    status, answer = call(server, "POST", "/api/move", body, token=token)
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


def test_web_claims_watch_a_spectator_of_guess_is_sent_the_same_bytes_whatever_the_deal(server: LiveServer) -> None:
    """Each of the six deals: the spectator's table and stream are byte for byte the same, no card shown."""
    seeds = seed_of_every_deal()
    rooms = [make_room(server, "guess", seed) for seed in seeds.values()]
    dealt = [server.manager.rooms[room["room"]].table.state.cards for room in rooms]
    assert dealt == list(seeds)  # six rooms, each dealt otherwise
    tables = []
    for room in rooms:
        status, table = call(server, "GET", "/api/table", token=watch_token(room))
        assert status == 200, table
        tables.append(table)
        connection, response = open_stream(server, watch_token(room))
        try:
            assert response.status == 200
            assert without_room(read_event(response)) == without_room(table)
        finally:
            connection.close()
    assert {without_room(table) for table in tables} == {without_room(tables[0])}
    table = tables[0]
    assert (table["seat"], table["legal"], table["to_move"]) == (None, [], 0)
    assert deals_shown(table) == [{"seat": 0, "card": None}, {"seat": 1, "card": None}]
    view = table["view"]["value"]["fields"]
    assert (view["mine"], view["theirs"], view["dealt"]) == (None, None, 2)
    # A seat of the same room is shown its own card: the spectator's table is not every seat's.
    status, ann = call(server, "GET", "/api/table", token=rooms[0]["seats"][0]["link"].removeprefix("/play#"))
    assert status == 200
    assert deals_shown(ann)[0] == {"seat": 0, "card": dealt[0][0]}


def test_web_claims_watch_after_the_end_a_spectator_sees_the_guess_and_outcome_and_still_no_card(
    server: LiveServer,
) -> None:
    """The game over: the guess and who won are public, the deals stay face down for the spectator."""
    room = make_room(server, "guess", 5)
    cards = server.manager.rooms[room["room"]].table.state.cards
    ann = room["seats"][0]["link"].removeprefix("/play#")
    played = guess_first(server, ann)
    status, table = call(server, "GET", "/api/table", token=watch_token(room))
    assert status == 200, table
    assert table["waiting"] == "over"
    assert table["outcome"] == played["outcome"]
    assert table["outcome"] is not None
    assert deals_shown(table) == [{"seat": 0, "card": None}, {"seat": 1, "card": None}]
    guessed = played["view"]["value"]["fields"]["guess"]
    assert table["view"]["value"]["fields"] == {"mine": None, "theirs": None, "guess": guessed, "dealt": 2}
    assert [event["seq"] for event in table["events"]] == [0, 1, 2]
    winner = 0 if guessed == cards[1] else 1
    assert table["outcome"]["winners"] == [winner]


def test_web_claims_watch_a_watch_link_plays_nothing_claims_nothing_and_fetches_no_record(server: LiveServer) -> None:
    """A move or a record asked with the watch token: 403 in words, nothing moves; as a claim code it is unknown."""
    room = make_room(server, "guess", 7)
    token = watch_token(room)
    ann = room["seats"][0]["link"].removeprefix("/play#")
    status, before = call(server, "GET", "/api/table", token=ann)
    assert status == 200
    body = {"version": before["version"], "text": before["legal"][0]["text"]}
    status, refused = call(server, "POST", "/api/move", body, token=token)
    assert (status, refused) == (
        403,
        {"error": "this is a link to watch the room: it shows the table to everyone who opens it, but plays no seat"},
    )
    assert call(server, "GET", "/api/table", token=ann)[1]["version"] == before["version"]
    guess_first(server, ann)  # the game over: a seat may fetch its record, the watch link may not
    assert call(server, "GET", "/api/record", token=ann)[0] == 200
    status, refused = call(server, "GET", "/api/record", token=token)
    assert status == 403
    assert "plays no seat" in refused["error"]
    assert call(server, "POST", "/api/claim", {"claim": token})[0] == 404
    # Bob's link is still a claim link (the watch link is apart from the seats' links).
    assert room["seats"][1]["link"].startswith("/play#" + CLAIM_PREFIX)


def test_web_claims_watch_a_game_without_secrets_is_watched_as_the_viewer_none_sees_it(server: LiveServer) -> None:
    """Cheeky Monkey: the spectator's view is the game's view for None, its events every event, no moves."""
    room = make_room(server, "cheeky-monkey", 11, [{"name": "Ann"}, {"name": "Bo", "bot": "heuristic"}])
    held = server.manager.rooms[room["room"]]
    status, table = call(server, "GET", "/api/table", token=watch_token(room))
    assert status == 200, table
    game, state = held.game, held.table.state
    assert table["seat"] is None
    assert table["legal"] == []
    assert table["view"] == json.loads(json.dumps(game.documents().to_document(game.view(state, None))))
    assert len(table["events"]) == held.event_count
    ann = room["seats"][0]["link"].removeprefix("/play#")
    status, seat = call(server, "GET", "/api/table", token=ann)
    assert status == 200
    assert [event["event"] for event in seat["events"]] == [event["event"] for event in table["events"]]


def secret_games() -> list[AnyGame]:
    """Guess, and every registered game with private information (a plug-in such as Leduc poker, if installed)."""
    registered = [game_named(name) for name in GAME_NAMES]
    return [GUESS, *(game for game in registered if game.private_information)]


def test_web_claims_watch_every_game_with_secrets_shows_a_spectator_what_the_viewer_none_sees(
    server: LiveServer,
) -> None:
    """For each, played to the end: every step's watch table is the view, board and events for no seat, no moves."""
    for game in secret_games():
        people = [{"name": f"P{i}"} for i in range(game.default_seats())]
        status, room = call(
            server,
            "POST",
            "/api/rooms",
            {"game": game.name, "preset": game.preset_names()[0], "seats": people, "seed": 1},
        )
        assert status == 201, room
        links = [seat["link"].removeprefix("/play#") for seat in room["seats"]]
        tokens = [links[0]]
        for link in links[1:]:  # every seat but the maker's is claimed with its link's one-time code
            status, claimed = call(server, "POST", "/api/claim", {"claim": link.removeprefix(CLAIM_PREFIX)})
            assert status == 200, claimed
            tokens.append(claimed["token"])
        held = server.manager.rooms[room["room"]]
        documents = game.documents()
        for _ in range(200):
            status, table = call(server, "GET", "/api/table", token=watch_token(room))
            assert status == 200, table
            state = held.table.state
            assert table["seat"] is None
            assert table["legal"] == []
            assert table["view"] == json.loads(json.dumps(documents.to_document(game.view(state, None))))
            assert table["board"] == game.board_table(state, held.table.names, None).text()
            public = [documents.to_document(event) for event in events_seen(game, held.table.events, None)]
            assert [event["event"] for event in table["events"]] == json.loads(json.dumps(public))
            if table["waiting"] in ("over", "truncated"):
                break
            mover = tokens[table["to_move"]]
            seat_table = call(server, "GET", "/api/table", token=mover)[1]
            body = {"version": seat_table["version"], "text": seat_table["legal"][0]["text"]}
            status, answer = call(server, "POST", "/api/move", body, token=mover)
            assert status == 200, answer
        else:
            raise AssertionError(f"{game.name}: no end in 200 moves of the first legal move")


def test_web_claims_watch_the_store_keeps_the_watch_tokens_hash_and_a_restart_still_opens_it(tmp_path: Path) -> None:
    """SQLite holds the hash (never the token) as the seat WATCHER; after a restart the link opens the table."""
    path = tmp_path / "rooms.sqlite3"
    with live_server(guess_manager(SqliteStore(str(path)))) as before:
        room = make_room(before, "guess", 3)
        token = watch_token(room)
        first = call(before, "GET", "/api/table", token=token)[1]
    data = path.read_bytes()
    assert token.encode() not in data
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT room, seat FROM tokens WHERE hash = ?", (token_hash(token),)).fetchall()
    assert rows == [(room["room"], WATCHER)]
    with live_server(guess_manager(SqliteStore(str(path)))) as after:
        status, table = call(after, "GET", "/api/table", token=token)
        assert status == 200, table
        assert table == first
        assert call(after, "POST", "/api/move", {"version": 2, "text": "guess 1"}, token=token)[0] == 403


def test_web_claims_watch_a_watch_link_made_on_one_server_opens_on_another_sharing_redis(tmp_path: Path) -> None:
    """Two app instances on one real redis-server: the watch link of a room made on one is a spectator's on both."""
    with (
        redis_server(tmp_path) as url,
        live_server(guess_manager(RedisStore(url))) as one,
        live_server(guess_manager(RedisStore(url))) as two,
    ):
        room = make_room(one, "guess", 3)
        token = watch_token(room)
        tables = [call(server, "GET", "/api/table", token=token) for server in (one, two)]
        assert [status for status, _ in tables] == [200, 200], tables
        assert tables[0][1] == tables[1][1]
        assert tables[1][1]["seat"] is None
        assert deals_shown(tables[1][1]) == [{"seat": 0, "card": None}, {"seat": 1, "card": None}]
        assert call(two, "POST", "/api/move", {"version": 2, "text": "guess 1"}, token=token)[0] == 403


@pytest.mark.parametrize("seat", [2, 9, -2])
def test_web_claims_watch_a_token_row_naming_a_seat_the_room_lacks_opens_nothing(tmp_path: Path, seat: int) -> None:
    """A store whose token row names a seat out of the room (tampered with): 404 for it, never another seat."""
    path = tmp_path / "rooms.sqlite3"
    with live_server(guess_manager(SqliteStore(str(path)))) as before:
        room = make_room(before, "guess", 3)
    ann = room["seats"][0]["link"].removeprefix("/play#")
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE tokens SET seat = ? WHERE hash = ?", (seat, token_hash(ann)))
        db.commit()
    with live_server(guess_manager(SqliteStore(str(path)))) as after:
        status, answer = call(after, "GET", "/api/table", token=ann)
        assert (status, answer) == (404, {"error": "no open room has a seat for this link (it may have ended)"})
        assert call(after, "GET", "/api/table", token=watch_token(room))[0] == 200


@pytest.mark.slow
def test_web_claims_watch_the_page_shows_a_spectator_the_table_without_moves_and_follows_the_game(
    server: LiveServer,
) -> None:
    """In Chromium: the lobby hands out the watch link; the page opened with it has no move box and follows play."""
    with chromium() as browser, open_pages(browser) as pages:
        lobby = pages.open(server.url + "/")
        lobby.wait_for_selector("body[data-ready]")
        lobby.select_option("#game", "guess")
        lobby.click("button[type=submit]")
        row = lobby.locator("#link-list .watch-row")
        expect(row).to_have_count(1)
        watch_url = row.locator("input").input_value()
        assert watch_url.startswith(server.url + "/play#" + WATCH_PREFIX)

        room = make_room(server, "guess", 5)
        page = pages.open(server.url + room["watch"])
        expect(page.locator("body")).to_have_attribute("data-watching", "true")
        expect(page.locator("#who")).to_contain_text("You are watching")
        expect(page.locator("#command")).to_be_hidden()
        expect(page.locator("#controls")).to_be_hidden()
        expect(page.locator("body")).to_have_attribute("data-version", "2")
        guess_first(server, room["seats"][0]["link"].removeprefix("/play#"))
        expect(page.locator("body")).to_have_attribute("data-version", "3")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#winners")).to_contain_text("wins.")
        expect(page.locator("#winners")).not_to_contain_text("You")
        expect(page.locator("#download")).to_be_hidden()
