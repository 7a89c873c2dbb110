"""Leagues at any table size (:func:`cheekymonkey.simulation.leagues.table_league`, ``cheekymonkey league --seats``).

Each bot heads one table of ``seats``, the bots after it round the list filling the others; every game's
placings count as head-to-head results between the bots at its table, fitted by Bradley-Terry, with 95%
intervals from a seeded bootstrap over the games.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cheekymonkey import Action, GameState, InvalidGameError, InvalidValueError, RandomBot
from cheekymonkey.simulation.leagues import TableStanding, league, line_ups, pairwise_placings, table_league

ROOT = Path(__file__).resolve().parent.parent


def test_line_ups_seat_every_bot_as_often_and_repeat_bots_only_when_there_are_too_few() -> None:
    assert line_ups(3, 2) == ((0, 1), (1, 2), (2, 0))
    tables = line_ups(4, 6)
    assert len(tables) == 4
    for entry in range(4):
        assert sum(table.count(entry) for table in tables) == 6  # each bot holds `seats` seats in all
    assert all(len(set(table)) == 3 for table in line_ups(5, 3))  # enough bots: no repeats at a table


def test_placings_become_head_to_head_results_ties_halved_and_a_bot_never_against_itself() -> None:
    assert pairwise_placings([[(0, 1), (1, 2), (2, 2)]]) == [(0, 1, 1.0, 0.0), (0, 2, 1.0, 0.0), (1, 2, 0.5, 0.5)]
    assert pairwise_placings([[(0, 2), (0, 1), (1, 1)]]) == [(0, 1, 0.0, 1.0), (0, 1, 0.5, 0.5)]


def test_a_league_of_three_seats_repeats_from_its_seed_and_ranks_the_random_bot_last() -> None:
    first = table_league(["random", "heuristic", "expectimax"], 6, 3, seed=1, bootstrap=40)
    again = table_league(["random", "heuristic", "expectimax"], 6, 3, seed=1, bootstrap=40)
    assert first == again
    assert first.standings[-1].name == "random"
    assert first.standings[-1].mean_place == 3.0  # last in every one of its 18 games
    for line in first.standings:
        assert line.low <= line.rating <= line.high
        assert line.seatings == 18
    ratings = [line.rating for line in first.standings]
    assert sum(ratings) / 3 == pytest.approx(1500.0)
    assert first.tables == (
        ("random", "heuristic", "expectimax"),
        ("heuristic", "expectimax", "random"),
        ("expectimax", "random", "heuristic"),
    )


class _AwayBot:
    """A random bot that refuses to move in the process that built it: it plays only in a worker."""

    kind = "away"

    def __init__(self) -> None:
        self.home = os.getpid()

    def __repr__(self) -> str:
        return "away"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if os.getpid() == self.home:
            raise AssertionError("a league given workers played a game in the calling process")
        return RandomBot().choose(state, rng)


def test_a_league_on_workers_plays_in_other_processes_and_is_the_league_of_one() -> None:
    here = table_league(["random", "heuristic", "expectimax"], 4, 3, seed=5, bootstrap=40)
    pooled = table_league(["random", "heuristic", "expectimax"], 4, 3, seed=5, bootstrap=40, workers=2)
    assert pooled == here
    away = table_league([_AwayBot(), "heuristic"], 3, 3, seed=5, bootstrap=40, workers=2)
    assert {line.name for line in away.standings} == {"away", "heuristic"}
    assert sum(line.seatings for line in away.standings) == 2 * 3 * 3
    with pytest.raises(AssertionError, match="in the calling process"):
        table_league([_AwayBot(), "heuristic"], 3, 3, seed=5, bootstrap=40)
    with pytest.raises(InvalidValueError, match="workers"):
        table_league(["random", "heuristic"], 2, 3, workers=0)


def test_bad_leagues_are_refused() -> None:
    with pytest.raises(InvalidGameError, match="seat 2 to 6, not 7"):
        table_league(["random", "heuristic"], 2, 7)
    with pytest.raises(InvalidValueError, match="two entries or more"):
        table_league(["random"], 2, 3)
    with pytest.raises(InvalidValueError, match="bootstrap"):
        table_league(["random", "heuristic"], 2, 3, bootstrap=0)


def _league(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "140"}
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "league", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_command_plays_a_league_at_several_seats_and_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "league.json"
    done = _league(
        "--game", "too-many-monkeys", "--seats", "3", "--bots", "random,heuristic", "--games", "3", "--json", str(out)
    )
    assert done.returncode == 0, done.stderr
    assert "Too Many Monkeys league at 3 seats" in done.stdout
    assert "mean place" in done.stdout
    assert "95% interval" in done.stdout
    saved = json.loads(out.read_text())
    assert saved["seats"] == 3
    assert [line["name"] for line in saved["standings"]] == [line.name for line in _same_league()]
    refused = _league("--seats", "7", "--games", "1")
    assert refused.returncode == 2
    assert "seat 2 to 6, not 7" in refused.stderr
    assert "Traceback" not in refused.stderr


def _same_league() -> tuple[TableStanding, ...]:
    result = table_league(["random", "heuristic"], 3, 3, seed=0, game="too-many-monkeys")
    return result.standings


# -- the leagues the bot pages publish --------------------------------------------------------------------

CHEEKY_BOTS = ["random", "heuristic", "expectimax", "learned", "mcts400"]
TOO_MANY_BOTS = ["random", "heuristic", "expectimax"]

# (game, seats) -> each bot's (rating, low, high), rounded, best first: 200 games a pair at 2 seats
# (cheekymonkey league), 60 games a table at 3 and 6 (cheekymonkey league --seats N), all from seed 2026.
PUBLISHED_LEAGUES: dict[tuple[str, int], list[tuple[str, int, int, int]]] = {
    ("cheeky-monkey", 2): [
        ("mcts400", 1733, 1692, 1773),
        ("expectimax", 1694, 1654, 1734),
        ("learned", 1689, 1649, 1729),
        ("heuristic", 1624, 1584, 1664),
        ("random", 760, 624, 897),
    ],
    ("cheeky-monkey", 3): [
        ("expectimax", 1695, 1661, 1738),
        ("mcts400", 1654, 1615, 1696),
        ("learned", 1594, 1555, 1645),
        ("heuristic", 1563, 1514, 1607),
        ("random", 994, 896, 1055),
    ],
    ("cheeky-monkey", 6): [
        ("expectimax", 1632, 1611, 1653),
        ("mcts400", 1611, 1589, 1634),
        ("heuristic", 1530, 1507, 1551),
        ("learned", 1518, 1496, 1542),
        ("random", 1209, 1185, 1227),
    ],
    ("too-many-monkeys", 2): [
        ("heuristic", 1593, 1567, 1619),
        ("expectimax", 1585, 1559, 1611),
        ("random", 1322, 1292, 1351),
    ],
    ("too-many-monkeys", 3): [
        ("heuristic", 1575, 1542, 1607),
        ("expectimax", 1545, 1518, 1578),
        ("random", 1379, 1351, 1409),
    ],
    ("too-many-monkeys", 6): [
        ("heuristic", 1566, 1545, 1586),
        ("expectimax", 1550, 1533, 1570),
        ("random", 1384, 1366, 1402),
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats"), sorted(PUBLISHED_LEAGUES))
def test_the_leagues_the_bot_pages_publish(game: str, seats: int) -> None:
    bots = CHEEKY_BOTS if game == "cheeky-monkey" else TOO_MANY_BOTS
    if seats == 2:
        two = league(bots, 200, seed=2026, game=game, workers=2)
        found = [(line.name, round(line.rating), round(line.low), round(line.high)) for line in two.standings]
    else:
        many = table_league(bots, 60, seats, seed=2026, game=game, workers=2)
        found = [(line.name, round(line.rating), round(line.low), round(line.high)) for line in many.standings]
    assert found == PUBLISHED_LEAGUES[(game, seats)]
