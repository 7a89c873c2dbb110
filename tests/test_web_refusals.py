"""A move the server refuses is told with its rule in words, as at the terminal: never a bare rule number.

The library's reasons cite rules by number (``"(R7)"``, ``"(TM11)"``); the page shows the server's reason as
it comes, so the server gives it the player's words (:func:`cheekymonkey.refusals.refusal_text`, the function
the terminal uses): each number followed by its rule's title. Checked against a real server for both games,
for a refused action (409) and a refused typed move (400), and for a game without rule words (its reason as
it is).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cheekymonkey.errors import CheekyMonkeyError, IllegalActionError
from cheekymonkey.games import game_named
from cheekymonkey.refusals import refusal_text, rules_of
from cheekymonkey.web import Limits, RoomManager
from tests.secret_games import GUESS, Guess
from tests.web_support import LiveServer, call, live_server

NUMBER = re.compile(r"\b(?:TME|TM|R|E)\d+\b")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    limits = Limits(rooms_per_client=100, rooms_per_minute=100, max_rooms=100)
    manager = RoomManager(allow_seeds=True, limits=limits)
    manager.games = (*manager.games, GUESS)
    with live_server(manager) as running:
        yield running


def _room(server: LiveServer, name: str, seed: int) -> tuple[Any, str]:
    body = {"game": name, "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": seed}
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    return server.manager.rooms[answer["room"]], answer["seats"][0]["link"].removeprefix("/play#")


def _refused_actions(game: Any, state: Any) -> list[tuple[Any, str]]:
    """Every action of the game's action space the rules refuse in ``state``, with the library's reason."""
    encoding = game.encoding(game.players(state))
    legal = game.legal_actions(state)
    refused = []
    for index in range(encoding.num_actions):
        try:
            action = encoding.decode(index, state)
        except CheekyMonkeyError:
            continue
        if action in legal:
            continue
        with pytest.raises(IllegalActionError) as caught:
            game.apply(state, action)
        refused.append((action, str(caught.value)))
    return refused


def _assert_in_words(name: str, reason: str, shown: str) -> None:
    """``shown`` names each rule ``reason`` cites with its title, and no rule number stands bare."""
    rules = rules_of(game_named(name))
    assert rules is not None
    cited = NUMBER.findall(reason)
    assert cited, reason  # the library's own reason cites its rule by number
    for number in cited:
        assert f"rule {number}, {rules.RULES[number][0]}" in shown, shown
    assert [m.group(0) for m in NUMBER.finditer(shown) if shown[max(0, m.start() - 5) : m.start()] != "rule "] == []


@pytest.mark.parametrize("name", ["cheeky-monkey", "too-many-monkeys"])
def test_a_refused_move_on_the_web_names_its_rule_in_words(server: LiveServer, name: str) -> None:
    """Every action the rules refuse at the first decision is answered 409 with the terminal's words, room unchanged."""
    room, token = _room(server, name, seed=4)
    game = room.game
    state, version = room.table.state, room.version
    refused = _refused_actions(game, state)
    assert refused
    for action, reason in refused:
        body = {"version": version, "action": game.documents().to_document(action)}
        status, answer = call(server, "POST", "/api/move", body, token=token)
        assert status == 409, answer
        assert answer["error"] == refusal_text(game, reason)
        assert answer["error"] != reason
        _assert_in_words(name, reason, answer["error"])
        assert answer["table"]["version"] == version
        assert room.table.state is state


@pytest.mark.parametrize(("name", "text"), [("cheeky-monkey", "c 1")])
def test_a_refused_typed_move_names_its_rule_in_words(server: LiveServer, name: str, text: str) -> None:
    """A typed move the rules refuse is answered 400 with the reason the terminal prints for it."""
    room, token = _room(server, name, seed=4)
    game = room.game
    with pytest.raises(CheekyMonkeyError) as caught:
        game.parse_actions(text, room.table.state)
    status, answer = call(server, "POST", "/api/move", {"version": room.version, "text": text}, token=token)
    assert status == 400
    assert answer["error"] == refusal_text(game, str(caught.value))
    _assert_in_words(name, str(caught.value), answer["error"])


def test_a_game_without_rule_words_has_its_reasons_as_they_are(server: LiveServer) -> None:
    """A game with no ``rule_words`` beside its binding (a plug-in's) is refused in its own words, unchanged."""
    assert rules_of(GUESS) is None
    assert refusal_text(GUESS, "no such card (R7)") == "no such card (R7)"
    room, token = _room(server, "guess", seed=1)
    state = room.table.state
    assert room.table.to_move == 0
    wrong = Guess(state.cards[0])  # seat 0's own card: never seat 1's
    assert wrong not in GUESS.legal_actions(state)
    with pytest.raises(IllegalActionError) as caught:
        GUESS.apply(state, wrong)
    body = {"version": room.version, "action": GUESS.documents().to_document(wrong)}
    status, answer = call(server, "POST", "/api/move", body, token=token)
    assert (status, answer["error"]) == (409, str(caught.value))
