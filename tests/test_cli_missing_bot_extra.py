"""At the terminal, a bot whose optional extra is missing gets one line and status 2, as every missing extra does.

The learned bot needs numpy (the ``rl`` extra). Without it, ``cheekymonkey watch --bots learned`` printed a
44-line traceback. Each command now builds the bots it was given before anything is played, and a bot of any
game whose building raises an :class:`ImportError` (itself, or as the cause of the game's own error) is
refused in one line naming the package and the install command. The package is blocked for real: a
``sitecustomize`` module on the path of a fresh ``python -m cheekymonkey`` process makes ``import numpy``
raise, as if numpy were not installed.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from cheekymonkey.cli.options import OptionError, check_bots
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import GameBot
from tests.minimal_game import Race

ROOT: Final = Path(__file__).resolve().parent.parent

HINT: Final = "numpy is not installed; it comes with the rl extra: pip install 'cheekymonkey[rl]'"


def _without_numpy(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python cannot import numpy: a ``sitecustomize`` blocks it before anything runs."""
    blocker = tmp_path / "blocker"
    blocker.mkdir(exist_ok=True)
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['numpy'] = None\n", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}


def _run(args: Sequence[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cheekymonkey", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_blocker_really_blocks_numpy(tmp_path: Path) -> None:
    """The environment the tests below use cannot import numpy, and can import the package."""
    env = _without_numpy(tmp_path)
    probe = subprocess.run(
        [sys.executable, "-c", "import cheekymonkey\nimport numpy"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert probe.returncode == 1
    assert "ModuleNotFoundError: import of numpy halted" in probe.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["watch", "--bots", "learned", "--players", "2", "--seed", "1"],
        ["play", "--bots", "learned", "--players", "2", "--seed", "1", "--no-record"],
        ["watch", "--bots", "heuristic,learned", "--players", "3", "--seed", "1"],
        ["simulate", "--bots", "learned,random", "--games", "1"],
        ["league", "--bots", "learned,random", "--games", "1"],
    ],
    ids=" ".join,
)
def test_a_command_given_the_learned_bot_without_numpy_prints_one_line_and_exits_2(
    args: list[str], tmp_path: Path
) -> None:
    """One line on standard error, naming the bot, the package and the install command; status 2; no game."""
    result = _run(args, _without_numpy(tmp_path), tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"cheekymonkey {args[0]}: the learned bot cannot play here: {HINT}")
    assert result.stdout == ""


def test_the_same_commands_without_the_learned_bot_still_play_without_numpy(tmp_path: Path) -> None:
    """Only a bot that needs the extra is refused: the default bots play a whole game without numpy."""
    result = _run(["watch", "--players", "2", "--seed", "1"], _without_numpy(tmp_path), tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Final scores" in result.stdout


class _Fancy(Race):
    """A game with a bot that needs a package that is not installed, and one whose building fails otherwise."""

    def bot_names(self) -> tuple[str, ...]:
        return ("random", "fancy", "wrapped", "broken")

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[Any, Any]:
        if name == "fancy":
            raise ImportError("No module named 'fancylib'", name="fancylib")
        if name == "wrapped":
            try:
                import fancylib  # type: ignore[import-not-found]  # noqa: F401
            except ImportError as error:
                raise InvalidValueError("the wrapped bot needs fancylib") from error
        if name == "broken":
            raise RuntimeError("a bug, not a missing package")
        return super().bot_named(name, memory=memory)


@pytest.mark.parametrize("bot", ["fancy", "wrapped"])
def test_any_bot_of_any_game_that_cannot_be_built_for_a_missing_package_is_an_option_error(bot: str) -> None:
    """The check is the game's own bot_named, for every game: an ImportError, raised or as a cause, is one line."""
    game: Any = _Fancy()
    with pytest.raises(OptionError) as caught:
        check_bots(game, ["random", bot])
    message = str(caught.value)
    assert message.startswith(f"the {bot} bot cannot play here: fancylib is not installed")
    assert "pip install" in message
    assert "\n" not in message
    check_bots(game, ["random"])


def test_a_bot_that_fails_for_another_reason_is_not_mistaken_for_a_missing_extra() -> None:
    """A bug in a bot's building is not hidden behind an install hint: it propagates as itself."""
    game: Any = _Fancy()
    with pytest.raises(RuntimeError, match="a bug"):
        check_bots(game, ["broken"])


def test_play_at_a_pseudo_terminal_with_the_learned_bot_without_numpy_prints_one_line_and_exits_2(
    tmp_path: Path,
) -> None:
    """As a person runs it, at a terminal: the one line, status 2, and no prompt or traceback."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "cheekymonkey", "play", "--bots", "learned", "--players", "2", "--no-record"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=tmp_path,
        env={**_without_numpy(tmp_path), "TERM": "xterm-256color", "COLUMNS": "160"},
        close_fds=True,
    )
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    status = process.wait(timeout=60)
    shown = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n").strip()
    assert status == 2, shown
    assert "Traceback" not in shown
    assert shown.splitlines() == [f"cheekymonkey play: the learned bot cannot play here: {HINT} " + _CLONE_HINT]


_CLONE_HINT: Final = "(or, in a clone of the repository: pip install '.[rl]')"
