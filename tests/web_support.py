"""Test support for the web front end: a real uvicorn server on 127.0.0.1, a JSON client, and Chromium.

The server runs in a thread of the test process (uvicorn's own ``Server``, on a socket bound to a free
port), so a test can look at a room's full state on the server to check what the page did. The browser
is the machine's Chromium, driven by Playwright; without it the browser tests fail and say how to install it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from cheekymonkey.web import RoomManager, create_app

CHROMIUM_MISSING = (
    "Chromium is not installed, and the web front end's browser tests need it. Install it with "
    "'apt-get update && apt-get install -y chromium' (or run .ci/system-deps), or point CHEEKYMONKEY_CHROMIUM "
    "at a Chromium or Chrome executable. Do not run 'playwright install': these tests use the system's browser."
)


def chromium_path() -> str | None:
    """The Chromium executable to drive: $CHEEKYMONKEY_CHROMIUM, else chromium or chromium-browser on PATH."""
    configured = os.environ.get("CHEEKYMONKEY_CHROMIUM")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


class LiveServer:
    """A uvicorn server for one test module, in a background thread; ``url`` is where it listens."""

    def __init__(self, manager: RoomManager, *, max_body: int = 8192) -> None:
        self.manager = manager
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(manager, max_body=max_body),
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=1,  # open event streams never end by themselves
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)

    def start(self) -> None:
        """Start serving; return once the server accepts requests."""
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the uvicorn server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop the server (open event streams are cut) and wait for its thread."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()
        if self._thread.is_alive():  # pragma: no cover - reported, never silently left behind
            raise RuntimeError("the uvicorn server thread did not stop")


@contextmanager
def live_server(manager: RoomManager, **options: Any) -> Iterator[LiveServer]:
    """Serve ``manager``'s rooms on a free port for the duration of the ``with`` block."""
    server = LiveServer(manager, **options)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def call(
    server: LiveServer,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One HTTP request with the standard library; return the status and the decoded JSON answer."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(server.url + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def action(kind: str, **fields: object) -> dict[str, object]:
    """An action document."""
    return {"format": "cheekymonkey/1", "kind": "action", "type": kind, **fields}
