"""What a game offers beside its rules is declared as data (:class:`~cheekymonkey.game.Capabilities`), never probed."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from cheekymonkey.errors import NotOfferedError
from cheekymonkey.game import Capabilities
from cheekymonkey.games import game_named
from cheekymonkey.schema import schema_folder
from cheekymonkey.verify import proofs_of
from cheekymonkey.web.app import page_script
from tests.helpers import BUILT_IN_GAMES
from tests.minimal_game import RACE

CAPABILITY_MEMBERS = frozenset(
    {"proofs", "schemas", "page_script", "encoding", "observation_kinds", "batched", "capabilities"}
)
"""The members that give a capability, and the declaration itself: no front end asks ``getattr`` for one."""


def _probes(source: str) -> list[int]:
    """The lines of ``source`` where ``getattr``/``hasattr`` asks an object for a capability member by name."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value in CAPABILITY_MEMBERS
    ]


def test_the_probe_finder_finds_a_probe() -> None:
    """The check below can fail: the finder sees each way a probe is written, and not other getattr calls."""
    assert _probes('offer = getattr(game, "proofs", None)\nx = getattr(game, "name")\n') == [1]
    assert _probes('if hasattr(game, "page_script"):\n    pass\n') == [1]
    assert _probes('getattr(engine, "bots", ())') == []


def test_no_module_of_the_package_probes_a_game_for_a_capability() -> None:
    """Every front end reads ``game.capabilities``; ``getattr(game, "proofs", None)`` and its kind are gone."""
    root = Path(__file__).resolve().parent.parent / "cheekymonkey"
    probes = {
        str(path.relative_to(root)): lines
        for path in sorted(root.rglob("*.py"))
        if (lines := _probes(path.read_text(encoding="utf-8")))
    }
    assert probes == {}


def test_the_built_in_games_declare_everything_and_the_front_ends_find_it() -> None:
    """Both built-in games offer encodings, proofs, schemas, a page drawing and a batched engine."""
    everything = Capabilities(encodings=True, proofs=True, schemas=True, page_script=True, batched=True)
    for name in BUILT_IN_GAMES:
        game = game_named(name)
        assert game.capabilities == everything
        folder = schema_folder(game)
        assert folder is not None
        assert (folder / "state.schema.json").is_file()
        script = page_script(game)
        assert script is not None
        assert script.name == f"{name}.js"
        assert callable(proofs_of(game))


def test_a_game_that_declares_nothing_is_absent_from_every_front_end_and_refuses_when_asked() -> None:
    """The dice race declares nothing: None from each front end's look-up, NotOfferedError from the members."""
    assert RACE.capabilities == Capabilities()
    assert (schema_folder(RACE), page_script(RACE), proofs_of(RACE)) == (None, None, None)
    for offer in (RACE.proofs, RACE.schemas, RACE.page_script, lambda: RACE.encoding(2)):
        with pytest.raises(NotOfferedError) as caught:
            offer()
        assert caught.value.game == "dice-race"


@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_capability_is_true_or_false(value: Any) -> None:
    """A declaration is checked as it is made: a capability is a bool, nothing that merely looks true."""
    with pytest.raises(TypeError, match="a capability is True or False"):
        Capabilities(proofs=value)
