"""``cheekymonkey train``: reproducible weights, checkpoints that resume to the same bytes, a bot, clear errors.

Every run here is a tiny budget of the real recipe (the batched engine, PyTorch, the evaluation through the
simulation), counted in examples and updates: nothing depends on how fast the machine is.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cheekymonkey.cli import main
from cheekymonkey.simulation import load_policy, simulate
from cheekymonkey.training import (
    Progress,
    TrainingOptions,
    declared_evaluation,
    game_of_weights,
    load_bot,
    recipe_games,
    train_weights,
)

ROOT = Path(__file__).resolve().parents[1]
# A tiny share of each recipe: a few hundred examples and a hundred or so updates.
TINY = {"cheeky-monkey": "0.007", "too-many-monkeys": "0.003"}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _train(game: str, out: Path, *extra: str, seed: int = 5, eval_games: int = 0) -> int:
    argv = ["train", "--game", game, "--out", str(out), "--seed", str(seed), "--budget", TINY[game]]
    return main([*argv, "--eval-games", str(eval_games), *extra])


@pytest.mark.slow  # compiles a batched engine and trains a network
@pytest.mark.parametrize("game", ["cheeky-monkey", "too-many-monkeys"])
def test_one_seed_gives_the_same_bytes_and_another_seed_other_bytes(game: str, tmp_path: Path) -> None:
    """Two runs with one seed write byte-identical weights; a third with another seed writes other weights."""
    first, second, other = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    assert _train(game, first) == 0
    assert _train(game, second) == 0
    assert _train(game, other, seed=6) == 0
    assert _sha(first) == _sha(second)
    assert _sha(first) != _sha(other)
    assert game_of_weights(first) == game


@pytest.mark.slow  # compiles a batched engine and trains a network
@pytest.mark.parametrize("game", ["cheeky-monkey", "too-many-monkeys"])
def test_a_run_stopped_after_a_checkpoint_and_resumed_writes_the_bytes_of_one_never_stopped(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped after its 2nd checkpoint (mid-fit), then resumed from it: the same file as one run straight through."""
    whole = tmp_path / "whole.npz"
    assert _train(game, whole, "--checkpoint-dir", str(tmp_path / "straight")) == 0
    resumed = tmp_path / "resumed.npz"
    folder = tmp_path / "stopped"
    assert _train(game, resumed, "--checkpoint-dir", str(folder), "--stop-after", "2") == 0
    said = capsys.readouterr().out
    assert "stopped after checkpoint 2" in said
    assert not resumed.exists()
    assert [path.name for path in sorted(folder.glob("checkpoint-*.pt"))] == [
        "checkpoint-00001.pt",
        "checkpoint-00002.pt",
    ]
    assert _train(game, resumed, "--checkpoint-dir", str(folder), "--resume") == 0
    assert _sha(resumed) == _sha(whole)
    # Stopped again later in the run (in the second round for Cheeky Monkey), the same bytes once more.
    again = tmp_path / "again.npz"
    later = tmp_path / "later"
    assert _train(game, again, "--checkpoint-dir", str(later), "--stop-after", "12") == 0
    assert not again.exists()
    assert _train(game, again, "--checkpoint-dir", str(later), "--resume") == 0
    assert _sha(again) == _sha(whole)


@pytest.mark.slow  # compiles a batched engine and trains a network
def test_the_weights_play_as_a_bot_and_the_evaluation_line_gives_the_simulations_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both games' files load as bots that finish games; the printed evaluation is the simulation's result."""
    for game, games in (("cheeky-monkey", 12), ("too-many-monkeys", 10)):
        out = tmp_path / f"{game}.npz"
        assert _train(game, out, eval_games=games, seed=2) == 0
        said = capsys.readouterr()
        seed = declared_evaluation(game).seed
        summary = simulate([load_bot(out), "heuristic"], games, seed=seed, players=2, game=game)
        mine = summary.bots[0]
        line = [text for text in said.out.splitlines() if text.startswith("evaluation:")]
        assert line == [
            f"evaluation: the trained bot against heuristic, {summary.games} games at 2 seats, seeds {seed} to "
            f"{seed + games - 1}, seats rotated: won {mine.wins:g}, {mine.win_rate:.1%} (95% interval "
            f"{mine.low:.1%} - {mine.high:.1%})"
        ]
        assert f"SHA-256 {_sha(out)}" in said.out
        # Every game was played to its end by the trained bot (a bot that stalled or erred would fail or truncate).
        assert summary.games == games
        assert summary.truncated == 0
        assert mine.name != "heuristic"
        assert 0 <= mine.wins <= games


def test_the_network_policy_picks_the_best_legal_action(tmp_path: Path) -> None:
    """The Too Many Monkeys network plays the highest-scoring action its mask allows, never a masked one."""
    path = tmp_path / "net.npz"
    np.savez(
        path,
        scale=np.ones(3, np.float32),
        w1=np.eye(3, dtype=np.float32),
        b1=np.zeros(3, np.float32),
        w2=np.eye(3, dtype=np.float32),
        b2=np.zeros(3, np.float32),
        players=np.array(2),
    )
    policy = load_policy(path)
    observation = np.array([1.0, 3.0, 2.0], np.float32)
    assert policy(observation, np.array([True, True, True])) == 1
    assert policy(observation, np.array([True, False, True])) == 2
    assert game_of_weights(path) == "too-many-monkeys"


def test_without_pytorch_the_command_names_the_train_extra(tmp_path: Path) -> None:
    """PyTorch missing: exit status 2, one line naming the train extra, no traceback, no file written."""
    out = tmp_path / "w.npz"
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from cheekymonkey.cli import main\n"
        f"sys.exit(main(['train', '--game', 'too-many-monkeys', '--out', {str(out)!r}, '--budget', '0.001']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "cheekymonkey train: torch is not installed; it comes with the train extra: pip install "
        "'cheekymonkey[train]' (or, in a clone of the repository: pip install '.[train]')"
    ]
    assert "Traceback" not in done.stdout
    assert not out.exists()


def test_the_progress_bar_writes_plain_lines_off_a_terminal() -> None:
    """Off a terminal: one line at each tenth of a stage, none in between, and the stage's end."""

    class Stream(list[str]):
        def write(self, text: str) -> None:
            self.append(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    stream = Stream()
    progress = Progress(stream)  # type: ignore[arg-type]
    progress.stage("work", 100)
    for _ in range(100):
        progress.advance()
    lines = "".join(stream).splitlines()
    assert len(lines) == 11
    assert lines[-1].endswith("work: 100/100")
    assert "\r" not in "".join(stream)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "train", *args], capture_output=True, text=True, cwd=cwd, check=False
    )


def _in_process(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    """``cheekymonkey train ARGS`` in this process: its status, output and errors (an exception escapes)."""
    try:
        status: object = main(["train", *args])
    except SystemExit as stop:  # argparse's own errors
        status = stop.code
    said = capsys.readouterr()
    return status, said.out, said.err


def test_bad_arguments_exit_2_with_one_clear_line_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each mistake: exit status 2, a message naming the option, no exception, and no file written."""
    monkeypatch.chdir(tmp_path)
    out = str(tmp_path / "w.npz")
    full = tmp_path / "full"
    full.mkdir()
    (full / "checkpoint-00001.pt").write_bytes(b"not a checkpoint")
    cases = {
        ("--out", out, "--budget", "0"): "budget",
        ("--out", out, "--budget", "lots"): "budget",
        ("--out", out, "--seed", "-1"): "seed",
        ("--out", str(tmp_path / "missing" / "w.npz")): "missing",
        ("--out", out, "--resume"): "--resume needs --checkpoint-dir",
        ("--out", out, "--stop-after", "1"): "--stop-after needs --checkpoint-dir",
        ("--out", out, "--checkpoint-dir", str(full)): "pass --resume",
        ("--out", out, "--checkpoint-dir", str(full), "--resume"): "cannot read the checkpoint",
        ("--out", out, "--opponent", "nobody"): "--opponent nobody",
        ("--out", out, "--address", "http://x"): "--address http://x",
        ("--out", out, "--eval-games", "-3"): "eval-games",
        ("--budget", "0.1"): "--out",
        ("--out", out, "--game", "chess"): "chess",
        ("--out", out, "--checkpoint-dir", str(full / "checkpoint-00001.pt")): "a file, not a folder",
    }
    for args, words in cases.items():
        status, out_text, err_text = _in_process(args, capsys)
        assert status == 2, (args, err_text)
        assert words in err_text, (args, err_text)
        assert "Traceback" not in err_text + out_text, args
        assert not Path(out).exists()


@pytest.mark.slow  # compiles a batched engine and trains a network
def test_a_resumed_run_refuses_a_checkpoint_of_another_seed(tmp_path: Path) -> None:
    """Resuming with another seed than the checkpoint's is refused (status 2), and the checkpoints are kept."""
    folder = tmp_path / "ck"
    out = tmp_path / "w.npz"
    assert _train("too-many-monkeys", out, "--checkpoint-dir", str(folder), "--stop-after", "1") == 0
    kept = sorted(path.read_bytes() for path in folder.iterdir())
    done = _cli(
        "--game", "too-many-monkeys", "--out", str(out), "--seed", "9", "--budget", TINY["too-many-monkeys"],
        "--checkpoint-dir", str(folder), "--resume", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert "made by another run" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(path.read_bytes() for path in folder.iterdir()) == kept
    assert not out.exists()


def test_a_game_without_a_recipe_is_refused_by_the_library_too(tmp_path: Path) -> None:
    """The library names the games it trains when asked for another, and a budget of 0 is refused."""
    from cheekymonkey.errors import InvalidValueError

    assert {"cheeky-monkey", "too-many-monkeys"} <= set(recipe_games())
    with pytest.raises(InvalidValueError, match="no training recipe"):
        train_weights(TrainingOptions(game="pig", seed=0), tmp_path / "w.npz")
    with pytest.raises(InvalidValueError, match="budget"):
        train_weights(TrainingOptions(game="too-many-monkeys", seed=0, budget=0.0), tmp_path / "w.npz")
    assert not (tmp_path / "w.npz").exists()


@pytest.mark.slow
def test_the_evaluation_on_a_dask_scheduler_gives_the_in_process_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--address tcp://...: the evaluation's games go through a real Dask scheduler to a worker process."""
    import distributed

    start: Any = distributed.LocalCluster  # untyped: kept to this line
    cluster = start(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    try:
        before = cluster.scheduler.transition_counter
        out = tmp_path / "w.npz"
        games = 8
        assert _train("too-many-monkeys", out, "--address", cluster.scheduler_address, eval_games=games, seed=3) == 0
        said = capsys.readouterr().out
        # The scheduler moved the evaluation's tasks (it sees nothing of a run in this process).
        transitions = cluster.scheduler.transition_counter - before
    finally:
        cluster.close()
    assert transitions > 0
    seed = declared_evaluation("too-many-monkeys").seed
    mine = simulate([load_bot(out), "heuristic"], games, seed=seed, players=2, game="too-many-monkeys").bots[0]
    assert (
        f"{games} games at 2 seats, seeds {seed} to {seed + games - 1}, seats rotated: won {mine.wins:g}, "
        f"{mine.win_rate:.1%} (95% interval {mine.low:.1%} - {mine.high:.1%})" in said
    )


def test_the_shipped_too_many_monkeys_weights_win_the_count_the_pages_report() -> None:
    """The declared evaluation of ``training/tmm_policy.npz`` wins 483 of its 1,000 games, as the pages say."""
    from cheekymonkey.training import declared_evaluation, evaluate

    evaluation = declared_evaluation("too-many-monkeys")
    assert (evaluation.opponent, evaluation.games, evaluation.seed) == ("heuristic", 1000, 7_000_000)
    summary = evaluate(ROOT / "training" / "tmm_policy.npz", evaluation)
    assert summary.games + summary.truncated == 1000
    assert summary.bots[0].wins == 483
