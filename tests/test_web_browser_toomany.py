"""Too Many Monkeys' page in a real browser: the machine's Chromium, driven by Playwright, against uvicorn.

Every situation is made to happen, not hoped for: each test first rehearses the game on a :class:`Table`
built as the server builds a room's (the same seats, rules and seed, so the same draws), searching seeds for
one where playing the first legal move (the page's first button) leads to the situation, and asserts that it
arises. The pages then play those same moves, one click or key at a time, and the test checks what the pages
show and what the server holds. Without Chromium these tests fail, saying how to install it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cheekymonkey.table import Seat, Table
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    Card,
    Decline,
    Draw,
    Event,
    FaceDown,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    RaccoonTook,
    RoundWon,
    Ruleset,
    SkipGiven,
    Skipped,
    TurnDown,
    TurnedDown,
)
from cheekymonkey.toomany.narration import action_words
from cheekymonkey.web import Limits, Room
from tests.web_support import HOLD_MOVES, LiveServer, Pages, browser_rooms, call, live_server

pytestmark = pytest.mark.slow

GAME = TOO_MANY_MONKEYS
DOCUMENTS = GAME.documents()
STANDARD = GAME.ruleset("standard")
TWO_CARD_ROWS = Ruleset(STANDARD.counts, row_size=2, name="custom")  # a round is won in a few turns
ONE_CARD_ROWS = Ruleset(STANDARD.counts, row_size=1, name="custom")  # the first row turned up wins the game
MAX_MOVES = Limits().max_moves
SEEDS = range(300)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(browser_rooms()) as running:
        yield running


# -- rehearsal: the same game as the room's, played with the first legal move -----------------------------


def rehearsal(names: list[str], ruleset: Ruleset, seed: int) -> Table[Any, Any, Any, Any, Any]:
    """A table built as the server builds a room's (people only: no bot draws from its own stream)."""
    table = Table(GAME, [Seat.person(name) for name in names], ruleset=ruleset, seed=seed, max_steps=MAX_MOVES)
    table.advance(bots=False)
    return table


def play_first(table: Table[Any, Any, Any, Any, Any], count: int) -> None:
    """Play ``count`` times the first legal move, and the draws that follow each."""
    for _ in range(count):
        table.play(table.legal_actions()[0])
        table.advance(bots=False)


Check = Callable[[Table[Any, Any, Any, Any, Any]], Any]


def find_game(
    names: list[str], ruleset: Ruleset, arrives: Check, then: Check, *, most: int = 60
) -> tuple[int, int, Any]:
    """The first seed, and the number of first-legal moves (at least one), after which a situation arises.

    The situation: ``arrives(table)`` returns the move to make in it (else None), and once that move is played
    ``then(table)`` holds. Returns the seed, the number of moves before the situation, and the move.
    """
    for seed in SEEDS:
        table = rehearsal(names, ruleset, seed)
        for moves in range(most):
            if table.finished:
                break
            chosen = arrives(table) if moves >= 1 else None
            if chosen is not None:
                # A fresh table plays on, so that the draws after the move are the room's (an undo would not
                # give back the random stream's draws).
                probe = rehearsal(names, ruleset, seed)
                play_first(probe, moves)
                probe.play(chosen)
                probe.advance(bots=False)
                if then(probe):
                    return seed, moves, chosen
            play_first(table, 1)
    raise AssertionError("no seed leads to the situation")


# -- the pages ------------------------------------------------------------------------------------------


def make_room(server: LiveServer, names: list[str], ruleset: Ruleset, seed: int) -> dict[str, Any]:
    body = {
        "game": GAME.name,
        "ruleset": DOCUMENTS.to_document(ruleset),
        "seats": [{"name": name} for name in names],
        "seed": seed,
    }
    status, answer = call(server, "POST", "/api/rooms", body)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def held(server: LiveServer, room: dict[str, Any]) -> Room:
    return server.manager.rooms[room["room"]]


def open_seats(server: LiveServer, pages: Pages, room: dict[str, Any], *, phone: int | None = None) -> list[Page]:
    """A page for each seat's link; seat ``phone``'s at a phone's size, 390 by 844 pixels."""
    sizes = {seat["seat"]: (390, 844) if seat["seat"] == phone else (1000, 900) for seat in room["seats"]}
    return [
        pages.open(server.url + seat["link"], width=sizes[seat["seat"]][0], height=sizes[seat["seat"]][1])
        for seat in room["seats"]
    ]


def shows(page: Page, room: Room) -> None:
    """Wait until ``page`` shows the room's table as it is now."""
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=room.version)


def shows_newer(page: Page, before: int) -> None:
    """Wait until ``page`` shows a table newer than version ``before``."""
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def buttons(page: Page) -> list[dict[str, Any]]:
    return [json.loads(b.get_attribute("data-action") or "") for b in page.locator("#actions button").all()]


def legal_documents(room: Room) -> list[dict[str, Any]]:
    documents = [DOCUMENTS.to_document(action) for action in room.table.legal_actions()]
    return [{k: v for k, v in document.items() if k not in ("format", "kind")} for document in documents]


def rows_on(page: Page) -> list[list[Any]]:
    """Each seat's row as the page draws it, in the view document's terms."""
    rows: list[list[Any]] = page.evaluate(
        """() => Array.from(document.querySelectorAll('#board .tm-seat')).map((seat) =>
            Array.from(seat.querySelectorAll('.slot')).map((slot) =>
                slot.dataset.state === 'up' ? slot.dataset.card
                : slot.dataset.state === 'known' ? { card: slot.dataset.card } : null))"""
    )
    return rows


def assert_page_shows_the_table(page: Page, room: Room, seat: int) -> None:
    """Rows, piles and hand on the page are the server's view, and the buttons are exactly the legal moves."""
    shows(page, room)
    view = DOCUMENTS.to_document(room.table.view(seat))
    assert rows_on(page) == view["rows"]
    expect(page.locator("#pile-size")).to_have_text(str(view["pile_size"]))
    expect(page.locator("#discard-all summary")).to_contain_text(f"({len(view['discard'])} card")
    if view["discard"]:
        expect(page.locator("#discard-top")).to_have_class(re.compile(rf"\bup c-{view['discard'][-1]}\b"))
    if view["hand"]:
        expect(page.locator("#hand-card")).to_have_class(re.compile(rf"\bup c-{view['hand']}\b"))
    assert buttons(page) == (legal_documents(room) if room.table.to_move == seat else [])


def play_first_moves(pages_by_seat: list[Page], room: Room, count: int, *, check: bool = False) -> list[int]:
    """Play ``count`` moves, each the first button of the page whose seat is to move (its key when it has one).

    With ``check``, every page is first checked against the server's table. Returns the seat of each move.
    """
    movers = []
    for _ in range(count):
        seat = room.table.to_move
        assert seat is not None
        page = pages_by_seat[seat]
        shows(page, room)
        if check:
            for other, other_page in enumerate(pages_by_seat):
                assert_page_shows_the_table(other_page, room, other)
        first = page.locator("#actions button").first
        expect(first).to_be_visible()
        if first.get_attribute("data-key"):
            # What a key needs: its button shown, and no move from this table on its way. (A key pressed while
            # the table is still being animated ends the animation and plays: it waits for nothing more.)
            expect(page.locator("#controls")).not_to_have_attribute("data-waiting", "move")
        before = room.version
        key = first.get_attribute("data-key")
        if key:
            page.keyboard.press(key)
        else:
            first.click()
        shows_newer(page, before)
        movers.append(seat)
    return movers


def reach(
    server: LiveServer, pages: Pages, names: list[str], arrives: Check, then: Check, phase: Phase
) -> tuple[Room, list[Page], int, Any]:
    """Find a seeded game reaching a situation of ``phase``, play into it on the pages, and check it arose.

    Returns the room, each seat's page, the seat deciding now (whose page shows the server's table), and the
    move the rehearsal made there.
    """
    seed, moves, chosen = find_game(names, STANDARD, arrives, then)
    room_document = make_room(server, names, STANDARD, seed)
    room = held(server, room_document)
    pages_by_seat = open_seats(server, pages, room_document)
    play_first_moves(pages_by_seat, room, moves)
    assert room.table.state.phase is phase  # the situation really arises
    seat = room.table.to_move
    assert seat is not None
    assert_page_shows_the_table(pages_by_seat[seat], room, seat)
    return room, pages_by_seat, seat, chosen


def told(room: Room, viewer: int, kind: type) -> list[str]:
    """The narration of the room's events of class ``kind``, as ``viewer`` reads it."""
    table = room.table
    events: tuple[Event, ...] = table.events
    return [GAME.event_text(event, table.names, viewer) for event in events if isinstance(event, kind)]


def state_after(room: Room, action: object) -> Any:
    """The state right after the last time ``action`` was played in the room."""
    table = room.table
    index = max(i for i, played in enumerate(table.actions) if played == action)
    return table.history[index + 1]


# -- the tests --------------------------------------------------------------------------------------------


def test_two_people_at_one_table_each_see_the_other_move_and_the_table_as_the_server_holds_it(
    server: LiveServer, pages: Pages
) -> None:
    """Two seat links in two browsers: each page follows the other's moves and always draws the server's table."""
    names = ["Ann", "Bob"]

    def both_decided(table: Table[Any, Any, Any, Any, Any]) -> Any:
        # Twelve decisions in, three or more by each seat (the first turn's chance plays none for seat 0).
        people = [GAME.to_move(state) for state in table.history[:-1] if not GAME.is_chance_node(state)]
        return table.legal_actions()[0] if len(people) == 12 and min(people.count(0), people.count(1)) >= 3 else None

    seed, moves, _ = find_game(names, STANDARD, both_decided, lambda table: not table.finished)
    room_document = make_room(server, names, STANDARD, seed)
    room = held(server, room_document)
    ann, bob = open_seats(server, pages, room_document, phone=1)
    expect(ann.locator("#who")).to_have_text(
        "You are Ann (seat 0) · custom rules"
        " · this room was made with a chosen seed: whoever chose it can foresee every draw"
    )
    expect(ann.locator(".tm-seat.mine .seat-name")).to_have_text("Ann")
    expect(bob.locator(".tm-seat.mine .seat-name")).to_have_text("Bob")
    movers = play_first_moves([ann, bob], room, moves, check=True)
    assert moves == 12
    assert min(movers.count(0), movers.count(1)) >= 3
    assert not room.table.finished
    # Each page's log tells the other's moves by name, and the page's own in the second person.
    expect(ann.locator("#log")).to_contain_text("Bob draws")
    expect(bob.locator("#log")).to_contain_text("Ann draws")
    expect(ann.locator("#log")).to_contain_text("You draw")
    expect(ann.locator("#board")).not_to_contain_text("You's")
    mover = room.table.to_move
    assert mover is not None
    waiting = [ann, bob][1 - mover]
    expect(waiting.locator("#status")).to_have_text(f"{names[mover]} is to move.")
    expect(waiting.locator("#actions button")).to_have_count(0)
    for seat, page in enumerate([ann, bob]):
        assert_page_shows_the_table(page, room, seat)
    # At a phone's width every row of six fits, and nothing is wider than the screen.
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    tops = bob.locator("#board .tm-seat .row-cards").evaluate_all(
        "rows => rows.map((row) => new Set(Array.from(row.children).map((slot) => slot.offsetTop)).size)"
    )
    assert tops == [1, 1]


def test_a_raccoon_pick_made_by_key_from_the_discard_pile_the_page_lays_open(server: LiveServer, pages: Pages) -> None:
    """The raccoon's choice opens the whole discard pile; the number's key takes it, and the server places it."""
    names = ["Ann", "Bob"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> RaccoonTake | None:
        takes = [a for a in table.legal_actions() if isinstance(a, RaccoonTake)]
        return takes[0] if table.state.phase is Phase.RACCOON and takes else None

    room, pages_by_seat, seat, pick = reach(server, pages, names, arrives, bool, Phase.RACCOON)
    page = pages_by_seat[seat]
    discard = [str(card.name).lower() for card in room.table.state.discard]
    expect(page.locator("#discard-all")).to_have_attribute("open", "")
    shown = page.locator("#discard-all .discard-list .card").evaluate_all("cards => cards.map((c) => c.className)")
    assert [name.split()[2].removeprefix("c-") for name in shown] == discard[::-1]  # the whole pile, top first
    expect(page.locator("#hint")).to_contain_text("raccoon")
    declined = action_words(Decline(), room.table.state, names)  # the words the game gives its choices
    assert declined.startswith("take nothing")
    expect(page.locator("#actions button.action-decline")).to_have_text(declined[0].upper() + declined[1:] + "N")
    expect(page.locator(f'#actions button[data-key="{pick.card.number}"]')).to_be_enabled()
    before = room.version
    page.keyboard.press(str(pick.card.number))
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    took = [e for e in room.table.events if isinstance(e, RaccoonTook)]
    assert took
    assert (took[-1].seat, took[-1].card) == (seat, pick.card)
    after = state_after(room, pick)
    assert after.rows[seat][pick.card.number - 1] == pick.card
    assert list(after.discard).count(pick.card) == discard.count(pick.card.name.lower()) - 1
    expect(page.locator("#log")).to_contain_text(told(room, seat, RaccoonTook)[-1])
    other = pages_by_seat[1 - seat]
    expect(other.locator("#log")).to_contain_text(told(room, 1 - seat, RaccoonTook)[-1])


def test_a_wild_position_pressed_the_moment_the_wild_shows_is_played_before_the_draw_is_answered(
    server: LiveServer, pages: Pages
) -> None:
    """The wild's position key works as soon as the page shows the wild, while the draw's own answer is held back."""
    names = ["Ann", "Bob"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> Draw | None:
        return Draw() if table.state.phase is Phase.START else None

    def wild_drawn(table: Table[Any, Any, Any, Any, Any]) -> bool:
        return table.state.phase is Phase.WILD

    room, pages_by_seat, seat, _ = reach(server, pages, names, arrives, wild_drawn, Phase.START)
    page = pages_by_seat[seat]
    page.evaluate(HOLD_MOVES)
    page.evaluate("window.holdMode = 'answer'")
    expect(page.locator("#actions button").first).to_have_attribute("data-key", "d")
    before = room.version
    page.keyboard.press("d")
    shows_newer(page, before)  # the event stream's table: the wild is in hand
    assert (room.table.state.phase, room.table.to_move) == (Phase.WILD, seat)
    assert page.evaluate("[window.movesSent, window.answersGiven]") == [1, 0]  # the draw's answer is held back
    first = page.locator("#actions button").first
    expect(first).to_have_text(re.compile(r"^Wild at position [1-6][1-6]$"))
    expect(first).to_be_enabled()
    position = int(first.get_attribute("data-key") or "")
    wilds = [a for a in room.table.actions if isinstance(a, PlaceWild)]
    before = room.version
    page.keyboard.press(str(position))
    shows_newer(page, before)
    assert page.evaluate("window.movesSent") == 2
    assert state_after(room, PlaceWild(position)).rows[seat][position - 1] is Card.WILD
    assert [a for a in room.table.actions if isinstance(a, PlaceWild)] == [*wilds, PlaceWild(position)]
    # The answers held back arrive late: the page keeps the newest table, and says nothing went wrong.
    page.evaluate("window.release()")
    page.wait_for_function("() => window.answersGiven === window.movesSent")
    assert_page_shows_the_table(page, room, seat)
    expect(page.locator("#error")).to_have_text("")


def test_a_do_not_disturb_chosen_by_clicking_the_card_turns_it_down_known_on_every_page(
    server: LiveServer, pages: Pages
) -> None:
    """Clicking an opponent's face-up card turns it down on the server, and both pages show it down and known."""
    names = ["Ann", "Bob"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> TurnDown | None:
        downs = [a for a in table.legal_actions() if isinstance(a, TurnDown)]
        return downs[0] if table.state.phase is Phase.DISTURB and downs else None

    def stays_down(table: Table[Any, Any, Any, Any, Any]) -> bool:
        # The card is still down once the next turn's chance has played: the pages can show it.
        move = next(played for played in reversed(table.actions) if isinstance(played, TurnDown))
        return isinstance(table.state.rows[move.seat][move.position - 1], FaceDown)

    room, pages_by_seat, seat, down = reach(server, pages, names, arrives, stays_down, Phase.DISTURB)
    page = pages_by_seat[seat]
    card = room.table.state.rows[down.seat][down.position - 1]
    target = page.locator(f'#board .slot[data-seat="{down.seat}"][data-position="{down.position}"] .card')
    expect(target).to_have_class(re.compile(r"\bcard up\b"))
    expect(target).to_have_attribute("role", "button")
    before = room.version
    target.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert state_after(room, down).rows[down.seat][down.position - 1] == FaceDown(card)
    turned = [e for e in room.table.events if isinstance(e, TurnedDown)]
    assert (turned[-1].seat, turned[-1].target, turned[-1].position) == (seat, down.seat, down.position)
    for viewer, other in enumerate(pages_by_seat):
        shows(other, room)
        slot = other.locator(f'#board .slot[data-seat="{down.seat}"][data-position="{down.position}"]')
        expect(slot).to_have_attribute("data-state", "known")
        expect(slot.locator(".card-mark")).to_have_text(card.code)
        expect(other.locator("#log")).to_contain_text(told(room, viewer, TurnedDown)[-1])
        # The event animates the card it names: it flips face down on every page, the mover's and the owner's.
        expect(slot.locator(".card")).to_have_class(re.compile(r"\banim-down\b"))


def test_a_skip_given_by_key_waits_before_its_seat_and_skips_its_next_turn(server: LiveServer, pages: Pages) -> None:
    """The Skip goes to the seat whose key is pressed: every page shows it waiting, then that turn is skipped."""
    names = ["Ann", "Bob", "Cy"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> GiveSkip | None:
        if table.state.phase is not Phase.SKIP or table.to_move is None:
            return None
        after_next = (table.to_move + 2) % 3
        later = [a for a in table.legal_actions() if isinstance(a, GiveSkip) and a.seat == after_next]
        return later[0] if later else None

    def waits(table: Table[Any, Any, Any, Any, Any]) -> bool:
        skip = table.actions[-1]
        return isinstance(skip, GiveSkip) and table.state.skips[skip.seat] and table.state.round == 1

    room, pages_by_seat, seat, skip = reach(server, pages, names, arrives, waits, Phase.SKIP)
    page = pages_by_seat[seat]
    assert skip.seat == (seat + 2) % 3  # the Skip waits a turn: the seat between moves first
    expect(page.locator(f'.tm-seat[data-seat="{skip.seat}"] .skip-target')).to_have_text("Give the Skip")
    expect(page.locator(f'#actions button[data-key="{skip.seat}"]')).to_have_text(
        f"Give the Skip to {names[skip.seat]}{skip.seat}"
    )
    expect(page.locator(f'#actions button[data-key="{skip.seat}"]')).to_be_enabled()
    before = room.version
    page.keyboard.press(str(skip.seat))
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    given = [e for e in room.table.events if isinstance(e, SkipGiven)]
    assert (given[-1].seat, given[-1].target) == (seat, skip.seat)
    assert room.table.state.skips[skip.seat]
    expect(pages_by_seat[skip.seat].locator("#status")).to_have_text(
        f"{names[(seat + 1) % 3]} is to move. A Skip waits in front of you: your next turn is skipped."
    )
    for other in pages_by_seat:
        shows(other, room)
        expect(other.locator(f'.tm-seat[data-seat="{skip.seat}"] .skip-waiting')).to_have_text("Skip waiting")
        expect(other.locator(".skip-waiting")).to_have_count(1)
    expect(pages_by_seat[skip.seat].locator("#log")).to_contain_text(told(room, skip.seat, SkipGiven)[-1])
    # The seat between moves; then the seat with the Skip is skipped, and the Skip leaves every page.
    skipped_before = len(told(room, 0, Skipped))
    play_first_moves(pages_by_seat, room, 1)
    assert len(told(room, 0, Skipped)) == skipped_before + 1
    assert [e for e in room.table.events if isinstance(e, Skipped)][-1].seat == skip.seat
    for viewer, other in enumerate(pages_by_seat):
        shows(other, room)
        expect(other.locator(".skip-waiting")).to_have_count(0)
        expect(other.locator("#log")).to_contain_text(told(room, viewer, Skipped)[-1])


def test_a_round_won_on_the_page_shows_the_winner_and_the_next_smaller_row(server: LiveServer, pages: Pages) -> None:
    """A move on the page wins a round: round 2 is dealt; each page names the winner and shows the shorter row."""
    names = ["Ann", "Bob"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> Any:
        return table.legal_actions()[0] if table.state.round == 1 else None

    seed, moves, _ = find_game(names, TWO_CARD_ROWS, arrives, lambda t: t.state.round == 2)
    room_document = make_room(server, names, TWO_CARD_ROWS, seed)
    room = held(server, room_document)
    pages_by_seat = open_seats(server, pages, room_document)
    play_first_moves(pages_by_seat, room, moves)
    assert room.table.state.round == 1
    play_first_moves(pages_by_seat, room, 1)
    state = room.table.state
    assert state.round == 2  # the move made on the page won the round
    winner = [e for e in room.table.events if isinstance(e, RoundWon)][-1].seat
    assert [len(row) for row in state.rows] == [1 if seat == winner else 2 for seat in range(2)]
    for viewer, page in enumerate(pages_by_seat):
        assert_page_shows_the_table(page, room, viewer)
        if viewer == winner:
            expect(page.locator("#round-line")).to_have_text("Round 2 · You won round 1: your row is down to 1 card.")
        else:
            expect(page.locator("#round-line")).to_have_text(
                f"Round 2 · {names[winner]} won round 1: {names[winner]}'s row is down to 1 card."
            )
        expect(page.locator(f'.tm-seat[data-seat="{winner}"] .slot')).to_have_count(1)
        expect(page.locator(f'.tm-seat[data-seat="{1 - winner}"] .slot')).to_have_count(2)
        expect(page.locator("#log")).to_contain_text(told(room, viewer, RoundWon)[-1])


# What the page pictures disagrees with the table it was sent, as a person sees it: a card of the board not
# fully drawn yet (see-through, or moved, tilted or scaled by an animation), a row whose heading counts more
# cards face up than can be seen, a card "you hold" with no such card in the hand. An empty list: they agree.
DISAGREEMENTS = """() => {
    const found = [];
    const drawn = (node) => {
        const style = getComputedStyle(node);
        const still = style.transform === "none" || style.transform === "matrix(1, 0, 0, 1, 0, 0)";
        return Number(style.opacity) >= 0.999 && still;
    };
    for (const card of document.querySelectorAll("#board .card, #board .round-line, #board .seat-head")) {
        if (!drawn(card)) found.push("not yet drawn: " + (card.id || card.className));
    }
    for (const seat of document.querySelectorAll("#board .tm-seat")) {
        const heading = seat.querySelector(".row-count").textContent.match(/^(\\d+) of (\\d+) face up$/);
        const slots = Array.from(seat.querySelectorAll(".slot"));
        const seen = slots.filter((slot) => slot.dataset.state === "up" && drawn(slot.querySelector(".card")));
        if (!heading || Number(heading[1]) !== seen.length || Number(heading[2]) !== slots.length) {
            found.push("seat " + seat.dataset.seat + ": " + seat.querySelector(".row-count").textContent);
        }
    }
    const held = document.getElementById("status").textContent.match(/you hold an? (.+)\\.$/);
    const hand = document.getElementById("hand-card");
    const holding = hand && drawn(hand) ? hand.querySelector(".card-name").textContent.toLowerCase() : null;
    if (held && holding !== held[1].toLowerCase()) {
        found.push("no " + held[1] + " in the hand");
    }
    return found;
}"""

# Watches the page from now on. Each animation frame in which a move button is enabled, the picture must agree
# with the table (``window.enabledFrames`` counts them, ``window.disagreed`` keeps what did not). Each move the
# page sends after that instant below is checked the same way as it leaves (``window.sentMoves``). The instant the page
# first draws round ``window.pounceRound``, before any frame is painted, the quickest person acts: a click on
# the first button, or its key when ``window.pounceWith`` is "key" (``window.pounced`` says what they met).
WATCH = (
    """() => {
    const disagreements = """
    + DISAGREEMENTS
    + """;
    const buttons = () => Array.from(document.querySelectorAll("#actions button"));
    window.enabledFrames = 0;
    window.disagreed = [];
    window.sentMoves = [];
    window.pounced = null;
    const frame = () => {
        if (buttons().some((button) => !button.disabled)) {
            window.enabledFrames += 1;
            const found = disagreements();
            if (found.length) window.disagreed.push({ version: document.body.dataset.version, found });
        }
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const original = window.fetch;
    window.fetch = (url, init) => {
        if (window.pounced && String(url).startsWith("/api/move")) window.sentMoves.push(disagreements());
        return original(url, init);
    };
    new MutationObserver(() => {
        const line = document.getElementById("round-line");
        const first = buttons()[0];
        const dealt = line && line.textContent.startsWith("Round " + window.pounceRound + " ");
        if (window.pounced || !first || !dealt) return;
        window.pounced = {
            version: Number(document.body.dataset.version),
            disabled: first.disabled,
            waiting: document.getElementById("controls").dataset.waiting || "",
            opacity: Number(getComputedStyle(first).opacity),
            disagreements: disagreements(),
        };
        if (window.pounceWith === "key") {
            document.dispatchEvent(new KeyboardEvent("keydown", { key: first.dataset.key, bubbles: true }));
        } else {
            first.click();
        }
    }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""
)


@pytest.mark.parametrize("quickest", ["click", "key"])
def test_the_instant_a_new_round_is_dealt_a_click_waits_for_the_picture_and_a_key_shows_it_before_it_plays(
    server: LiveServer, pages: Pages, quickest: str
) -> None:
    """After a round change the buttons never act on the old picture, and agree with the new one when enabled.

    While the new round is being dealt a click is refused visibly (the buttons wait, greyed); a key ends the
    dealing and plays on the new picture; and in every frame in which a button is enabled, the rows, their
    headings and the hand agree with the table.
    """
    names = ["Ann", "Bob"]

    def arrives(table: Table[Any, Any, Any, Any, Any]) -> Any:
        return table.legal_actions()[0] if table.state.round == 1 else None

    def dealt_and_played_on(table: Table[Any, Any, Any, Any, Any]) -> bool:
        # Round 2 is dealt, and its first move (the quickest person's) does not end the game.
        if table.state.round != 2:
            return False
        play_first(table, 1)
        return not table.finished

    seed, moves, _ = find_game(names, TWO_CARD_ROWS, arrives, dealt_and_played_on)
    probe = rehearsal(names, TWO_CARD_ROWS, seed)
    play_first(probe, moves + 1)
    seat = probe.to_move  # the first to move in round 2
    assert seat is not None
    room_document = make_room(server, names, TWO_CARD_ROWS, seed)
    room = held(server, room_document)
    pages_by_seat = open_seats(server, pages, room_document)
    play_first_moves(pages_by_seat, room, moves)
    for page in pages_by_seat:
        page.evaluate(WATCH)
        page.evaluate("how => { window.pounceRound = 2; window.pounceWith = how; }", quickest)
    play_first_moves(pages_by_seat, room, 1)  # the move that wins round 1
    assert room.table.state.round == 2
    page = pages_by_seat[seat]
    page.wait_for_function("() => window.pounced !== null")
    pounced = page.evaluate("window.pounced")
    dealt = pounced["version"]
    if quickest == "click":
        assert dealt == room.version  # (a key's move may still be on its way: shows_newer below waits for it)
    assert pounced["disagreements"], "the quickest person acted before the new round was dealt on the page"
    if quickest == "click":
        # Refused, visibly: the buttons wait, greyed, and the table does not move.
        assert pounced["disabled"] is True
        assert pounced["waiting"] == "picture"
        assert pounced["opacity"] < 1
        first = page.locator("#actions button").first
        # A real mouse click too, as soon as Playwright can make one, whatever the button's state: refused
        # while the round is still being dealt, else played (and checked) on the picture as it then is.
        first.click(force=True)
        if page.evaluate("window.sentMoves.length") == 0:
            expect(first).to_be_enabled()  # once the round is dealt
            assert room.version == dealt
            assert page.evaluate("window.sentMoves") == []
            first.click()
    shows_newer(page, dealt)
    # The key (or the click once allowed) played on the new picture, and every frame with a button to press
    # showed the table as it is.
    assert page.evaluate("window.sentMoves") == [[]]
    for other in pages_by_seat:
        shows(other, room)
    page.wait_for_function("n => window.enabledFrames > n", arg=page.evaluate("window.enabledFrames"))
    for other in pages_by_seat:
        assert other.evaluate("window.disagreed") == []
    assert page.evaluate("window.enabledFrames") > 0


# Everything written on the board's cards and in the move box, measured as laid out: each card's mark and
# words inside the card (not cut at its edges, as "Elephant" once showed as "lephan"), at a readable size, the
# move box's example moves whole in the box, and no part of the page wider than the screen. Returns what fails,
# and what the single cards (discard pile's top, hand) and the cards turned down say.
MEASURE = """() => {
    const found = [];
    const within = (part, card) => {
        const inner = part.getBoundingClientRect();
        const outer = card.getBoundingClientRect();
        const left = outer.left + card.clientLeft, top = outer.top + card.clientTop;
        return inner.left >= left - 0.5 && inner.right <= left + card.clientWidth + 0.5
            && inner.top >= top - 0.5 && inner.bottom <= top + card.clientHeight + 0.5;
    };
    for (const card of document.querySelectorAll("#board .card")) {
        for (const part of card.querySelectorAll(".card-mark, .card-name, .card-down")) {
            const style = getComputedStyle(part);
            if (style.display === "none" || style.clipPath !== "none") continue;  // for screen readers only
            const words = part.textContent;
            if (!within(part, card) || part.scrollWidth > part.clientWidth) found.push("cut off: " + words);
            if (parseFloat(style.fontSize) < 10.5) found.push("too small to read: " + words + " at " + style.fontSize);
        }
    }
    const box = document.getElementById("command-text");
    const style = getComputedStyle(box);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (pen.measureText(box.placeholder).width > room) found.push("example moves cut off: " + box.placeholder);
    if (document.documentElement.scrollWidth > window.innerWidth) found.push("the page is wider than the screen");
    const said = (node) =>
        node && node.classList.contains("up") ? [node.className, node.querySelector(".card-name").textContent] : null;
    return {
        found: found,
        top: said(document.getElementById("discard-top")),
        hand: said(document.getElementById("hand-card")),
        known: Array.from(document.querySelectorAll("#board .card.known")).map((card) =>
            [card.querySelector(".card-mark").textContent, card.querySelector(".card-down").textContent,
             card.querySelector(".card-name").textContent]),
    };
}"""

CARD_NAMES = {
    Card.WILD: "Wild",
    Card.SKIP: "Skip",
    Card.ELEPHANT: "Elephant",
    Card.GIRAFFE: "Giraffe",
    Card.RACCOON: "Raccoon",
    Card.DO_NOT_DISTURB: "Do Not Disturb",
}
SINGLE_CARDS = set(CARD_NAMES) | {Card.SIX}  # every special card, and a number, alone on a pile or in a hand


def single_cards(table: Table[Any, Any, Any, Any, Any]) -> set[Card]:
    """The cards shown alone now: the discard pile's top and the card in hand."""
    state = table.state
    return {card for card in (state.discard[-1] if state.discard else None, state.hand) if card is not None}


def turned_down(table: Table[Any, Any, Any, Any, Any]) -> bool:
    return any(isinstance(slot, FaceDown) for row in table.state.rows for slot in row)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_every_card_and_the_move_box_read_whole_on_a_screen_and_a_phone(
    server: LiveServer, pages: Pages, width: int, height: int
) -> None:
    """Every card the page draws reads whole at a readable size, and so do the move box's example moves.

    A seeded game of two people is played until every special card (and a number) has been shown alone on
    the discard pile or in a hand, and a card has been turned down; the page is measured at every table.
    """
    names = ["Ann", "Elizabeth"]
    seed = moves = -1
    for candidate in SEEDS:
        table = rehearsal(names, STANDARD, candidate)
        shown: set[Card] = set()
        down = False
        played = 0
        while True:
            shown |= single_cards(table)
            down = down or turned_down(table)
            if (shown >= SINGLE_CARDS and down) or table.finished or played == 400:
                break
            play_first(table, 1)
            played += 1
        if shown >= SINGLE_CARDS and down:
            seed, moves = candidate, played
            break
    assert moves > 0, "no seed shows every card"
    room_document = make_room(server, names, STANDARD, seed)
    room = held(server, room_document)
    tokens = [seat["link"].split("#", 1)[1] for seat in room_document["seats"]]
    page = pages.open(server.url + room_document["seats"][0]["link"], width=width, height=height)
    page.emulate_media(reduced_motion="reduce")  # measured as laid out, not in the middle of an animation
    shown = set()
    known: list[list[str]] = []
    for _ in range(moves + 1):
        shows(page, room)
        measured = page.evaluate(MEASURE)
        assert measured["found"] == [], (room.version, measured["found"])
        view = DOCUMENTS.to_document(room.table.view(0))
        for where, card in (("top", view["discard"][-1] if view["discard"] else None), ("hand", view["hand"])):
            if card is not None:
                shown.add(Card[card.upper()])
                words = CARD_NAMES.get(Card[card.upper()], Card[card.upper()].code)
                assert measured[where] is not None
                assert f"c-{card}" in measured[where][0].split()
                assert measured[where][1] == words  # the whole name, written on the card
        downs = [Card[slot["card"].upper()] for row in view["rows"] for slot in row if isinstance(slot, dict)]
        said = [[card.code, "down", "turned down: " + CARD_NAMES.get(card, card.code)] for card in downs]
        assert measured["known"] == said  # what it is, and that it is down, in letters big enough to read
        known += said
        if room.table.finished:
            break
        mover = room.table.to_move
        assert mover is not None
        status, _ = call(
            server,
            "POST",
            "/api/move",
            {"version": room.version, "action": legal_documents(room)[0]},
            token=tokens[mover],
        )
        assert status == 200
    assert shown >= SINGLE_CARDS
    assert known  # a card turned down was measured too


def test_the_lobby_makes_a_room_with_this_games_custom_rules_and_a_bot(server: LiveServer, pages: Pages) -> None:
    """The lobby's custom rules for this game (the deck, the row size) make the room the server then holds."""
    page = pages.open(server.url + "/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#game", GAME.name)
    expect(page.locator("#title")).to_have_text("Too Many Monkeys")
    expect(page.locator("#seat-kind-1 option[value=random]")).to_have_text("Random bot")
    page.select_option("#seat-kind-1", "random")  # the game has other bots too; the default need not be this one
    page.select_option("#preset", "custom")
    expect(page.locator("#row-size")).to_have_value(str(STANDARD.row_size))  # filled from the first preset
    expect(page.locator("#count-wild")).to_have_value("4")
    page.fill("#row-size", "3")
    page.fill("#count-giraffe", "0")
    page.click("#remove-seat")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seed", "4")
    page.click("button[type=submit]")
    link = page.locator("#link-list a").first
    expect(link).to_have_text("Take this seat")
    link.click()
    page.wait_for_selector("#board .tm-seat")
    room = server.manager.rooms[page.get_attribute("body", "data-room") or ""]
    ruleset = room.table.ruleset
    assert (ruleset.row_size, ruleset.counts[Card.GIRAFFE - 1], ruleset.counts[Card.WILD - 1]) == (3, 0, 4)
    assert room.table.kinds == ("human", "random")
    expect(page.locator("#who")).to_have_text(
        "You are Ann (seat 0) · custom rules"
        " · this room was made with a chosen seed: whoever chose it can foresee every draw"
    )
    expect(page.locator(".tm-seat .slot")).to_have_count(sum(len(row) for row in room.table.state.rows))
    expect(page.locator('.tm-seat[data-seat="1"] .badge')).to_have_text("Random bot")


def test_a_game_won_on_the_page_places_every_seat_shows_the_final_rows_once_and_the_record(
    server: LiveServer, pages: Pages
) -> None:
    """The move that wins the game, made on the page: each page places every seat, the final rows drawn once.

    The places are the terminal's result table's, with the rounds each seat won; no hand is left on the
    board; the record replays.
    """
    names = ["Ann", "Bob", "Cy"]

    def placed_apart(table: Table[Any, Any, Any, Any, Any]) -> bool:
        outcome = table.outcome()
        return outcome is not None and sorted(outcome.ranks) == [1, 2, 3]  # three different places to show

    seed, moves, _ = find_game(names, TWO_CARD_ROWS, lambda table: table.legal_actions()[0], placed_apart, most=200)
    room_document = make_room(server, names, TWO_CARD_ROWS, seed)
    room = held(server, room_document)
    pages_by_seat = open_seats(server, pages, room_document, phone=2)
    play_first_moves(pages_by_seat, room, moves + 1)
    outcome = room.table.outcome()
    assert outcome is not None  # the move made on the page won the game
    (winner,) = outcome.winners
    state = room.table.state
    terminal = GAME.result_table(state, names)  # the terminal's result: place, player, rounds won, last row
    headers = [column.header.text for column in terminal.columns]
    assert set(headers) == {"place", "player", "rounds won", "last row"}
    rounds = [e.seat for e in room.table.events if isinstance(e, RoundWon)] + [winner]  # the last, won with the game
    assert len(rounds) >= 2
    for viewer, page in enumerate(pages_by_seat):
        shows(page, room)
        place = outcome.ranks[viewer]
        said = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
        lost = f"{names[winner]} wins. You come {said} of {len(names)}."  # said to the one who lost
        expect(page.locator("#winners")).to_have_text("You win." if viewer == winner else lost)
        who = "You" if viewer == winner else names[winner]
        expect(page.locator("#round-line")).to_have_text(f"Round {state.round}, the last · {who} won the game.")
        placings = page.locator("#placings tbody tr").evaluate_all(
            "rows => rows.map((row) => Array.from(row.children).map((cell) => cell.textContent))"
        )
        expected = []
        for line in terminal.rows:
            cells = dict(zip(headers, (cell.text for cell in line), strict=True))
            seat = names.index(cells["player"])
            assert cells["rounds won"] == str(rounds.count(seat))
            you = " (you)" if seat == viewer else ""
            expected.append([cells["place"], cells["player"] + you, cells["last row"], cells["rounds won"]])
        assert placings == expected
        expect(page.locator(f'#placings tr.winner[data-seat="{winner}"]')).to_have_count(1)
        # The final rows once, on the board; nobody's hand after the game.
        expect(page.locator("#board .tm-seat")).to_have_count(3)
        expect(page.locator("#result-detail .tm-seat")).to_have_count(0)
        expect(page.locator(f'#board .tm-seat[data-seat="{winner}"] .slot')).to_have_attribute("data-state", "up")
        expect(page.locator("#hand")).to_have_count(0)
        expect(page.locator("body")).not_to_contain_text("game is over", ignore_case=True)
        expect(page.locator("#actions button")).to_have_count(0)
        # Nothing of the result is cut off, at a phone's width as on a screen.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("#placings").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    status, record = call(server, "GET", "/api/record", token=room_document["seats"][0]["link"].split("#", 1)[1])
    assert status == 200
    assert DOCUMENTS.from_document(record, "record").final_state() == room.table.state
