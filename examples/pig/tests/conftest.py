"""Helpers for Pig's checks: the installed ``cheekymonkey`` command, run in a pipe or at a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def command_path() -> str:
    """The ``cheekymonkey`` command installed beside this Python, else the one on PATH."""
    beside = Path(sys.executable).with_name("cheekymonkey")
    found = str(beside) if beside.is_file() else shutil.which("cheekymonkey")
    assert found, "the cheekymonkey command is not installed: pip install -e . (and -e examples/pig)"
    return found


def _env(columns: int) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm-256color", COLUMNS=str(columns), LINES="50", PYTHONUNBUFFERED="1")
    return env


def run(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``cheekymonkey ARGS`` in a pipe."""
    return subprocess.run(
        [command_path(), *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(160),
        timeout=300,
        check=False,
    )


def run_at_terminal(args: list[str], answers: str, cwd: Path, columns: int = 100) -> tuple[int, str]:
    """``cheekymonkey ARGS`` at a pseudo-terminal (not echoed); status and output.

    The answers are typed one line at a time, each when the command waits at a prompt (its output stops after
    ": ", ". " or "? "), as a person types: ``play`` discards what was typed before its prompt. A pause
    ("Press Enter ...") is answered with Enter, and a prompt met after the last answer with the end of input.
    """
    leader, follower = pty.openpty()
    attributes = termios.tcgetattr(follower)
    attributes[3] &= ~termios.ECHO
    termios.tcsetattr(follower, termios.TCSANOW, attributes)
    process = subprocess.Popen(
        [command_path(), *args], stdin=follower, stdout=follower, stderr=follower, cwd=cwd, env=_env(columns)
    )
    os.close(follower)
    pending = answers.splitlines(keepends=True)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 300  # a wide margin: the game takes a second or two
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
        tail = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks[-4:]).decode("utf-8", "replace")).replace("\r", "")
        if re.search(r"Press Enter [^\n]*\. $", tail):
            os.write(leader, b"\n")
        elif tail.endswith((": ", ". ", "? ")):
            os.write(leader, pending.pop(0).encode() if pending else b"\x04")
    os.close(leader)
    status = process.wait(timeout=30)
    return status, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
