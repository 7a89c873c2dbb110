"""The game page's layout and words in a real browser, for both games, at 390x844 (a touch phone) and 1280x800.

Two people play a whole game, each on a page of their own, by clicking the buttons (seeded choices). Along the
way and at the end the test checks what a new player's trial found: no visible element reaches past the screen's
edges (each element's box against the viewport, the result tables included), the place of the buttons is never
an empty band (when it is not your turn it says whom the table waits for), a touch screen shows no keyboard
badges, a move typed on another's turn is answered to "you" before anything is sent, the loser's result says
where they came, the downloaded record is named without a double dash and replays without "seed none", and a
tab follows another seat's link pasted into it. Screenshots of each game's end are written to the folder named
by ``CHEEKYMONKEY_SCREENSHOTS`` (default: a folder under the system's temporary folder), for CI to keep.
"""

from __future__ import annotations

import json
import os
import random
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cheekymonkey.games import game_named
from tests.test_cli_usability import run
from tests.web_support import LiveServer, Pages, browser_rooms, call, live_server

pytestmark = pytest.mark.slow

SHOTS = Path(os.environ.get("CHEEKYMONKEY_SCREENSHOTS") or Path(tempfile.gettempdir()) / "cheekymonkey-screenshots")

# Every element shown on the page whose box reaches past the viewport's left or right edge (a scroller's hidden
# part included: that is what a person cannot see), except what is only for screen readers.
LAYOUT = """() => {
    const found = [];
    const width = document.documentElement.clientWidth;
    const hiddenToEyes = (node) => {
        for (let at = node; at && at !== document.body; at = at.parentElement) {
            const style = getComputedStyle(at);
            if (style.clipPath !== "none" || style.visibility === "hidden" || style.display === "none") return true;
        }
        return false;
    };
    for (const node of document.querySelectorAll("body *")) {
        if (!node.getClientRects().length) continue;
        const box = node.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.left < -1 || box.right > width + 1) {
            if (hiddenToEyes(node)) continue;
            const name = node.id || node.className || node.tagName;
            found.push(name + " [" + Math.round(box.left) + ", " + Math.round(box.right) + "] of " + width);
        }
    }
    if (document.documentElement.scrollWidth > window.innerWidth) found.push("the page is wider than the screen");
    return found;
}"""

# The place of the buttons: its height and the words in it, and whether any keyboard badge shows.
CONTROLS = """() => {
    const actions = document.getElementById("actions");
    const kbd = Array.from(actions.querySelectorAll("kbd")).filter((k) => k.getClientRects().length > 0);
    return {
        height: actions.getBoundingClientRect().height,
        text: actions.innerText.trim(),
        buttons: actions.querySelectorAll("button").length,
        badges: kbd.length,
    };
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(browser_rooms()) as running:
        yield running


def _room(server: LiveServer, game: str, seed: int) -> dict[str, Any]:
    body = {"game": game, "preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": seed}
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def _settled(page: Page) -> None:
    """Wait until the board's animations have ended, so that boxes are where they rest."""
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState === 'finished' || a.playState === 'idle')"
    )


def _check_layout(page: Page, where: str) -> None:
    _settled(page)
    assert page.evaluate(LAYOUT) == [], where


@pytest.mark.parametrize(
    ("game", "width", "height", "seed"),
    [
        ("cheeky-monkey", 390, 844, 3),
        ("cheeky-monkey", 1280, 800, 4),
        ("too-many-monkeys", 390, 844, 5),
        ("too-many-monkeys", 1280, 800, 6),
    ],
)
def test_two_people_play_a_whole_game_and_every_page_fits_and_speaks_to_you(
    server: LiveServer, pages: Pages, tmp_path: Path, game: str, width: int, height: int, seed: int
) -> None:
    """A whole game by two people: layout, the waiting line, badges, a move out of turn, the result, the record."""
    phone = width < 500
    SHOTS.mkdir(parents=True, exist_ok=True)
    document = _room(server, game, seed)
    room = server.manager.rooms[document["room"]]
    seats = [pages.open(server.url + s["link"], width=width, height=height, touch=phone) for s in document["seats"]]
    for page in seats:
        page.wait_for_selector("#board *")
    rng = random.Random(seed)
    moves = waited = typed = 0
    while not room.table.finished:
        mover = room.table.to_move
        assert mover is not None
        page, other = seats[mover], seats[1 - mover]
        page.wait_for_selector("#actions button:enabled")
        other.wait_for_function("v => Number(document.body.dataset.version) === v", arg=room.version)
        if moves % 6 == 0:
            # The player to move: buttons, no badges on a touch screen; the other: a waiting line, no empty band.
            mine, theirs = page.evaluate(CONTROLS), other.evaluate(CONTROLS)
            assert mine["buttons"] > 0
            assert (mine["badges"] == 0) if phone else (mine["badges"] > 0), mine
            assert theirs["buttons"] == 0
            assert theirs["text"].startswith("Not your turn: "), theirs
            assert theirs["height"] <= 60, theirs  # one line, a button's height: no band left empty
            waited += 1
            _check_layout(page, f"{game} {width}: move {moves}, the mover's page")
            _check_layout(other, f"{game} {width}: move {moves}, the waiting page")
        if typed == 0:
            # A move typed on the other's turn is answered to you, and nothing is sent.
            before = room.version
            other.fill("#command-text", "d")
            other.press("#command-text", "Enter")
            expect(other.locator("#error")).to_have_text(
                f"It is not your turn: {room.table.names[mover]} is to move. Send your move when it is yours."
            )
            assert room.version == before
            other.fill("#command-text", "")
            typed += 1
        before = room.version
        shown = page.locator("#actions button")
        shown.nth(rng.randrange(shown.count())).click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        moves += 1
        assert moves < 600, "the game did not end"
    assert waited > 2
    outcome = room.table.outcome()
    assert outcome is not None
    for seat, page in enumerate(seats):
        page.wait_for_selector("#result:not([hidden])")
        _check_layout(page, f"{game} {width}: the result, seat {seat}")
        page.screenshot(path=str(SHOTS / f"{game}-{width}x{height}-end-seat{seat}.png"), full_page=True)
        if seat in outcome.winners:
            continue
        winner = room.table.names[outcome.winners[0]]
        place = outcome.ranks[seat]
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        expect(page.locator("#winners")).to_have_text(re.compile(rf"{winner} wins\. You come {place}{suffix} of 2\."))
    if game == "cheeky-monkey":
        # The score sheet's Total column is on the screen, not in a scroller's hidden part.
        total = seats[0].locator("#sheet thead th", has_text="Total").bounding_box()
        assert total is not None
        assert total["x"] + total["width"] <= width
    # The record: named without a double dash, replayed without "seed none".
    with seats[0].expect_download() as caught:
        seats[0].click("#download")
    download = caught.value
    assert "--" not in download.suggested_filename
    assert re.fullmatch(rf"{game}-[A-Za-z0-9_][A-Za-z0-9_-]*\.json", download.suggested_filename)
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    replayed = run(["replay", str(path), "--no-step"])
    assert replayed.returncode == 0, replayed.stderr
    assert "seed none" not in replayed.stdout
    assert json.loads(path.read_text(encoding="utf-8"))["format"].startswith(game_named(game).documents().format)


def test_a_tab_follows_another_seat_s_link_pasted_into_it(server: LiveServer, pages: Pages) -> None:
    """Only the part after # changes: the page opens that seat's game, not the old one."""
    first = _room(server, "cheeky-monkey", 1)
    second = _room(server, "too-many-monkeys", 2)
    page = pages.open(server.url + first["seats"][0]["link"], width=1280, height=800)
    expect(page.locator("#who")).to_contain_text("You are Ann (seat 0)")
    expect(page.locator("body")).to_have_attribute("data-game", "cheeky-monkey")
    page.evaluate("link => { location.hash = link.split('#')[1]; }", second["seats"][1]["link"])
    expect(page.locator("body")).to_have_attribute("data-game", "too-many-monkeys")
    expect(page.locator("#who")).to_contain_text("You are Bob (seat 1)")
    expect(page.locator("body")).to_have_attribute("data-room", second["room"])


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_card_dropping_on_the_discard_pile_passes_under_its_label(
    server: LiveServer, pages: Pages, width: int, height: int
) -> None:
    """The discard top's drop, held at its first frame (the card highest, over the label): the label is on top."""
    document = _room(server, "too-many-monkeys", 7)
    page = pages.open(server.url + document["seats"][0]["link"], width=width, height=height, touch=width < 500)
    page.wait_for_selector("#discard-top")
    _settled(page)
    on_top = page.evaluate(
        """() => {
            const card = document.getElementById("discard-top");
            card.classList.add("anim", "anim-drop");
            for (const animation of card.getAnimations()) { animation.pause(); animation.currentTime = 0; }
            const label = document.querySelector("#discard .pile-label");
            const box = label.getBoundingClientRect();
            const cardBox = card.getBoundingClientRect();
            const overlap = cardBox.top < box.bottom && cardBox.bottom > box.top
                && cardBox.left < box.right && cardBox.right > box.left;
            const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), box.top + box.height / 2);
            return {overlap: overlap, label: hit === label || label.contains(hit), flying: card.getAnimations().length};
        }"""
    )
    assert on_top["flying"] > 0  # the drop's animation is there, held where it starts
    assert on_top["overlap"], on_top  # at that frame the card reaches over the label
    assert on_top["label"], on_top
