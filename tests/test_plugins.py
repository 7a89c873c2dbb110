"""Games are plug-ins: found through the entry-point group ``cheekymonkey.games``, the built-in ones included.

A broken plug-in is left out with one line and the other games play on; what a game does not offer (proofs,
schemas, a page drawing) is absent, and each front end says so instead of failing.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import RandomBot as CheekyRandomBot
from cheekymonkey.cli import main
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.games import ENTRY_POINT_GROUP, GAME_NAMES, Registry, game_named, games
from cheekymonkey.play import play_game
from cheekymonkey.schema import SCHEMA_GAMES, load_schema
from cheekymonkey.toomany import TOO_MANY_MONKEYS
from cheekymonkey.toomany import RandomBot as TooManyRandomBot
from cheekymonkey.verify import proofs_of
from cheekymonkey.web.app import page_script


class _Plain:
    """Too Many Monkeys under another name, offering the protocol alone: no proofs, schemas or page drawing."""

    _ABSENT = frozenset({"proofs", "schemas", "page_script", "score"})

    @property
    def name(self) -> str:
        return "plain-monkeys"

    def __getattr__(self, name: str) -> Any:
        if name in self._ABSENT:
            raise AttributeError(name)
        return getattr(TOO_MANY_MONKEYS, name)


PLAIN = _Plain()
NOT_A_GAME = object()


def _entry(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP)


def _installed() -> list[importlib.metadata.EntryPoint]:
    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def test_every_game_comes_through_the_entry_point_group_the_built_in_ones_too() -> None:
    """The games are exactly the installed entry points, each the object its entry point names."""
    entries = {entry.name: entry for entry in _installed()}
    assert set(GAME_NAMES) == set(entries)
    assert GAME_NAMES[0] == "cheeky-monkey"  # the default first
    for name in GAME_NAMES:
        assert game_named(name) is entries[name].load()
        assert isinstance(game_named(name), Game)
    assert tuple(game.name for game in games()) == GAME_NAMES


def test_a_plug_in_that_cannot_be_loaded_is_left_out_with_one_line_and_the_others_play() -> None:
    """A module that fails to import: one line saying so, once; the other games are all there."""
    lines: list[str] = []
    registry = Registry([*_installed(), _entry("broken-monkeys", "cheekymonkey_no_such_module:GAME")], lines.append)
    assert registry.names == GAME_NAMES
    assert registry.names == GAME_NAMES  # asked again: no second line
    assert len(lines) == 1
    assert "\n" not in lines[0]
    assert lines[0].startswith("cheekymonkey: the game 'broken-monkeys' is left out: ")
    assert "ModuleNotFoundError" in lines[0]
    with pytest.raises(InvalidValueError, match=r"no game named 'broken-monkeys' can be played: .* cannot be loaded"):
        registry.game("broken-monkeys")
    assert len(lines) == 1


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        (
            [_entry("twin-monkeys", f"{__name__}:PLAIN"), _entry("twin-monkeys", f"{__name__}:PLAIN")],
            "the game name 'twin-monkeys' is registered 2 times",
        ),
        ([_entry("twin-monkeys", f"{__name__}:NOT_A_GAME")], "not a game"),
        ([_entry("twin-monkeys", "cheekymonkey.toomany.game:TOO_MANY_MONKEYS")], "is the game 'too-many-monkeys'"),
    ],
    ids=["duplicate", "not-a-game", "another-name"],
)
def test_a_duplicate_or_a_wrong_plug_in_is_refused_with_one_line(
    entries: list[importlib.metadata.EntryPoint], reason: str
) -> None:
    """Two plug-ins of one name (neither is trusted), an object that is no game, a game under another's name."""
    lines: list[str] = []
    registry = Registry([*_installed(), *entries], lines.append)
    assert registry.names == GAME_NAMES
    assert len(lines) == 1
    assert reason in lines[0]
    with pytest.raises(InvalidValueError, match=reason):
        registry.game("twin-monkeys")


def test_the_line_goes_to_the_library_s_log_by_default(caplog: pytest.LogCaptureFixture) -> None:
    """Without a report function the line is a warning on the ``cheekymonkey.games`` log."""
    registry = Registry([_entry("broken-monkeys", "cheekymonkey_no_such_module:GAME")])
    with caplog.at_level(logging.WARNING, logger="cheekymonkey.games"):
        assert registry.names == ()
    assert [(record.name, record.levelno) for record in caplog.records] == [("cheekymonkey.games", logging.WARNING)]
    with pytest.raises(InvalidValueError, match="no game named 'chess'; the games are none"):
        registry.game("chess")


def test_a_broken_plug_in_installed_beside_the_library_costs_one_line_at_the_command_line(tmp_path: Path) -> None:
    """An installed distribution whose game cannot load: the command line works, with one line on stderr."""
    info = tmp_path / "broken_monkeys-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-monkeys\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nbroken-monkeys = broken_monkeys_missing:GAME\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.append({str(tmp_path)!r}); import cheekymonkey.cli as c; "
         "sys.exit(c.main(['verify', '--help']))"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "cheekymonkey: the game 'broken-monkeys' is left out: 'broken_monkeys_missing:GAME' of the distribution "
        "'broken-monkeys' cannot be loaded: ModuleNotFoundError: No module named 'broken_monkeys_missing'"
    ]
    for name in GAME_NAMES:
        assert name in done.stdout


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> _Plain:
    """The plain game, installed as a plug-in beside the others for one test."""
    from cheekymonkey import games as registry_module

    # The command line's modules take the games' names when first imported: imported before the registry changes.
    commands = [importlib.import_module(name) for name in ("cheekymonkey.cli.options", "cheekymonkey.cli.replay")]
    registry = Registry([*_installed(), _entry("plain-monkeys", f"{__name__}:PLAIN")])
    monkeypatch.setattr(registry_module, "_REGISTRY", [registry])
    for module in commands:
        monkeypatch.setattr(module, "GAME_NAMES", registry.names)
    return PLAIN


def test_a_game_without_proofs_gets_verify_s_one_line_and_status_2(
    plain: _Plain, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cheekymonkey verify --game`` of a game that offers no proofs: one line saying so, exit status 2."""
    assert proofs_of(plain) is None
    assert main(["verify", "--game", "plain-monkeys"]) == 2
    assert capsys.readouterr().err.splitlines() == ["cheekymonkey verify: Too Many Monkeys offers no proofs to run"]
    for name in GAME_NAMES:
        assert proofs_of(game_named(name)) is not None, name


def test_what_a_game_does_not_ship_is_absent_everywhere(plain: _Plain) -> None:
    """No schemas and no page drawing: the schemas leave it out, the web server draws it with the generic page."""
    assert "plain-monkeys" not in SCHEMA_GAMES
    assert set(SCHEMA_GAMES) == set(GAME_NAMES)  # every built-in game ships its schemas
    with pytest.raises(ValueError, match="the game 'plain-monkeys' ships no schemas"):
        load_schema("state", game="plain-monkeys")
    assert page_script(plain) is None
    for name in GAME_NAMES:
        script = page_script(game_named(name))
        assert script is not None, name
        assert script.name == f"{name}.js"


def test_play_game_plays_the_game_it_is_given() -> None:
    """Cheeky Monkey by default, any game when named; a game that keeps no score sheet has its outcome."""
    cheeky = play_game([CheekyRandomBot(), CheekyRandomBot()], seed=3)
    assert cheeky.game is game_named("cheeky-monkey")
    assert cheeky.score.winners == cheeky.outcome.winners
    too_many = play_game([TooManyRandomBot(), TooManyRandomBot()], game=TOO_MANY_MONKEYS, seed=3)
    assert too_many.record.final_state() == too_many.state
    assert too_many.outcome == TOO_MANY_MONKEYS.outcome(too_many.state)
    with pytest.raises(AttributeError, match="Too Many Monkeys keeps no score sheet"):
        _ = too_many.score
