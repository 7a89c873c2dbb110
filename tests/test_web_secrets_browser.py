"""A seat link of a game with secrets in Chromium: claimed by the first browser that opens it, and by no other.

The game is :data:`tests.secret_games.GUESS`, served beside the installed games by a real uvicorn server; each
person is a browser context of its own (its own storage), driven through Playwright.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from cheekymonkey.web.app import CLAIM_PREFIX
from tests.secret_games import GUESS
from tests.web_support import LiveServer, browser_rooms, call, chromium, live_server, open_pages


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    manager = browser_rooms()
    manager.games = (*manager.games, GUESS)
    with live_server(manager) as running:
        yield running


def guess_room(server: LiveServer, seed: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "guess", "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    if seed is not None:
        body["seed"] = seed
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def test_web_secrets_a_link_handed_on_opens_in_the_first_browser_only_and_stays_open_there(
    server: LiveServer,
) -> None:
    """Bob's browser claims his seat (and keeps it on reload); the maker's copy of the link then opens nothing."""
    with chromium() as browser, open_pages(browser) as pages:
        room = guess_room(server, 6)
        link = room["seats"][1]["link"]
        assert link.startswith("/play#" + CLAIM_PREFIX)
        ann = pages.open(server.url + room["seats"][0]["link"])
        expect(ann.locator("#who")).to_contain_text("You are Ann (seat 0)")
        bob = pages.open(server.url + link)
        expect(bob.locator("#who")).to_contain_text("You are Bob (seat 1)")
        expect(bob.locator("#who")).to_contain_text("chosen seed")  # a seeded room says so
        bob.reload()  # the same browser opens its seat again: the token is kept in it
        expect(bob.locator("#who")).to_contain_text("You are Bob (seat 1)")
        copy = pages.open(server.url + link)  # the maker's copy of Bob's link, in another browser
        expect(copy.locator("#fatal")).to_be_visible()
        expect(copy.locator("#fatal-reason")).to_contain_text("already been opened in another browser")
        expect(copy.locator("#board")).to_be_hidden()
        assert copy.evaluate("document.body.dataset.room") is None  # it was never sent the table

        unseeded = guess_room(server, None)
        bob_again = pages.open(server.url + unseeded["seats"][1]["link"])
        expect(bob_again.locator("#who")).to_contain_text("You are Bob (seat 1)")
        expect(bob_again.locator("#who")).not_to_contain_text("seed")
