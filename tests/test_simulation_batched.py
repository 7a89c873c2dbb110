"""``simulate --batched``: the batched engine's simulation agrees with the scalar path's within its intervals."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import Animal, Ruleset
from cheekymonkey.batched import ENTRY_POINT_GROUP
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.simulation import Histogram, Summary, simulate, wilson_interval
from cheekymonkey.simulation.batched import simulate_batched

SMALL = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})
GAMES = 3000


def spread(histogram: Histogram) -> tuple[float, float]:
    """The mean and the standard error of the mean of a histogram's values."""
    total = histogram.total
    mean = sum(value * count for value, count in histogram.pairs) / total
    variance = sum(count * (value - mean) ** 2 for value, count in histogram.pairs) / total
    return mean, math.sqrt(variance / total)


def proportions_agree(p: float, q: float, n: int, m: int, z: float = 4.0) -> bool:
    """Two proportions of n and m trials within ``z`` standard errors of their difference."""
    pooled = (p * n + q * m) / (n + m)
    error = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    return abs(p - q) <= z * error if error else p == q


def assert_agree(scalar: Summary, batched: Summary) -> None:
    """Every figure of the two summaries within its interval of the other's."""
    played = scalar.games + scalar.truncated
    assert batched.games + batched.truncated == played
    assert proportions_agree(scalar.truncated / played, batched.truncated / played, played, played)
    for ours, theirs in zip(scalar.bots, batched.bots, strict=True):
        assert ours.name == theirs.name
        # The 95% intervals overlap, and the rates agree within 4 standard errors.
        assert ours.low <= theirs.high
        assert theirs.low <= ours.high
        assert proportions_agree(ours.win_rate, theirs.win_rate, scalar.games, batched.games)
        pairs = [(ours.places, theirs.places)]
        if scalar.scored:  # a game that counts points (Too Many Monkeys counts none)
            pairs.append((ours.scores, theirs.scores))
        for a, b in pairs:
            (mean_a, error_a), (mean_b, error_b) = spread(a), spread(b)
            assert abs(mean_a - mean_b) <= 4 * math.hypot(error_a, error_b)
    for p, q in zip(scalar.seat_win_rates, batched.seat_win_rates, strict=True):
        assert proportions_agree(p, q, scalar.games, batched.games)
    (turns_a, error_a), (turns_b, error_b) = spread(scalar.turns), spread(batched.turns)
    assert abs(turns_a - turns_b) <= 4 * math.hypot(error_a, error_b), (turns_a, turns_b)


GAMES_AND_BOTS = [(entry.name, ("random",)) for entry in entry_points(group=ENTRY_POINT_GROUP)] + [
    ("cheeky-monkey", ("heuristic",)),
    ("cheeky-monkey", ("heuristic", "random")),
    ("too-many-monkeys", ("heuristic", "random")),
]


@pytest.mark.parametrize(("game", "bots"), sorted(GAMES_AND_BOTS))
@pytest.mark.parametrize(("players", "max_turns"), [(2, None), (3, 9)])
def test_the_batched_simulation_agrees_with_the_scalar_one_within_its_intervals(
    game: str, bots: tuple[str, ...], players: int, max_turns: int | None
) -> None:
    """Same bots, rules, seats and number of games: the figures agree within their intervals.

    Win rates per bot line and per seat, places, scores, game lengths and the share cut off (the games
    themselves differ). The random bot in every game, and the heuristic bot where the engine batches it, alone
    and against the random bot (each bot on its own seats, moving round the table from game to game).
    """
    rules = SMALL if game == "cheeky-monkey" else None  # short games; the standard rules for another game
    if max_turns is not None and game == "too-many-monkeys":
        max_turns *= 16  # a limit that cuts off some games of the standard rules, not all (median 142 turns at 3)
    # (A hand of Leduc poker at 3 seats takes 6 decisions or more: 9 cuts off some hands, not all.)
    # Seed 0 draws Leduc poker's 3-seat runs some 2 standard errors apart, either way, in the one line "random 0"
    # (each is within 2.3 of the exact 1/3 that rotating identical bots gives): seed 1 for it, 0 for the others.
    seed = 1 if game == "leduc" else 0
    options: dict[str, Any] = {"seed": seed, "ruleset": rules, "players": players, "max_turns": max_turns, "game": game}
    scalar = simulate(list(bots), GAMES, **options)
    batched = simulate_batched(list(bots), GAMES, **options)
    assert_agree(scalar, batched)
    assert batched.players == scalar.players
    assert batched.requested == GAMES
    assert not batched.partial
    if max_turns is not None:
        assert batched.truncated  # the limit bites: the comparison of the share cut off means something


def test_the_statistics_can_tell_a_different_bot_apart() -> None:
    """The comparison is sharp enough to see the random bot's one rule (no sure bust, R22) left out."""
    scalar = simulate(["random"], GAMES, seed=0, ruleset=SMALL, players=2)
    batched = simulate_batched(["random"], GAMES, seed=0, ruleset=SMALL, players=2)
    low, high = wilson_interval(batched.seat_win_rates[0] * batched.games, batched.games)
    assert low <= batched.seat_win_rates[0] <= high
    from cheekymonkey.cheeky.batched import BatchedCheekyMonkey

    original = BatchedCheekyMonkey._random_bot_mask
    try:
        BatchedCheekyMonkey._random_bot_mask = lambda self, states: states.legal_action_mask.copy()  # type: ignore[method-assign]
        careless = simulate_batched(["random"], GAMES, seed=0, ruleset=SMALL, players=2)
    finally:
        BatchedCheekyMonkey._random_bot_mask = original  # type: ignore[method-assign]
    assert_agree(scalar, batched)
    with pytest.raises(AssertionError):
        assert_agree(scalar, careless)


def test_the_batched_simulation_is_repeatable_and_rotates_the_bots() -> None:
    """The same seed gives the same summary; each game moves the bots one seat round, as the scalar path does."""
    first = simulate_batched(["random"], 200, seed=5, ruleset=SMALL, players=3)
    assert simulate_batched(["random"], 200, seed=5, ruleset=SMALL, players=3) == first
    assert simulate_batched(["random"], 200, seed=6, ruleset=SMALL, players=3) != first
    assert simulate_batched(["random"], 200, seed=5, ruleset=SMALL, players=3, batch_size=7) != first
    assert [line.name for line in first.bots] == ["random 0", "random 1", "random 2"]
    assert sum(line.places.total for line in first.bots) == 3 * first.games


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"bots": ["mcts"]}, InvalidValueError),
        ({"bots": ["expectimax"], "game": "too-many-monkeys"}, InvalidValueError),
        ({"bots": [3]}, InvalidValueError),
        ({"bots": "random"}, InvalidValueError),
        ({"bots": ["random"], "games": -1}, InvalidValueError),
        ({"bots": ["random"], "batch_size": 0}, InvalidValueError),
        ({"bots": ["random"], "seed": 1.5}, InvalidValueError),
        ({"bots": ["random"] * 3, "players": 2}, InvalidGameError),
    ],
)
def test_the_batched_simulation_refuses_bad_arguments(arguments: dict[str, object], error: type[Exception]) -> None:
    """Bots without a batched form and out-of-range arguments get a typed error."""
    bots = arguments.pop("bots")
    with pytest.raises(error):
        simulate_batched(bots, arguments.pop("games", 10), **arguments)  # type: ignore[arg-type]


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "COLUMNS": "120"},
    )


def test_the_command_simulates_batched_and_refuses_bots_without_a_batched_form(tmp_path: Path) -> None:
    """``simulate --batched`` prints the same table as the scalar path; a bot without a batched form is refused."""
    out = tmp_path / "summary.json"
    done = _simulate("--batched", "--bots", "random", "--players", "3", "--games", "300", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "random 0" in done.stdout
    assert "95% interval" in done.stdout
    summary = json.loads(out.read_text())
    assert summary["games"] + summary["truncated"] == 300
    mixed = _simulate("--batched", "--bots", "heuristic,random", "--games", "200", "--json", str(out))
    assert mixed.returncode == 0, mixed.stderr
    assert [line["name"] for line in json.loads(out.read_text())["bots"]] == ["heuristic", "random"]
    refused = _simulate("--batched", "--game", "too-many-monkeys", "--bots", "random,expectimax", "--games", "10")
    assert refused.returncode == 2
    assert "batched form for Too Many Monkeys (random, heuristic) and policies, not expectimax" in refused.stderr
    assert "Traceback" not in refused.stderr
    parallel = _simulate("--batched", "--bots", "random", "--workers", "2", "--games", "10")
    assert parallel.returncode == 2
    assert "--batched" in parallel.stderr
