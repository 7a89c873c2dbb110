"""A bounded load test of the web front end: rooms of two clients each play random legal moves at once.

It runs ``benchmarks/web_load.py`` (which starts ``cheekymonkey serve`` as a real process on 127.0.0.1) with
a small load, and checks its findings: every move accepted, and nothing lost or mixed between rooms. The
same script, with more rooms, gives the figures in the web front end how-to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "web_load.py"


@pytest.mark.slow
def test_thirty_rooms_of_two_clients_play_every_move_with_nothing_lost_or_mixed() -> None:
    rooms, moves = 30, 30
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--rooms", str(rooms), "--moves", str(moves), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["problems"] == []
    # 30 moves are far fewer than a standard game takes, so every room plays all of them.
    assert report["moves"] == rooms * moves
    # Each move reaches both seats' streams (a burst may come as one message), and each stream starts with one.
    assert rooms * moves <= report["stream_messages"] <= 2 * rooms * (moves + 1)
    assert report["latency_ms_p99"] is not None
    assert report["memory_kib_per_room"] > 0
