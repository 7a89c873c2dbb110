"""Options are checked before any work: output files and bot names (serve's own: test_cli_serve.py).

Every output file option of every command has the one type that checks it (``output_path``), so a path that
cannot be written is refused while the options are read, before a game is played or a server started.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from cheekymonkey.cli import build_parser, main
from cheekymonkey.cli.options import output_path

ROOT = Path(__file__).resolve().parent.parent

INPUTS = {("replay", "file"), ("verify", "ruleset"), ("train", "checkpoint_dir")}
"""The options that read a file (or a folder, the training's checkpoints, read by --resume and checked by the
command itself): the only ones that take a plain path."""

OUTPUTS = {
    ("play", "record"),
    ("watch", "record"),
    ("simulate", "json"),
    ("simulate", "plot"),
    ("league", "json"),
    ("train", "out"),
}


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_output_file_option_of_every_command_is_checked_by_the_one_helper() -> None:
    """The options typed output_path are exactly the outputs; every other path option is an input."""
    typed = {
        (name, action.dest)
        for name, command in _commands().items()
        for action in command._actions
        if action.type is output_path
    }
    plain = {
        (name, action.dest)
        for name, command in _commands().items()
        for action in command._actions
        if action.type is Path or action.type is str
    }
    assert typed == OUTPUTS
    assert plain == INPUTS


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "--json", "/nonexistent/dir/x.json", "--games", "2"], "there is no folder '/nonexistent/dir'"),
        (["simulate", "--json", ".", "--games", "2"], "'.' is a folder"),
        (["simulate", "--plot", "/nonexistent/p", "--games", "2"], "there is no folder '/nonexistent'"),
        (["simulate", "--json", "a-file/x.json", "--games", "2"], "'a-file' is not a folder"),
        (["watch", "--record", "/nonexistent/x.json"], "there is no folder"),
    ],
)
def test_an_output_file_that_cannot_be_written_is_refused_before_any_game(
    args: list[str],
    words: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Status 2 and the reason on stderr, and nothing played: no games, no progress, no table."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert words in captured.err
    assert captured.out == ""


@pytest.mark.parametrize("command", ["play", "watch", "simulate"])
def test_an_empty_bot_name_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """'--bots heuristic,,random' names an empty bot: refused, where it used to be dropped in silence."""
    with pytest.raises(SystemExit) as stopped:
        main([command, "--bots", "heuristic,,random"])
    assert stopped.value.code == 2
    assert "a bot name is empty" in capsys.readouterr().err
