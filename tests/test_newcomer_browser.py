"""A new player's trial in the browser: whole games of Too Many Monkeys from the lobby, at 1280x800 and 390x844.

Chromium, driven by Playwright, plays as a person would: the lobby, a room against a bot, then every move by a
click on one of the buttons (chosen at random, seeded), with the page's animations running. At each of the
person's turns the test checks what the first trial of a new player found: the buttons are the seat's legal
moves of the table the page shows, no card's words are cut off or too small and the move box's examples read
whole, the page is no wider than the screen; a move typed while a wild waits is refused with the rule's
reason; the result places every seat, draws the final rows once, and leaves no "game is over" card behind.
Screenshots are written to /tmp (``newcomer-<width>x<height>-<moment>.png``), to be looked at.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cheekymonkey.toomany import TOO_MANY_MONKEYS, Phase
from tests.test_web_browser_toomany import MEASURE, legal_documents, shows
from tests.web_support import LiveServer, Pages, browser_rooms, live_server

pytestmark = pytest.mark.slow

SHOTS = Path("/tmp")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(browser_rooms()) as running:
        yield running


@pytest.mark.parametrize(("width", "height", "seed"), [(1280, 800, 5), (390, 844, 8)])
def test_a_whole_game_against_a_bot_from_the_lobby_as_a_new_player_plays_it(
    server: LiveServer, pages: Pages, width: int, height: int, seed: int
) -> None:
    """The lobby, a room with a bot, every move clicked, the result: each of the first trial's findings checked."""
    name = f"newcomer-{width}x{height}"
    page = pages.open(server.url + "/", width=width, height=height)
    page.wait_for_selector("body[data-ready]")
    page.select_option("#game", TOO_MANY_MONKEYS.name)
    page.click("#remove-seat")  # a person and one bot
    numbers = page.locator("#seats .seat-row .seat-number")  # shown, as the legend says (then "name", read aloud)
    expect(numbers).to_have_text([re.compile(r"^Seat 0\b"), re.compile(r"^Seat 1\b")])
    page.select_option("#seat-kind-1", "heuristic")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seed", str(seed))
    page.screenshot(path=str(SHOTS / f"{name}-lobby.png"), full_page=True)
    page.click("button[type=submit]")
    page.click("text=Take this seat")
    page.wait_for_selector("#board .tm-seat")
    room = server.manager.rooms[page.get_attribute("body", "data-room") or ""]
    rng = random.Random(seed)
    refused = clicked = 0
    while True:
        page.wait_for_selector("#actions button:enabled, #result:not([hidden])")
        if page.is_visible("#result"):
            break
        assert room.table.to_move == 0
        shows(page, room)
        # The buttons are the legal moves of the table shown, enabled only once its picture is there.
        shown = [json.loads(b.get_attribute("data-action") or "") for b in page.locator("#actions button").all()]
        assert shown == legal_documents(room)
        measured = page.evaluate(MEASURE)
        assert measured["found"] == [], (room.version, measured["found"])
        # The hint is the game's own words, the terminal's (a discard too high for the row ends the turn).
        expect(page.locator("#hint")).to_have_text(TOO_MANY_MONKEYS.facts(room.table.state, 0).get("hint", ""))
        if room.table.state.phase is Phase.WILD and not refused:
            # A draw typed while the wild waits: refused with the rule's reason in words, not a bare number.
            before = room.version
            page.fill("#command-text", "d")
            page.press("#command-text", "Enter")
            expect(page.locator("#error")).to_contain_text(
                "'d': the wild in your hand must be placed first, on a face-down position of your row"
                " (rule TM11, Wild monkey)"
            )
            assert room.version == before  # nothing changed
            page.fill("#command-text", "")
            page.screenshot(path=str(SHOTS / f"{name}-wild-refused.png"), full_page=True)
            refused += 1
        before = room.version
        page.locator("#actions button").nth(rng.randrange(len(shown))).click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        clicked += 1
        assert clicked < 400, "the game did not end"
        if clicked == 10:
            page.screenshot(path=str(SHOTS / f"{name}-playing.png"), full_page=True)
    assert room.table.finished
    shows(page, room)
    page.screenshot(path=str(SHOTS / f"{name}-result.png"), full_page=True)
    outcome = room.table.outcome()
    assert outcome is not None
    (winner,) = outcome.winners
    expect(page.locator("#winners")).to_have_text("You win." if winner == 0 else "Heuristic bot 1 wins.")
    expect(page.locator("#placings tbody tr")).to_have_count(2)  # every seat placed, not only the winner
    expect(page.locator("#board .tm-seat")).to_have_count(2)  # the final rows once
    expect(page.locator("#result-detail .tm-seat")).to_have_count(0)
    expect(page.locator("#hand")).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text("game is over", ignore_case=True)
    expect(page.locator("#command")).to_be_hidden()  # no move box after the game (so its examples are not measured)
    found = page.evaluate(MEASURE)["found"]
    assert [item for item in found if not item.startswith("example moves")] == []
    assert refused == 1, "no wild came to the person: choose another seed"
