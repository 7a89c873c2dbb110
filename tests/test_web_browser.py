"""The web front end in a real browser: the machine's Chromium, driven by Playwright, against uvicorn.

Each test plays through the page as a person would (clicks, keys, typed moves) and checks the result on the
page and in the room's table on the server. Without Chromium these tests fail, saying how to install it.
Screenshots of the phone-width checks are written to pytest's temporary folder, to be looked at.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cheekymonkey import CHEEKY_MONKEY, ActionTextError, Animal, Claim, apply, new_game, sample_chance, score
from cheekymonkey.cheeky.actions import Draw, Stop
from cheekymonkey.cheeky.documents import load_record, to_document
from cheekymonkey.games import DEFAULT_GAME, GAME_NAMES, game_named
from cheekymonkey.refusals import refusal_text
from cheekymonkey.table import Table
from cheekymonkey.web import Room, RoomManager, SeatSpec
from cheekymonkey.web.store import SqliteStore
from tests.web_support import HOLD_MOVES, LiveServer, Pages, browser_rooms, live_server, make_room

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(browser_rooms()) as running:
        yield running


def held(server: LiveServer, room: dict[str, Any] | str) -> Room:
    return server.manager.rooms[room if isinstance(room, str) else room["room"]]


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or "-1")


def after_move(page: Page, before: int) -> None:
    """Wait until the page shows a table newer than ``before``."""
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def told(room: Room, viewer: int, types: set[str] | None = None) -> list[str]:
    """The room's events as ``viewer`` reads them (the game's own narration), newest first as the log shows them."""
    table = room.table
    return [
        CHEEKY_MONKEY.event_text(event, table.names, viewer)
        for event in reversed(table.events)
        if types is None or to_document(event)["type"] in types
    ]


def assert_buttons_are_the_legal_actions(page: Page, room: Room) -> None:
    """The page's move buttons are exactly the seat's legal actions, in order, once it shows the room's table."""
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=room.version)
    shown = [json.loads(b.get_attribute("data-action") or "") for b in page.locator("#actions button").all()]
    documents = [to_document(action) for action in room.table.legal_actions()]
    legal = [{k: v for k, v in document.items() if k not in ("format", "kind")} for document in documents]
    assert shown == legal


def test_a_whole_game_against_a_bot_from_the_lobby_to_the_score_sheet_and_its_record(
    server: LiveServer, pages: Pages, tmp_path: Path
) -> None:
    """From the lobby through a whole game to the score sheet, then the record downloads and replays the game."""
    page = pages.open(server.url + "/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#seat-name-0")).to_have_value("Player 0")  # neutral: not "You"
    expect(page.locator("#seat-kind-1 option[value=mcts]")).to_have_text("MCTS bot")
    page.click("#remove-seat")  # the lobby offers a person and two bots; play one
    page.fill("#seat-name-0", "Ann")
    page.fill("#seed", "7")
    posted: list[dict[str, Any]] = []
    page.on(
        "request", lambda r: posted.append(json.loads(r.post_data or "{}")) if r.url.endswith("/api/move") else None
    )
    page.click("button[type=submit]")
    page.click("text=Take this seat")
    expect(page.locator("#status")).to_have_text(re.compile("Your turn|thinking|to move"))
    room = held(server, page.get_attribute("body", "data-room") or "")
    moves = 0
    while True:
        page.wait_for_selector("#actions button:enabled, #result:not([hidden])")
        if page.is_visible("#result"):
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
    assert room.table.over
    # Every move named the version of the table it was chosen from.
    assert posted
    assert all(isinstance(body.get("version"), int) for body in posted)
    sheet = score(room.table.state)
    rows = page.locator("#sheet tbody tr")
    expect(rows).to_have_count(2)
    for seat, line in enumerate(sheet.seats):
        expect(rows.nth(seat).locator(".total")).to_have_text(str(line.total))
    winners = sheet.winners
    expected = "You win." if winners == (0,) else "Heuristic bot 1 wins." if winners == (1,) else "share the win"
    expect(page.locator("#winners")).to_contain_text(expected)
    expect(page.locator("#log li").first).to_have_text(re.compile(re.escape(told(room, 0)[0]) + "$"))
    expect(page.locator("#status")).to_have_text("Game over.")
    assert page.locator("#front-title").count() == 0  # no empty "In front" panel after the game
    assert not page.is_visible("#command")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = load_record(saved.read_text())
    assert Table.from_record(CHEEKY_MONKEY, record).state == room.table.state
    assert record.names == ("Ann", "Heuristic bot 1")


def test_a_second_player_joins_by_link_and_sees_moves_without_reloading(server: LiveServer, pages: Pages) -> None:
    """Bob's page follows Ann's moves as they happen, narrated for Bob, with no reload."""
    room = make_room(server, "Ann", "Bob", seed=3)
    kept = held(server, room)
    ann = pages.open(server.url + room["seats"][0]["link"])
    bob = pages.open(server.url + room["seats"][1]["link"], width=390, height=844)  # a phone
    expect(bob.locator("#status")).to_have_text("Ann is to move.")
    expect(ann.locator("#status")).to_have_text("Your turn.")
    bob.evaluate("window.stillTheSamePage = true")

    before = version(ann)
    ann.keyboard.press("d")
    after_move(ann, before)
    expect(bob.locator("#log li").first).to_contain_text(re.compile(r"^\d+Ann draws an? \w+"))
    expect(bob.locator("#bag-size")).to_have_text(str(kept.table.state.bag_size))
    if kept.table.state.seat == 0:  # no bust: Ann stops, stacking in the order shown first
        expect(ann.locator('#actions button[data-key="s"]')).to_be_enabled()
        before = version(ann)
        ann.keyboard.press("s")
        # The key press reaches the server asynchronously: wait for its table before reading the room's state.
        after_move(ann, before)
        while kept.table.state.seat == 0:
            before = version(ann)
            ann.locator("#actions .action-place").first.click()
            after_move(ann, before)
    expect(bob.locator("#status")).to_have_text("Your turn.")
    height = kept.table.state.stacks[0]
    expect(bob.locator("#board .seat").first.locator(".height")).to_contain_text(f"{len(height)} token")

    bob.keyboard.press("d")
    expect(ann.locator("#log li").first).to_contain_text(re.compile(r"^\d+Bob draws"))
    expect(bob.locator("#log li").first).to_contain_text(re.compile(r"^\d+You draw"))
    assert bob.evaluate("window.stillTheSamePage") is True


def test_a_key_plays_as_soon_as_its_table_shows_and_never_twice_while_its_move_is_on_its_way(
    server: LiveServer, pages: Pages
) -> None:
    """A key plays its move the moment its table shows, though the last move's answer is still held back.

    A key pressed again before its move reaches the server sends nothing more.
    """
    seed, front = three_different_first_draws()
    room = make_room(server, "Ann", "Bob", seed=seed)
    kept = held(server, room)
    ann = pages.open(server.url + room["seats"][0]["link"])
    expect(ann.locator('#actions button[data-key="d"]')).to_be_enabled()
    ann.evaluate(HOLD_MOVES)
    ann.evaluate("window.holdMode = 'answer'")
    for sent in (1, 2):
        before = version(ann)
        ann.keyboard.press("d")
        after_move(ann, before)  # the event stream's table
        assert ann.evaluate("[window.movesSent, window.answersGiven]") == [sent, 0]  # no answer yet
        expect(ann.locator('#actions button[data-key="d"]')).to_be_enabled()
    assert kept.table.state.front == front  # both draws played
    # The move on its way from the table shown: its buttons wait, and its key, pressed again, is not sent.
    ann.evaluate("window.holdMode = 'request'")
    before = version(ann)
    ann.keyboard.press("s")
    expect(ann.locator("#actions button").first).to_be_disabled()
    expect(ann.locator("#actions")).to_have_attribute("aria-busy", "true")
    ann.keyboard.press("s")
    assert ann.evaluate("window.movesSent") == 3
    assert version(ann) == before == kept.version  # the stop has not reached the server
    ann.evaluate("window.release()")
    after_move(ann, before)
    assert [a for a in kept.table.actions if isinstance(a, Stop)] == [Stop()]
    expect(ann.locator("#status")).to_have_text("Your turn: stack your tokens.")
    expect(ann.locator("#actions .action-place")).to_have_count(3)
    expect(ann.locator("#actions button").first).to_be_enabled()
    ann.wait_for_function("() => window.answersGiven === window.movesSent")  # every answer came, late
    expect(ann.locator("#error")).to_have_text("")


def test_a_refused_move_is_shown_with_the_library_reason(server: LiveServer, pages: Pages) -> None:
    """A typed move the rules refuse, and a move out of turn, show the library's reason; the room is unchanged."""
    room = make_room(server, "Ann", "<b>Bob</b>", seed=5)
    kept = held(server, room)
    before = kept.table.state
    with pytest.raises(ActionTextError, match=r"\(R7\)") as refusal:
        CHEEKY_MONKEY.parse_actions("c 1", before)  # the engine's own reason, its rule last
    with pytest.raises(ValueError, match="R7"):
        apply(before, Claim(1))
    ann = pages.open(server.url + room["seats"][0]["link"])
    expect(ann.locator("#status")).to_have_text("Your turn.")
    ann.fill("#command-text", "c 1")
    ann.press("#command-text", "Enter")
    # The reason as the terminal gives it: the rule named in words, never a bare number.
    expect(ann.locator("#error")).to_contain_text(f"'c 1': {refusal_text(CHEEKY_MONKEY, refusal.value.reason)}")
    expect(ann.locator("#error")).to_contain_text("(rule R7, Claims)")
    assert kept.table.state is before
    # Names are text, never markup: the seat shows the brackets, and no element came of them.
    expect(ann.locator("#board .seat").nth(1).locator(".seat-name")).to_have_text("<b>Bob</b>")
    assert ann.locator("#board b").count() == 0

    bob = pages.open(server.url + room["seats"][1]["link"])
    expect(bob.locator("#status")).to_have_text("<b>Bob</b>".replace("<b>Bob</b>", "Ann is to move."))
    assert bob.locator("#actions button").count() == 0  # only the legal actions, and Bob has none
    bob.fill("#command-text", "d")
    bob.press("#command-text", "Enter")
    # Said to Bob, before anything is sent: whose turn it is.
    expect(bob.locator("#error")).to_have_text("It is not your turn: Ann is to move. Send your move when it is yours.")
    assert kept.table.state is before


def three_different_first_draws() -> tuple[int, tuple[Animal, ...]]:
    """A seed whose first three draws differ, so the first player can stop with three animals to order."""
    for seed in range(200):
        rng = random.Random(seed)  # a seeded table resolves chance with random.Random(seed), as here
        state = new_game(2)
        state = apply(state, sample_chance(state, rng))
        for _ in range(2):
            state = apply(apply(state, Draw()), sample_chance(apply(state, Draw()), rng))
        if len(set(state.front)) == 3 and state.seat == 0:
            return seed, state.front
    raise AssertionError("no seed in range(200) draws three different animals first")


def test_a_stacking_order_chosen_on_the_page_ends_up_on_the_stack(server: LiveServer, pages: Pages) -> None:
    """Three tokens put down in an order of the player's choosing, by click and by key, stack in that order."""
    seed, front = three_different_first_draws()
    room = make_room(server, "Ann", "Bob", seed=seed)
    kept = held(server, room)
    ann = pages.open(server.url + room["seats"][0]["link"])
    for _ in range(2):
        before = version(ann)
        ann.click("#actions .action-draw")
        after_move(ann, before)
    assert kept.table.state.front == front
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
    assert kept.table.state.stacks[0] == order  # the last one went on by itself, on top
    mine = ann.locator("#board .seat.mine")
    expect(mine.locator(".stack-top .token-name")).to_have_text(order[2].label)
    expect(mine.locator(".height")).to_have_text(f"3 tokens, {order[2].label} on top")
    # The three tokens put down one at a time are one move, and one line in the log, as at the terminal: the
    # whole stack in order, on the event that completed it (the tokens' events are still numbered and kept).
    stacked = [event for event in kept.table.events if to_document(event)["type"] == "stacked"]
    assert len(stacked) >= 2
    (merged,) = CHEEKY_MONKEY.merge_events(stacked)
    line = CHEEKY_MONKEY.event_text(merged, kept.table.names, 0)
    labels = f"{order[0].label}, {order[1].label} and {order[2].label}"
    assert line == f"You stack {labels}, bottom to top: the {order[2].label} on top."
    expect(ann.locator("#log li.log-stacked")).to_have_text([re.compile(rf"^\d+{re.escape(line)}$")])
    expect(ann.locator("#log li")).to_have_count(len(kept.table.events) - len(stacked) + 1)
    assert ann.locator("#log li", has_text="on top of your stack").count() == 0
    # A page opened now reads the room's whole log from the start: the same single line.
    again = pages.open(server.url + room["seats"][0]["link"])
    expect(again.locator("#log li.log-stacked")).to_have_text([re.compile(rf"^\d+{re.escape(line)}$")])


@pytest.mark.parametrize(
    ("fragment", "reason"),
    [
        ("#" + "A" * 43, "No open room has a seat for this link"),
        ("#%E0%A4%A", "This link is damaged"),
        ("#not a token!", "This link is damaged"),
        ("", "This page needs your seat's link"),
    ],
)
def test_a_bogus_seat_link_shows_a_clear_error_a_way_to_the_lobby_and_no_move_box(
    server: LiveServer, pages: Pages, fragment: str, reason: str
) -> None:
    """A link no room knows, or one mangled on its way, says so at once: no "Connecting..." for ever."""
    page = pages.open(server.url + "/play" + fragment, width=390, height=844)
    expect(page.locator("#fatal")).to_be_visible()
    expect(page.locator("#fatal-reason")).to_contain_text(reason)
    expect(page.locator("#status")).to_have_text("This seat cannot be opened.")
    lobby = page.locator("#fatal a")
    expect(lobby).to_have_attribute("href", "/")
    for part in ("#command", "#controls", "#board"):
        expect(page.locator(part)).to_be_hidden()


def words_broken_inside(page: Page, selector: str) -> list[str]:
    """The words of the elements matched that the browser laid out over more than one line."""
    broken: list[str] = page.evaluate(
        """selector => {
            const broken = [];
            for (const node of document.querySelectorAll(selector)) {
                const text = node.firstChild;
                if (!text || text.nodeType !== Node.TEXT_NODE) continue;
                const re = /\\S+/g;
                let m;
                while ((m = re.exec(text.data)) !== null) {
                    const range = document.createRange();
                    range.setStart(text, m.index);
                    range.setEnd(text, m.index + m[0].length);
                    const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
                    if (lines.size > 1) broken.push(m[0]);
                }
            }
            return broken;
        }""",
        selector,
    )
    return broken


@pytest.mark.parametrize("seats", [3, 6])
def test_at_phone_width_names_stay_whole_and_the_moves_are_above_the_fold(
    server: LiveServer, pages: Pages, tmp_path: Path, seats: int
) -> None:
    """At 390 by 844 pixels, no name breaks inside a word and Draw and Stop are on the first screen."""
    names = ["Annabelle", "Heuristic bot 1", "Expectimax bot 2", "MCTS bot 3", "Heuristic bot 4", "Random bot 5"]
    kinds = {1: "heuristic", 2: "expectimax", 3: "mcts", 4: "heuristic", 5: "random"}
    room = make_room(server, *names[:seats], seed=11, bots={i: kinds[i] for i in range(1, seats)})
    page = pages.open(server.url + room["seats"][0]["link"], width=390, height=844)
    expect(page.locator("#status")).to_have_text("Your turn.")
    page.screenshot(path=str(tmp_path / f"phone-{seats}-seats.png"))
    assert words_broken_inside(page, ".seat-name") == []
    expect(page.locator("#board .badge").nth(3 if seats > 3 else 2)).to_have_text(
        "MCTS bot" if seats > 3 else "Expectimax bot"
    )
    for button in ("#actions .action-draw", "#actions .action-stop"):
        box = page.locator(button).bounding_box()
        assert box is not None
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= 844, (button, box)
    # The move box's example moves are whole in the box, measured in the box's own font.
    room_left, needed = page.locator("#command-text").evaluate(
        """box => {
            const style = getComputedStyle(box);
            const pen = document.createElement("canvas").getContext("2d");
            pen.font = style.font;
            return [box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                    pen.measureText(box.placeholder).width];
        }"""
    )
    assert 0 < needed <= room_left


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_lobby_shows_every_seats_number_as_its_legend_promises_for_both_games(
    server: LiveServer, pages: Pages, width: int, height: int
) -> None:
    """Each seat row of the lobby shows its seat's number whole, 0 first as the legend says, for both games."""
    page = pages.open(server.url + "/", width=width, height=height)
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("fieldset legend", has_text="Seats")).to_have_text("Seats, in turn order (seat 0 starts)")
    # Every game, the default (selected as the lobby opens) last, so each selection changes the lobby.
    for game, title in [(name, game_named(name).title) for name in sorted(GAME_NAMES, key=lambda n: n == DEFAULT_GAME)]:
        page.select_option("#game", game)
        expect(page.locator("#title")).to_have_text(title)  # the game's seats are laid out with its title
        page.click("#add-seat")
        rows = page.locator("#seats .seat-row")
        expect(rows).to_have_count(4)
        shown = rows.evaluate_all(
            """rows => rows.map((row) => {
                const label = row.querySelector(".seat-number");
                const words = document.createRange();
                words.selectNodeContents(label.firstChild);  // the visible words, not the name read aloud after
                const seen = words.getBoundingClientRect();
                const inside = row.getBoundingClientRect();
                const whole = seen.width > 0 && seen.left >= inside.left && seen.right <= inside.right
                    && seen.right <= window.innerWidth && label.scrollWidth <= label.clientWidth;
                return [label.firstChild.textContent, whole, Number(getComputedStyle(label).fontSize.slice(0, -2))];
            })"""
        )
        assert [(words, whole) for words, whole, _ in shown] == [(f"Seat {i}", True) for i in range(4)]
        assert min(size for _, _, size in shown) >= 14
        for seat in range(4):  # the name box is read with its seat's number
            expect(page.locator(f"#seat-name-{seat}")).to_have_accessible_name(f"Seat {seat} name")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_damaged_room_shows_one_message_and_the_page_stops_asking_the_server(pages: Pages, tmp_path: Path) -> None:
    """A room whose rows cannot be read answers 410: the page says so once and sends no request after it.

    The page's clock is Playwright's fake one, run two minutes ahead after the message: a page that retried
    (its reconnection waits 0.5 s, then longer, up to 10 s) would send several requests meanwhile.
    """
    path = tmp_path / "rooms.sqlite3"

    async def make() -> dict[int, str]:
        manager = RoomManager(store=SqliteStore(str(path)), allow_seeds=True)
        room, tokens = await manager.create(
            CHEEKY_MONKEY, CHEEKY_MONKEY.ruleset(), [SeatSpec("Ann"), SeatSpec("Bob")], seed=3
        )
        await room.play(0, room.version, text="d")
        await manager.stop()
        return tokens

    with concurrent.futures.ThreadPoolExecutor(1) as worker:  # Playwright's own event loop runs in this thread
        tokens = worker.submit(asyncio.run, make()).result()
    with contextlib.closing(sqlite3.connect(path)) as db:  # one action row that is not JSON any more
        assert db.execute("UPDATE actions SET action = '{not json' WHERE number = 1").rowcount == 1
        db.commit()
    rooms = RoomManager(store=SqliteStore(str(path)), allow_seeds=True, bot_delay=0.0)
    with live_server(rooms) as damaged:
        page = pages.open(damaged.url + "/static/favicon.svg")
        page.clock.install()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url and "marker" not in r.url else None)
        page.goto(damaged.url + "/play#" + tokens[0])
        expect(page.locator("#fatal")).to_be_visible()
        expect(page.locator("#fatal-title")).to_have_text("This room is closed")
        expect(page.locator("#fatal-reason")).to_contain_text("damaged")
        expect(page.locator("#status")).to_have_text("This room is closed.")
        for hidden in ("#controls", "#board", "#command", "#result"):
            expect(page.locator(hidden)).to_be_hidden()
        assert [url.removeprefix(damaged.url) for url in asked] == ["/api/events?since=0"]
        for _ in range(12):
            page.clock.run_for(10_000)
            # A request of the test's own: whatever the page's timers started has been sent before it.
            assert page.evaluate("fetch('/api/options?marker').then(r => r.status)") == 200
            page.keyboard.press("d")  # no key sends a move either
        assert [url.removeprefix(damaged.url) for url in asked] == ["/api/events?since=0"]
