"""A new player's trial at a real terminal: whole games of Too Many Monkeys at 80 columns by 24 lines.

The command runs on a pseudo-terminal whose size is set to 80 by 24 (the kernel's window size, as a terminal
emulator sets it; no COLUMNS in the environment), and the test answers its prompts as a person would, one
line at a time, reading the screen before each answer. It checks what the first trial of a new player found:
the start says what wins, every line fits 80 columns, the choices come one a line (or by their texts when
there are many), the help does not offer ``q`` as a move of this game, refusals give the rule's reason, a
round won says the row shrinks, the result places every seat with the rounds won, a quit is recorded and its
replay says so, and replay jumps to a round.

The seeds are chosen so that the person meets a Skip, a wild, a raccoon and a Do Not Disturb among the games;
the test asserts that each came up.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections import Counter
from pathlib import Path

import pytest

from cheekymonkey.games import game_named
from tests.test_cli_usability import ANSI

ROOT = Path(__file__).resolve().parent.parent
GAME = game_named("too-many-monkeys")
PROMPT = re.compile(
    r"(Your move \(\? for help\): |Press Enter (to begin|for round \d+)\. |anything else to play on: )$"
)
PAUSE = re.compile(r"Press Enter (to begin|for round (\d+))\. $")


class Terminal:
    """``python -m cheekymonkey ARGS`` on a pseudo-terminal of 80 columns by 24 lines."""

    def __init__(self, args: list[str]) -> None:
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cheekymonkey", *args],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            cwd=ROOT,
            env=env,
            close_fds=True,
        )
        os.close(follower)
        self.leader = leader
        self.screen = ""  # everything shown so far, without colour codes
        self.ended = False

    def read(self, prompt: re.Pattern[str] = PROMPT) -> str:
        """What the command shows until it waits at a prompt matching ``prompt`` (or ends)."""
        start = len(self.screen)
        raw = b""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.leader], [], [], 0.5)
            if not ready:
                if self.process.poll() is not None:
                    self.ended = True
                    break
                continue
            try:
                chunk = os.read(self.leader, 65536)
            except OSError:  # the terminal closes when the process ends (EIO on Linux)
                chunk = b""
            if not chunk:
                self.ended = True
                break
            raw += chunk
            text = ANSI.sub("", raw.decode(errors="replace")).replace("\r\n", "\n")
            if prompt.search(text):
                break
        else:
            raise AssertionError(f"no prompt in 120 s: {self.screen[-500:]}")
        shown = ANSI.sub("", raw.decode(errors="replace")).replace("\r\n", "\n")
        self.screen += shown
        return self.screen[start:]

    def type(self, line: str) -> str:
        """Type ``line`` and Enter; what the command shows until its next prompt."""
        os.write(self.leader, line.encode() + b"\n")
        return self.read()

    def close(self) -> int:
        """Wait for the command to end; its exit status."""
        status = self.process.wait(timeout=60)
        os.close(self.leader)
        return status


def choices(shown: str) -> list[str]:
    """The choices above the last prompt: one a line (``  w 1  put the wild ...``) or by texts alone."""
    block = shown[: shown.rfind("Your move")]
    many = re.search(r"Choose one of (.*?)\.\n", block, re.S)
    if many:
        return [" ".join(text.split()) for text in many.group(1).split(",")]
    found = []
    for line in block.splitlines():
        matched = re.match(r"^  ([a-z](?: \d+)*)  \S", line)
        if matched:
            found.append(matched.group(1))
    return found


def kind_of(texts: list[str]) -> str:
    """What the decision is about, by its choices' letters."""
    letters = {text.split()[0] for text in texts}
    for letter, kind in (("w", "wild"), ("s", "skip"), ("r", "raccoon"), ("x", "do not disturb")):
        if letter in letters:
            return kind
    return "turn"


def assert_fits(shown: str) -> None:
    """No line the command wrote is wider than the terminal (a wider one would wrap, splitting its words)."""
    # A file's path is the one thing written whole, whatever its length (the terminal wraps it, and it is still
    # one line to copy): a line is measured without its last word when that is a path.
    lines = [line.rsplit("\r", 1)[-1] for line in shown.split("\n")]
    wide = [line for line in lines if len(line.rsplit(" /", 1)[0] if " /" in line else line) > 80]
    assert wide == [], wide


def play_game(seed: int, record: Path, *, quit_after: int | None = None) -> tuple[Counter[str], str, int]:
    """A whole game, the person's answers chosen at random (seeded); the kinds of decisions met, the screen, status."""
    terminal = Terminal(
        ["play", "--game", GAME.name, "--seed", str(seed), "--players", "3", "--bots", "random,heuristic",
         "--names", "Me,Rand,Heur", "--delay", "0", "--record", str(record)]
    )  # fmt: skip
    rng = random.Random(seed)
    met: Counter[str] = Counter()
    shown = terminal.read()
    # The introduction stays on an 80x24 screen: the game waits for Enter before any move is made.
    assert PAUSE.search(shown), shown
    assert "to begin" in shown
    assert len(shown.splitlines()) <= 24, shown
    assert "wins the game" in " ".join(shown.split()), shown
    shown = terminal.type("")
    first = True
    answered = 0
    while not terminal.ended:
        paused = PAUSE.search(shown)
        if paused:
            # A round is over: the board that won it is drawn above, and the game waits for Enter.
            assert "The board that won the round:" in shown, shown[-1500:]
            assert re.search(r"wins? round \d+", shown), shown[-1500:]
            met["round end"] += 1
            shown = terminal.type("")
            continue
        assert_fits(shown)
        texts = choices(shown)
        assert texts, shown[-800:]
        kind = kind_of(texts)
        met[kind] += 1
        if first:  # the help: the game's own moves, and q only as the command's (it is not a move of this game)
            helped = terminal.type("?")
            assert_fits(helped)
            assert "q, quit" in helped
            assert "v, view, table" in helped  # one meaning per key: t is this game's take, never the table
            assert "t, table" not in helped
            assert "q alone" not in helped
            assert "t and q alone" not in helped
            first = False
        if met[kind] == 1 and kind == "wild":
            refused = terminal.type("d")
            assert "'d': the wild in your hand must be placed first" in " ".join(refused.split()), refused
            assert "(rule TM11, Wild monkey). Type ? TM11 to read the rule" in " ".join(refused.split()), refused
            rule = terminal.type("? TM11")
            assert "TM11 Wild monkey: A wild in hand is placed at once" in " ".join(rule.split()), rule
        if met[kind] == 1 and kind == "skip":
            refused = terminal.type("s 0")
            assert "not to yourself (rule TM16, Skip)" in " ".join(refused.split()), refused
        if quit_after is not None and answered == quit_after:
            asked = terminal.type("quit")
            assert "Quit the game? Type y to quit" in asked  # a q at a terminal asks first
            assert PROMPT.search(terminal.type("n"))
            assert "You quit" not in terminal.screen
            terminal.type("q")
            shown = terminal.type("y")
            break
        shown = terminal.type(rng.choice(texts))
        answered += 1
    while not terminal.ended:
        shown += terminal.read()
    status = terminal.close()
    assert_fits(terminal.screen)
    return met, terminal.screen, status


SEEDS = (2, 3, 0)  # chosen so that the person meets every kind of decision across the three games


@pytest.mark.slow
def test_a_new_player_s_three_games_at_an_80_column_terminal(tmp_path: Path) -> None:
    """Two whole games and one quit, at 80 by 24: every finding of the first trial, checked again."""
    met: Counter[str] = Counter()
    for seed in SEEDS[:2]:
        record = tmp_path / f"game-{seed}.json"
        seen, screen, status = play_game(seed, record)
        met += seen
        assert status == 0, screen[-800:]
        joined = " ".join(screen.split())
        assert "The first to turn up a row of one card wins the game." in joined  # the start says what wins
        won = re.findall(r"(You win|\w+ wins) round \d+, so (your|their|his|her|\w+'s) row is one card shorter", joined)
        assert won, "no round won"
        # The result: every seat placed, with the rounds won and the last row.
        assert re.search(r"place\s+player\s+rounds won\s+last row", screen), screen[-1200:]
        assert all(name in screen[screen.rfind("Result") :] for name in ("Me", "Rand", "Heur"))
        # The command to replay it, whole on one line (copied from the screen, it works).
        assert f"\n  cheekymonkey replay {record}\n" in screen
        # Replay jumps to a round at once.
        replay = Terminal(["replay", str(record), "--to", "round:2", "--no-step"])
        replayed = replay.read()
        while not replay.ended:
            replayed += replay.read()
        assert replay.close() == 0
        assert_fits(replayed)
        assert "Round 2" in replayed
        assert "Round 1," not in replayed
    record = tmp_path / "quit.json"
    seen, screen, status = play_game(SEEDS[2], record, quit_after=8)
    met += seen
    assert status == 0
    assert "You quit the game." in screen
    replay = Terminal(["replay", str(record), "--no-step"])
    replayed = replay.read()
    while not replay.ended:
        replayed += replay.read()
    assert replay.close() == 0
    assert "Me quit the game here; the record ends with it." in replayed
    assert "The record ends before the game does." not in replayed
    assert {"wild", "skip", "raccoon", "do not disturb", "round end"} <= set(met), met


def run_to_end(args: list[str]) -> tuple[int, str]:
    """``python -m cheekymonkey ARGS`` at the 80 by 24 terminal, with nothing typed; its status and screen."""
    terminal = Terminal(args)
    shown = terminal.read()
    while not terminal.ended:
        shown += terminal.read()
    return terminal.close(), shown


def test_the_first_trial_s_smaller_findings_at_an_80_column_terminal(tmp_path: Path) -> None:
    """The wording a new player tripped on: one player, simulate's seats and luck, a record cut short, the docs."""
    status, shown = run_to_end(["play", "--game", GAME.name, "--players", "1", "--no-record"])
    assert status == 2
    assert "1 player: Too Many Monkeys (standard rules) takes 2 to 6" in shown
    assert "1 players" not in shown
    status, shown = run_to_end(["simulate", "--game", GAME.name, "--games", "4"])
    assert status == 0, shown
    assert_fits(shown)
    said = " ".join(shown.split())
    assert "Each game seats 2 bots, one per seat" in said
    assert "each plays every seat as often as the others" in said
    assert "Too Many Monkeys is mostly luck" in said
    record = tmp_path / "cut.json"
    quitting = Terminal(["play", "--game", GAME.name, "--seed", "2", "--bots", "random", "--record", str(record)])
    quitting.read()
    quitting.type("")
    quitting.type("quit")
    quitting.type("y")
    assert quitting.close() == 0
    text = record.read_text(encoding="utf-8")
    record.write_text(text[: len(text) // 2], encoding="utf-8")
    status, shown = run_to_end(["replay", str(record), "--no-step"])
    assert status != 0
    assert "Traceback" not in shown
    assert "cut short" in shown, shown
    assert "at at" not in shown
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^description = ".*Cheeky Monkey.*Too Many Monkeys', pyproject, re.M)
    tutorial = (ROOT / "docs" / "too-many-monkeys.md").read_text(encoding="utf-8")
    boards = re.findall(r"board_table\(.*?\)\.text\(\)\)\n(.*?)\n>>>", tutorial, re.S)
    assert boards, "the tutorial shows no board"
    assert max(len(line) for board in boards for line in board.splitlines()) <= 80
    assert "## A raccoon's choice, from a seeded game" in tutorial
    assert "('r 4', 'let the raccoon take the 4')" in tutorial


REPLAY_PROMPT = re.compile(r"(e: the end; q: stop: |Enter or q: stop: )$")


def test_a_one_round_replay_offers_its_own_jumps_and_goes_back_from_the_end(tmp_path: Path) -> None:
    """Cheeky Monkey's replay at 80x24: no r N offered, errors in the prompt's syntax, e then t 2 goes back."""
    record = tmp_path / "watched.json"
    status, _ = run_to_end(["watch", "--seed", "1", "--players", "3", "--delay", "0", "--record", str(record)])
    assert status == 0
    terminal = Terminal(["replay", str(record)])
    shown = terminal.read(REPLAY_PROMPT)
    assert "r N" not in shown
    assert re.search(r"Enter: next turn; t N: turn N \(1-\d+\); e: the end; q: stop: $", shown), shown[-300:]
    os.write(terminal.leader, b"r 3\n")
    refused = " ".join(terminal.read(REPLAY_PROMPT).split())
    assert "'r 3': this game has one round: t N jumps to turn N" in refused
    os.write(terminal.leader, b"zz\n")
    refused = " ".join(terminal.read(REPLAY_PROMPT).split())
    assert "'zz' is not a place in the game: type t N or e." in refused
    assert "round:N" not in refused
    os.write(terminal.leader, b"e\n")
    ended = terminal.read(REPLAY_PROMPT)
    assert "Final scores" in ended
    assert ended.endswith("End of the record. t N: go back; Enter or q: stop: ")
    os.write(terminal.leader, b"t 2\n")
    back = terminal.read(REPLAY_PROMPT)
    assert "Jumped to turn 2" in back
    assert "-- Turn 2:" in back
    os.write(terminal.leader, b"\n")
    terminal.read(REPLAY_PROMPT)
    os.write(terminal.leader, b"q\n")
    while not terminal.ended:
        terminal.read(REPLAY_PROMPT)
    assert terminal.close() == 0
    # The board's player column keeps its width from one board to the next.
    headers = [line for line in terminal.screen.splitlines() if line.startswith("seat  player")]
    assert len(headers) >= 3
    assert len({line.index("stack") for line in headers}) == 1, headers
