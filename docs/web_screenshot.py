"""Make ``docs/_static/web-game.png``, ``web-phone.png`` and ``web-too-many-monkeys.png``: the web front end mid-game.

Run from the repository root with the ``dev`` extra installed and Chromium on PATH (``.ci/system-deps``)::

    python docs/web_screenshot.py

It serves seeded rooms on a free port, as ``cheekymonkey serve`` does: one person and two bots, whose person
plays a few turns through the API (the bots answer by themselves) before the page is saved at desktop width;
and one person and five bots, saved at phone width (390 by 844 pixels) on the person's first turn. Then a
room of *Too Many Monkeys*, one person and two random bots, whose person plays the first move offered each
time until the table shows cards turned up in every row and a choice of several moves.
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
from typing import Any

STATIC = Path(__file__).resolve().parent / "_static"


def main() -> int:
    """Serve seeded rooms, play into the middle of a game, and save the screenshots; return the exit status."""
    import uvicorn
    from playwright.sync_api import sync_playwright

    from cheekymonkey.web import RoomManager, create_app
    from cheekymonkey.web.server import uvicorn_config

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        print("Chromium is missing: run .ci/system-deps", file=sys.stderr)
        return 1
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn_config(create_app(RoomManager(allow_seeds=True, bot_delay=0.0)))
    config.timeout_graceful_shutdown = 1
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    def call(method: str, path: str, body: object = None, token: str | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url + path, data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    def my_turn(token: str) -> dict[str, Any]:
        while not (table := call("GET", "/api/table", token=token))["legal"]:
            time.sleep(0.02)
        return table

    seats = [{"name": "Ann"}, {"name": "Mo", "bot": "heuristic"}, {"name": "Zoe", "bot": "expectimax"}]
    room = call("POST", "/api/rooms", {"preset": "standard", "seats": seats, "seed": 12})
    desktop = room["seats"][0]["link"]
    token = desktop.split("#", 1)[1]
    # Ann plays a few turns (draw once, then stop, putting tokens down in the order offered), until a later
    # turn of hers shows a table with stacks built, two or more tokens in front, and if possible a claim.
    turns = 0
    while True:
        table = my_turn(token)
        kinds = [item["action"]["type"] for item in table["legal"]]
        view = table["view"]
        if view["phase"] == "decide" and turns >= 4 and len(view["front"]) >= 2 and ("claim" in kinds or turns >= 12):
            break  # best with a claim to show, but any table with tokens in front will do after a while
        if view["phase"] == "placing":
            chosen = table["legal"][0]["action"]
        elif len(view["front"]) < 2:
            chosen = {"type": "draw"}
        else:
            chosen = {"type": "stop"}
            turns += 1
        call("POST", "/api/move", {"version": table["version"], "action": chosen}, token)

    names = ["Ann", "Heuristic bot 1", "Expectimax bot 2", "MCTS bot 3", "Heuristic bot 4", "Random bot 5"]
    kinds = [None, "heuristic", "expectimax", "mcts", "heuristic", "random"]
    seats = [{"name": n, **({"bot": k} if k else {})} for n, k in zip(names, kinds, strict=True)]
    phone = call("POST", "/api/rooms", {"preset": "standard", "seats": seats, "seed": 11})["seats"][0]["link"]

    seats = [{"name": "Ann"}, {"name": "Mo", "bot": "random"}, {"name": "Zoe", "bot": "random"}]
    room = call("POST", "/api/rooms", {"game": "too-many-monkeys", "preset": "standard", "seats": seats, "seed": 3})
    monkeys = room["seats"][0]["link"]
    token = monkeys.split("#", 1)[1]
    # Ann plays the first move offered until every row shows a face-up card, the discard pile holds a few,
    # and she has a choice of two or more moves (best with a card turned down or a Skip waiting to show).
    for moves in range(400):
        table = my_turn(token)
        view = table["view"]
        rows_up = all(any(isinstance(slot, str) for slot in row) for row in view["rows"])
        shown = any(isinstance(slot, dict) for row in view["rows"] for slot in row) or any(view["skips"])
        if rows_up and len(view["discard"]) >= 4 and len(table["legal"]) >= 2 and (shown or moves >= 60):
            break
        call("POST", "/api/move", {"version": table["version"], "action": table["legal"][0]["action"]}, token)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        for link, name, viewport in (
            (desktop, "web-game.png", (860, 900)),
            (phone, "web-phone.png", (390, 844)),
            (monkeys, "web-too-many-monkeys.png", (1000, 820)),
        ):
            # Still pictures: no animation caught half way (the buttons are enabled once the table is drawn).
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]}, reduced_motion="reduce")
            page.goto(url + link)
            page.wait_for_selector("#actions button:enabled")
            page.screenshot(path=str(STATIC / name))
            print(f"saved {STATIC / name} ({(STATIC / name).stat().st_size} bytes)")
            page.close()
        browser.close()
    server.should_exit = True
    thread.join(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
