"""Make ``docs/_static/web-game.png``: the web front end in the middle of a seeded game, in headless Chromium.

Run from the repository root with the ``dev`` extra installed and Chromium on PATH (``.ci/system-deps``)::

    python docs/web_screenshot.py

It serves a seeded room of one person and two bots, plays the person's first turns through the API (the
bots answer by themselves), then opens the person's link in Chromium and saves what the page shows.
"""

from __future__ import annotations

import json
import shutil
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

OUT = Path(__file__).resolve().parent / "_static" / "web-game.png"


def main() -> int:
    """Serve a seeded room, play into the middle of the game, and save the screenshot; return the exit status."""
    import uvicorn
    from playwright.sync_api import sync_playwright

    from cheekymonkey import legal_actions
    from cheekymonkey.web import RoomManager, create_app

    manager = RoomManager(allow_seeds=True, bot_delay=0.0)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(create_app(manager), log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    def post(path: str, body: object, token: str | None = None) -> dict[str, object]:
        request = urllib.request.Request(url + path, json.dumps(body).encode(), method="POST")
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request) as answer:
            result: dict[str, object] = json.loads(answer.read())
            return result

    seats = [{"name": "Ann"}, {"name": "Mo", "bot": "heuristic"}, {"name": "Zoe", "bot": "expectimax"}]
    room = post("/api/rooms", {"preset": "standard", "seats": seats, "seed": 12})
    link = room["seats"][0]["link"]  # type: ignore[index]
    token = link.split("#", 1)[1]
    held = manager.rooms[room["room"]]  # type: ignore[index]
    # Ann plays a few turns (draw once, then stop in the order drawn), until a later turn of hers shows a
    # table with stacks built, two or more tokens in front, and if possible a claim to make.
    turns = 0
    while True:
        while held.state.seat != 0 or held.state.phase.name not in ("DECIDE", "PLACING"):
            time.sleep(0.01)
        state = held.state
        claim = any(type(action).__name__ == "Claim" for action in legal_actions(state))
        if state.phase.name == "DECIDE" and turns >= 4 and len(state.front) >= 2 and (claim or turns >= 12):
            break  # best with a claim to show, but any table with tokens in front will do after a while
        if state.phase.name == "PLACING":
            post(
                "/api/move",
                {"format": "cheekymonkey/1", "kind": "action", "type": "place", "animal": state.front[0].name.lower()},
                token,
            )
        elif len(state.front) < 2:
            post("/api/move", {"format": "cheekymonkey/1", "kind": "action", "type": "draw"}, token)
        else:
            post("/api/move", {"format": "cheekymonkey/1", "kind": "action", "type": "stop"}, token)
            turns += 1
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        print("Chromium is missing: run .ci/system-deps", file=sys.stderr)
        return 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        page = browser.new_page(viewport={"width": 860, "height": 760})
        page.goto(url + link)
        page.wait_for_selector("#actions button")
        page.wait_for_timeout(300)
        page.screenshot(path=str(OUT))
        browser.close()
    server.should_exit = True
    thread.join(timeout=10)
    print(f"saved {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
