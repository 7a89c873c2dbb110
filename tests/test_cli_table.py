"""The command line drives a Table through the Game protocol: any game, each action applied once, one loop.

A second game is stood in for by :data:`COUNTING`, Cheeky Monkey under another name that counts how often
it is asked to apply an action: the commands must play it with no special case, and apply every action
exactly once.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import io
import pkgutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cheekymonkey import ANIMALS, CHEEKY_MONKEY, Animal, Reveal, Stop, apply_all, new_game, play_game
from cheekymonkey.cheeky.bots import bot_named
from cheekymonkey.cheeky.documents import load_record
from cheekymonkey.cli import main
from cheekymonkey.cli.narrate import draw
from cheekymonkey.game import Game
from cheekymonkey.text_table import TextTable


class _Counting:
    """Cheeky Monkey under another name, counting the calls the command line makes (a stand-in second game)."""

    private_information = CHEEKY_MONKEY.private_information
    """A class attribute of the protocol, not a method: read as it is (a counted method would read as True)."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()

    @property
    def name(self) -> str:
        return "counting-monkey"

    @property
    def title(self) -> str:
        return "Counting Monkey"

    @property
    def summary(self) -> str:
        self.calls["summary"] += 1
        return CHEEKY_MONKEY.summary

    @property
    def results_note(self) -> str:
        self.calls["results_note"] += 1
        return CHEEKY_MONKEY.results_note

    def __getattr__(self, attribute: str) -> Any:
        method = getattr(CHEEKY_MONKEY, attribute)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[attribute] += 1
            return method(*args, **kwargs)

        return counted


COUNTING = _Counting()


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    """The stand-in game, registered as ``--game counting-monkey`` for one test."""
    from cheekymonkey import games

    # Every command's module is imported before the registry changes: one imported first while it is changed
    # would copy the names, and keep them after the test (another test may have imported them afresh).
    for module in pkgutil.iter_modules(importlib.import_module("cheekymonkey.cli").__path__):
        importlib.import_module(f"cheekymonkey.cli.{module.name}")
    # Registered as a plug-in is: an entry point beside the installed ones.
    entry = importlib.metadata.EntryPoint("counting-monkey", f"{__name__}:COUNTING", games.ENTRY_POINT_GROUP)
    registry = games.Registry([*importlib.metadata.entry_points(group=games.ENTRY_POINT_GROUP), entry])
    monkeypatch.setattr(games, "_REGISTRY", [registry])
    # The modules whose names the commands that take --game counting-monkey read.
    for name in ("cheekymonkey.cli.options", "cheekymonkey.cli.replay"):
        monkeypatch.setattr(importlib.import_module(name), "GAME_NAMES", registry.names)
    COUNTING.calls.clear()
    return COUNTING


def test_the_stand_in_game_is_a_game() -> None:
    """The stand-in offers the whole protocol (so the commands below could use nothing else)."""
    game: Any = COUNTING
    assert isinstance(game, Game)


def test_watch_applies_each_action_once_and_plays_the_game_play_game_plays(
    counting: _Counting, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Watch narrates each step once, applying it once; it gets play_game's actions and final state."""
    path = tmp_path / "watched.json"
    assert main(["watch", "--game", "counting-monkey", "--seed", "8", "--players", "3", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Counting Monkey, standard rules, 3 players, seed 8: ")
    record = load_record(path.read_text(encoding="utf-8"))
    assert counting.calls["apply_with_events"] == len(record.actions)
    assert counting.calls["apply"] == 0
    assert counting.calls["event_text"] >= len(record.actions) // 2
    assert counting.calls["result_table"] == 1
    played = play_game([bot_named("heuristic") for _ in range(3)], seed=8)
    assert record.actions == played.record.actions
    assert record.final_state() == played.state
    assert record.names == ("Heuristic 0", "Heuristic 1", "Heuristic 2")
    assert record.bots == ("heuristic",) * 3


def test_play_asks_the_game_for_its_board_words_and_help(
    counting: _Counting, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Play shows the game's board, its actions in words and its help, and plays answers through the table."""
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n" + "s\n" * 400))
    path = tmp_path / "played.json"
    assert main(["play", "--game", "counting-monkey", "--seed", "3", "--players", "2", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Counting Monkey, standard rules: you against Heuristic 1." in out  # the seed comes with the result
    assert CHEEKY_MONKEY.summary[:60] in " ".join(out.split())
    assert "While deciding:" in out
    methods = ("board_table", "action_words", "action_text", "parse_actions", "action_help", "bot_title", "summary")
    for method in (*methods, "choice_notes"):
        assert counting.calls[method] > 0, method
    record = load_record(path.read_text(encoding="utf-8"))
    assert counting.calls["apply_with_events"] == len(record.actions)
    assert record.final_state().bag_size == 0


def test_replay_replays_through_the_game(
    counting: _Counting, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Replay reads the record with the game's documents and applies each action once as it narrates."""
    path = tmp_path / "watched.json"
    assert main(["watch", "--seed", "2", "--players", "2", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--game", "counting-monkey", "--no-step"]) == 0
    assert "Replaying a 2-player game of Counting Monkey" in capsys.readouterr().out
    actions = len(load_record(path.read_text(encoding="utf-8")).actions)
    assert counting.calls["apply_with_events"] == actions
    assert counting.calls["documents"] == 1


def _shown(table: TextTable, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(draw(table, width))
    output = console.file
    assert isinstance(output, io.StringIO)
    return output.getvalue()


@pytest.mark.parametrize("animal", ANIMALS)
@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_the_terminal_board_shows_every_animal_on_top_of_seat_0(animal: Animal, viewer: int | None) -> None:
    """Seat 0's top shows on the terminal's board, whatever the animal (the Elephant is the number 0)."""
    state = apply_all(new_game(2), [Reveal(animal), Stop()])
    shown = _shown(CHEEKY_MONKEY.board_table(state, ["Ann", "Bob"], viewer))
    row = next(line for line in shown.splitlines() if "Ann" in line)
    assert row.split()[-2:] == ["1", animal.label]


@pytest.mark.parametrize("names", [["Ann", "Bob"], ["A" * 60, "Bob"]])
def test_the_board_and_sheet_fit_80_columns_however_long_the_names(names: Sequence[str]) -> None:
    """The board and score sheet are drawn at most 80 wide; a long name is clipped, never the numbers."""
    played = play_game([bot_named("heuristic"), bot_named("random")], seed=4)
    for table in (
        CHEEKY_MONKEY.result_table(played.state, names),
        CHEEKY_MONKEY.board_table(new_game(2), names, 0),
    ):
        for width in (80, 60):
            shown = _shown(table, width)
            assert max(len(line) for line in shown.splitlines()) <= width, shown
    sheet = _shown(CHEEKY_MONKEY.result_table(played.state, names))
    for line in played.score.seats:
        assert f"{line.tokens}  " in sheet
        assert sheet.count(f" {line.total}\n") >= 1


def test_a_stop_put_down_one_token_per_answer_is_told_once_when_done() -> None:
    """'You stop with ...' at once, then, after the last token is put down, one line with the whole order."""
    from cheekymonkey import Draw, Place
    from cheekymonkey.cli.narrate import Narrator
    from cheekymonkey.table import Seat, Table

    console = Console(file=io.StringIO(), width=80, color_system=None)
    table: Table[Any, Any, Any, Any, Any] = Table(CHEEKY_MONKEY, [Seat.person("Ann"), Seat.person("Bob")])
    narrator = Narrator(console, CHEEKY_MONKEY, ["Ann", "Bob"], viewer=0)
    told = []
    for action in (Reveal(Animal.LION), Draw(), Reveal(Animal.SEAL), Draw(), Reveal(Animal.HIPPO), Stop()):
        narrator.step(table.play(action))
    output = console.file
    assert isinstance(output, io.StringIO)
    told.append(output.getvalue())
    narrator.step(table.play(Place(Animal.SEAL)))
    told.append(output.getvalue())
    narrator.step(table.play(Place(Animal.HIPPO)))
    told.append(output.getvalue())
    assert told[0].splitlines()[-1] == "You stop with Lion, Seal and Hippo."
    assert told[1] == told[0]  # the first token down: nothing yet, the move goes on
    assert told[2].splitlines()[len(told[0].splitlines()) :] == [
        "You stack Seal, Hippo and Lion, bottom to top: the Lion on top."
    ]


def test_ctrl_c_during_watch_exits_130_and_keeps_the_record_so_far(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-C while the bots play: no traceback, status 130, and the record holds the moves made."""
    from cheekymonkey.cli.table_run import TableRun

    played = TableRun.played
    calls = []

    def interrupted(self: TableRun, steps: Sequence[Any]) -> None:
        calls.append(len(steps))
        if len(calls) > 10:
            raise KeyboardInterrupt
        played(self, steps)

    monkeypatch.setattr(TableRun, "played", interrupted)
    path = tmp_path / "watched.json"
    assert main(["watch", "--seed", "1", "--record", str(path)]) == 130
    assert "interrupted: the game is left unfinished." in capsys.readouterr().err
    assert len(load_record(path.read_text(encoding="utf-8")).actions) == 11  # the 11th was played, then Ctrl-C
