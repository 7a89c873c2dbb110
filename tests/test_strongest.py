"""The alias ``strongest``: each built-in game's best bot, the winner of the leagues its bot page publishes.

The winner is read from the league figures ``tests/test_simulation_table_league.py`` pins (and re-measures),
so a new league result that changes the winner fails here until the alias follows it. The other tests check
that the alias is accepted wherever a bot's name is, builds the bot it names, and is listed with it.
"""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from cheekymonkey import Seat, Table
from cheekymonkey.base import bot_aliases
from cheekymonkey.cheeky.bots import registry as cheeky_registry
from cheekymonkey.cli.options import bot_list
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import game_named
from cheekymonkey.rl.gymnasium_env import SoloEnv
from cheekymonkey.simulation import league, simulate
from cheekymonkey.simulation.leagues import table_league
from cheekymonkey.toomany.bots import registry as too_many_registry
from cheekymonkey.web import RoomManager
from tests.minimal_game import RACE
from tests.test_cli_usability import run
from tests.test_simulation_table_league import PUBLISHED_LEAGUES
from tests.web_support import call, live_server, token_of

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("cheeky-monkey", "too-many-monkeys")
PAGES = {
    "cheeky-monkey": ROOT / "docs" / "explanation" / "bots.md",
    "too-many-monkeys": ROOT / "docs" / "explanation" / "bots-too-many-monkeys.md",
}
REGISTRIES: dict[str, Any] = {"cheeky-monkey": cheeky_registry, "too-many-monkeys": too_many_registry}
SECTION = "## The strongest bot: `strongest`"


def _league_sums(name: str) -> dict[str, tuple[int, int, int]]:
    """Each bot's published ratings at 2, 3 and 6 seats."""
    found: dict[str, list[int]] = {}
    for seats in (2, 3, 6):
        for bot, rating, _, _ in PUBLISHED_LEAGUES[(name, seats)]:
            found.setdefault(bot, []).append(rating)
    assert all(len(ratings) == 3 for ratings in found.values()), found  # every bot rated at every table
    return {bot: (ratings[0], ratings[1], ratings[2]) for bot, ratings in found.items()}


def league_winner(name: str) -> str:
    """The bot with the highest rating summed over the published leagues; a tie is an error, not a pick."""
    sums = {bot: sum(ratings) for bot, ratings in _league_sums(name).items()}
    best = max(sums.values())
    winners = [bot for bot, total in sums.items() if total == best]
    assert len(winners) == 1, sums
    return winners[0]


@pytest.mark.parametrize("name", GAMES)
def test_strongest_names_the_winner_of_the_leagues_the_game_s_page_publishes(name: str) -> None:
    """The alias, the registry's constant and the page all name the bot whose summed rating is highest."""
    winner = league_winner(name)
    game = game_named(name)
    registry = REGISTRIES[name]
    assert dict(bot_aliases(game)) == {"strongest": winner}
    assert winner == registry.STRONGEST
    assert registry.resolve_bot_name("strongest") == winner
    assert game.bot_names()[-1] == "strongest"
    assert game.bot_names()[:-1] == tuple(registry.BOTS)
    # The page's section says which bot it is, and every sum it quotes is the pinned ratings'.
    text = PAGES[name].read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n### ")]
    assert f"That is `{winner}` (" in section
    quoted = 0
    for bot, (two, three, six) in _league_sums(name).items():
        if f"`{bot}` (" in section:
            assert f"`{bot}` ({two} + {three} + {six})" in section, bot
            quoted += 1
    assert quoted >= 2  # the winner and the runner-up


def test_the_league_winner_is_read_as_published_and_a_tie_is_not_resolved_silently(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rule itself: a league that moves the sums moves the winner; equal sums fail rather than pick one."""
    six = PUBLISHED_LEAGUES[("too-many-monkeys", 6)]

    def with_search_at_six(rating: int) -> dict[tuple[str, int], list[tuple[str, int, int, int]]]:
        changed = dict(PUBLISHED_LEAGUES)
        changed[("too-many-monkeys", 6)] = [
            (bot, rating, low, high) if bot == "expectimax" else (bot, own, low, high) for bot, own, low, high in six
        ]
        return changed

    monkeypatch.setattr(f"{__name__}.PUBLISHED_LEAGUES", with_search_at_six(1780))
    assert league_winner("too-many-monkeys") == "expectimax"  # 1585 + 1545 + 1780 > 1593 + 1575 + 1566
    assert league_winner("too-many-monkeys") != REGISTRIES["too-many-monkeys"].STRONGEST  # the check would fail
    monkeypatch.setattr(f"{__name__}.PUBLISHED_LEAGUES", with_search_at_six(1604))
    with pytest.raises(AssertionError):
        league_winner("too-many-monkeys")  # 4734 each


@pytest.mark.parametrize("name", GAMES)
def test_the_alias_builds_the_bot_it_names_and_plays_its_moves(name: str) -> None:
    """A fresh bot of the named kind, with or without a memory bound; seated, it plays the same game on a seed."""
    game = game_named(name)
    winner = league_winner(name)
    alias = game.bot_named("strongest")
    assert type(alias) is type(game.bot_named(winner))
    assert alias is not game.bot_named("strongest")  # fresh each time
    bounded = game.bot_named("strongest", memory=50)
    assert repr(bounded) == repr(game.bot_named(winner, memory=50))
    assert REGISTRIES[name].bot_named("strongest").__class__ is alias.__class__

    def played(kind: str) -> tuple[Any, ...]:
        table = Table(game, [Seat.bot(game, kind), Seat.bot(game, "random")], seed=11)
        table.advance()
        assert table.finished
        return table.actions

    assert played("strongest") == played(winner)
    table = Table(game, [Seat.bot(game, "strongest"), Seat.bot(game, "random")], seed=11)
    assert table.kinds == ("strongest", "random")  # the record keeps the name it was given
    assert game.bot_title("strongest") == f"Strongest ({game.bot_title(winner)})"


@pytest.mark.parametrize("name", GAMES)
def test_unknown_names_are_still_refused_and_the_error_lists_the_alias(name: str) -> None:
    """A name that is neither a bot nor an alias: a typed error naming every bot and alias; nothing is built."""
    game = game_named(name)
    for bad in ("strongest ", "Strongest", "strong", ""):
        with pytest.raises(InvalidValueError, match=r"the bots are .*expectimax, .*strongest"):
            game.bot_named(bad)
    with pytest.raises(InvalidValueError):
        REGISTRIES[name].bot_named(None)
    with pytest.raises(InvalidValueError):
        game.bot_named("strongest", memory=0)


def test_a_game_without_aliases_has_none_and_keeps_its_titles() -> None:
    """A plug-in game without the method (or with the base class's default) has no aliases; titles as before."""
    assert dict(bot_aliases(RACE)) == {}
    assert RACE.bot_title("random") == "Random"
    assert dict(bot_aliases(object())) == {}


@pytest.mark.parametrize("name", GAMES)
def test_simulate_and_the_leagues_take_the_alias_as_the_bot_it_names(name: str) -> None:
    """``simulate`` plays the same games with ``strongest`` as with the bot it names; the leagues seat it too."""
    winner = league_winner(name)
    by_alias = simulate(["strongest", "random"], 6, seed=5, game=name)
    by_name = simulate([winner, "random"], 6, seed=5, game=name)
    assert [line.name for line in by_alias.bots] == ["strongest", "random"]
    strip = [attrs.evolve(line, name="") for line in by_alias.bots]
    assert strip == [attrs.evolve(line, name="") for line in by_name.bots]
    two = league(["strongest", "random"], 4, seed=1, game=name)
    assert {line.name for line in two.standings} == {"strongest", "random"}
    many = table_league(["strongest", "random", "heuristic"], 3, 3, seed=1, game=name, bootstrap=20)
    assert {line.name for line in many.standings} == {"strongest", "random", "heuristic"}


def test_the_command_line_lists_the_alias_with_its_bot_and_a_default_league_seats_each_bot_once() -> None:
    """``--help`` shows what the alias names; a ``league`` without ``--bots`` leaves it out, one with it takes it."""
    assert bot_list(game_named("too-many-monkeys")).endswith(f", strongest ({league_winner('too-many-monkeys')})")
    helped = run(["simulate", "--help"])
    assert helped.returncode == 0
    assert f"strongest ({league_winner('cheeky-monkey')})" in " ".join(helped.stdout.split())
    default = run(["league", "--game", "too-many-monkeys", "--games", "2", "--seed", "1"])
    assert default.returncode == 0, default.stderr
    assert "strongest" not in default.stdout
    for bot in ("random", "heuristic", "expectimax"):
        assert bot in default.stdout
    named = run(["league", "--game", "too-many-monkeys", "--bots", "strongest,random", "--games", "2", "--seed", "1"])
    assert named.returncode == 0, named.stderr
    assert "strongest" in named.stdout
    wrong = run(["simulate", "--bots", "strongest,strongests", "--games", "1"])
    assert wrong.returncode != 0
    assert "no bot named 'strongests'" in wrong.stderr
    assert "Traceback" not in wrong.stderr


@pytest.mark.parametrize("name", GAMES)
def test_watch_and_play_seat_the_alias_under_its_title(name: str) -> None:
    """``watch`` plays a game to its end with the alias at the table; ``play`` seats it against a person."""
    winner_title = game_named(name).bot_title(league_winner(name))
    watched = run(["watch", "--game", name, "--bots", "strongest,random", "--seed", "3", "--delay", "0", "--no-record"])
    assert watched.returncode == 0, watched.stderr
    assert f"Strongest ({winner_title}) 0" in watched.stdout
    played = run(["play", "--game", name, "--bots", "strongest", "--seed", "1", "--no-record"], stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert f"Strongest ({winner_title}) 1" in played.stdout


def test_a_web_room_lists_the_alias_and_seats_it_and_it_moves() -> None:
    """The options list each built-in game's ``strongest`` with its title; a room seats it, and it plays its turns."""
    with live_server(RoomManager(allow_seeds=True)) as server:
        status, options = call(server, "GET", "/api/options")
        assert status == 200
        assert set(GAMES) <= {game["name"] for game in options["games"]}
        for game in options["games"]:
            listed = {bot["name"]: bot for bot in game["bots"]}
            if game["name"] not in GAMES:
                # A plug-in (Pig, Leduc poker) publishes no leagues, so it has no winner to name: the alias is
                # listed only where the game names one.
                assert ("strongest" in listed) == ("strongest" in bot_aliases(game_named(game["name"])))
                continue
            winner = league_winner(game["name"])
            assert listed["strongest"]["title"] == game_named(game["name"]).bot_title("strongest")
            assert listed["strongest"]["title"].endswith(f"({game_named(game['name']).bot_title(winner)})")
            assert listed["strongest"]["unavailable"] is None
        body = {"preset": "standard", "seed": 4, "seats": [{"name": "Mo", "bot": "strongest"}, {"name": "Ann"}]}
        status, room = call(server, "POST", "/api/rooms", body)
        assert status == 201, room
        token = token_of(room, 1)
        table: dict[str, Any] = {}
        for _ in range(400):  # the bot moves first; wait for the person's turn, within a budget of polls
            status, table = call(server, "GET", "/api/table", token=token)
            assert status == 200
            if table["legal"]:
                break
            time.sleep(0.05)
        assert table["legal"], table
        assert table["seats"][0] == {"seat": 0, "name": "Mo", "kind": "strongest", "title": "Strongest (Expectimax)"}
        # The bot played its first turn before the person's: it chose to stop (seeded, so always this turn).
        assert any(entry["event"]["type"] == "stopped" and entry["event"]["seat"] == 0 for entry in table["events"])
        bad = {"preset": "standard", "seats": [{"name": "Mo", "bot": "strongests"}, {"name": "Ann"}]}
        status, refused = call(server, "POST", "/api/rooms", bad)
        assert status == 400
        assert "strongest" in refused["error"]


@pytest.mark.parametrize("name", GAMES)
def test_an_rl_environment_takes_the_alias_as_an_opponent(name: str) -> None:
    """A Gymnasium environment seats ``strongest`` by name, and plays the episode the bot it names plays."""

    def episode(opponent: str) -> tuple[Any, ...]:
        solo = SoloEnv(game=name, players=2, seat=0, opponents=opponent)
        _, info = solo.reset(seed=2)
        rng = random.Random(0)
        done = False
        while not done:
            legal = [i for i, allowed in enumerate(info["action_mask"]) if allowed]
            _, _, terminated, truncated, info = solo.step(rng.choice(legal))
            done = terminated or truncated
        assert solo.table.kinds[1] == opponent
        return solo.table.actions

    assert episode("strongest") == episode(league_winner(name))


@pytest.mark.parametrize("name", GAMES)
def test_the_latency_benchmark_times_the_alias_as_the_bot_it_names(name: str) -> None:
    """``benchmarks/bot_latency.py --bot strongest`` says which bot it timed and gives the 95th percentile."""
    options = ["--game", name, "--bot", "strongest", "--seats", "2", "--games", "1", "--gc", "on"]
    done = subprocess.run(
        [sys.executable, "benchmarks/bot_latency.py", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{name}: strongest ({league_winner(name)}), 2 seats, 1 games")
    lines = [line for line in done.stdout.splitlines() if line.startswith("gc on ")]
    assert len(lines) == 2
    for line in lines:
        assert re.search(r" p90 [0-9.]+ ms, p95 [0-9.]+ ms, p99 [0-9.]+ ms, ", line), line


def _latency_module() -> Any:
    spec = importlib.util.spec_from_file_location("bot_latency", ROOT / "benchmarks" / "bot_latency.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_latency_benchmark_times_a_setting_before_it_is_registered() -> None:
    """``--set NAME=NUMBER`` builds the bot's class with that keyword, says so, and refuses what it cannot build."""
    latency = _latency_module()
    assert latency._settings(["iterations=400", "exploration=0.5"]) == {"iterations": 400, "exploration": 0.5}
    built = latency._builder(too_many_registry.bot_named, "expectimax", {"depth": 3})()
    assert repr(built) == "ExpectimaxBot(depth=3)"
    assert repr(latency._builder(cheeky_registry.bot_named, "mcts", {"iterations": 400})()).startswith(
        "MCTSBot(iterations=400,"
    )
    assert repr(latency._builder(cheeky_registry.bot_named, "strongest", {})()) == "ExpectimaxBot(depth=2)"
    options = ["--game", "too-many-monkeys", "--bot", "expectimax", "--seats", "2", "--games", "1", "--gc", "on"]
    done = subprocess.run(
        [sys.executable, "benchmarks/bot_latency.py", *options, "--set", "depth=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("too-many-monkeys: expectimax with depth=1, 2 seats, 1 games")
    for bad, said in (("depth", "NAME=NUMBER"), ("depth=deep", "takes a number"), ("breadth=2", "does not take")):
        refused = subprocess.run(
            [sys.executable, "benchmarks/bot_latency.py", *options, "--set", bad],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert refused.returncode != 0
        assert said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
        assert refused.stdout == ""


@pytest.mark.parametrize("name", GAMES)
def test_the_batched_simulation_plays_the_alias_as_the_bot_it_names(name: str) -> None:
    """``simulate_batched`` seats ``strongest`` where the bot it names has a batched form, and plays it as that bot."""
    from cheekymonkey.simulation.batched import simulate_batched

    target = league_winner(name)
    options: dict[str, Any] = {"game": name, "players": 2, "seed": 11, "max_turns": 400}
    by_alias = simulate_batched(["strongest", "random"], 60, **options)
    by_name = simulate_batched([target, "random"], 60, **options)
    assert by_alias.bots[0].name.startswith("strongest")
    assert [line.wins for line in by_alias.bots] == [line.wins for line in by_name.bots]
    assert [line.mean_place for line in by_alias.bots] == [line.mean_place for line in by_name.bots]
    assert by_alias.truncated == by_name.truncated


@pytest.mark.parametrize("name", GAMES)
def test_the_vector_environment_seats_the_alias_as_the_bot_it_names(name: str) -> None:
    """``SoloVectorEnv(opponents="strongest")`` seats the named bot and plays the very games it plays."""
    from cheekymonkey.batched import random_legal_actions, seed_streams
    from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv

    def run(opponent: str) -> tuple[tuple[str, ...], list[bytes]]:
        envs = SoloVectorEnv(8, game=name, players=2, seat=0, opponents=opponent)
        observations, _ = envs.reset(seed=4)
        streams = seed_streams(0, 8)
        seen = [observations.tobytes()]
        for _ in range(30):
            actions = random_legal_actions(envs.action_masks(), streams)
            observations, rewards, _, _, _ = envs.step(actions)
            seen += [observations.tobytes(), rewards.tobytes()]
        return envs.opponents, seen

    by_alias, by_name = run("strongest"), run(league_winner(name))
    assert by_alias[0] == (league_winner(name),)
    assert by_alias == by_name
