"""Too Many Monkeys at the command line, in real processes: a person plays it against bots, watches and replays it.

A person is played by the test itself, through the command's standard input and output: at every prompt it
reads the record the command has just saved, checks that the prompt offers exactly the legal choices in
words and that the board drawn above it is the game's, then types one of the choices.
"""

from __future__ import annotations

import os
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey.cli import play
from cheekymonkey.games import GAME_NAMES, game_named
from cheekymonkey.table import Seat, Table
from tests.test_cli_usability import ANSI, run, run_at_terminal
from tests.toomany.helpers import make

ROOT = Path(__file__).resolve().parent.parent
GAME = game_named("too-many-monkeys")
PROMPT = play.PROMPT
NAMES = ["Player", "Random 1", "Random 2"]


def _state_of(path: Path) -> Any:
    """The state the record saved at ``path`` replays to."""
    record = GAME.documents().loads(path.read_text(encoding="utf-8"), "record")
    table: Table[Any, Any, Any, Any, Any] = Table(
        GAME,
        [Seat(name, kind) for name, kind in zip(record.names, record.bots, strict=True)],
        ruleset=record.ruleset,
        seed=record.seed,
    )
    for action in record.actions:
        table.play(action)
    return table.state


def _choices(state: Any) -> str:
    """The choices the command must show above its prompt in ``state``, in words, whitespace aside.

    Up to ten legal actions, each one's text then its words; more, their texts alone, with a pointer to ``?``;
    then why a seat is left out, if one is.
    """
    legal = GAME.legal_actions(state)
    texts = [GAME.action_text(action, state) for action in legal]
    if len(legal) <= play.LIST_MOST:
        shown = [f"{text} {GAME.action_words(action, state, NAMES)}" for text, action in zip(texts, legal, strict=True)]
    else:
        shown = [f"Choose one of {', '.join(texts)}.", "(? lists them with what each does.)"]
    return " ".join(" ".join([*shown, *GAME.choice_notes(state, NAMES)]).split())


def _shown_choices(printed: str) -> str:
    """The lines above the prompt that show the choices (indented, under the board), whitespace aside."""
    lines = printed.splitlines()[:-1]
    start = len(lines)
    while start and lines[start - 1].startswith("  "):
        start -= 1
    return " ".join(" ".join(lines[start:]).split())


def _board_rows(state: Any) -> list[str]:
    """The board's rows as the person (seat 0) sees them, one line of words each."""
    table = GAME.board_table(state, NAMES, 0)
    return [" ".join(" ".join(cell.text for cell in row).split()) for row in table.rows]


class _Person:
    """The command ``play`` in a process, and a person answering its prompts through a pipe."""

    def __init__(self, tmp_path: Path, seed: int) -> None:
        self.record = tmp_path / "game.json"
        command = [sys.executable, "-m", "cheekymonkey", "play", "--game", "too-many-monkeys", "--players", "3"]
        command += ["--seed", str(seed), "--bots", "random", "--record", str(self.record)]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "160"}
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env
        )
        self.output = ""

    def read_until_prompt(self) -> str | None:
        """Everything printed up to the next prompt (None when the command ends first)."""
        assert self.process.stdout is not None
        start = len(self.output)
        deadline = time.monotonic() + 120
        while len(self.output) == start or not self.output.endswith(PROMPT):
            assert time.monotonic() < deadline, self.output[-2000:]
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if not ready:
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.output += chunk.decode("utf-8")
        return self.output[start:]

    def answer(self, text: str) -> None:
        """Type ``text`` and Enter."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{text}\n".encode())
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str, str]:
        """The exit status, the rest of standard output, and standard error."""
        out, err = self.process.communicate(timeout=120)
        self.output += out.decode("utf-8")
        return self.process.returncode, self.output, err.decode("utf-8")


def test_a_person_plays_a_whole_game_the_prompts_offer_the_legal_choices_in_words_and_each_move_is_saved(
    tmp_path: Path,
) -> None:
    """At each prompt the saved record is the game so far, the prompt lists its legal actions, the board is its."""
    person = _Person(tmp_path, seed=11)
    rng = random.Random(11)
    kinds: set[str] = set()
    shown_boards = 0
    last_actions = -1
    while (printed := person.read_until_prompt()) is not None:
        state = _state_of(person.record)
        record_length = len(GAME.documents().loads(person.record.read_text(encoding="utf-8"), "record").actions)
        assert record_length > last_actions  # saved again since the last answer
        last_actions = record_length
        assert GAME.to_move(state) == 0
        assert printed.rsplit("\n", 1)[-1] == PROMPT
        assert _shown_choices(printed) == _choices(state)
        assert max(len(line) for line in printed.splitlines()) <= 80
        if "Draw pile:" in printed:
            shown_boards += 1
            lines = [" ".join(line.split()) for line in printed.splitlines()]
            for row in _board_rows(state):
                assert row in lines, (row, printed)
        action = rng.choice(GAME.legal_actions(state))
        kinds.add(type(action).__name__)
        person.answer(GAME.action_text(action, state))
    status, output, errors = person.finish()
    assert status == 0, errors
    assert "is not a move" not in output  # every choice offered was taken as offered
    assert output.count("Type ? for help") == 1  # at the start only: no answer was refused
    assert {"Draw", "TakeDiscard", "PlaceWild", "GiveSkip"} <= kinds
    assert shown_boards > 5
    final = _state_of(person.record)
    assert GAME.is_terminal(final)
    winner = NAMES[GAME.outcome(final).winners[0]]
    assert f"Winner: {winner}, the first to turn up a row of one card" in output
    assert f"Record saved to {person.record}" in output

    replay = run(["replay", str(person.record), "--no-step"])  # the record's format names its game
    assert replay.returncode == 0, replay.stderr
    assert "Replaying a 3-player game of Too Many Monkeys, standard rules, seed 11" in replay.stdout
    assert f"Winner: {winner}, the first to turn up a row of one card" in replay.stdout


def test_the_board_shows_the_rows_by_position_what_is_known_the_piles_and_the_skips_waiting() -> None:
    """The boards seat 0 is shown at its decisions in seeded games show every part the rules make public."""
    # The command draws these very tables (the test above holds its board to them), for seat 0 as "you".
    seats = [Seat.bot(GAME, "random", name) for name in NAMES]
    texts = []
    for seed in range(40):
        table: Table[Any, Any, Any, Any, Any] = Table(GAME, seats, seed=seed, events=False)
        while not table.finished:
            table.step()
            if GAME.to_move(table.state) == 0:
                texts.append(GAME.board_table(table.state, NAMES, 0).text(width=80))
    text = "\n".join(texts)
    assert re.search(r"seat\s+player\s+1\s+2\s+3\s+4\s+5\s+6\s+Skip", text)  # the positions, numbered
    assert re.search(r"> Player \(you\)", text)
    assert re.search(r" W ", text)  # a wild face up
    assert re.search(r"\(\d\)", text)  # a card turned down by a Do Not Disturb, known to all
    assert "face down, known to all" in text
    assert "waiting" in text  # a Skip waiting
    assert re.search(r"Discard pile \(\d+ cards, top last\): ", text)
    assert re.search(r"Draw pile: \d+ cards", text)
    assert "In your hand: " in text


def test_at_a_terminal_the_game_has_its_own_help_a_coloured_board_and_q_quits_with_the_record_kept(
    tmp_path: Path,
) -> None:
    """In a pseudo-terminal: '?' shows the game's notation and the commands, the board is coloured, 'q' quits."""
    record = tmp_path / "quit.json"
    # Seed 2: the person's first decision is whom to give a Skip, where 'q' is no move.
    args = ["play", "--game", "too-many-monkeys", "--bots", "random", "--seed", "2", "--delay", "0"]
    args += ["--record", str(record)]
    status, out = run_at_terminal(args, "?\nq\n", cwd=tmp_path)
    assert status == 0, out
    assert "\x1b[" in out  # colour at a terminal
    plain = ANSI.sub("", out)
    assert "Too Many Monkeys, standard rules: you against Random 1, Random 2." in plain  # no seed before the end
    assert "With a wild in hand:" in plain
    assert "q, quit        give up the game" in plain
    assert "You quit the game." in plain
    assert GAME.documents().loads(record.read_text(encoding="utf-8"), "record").seed == 2


def test_at_an_80_column_terminal_no_line_of_a_six_seat_game_is_wider() -> None:
    """Six seats with long names at a terminal 80 columns wide: the board, prompts and narration all fit."""
    names = "Ann," + ",".join(f"A Random Bot Called {seat}" for seat in range(1, 6))
    args = ["play", "--game", "too-many-monkeys", "--bots", "random", "--players", "6", "--seed", "5", "--names", names]
    # Answers that cycle through every kind of move finish the game; the ones that do not fit are refused.
    status, out = run_at_terminal(
        [*args, "--delay", "0", "--no-record"], "d\nb\n1\n2\n3\n4\n5\n6\nn\n" * 400, columns=80, echo=False
    )
    assert status == 0, out[-2000:]
    # Not echoed, a typed answer's Enter does not show: a prompt's line goes on with the next line of output.
    text = ANSI.sub("", out).replace(PROMPT, PROMPT.rstrip() + "\n")
    assert "Winner: " in text
    assert "A Random Bot Called 5" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_watch_narrates_a_game_of_bots_and_its_record_replays_to_the_same_narration(tmp_path: Path) -> None:
    """Every line watch narrates comes again, in order, when its record is replayed without naming the game."""
    record = tmp_path / "watched.json"
    watched = run(["watch", "--game", "too-many-monkeys", "--bots", "random", "--seed", "4", "--record", str(record)])
    assert watched.returncode == 0, watched.stderr
    assert watched.stdout.startswith("Too Many Monkeys, standard rules, 3 players, seed 4: Random 0 (random)")
    assert "and wins the game!" in watched.stdout
    replayed = run(["replay", str(record), "--no-step"])
    assert replayed.returncode == 0, replayed.stderr
    saved = ("Record saved", "Replay it with:", "  cheekymonkey replay ")
    narration = [line for line in watched.stdout.splitlines()[1:] if line and not line.startswith(saved)]
    assert len(narration) > 20
    replay_lines = iter(replayed.stdout.splitlines())
    for line in narration:
        assert any(line == other for other in replay_lines), line


@pytest.mark.parametrize("command", ["play", "watch"])
def test_without_bots_named_each_game_gets_its_default_or_its_first_bot(command: str) -> None:
    """Seats get heuristic bots where the game has them (Cheeky Monkey's old default), else the game's first bot."""
    for name in GAME_NAMES:
        game = game_named(name)
        kind = "heuristic" if "heuristic" in game.bot_names() else game.bot_names()[0]
        done = run([command, "--game", name, "--seed", "1", "--no-record"], stdin="q\n" if command == "play" else None)
        assert done.returncode == 0, done.stderr
        assert f"{game.bot_title(kind)} 1" in done.stdout.splitlines()[0]
    assert "Heuristic 1" in run(["watch", "--seed", "1", "--no-record"]).stdout.splitlines()[0]


def test_the_tutorial_s_terminal_game_is_what_the_command_shows() -> None:
    """The board and prompt in the tutorial's "Play it at the terminal" are the command's, line for line."""
    tutorial = (ROOT / "docs" / "too-many-monkeys.md").read_text(encoding="utf-8")
    section = tutorial[tutorial.index("## Play it at the terminal") :]
    shown = re.findall(r"```text\n(.*?)```", section, flags=re.DOTALL)[0].splitlines()
    command = ["play", "--game", "too-many-monkeys", "--bots", "random", "--players", "3", "--seed", "2"]
    done = run([*command, "--no-record"], stdin="q\n")
    assert done.returncode == 0, done.stderr
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    start = lines.index(shown[0])
    expected = [line.rstrip() for line in shown]
    expected[-1] += " q"  # the prompt, then the answer, echoed from a pipe
    assert lines[start : start + len(shown)] == expected


@pytest.mark.parametrize(
    ("rows", "discard", "words"),
    [
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], "3", "take the 3 from the discard pile"),
        (["? ? W ? ? ?", "? ? ? ? ? ?"], "3", "take the 3 from the discard pile (for the bonus with your wild)"),
        (["? ? ? ?", "? ? ? ? ? ?"], "6", "take the 6 from the discard pile (too high for your row: the turn ends)"),
    ],
)
def test_the_prompt_says_what_taking_the_discard_leads_to(rows: list[str], discard: str, words: str) -> None:
    """Taking the discard top is offered in words that say when it can only end the turn or meets a wild."""
    state = make(rows, discard=discard)
    take = GAME.legal_actions(state)[-1]
    assert GAME.action_text(take, state) == "t"
    assert GAME.action_words(take, state, NAMES) == words
