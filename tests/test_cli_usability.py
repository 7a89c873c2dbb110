"""The command line as a new user meets it, in real processes: in a pipe, and at a terminal (a pseudo-terminal).

--version, unknown commands and options, the same options for play and watch, names and bot kinds in
records, recorded random seeds, the score sheet (names, legend, colours), pacing, and install hints.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from cheekymonkey import Phase, __version__
from cheekymonkey.cheeky.documents import load_record
from cheekymonkey.cli.play import PROMPT
from cheekymonkey.cli.replay import STEP_PROMPT

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _env(columns: int = 160) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    env.update(TERM="xterm-256color", COLUMNS=str(columns), LINES="50")
    return env


def run(args: list[str], stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m cheekymonkey ARGS`` in a pipe: standard input and output are not terminals."""
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(),
        timeout=120,
        check=False,
    )


def run_at_terminal(
    args: list[str], answers: str = "", cwd: Path = ROOT, columns: int = 160, *, echo: bool = True
) -> tuple[int, str]:
    """``python -m cheekymonkey ARGS`` with a pseudo-terminal for standard input and output, as a person runs it.

    The answers are typed one line at a time, each when the command waits at a prompt (its output stops with no
    line end after ": ", ". " or "? "), as a person types: ``play`` discards what was typed before its prompt.
    ``play``'s pauses ("Press Enter ...") are answered with Enter and its "Quit the game?" with y, as a person
    who reads the screen and means the q; neither takes an answer from ``answers``. A prompt met after the
    last answer gets the end of input (Ctrl-D). Without ``echo`` the terminal does not echo the answers.
    """
    leader, follower = pty.openpty()
    if not echo:
        attributes = termios.tcgetattr(follower)
        attributes[3] &= ~termios.ECHO
        termios.tcsetattr(follower, termios.TCSANOW, attributes)
    process = subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=cwd,
        env=_env(columns),
        close_fds=True,
    )
    os.close(follower)
    pending = answers.splitlines(keepends=True)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
        tail = ANSI.sub("", b"".join(chunks[-4:]).decode("utf-8", "replace")).replace("\r", "")
        if tail.endswith(("Press Enter to begin. ", ". ")) and re.search(r"Press Enter [^\n]*\. $", tail):
            os.write(leader, b"\n")
        elif tail.endswith("anything else to play on: "):
            os.write(leader, b"y\n")
        elif tail.endswith((": ", ". ", "? ")):
            # The next answer; with none left, the end of input (Ctrl-D), as a person who is done.
            os.write(leader, pending.pop(0).encode() if pending else b"\x04")
    os.close(leader)
    status = process.wait(timeout=30)
    return status, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def test_version_prints_the_package_version() -> None:
    """The --version option prints the version and exits 0."""
    result = run(["--version"])
    assert result.returncode == 0
    assert result.stdout.strip() == f"cheekymonkey {__version__}"
    code = "import sys; sys.modules['rich'] = None; from cheekymonkey.cli import main; sys.exit(main(['--version']))"
    bare = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env(), check=False
    )
    assert (bare.returncode, bare.stdout.strip()) == (0, f"cheekymonkey {__version__}")  # even without the cli extra


def test_an_unknown_command_is_refused_listing_the_commands() -> None:
    """A mistyped command gets the list of commands (and a guess), status 2, no game."""
    result = run(["nope"])
    assert result.returncode == 2
    assert "unknown command 'nope'; the commands are play, watch, simulate, replay, verify" in result.stderr
    assert "did you mean replay?" in run(["reply"]).stderr
    assert result.stdout == ""


def test_an_unknown_option_is_reported_by_its_command_with_the_closest_option() -> None:
    """A mistyped option names the command whose options were meant, and the one probably meant."""
    result = run(["--seed", "3", "--delya", "1"])
    assert result.returncode == 2
    assert "cheekymonkey watch: error: unrecognized arguments: --delya 1 (did you mean --delay?" in result.stderr
    assert "'cheekymonkey watch --help' lists the options" in result.stderr


def _options(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text))


def test_play_and_watch_accept_exactly_the_same_options() -> None:
    """The two default commands (terminal and pipe) take the same options, so one line works either way."""
    play = _options(run(["play", "--help"]).stdout)
    watch = _options(run(["watch", "--help"]).stdout)
    assert play == watch
    expected = {"--players", "--seed", "--variant", "--bots", "--names", "--delay", "--record", "--no-record"}
    assert expected <= play


def test_the_same_options_work_in_a_pipe_and_at_a_terminal(tmp_path: Path) -> None:
    """'--record FILE' and the rest work whether the default command is watch (pipe) or play (terminal)."""
    options = ["--seed", "5", "--players", "2", "--bots", "random", "--variant", "younger", "--delay", "0"]
    piped = run([*options, "--record", str(tmp_path / "watched.json"), "--names", "Ann,Bob"])
    assert piped.returncode == 0, piped.stderr
    watched = load_record((tmp_path / "watched.json").read_text(encoding="utf-8"))
    assert (watched.names, watched.bots, watched.seed) == (("Ann", "Bob"), ("random", "random"), 5)
    status, out = run_at_terminal([*options, "--record", str(tmp_path / "played.json"), "--names", "Cy"], "s\n" * 300)
    assert status == 0, out
    assert "Cy (you) against Random 1" in out
    played = load_record((tmp_path / "played.json").read_text(encoding="utf-8"))
    assert (played.names, played.bots, played.seed) == (("Cy", "Random 1"), ("human", "random"), 5)
    assert played.final_state().phase is Phase.OVER


def test_replay_shows_the_names_and_bot_kinds_the_record_keeps(tmp_path: Path) -> None:
    """A record keeps names and kinds; replay introduces the players and narrates with their names."""
    path = tmp_path / "game.json"
    watched = run(
        [
            "watch",
            "--seed",
            "8",
            "--players",
            "2",
            "--bots",
            "heuristic,random",
            "--names",
            "Ann,Bob",
            "--record",
            str(path),
        ]
    )
    assert watched.returncode == 0, watched.stderr
    result = run(["replay", str(path)])
    assert result.returncode == 0, result.stderr
    assert "Players: Ann (heuristic), Bob (random)." in result.stdout
    assert "-- Turn 1: Ann --" in result.stdout
    assert "Bob draws a" in result.stdout or "Bob draws an" in result.stdout
    renamed = run(["replay", str(path), "--names", "Xi"])
    assert "Players: Xi (heuristic), Bob (random)." in renamed.stdout


def test_names_that_do_not_fit_the_seats_are_refused() -> None:
    """More names than seats, or the same name twice, is refused with status 2 before any game."""
    too_many = run(["watch", "--players", "2", "--names", "A,B,C"])
    assert too_many.returncode == 2
    assert "3 names for 2 seats" in too_many.stderr  # an error, so on stderr
    twice = run(["play", "--players", "2", "--names", "Ann,ANN ", "--no-record"], "s\n")
    assert twice.returncode == 2
    assert "look alike" in twice.stderr
    you = run(["watch", "--players", "2", "--names", "Ann,you"])
    assert you.returncode == 2
    assert "'you' cannot be a seat's name" in you.stderr
    assert run(["watch", "--names", "A,,B"]).returncode == 2


def test_a_game_without_a_seed_records_the_seed_it_used_and_replays_with_it(tmp_path: Path) -> None:
    """Without --seed a random seed is chosen, shown and recorded; --seed with it plays the same game."""
    first = run(["watch", "--players", "2", "--record", str(tmp_path / "a.json")])
    record = load_record((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert record.seed is not None
    assert f"seed {record.seed}, chosen at random" in first.stdout
    again = run(["watch", "--players", "2", "--seed", str(record.seed), "--record", str(tmp_path / "b.json")])
    assert again.returncode == 0
    assert load_record((tmp_path / "b.json").read_text(encoding="utf-8")).actions == record.actions


ANIMAL_NAMES = ("Elephant", "Seal", "Hippo", "Giraffe", "Panda", "Kangaroo", "Lion", "Monkey")


def test_the_score_sheet_has_full_names_where_they_fit_and_a_legend_for_the_star() -> None:
    """Full animal names as headings at a wide terminal, the star explained; no colour codes in a pipe."""
    status, out = run_at_terminal(["watch", "--seed", "3", "--players", "2", "--delay", "0"])
    assert status == 0
    sheet = ANSI.sub("", out[out.index("Final scores") :])
    for name in (*ANIMAL_NAMES, "bonus"):
        assert name in sheet
    assert "*" in sheet
    assert "* took the bonus tile: the most of that animal (rule R16, Bonus tiles)" in sheet
    result = run(["watch", "--seed", "3", "--players", "2"])
    assert result.returncode == 0
    assert "* took the bonus tile: the most of that animal (rule R16, Bonus tiles)" in result.stdout
    assert "\x1b[" not in result.stdout


@pytest.mark.parametrize("players", [2, 6])
def test_the_score_sheet_fits_80_columns_with_abbreviations_chosen_not_cut(players: int) -> None:
    """In a pipe (80 columns) the sheet is at most 80 wide: the animals are Ele, Sea, ..., never cut short."""
    names = ",".join(f"Expectimax {seat}" for seat in range(players))
    result = run(["watch", "--seed", "3", "--players", str(players), "--bots", "heuristic", "--names", names])
    assert result.returncode == 0
    sheet = result.stdout[result.stdout.index("Final scores") :]
    assert max(len(line) for line in sheet.splitlines()) <= 80
    header = next(line for line in sheet.splitlines() if "tokens" in line)
    assert header.split() == ["player", *(name[:3] for name in ANIMAL_NAMES), "tokens", "bonus", "total"]
    assert "\u2026" not in sheet
    for seat in range(players):
        assert f"Expectimax {seat}" in sheet


def test_at_an_80_column_terminal_no_line_of_a_whole_game_is_wider() -> None:
    """At a terminal 80 columns wide, every line of a 6-seat game, prompts and score sheet included, fits."""
    names = "Ann," + ",".join(f"Expectimax {seat}" for seat in range(1, 6))
    args = ["play", "--players", "6", "--seed", "5", "--names", names, "--delay", "0", "--no-record"]
    status, out = run_at_terminal(args, "s\n" * 400, columns=80)
    assert status == 0, out
    # The answers were typed ahead, so the terminal echoed them early: a prompt's line goes on with the next
    # line of output, where a person's Enter would have ended it.
    text = ANSI.sub("", out).replace(PROMPT, PROMPT.rstrip() + "\n")
    assert "Final scores" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_variant_without_bonus_tiles_has_no_bonus_column_star_or_legend() -> None:
    """R19: the younger-players sheet shows the animals and the total only."""
    result = run(["watch", "--seed", "3", "--variant", "younger"])
    sheet = result.stdout[result.stdout.index("Final scores") :]
    assert "bonus" not in sheet
    assert "*" not in sheet
    assert "total" in sheet


def test_at_a_terminal_each_animal_has_its_colour() -> None:
    """At a terminal the sheet's animal columns are coloured, each animal in its own colour."""
    status, out = run_at_terminal(["watch", "--seed", "3", "--players", "2", "--delay", "0"])
    assert status == 0, out
    sheet = out[out.index("Final scores") :]
    colours = {}
    for name in ("Elephant", "Seal", "Hippo", "Giraffe", "Panda", "Kangaroo", "Lion", "Monkey"):
        found = re.search(r"(\x1b\[[0-9;]*m)" + name, sheet)
        assert found is not None, f"{name} is not coloured"
        colours[name] = found.group(1)
    assert len(set(colours.values())) == 8


def _bot_moves(path: Path) -> int:
    document = json.loads(path.read_text(encoding="utf-8"))
    return sum(1 for action in document["actions"] if action["type"] != "reveal")


def _paced_moves(path: Path) -> int:
    # The bot moves a terminal waits before: every decision but the tokens put down one at a time after a stop,
    # which are parts of one move (the stop) and follow it without a pause.
    document = json.loads(path.read_text(encoding="utf-8"))
    return sum(1 for action in document["actions"] if action["type"] not in {"reveal", "place"})


def test_at_a_terminal_bots_moves_are_paced_by_delay(tmp_path: Path) -> None:
    """At a terminal every bot move (not each token of a stack) waits --delay seconds: the game takes at least that."""
    path = tmp_path / "paced.json"
    args = ["watch", "--seed", "2", "--players", "2", "--variant", "little-children", "--record", str(path)]
    started = time.monotonic()
    status, out = run_at_terminal([*args, "--delay", "0.02"])
    elapsed = time.monotonic() - started
    assert status == 0, out
    paced = _paced_moves(path)
    assert paced >= 20
    assert elapsed >= 0.02 * paced


def test_in_a_pipe_there_is_no_delay(tmp_path: Path) -> None:
    """In a pipe the bots do not wait, even with the longest --delay."""
    path = tmp_path / "unpaced.json"
    started = time.monotonic()
    result = run(["watch", "--seed", "2", "--players", "2", "--delay", "10", "--record", str(path)])
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    moves = _bot_moves(path)
    # Paced, the game would take 10 s per bot move; unpaced it takes about a second, even on a busy machine.
    assert moves >= 20
    assert elapsed < 10 * moves / 4


def test_play_at_a_terminal_is_the_default_and_says_you() -> None:
    """At a terminal the default command is play, against bots, with the table drawn for you."""
    status, out = run_at_terminal(["--seed", "4", "--players", "2", "--no-record", "--delay", "0"], "q\n")
    assert status == 0, out
    assert "you against Heuristic 1." in out
    assert "Seed 4: --seed 4 deals this game again." in out  # a quit game is over: its seed is shown
    assert "In front of you:" in out
    assert "You quit the game." in out


def test_verify_without_z3_says_which_extra_to_install_from_an_index_or_a_clone() -> None:
    """With z3 missing, verify exits 2 and names the verify extra, with a command that works in a clone."""
    code = "import sys; sys.modules['z3'] = None; from cheekymonkey.cli import main; raise SystemExit(main(['verify']))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=60, check=False
    )
    assert result.returncode == 2
    assert "needs z3, from the verify extra" in result.stderr
    assert "pip install 'cheekymonkey[verify]'" in result.stderr
    assert "in a clone of the repository: pip install '.[verify]'" in result.stderr


def test_the_help_says_which_extra_each_command_needs() -> None:
    """--help names the cli extra for every command and the verify extra for verify, both ways to install."""
    out = run(["--help"]).stdout
    assert "Every command needs the cli extra; verify also needs the verify extra (z3)" in out
    assert "pip install '.[cli,verify]'" in out


@pytest.mark.parametrize("command", ["play", "watch"])
def test_a_bad_delay_is_refused(command: str) -> None:
    """--delay takes 0 to 10 seconds; anything else is refused by the option itself."""
    result = run([command, "--delay", "-1"])
    assert result.returncode == 2
    assert "give 0 to 10" in result.stderr


def test_replay_steps_turn_by_turn_at_a_terminal_and_prints_whole_in_a_pipe(tmp_path: Path) -> None:
    """As the README says, replay steps through a game at a terminal; a pipe, or --no-step, gets it whole."""
    path = tmp_path / "game.json"
    assert run(["watch", "--players", "2", "--seed", "6", "--record", str(path)]).returncode == 0
    status, out = run_at_terminal(["replay", str(path)], "\nq\n")
    assert status == 0
    text = ANSI.sub("", out)
    assert text.count(STEP_PROMPT) == 2
    assert "-- Turn 2:" in text
    assert "-- Turn 3:" not in text
    assert text.rstrip().endswith("Stopped.")
    piped = run(["replay", str(path)])
    assert STEP_PROMPT not in piped.stdout
    assert "Final scores" in piped.stdout
    status, whole = run_at_terminal(["replay", str(path), "--no-step"])
    assert status == 0
    assert STEP_PROMPT not in whole
    assert "Final scores" in whole
