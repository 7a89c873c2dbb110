"""Test support for the web front end: a real uvicorn server, a real ``cheekymonkey serve`` process, a client.

:class:`LiveServer` runs uvicorn in a thread of the test process (uvicorn's own ``Server``, configured as
``cheekymonkey serve`` configures it, on a socket bound to a free port), so a test can look at a room's
table on the server to check what the page did. :class:`ServeProcess` starts ``python -m cheekymonkey
serve`` as its own process, as a user would, for the tests that kill it or run two. The browser is the
machine's Chromium, driven by Playwright; without it the browser tests fail and say how to install it.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cheekymonkey.web import Limits, RoomManager, create_app
from cheekymonkey.web.server import Server, uvicorn_config

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM_MISSING = (
    "Chromium is not installed, and the web front end's browser tests need it. Install it with "
    "'apt-get update && apt-get install -y chromium' (or run .ci/system-deps), or point CHEEKYMONKEY_CHROMIUM "
    "at a Chromium or Chrome executable. Do not run 'playwright install': these tests use the system's browser."
)

REDIS_MISSING = (
    "redis-server is not installed, and the tests of the Redis store need it. Install it with "
    "'apt-get update && apt-get install -y redis-server' (or run .ci/system-deps)."
)


def chromium_path() -> str | None:
    """The Chromium executable to drive: $CHEEKYMONKEY_CHROMIUM, else chromium or chromium-browser on PATH."""
    configured = os.environ.get("CHEEKYMONKEY_CHROMIUM")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """A uvicorn server in a background thread, configured as ``cheekymonkey serve`` does; ``url`` is where it is."""

    def __init__(
        self,
        manager: RoomManager,
        *,
        header_timeout: float = 10.0,
        idle_timeout: int = 20,
        max_connections: int | None = None,
        trusted_proxies: Sequence[str] = (),
        **app_options: Any,
    ) -> None:
        self.manager = manager
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn_config(
            create_app(manager, **app_options),
            header_timeout=header_timeout,
            idle_timeout=idle_timeout,
            max_connections=max_connections,
            trusted_proxies=trusted_proxies,
        )
        config.timeout_graceful_shutdown = 1  # open event streams never end by themselves
        self._server = Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)

    @property
    def listening(self) -> socket.socket:
        """The socket the server listens on."""
        return self._socket

    def connections(self) -> list[Any]:
        """The server's open connections (uvicorn's protocol objects, each with its ``transport``)."""
        return list(self._server.server_state.connections)

    def start(self) -> None:
        """Start serving; return once the server accepts requests."""
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the uvicorn server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop the server (open event streams are cut) and wait for its thread."""
        self._server.should_exit = True
        self._thread.join(timeout=20)
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


class ServeProcess:
    """``python -m cheekymonkey serve`` as its own process on a free port of 127.0.0.1, with ``args`` added."""

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        port: int | None = None,
        stderr: Path | None = None,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.port = port if port is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._stderr = stderr
        command = [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(self.port), *args]
        err = open(stderr, "ab") if stderr is not None else subprocess.DEVNULL  # noqa: SIM115 - closed in stop()
        self._err = err
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=err,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=preexec_fn,
        )
        self.first_line = ""

    def wait_ready(self, seconds: float = 30) -> None:
        """Wait until the server answers ``GET /api/options``."""
        assert self.process.stdout is not None
        self.first_line = self.process.stdout.readline().decode()
        deadline = time.monotonic() + seconds
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/api/options")
                if connection.getresponse().status == 200:
                    connection.close()
                    return
            except OSError:
                pass
            assert self.process.poll() is None, f"the server exited: {self.first_line}"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): no shutdown, nothing flushed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 seconds)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - reported by the kill
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self._err is not subprocess.DEVNULL:
            self._err.close()  # type: ignore[union-attr]


@contextmanager
def serve_process(args: Sequence[str] = (), **options: Any) -> Iterator[ServeProcess]:
    """A running ``cheekymonkey serve`` process for the ``with`` block (stopped at the end)."""
    server = ServeProcess(args, **options)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def call(
    server: LiveServer | ServeProcess | str,
    method: str,
    path: str,
    body: object = None,
    *,
    token: str | None = None,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One HTTP request with the standard library; return the status and the decoded JSON answer."""
    base = server if isinstance(server, str) else server.url
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def action(kind: str, **fields: object) -> dict[str, object]:
    """An action document."""
    return {"format": "cheekymonkey/1", "kind": "action", "type": kind, **fields}


def move(version: int, kind: str, **fields: object) -> dict[str, object]:
    """A move's body: the version it was chosen from and its action document."""
    return {"version": version, "action": action(kind, **fields)}


def token_of(room: dict[str, Any], seat: int) -> str:
    """The token in the link of ``room``'s seat ``seat``."""
    link: str = room["seats"][seat]["link"]
    assert link.startswith("/play#")
    return link.removeprefix("/play#")


def make_room(
    server: LiveServer | ServeProcess | str,
    *names: str,
    seed: int | None = 5,
    bots: dict[int, str] | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Make a room of the standard game with seats named ``names`` (``bots``: seat -> bot kind); assert 201."""
    seats = [{"name": n, **({"bot": bots[i]} if bots and i in bots else {})} for i, n in enumerate(names)]
    body: dict[str, Any] = {"preset": "standard", "seats": seats, **extra}
    if seed is not None:
        body["seed"] = seed
    status, answer = call(server, "POST", "/api/rooms", body, headers=headers)
    assert status == 201, answer
    assert isinstance(answer, dict)
    return answer


def read_event(response: http.client.HTTPResponse) -> dict[str, Any]:
    """The next ``table`` message of a server-sent event stream (comments skipped)."""
    data = []
    while True:
        line = response.readline().decode().rstrip("\n")
        if line.startswith("data: "):
            data.append(line.removeprefix("data: "))
        elif not line and data:
            message: dict[str, Any] = json.loads("\n".join(data))
            return message


@contextmanager
def chromium() -> Iterator[Browser]:
    """The machine's Chromium, launched headless through Playwright for the ``with`` block.

    Raises:
        RuntimeError: If no Chromium is installed (the message says how to install it).
    """
    from playwright.sync_api import expect, sync_playwright

    # Every wait of these tests is for something the page will do; the margins are wide, so that a loaded
    # machine slows the tests down and never fails them (Playwright's own default for expect is 5 s).
    expect.set_options(timeout=60_000)
    executable = chromium_path()
    if executable is None:
        raise RuntimeError(CHROMIUM_MISSING)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        try:
            yield launched
        finally:
            launched.close()


# Refused requests are answers the page shows, not script errors (the browser logs their status).
_REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of (400|404|409|410)")


class Pages:
    """Opens pages in separate browser contexts (separate people) and collects every script error in ``errors``."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self._contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str, *, width: int = 1000, height: int = 900, touch: bool = False) -> Page:
        """A new person's page at ``url``, ``width`` by ``height`` pixels; with ``touch``, a phone's touch screen."""
        context = self._browser.new_context(
            viewport={"width": width, "height": height}, accept_downloads=True, has_touch=touch, is_mobile=touch
        )
        self._contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)
        page.goto(url)
        return page

    def _console(self, message: Any) -> None:
        if message.type == "error" and not _REFUSED.match(message.text):
            self.errors.append(message.text)

    def close(self) -> None:
        """Close every page opened."""
        for context in self._contexts:
            context.close()


@contextmanager
def open_pages(browser: Browser) -> Iterator[Pages]:
    """:class:`Pages` for the ``with`` block, closed at its end; any script error on them fails the block."""
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert opened.errors == [], "the page reported script errors"


@contextmanager
def redis_server(folder: Path, *, appendonly: bool = True) -> Iterator[str]:
    """A real redis-server on a free port of 127.0.0.1, keeping its files in ``folder``; yields its URL.

    ``appendonly``: with its append-only file (``appendfsync everysec``), as a Redis store requires.

    Raises:
        RuntimeError: If redis-server is not installed (the message says how to install it).
    """
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError(REDIS_MISSING)
    port = free_port()
    process = subprocess.Popen(
        [executable, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "", "--appendonly",
         "yes" if appendonly else "no", "--appendfsync", "everysec", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if process.poll() is not None:
                raise RuntimeError("redis-server exited")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def open_stream(
    server: LiveServer | ServeProcess, token: str, headers: dict[str, str] | None = None
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """A seat's event stream, opened (the caller closes the connection)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    connection.request("GET", "/api/events", headers={"Authorization": f"Bearer {token}", **(headers or {})})
    return connection, connection.getresponse()


def browser_rooms() -> RoomManager:
    """Rooms for the browser tests: seeds allowed, bots moving at once, room limits out of the way."""
    return RoomManager(allow_seeds=True, bot_delay=0.0, limits=Limits(rooms_per_client=100, rooms_per_minute=100))


# The page's moves go through this fetch. While ``window.holdMode`` is "answer", each move reaches the server
# and its answer is held back from the page (the event stream brings the next table first, as on a slow link);
# while it is "request", the move itself is held before the server sees it. ``window.movesSent`` counts the
# moves sent, ``window.answersGiven`` the answers the page has had. ``window.release()`` stops holding and lets
# everything held go.
HOLD_MOVES = """() => {
    const original = window.fetch;
    window.holdMode = "";
    window.movesSent = 0;
    window.answersGiven = 0;
    const held = [];
    const hold = () => new Promise((go) => held.push(go));
    window.fetch = async (url, init) => {
        if (!String(url).startsWith("/api/move")) return original(url, init);
        window.movesSent += 1;
        if (window.holdMode === "request") await hold();
        const holdAnswer = window.holdMode === "answer";
        const response = await original(url, init);
        if (holdAnswer && window.holdMode !== "") await hold();
        window.answersGiven += 1;
        return response;
    };
    window.release = () => {
        window.holdMode = "";
        for (const go of held.splice(0)) go();
    };
}"""
