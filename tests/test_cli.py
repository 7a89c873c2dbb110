"""The command line end to end: play from standard input, watch, simulate, replay, and the default command."""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cheekymonkey import (
    Animal,
    Draw,
    Phase,
    RandomBot,
    Reveal,
    play_game,
)
from cheekymonkey.cheeky.documents import dump_record, load_record
from cheekymonkey.cheeky.events import Drew, Swapped
from cheekymonkey.cheeky.narration import describe_event
from cheekymonkey.cli import default_command, main
from cheekymonkey.simulation import simulate, wilson_interval

ROOT = Path(__file__).resolve().parent.parent


class _Terminal(io.StringIO):
    """Standard input that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


def _feed(monkeypatch: pytest.MonkeyPatch, text: str, *, terminal: bool = False) -> None:
    monkeypatch.setattr("sys.stdin", _Terminal(text) if terminal else io.StringIO(text))


def test_a_whole_game_is_played_from_standard_input_and_its_record_replays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Answers cycling through every kind of move finish a game; the saved record replays to the same end."""
    answers = itertools.cycle(["c", "w", "d", "s", "e", "s", "h", "g", "p", "k", "l", "m", "zzz"])
    _feed(monkeypatch, "\n".join(next(answers) for _ in range(20_000)) + "\n")
    record_path = tmp_path / "game.json"
    # Seed 75 is one where these answers claim, swap and bust at least once each (the heuristic opponent
    # weighs swaps by tile value, so the seed changed when R2 was corrected).
    status = main(
        ["play", "--players", "3", "--seed", "75", "--bots", "heuristic,random", "--record", str(record_path)]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "You draw a" in out
    assert "You claim a" in out
    assert "You swap the monkey for" in out
    assert "bust!" in out
    assert "You stop with" in out
    assert "'zzz': that is not a move. Type ? for help." in out
    assert "Drawing again busts with probability" in out
    assert "Final scores" in out
    assert f"Record saved to {record_path}" in out
    record = load_record(record_path.read_text(encoding="utf-8"))
    assert record.players == 3
    assert record.seed == 75
    assert record.final_state().phase is Phase.OVER


def test_help_table_and_quit_work_and_quitting_still_saves_the_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """'?' prints the help, 'v' the table again, 'q' quits with status 0 and the record of the game so far."""
    _feed(monkeypatch, "?\nv\nq\n")
    record_path = tmp_path / "quit.json"
    assert main(["play", "--seed", "1", "--record", str(record_path)]) == 0
    out = capsys.readouterr().out
    assert "While deciding:" in out
    assert out.count("Bag: 51 tokens") == 2
    assert "You quit the game." in out
    record = load_record(record_path.read_text(encoding="utf-8"))
    assert len(record.actions) == 1  # the compulsory first draw
    assert isinstance(record.actions[0], Reveal)


def test_play_ends_cleanly_with_status_1_when_input_runs_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the end of standard input the game says so, saves what was played, and exits with status 1."""
    _feed(monkeypatch, "d\n")
    record_path = tmp_path / "eof.json"
    assert main(["play", "--players", "2", "--seed", "3", "--record", str(record_path)]) == 1
    assert "no more input: the game is left unfinished." in capsys.readouterr().err
    record = load_record(record_path.read_text(encoding="utf-8"))
    assert isinstance(record.actions[1], Draw)
    assert record.final_state().phase is not Phase.OVER


def test_play_without_a_record(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--no-record plays a whole game (always stopping) and writes nothing."""
    _feed(monkeypatch, "s\n" * 400)
    assert main(["play", "--no-record", "--seed", "2", "--variant", "little-children"]) == 0
    out = capsys.readouterr().out
    assert "Final scores" in out
    assert "Record saved" not in out


def test_watch_narrates_a_whole_game_between_the_chosen_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Watch prints every move and the score sheet, with the bots named by kind."""
    assert main(["watch", "--seed", "3", "--players", "4", "--bots", "heuristic,expectimax"]) == 0
    out = capsys.readouterr().out
    assert "Cheeky Monkey, standard rules, 4 players, seed 3: Heuristic 0 (heuristic), Expectimax 1 (expectimax)" in out
    assert "Expectimax 1 draws a" in out
    assert "Final scores" in out
    assert "Winner" in out or "Shared win" in out


def test_without_a_command_a_pipe_gets_watch_and_a_terminal_gets_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The default command is play at a terminal and watch otherwise; options pass to it."""
    _feed(monkeypatch, "")
    assert default_command() == "watch"
    assert main(["--seed", "4"]) == 0
    assert "Cheeky Monkey, standard rules, 3 players, seed 4: " in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    _feed(monkeypatch, "s\n" * 400, terminal=True)
    assert default_command() == "play"
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "you against Heuristic 1, Heuristic 2" in out
    saved = list(tmp_path.glob("cheekymonkey-*.json"))
    assert len(saved) == 1
    assert load_record(saved[0].read_text(encoding="utf-8")).final_state().phase is Phase.OVER


def test_help_explains_the_default_command(capsys: pytest.CaptureFixture[str]) -> None:
    """--help lists the commands and says what runs without one."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("play", "watch", "simulate", "replay"):
        assert command in out
    assert "'play' when standard input is a terminal" in out


def test_simulate_prints_win_rates_with_intervals_using_worker_processes(capsys: pytest.CaptureFixture[str]) -> None:
    """Simulate with 2 processes plays 20 games and prints wins, rates, intervals, scores and game lengths."""
    assert main(["simulate", "--games", "20", "--workers", "2", "--bots", "expectimax,random"]) == 0
    out = capsys.readouterr().out
    assert "20 games of expectimax, random" in out
    assert "95% interval" in out
    assert "Mean game length:" in out
    assert "expectimax" in out
    assert "random" in out


def test_simulation_results_do_not_depend_on_the_number_of_workers() -> None:
    """The same seeds give the same summary in one process or two; wins add up to the games played."""
    one = simulate(["heuristic", "random", "heuristic"], games=12, seed=40, workers=1)
    two = simulate(["heuristic", "random", "heuristic"], games=12, seed=40, workers=2)
    assert one == two
    assert sum(line.wins for line in one.bots) == pytest.approx(12)
    assert [line.name for line in one.bots] == ["heuristic 0", "random", "heuristic 2"]
    for line in one.bots:
        assert line.low <= line.win_rate <= line.high


def test_the_wilson_interval_is_inside_0_and_1_and_narrows_with_more_games() -> None:
    """Wilson: 0 of 20 starts at 0, 20 of 20 ends at 1, and 500 of 1000 is narrower than 5 of 10."""
    assert wilson_interval(0, 20)[0] == 0.0
    assert wilson_interval(20, 20)[1] == pytest.approx(1.0)
    wide = wilson_interval(5, 10)
    narrow = wilson_interval(500, 1000)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wide[0] < 0.5 < wide[1]


def test_simulate_refuses_a_table_the_rules_cannot_seat(capsys: pytest.CaptureFixture[str]) -> None:
    """Seven bots cannot sit at a 2-6 player game: simulate says so and exits with status 2."""
    assert main(["simulate", "--games", "1", "--bots", "random,random,random,random,random,random,random"]) == 2
    assert "7 bots" in capsys.readouterr().err


def _saved_record(tmp_path: Path, seed: int = 6) -> Path:
    path = tmp_path / "record.json"
    path.write_text(dump_record(play_game([RandomBot(), RandomBot()], seed=seed).record), encoding="utf-8")
    return path


def test_replay_narrates_a_saved_record_to_the_score_sheet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Replay narrates each turn and ends with the same score sheet; --step waits for Enter and q stops."""
    path = _saved_record(tmp_path)
    _feed(monkeypatch, "")
    assert main(["replay", str(path), "--names", "Ann,Bob"]) == 0
    out = capsys.readouterr().out
    assert "-- Turn 1: Ann --" in out
    assert "Bob draws a" in out
    assert "Final scores" in out
    _feed(monkeypatch, "\n\nq\n")
    assert main(["replay", str(path), "--step"]) == 0
    stepped = capsys.readouterr().out
    assert "-- Turn 3: Random 0 --" in stepped  # play_game records its seats' names
    assert "-- Turn 4:" not in stepped
    assert stepped.rstrip().endswith("Stopped.")


def test_replay_refuses_a_tampered_or_missing_record_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A record with an illegal step is refused naming the step; a missing file is refused too."""
    path = _saved_record(tmp_path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["actions"][4] = {"type": "claim", "seat": 1}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "$.actions[4]" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nothing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_narration_speaks_to_you_in_the_second_person() -> None:
    """Events of the viewer's seat read 'You draw', and a swap with the viewer reads 'your'."""
    names = ["Ann", "Bot 1"]
    assert describe_event(Drew(0, Animal.SEAL), names, viewer=0) == "You draw a Seal."
    assert describe_event(Swapped(1, 0, Animal.LION), names, viewer=0) == "Bot 1 swaps the monkey for your Lion."


def _run(args: list[str], stdin: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def test_python_dash_m_cheekymonkey_with_no_input_shows_a_whole_game_and_exits_0() -> None:
    """The README's command, in a real process with no terminal: a narrated game to the score sheet, status 0."""
    result = _run([], None)
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout
    assert result.stderr == ""


def test_python_dash_m_cheekymonkey_play_reads_answers_from_a_pipe() -> None:
    """A real process playing from piped answers finishes the game with status 0."""
    result = _run(["play", "--no-record", "--players", "2", "--seed", "9"], "s\n" * 400)
    assert result.returncode == 0, result.stderr
    assert "You stop with" in result.stdout
    assert "Final scores" in result.stdout


def test_the_command_without_its_extra_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without rich installed, the command exits with status 2 and names the cli extra instead of a traceback."""
    for name in [m for m in sys.modules if m.startswith("cheekymonkey.cli.") or m == "rich" or m.startswith("rich.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)
    assert main(["watch"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'cheekymonkey[cli]'" in err
    assert "in a clone of the repository: pip install '.[cli]'" in err


class _Interrupted:
    """Standard input on which the player presses Ctrl-C at the first prompt."""

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_during_play_saves_the_record_and_exits_with_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-C at a prompt ends the game without a traceback, saves the record so far, and exits with 130."""
    monkeypatch.setattr("sys.stdin", _Interrupted())
    record_path = tmp_path / "interrupted.json"
    assert main(["play", "--seed", "1", "--record", str(record_path)]) == 130
    assert "interrupted: the game is left unfinished." in capsys.readouterr().err
    assert len(load_record(record_path.read_text(encoding="utf-8")).actions) == 1
