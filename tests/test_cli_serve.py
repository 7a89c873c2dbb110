"""``cheekymonkey serve`` checks its options as it reads them, binds its port first, and serves the games named."""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cheekymonkey.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent


def _serve_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command: argparse.ArgumentParser = sub.choices["serve"]
    return command


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "99999"],
        ["--port", "-1"],
        ["--port", "http"],
        ["--max-rooms", "0"],
        ["--max-rooms", "-3"],
        ["--bot-delay", "-2"],
        ["--bot-delay", "nan"],
        ["--bot-delay", "1e9"],
        ["--idle-minutes", "inf"],
    ],
)
def test_serve_refuses_options_that_cannot_work_as_it_reads_them(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A port outside 0-65535, no rooms, a negative or endless delay: status 2 with the option named."""
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *args])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {args[0]}" in err
    assert "Traceback" not in err


def _memory_store() -> list[str]:
    # A server that keeps its rooms in memory, where it has the option: nothing is shared between tests.
    command = _serve_parser()
    return ["--store", ":memory:"] if any("--store" in a.option_strings for a in command._actions) else []


_MEMORY = _memory_store()


def _serve(port: int, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(port), *_MEMORY, *options],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_serve_on_a_busy_port_says_so_in_one_line_and_prints_no_address() -> None:
    """The port is bound before the address is printed: a busy one gives status 2 and one line, no link."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        server = _serve(busy.getsockname()[1])
        out, err = server.communicate(timeout=120)
    assert server.returncode == 2
    assert "open http" not in out
    assert err.count("\n") == 1
    assert "cannot listen on 127.0.0.1" in err


def test_serve_prints_the_address_it_listens_on_and_answers_there() -> None:
    """With port 0 the server picks a free port, prints it once bound, and the page is there at once."""
    server = _serve(0)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None, line
        assert int(found[1]) > 0
        address = found[0]
        deadline = time.monotonic() + 60
        with urllib.request.urlopen(address, timeout=max(1.0, deadline - time.monotonic())) as page:
            assert page.status == 200
    finally:
        server.terminate()
        server.communicate(timeout=60)


def test_serve_offers_only_the_games_named_by_game() -> None:
    """``serve --game too-many-monkeys``: the server's options list that game alone, and the page is there."""
    server = _serve(0, "--game", "too-many-monkeys")
    try:
        assert server.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        assert found is not None
        with urllib.request.urlopen(found[0] + "api/options", timeout=60) as answer:
            options = json.loads(answer.read())
        assert [game["name"] for game in options["games"]] == ["too-many-monkeys"]
    finally:
        server.terminate()
        server.communicate(timeout=60)


def test_serve_on_every_address_warns_that_it_speaks_plain_http() -> None:
    """``--host 0.0.0.0`` prints, under the address, that the tokens travel unencrypted and TLS belongs in front."""
    server = _serve(0, "--host", "0.0.0.0")
    try:
        assert server.stdout is not None
        address, warning = server.stdout.readline(), server.stdout.readline()
        assert re.search(r"http://0\.0\.0\.0:\d+/", address), address
        assert warning.startswith("Plain HTTP on every address: put a reverse proxy with TLS in front"), warning
    finally:
        server.terminate()
        server.communicate(timeout=60)


def test_serve_on_loopback_gives_no_plain_http_warning() -> None:
    """On 127.0.0.1, the default, nothing leaves the machine, and the warning is not printed."""
    server = _serve(0)
    try:
        assert server.stdout is not None
        server.stdout.readline()
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=60)
    assert "Plain HTTP" not in out


def test_the_web_how_to_says_what_travels_in_the_clear_and_what_every_seat_may_know() -> None:
    """The how-to warns that a public address is plain HTTP (tokens included) and says why stack order is public."""
    text = " ".join((ROOT / "docs" / "howto" / "web-front-end.md").read_text(encoding="utf-8").split())
    on_a_network = text[text.index("## On a network") :]
    assert "`--host 0.0.0.0`" in on_a_network
    assert "the seat tokens included" in on_a_network
    assert "reverse proxy with TLS" in on_a_network
    sent = text[text.index("## What each seat is sent") :]
    assert "the order of every stack is public by the rules" in sent
    assert "never the full state" in sent
    docs = [path for path in (ROOT / "docs").rglob("*.md") if "_build" not in path.parts]
    for path in docs:
        assert "never leaves the server: it shows every stack whole" not in path.read_text(encoding="utf-8")
