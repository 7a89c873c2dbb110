"""Simulation at scale: the same summary on every backend, and faults that lose nothing.

The Dask and Ray tests start real clusters: a Dask scheduler and two workers as separate processes on
127.0.0.1 (``dask scheduler``, ``dask worker``), and a local Ray instance with two CPUs. Every process a
test starts is stopped when it ends.
"""

from __future__ import annotations

import ctypes
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheekymonkey import (
    CHEEKY_MONKEY,
    Action,
    GameState,
    InvalidGameError,
    InvalidValueError,
    Ruleset,
    begins_turn,
    play_game,
)
from cheekymonkey.cheeky.bots import bot_named
from cheekymonkey.simulation import (
    WIN_UNITS,
    GameFailedError,
    Histogram,
    SimulationError,
    SimulationProgress,
    Summary,
    simulate,
)
from tests.simulation_bots import BuggyBot, DyingBot

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
BOTS = ("heuristic", "random", "heuristic")


def _env() -> dict[str, str]:
    """The environment of a process a test starts: the repository importable, so workers find the test bots."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["COLUMNS"] = "120"
    return env


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cheekymonkey", "simulate", *args]


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``cheekymonkey simulate`` with ``args`` to the end, capturing its output as text."""
    return subprocess.run(_cli(*args), env=_env(), capture_output=True, text=True, timeout=timeout, check=False)


def _json_of(summary: Summary) -> Any:
    """The summary as the command line's --json writes it, read back."""
    return json.loads(json.dumps(summary.to_dict()))


# ---------------------------------------------------------------------------------------------------------
# Same summary whatever runs the blocks


def test_the_summary_is_the_same_in_process_in_threads_and_in_a_process_pool_for_any_block_size() -> None:
    """In-process, a thread pool (one block in flight or many), 2 processes, blocks of 1 to 50: identical summaries."""
    reference = simulate(BOTS, 30, seed=11)
    with ThreadPoolExecutor(3) as threads:
        assert simulate(BOTS, 30, seed=11, executor=threads, block_size=4) == reference
        assert simulate(BOTS, 30, seed=11, executor=threads, block_size=2, in_flight=1) == reference
    assert simulate(BOTS, 30, seed=11, workers=2, block_size=5) == reference
    for size in (1, 50):
        assert simulate(BOTS, 30, seed=11, block_size=size) == reference
    assert reference.games == reference.requested == 30
    assert reference.completed == ((0, 30),)
    assert not reference.partial


@settings(max_examples=20)
@given(games=st.integers(0, 14), size=st.integers(1, 15), seed=st.integers(-5, 10**9))
def test_the_block_size_never_changes_the_summary(games: int, size: int, seed: int) -> None:
    assert simulate(["random", "heuristic"], games, seed=seed, block_size=size) == simulate(
        ["random", "heuristic"], games, seed=seed, block_size=games + 1
    )


class _TurnCounter:
    def __init__(self) -> None:
        self.turns = 0

    def __call__(self, state: GameState, action: Action) -> None:
        if begins_turn(state):
            self.turns += 1  # R4: a turn opens with its compulsory draw


def test_each_game_is_the_seeded_game_with_the_bots_moved_round_the_table() -> None:
    """Game i is play_game(seed + i) with seat s holding bot (s + i) mod n: the counts match game by game."""
    seed, games = 300, 9
    summary = simulate(BOTS, games, seed=seed, block_size=2)
    scores: list[dict[int, int]] = [{} for _ in BOTS]
    wins = [0.0] * 3
    seat_wins = [0.0] * 3
    turns_total = actions_total = 0
    for game in range(games):
        order = [(s + game) % 3 for s in range(3)]
        turns = _TurnCounter()
        played = play_game([bot_named(BOTS[b]) for b in order], seed=seed + game, on_action=turns)
        sheet = played.score
        for seat, line in enumerate(order):
            total = sheet.seats[seat].total
            scores[line][total] = scores[line].get(total, 0) + 1
            if seat in sheet.winners:
                wins[line] += 1 / len(sheet.winners)
                seat_wins[seat] += 1 / len(sheet.winners)
        actions_total += len(played.record.actions)
        turns_total += turns.turns
    assert [line.scores for line in summary.bots] == [Histogram.of(s) for s in scores]
    assert [line.wins for line in summary.bots] == pytest.approx(wins)
    assert list(summary.seat_win_rates) == pytest.approx([w / games for w in seat_wins])
    assert summary.mean_actions == actions_total / games
    assert summary.mean_turns == turns_total / games
    assert [line.name for line in summary.bots] == ["heuristic 0", "random", "heuristic 2"]


def test_wins_add_up_to_the_games_and_every_rate_sits_in_its_interval() -> None:
    summary = simulate(["heuristic", "random"], 40, seed=3, players=4)
    assert summary.players == 4
    assert [line.name for line in summary.bots] == ["heuristic 0", "random 1", "heuristic 2", "random 3"]
    assert sum(line.wins for line in summary.bots) == pytest.approx(40)
    assert sum(summary.seat_win_rates) == pytest.approx(1)
    for line in summary.bots:
        assert line.low <= line.win_rate <= line.high
        assert line.scores.total == 40
    assert summary.turns.total == 40
    assert WIN_UNITS % 4 == WIN_UNITS % 5 == WIN_UNITS % 6 == 0


def test_progress_reports_every_block_and_ends_at_the_total() -> None:
    seen: list[SimulationProgress] = []
    simulate(["random", "random"], 10, block_size=3, progress=seen.append)
    assert [p.games_done for p in seen] == [3, 6, 9, 10]
    assert [p.blocks_done for p in seen] == [1, 2, 3, 4]
    assert all(p.blocks == 4 and p.games == 10 for p in seen)
    assert seen[-1].remaining == 0
    assert seen[-1].rate > 0


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"bots": []}, InvalidGameError),
        ({"bots": ["nobody"]}, InvalidValueError),
        ({"bots": "heuristic"}, InvalidValueError),
        ({"bots": [object()]}, InvalidValueError),
        ({"games": -1}, InvalidValueError),
        ({"players": 7}, InvalidGameError),
        ({"bots": ["random"] * 3, "players": 2}, InvalidGameError),
        ({"block_size": 0}, InvalidValueError),
        ({"workers": 0}, InvalidValueError),
        ({"in_flight": 0}, InvalidValueError),
        ({"workers": 2, "executor": ThreadPoolExecutor(1)}, InvalidValueError),
        ({"executor": "tcp://127.0.0.1:1"}, InvalidValueError),
        ({"seed": "7"}, InvalidValueError),
        ({"max_turns": 0}, InvalidValueError),
        ({"max_actions": "many"}, InvalidValueError),
        ({"ruleset": "standard"}, InvalidValueError),
    ],
)
def test_bad_arguments_get_typed_errors(kwargs: dict[str, Any], error: type[Exception]) -> None:
    arguments: dict[str, Any] = {"bots": ["random", "random"], "games": 2, **kwargs}
    with pytest.raises(error):
        simulate(**arguments)


def test_the_younger_rules_and_their_name_reach_the_summary() -> None:
    summary = simulate(["heuristic", "random"], 6, ruleset=Ruleset.preset("younger"))
    assert summary.ruleset == Ruleset.preset("younger").name


# ---------------------------------------------------------------------------------------------------------
# Limits: games cut off are truncated, counted apart from results


def test_games_cut_off_by_the_turn_limit_are_truncated_and_counted_apart_from_results() -> None:
    """Each game either ends within 23 turns (a result, counted) or is cut off (truncated, counted apart)."""
    summary = simulate(["heuristic", "expectimax"], 24, seed=2, max_turns=23)
    lengths = []
    for number in range(24):
        order = [(s + number) % 2 for s in range(2)]
        bots = [bot_named(("heuristic", "expectimax")[line]) for line in order]
        counter = _TurnCounter()
        play_game(bots, seed=2 + number, on_action=counter)
        lengths.append(counter.turns)
    finished = [turns for turns in lengths if turns <= 23]
    assert 0 < len(finished) < 24  # the limit cuts some games off, and leaves others
    assert summary.truncated == 24 - len(finished)
    assert summary.games == len(finished)
    assert summary.completed == ((0, 24),)
    assert not summary.partial
    assert summary.turns.total == summary.games
    assert max(summary.turns.values) <= 23
    assert summary.mean_turns == sum(finished) / len(finished)
    assert sum(line.wins for line in summary.bots) == pytest.approx(summary.games)
    assert all(line.scores.total == summary.games for line in summary.bots)
    assert _json_of(summary)["truncated"] == summary.truncated


@settings(max_examples=10)
@given(size=st.integers(1, 13), limit=st.integers(5, 200))
def test_the_summary_with_truncated_games_is_the_same_for_any_block_size(size: int, limit: int) -> None:
    """A step limit truncates the same games whatever the blocks, so the summary is bit for bit the same."""
    whole = simulate(["random", "heuristic"], 12, seed=5, max_actions=limit)
    assert simulate(["random", "heuristic"], 12, seed=5, max_actions=limit, block_size=size) == whole
    assert whole.games + whole.truncated == 12


def test_a_step_limit_too_small_for_any_game_truncates_every_game() -> None:
    summary = simulate(["random", "random"], 5, seed=1, max_actions=3)
    assert (summary.games, summary.truncated, summary.mean_actions) == (0, 5, 0.0)
    assert [line.win_rate for line in summary.bots] == [0.0, 0.0]


# ---------------------------------------------------------------------------------------------------------
# Any game


class _EveryStateBeginsATurn:
    """Cheeky Monkey, except that every state counts as the start of a turn: turns come from the game."""

    def __getattr__(self, name: str) -> Any:
        return getattr(CHEEKY_MONKEY, name)

    def begins_turn(self, state: GameState) -> bool:
        return True


def test_the_simulation_counts_turns_by_the_game_s_own_rule() -> None:
    """With a game that says every state begins a turn, a game of n actions has n + 1 turns."""
    summary = simulate(["heuristic", "random"], 6, seed=3, game=_EveryStateBeginsATurn())
    assert summary.mean_turns == summary.mean_actions + 1
    assert summary.games == 6


def test_the_game_may_be_named_and_an_unknown_game_is_refused() -> None:
    assert simulate(["random", "random"], 4, seed=7, game="cheeky-monkey") == simulate(["random", "random"], 4, seed=7)
    with pytest.raises(InvalidValueError, match="no game named 'chess'"):
        simulate(["random", "random"], 4, game="chess")
    with pytest.raises(InvalidValueError, match="game must be a Game"):
        simulate(["random", "random"], 4, game=object())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------
# Faults


@pytest.mark.parametrize("where", ["in-process", "threads", "processes"])
def test_a_bot_that_raises_comes_back_as_a_typed_error_naming_the_game_and_its_seed(where: str) -> None:
    """Whichever backend: GameFailedError with the game, its seed and the seats; that seed alone fails the same way."""
    buggy = BuggyBot(at=20)
    bots: list[Any] = ["heuristic", buggy]
    started = time.monotonic()
    with ThreadPoolExecutor(2) as threads, pytest.raises(GameFailedError) as caught:
        simulate(
            bots,
            40,
            seed=5,
            executor=threads if where == "threads" else None,
            workers=2 if where == "processes" else None,
            block_size=3,
        )
    # A guard against a run that never stops, not a speed figure: the whole run takes about 2 s when it does
    # not fail, so 300 s holds on any loaded machine. Where the bot is this process's own object, the work
    # is counted instead, just below.
    assert time.monotonic() - started < 300
    error = caught.value
    if where == "in-process":
        # The run stopped at once: the first game failed, and the bot moved in no other game.
        assert error.game == 0
        alone = BuggyBot(at=20)
        with pytest.raises(ZeroDivisionError):
            play_game([bot_named("heuristic"), alone], seed=5)
        assert buggy.moves == alone.moves > 0
    assert type(error) is GameFailedError
    assert error.seed == 5 + error.game
    assert error.error_type == "ZeroDivisionError"
    assert f"game {error.game} (seed {error.seed}" in str(error)
    assert "ZeroDivisionError" in error.details
    seats = [bot_named("heuristic") if name == "heuristic" else BuggyBot(at=20) for name in error.seats]
    with pytest.raises(ZeroDivisionError):
        play_game(seats, seed=error.seed)


def test_the_simulation_errors_pickle_with_every_field() -> None:
    error = GameFailedError(7, 107, ("heuristic", "buggy"), "ZeroDivisionError", "boom", "Traceback ...")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is GameFailedError
    assert (copy.game, copy.seed, copy.seats, copy.error_type, copy.message, copy.details) == (
        7,
        107,
        ("heuristic", "buggy"),
        "ZeroDivisionError",
        "boom",
        "Traceback ...",
    )
    assert str(copy) == str(error)
    partial = simulate(["random", "random"], 3)
    lost = pickle.loads(pickle.dumps(SimulationError("the pool broke", partial)))
    assert (type(lost), lost.reason, lost.summary, str(lost)) == (
        SimulationError,
        "the pool broke",
        partial,
        "the pool broke",
    )


def test_a_local_worker_that_dies_mid_run_loses_no_game_and_counts_none_twice(tmp_path: Path) -> None:
    """A bot kills its worker process once, mid-block: the pool is started again and the summary is exact."""
    marker = tmp_path / "died"
    bots: list[Any] = [DyingBot(marker, os.getpid()), "random"]
    summary = simulate(bots, 24, seed=9, workers=2, block_size=3)
    assert marker.exists()  # a worker really died
    assert summary == simulate(bots, 24, seed=9)  # in this process the bot never dies


def test_a_run_on_its_own_pool_shuts_the_pool_down_before_it_returns() -> None:
    """Every game in: the owned pool's processes have exited when simulate returns (none left to the exit)."""
    import multiprocessing

    summary = simulate(["heuristic", "random"], 12, seed=3, workers=2, block_size=2)
    assert summary.games == 12
    assert multiprocessing.active_children() == []


def test_a_broken_pool_the_caller_owns_is_reported_with_the_finished_blocks(tmp_path: Path) -> None:
    """A pool passed in is not ours to restart: SimulationError, carrying the blocks finished before."""
    from concurrent.futures import ProcessPoolExecutor

    bots: list[Any] = [DyingBot(tmp_path / "died", os.getpid()), "random"]
    with ProcessPoolExecutor(1) as pool, pytest.raises(SimulationError) as caught:
        simulate(bots, 12, seed=9, executor=pool, block_size=3)
    assert caught.value.summary is not None
    assert caught.value.summary.partial


class _LosingExecutor(ThreadPoolExecutor):
    """Threads that lose the result of the blocks starting at ``lost`` games, ``times`` times each."""

    def __init__(self, lost: set[int], times: int) -> None:
        super().__init__(2)
        self.lost = dict.fromkeys(lost, times)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        start = args[0].start
        if self.lost.get(start, 0) > 0:
            self.lost[start] -= 1
            return super().submit(_lose, start)
        return super().submit(fn, *args, **kwargs)


def _lose(start: int) -> None:
    raise ConnectionError(f"the result of block {start} was lost with its worker")


def test_a_block_whose_result_is_lost_runs_again_and_counts_once() -> None:
    with _LosingExecutor({0, 12}, times=2) as executor:
        summary = simulate(BOTS, 24, seed=8, executor=executor, block_size=4)
    assert summary == simulate(BOTS, 24, seed=8)


def test_a_block_lost_every_time_stops_the_run_with_the_blocks_finished() -> None:
    with _LosingExecutor({8}, times=100) as executor, pytest.raises(SimulationError) as caught:
        simulate(BOTS, 24, seed=8, executor=executor, block_size=4, in_flight=1)
    assert "games 8 to 11 failed 4 times" in str(caught.value)
    partial = caught.value.summary
    assert partial is not None
    assert partial.partial
    assert partial.completed == ((0, 8),)


def _wait_for_line(stream: Any, needle: str, timeout: float) -> str:
    """Read lines from ``stream`` until one contains ``needle``; fail after ``timeout`` seconds.

    A wait for another process to get going, which no count of work can replace: the timeouts passed are
    generous (a minute or more, for what takes a second or two on an idle machine), so a loaded one passes.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if needle in line:
            return str(line)
        if not line:
            time.sleep(0.05)
    pytest.fail(f"no line with {needle!r} within {timeout} s")


@pytest.mark.slow
def test_ctrl_c_stops_the_run_and_reports_the_finished_blocks_marked_partial(tmp_path: Path) -> None:
    """SIGINT mid-run: exit 130, the table says partial, and the JSON counts exactly the finished blocks."""
    out = tmp_path / "partial.json"
    command = _cli("--bots", "heuristic,random", "--games", "100000", "--block-size", "20", "--json", str(out))
    process = subprocess.Popen(
        command, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_as_at_a_terminal
    )
    try:
        _wait_for_line(process.stderr, "games/s", 60)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        stdout, _ = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert "partial: stopped after" in stdout
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["partial"] is True
    assert 0 < saved["games"] < 100000
    # In one process the blocks finish in order: the finished ones are the first games, exactly.
    assert saved["completed"] == [[0, saved["games"]]]
    assert saved["games"] % 20 == 0
    again = simulate(["heuristic", "random"], saved["games"], block_size=20)
    expected = _json_of(again)
    for field in ("requested", "partial"):
        del saved[field], expected[field]
    assert saved == expected


@pytest.mark.slow
def test_ctrl_c_with_worker_processes_counts_only_whole_blocks(tmp_path: Path) -> None:
    """SIGINT to a run in 2 processes: exit 130, whole blocks only, and no worker process left behind."""
    out = tmp_path / "partial.json"
    command = _cli("--bots", "heuristic,random", "--games", "100000", "--workers", "2", "--block-size", "10")
    process = subprocess.Popen(
        [*command, "--json", str(out)],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_at_a_terminal,
    )
    try:
        _wait_for_line(process.stderr, "games/s", 60)
        workers = _children(process.pid)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert len(workers) >= 2  # the pool's processes (and its resource tracker, if any)
    # The pool's processes exit on their own after the parent: a wait for the kernel, with a wide margin.
    deadline = time.monotonic() + 120
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]  # none left behind
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["partial"] is True
    counted = sum(stop - start for start, stop in saved["completed"])
    assert counted == saved["games"] > 0
    assert all(start % 10 == 0 and (stop % 10 == 0) for start, stop in saved["completed"])
    assert sum(line["wins"] for line in saved["bots"]) == pytest.approx(saved["games"])
    assert all(sum(line["scores"]["counts"]) == saved["games"] for line in saved["bots"])


def _children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


# ---------------------------------------------------------------------------------------------------------
# The command line


def test_the_command_writes_json_and_a_plot_and_prints_progress_to_standard_error(tmp_path: Path) -> None:
    summary_file, image = tmp_path / "summary.json", tmp_path / "rates.png"
    command = ("--bots", "heuristic,random", "--players", "3", "--games", "12", "--seed", "4", "--workers", "2")
    done = _run(*command, "--json", str(summary_file), "--plot", str(image), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "12 games of heuristic, random, heuristic" in done.stdout
    assert "Mean game length:" in done.stdout
    assert "12/12 games (100%)" in done.stderr
    assert "games/s" in done.stderr
    assert "left" in done.stderr
    expected = simulate(["heuristic", "random"], 12, seed=4, players=3)
    assert json.loads(summary_file.read_text(encoding="utf-8")) == _json_of(expected)
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.stat().st_size > 10_000


def test_the_command_refuses_workers_with_a_scheduler_and_more_bots_than_seats() -> None:
    both = _run("--games", "2", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2")
    assert both.returncode == 2
    assert "--workers" in both.stderr
    crowded = _run("--games", "2", "--bots", "random,random,random", "--players", "2")
    assert crowded.returncode == 2
    assert "2 seats take at most 2 bots" in crowded.stderr  # an error, so on stderr


# ---------------------------------------------------------------------------------------------------------
# Dask: a real scheduler and two real workers


def _stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()  # a worker that lost its scheduler can hang in its own shutdown
            process.wait()


def _die_with_parent() -> None:
    """In the child, before exec: be killed if the test session dies, so no cluster outlives it (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # 1 is PR_SET_PDEATHSIG


def _as_at_a_terminal() -> None:
    """In the child, before exec: Ctrl-C's default action, as at a terminal, and die with the test session.

    A program started with SIGINT ignored (as a background job of a script is, and so possibly this test
    session) inherits that, and rightly goes on when sent it; these tests are about a user pressing Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    _die_with_parent()


class DaskCluster:
    """A scheduler and two single-threaded workers, each its own process, on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen[Any]] = []
        self.workers: list[subprocess.Popen[Any]] = []
        self.address = ""

    def _start(self, *args: str, log: str) -> subprocess.Popen[Any]:
        with (self.folder / log).open("w") as sink:
            process = subprocess.Popen(
                [str(BIN / "dask"), *args],
                env=_env(),
                stdout=sink,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                preexec_fn=_die_with_parent,
            )
        self.processes.append(process)
        return process

    def start(self) -> None:
        addresses = self.folder / "scheduler.json"
        options = ["--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file"]
        self._start("scheduler", *options, str(addresses), log="scheduler.log")
        # Starting a scheduler and two workers takes a few seconds on an idle machine: waits, with wide margins.
        deadline = time.monotonic() + 180
        while not addresses.exists() or not addresses.read_text():
            if time.monotonic() > deadline:
                pytest.fail("the Dask scheduler did not start within 180 s")
            time.sleep(0.1)
        self.address = json.loads(addresses.read_text())["address"]
        for i in range(2):
            # --no-nanny: a killed worker stays dead, as a lost machine would.
            options = ["--nworkers", "1", "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"]
            self.workers.append(self._start("worker", self.address, *options, log=f"worker{i}.log"))
        while self.log("scheduler.log").count("Register worker") < 2:
            if time.monotonic() > deadline:
                pytest.fail("the Dask workers did not join within 180 s")
            time.sleep(0.1)

    def log(self, name: str) -> str:
        return (self.folder / name).read_text()

    def stop(self) -> None:
        for process in reversed(self.processes):
            _stop(process)


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskCluster]:
    """One cluster for the module's Dask tests: the equality test runs first, on both workers."""
    cluster = DaskCluster(tmp_path_factory.mktemp("dask"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.mark.slow
def test_the_command_on_a_dask_cluster_gives_the_in_process_summary(dask_cluster: DaskCluster, tmp_path: Path) -> None:
    out = tmp_path / "dask.json"
    command = ("--bots", "heuristic,random", "--players", "3", "--games", "40", "--seed", "21", "--block-size", "4")
    done = _run(*command, "--scheduler", dask_cluster.address, "--json", str(out), timeout=180)
    assert done.returncode == 0, done.stderr
    expected = simulate(["heuristic", "random"], 40, seed=21, players=3)
    assert json.loads(out.read_text(encoding="utf-8")) == _json_of(expected)


@pytest.mark.slow
def test_too_many_monkeys_on_a_dask_cluster_gives_the_in_process_summary(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    """The other game, through the command on the same two workers, turn limit and all: the in-process summary."""
    out = tmp_path / "dask.json"
    command = ("--game", "too-many-monkeys", "--bots", "random", "--players", "3", "--games", "30", "--seed", "9")
    limits = ("--max-turns", "150", "--block-size", "4")
    done = _run(*command, *limits, "--scheduler", dask_cluster.address, "--json", str(out), timeout=180)
    assert done.returncode == 0, done.stderr
    expected = simulate(["random"], 30, seed=9, players=3, max_turns=150, game="too-many-monkeys")
    assert 0 < expected.truncated < 30
    assert json.loads(out.read_text(encoding="utf-8")) == _json_of(expected)


@pytest.mark.slow
def test_a_bot_that_raises_on_a_dask_worker_comes_back_as_a_game_failed_error(dask_cluster: DaskCluster) -> None:
    """Through a distributed.Client passed as it is: the typed error crosses the cluster, and nothing hangs."""
    import distributed

    connect: Any = distributed.Client  # untyped
    with connect(dask_cluster.address, timeout="60s") as client, pytest.raises(GameFailedError) as caught:
        simulate(["heuristic", BuggyBot(at=20)], 12, seed=5, executor=client, block_size=3)
    assert type(caught.value) is GameFailedError
    assert caught.value.seed == 5 + caught.value.game
    assert caught.value.error_type == "ZeroDivisionError"


@pytest.mark.slow
def test_killing_a_dask_worker_mid_run_loses_no_game_and_counts_none_twice(
    dask_cluster: DaskCluster, tmp_path: Path
) -> None:
    """SIGKILL one of the two workers once blocks are finishing: the run completes, equal to the in-process one."""
    out = tmp_path / "dask.json"
    command = _cli("--bots", "heuristic,random", "--games", "600", "--seed", "2", "--block-size", "4")
    process = subprocess.Popen(
        [*command, "--scheduler", dask_cluster.address, "--json", str(out)],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_die_with_parent,
    )
    try:
        first = _wait_for_line(process.stderr, "games/s", 120)
        victim = dask_cluster.workers[0]
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(timeout=120)  # SIGKILL cannot be ignored: a wait for the kernel, with a wide margin
        _, rest = process.communicate(timeout=240)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0, rest
    done_at_kill = int(first.split("/")[0])
    assert done_at_kill < 600  # the worker died mid-run
    # The scheduler notices a dead worker by its heartbeat, in seconds: a wait, with a wide margin.
    deadline = time.monotonic() + 120
    while "Remove worker" not in dask_cluster.log("scheduler.log") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Remove worker" in dask_cluster.log("scheduler.log")  # the scheduler saw it go
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved == _json_of(simulate(["heuristic", "random"], 600, seed=2))


# ---------------------------------------------------------------------------------------------------------
# Ray: a local instance with two CPUs


# Ray runs in a child process: a fault inside Ray's core aborts the process that called ray.init, and it
# must not take the test session (and the teardown of every other process) with it.
_RAY_RUN = """
import json, sys
from cheekymonkey.simulation import GameFailedError, RayExecutor, simulate
from tests.simulation_bots import BuggyBot

ray = RayExecutor(num_cpus=2)  # ray.init(num_cpus=2): a local instance
try:
    summary = simulate(["heuristic", "random", "heuristic"], 24, seed=17, executor=ray, block_size=5)
    other = simulate(["random"] * 3, 24, seed=17, executor=ray, block_size=5, game="too-many-monkeys", max_turns=150)
    try:
        simulate(["heuristic", BuggyBot(at=20)], 12, seed=5, executor=ray, block_size=3)
        failure = None
    except GameFailedError as error:
        failure = [type(error).__name__, error.game, error.seed, error.error_type]
finally:
    ray.shutdown()
json.dump({"summary": summary.to_dict(), "other": other.to_dict(), "failure": failure}, sys.stdout)
"""


@pytest.mark.slow
def test_ray_tasks_give_the_in_process_summary_and_bring_back_a_failing_bot_as_a_plain_error() -> None:
    """A local Ray instance with 2 CPUs: both games' in-process summaries, and a GameFailedError unwrapped."""
    done = subprocess.run(
        [sys.executable, "-c", _RAY_RUN], env=_env(), cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["summary"] == _json_of(simulate(BOTS, 24, seed=17))
    other = simulate(["random"] * 3, 24, seed=17, game="too-many-monkeys", max_turns=150)
    assert result["other"] == _json_of(other)  # the other game, cut off at the same turns
    assert 0 < other.truncated < 24
    name, game, seed, error_type = result["failure"]
    assert (name, seed, error_type) == ("GameFailedError", 5 + game, "ZeroDivisionError")
