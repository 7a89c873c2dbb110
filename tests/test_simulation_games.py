"""Simulating either game: Too Many Monkeys in process, in threads and processes, cut off by a turn limit, and printed.

The clusters (Dask, Ray) play both games in ``tests/test_simulation.py``, which starts them once for all.
Too Many Monkeys counts no points (TM23 and the outcome's ruling): its summary has places, never scores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.simulation import Summary, simulate
from cheekymonkey.table import Seat, Table

ROOT = Path(__file__).resolve().parent.parent
GAME = "too-many-monkeys"
BOTS = ("random", "random", "random")


def _json_of(summary: Summary) -> Any:
    return json.loads(json.dumps(summary.to_dict()))


def _turns_without_a_limit(bots: tuple[str, ...], games: int, seed: int) -> list[int]:
    """Each game of a run played alone on a Table with no limit, bots moved round as simulate moves them."""
    game = game_named(GAME)
    lengths = []
    for number in range(games):
        order = [(s + number) % len(bots) for s in range(len(bots))]
        table = Table(game, [Seat.bot(game, bots[line]) for line in order], seed=seed + number, events=False)
        table.advance()
        assert table.over
        lengths.append(table.turns)
    return lengths


def test_too_many_monkeys_gives_the_same_summary_in_process_in_threads_and_in_processes() -> None:
    """In-process, a thread pool and 2 processes, in blocks of 1, 4 and 50: the summaries are identical."""
    reference = simulate(BOTS, 24, seed=5, game=GAME)
    with ThreadPoolExecutor(3) as threads:
        assert simulate(BOTS, 24, seed=5, game=GAME, executor=threads, block_size=4) == reference
    assert simulate(BOTS, 24, seed=5, game=game_named(GAME), workers=2, block_size=5) == reference
    for size in (1, 50):
        assert simulate(BOTS, 24, seed=5, game=GAME, block_size=size) == reference
    assert reference.games == 24
    assert reference != simulate(BOTS, 24, seed=5)  # the other game, by default


def test_too_many_monkeys_counts_places_and_no_scores() -> None:
    """One winner a game (TM23); each bot's places add up to the games and its wins are its first places."""
    summary = simulate(BOTS, 30, seed=8, game=GAME)
    assert not summary.scored
    assert sum(line.wins for line in summary.bots) == summary.games == 30
    for line in summary.bots:
        assert line.scores.total == 0
        assert line.mean_score == 0.0
        assert line.places.total == summary.games
        assert dict(line.places.pairs).get(1, 0) == line.wins
        assert set(line.places.values) <= {1, 2, 3}
        assert line.mean_place == pytest.approx(line.places.mean)
    assert simulate(["heuristic", "random"], 10, seed=8).scored  # Cheeky Monkey counts points


def test_too_many_monkeys_games_past_the_turn_limit_are_truncated_and_counted_apart() -> None:
    """Games longer than the limit, played alone with none, are exactly the truncated ones; the rest are results."""
    limit = 120
    lengths = _turns_without_a_limit(BOTS, 20, seed=3)
    finished = [turns for turns in lengths if turns <= limit]
    assert 0 < len(finished) < 20  # the limit cuts some games off and leaves others
    summary = simulate(BOTS, 20, seed=3, game=GAME, max_turns=limit)
    assert (summary.games, summary.truncated) == (len(finished), 20 - len(finished))
    assert summary.completed == ((0, 20),)
    assert summary.turns.total == summary.games
    assert summary.mean_turns == sum(finished) / len(finished)
    assert sum(line.wins for line in summary.bots) == summary.games
    assert all(line.places.total == summary.games for line in summary.bots)
    assert simulate(BOTS, 20, seed=3, game=GAME, max_turns=limit, block_size=3) == summary


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    command = [sys.executable, "-m", "cheekymonkey", "simulate", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_the_command_simulates_too_many_monkeys_prints_places_and_the_truncated_games(tmp_path: Path) -> None:
    """--game picks the game: the JSON is simulate()'s, the table has places and no scores, truncation is told."""
    out = tmp_path / "summary.json"
    arguments = ("--game", GAME, "--bots", "random", "--players", "3", "--games", "20", "--seed", "3")
    done = _simulate(*arguments, "--max-turns", "120", "--workers", "2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    expected = simulate(BOTS, 20, seed=3, game=GAME, max_turns=120)
    assert json.loads(out.read_text(encoding="utf-8")) == _json_of(expected)
    assert "(Too Many Monkeys, standard rules, at most 120 turns each)" in done.stdout
    assert "mean place" in done.stdout
    assert "mean score" not in done.stdout
    cut = expected.truncated
    assert f"{expected.games} games with a result, and {cut} truncated" in done.stdout
    assert f"{cut} games were cut off at the limit (truncated)" in done.stdout
    assert "20 games in" in done.stderr  # every game played, the truncated ones included


def test_the_command_shows_scores_for_the_game_that_has_them_and_no_truncation_line_without_any() -> None:
    """Cheeky Monkey's table keeps its mean score; with no game cut off, nothing is said of truncation."""
    done = _simulate("--bots", "heuristic,random", "--games", "6", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "(Cheeky Monkey, standard rules)" in done.stdout
    assert "mean score" in done.stdout
    assert "mean place" in done.stdout
    assert "truncated" not in done.stdout


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_command_refuses_a_variant_or_bot_the_game_does_not_have(game: str) -> None:
    """A variant or a bot of no such name, for the game chosen: one line naming the game's own, status 2."""
    bad_variant = _simulate("--game", game, "--bots", "random", "--variant", "nonesuch", "--games", "1")
    assert bad_variant.returncode == 2
    assert f"the variants are {', '.join(game_named(game).preset_names())}" in bad_variant.stderr
    bad_bot = _simulate("--game", game, "--bots", "nonesuch", "--games", "1")
    assert bad_bot.returncode == 2
    assert f"the bots are {', '.join(game_named(game).bot_names())}" in bad_bot.stderr
    assert "Traceback" not in bad_variant.stderr + bad_bot.stderr
