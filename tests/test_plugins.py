"""Games are plug-ins: found through the entry-point group ``cheekymonkey.games``, the built-in ones included.

A broken plug-in is left out with one line and the other games play on; what a game does not offer (proofs,
schemas, a page drawing) is absent, and each front end says so instead of failing.
"""

from __future__ import annotations

import http.client
import importlib
import importlib.metadata
import io
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey import RandomBot as CheekyRandomBot
from cheekymonkey.cli import main
from cheekymonkey.errors import InvalidValueError, NotOfferedError
from cheekymonkey.game import Capabilities, Game
from cheekymonkey.games import ENTRY_POINT_GROUP, GAME_NAMES, Registry, game_named, games
from cheekymonkey.play import play_game
from cheekymonkey.schema import SCHEMA_GAMES, load_schema
from cheekymonkey.toomany import TOO_MANY_MONKEYS
from cheekymonkey.toomany import RandomBot as TooManyRandomBot
from cheekymonkey.verify import proofs_of
from cheekymonkey.web.app import page_script
from tests.helpers import BUILT_IN_GAMES
from tests.minimal_game import RACE, Move, Race


class _Plain:
    """Too Many Monkeys under another name, declaring no proofs, schemas or page drawing (its encodings only)."""

    _ABSENT = frozenset({"score"})
    capabilities = Capabilities(encodings=True)

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


def _install(monkeypatch: pytest.MonkeyPatch, entry: importlib.metadata.EntryPoint) -> None:
    """Install one more plug-in beside the others, for one test."""
    from cheekymonkey import games as registry_module

    # The command line's modules take the games' names when first imported: imported before the registry changes.
    commands = [importlib.import_module(name) for name in ("cheekymonkey.cli.options", "cheekymonkey.cli.replay")]
    registry = Registry([*_installed(), entry])
    monkeypatch.setattr(registry_module, "_REGISTRY", [registry])
    for module in commands:
        monkeypatch.setattr(module, "GAME_NAMES", registry.names)


@pytest.fixture
def plain(monkeypatch: pytest.MonkeyPatch) -> _Plain:
    """The plain game, installed as a plug-in beside the others for one test."""
    _install(monkeypatch, _entry("plain-monkeys", f"{__name__}:PLAIN"))
    return PLAIN


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> Race:
    """The dice race (:mod:`tests.minimal_game`: the base class's required core and nothing else), installed."""
    _install(monkeypatch, _entry(RACE.name, "tests.minimal_game:RACE"))
    return RACE


def test_a_game_without_proofs_gets_verify_s_one_line_and_status_2(
    plain: _Plain, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cheekymonkey verify --game`` of a game that offers no proofs: one line saying so, exit status 2."""
    assert proofs_of(plain) is None
    assert main(["verify", "--game", "plain-monkeys"]) == 2
    assert capsys.readouterr().err.splitlines() == ["cheekymonkey verify: Too Many Monkeys offers no proofs to run"]
    for name in BUILT_IN_GAMES:
        assert proofs_of(game_named(name)) is not None, name
    for name in GAME_NAMES:  # an installed plug-in without proofs (Pig) gets the same line
        game = game_named(name)
        if proofs_of(game) is None:
            assert main(["verify", "--game", name]) == 2
            assert capsys.readouterr().err.splitlines() == [
                f"cheekymonkey verify: {game.title} offers no proofs to run"
            ]


def test_what_a_game_does_not_ship_is_absent_everywhere(plain: _Plain) -> None:
    """No schemas and no page drawing: the schemas leave it out, the web server draws it with the generic page."""
    assert "plain-monkeys" not in SCHEMA_GAMES
    assert set(BUILT_IN_GAMES) <= set(SCHEMA_GAMES)  # every built-in game ships its schemas
    assert set(SCHEMA_GAMES) <= set(GAME_NAMES)
    for name in sorted(set(GAME_NAMES) - set(SCHEMA_GAMES)):  # an installed plug-in without schemas (Pig)
        with pytest.raises(ValueError, match=f"the game '{name}' ships no schemas"):
            load_schema("state", game=name)
    with pytest.raises(ValueError, match="the game 'plain-monkeys' ships no schemas"):
        load_schema("state", game="plain-monkeys")
    assert page_script(plain) is None
    for name in GAME_NAMES:
        script = page_script(game_named(name))
        assert script is not None or name not in BUILT_IN_GAMES, name  # every built-in game draws its own page
        assert script is None or script.name == f"{name}.js"


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


def test_a_game_of_the_core_alone_is_a_plug_in_like_the_others(race: Race) -> None:
    """Registered by its entry point, the dice race is found by name and by its documents' format."""
    from cheekymonkey.games import GAME_NAMES as names
    from cheekymonkey.games import game_of_document

    assert race.name in names
    assert game_named(race.name) is race
    assert isinstance(race, Game)
    document = race.documents().to_document(Move.ROLL)
    assert document["format"] == "dice-race/1"
    assert game_of_document(document) is race
    assert "dice-race" not in SCHEMA_GAMES
    assert page_script(race) is None
    assert proofs_of(race) is None


def test_a_game_of_the_core_alone_is_watched_saved_and_replayed_at_the_command_line(
    race: Race, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``watch`` narrates it with the default bot, saves a generic record; ``replay`` reads it without --game."""
    record = tmp_path / "race.json"
    assert main(["watch", "--game", race.name, "--players", "3", "--seed", "4", "--record", str(record)]) == 0
    watched = capsys.readouterr().out
    assert watched.startswith("Dice Race, standard rules, 3 players, seed 4: Random 0 (random)")
    assert "Chance: roll (pips " in watched
    assert "Winner: " in watched
    loaded = race.documents().loads(record.read_text(encoding="utf-8"), "record")
    assert race.is_terminal(loaded.final_state())
    assert main(["replay", str(record), "--no-step"]) == 0
    replayed = capsys.readouterr().out
    narration = [line for line in watched.splitlines()[1:] if line.startswith(("Random", "Chance"))]
    assert len(narration) > 5
    assert all(line in replayed for line in narration)


def test_a_game_of_the_core_alone_is_played_at_the_command_line_by_its_legal_moves_texts(
    race: Race, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person types the moves as the game's default texts; a text no move has is refused with the valid ones."""
    monkeypatch.setattr("sys.stdin", io.StringIO("jump\n" + "step\n" * 200))
    assert main(["play", "--game", race.name, "--players", "2", "--seed", "1", "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "'jump': that is no legal action now. Type ? for help." in out
    assert "  step  step" in out  # the choices, listed by their texts
    assert "Winner: " in out


def test_a_game_of_the_core_alone_is_simulated(race: Race, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate`` plays it with its one bot and counts every game."""
    assert main(["simulate", "--game", race.name, "--players", "2", "--games", "30", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "30 games" in out


def test_a_game_of_the_core_alone_is_served_played_over_the_api_and_rebuilt_from_the_store(race: Race) -> None:
    """Two people play it through ``serve``'s API, by text and by action document; the room survives a rebuild."""
    from cheekymonkey.web import RoomManager
    from tests.web_support import call, live_server, token_of

    with live_server(RoomManager(games=[race.name], allow_seeds=True)) as server:
        status, options = call(server, "GET", "/api/options")
        assert status == 200, options
        status, room = call(server, "POST", "/api/rooms",
                             {"game": race.name, "preset": "short", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                              "seed": 3})  # fmt: skip
        assert status == 201, room
        status, table = call(server, "GET", "/api/table", token=token_of(room, 0))
        assert status == 200, table
        assert [item["text"] for item in table["legal"]] == ["step", "roll"]
        assert "Dice Race" in table["board"]
        assert "Ann to move." in table["board"]
        move = {"version": table["version"], "action": table["legal"][1]["action"]}
        status, answer = call(server, "POST", "/api/move", move, token=token_of(room, 0))
        assert status == 200, answer
        server.manager.rooms.clear()  # read back from the store: header record, then each action document
        for turn in range(12):
            seat = turn % 2
            status, table = call(server, "GET", "/api/table", token=token_of(room, seat))
            if table["outcome"] is not None:
                break
            if table["to_move"] != seat:
                continue
            status, answer = call(server, "POST", "/api/move", {"version": table["version"], "text": "step"},
                                  token=token_of(room, seat))  # fmt: skip
            assert status == 200, answer
        assert table["outcome"] is not None
        status, record = call(server, "GET", "/api/record", token=token_of(room, 0))
        assert status == 200, record
        assert race.is_terminal(race.documents().from_document(record, "record").final_state())
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/static/games/{race.name}.js")
        assert connection.getresponse().status == 404  # no drawing: the page draws the board text
        connection.close()


@pytest.mark.parametrize("adapter", ["gymnasium", "pettingzoo", "openspiel"])
def test_a_game_without_encodings_is_refused_by_the_rl_adapters_naming_it(race: Race, adapter: str) -> None:
    """Each adapter refuses the dice race with the typed error that names the game and what it lacks."""
    if adapter == "gymnasium":
        from cheekymonkey.rl.gymnasium_env import SoloEnv

        def build() -> object:
            return SoloEnv(game=race.name)
    elif adapter == "pettingzoo":
        from cheekymonkey.rl.pettingzoo_env import GameEnv

        def build() -> object:
            return GameEnv(game=race)
    else:
        from cheekymonkey.rl.openspiel_game import load

        def build() -> object:
            return load(game=race.name)

    with pytest.raises(NotOfferedError, match="the game 'dice-race' offers no encodings for learning") as caught:
        build()
    assert caught.value.game == race.name
