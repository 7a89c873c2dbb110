"""``play --record`` never loses a game, and every exit status is the documented one.

The overwrite, bad-path and kill tests run the real command in a real process, as a user would.
"""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cheekymonkey import Phase, Stop
from cheekymonkey.cheeky.documents import dump_record, load_record
from cheekymonkey.cheeky.records import GameRecord
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cli import main, play
from cheekymonkey.cli.record_file import RecordFile, RecordFileError, default_record_path

ROOT = Path(__file__).resolve().parent.parent
PROMPT = play.PROMPT


def _play(args: list[str], answers: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "play", *args],
        input=answers,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )


# --- 9. never overwrite unless told -----------------------------------------------------------------------


def test_play_refuses_to_overwrite_an_existing_record_and_plays_nothing(tmp_path: Path) -> None:
    """A second game with the same --record leaves the first record as it was, status 2, on stderr."""
    first = _play(["--seed", "4", "--record", "game.json"], "s\n" * 400, tmp_path)
    assert first.returncode == 0, first.stderr
    saved = (tmp_path / "game.json").read_bytes()
    assert len(load_record(saved).actions) > 50
    second = _play(["--seed", "5", "--record", "game.json"], "q\n", tmp_path)
    assert second.returncode == 2
    assert "already exists" in second.stderr
    assert "--overwrite" in second.stderr
    assert "already exists" not in second.stdout
    assert PROMPT not in second.stdout  # no move was asked for
    assert (tmp_path / "game.json").read_bytes() == saved


def test_play_overwrites_a_record_when_told(tmp_path: Path) -> None:
    """--overwrite replaces the file with the new game's record."""
    (tmp_path / "game.json").write_text("an old record", encoding="utf-8")
    result = _play(["--seed", "5", "--record", "game.json", "--overwrite"], "q\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert load_record((tmp_path / "game.json").read_text(encoding="utf-8")).seed == 5


def test_the_default_record_name_never_takes_an_existing_file(tmp_path: Path) -> None:
    """Two games in the same second get two files."""
    first = default_record_path(tmp_path)
    first.write_text("taken", encoding="utf-8")
    second = default_record_path(tmp_path)
    assert second != first
    assert not second.exists()


# --- 10. check the path first, write atomically, save as the game goes ---------------------------------------


@pytest.mark.parametrize(
    "where",
    [
        pytest.param("missing-directory/game.json", id="missing-directory"),
        pytest.param("a-file/game.json", id="parent-is-a-file"),
        pytest.param(".", id="a-directory"),
    ],
)
def test_a_record_path_that_cannot_be_written_is_refused_before_the_first_move(tmp_path: Path, where: str) -> None:
    """The path is checked first: status 2, the reason on stderr, and no game played."""
    (tmp_path / "a-file").write_text("not a directory", encoding="utf-8")
    result = _play(["--seed", "1", "--record", where], "s\n" * 400, tmp_path)
    assert result.returncode == 2
    assert "argument --record: " in result.stderr
    assert "cannot write" in result.stderr or "is a folder" in result.stderr
    assert PROMPT not in result.stdout
    assert "Final scores" not in result.stdout


def test_a_save_that_fails_keeps_the_previous_record_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash between writing and renaming leaves the old record and no stray file."""
    path = tmp_path / "game.json"
    file = RecordFile(path)
    old = GameRecord(Ruleset.standard(), 2, 0, (), 1)
    file.save(old)
    before = path.read_bytes()

    def crash(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(RecordFileError, match="No space left on device"):
        file.save(GameRecord(Ruleset.standard(), 2, 0, (), 2))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_save_that_fails_during_the_game_is_reported_on_stderr_with_status_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The game goes on when the directory disappears; the error goes to stderr; status 3."""
    directory = tmp_path / "records"
    directory.mkdir()
    path = directory / "game.json"

    answers = io.StringIO("s\n" * 400)

    class _Input:
        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            # At the first prompt the record's directory is taken away, so every later save fails.
            if path.exists():
                path.unlink()
                directory.rmdir()
            return answers.readline()

    monkeypatch.setattr("sys.stdin", _Input())
    assert main(["play", "--seed", "2", "--record", str(path)]) == 3
    captured = capsys.readouterr()
    assert "Final scores" in captured.out
    assert captured.err.count("cannot save the record") == 1
    assert "cannot save the record" not in captured.out


@pytest.mark.slow
def test_a_game_killed_with_sigkill_keeps_every_move_before_the_one_in_progress(tmp_path: Path) -> None:
    """A kill -9 at a prompt: the record on disk replays to the very state that prompt asked about."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", "play", "--seed", "7", "--players", "3", "--record", "game.json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        output = b""
        prompts = 0
        deadline = time.monotonic() + 60
        while prompts < 4:
            assert time.monotonic() < deadline, output.decode()
            ready, _, _ = select.select([process.stdout], [], [], 1.0)
            if not ready:
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            assert chunk, output.decode()
            output += chunk
            if output.count(PROMPT.encode()) > prompts:
                prompts = output.count(PROMPT.encode())
                if prompts < 4:
                    process.stdin.write(b"s\n")  # stop at once: bots then play their turns
                    process.stdin.flush()
        # The game waits at its fourth prompt: kill it without warning.
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
        process.stdout.close()
        assert process.stderr is not None
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    record = load_record((tmp_path / "game.json").read_text(encoding="utf-8"))
    state = record.final_state()
    # Every move up to the prompt is there: three stops of ours, and it is our turn to decide again.
    assert sum(1 for action in record.actions if isinstance(action, Stop)) >= 3
    assert state.seat == 0
    assert state.phase is Phase.DECIDE
    assert len(state.stacks[0]) >= 3


# --- 11. errors on stderr, exit codes documented and tested ------------------------------------------------


def test_every_play_exit_status_is_documented_in_the_cli_reference(tmp_path: Path) -> None:
    """The reference page and the play module name each status play returns."""
    reference = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    for status, words in [
        ("0", "finished"),
        ("1", "input ends"),
        ("2", "cannot be written"),
        ("3", "could not be saved"),
        ("130", "Ctrl-C"),
    ]:
        line = next((line for line in reference.splitlines() if line.startswith(f"| {status} ")), "")
        assert words in line, f"status {status} is not documented with {words!r}"


def test_a_bad_option_exits_2_with_the_error_on_stderr(tmp_path: Path) -> None:
    """A usage error says why on stderr, with status 2, and plays nothing."""
    result = _play(["--players", "many"], "", tmp_path)
    assert result.returncode == 2
    assert "error: argument --players" in result.stderr
    assert result.stdout == ""


def test_a_seed_no_record_could_hold_is_refused_before_the_game(tmp_path: Path) -> None:
    """A seed beyond 2**53 - 1 would make a record that cannot be loaded, so it is refused first."""
    result = _play(["--seed", str(2**60), "--record", "game.json"], "q\n", tmp_path)
    assert result.returncode == 2
    assert "too large" in result.stderr
    assert not (tmp_path / "game.json").exists()
    with pytest.raises(ValueError, match="seed"):
        dump_record(GameRecord(Ruleset.standard(), 2, 0, (), 2**60))


def test_a_game_whose_input_ends_exits_1_and_keeps_its_record(tmp_path: Path) -> None:
    """Status 1 when the input ends early; the record holds the game so far."""
    result = _play(["--seed", "3", "--record", "game.json"], "d\n", tmp_path)
    assert result.returncode == 1
    assert "no more input" in result.stderr
    assert "no more input" not in result.stdout
    assert load_record((tmp_path / "game.json").read_text(encoding="utf-8")).final_state().phase is not Phase.OVER
