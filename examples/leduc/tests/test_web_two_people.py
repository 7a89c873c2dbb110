"""Leduc poker on the web for two people: the real ``cheekymonkey serve``, each person a Chromium context of its own.

Each page is held to what its seat may know: its own card and the public one before the showdown, never the
other's (neither in the text shown nor anywhere in the page's document); a seat's link opens in one browser
only; at the end each seat's record, downloaded from its page, holds what the rules reveal to it. The cards
a seeded room deals are known to the test from a plain :class:`~cheekymonkey.Table` with the same seed, which
draws as the room does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cheekymonkey.table import Seat, Table
from playwright.sync_api import Browser, Page, expect, sync_playwright

from cheekymonkey_leduc import CALL, FOLD, LEDUC, RAISE, Action
from cheekymonkey_leduc.rules import card_text

NAMES = ("Ann", "Bob")
_REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of (400|404|409|410)")


def _command() -> str:
    beside = Path(sys.executable).with_name("cheekymonkey")
    found = str(beside) if beside.is_file() else shutil.which("cheekymonkey")
    assert found, "the cheekymonkey command is not installed: pip install -e . -e examples/leduc"
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def call(url: str, method: str = "GET", body: object = None, token: str | None = None) -> tuple[int, Any]:
    """One request to the server; its status and its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, json.loads(refused.read())


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``cheekymonkey serve`` (uvicorn) offering Leduc poker alone, rooms in memory, seeds allowed; its address."""
    port = _free_port()
    args = ["serve", "--port", str(port), "--store", ":memory:", "--game", "leduc", "--allow-seeds"]
    url = f"http://127.0.0.1:{port}"
    with subprocess.Popen(
        [_command(), *args, "--bot-workers", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as process:
        try:
            deadline = time.monotonic() + 120  # a wide margin: a loaded machine starts it slowly
            while True:
                assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
                try:
                    if call(url + "/api/options")[0] == 200:
                        break
                except OSError:
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The machine's Chromium, headless."""
    executable = os.environ.get("CHEEKYMONKEY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "Chromium is not installed: apt-get install chromium (or run .ci/system-deps)"
    expect.set_options(timeout=60_000)  # a wide margin: a loaded machine slows the page, never fails it
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        yield launched
        launched.close()


class People:
    """Pages, each in a browser context of its own (its own storage: another person); script errors collected."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str) -> Page:
        context = self.browser.new_context(viewport={"width": 1000, "height": 900}, accept_downloads=True)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: self._console(message))
        page.goto(url)
        return page

    def _console(self, message: Any) -> None:
        if message.type == "error" and not _REFUSED.match(message.text):  # a refusal is an answer the page shows
            self.errors.append(message.text)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser: Browser) -> Iterator[People]:
    opened = People(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert opened.errors == [], "a page reported script errors"


def cards_in(text: str) -> set[str]:
    """Every card of the two-seat deck that ``text`` names."""
    return set(re.findall(r"(?<![A-Za-z0-9])[JQK][sh](?![A-Za-z0-9])", text))


def make_room(server: str, seed: int) -> dict[str, Any]:
    body = {"game": "leduc", "preset": "standard", "seats": [{"name": name} for name in NAMES], "seed": seed}
    status, room = call(server + "/api/rooms", "POST", body)
    assert status == 201, room
    assert isinstance(room, dict)
    return room


def dealt(seed: int, actions: list[Action]) -> Table[Any, Any, Any, Any, Any]:
    """A plain table of two people with ``seed``, its cards dealt and ``actions`` played: the room's twin."""
    table: Table[Any, Any, Any, Any, Any] = Table(LEDUC, [Seat.person(name) for name in NAMES], seed=seed)
    table.advance(bots=False)
    for action in actions:
        table.play(action)
        table.advance(bots=False)
    return table


def shown_on(page: Page, version: int) -> tuple[str, str]:
    """Once ``page`` shows the table at ``version``: the text it shows, and its whole document."""
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
    return page.locator("body").inner_text(), page.content()


def test_two_people_see_their_own_cards_until_the_showdown_and_their_records_hold_what_it_revealed(
    server: str, people: People
) -> None:
    """Seed 4012: Ann (Jh) raises, Bob (Kh) calls; Qh turned up; both check: a showdown, Bob takes 3 chips."""
    seed = 4012
    moves: list[tuple[int, str, Action]] = [
        (0, "Raise by 2", RAISE),
        (1, "Call 2", CALL),
        (0, "Check", CALL),
        (1, "Check", CALL),
    ]
    twin = dealt(seed, [])
    cards = [card_text(card) for card in twin.state.cards]
    assert cards == ["Jh", "Kh"]
    room = make_room(server, seed)
    token = room["seats"][0]["link"].removeprefix("/play#")
    bob_link = room["seats"][1]["link"]
    assert bob_link.startswith("/play#claim:")  # a game with secrets: the link is claimed by the first browser
    pages = [people.open(server + room["seats"][0]["link"]), people.open(server + bob_link)]
    for seat, page in enumerate(pages):
        expect(page.locator("#who")).to_contain_text(f"You are {NAMES[seat]} (seat {seat})")
    # Bob's link, once his browser holds it, opens nothing in another: the seat is not sent to a second person.
    intruder = people.open(server + bob_link)
    expect(intruder.locator("#fatal")).to_be_visible()
    expect(intruder.locator("#fatal-reason")).to_contain_text("already been opened in another browser")
    expect(intruder.locator("#board")).to_be_hidden()
    assert intruder.evaluate("document.body.dataset.room") is None  # it was never sent the table
    assert cards_in(intruder.content()) == set()

    played: list[Action] = []
    for mover, label, action in moves:
        status, table = call(server + "/api/table", token=token)
        assert status == 200
        assert table["to_move"] == mover
        public = twin.state.public
        for seat, page in enumerate(pages):
            text, document = shown_on(page, table["version"])
            allowed = {cards[seat]} | (set() if public is None else {card_text(public)})
            assert cards_in(text) == allowed, (seat, text)
            assert cards[1 - seat] not in cards_in(document), seat  # nowhere in the page, shown or hidden
            board = " ".join(page.locator("#board").inner_text().split())
            hands = ", ".join(f"{name} {cards[s] if s == seat else '?'}" for s, name in enumerate(NAMES))
            assert f"hands {hands}" in board  # the board holds a place for the other card, face down
        button = pages[mover].locator(f"#actions button:enabled[data-action*='actions:{type(action).__name__}\"']")
        expect(button).to_have_count(1)
        expect(button).to_have_text(label)  # the move in words, in chips: a call of nothing is a check
        button.click()
        played.append(action)
        twin = dealt(seed, played)

    assert twin.over
    returns = LEDUC.returns(twin.state)
    assert returns == (-3.0, 3.0)
    for seat, page in enumerate(pages):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#winners")).to_have_text("Bob wins. You come 2nd of 2." if seat == 0 else "You win.")
        board = " ".join(page.locator("#board").inner_text().split())
        assert "hands Ann Jh, Bob Kh" in board  # the showdown turns both hands up, to both
        showdown = "Showdown: You Jh, Bob Kh" if seat == 0 else "Showdown: Ann Jh, You Kh"
        expect(page.locator("#log")).to_contain_text(showdown)
        expect(page.locator("#log")).to_contain_text("Paid: You -3, Bob +3" if seat == 0 else "Paid: Ann -3, You +3")
        with page.expect_download() as downloading:
            page.locator("#download").click()
        record = json.loads(Path(downloading.value.path()).read_text(encoding="utf-8"))
        assert record["kind"] == "seat-record"
        assert record["seat"] == seat
        assert record["seed"] is None  # a seat's record never holds the seed
        assert "actions" not in record  # nor the true deal: what the seat was shown, event by event
        deals = [
            e["event"]["value"]["fields"] for e in record["events"] if e["event"]["value"]["type"].endswith("Dealt")
        ]
        assert [(d["seat"], d["card"]) for d in deals] == [
            (0, twin.state.cards[0] if seat == 0 else None),
            (1, twin.state.cards[1] if seat == 1 else None),
            (None, twin.state.public),
        ]
        view = record["view"]["value"]["fields"]
        assert view["hands"] == ["Jh", "Kh"]
        assert record["returns"] == [-3.0, 3.0]


def test_a_folded_hand_is_in_no_record_but_its_own_seats(server: str, tmp_path: Path) -> None:
    """Seed 4012 again, through the API: Ann raises and Bob folds. Ann's record never holds Bob's Kh; Bob's does.

    Saved to a file, a seat's record is refused by ``cheekymonkey replay``, which says what it is: it has no deal.
    """
    room = make_room(server, 4012)
    tokens = [room["seats"][0]["link"].removeprefix("/play#")]
    status, claimed = call(
        server + "/api/claim", "POST", {"claim": room["seats"][1]["link"].removeprefix("/play#claim:")}
    )
    assert status == 200, claimed
    tokens.append(claimed["token"])
    for seat, text in ((0, "raise"), (1, "fold")):
        version = call(server + "/api/table", token=tokens[seat])[1]["version"]
        status, answer = call(server + "/api/move", "POST", {"version": version, "text": text}, token=tokens[seat])
        assert status == 200, answer
    records = [call(server + "/api/record", token=token) for token in tokens]
    assert [status for status, _ in records] == [200, 200]
    ann, bob = (record for _, record in records)
    assert ann["view"]["value"]["fields"]["hands"] == ["Jh", "?"]
    assert bob["view"]["value"]["fields"]["hands"] == ["?", "Kh"]
    assert ann["returns"] == [1.0, -1.0]
    assert "Showdown" not in json.dumps(ann)
    assert cards_in(json.dumps(ann["view"])) == {"Jh"}
    ann_deals = [e["event"]["value"]["fields"] for e in ann["events"] if e["event"]["value"]["type"].endswith("Dealt")]
    assert [(d["seat"], d["card"]) for d in ann_deals] == [(0, 1), (1, None)]  # Jh is card 1; Kh (5) never sent
    saved = tmp_path / "ann.json"
    saved.write_text(json.dumps(ann), encoding="utf-8")
    replayed = subprocess.run(
        [_command(), "replay", "--no-step", str(saved)], capture_output=True, text=True, timeout=300, check=False
    )
    assert replayed.returncode == 2
    assert replayed.stdout == ""
    assert f"{saved} is one seat's record of a game with hidden cards" in replayed.stderr
    assert "Traceback" not in replayed.stderr


def waiting_for_ann(server: str, token: str, betting: str) -> dict[str, Any]:
    """The table once Ann is to move with the ``betting`` so far (the bot's answer made); polled in a wide budget."""
    deadline = time.monotonic() + 120
    while True:
        status, table = call(server + "/api/table", token=token)
        assert status == 200, table
        if table["to_move"] == 0 and table["view"]["value"]["fields"]["betting"] == betting:
            return dict(table)
        assert time.monotonic() < deadline, table
        time.sleep(0.05)


def against_the_bot(seed: int, answers: list[Action]) -> Table[Any, Any, Any, Any, Any]:
    """A plain table of Ann against the heuristic bot Hal with ``seed``, Ann answering ``answers`` in turn."""
    table: Table[Any, Any, Any, Any, Any] = Table(
        LEDUC, [Seat.person("Ann"), Seat.bot(LEDUC, "heuristic", "Hal")], seed=seed
    )
    table.advance()
    for action in answers:
        table.play(action)
        table.advance()
    return table


@pytest.mark.parametrize(
    ("answers", "showdown"),
    [([CALL] * 4, True), ([CALL, FOLD], False)],
    ids=["calling-to-a-showdown", "folding-to-its-raise"],
)
def test_a_person_against_the_bot_never_sees_its_card_but_at_a_showdown(
    server: str, people: People, answers: list[Action], showdown: bool
) -> None:
    """Seed 4000: Ann (Qh) against the heuristic bot Hal (Ks); Ann checks first, Hal raises, in both rounds.

    Ann calls to the showdown (Kh turned up) and sees Hal's Ks there and only there; or she folds to Hal's first
    raise, and Hal's card is never in her page, not even at the end, nor in her record.
    """
    seed = 4000
    twin = against_the_bot(seed, answers)
    assert twin.over
    assert [card_text(card) for card in twin.state.cards] == ["Qh", "Ks"]
    assert twin.state.folded == (not showdown, False)
    body = {"game": "leduc", "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Hal", "bot": "heuristic"}]}
    status, room = call(server + "/api/rooms", "POST", {**body, "seed": seed})
    assert status == 201, room
    token = room["seats"][0]["link"].removeprefix("/play#")
    page = people.open(server + room["seats"][0]["link"])
    expect(page.locator("#who")).to_contain_text("You are Ann (seat 0)")
    for turn, action in enumerate(answers):
        played = against_the_bot(seed, answers[:turn])
        assert played.to_move == 0
        table = waiting_for_ann(server, token, LEDUC.view(played.state, 0).betting)
        text, _ = shown_on(page, table["version"])
        button = page.locator(f"#actions button:enabled[data-action*='actions:{type(action).__name__}\"']")
        expect(button).to_have_count(1)
        public = set() if played.state.public is None else {card_text(played.state.public)}
        assert cards_in(text) == {"Qh"} | public
        assert "Ks" not in cards_in(page.content())  # nowhere in the page, shown or hidden
        if turn % 2:
            expect(page.locator("#log")).to_contain_text("Hal raises")  # Ann answers the raise of Hal's
        button.click()
    expect(page.locator("#result")).to_be_visible()
    board = " ".join(page.locator("#board").inner_text().split())
    log = page.locator("#log")
    if showdown:
        assert "hands Ann Qh, Hal Ks" in board
        expect(log).to_contain_text("Showdown: You Qh, Hal Ks")
        expect(log).to_contain_text("Paid: You -7, Hal +7")
    else:
        assert "hands Ann Qh, Hal ?" in board
        expect(log).to_contain_text("You fold")
        expect(log).to_contain_text("Paid: You -1, Hal +1")
        assert "Ks" not in cards_in(page.content())
    status, record = call(server + "/api/record", token=token)
    assert status == 200
    assert record["returns"] == list(LEDUC.returns(twin.state))
    assert ("Ks" in cards_in(json.dumps(record["view"]))) is showdown
    assert [e["event"]["value"]["fields"].get("card") for e in record["events"][:2]] == [twin.state.cards[0], None]
