"""The web front end in a real browser: the machine's Chromium, driven by Playwright, against uvicorn.

Each test plays through the page as a person would (clicks, keys, typed moves) and checks the result on the
page and in the room's full state on the server. Without Chromium these tests fail, saying how to install it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from cheekymonkey import Animal, Claim, apply, legal_actions, new_game, sample_chance, score
from cheekymonkey.actions import Draw
from cheekymonkey.errors import IllegalActionError
from cheekymonkey.serialization import to_document
from cheekymonkey.web import Room, RoomManager
from tests.web_support import CHROMIUM_MISSING, LiveServer, call, chromium_path, live_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(RoomManager(allow_seeds=True, bot_delay=0.0)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    if executable is None:
        pytest.fail(CHROMIUM_MISSING)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        try:
            yield launched
        finally:
            launched.close()


_REFUSED = "Failed to load resource: the server responded with a status of 409"


class Pages:
    """Opens pages in separate browser contexts (separate people) and fails on any script error."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self._contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str, *, width: int = 1000, height: int = 900) -> Page:
        context = self._browser.new_context(viewport={"width": width, "height": height})
        self._contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)
        page.goto(url)
        return page

    def _console(self, message: Any) -> None:
        # A refused move is an answer the page shows, not a script error (the browser logs its status).
        if message.type == "error" and not message.text.startswith(_REFUSED):
            self.errors.append(message.text)

    def close(self) -> None:
        for context in self._contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert opened.errors == [], "the page reported script errors"


def make_room(server: LiveServer, names: list[str], seed: int, bots: dict[int, str] | None = None) -> dict[str, Any]:
    seats = [{"name": n, **({"bot": bots[i]} if bots and i in bots else {})} for i, n in enumerate(names)]
    status, room = call(server, "POST", "/api/rooms", {"preset": "standard", "seats": seats, "seed": seed})
    assert status == 201, room
    assert isinstance(room, dict)
    return room


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def after_move(page: Page, before: int) -> None:
    """Wait until the page shows a table newer than ``before``."""
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def assert_buttons_are_the_legal_actions(page: Page, room: Room) -> None:
    """The page's move buttons are exactly the seat's legal actions, in order, once it shows the room's table."""
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=room.version)
    shown = [json.loads(b.get_attribute("data-action") or "") for b in page.locator("#actions button").all()]
    documents = [to_document(action) for action in legal_actions(room.state)]
    legal = [{k: v for k, v in document.items() if k not in ("format", "kind")} for document in documents]
    assert shown == legal


def test_a_whole_game_against_a_bot_from_the_lobby_to_the_score_sheet(server: LiveServer, pages: Pages) -> None:
    page = pages.open(server.url + "/")
    page.click("#remove-seat")  # the lobby offers you and two bots; play one
    page.fill("#seat-name-0", "Ann")
    page.fill("#seed", "7")
    page.click("button[type=submit]")
    page.click("text=Take this seat")
    expect(page.locator("#status")).to_have_text(re.compile("Your turn|thinking|to move"))
    room = server.manager.rooms[page.get_attribute("body", "data-room") or ""]
    moves = 0
    while True:
        page.wait_for_selector("#actions button:enabled, #score:not([hidden])")
        if page.is_visible("#score"):
            break
        assert_buttons_are_the_legal_actions(page, room)
        before = version(page)
        odds = page.text_content("#odds") or ""
        risky = re.search(r"(\d+)% chance", odds)
        if page.locator("#actions .action-place").count():
            page.locator("#actions .action-place").first.click()
        elif page.locator("#actions .action-claim").count():
            page.locator("#actions .action-claim").first.click()
        elif page.locator("#actions .action-draw").count() and risky and int(risky.group(1)) < 25:
            page.keyboard.press("d")  # the keyboard works as well as the buttons
        elif page.locator("#actions .action-herd").count():
            page.keyboard.press("h")
        else:
            page.keyboard.press("s")
        after_move(page, before)
        moves += 1
        assert moves < 300, "the game did not end"
    assert room.over
    sheet = score(room.state)
    rows = page.locator("#sheet tbody tr")
    expect(rows).to_have_count(2)
    for seat, line in enumerate(sheet.seats):
        expect(rows.nth(seat).locator(".total")).to_have_text(str(line.total))
    winners = " and ".join(["You" if seat == 0 else "Heuristic bot 1" for seat in sheet.winners])
    expect(page.locator("#winners")).to_contain_text(winners)
    expect(page.locator("#log li").first).to_contain_text("The game is over")
    expect(page.locator("#status")).to_have_text("Game over.")


def test_a_second_player_joins_by_link_and_sees_moves_without_reloading(server: LiveServer, pages: Pages) -> None:
    room = make_room(server, ["Ann", "Bob"], seed=3)
    held = server.manager.rooms[room["room"]]
    ann = pages.open(server.url + room["seats"][0]["link"])
    bob = pages.open(server.url + room["seats"][1]["link"], width=390, height=800)  # a phone
    expect(bob.locator("#status")).to_have_text("Ann is to move.")
    expect(ann.locator("#status")).to_have_text("Your turn.")
    bob.evaluate("window.stillTheSamePage = true")

    ann.keyboard.press("d")
    expect(bob.locator("#log li").first).to_contain_text(re.compile(r"^\d+Ann drew an? \w+"))
    expect(bob.locator("#bag-size")).to_have_text(str(held.state.bag_size))
    if held.state.seat == 0:  # no bust: Ann stops, stacking in the order shown first
        before = version(ann)
        ann.keyboard.press("s")
        # The key press reaches the server asynchronously: wait for its table before reading the room's state.
        after_move(ann, before)
        while held.state.seat == 0:
            before = version(ann)
            ann.locator("#actions .action-place").first.click()
            after_move(ann, before)
    expect(bob.locator("#status")).to_have_text("Your turn.")
    height = held.state.stacks[0]
    expect(bob.locator("#seats .seat").first.locator(".height")).to_contain_text(f"{len(height)} token")

    bob.keyboard.press("d")
    expect(ann.locator("#log li").first).to_contain_text(re.compile(r"^\d+Bob drew"))
    assert bob.evaluate("window.stillTheSamePage") is True


def test_an_illegal_move_is_shown_with_the_library_reason(server: LiveServer, pages: Pages) -> None:
    room = make_room(server, ["Ann", "<b>Bob</b>"], seed=5)
    held = server.manager.rooms[room["room"]]
    before = held.state
    with pytest.raises(IllegalActionError) as expected:
        apply(before, Claim(1))
    ann = pages.open(server.url + room["seats"][0]["link"])
    expect(ann.locator("#status")).to_have_text("Your turn.")
    ann.fill("#command-text", "c 1")
    ann.press("#command-text", "Enter")
    expect(ann.locator("#error")).to_have_text(str(expected.value))
    assert held.state is before
    assert held.version == 0
    # Names are text, never markup: the seat shows the brackets, and no element came of them.
    expect(ann.locator("#seats .seat").nth(1).locator(".seat-name")).to_have_text("<b>Bob</b>")
    assert ann.locator("#seats b").count() == 0

    bob = pages.open(server.url + room["seats"][1]["link"])
    expect(bob.locator("#status")).to_have_text("Ann is to move.")
    assert bob.locator("#actions button").count() == 0  # only the legal actions, and Bob has none
    bob.fill("#command-text", "d")
    bob.press("#command-text", "Enter")
    expect(bob.locator("#error")).to_have_text("it is Ann's turn (seat 0), not seat 1's")
    assert held.state is before
    assert held.version == 0


def three_different_first_draws() -> tuple[int, tuple[Animal, ...]]:
    """A seed whose first three draws differ, so the first player can stop with three animals to order."""
    for seed in range(200):
        rng = random.Random(seed)  # the room resolves chance with random.Random(seed), as here
        state = new_game(2)
        state = apply(state, sample_chance(state, rng))
        for _ in range(2):
            state = apply(apply(state, Draw()), sample_chance(apply(state, Draw()), rng))
        if len(set(state.front)) == 3 and state.seat == 0:
            return seed, state.front
    raise AssertionError("no seed in range(200) draws three different animals first")


def test_a_stacking_order_chosen_on_the_page_ends_up_on_the_stack(server: LiveServer, pages: Pages) -> None:
    seed, front = three_different_first_draws()
    room = make_room(server, ["Ann", "Bob"], seed=seed)
    held = server.manager.rooms[room["room"]]
    ann = pages.open(server.url + room["seats"][0]["link"])
    for _ in range(2):
        before = version(ann)
        ann.click("#actions .action-draw")
        after_move(ann, before)
    assert held.state.front == front
    expect(ann.locator("#front .token-name")).to_have_text([a.label for a in front])
    before = version(ann)
    ann.click("#actions .action-stop")
    after_move(ann, before)
    expect(ann.locator("#status")).to_have_text("Your turn: stack your tokens.")
    expect(ann.locator("#actions .action-place")).to_have_count(3)
    order = (front[2], front[0], front[1])  # bottom first: not the order they came in
    before = version(ann)
    ann.click(f"#actions .action-place:has-text('{order[0].label}')")
    after_move(ann, before)
    expect(ann.locator("#actions .action-place")).to_have_count(2)
    before = version(ann)
    ann.keyboard.press(order[1].name.lower()[0])  # the animal's initial puts it down next
    after_move(ann, before)
    assert held.state.stacks[0] == order  # the last one went on by itself, on top
    mine = ann.locator("#seats .seat.mine")
    expect(mine.locator(".stack-top .token-name")).to_have_text(order[2].label)
    expect(mine.locator(".height")).to_have_text(f"3 tokens, {order[2].label} on top")
    expect(ann.locator("#log li.log-stacked")).to_have_text(
        [
            re.compile(rf"^\d+You put {order[1].label} and {order[2].label} on your stack\.$"),
            re.compile(rf"^\d+You put {order[0].label} on your stack\.$"),
        ]
    )
