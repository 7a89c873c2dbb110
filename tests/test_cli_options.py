"""Options are checked before any work: output files, serve's port, rooms and delays, bot names.

Every output file option of every command has the one type that checks it (``output_path``), so a path that
cannot be written is refused while the options are read, before a game is played or a server started.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cheekymonkey.cli import build_parser, main
from cheekymonkey.cli.options import output_path

ROOT = Path(__file__).resolve().parent.parent

INPUTS = {("replay", "file"), ("verify", "ruleset")}
"""The options that read a file: the only ones that take a plain path."""

OUTPUTS = {("play", "record"), ("watch", "record"), ("simulate", "json"), ("simulate", "plot")}


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_output_file_option_of_every_command_is_checked_by_the_one_helper() -> None:
    """The options typed output_path are exactly the outputs; every other path option is an input."""
    typed = {
        (name, action.dest)
        for name, command in _commands().items()
        for action in command._actions
        if action.type is output_path
    }
    plain = {
        (name, action.dest)
        for name, command in _commands().items()
        for action in command._actions
        if action.type is Path or action.type is str
    }
    assert typed == OUTPUTS
    assert plain == INPUTS


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--json", "/nonexistent/dir/x.json", "--games", "2"], "there is no folder '/nonexistent/dir'"),
        (["simulate", "--json", ".", "--games", "2"], "'.' is a folder"),
        (["simulate", "--plot", "/nonexistent/p", "--games", "2"], "there is no folder '/nonexistent'"),
        (["simulate", "--json", "a-file/x.json", "--games", "2"], "'a-file' is not a folder"),
        (["watch", "--record", "/nonexistent/x.json"], "there is no folder"),
    ],
)
def test_an_output_file_that_cannot_be_written_is_refused_before_any_game(
    args: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Status 2 and the reason on stderr, and nothing played: no games, no progress, no table."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert words in captured.err
    assert captured.out == ""


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


@pytest.mark.parametrize("command", ["play", "watch", "simulate"])
def test_an_empty_bot_name_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """'--bots heuristic,,random' names an empty bot: refused, where it used to be dropped in silence."""
    with pytest.raises(SystemExit) as stopped:
        main([command, "--bots", "heuristic,,random"])
    assert stopped.value.code == 2
    assert "a bot name is empty" in capsys.readouterr().err


def _serve(port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", "serve", "--port", str(port)],
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
    assert "cannot listen on 127.0.0.1 port" in err


def test_serve_prints_the_address_it_listens_on_and_answers_there() -> None:
    """With port 0 the server picks a free port, prints it once bound, and the page is there at once."""
    server = _serve(0)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("Cheeky Monkey: open http://127.0.0.1:"), line
        address = line.split("open ")[1].split(" ")[0]
        assert not address.endswith(":0/")
        deadline = time.monotonic() + 60
        with urllib.request.urlopen(address, timeout=max(1.0, deadline - time.monotonic())) as page:
            assert page.status == 200
    finally:
        server.terminate()
        server.communicate(timeout=60)
