"""Bounded load tests of the web front end: whole games at once, and the latency benchmark on a tiny configuration.

It runs ``benchmarks/web_load.py`` (which starts ``cheekymonkey serve`` as a real process on 127.0.0.1, its
rooms in an SQLite file) with a small load, and checks its findings: every game played to its end, nothing
lost or mixed between rooms, and the server's peak memory under a ceiling. The same script, with more rooms,
gives the figures in the web front end how-to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "web_load.py"

PEAK_MIB = 96
"""The ceiling on the server's peak resident memory for the 20 rooms (44.5 MiB measured; see the how-to)."""


@pytest.mark.slow
def test_twenty_rooms_of_people_and_a_bot_play_whole_games_with_nothing_lost_or_mixed() -> None:
    """Twenty games at once, each to its end: no problem found, every game over, peak memory under the ceiling."""
    rooms = 20
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--rooms", str(rooms), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["problems"] == []
    assert report["games_finished"] == rooms
    assert report["moves"] >= rooms  # every game needs its people's moves
    # Each move's table reaches the other person's stream too, and each stream starts with one.
    assert report["stream_messages"] >= report["moves"] + 2 * rooms
    assert report["server_peak_rss_kib"] < PEAK_MIB * 1024
    assert report["latency_ms_p50"] is not None
    assert report["latency_ms_p99"] >= report["latency_ms_p50"]


@pytest.mark.slow
def test_the_latency_benchmark_runs_on_a_tiny_configuration() -> None:
    """``--latency`` on one room of two bots, a few samples: both ways of running the bots, every figure there."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--latency", "--rooms", "1", "--bots", "2", "--bot", "heuristic",
         "--samples", "20", "--gap", "0.05", "--warm-up", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["problems"] == []
    assert sorted(report["runs"]) == ["bot_workers_0", "bot_workers_1"]
    for run in report["runs"].values():
        assert run["samples"] == [20, 20]
        assert 0 < run["idle_ms_p50"] <= run["idle_ms_p95"] <= run["idle_ms_max"]
        assert 0 < run["busy_ms_p50"] <= run["busy_ms_p95"] <= run["busy_ms_max"]
        assert run["p95_busy_over_idle"] == round(run["busy_ms_p95"] / run["idle_ms_p95"], 2)
        assert run["bot_moves_while_busy"] > 0  # the bots were at work while the busy figures were taken
