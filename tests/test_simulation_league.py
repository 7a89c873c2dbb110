"""Policies wherever bots play, and the league: Bradley-Terry ratings with intervals over every pair of bots.

A policy (a callable from an observation and a mask to an action index) is played through one adapter,
:class:`~cheekymonkey.simulation.PolicyBot`, by :func:`simulate`, :func:`league` and the Gymnasium
environment's opponents. The league's ratings are checked against what its games imply: the ranking their
wins give, the closed form of two entries, and the likelihood equations of the fit.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cheekymonkey import InvalidGameError, InvalidValueError
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.rl.gymnasium_env import SoloEnv
from cheekymonkey.simulation import (
    GameFailedError,
    League,
    PolicyBot,
    SimulationProgress,
    as_bot,
    bradley_terry,
    league,
    simulate,
)
from cheekymonkey.table import Seat, Table
from tests.helpers import BUILT_IN_GAMES

ROOT = Path(__file__).resolve().parent.parent
ELO = 400 / math.log(10)


def first_legal(observation: Any, mask: Any) -> int:
    """A policy: the lowest legal index (module level, so worker processes can unpickle it)."""
    return int(np.flatnonzero(mask)[0])


def first_legal_tuples(observation: Any, mask: Any) -> int:
    """The same policy for tuples: what a pure-Python policy gets with arrays=False."""
    assert isinstance(observation, tuple)
    assert isinstance(mask, tuple)
    return mask.index(True)


class FirstLegalBot:
    """The same choices as a bot: the action of the lowest legal index, seen from the mover."""

    def __init__(self, name: str) -> None:
        self.game = game_named(name)

    def choose(self, state: Any, rng: random.Random) -> Any:
        game = self.game
        encoding = game.encoding(game.players(state), game.ruleset_of(state))
        return encoding.decode(encoding.legal_indices(state)[0], state)


# -- policies where bots play --------------------------------------------------------------------------------


LEARNABLE = [name for name in GAME_NAMES if game_named(name).observation_kinds()]
"""The installed games that offer encodings: the policies here choose through them."""


def _opponent(name: str) -> str:
    """The bot a policy meets: the game's ``heuristic`` where it has one (the built-in games), else its last bot."""
    bots = game_named(name).bot_names()
    return "heuristic" if "heuristic" in bots else bots[-1]


RANKED = sorted({*BUILT_IN_GAMES} | {name for name in LEARNABLE if "heuristic" in game_named(name).bot_names()})
"""The games with encodings and a ``heuristic`` bot (the built-in games among them): the league here ranks it."""
_MOST_LEAGUES = 10
"""The most seeds tried for a tiny league whose wins have no tie."""


@pytest.mark.parametrize("name", LEARNABLE)
def test_simulate_takes_a_policy_and_plays_it_as_the_bot_with_its_choices(name: str) -> None:
    """A policy, a PolicyBot on tuples and the equivalent bot give one summary, in process and in a pool."""
    opponent = _opponent(name)
    bot = simulate([opponent, FirstLegalBot(name)], 12, seed=3, game=name, max_turns=300)
    policy = simulate([opponent, first_legal], 12, seed=3, game=name, max_turns=300)
    tuples = simulate(
        [opponent, PolicyBot(first_legal_tuples, game_named(name), arrays=False)],
        12,
        seed=3,
        game=name,
        max_turns=300,
    )
    pooled = simulate([opponent, first_legal], 12, seed=3, game=name, max_turns=300, workers=2, block_size=4)
    assert [line.name for line in policy.bots] == [opponent, "first_legal"]
    for other in (policy, tuples, pooled):
        assert other.games == bot.games
        assert other.truncated == bot.truncated
        assert [line.wins for line in other.bots] == [line.wins for line in bot.bots]
        assert other.turns == bot.turns
    assert bot.games + bot.truncated == 12


def test_a_policy_that_chooses_an_illegal_index_fails_the_game_with_its_name_and_the_legal_ones() -> None:
    """An index that is not legal, or not an index at all, fails the game and says which policy and why."""

    def always_nine(observation: Any, mask: Any) -> int:
        return 9

    def word(observation: Any, mask: Any) -> str:
        return "draw"

    with pytest.raises(GameFailedError, match=r"policy .*always_nine chose index 9, which is not legal here \(legal"):
        simulate(["heuristic", always_nine], 2)
    with pytest.raises(GameFailedError, match=r"returned 'draw', not an action index"):
        simulate(["heuristic", word], 2)


def test_what_is_neither_a_bot_nor_a_policy_is_refused_before_any_game() -> None:
    """A class, a number, a policy with bad options: InvalidValueError at once."""
    game = game_named("cheeky-monkey")
    with pytest.raises(InvalidValueError, match="FirstLegalBot is a class"):
        simulate(["heuristic", FirstLegalBot], 2)  # type: ignore[list-item]
    with pytest.raises(InvalidValueError, match="neither a bot's name, a bot"):
        simulate(["heuristic", 7], 2)  # type: ignore[list-item]
    with pytest.raises(InvalidValueError, match="observation kind"):
        PolicyBot(first_legal, game, observation="everything")
    with pytest.raises(InvalidValueError, match="scaled"):
        PolicyBot(first_legal, game, scaled=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidValueError, match="a policy is a callable"):
        PolicyBot(42, game)  # type: ignore[arg-type]
    assert as_bot("random", game) == "random"
    assert isinstance(as_bot(first_legal, game), PolicyBot)


def test_a_policy_bot_sees_the_movers_observation_and_mask_and_plays_every_seat_alike() -> None:
    """What the policy is given is the encoding's observation from the mover's seat and its mask."""
    game = game_named("cheeky-monkey")
    given: list[tuple[list[float], list[bool]]] = []

    def record(observation: Any, mask: Any) -> int:
        given.append((observation.tolist(), mask.tolist()))
        return first_legal(observation, mask)

    bot = PolicyBot(record, game, observation="table", name="recorder")
    table = Table(game, [Seat.of(bot), Seat.of(bot)], seed=1, max_turns=6)
    states = []
    while not table.finished:
        if table.to_move is not None:
            states.append(table.state)
        table.step()
    assert len(given) == len(states) > 5
    encoding = game.encoding(2, None, "table")
    for (observation, mask), state in zip(given, states, strict=True):
        assert observation == list(encoding.observe(state, game.to_move(state)))
        assert mask == list(encoding.action_mask(state))
    assert {seat.kind for seat in table.seats} == {"policy"}
    assert repr(bot) == "PolicyBot(recorder)"


def test_a_gymnasium_opponent_can_be_a_policy_observing_as_the_learner() -> None:
    """SoloEnv seats a policy as an opponent; with scaled=True it gets the scaled observation too."""
    seen: list[float] = []

    def watcher(observation: Any, mask: Any) -> int:
        seen.append(float(observation.max()))
        return first_legal(observation, mask)

    solo = SoloEnv(players=2, seat=1, opponents=[watcher], scaled=True)
    solo.reset(seed=2)
    assert seen  # the opponent moved first
    assert max(seen) <= 1.0
    assert solo.table.seats[0].kind == "policy"
    with pytest.raises(InvalidValueError, match="is not a bot"):
        SoloEnv(players=2, opponents=[3])  # type: ignore[list-item]


# -- Bradley-Terry --------------------------------------------------------------------------------------------


def test_two_entries_have_the_closed_form_ratings_and_interval() -> None:
    """With two entries the fit is the log of the odds (with the drawn game each side), the spread its variance."""
    strengths, covariance = bradley_terry(2, [(0, 1, 30.0, 9.0)])
    a, b = 30.5, 9.5
    assert strengths[0] - strengths[1] == pytest.approx(math.log(a / b), abs=1e-12)
    assert strengths[0] + strengths[1] == pytest.approx(0.0, abs=1e-12)
    p = a / (a + b)
    variance_of_difference = 1 / ((a + b) * p * (1 - p))
    assert covariance[0][0] == pytest.approx(variance_of_difference / 4, rel=1e-9)
    assert covariance[0][1] == pytest.approx(-variance_of_difference / 4, rel=1e-9)
    # A clean sweep still has a finite rating: the drawn game each side keeps the odds at 40.5 to 0.5.
    swept, _ = bradley_terry(2, [(0, 1, 40.0, 0.0)])
    assert swept[0] - swept[1] == pytest.approx(math.log(81.0))


def test_the_fit_solves_the_likelihood_equations_for_uneven_results() -> None:
    """At the fitted strengths each entry's expected wins equal its wins (the maximum of the likelihood)."""
    results = [(0, 1, 12.0, 3.5), (0, 2, 4.0, 9.0), (1, 2, 7.5, 7.5), (2, 3, 20.0, 1.0), (1, 3, 6.0, 2.0)]
    strengths, covariance = bradley_terry(4, results)
    wins = [0.0] * 4
    expected = [0.0] * 4
    for i, j, a, b in results:
        a, b = a + 0.5, b + 0.5
        wins[i] += a
        wins[j] += b
        p = 1 / (1 + math.exp(strengths[j] - strengths[i]))
        expected[i] += (a + b) * p
        expected[j] += (a + b) * (1 - p)
    assert expected == pytest.approx(wins, abs=1e-9)
    assert sum(strengths) == pytest.approx(0.0, abs=1e-12)
    assert all(abs(sum(row)) < 1e-9 for row in covariance)  # the ratings' mean is held: no spread along it
    assert all(covariance[i][i] > 0 for i in range(4))


def test_bradley_terry_refuses_what_has_no_common_scale() -> None:
    """Players the results do not connect, or results that are not results, are refused."""
    with pytest.raises(InvalidValueError, match="do not connect"):
        bradley_terry(3, [(0, 1, 1.0, 1.0)])
    with pytest.raises(InvalidValueError, match="two different players"):
        bradley_terry(2, [(0, 0, 1.0, 1.0)])
    with pytest.raises(InvalidValueError, match="not finite"):
        bradley_terry(2, [(0, 1, -1.0, 1.0)])
    with pytest.raises(InvalidValueError, match="prior"):
        bradley_terry(2, [(0, 1, 1.0, 1.0)], prior=-1)


# -- the league -----------------------------------------------------------------------------------------------


def _replayed_wins(result: League, entries: dict[str, Any], name: str) -> dict[str, float]:
    """Each entry's wins over the league, from its games played again at Tables.

    The games are the ones the league documents: pairing p on seeds seed + p * games and up, the seats
    rotated each game.
    """
    game = game_named(name)
    wins = dict.fromkeys(entries, 0.0)
    for pairing in result.pairings:
        lineup = [pairing.first, pairing.second]
        for number in range(result.games):
            order = [(seat + number) % 2 for seat in range(2)]
            seats = [
                Seat.bot(game, entries[lineup[line]])
                if isinstance(entries[lineup[line]], str)
                else Seat.of(entries[lineup[line]])
                for line in order
            ]
            table = Table(game, seats, seed=pairing.seed + number, events=False, max_steps=1_000_000)
            table.advance()
            outcome = table.outcome()
            assert outcome is not None
            for seat in outcome.winners:
                wins[lineup[order[seat]]] += 1 / len(outcome.winners)
    return wins


@pytest.mark.parametrize("name", RANKED)
def test_a_seeded_tiny_league_ranks_the_entries_as_its_games_imply(name: str) -> None:
    """Three entries, a policy among them: the ratings rank them by the wins of their games played again.

    In a league where every pair plays the same number of games, the Bradley-Terry ratings order the entries
    as their total wins do; the wins are counted here from the games played again at Tables, not read from
    the league. Each interval holds its rating, and the league repeats exactly. The league's seed is the first
    from 11 whose wins have no tie (so that the order is the games' own), within a few seeds.
    """
    entries: dict[str, Any] = {
        "random": "random",
        "heuristic": "heuristic",
        "first_legal": PolicyBot(first_legal, game_named(name)),
    }
    games = 10
    for seed in range(11, 11 + _MOST_LEAGUES):
        progress: list[SimulationProgress] = []
        result = league(list(entries.values()), games, seed=seed, game=name, progress=progress.append)
        assert [p.first + "-" + p.second for p in result.pairings] == [
            "random-heuristic",
            "random-first_legal",
            "heuristic-first_legal",
        ]
        assert [p.seed for p in result.pairings] == [seed, seed + games, seed + 2 * games]
        wins = _replayed_wins(result, entries, name)
        assert {line.name: line.wins for line in result.standings} == pytest.approx(wins)
        if len(set(wins.values())) == 3:  # no tie, so the order is the games' own
            break
    assert len(set(wins.values())) == 3, f"the leagues of seeds 11 to {seed} each tie: {wins}"
    by_wins = sorted(wins, key=lambda entry: -wins[entry])
    assert [line.name for line in result.standings] == by_wins
    for line in result.standings:
        assert line.low < line.rating < line.high
        assert line.games == 2 * games
    assert sum(line.rating for line in result.standings) / 3 == pytest.approx(1500.0)
    assert progress[-1].games_done == progress[-1].games == 3 * games
    assert league(list(entries.values()), games, seed=seed, game=name) == result


def test_a_league_refuses_fewer_than_two_entries_and_rules_that_seat_more() -> None:
    """One entry is no league; a league plays two seats."""
    with pytest.raises(InvalidValueError, match="two entries"):
        league(["heuristic"], 4)
    with pytest.raises(InvalidValueError, match="games"):
        league(["heuristic", "random"], 0)
    game = game_named("cheeky-monkey")

    class ThreeOrMore:
        """Cheeky Monkey, but its rules seat three or more."""

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def seat_range(self, ruleset: Any = None) -> tuple[int, int]:
            return (3, 6)

    with pytest.raises(InvalidGameError, match="two-seat"):
        league(["heuristic", "random"], 2, game=ThreeOrMore())


# -- the command ----------------------------------------------------------------------------------------------


def _league(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120", **(extra_env or {})}
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "league", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_command_prints_the_league_and_writes_its_json(tmp_path: Path) -> None:
    """The command prints the rated table and the head-to-head results; --json writes the whole league."""
    out = tmp_path / "league.json"
    done = _league(
        "--game", "too-many-monkeys", "--bots", "random,heuristic", "--games", "8", "--seed", "4", "--json", str(out)
    )
    assert done.returncode == 0, done.stderr
    expected = league(["random", "heuristic"], 8, seed=4, game="too-many-monkeys")
    best = expected.standings[0]
    assert f"│    1 │ {best.name}" in done.stdout
    assert f"{best.low:.0f} - {best.high:.0f}" in done.stdout
    assert "head to head" in done.stdout
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(json.dumps(expected.to_dict()))
    assert "8/8 games" in done.stderr


def test_the_command_refuses_a_league_of_one_bot_and_an_unknown_bot() -> None:
    """Options that cannot make a league: one line on standard error, status 2, no game played."""
    for args, message in (
        (("--bots", "random"), "two different bots"),
        (("--bots", "random,random"), "two different bots"),
        (("--bots", "random,nobody"), "no bot named 'nobody'"),
        (("--games", "0"), "is not a count"),
    ):
        done = _league(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr
        assert "Traceback" not in done.stderr


def test_without_numpy_the_default_league_leaves_the_learned_bot_out_and_says_so() -> None:
    """Every bot of the game by default: one that needs a missing extra is left out with a note, not a crash."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from cheekymonkey.cli import main\n"
        "raise SystemExit(main(['league', '--games', '2', '--seed', '1']))\n"
    )
    # mcts plays in four pairs: a couple of games each keeps this short.
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "learned left out" in done.stderr
    assert "rl" in done.stderr
    for name in ("random", "heuristic", "expectimax", "mcts"):
        assert f" {name} " in done.stdout
    assert " learned " not in done.stdout
