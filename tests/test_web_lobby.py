"""The lobby starts from each game's usual seat count (its ``default_seats``), and again when the game or rules change.

``GET /api/options`` gives each game's :meth:`~cheekymonkey.Game.default_seats` (``default_seats``) and its
count under each preset (``preset_seats``); the lobby page (``static/lobby.js``) lays out that many seats.
Served beside the installed games: :data:`tests.secret_games.GUESS` (two seats exactly) and a Cheeky Monkey
whose usual count is 4, and 5 under its ``younger`` preset, so that no count here is the old fixed 3. The
page runs in the machine's Chromium (Playwright) against a real uvicorn server.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources.abc import Traversable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from cheekymonkey.cheeky.game import CHEEKY_MONKEY, CheekyMonkey
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.web import RoomManager
from tests.secret_games import GUESS
from tests.web_support import LiveServer, call, chromium, live_server, open_pages


class FourSeats(CheekyMonkey):
    """Cheeky Monkey as a club plays it: four seats as a rule, five with the younger rules."""

    name = "cheeky-four"
    title = "Cheeky Monkey for four"

    def default_seats(self, ruleset: Ruleset | None = None) -> int:
        return 5 if ruleset == Ruleset.preset("younger") else 4

    def page_script(self) -> Traversable:
        return CHEEKY_MONKEY.page_script()  # Cheeky Monkey's own drawing (and its custom rules editor)


FOUR = FourSeats()


def served() -> tuple[AnyGame, ...]:
    return (*(game_named(name) for name in GAME_NAMES), GUESS, FOUR)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    manager = RoomManager()
    manager.games = served()
    with live_server(manager) as running:
        yield running


def options_of(server: LiveServer) -> dict[str, dict[str, Any]]:
    status, options = call(server, "GET", "/api/options")
    assert status == 200, options
    return {game["name"]: game for game in options["games"]}


def test_web_lobby_the_options_carry_each_games_default_seats_and_each_presets(server: LiveServer) -> None:
    """Every registered game (and the two here): default_seats() and default_seats(preset) for each preset."""
    games = options_of(server)
    assert set(GAME_NAMES) <= set(games)
    for game in served():
        document = games[game.name]
        assert document["default_seats"] == game.default_seats()
        assert document["preset_seats"] == {
            name: game.default_seats(game.ruleset(name)) for name in game.preset_names()
        }
        low, high = document["seats"]
        assert low <= document["default_seats"] <= high
    assert (games["guess"]["default_seats"], games["cheeky-four"]["default_seats"]) == (2, 4)
    assert games["cheeky-four"]["preset_seats"]["younger"] == 5
    assert games["cheeky-four"]["preset_seats"]["standard"] == 4


@pytest.mark.slow
def test_web_lobby_shows_each_games_usual_seat_count_and_follows_the_game_and_the_preset(server: LiveServer) -> None:
    """In Chromium: each game chosen shows its default_seats rows; a preset chosen, that preset's count."""
    games = options_of(server)
    with chromium() as browser, open_pages(browser) as pages:
        page = pages.open(server.url + "/")
        page.wait_for_selector("body[data-ready]")
        rows = page.locator("#seats .seat-row")
        first = next(iter(games.values()))
        expect(rows).to_have_count(first["preset_seats"][next(iter(first["presets"]))])
        # Every game in turn, and back to the first: the count follows the game each time.
        for name in [*games, next(iter(games))]:
            page.select_option("#game", name)
            expect(page.locator("#title")).to_have_text(games[name]["title"])
            expect(rows).to_have_count(games[name]["default_seats"])
            expect(page.locator("#seats .seat-row:first-child .seat-kind")).to_have_value("human")
        page.select_option("#game", "cheeky-four")
        expect(rows).to_have_count(4)
        page.fill("#seat-name-1", "Mo")  # a name typed in a row that stays is kept
        page.select_option("#preset", "younger")
        expect(rows).to_have_count(5)
        expect(page.locator("#seat-name-1")).to_have_value("Mo")
        page.select_option("#preset", "standard")
        expect(rows).to_have_count(4)
        page.click("#add-seat")
        expect(rows).to_have_count(5)
        # Custom rules (Cheeky Monkey's drawing offers them) keep the seats as they are.
        page.select_option("#game", "cheeky-monkey")
        expect(rows).to_have_count(3)
        page.click("#add-seat")
        page.select_option("#preset", "custom")
        expect(rows).to_have_count(4)
        page.select_option("#game", "guess")
        expect(rows).to_have_count(2)


def _held_until(page: Page, held: list[Route], count: int) -> None:
    """Let the page run until ``count`` drawing requests are held (each is asked for as its game is chosen)."""
    for _ in range(200):
        if len(held) >= count:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"{len(held)} drawing requests held, {count} expected")


@pytest.mark.slow
def test_web_lobby_a_room_made_while_the_games_drawing_loads_is_a_room_of_that_game(server: LiveServer) -> None:
    """In Chromium: while a game's drawing is held back, the form already has that game's seats and bots.

    A room made then is made (the drawing adds only the custom rules editor and the tagline), and a drawing that
    arrives after another game was chosen changes nothing.
    """
    games = options_of(server)
    with chromium() as browser, open_pages(browser) as pages:
        page = pages.open(server.url + "/")
        page.wait_for_selector("body[data-ready]")
        held: list[Route] = []

        def hold(route: Route) -> None:
            held.append(route)

        page.route("**/static/games/*.js", hold)
        # The first game's seats hold its heuristic bots; the guessing game has only a random bot.
        page.select_option("#game", "guess")
        _held_until(page, held, 1)
        expect(page.locator("#seats .seat-row")).to_have_count(games["guess"]["default_seats"])
        expect(page.locator("#seats .seat-row:nth-child(2) .seat-kind")).to_have_value("random")
        page.click("button[type=submit]")
        expect(page.locator("#link-list .watch-row")).to_have_count(1)
        expect(page.locator("#lobby-error")).to_have_text("")
        held.pop().continue_()
        # Too Many Monkeys chosen, then the guessing game before its drawing comes; whatever the guessing game
        # asks for comes first, Too Many Monkeys' drawing last.
        page.select_option("#game", "too-many-monkeys")
        _held_until(page, held, 1)
        page.select_option("#game", "guess")
        expect(page.locator("#title")).to_have_text(games["guess"]["title"])
        for route in reversed(held):
            route.continue_()
        page.wait_for_function("() => typeof GAMES['too-many-monkeys'] === 'object'")
        page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
        expect(page.locator("#title")).to_have_text(games["guess"]["title"])
        expect(page.locator("#preset option")).to_have_text(list(games["guess"]["presets"]))
        expect(page.locator("#custom > :not(legend)")).to_have_count(0)
        expect(page.locator("#seats .seat-row")).to_have_count(games["guess"]["default_seats"])
