"""Pig on the web: the real ``cheekymonkey serve`` process, and its page in the machine's Chromium (Playwright).

Pig ships no drawing of its own, so the page is the library's generic one: the board's text and a button per
legal move, each with its key (``r`` and ``h``). A person plays a whole game from the keyboard.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import command_path
from playwright.sync_api import Browser, Page, expect, sync_playwright

from cheekymonkey_pig import PIG, Hold, Roll


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _call(url: str, method: str = "GET", body: object = None, token: str | None = None) -> tuple[int, Any]:
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
        return refused.code, json.loads(refused.read())


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``cheekymonkey serve`` offering Pig alone, rooms in memory, seeds allowed; its address."""
    port = _free_port()
    args = ["serve", "--port", str(port), "--store", ":memory:", "--game", "pig", "--allow-seeds", "--bot-delay", "0"]
    url = f"http://127.0.0.1:{port}"
    with subprocess.Popen([command_path(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
                try:
                    if _call(url + "/api/options")[0] == 200:
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


def test_the_server_offers_pig_with_its_presets_and_bots(server: str) -> None:
    status, options = _call(server + "/api/options")
    assert status == 200
    assert [game["name"] for game in options["games"]] == ["pig"]


def test_a_person_plays_a_whole_game_from_the_keyboard_on_the_generic_page(server: str, browser: Browser) -> None:
    """Roll, then hold, by the keys R and H; the board shows the game's text; the result and record are the game's."""
    body = {"game": "pig", "preset": "short", "seats": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}]}
    status, room = _call(server + "/api/rooms", "POST", {**body, "seed": 5})
    assert status == 201, room
    link = room["seats"][0]["link"]
    token = link.split("#", 1)[1]
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page: Page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + link)
    expect(page.locator("#title")).to_have_text("Pig")
    pressed: list[str] = []
    while True:
        done = page.locator("#result")
        roll = page.locator("#actions button[data-key='r']:enabled")
        hold = page.locator("#actions button[data-key='h']:enabled")
        page.wait_for_function(
            "() => !document.getElementById('result').hidden"
            " || document.querySelector('#actions button:enabled') !== null"
        )
        if done.is_visible():
            break
        status, table = _call(server + "/api/table", token=token)
        view = PIG.documents().from_document(table["view"])
        board = page.locator("#board pre").inner_text()
        assert board.strip() == table["board"].strip()  # the game's own board text, as the terminal shows it
        lines = [" ".join(line.split()) for line in board.splitlines()]
        assert f"target {view.target}" in lines
        assert f"scores Ann {view.scores[0]}, Robo {view.scores[1]}" in lines
        assert f"turn total {view.turn_total}" in lines
        hint = ", ".join(item["text"] for item in table["legal"])  # the notation hint: the moves there are
        assert page.locator("#command-text").get_attribute("placeholder") == hint
        key = "h" if pressed and pressed[-1] == "r" else "r"
        expect(roll if key == "r" else hold).to_be_visible()
        version = table["version"]
        page.keyboard.press(key)
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version)
        pressed.append(key)
    expect(page.locator("#winners")).to_contain_text("win")
    status, record_document = _call(server + "/api/record", token=token)
    assert status == 200
    record = PIG.documents().from_document(record_document, "record")
    states = record.states()
    assert PIG.is_terminal(states[-1])
    mine = [action for state, action in zip(states, record.actions, strict=False) if PIG.to_move(state) == 0]
    assert mine == [Roll() if key == "r" else Hold() for key in pressed]
    assert len(pressed) >= 4
    assert errors == []
    context.close()
