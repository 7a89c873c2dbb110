"""Every game with secrets, over a real web server: a seat is sent the same bytes for two deals it cannot tell apart.

The games are :data:`tests.secret_games.GUESS` and every installed game that declares private information
(Leduc poker, once ``examples/leduc`` is installed: the CI step that installs it selects these tests with
``-k test_web_secrets``). For a seat ``s``, two seeds are found (on a plain :class:`~cheekymonkey.table.Table`,
which draws as a seeded room draws) whose games, played with the same choices, give ``s`` the same
information state step after step while the true states differ (another seat's hidden card). Both are then
played through the API: at each step, ``s``'s table (``/api/table``), its first stream message and, once the
game is over, its record are the same bytes in both rooms (their room ids aside). And what ``s`` is sent is
what the rules show it: the game's ``view`` for ``s`` and each event through ``event_for``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Iterator
from typing import Any

import pytest

from cheekymonkey.games import AnyGame, games
from cheekymonkey.table import Seat, Table, events_seen
from cheekymonkey.web import Limits, RoomManager
from cheekymonkey.web.app import CLAIM_PREFIX
from tests.secret_games import GUESS
from tests.web_support import LiveServer, call, live_server, open_stream, read_event

SECRET_GAMES: list[AnyGame] = [GUESS, *(game for game in games() if game.private_information)]
NAMES = ("Ann", "Bob")
SEEDS = 3000


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=500, rooms_per_minute=500, max_rooms=500)
    manager = RoomManager(allow_seeds=True, limits=limits)
    manager.games = (*manager.games, *(game for game in SECRET_GAMES if game not in manager.games))
    with live_server(manager) as running:
        yield running


def choice(step: int, count: int) -> int:
    """The index of the move played at ``step`` among ``count`` legal ones: the same in every game played."""
    return random.Random(7919 * step + 1).randrange(count)


def played(game: AnyGame, seed: int, seat: int) -> tuple[list[Hashable], Any]:
    """``seat``'s information state after each step of the game a room with ``seed`` plays, and the last state."""
    table = Table(game, [Seat.person(name) for name in NAMES], ruleset=game.ruleset(game.preset_names()[0]), seed=seed)
    table.advance(bots=False)
    seen = [game.information_state(table.state, seat)]
    while not table.finished:
        legal = table.legal_actions()
        table.play(legal[choice(len(seen), len(legal))])
        table.advance(bots=False)
        seen.append(game.information_state(table.state, seat))
    return seen, table.state


def twins(game: AnyGame, seat: int) -> tuple[int, int, int, bool]:
    """Two seeds, how many steps their games look alike to ``seat``, and whether that is to the end.

    The pair whose true states differ after the deal and that ``seat`` cannot tell apart longest (to the
    end of the game if any pair of the first :data:`SEEDS` seeds does).
    """
    runs = {seed: played(game, seed, seat) for seed in range(SEEDS)}
    whole: dict[tuple[Hashable, ...], int] = {}
    for seed, (seen, last) in runs.items():
        other = whole.setdefault(tuple(seen), seed)
        if other != seed and runs[other][1] != last:
            return other, seed, len(seen), True
    best = (-1, -1, 0, False)
    first: dict[Hashable, int] = {}
    for seed, (seen, last) in runs.items():
        other = first.setdefault(seen[0], seed)
        theirs, their_last = runs[other]
        if other == seed or their_last == last:
            continue
        alike = 0
        while alike < min(len(seen), len(theirs)) and seen[alike] == theirs[alike]:
            alike += 1
        if alike > best[2]:
            best = (other, seed, alike, False)
    assert best[2] >= 1, f"no two of the first {SEEDS} seeds deal the seat alike and the others differently"
    return best


def make(server: LiveServer, game: AnyGame, seed: int) -> tuple[str, list[str]]:
    """A room of ``game`` with ``seed``: its id and each seat's token (the second claimed with its link)."""
    body = {"game": game.name, "preset": game.preset_names()[0], "seats": [{"name": n} for n in NAMES], "seed": seed}
    status, room = call(server, "POST", "/api/rooms", body)
    assert status == 201, room
    tokens = [room["seats"][0]["link"].removeprefix("/play#")]
    code = room["seats"][1]["link"].removeprefix("/play#" + CLAIM_PREFIX)
    status, claimed = call(server, "POST", "/api/claim", {"claim": code})
    assert status == 200, claimed
    return room["room"], [*tokens, claimed["token"]]


def seen_bytes(message: dict[str, Any]) -> str:
    return json.dumps({key: value for key, value in message.items() if key != "room"}, sort_keys=True)


def first_streamed(server: LiveServer, token: str) -> dict[str, Any]:
    connection, response = open_stream(server, token)
    try:
        return read_event(response)
    finally:
        connection.close()


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("game", SECRET_GAMES, ids=lambda game: game.name)
def test_web_secrets_every_route_gives_a_seat_the_same_bytes_for_deals_it_cannot_tell_apart(
    server: LiveServer, game: AnyGame, seat: int
) -> None:
    one, two, alike, whole = twins(game, seat)
    if game.name == "leduc":  # a hand ended by a fold: the folded card is never shown, so a pair runs to the end
        assert whole
    rooms = [make(server, game, seed) for seed in (one, two)]
    held = [server.manager.rooms[room_id] for room_id, _ in rooms]
    assert held[0].table.state != held[1].table.state  # the deals differ...
    step = 0
    compared = 0
    while True:
        tables = [call(server, "GET", "/api/table", token=tokens[seat])[1] for _, tokens in rooms]
        if step < alike:  # ...and while the seat cannot tell them apart, it is sent the same bytes
            assert seen_bytes(tables[0]) == seen_bytes(tables[1]), f"step {step}"
            compared += 1
            if step == 0:
                streamed = [first_streamed(server, tokens[seat]) for _, tokens in rooms]
                assert seen_bytes(streamed[0]) == seen_bytes(streamed[1]) == seen_bytes(tables[0])
        # What the seat is sent is what the rules show it: its view, each event as it sees it.
        kept = held[0]
        documents = game.documents()
        assert tables[0]["view"] == documents.to_document(game.view(kept.table.state, seat))
        assert [item["event"] for item in tables[0]["events"]] == [
            documents.to_document(event) for event in events_seen(game, kept.table.events, seat)
        ]
        if kept.finished:
            break
        mover = kept.table.to_move
        assert mover is not None
        step += 1
        for (_, tokens), room in zip(rooms, held, strict=True):
            if room.finished or room.table.to_move != mover:
                assert step > alike  # only once the two games can be told apart
                continue
            legal = call(server, "GET", "/api/table", token=tokens[mover])[1]["legal"]
            text = legal[choice(step, len(legal))]["text"]
            status, answer = call(
                server, "POST", "/api/move", {"version": room.version, "text": text}, token=tokens[mover]
            )
            assert status == 200, answer
    assert compared == min(alike, step + 1)
    records = [call(server, "GET", "/api/record", token=tokens[seat]) for _, tokens in rooms]
    assert records[0][0] == 200
    assert records[0][1]["kind"] == "seat-record"
    assert "actions" not in records[0][1]
    assert records[0][1]["seed"] is None
    if whole:  # the seat could not tell the games apart to the end: its records are the same bytes too
        assert json.dumps(records[0][1], sort_keys=True) == json.dumps(records[1][1], sort_keys=True)
