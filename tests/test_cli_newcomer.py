"""What a new player sees at the terminal, for every game.

What the game is about, choices that fit 80 columns, refusals with the rule's reason, help that lists only
what is true, replays that jump, and quits recorded.

The prompts are checked at every decision of seeded games of every registered game, at the widest table and
with long names, through the command's own functions (:func:`cheekymonkey.cli.play.choice_lines` and
:func:`~cheekymonkey.cli.play.help_text`); the rest through the command in a real process.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from rich.console import Console

import cheekymonkey
from cheekymonkey.cli.play import LIST_MOST, PROMPT, choice_lines, help_text, refusal_text
from cheekymonkey.cli.replay import STEP_PROMPT
from cheekymonkey.cli.table_run import TableRun
from cheekymonkey.errors import ActionTextError
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.table import Seat, Table
from tests.helpers import BUILT_IN_GAMES
from tests.test_cli_usability import ANSI, run, run_at_terminal

ROOT = Path(__file__).resolve().parent.parent
LONG = "A Bot With A Name Long Enough"
MOST_SEEDS: Final = 100
"""The most seeded games played to gather a hundred decisions whose choices are listed."""


def _decisions(game: AnyGame, seed: int, players: int) -> Iterator[TableRun]:
    """A table of ``game`` with a person in seat 0 and random choices for everybody, at each of the person's turns.

    The same :class:`TableRun` is yielded at each decision, to be used before the next is asked for.
    """
    names = ["Ann", *(f"{LONG} {seat}" for seat in range(1, players))]
    bots = [Seat.bot(game, game.bot_names()[0], name) for name in names[1:]]
    table: Table[Any, Any, Any, Any, Any] = Table(game, [Seat.person(names[0]), *bots], seed=seed, events=False)
    console = Console(file=io.StringIO(), width=80, color_system=None)
    session = TableRun(console, table, names, viewer=0, delay=0, file=None, command="play")
    rng = random.Random(seed)
    for _ in range(400):
        table.advance()
        if table.finished:
            return
        yield session
        legal = table.legal_actions()
        table.play(legal[rng.randrange(len(legal))])


def _check_prompt(session: TableRun, counts: dict[str, int]) -> None:
    game, state = session.game, session.table.state
    lines = choice_lines(session)
    helped = help_text(session).splitlines()
    assert max(len(line) for line in [*lines, *helped, PROMPT]) <= 80, [*lines, *helped]
    legal = game.legal_actions(state)
    shown = " ".join(lines)
    texts = [game.action_text(action, state) for action in legal]
    if len(legal) <= LIST_MOST:
        counts["listed"] += 1
        for text, action in zip(texts, legal, strict=True):
            # One choice a line: its text, then its words (continued on the lines below if long).
            line = next(line for line in lines if line.split()[: len(text.split())] == text.split())
            assert " ".join(game.action_words(action, state, session.names).split()[:2]) in line
    else:
        counts["short"] += 1
        assert ", ".join(texts) in " ".join(shown.split())
        assert "(? lists them with what each does.)" in shown
    for text, action in zip(texts, legal, strict=True):
        words = game.action_words(action, state, session.names)
        assert any(" ".join(line.split()).startswith(f"{text} {words.split()[0]}") for line in helped)
    for note in game.choice_notes(state, session.names):
        counts["notes"] += 1
        assert " ".join(refusal_text(game, note).split()) in " ".join(shown.split())


@pytest.mark.parametrize("name", GAME_NAMES)
def test_at_every_decision_the_choices_and_the_help_fit_80_columns_one_choice_a_line_or_their_texts(name: str) -> None:
    """Every game, its widest table, long names: each choice listed (few) or its text shown (many), all ≤ 80 wide.

    Six seeded games at least, and more while fewer than a hundred decisions listed their choices (a game of
    short games, such as Leduc poker's hands, needs more of them), up to a cap.
    """
    game = game_named(name)
    low, high = game.seat_range()
    counts = {"listed": 0, "short": 0, "notes": 0}
    for seed in range(MOST_SEEDS):
        for session in _decisions(game, seed, high if seed % 2 else low):
            _check_prompt(session, counts)
        if seed >= 5 and counts["listed"] > 100:
            break
    assert counts["listed"] > 100, f"{MOST_SEEDS} games listed the choices of only {counts['listed']} decisions"


def test_many_choices_are_shown_by_their_texts_and_a_seat_left_out_is_explained() -> None:
    """Too Many Monkeys at six seats: a Do Not Disturb's many targets fit a few lines; a Skip's note names the seat."""
    game = game_named("too-many-monkeys")
    counts = {"listed": 0, "short": 0, "notes": 0}
    for seed in range(40):
        for session in _decisions(game, seed, 6):
            _check_prompt(session, counts)
        if counts["short"] and counts["notes"] > 2:
            break
    assert counts["short"] > 0, counts  # a Do Not Disturb with more than ten targets was met
    assert counts["notes"] > 2, counts  # seats left out of a Skip or a Do Not Disturb, each explained


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_begins_by_saying_what_it_is_about(name: str) -> None:
    """The first lines after the title: the game's summary, wrapped to 80 columns; then how to get help."""
    game = game_named(name)
    done = run(["play", "--game", name, "--seed", "1", "--no-record", "--bots", game.bot_names()[0]], stdin="q\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    end = lines.index("Type ? for help. You are seat 0 and go first.")
    assert " ".join(lines[1:end]) == game.summary
    assert max(len(line) for line in lines[1:end]) <= 80
    if name == "too-many-monkeys":
        assert "The first to turn up a row of one card wins the game." in game.summary


def test_the_refusals_in_the_first_trial_give_the_rule_s_reason(tmp_path: Path) -> None:
    """The new player's game: s 1 with a Skip waiting there, s 0, d with a wild in hand: each says the rule."""
    game = game_named("too-many-monkeys")
    names = ["Me", "Exp", "Rnd", "Exp2"]
    seats = [Seat.person("Me"), *(Seat.bot(game, "random", name) for name in names[1:])]
    # The first seeded game where the person holds a Skip while seat 1 has one waiting.
    table = next(table for seed in range(200) if (table := _skipping(game, seats, seed)) is not None)
    console = Console(file=io.StringIO(), width=80, color_system=None)
    session = TableRun(console, table, names, viewer=0, delay=0, file=None, command="play")
    shown = " ".join(" ".join(choice_lines(session)).split())
    assert (
        "No Skip for Exp: one is waiting for them already, and a seat holds one at a time (rule TM17, One Skip each)."
        in shown
    )
    assert "s 1" not in shown
    refusals = {}
    for text in ("s 1", "s 0", "d"):
        with pytest.raises(ActionTextError) as caught:
            table.play_text(text)
        refusals[text] = caught.value.reason
    assert refusals["s 1"].startswith("seat 1 already has a Skip waiting (TM17); the Skip can go to seat")
    assert refusals["s 0"].startswith("the Skip goes to an opponent, not to yourself (TM16)")
    assert refusals["d"] == "first choose the opponent who gets the Skip, or nobody (TM16)"
    wild = Table(game, seats, seed=7)
    while wild.state.phase.name != "WILD":
        wild.advance()
        if wild.state.phase.name != "WILD":
            wild.play(wild.legal_actions()[0])
    with pytest.raises(ActionTextError) as caught:
        wild.play_text("d")
    assert caught.value.reason.startswith("the wild in your hand must be placed first")


def _skipping(game: AnyGame, seats: list[Seat], seed: int) -> Table[Any, Any, Any, Any, Any] | None:
    """The table of a seeded game when the person first holds a Skip while seat 1 has one waiting, or None."""
    table: Table[Any, Any, Any, Any, Any] = Table(game, seats, seed=seed, events=False)
    while True:
        table.advance()
        if table.finished:
            return None
        if table.state.phase.name == "SKIP" and table.state.skips[1]:
            return table
        table.play(table.legal_actions()[-1])


def _record(tmp_path: Path, name: str, answers: str) -> Path:
    path = tmp_path / f"{name}-{len(answers)}.json"
    done = run(["play", "--game", name, "--seed", "4", "--bots", "random", "--record", str(path)], stdin=answers)
    assert done.returncode in (0, 1), done.stderr
    return path


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_game_the_player_quits_is_recorded_as_quit_and_its_replay_says_so(tmp_path: Path, name: str) -> None:
    """'q' saves the record with quit_by = 0; a record that is merely cut short says that instead."""
    game = game_named(name)
    path = _record(tmp_path, name, "q\n")
    record = game.documents().loads(path.read_text(encoding="utf-8"), "record")
    assert record.quit_by == 0
    replay = run(["replay", str(path)])
    assert replay.returncode == 0, replay.stderr
    assert "Player quit the game here; the record ends with it." in replay.stdout
    # The same record without the field, as records were written before: it loads, and was cut short.
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["quit_by"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(document), encoding="utf-8")
    assert game.documents().loads(old.read_text(encoding="utf-8"), "record").quit_by is None
    replay = run(["replay", str(old)])
    assert replay.returncode == 0, replay.stderr
    assert "The record ends before the game does: it was cut short (nobody quit)." in replay.stdout
    # Input that runs out is no quit.
    assert game.documents().loads(_record(tmp_path, name, "").read_text(encoding="utf-8"), "record").quit_by is None


def _watched(tmp_path: Path, name: str, players: int = 3) -> Path:
    path = tmp_path / f"{name}-watched.json"
    args = ["watch", "--game", name, "--seed", "2", "--players", str(players), "--bots", "random"]
    assert run([*args, "--record", str(path)]).returncode == 0
    return path


def test_replay_jumps_to_a_round_or_a_turn_with_to_and_at_the_step_prompt(tmp_path: Path) -> None:
    """--to round:N and turn:N begin there; at the prompt r N, t N (backwards too) and e jump; bad places say why."""
    path = _watched(tmp_path, "too-many-monkeys")
    whole = run(["replay", str(path), "--no-step"]).stdout
    assert "-- Round 3, turn " in whole
    at_round = run(["replay", str(path), "--to", "round:3"])
    assert at_round.returncode == 0, at_round.stderr
    lines = at_round.stdout.splitlines()
    assert lines[2].startswith("Jumped to round 3, turn ")
    assert lines[3].startswith("-- Round 3, turn ")
    assert "-- Round 2," not in at_round.stdout
    # The narration from there on is the whole replay's, word for word.
    assert "\n".join(lines[3:]) in whole
    turn = run(["replay", str(path), "--to", "turn:20"]).stdout.splitlines()
    assert turn[3].startswith("-- Round ")
    assert ", turn 20: " in turn[3]
    assert run(["replay", str(path), "--to", "end"]).stdout.splitlines()[2].startswith("Jumped to the end")
    for where, message in (("round:99", "there is no round 99: the record has rounds 1 to "), ("turn:0", "from 1")):
        refused = run(["replay", str(path), "--to", where])
        assert refused.returncode == 2
        assert message in refused.stderr
    # At the step prompt: forwards to round 3, back to turn 2, Enter for one turn, then to the end.
    status, out = run_at_terminal(["replay", str(path)], "r 3\nt 2\n\nround 9\ne\n", columns=80, echo=False)
    assert status == 0, out
    # Not echoed, an answer's Enter does not show: a prompt's line goes on with the next line of output.
    text = ANSI.sub("", out).replace(STEP_PROMPT, STEP_PROMPT.rstrip() + "\n")
    assert text.count(STEP_PROMPT.rstrip()) >= 5
    assert "Jumped to round 3, turn " in text
    assert "Jumped to round 1, turn 2 (" in text
    assert "there is no round 9: the record has rounds 1 to " in text
    assert "Jumped to the end" in text
    assert "Result" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_game_of_one_round_has_turns_to_jump_to_and_says_it_has_one_round(tmp_path: Path) -> None:
    """Cheeky Monkey is one pass through the bag: --to turn:N works, round:2 is refused, and turns have no round."""
    path = _watched(tmp_path, "cheeky-monkey")
    turn = run(["replay", str(path), "--to", "turn:5"])
    assert turn.returncode == 0, turn.stderr
    assert turn.stdout.splitlines()[3].startswith("-- Turn 5: ")
    refused = run(["replay", str(path), "--to", "round:2"])
    assert refused.returncode == 2
    assert "there is no round 2: the record has only round 1" in refused.stderr


def test_simulate_says_how_the_seats_were_played_and_how_much_is_luck() -> None:
    """Seats and their rotation under the command line; the game's note on luck under the table; counts agree."""
    done = run(["simulate", "--game", "too-many-monkeys", "--games", "4", "--bots", "random,heuristic"])
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Each game seats 2 bots, one per seat; from one game to the next every bot moves one seat on" in text
    # The page's path, not its title, where the package runs from a checkout that has the docs (an installed
    # build has no docs folder beside it, and names none).
    in_checkout = (Path(cheekymonkey.__file__).resolve().parents[1] / "docs" / "explanation").is_dir()
    assert ("The bot page: docs/explanation/bots-too-many-monkeys.md" in text) is in_checkout
    assert ("The bot page:" in text) is in_checkout
    assert "Each bot's results" in text  # the title: the count of games is on the lines above it
    assert "Too Many Monkeys is mostly luck" in text
    assert "The Too Many Monkeys bot ladder" in text
    same = run(["simulate", "--game", "too-many-monkeys", "--games", "50", "--bots", "heuristic"])
    assert same.returncode == 0, same.stderr
    said = " ".join(same.stdout.split())
    assert "all of one kind: the same bot in every seat, so the lines below differ by luck alone" in said
    assert said.count("50.0%") == 2  # this run splits exactly even, as the line says it may
    one = run(["simulate", "--games", "1", "--bots", "random"])
    assert one.stdout.startswith("1 game of random, random (Cheeky Monkey, standard rules), seed 0.")
    assert not re.search(r"(?<![/.\d])1 games", one.stdout + one.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "1", "--no-record"], "1 player: Cheeky Monkey (standard rules) takes 2 to 6"),
        (["watch", "--game", "too-many-monkeys", "--players", "1"], "1 player: Too Many Monkeys"),
        (["simulate", "--bots", "random,random,random", "--players", "2"], "3 bots: 2 seats take at most 2 bots"),
        (["watch", "--players", "2", "--names", "A,B,C"], "3 names for 2 seats"),
    ],
)
def test_counts_agree_with_their_nouns(args: list[str], message: str) -> None:
    """'1 player', never '1 players'."""
    done = run(args)
    assert done.returncode == 2
    assert message in done.stderr


def test_a_record_file_cut_short_is_said_to_be_cut_short(tmp_path: Path) -> None:
    """A record copied in part: the file is cut short, said once, and no 'at at'."""
    path = _watched(tmp_path, "too-many-monkeys")
    text = path.read_text(encoding="utf-8")
    short = tmp_path / "short.json"
    short.write_text(text[: len(text) // 2], encoding="utf-8")
    done = run(["replay", str(short)])
    assert done.returncode == 2
    assert "the file is cut short, stopping before the JSON ends" in done.stderr
    assert " at at " not in done.stderr


_NOTED: Final = sorted({*BUILT_IN_GAMES} | {name for name in GAME_NAMES if game_named(name).results_note})
"""The games with a note under simulate's table: the built-in games, and any other game that gives one."""


@pytest.mark.parametrize("name", _NOTED)
def test_each_game_s_note_on_luck_quotes_figures_of_the_bot_page_it_names(name: str) -> None:
    """The note under simulate's table names a docs page by its title, and every figure in it is on that page."""
    note = game_named(name).results_note
    match = re.search(r"\(([^()]*bot ladder)\)", note)
    assert match is not None, note
    pages = [
        path for path in (ROOT / "docs").rglob("*.md") if path.read_text(encoding="utf-8").startswith(f"# {match[1]}\n")
    ]
    assert len(pages) == 1, match[1]
    page = pages[0].read_text(encoding="utf-8").replace(",", "")
    figures = re.findall(r"\d[\d,.]*%?", note.replace(match[0], ""))
    assert len(figures) >= 2, note
    for figure in figures:
        number = figure.rstrip(".").replace(",", "")
        # A share on the page may be written with one decimal more (100% as 100.0%).
        assert number in page or number.replace("%", ".0%") in page, (figure, pages[0])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_record_cut_anywhere_is_said_to_be_cut_short_and_a_corrupt_one_is_not(tmp_path: Path, name: str) -> None:
    """Whatever the place a record's text stops (in a string, a word, between values), it is cut short."""
    from cheekymonkey.serialization import DocumentError

    documents = game_named(name).documents()
    text = _watched(tmp_path, name, players=2).read_text(encoding="utf-8")
    for end in range(1, len(text) - 2, max(1, len(text) // 300)):
        with pytest.raises(DocumentError) as cut:
            documents.loads(text[:end], "record")
        assert "the text is cut short, stopping before the JSON ends (" in cut.value.reason, (end, cut.value)
        assert " at at " not in cut.value.reason
    with pytest.raises(DocumentError) as corrupt:
        documents.loads(text.replace('"players"', '"players" "', 1), "record")
    assert corrupt.value.reason.startswith("not valid JSON (corrupt?): expecting ':' delimiter at line ")
