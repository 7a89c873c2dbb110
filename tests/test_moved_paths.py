"""Cheeky Monkey's modules moved into cheekymonkey.cheeky: every old import path still works, warns, and is the same.

The old paths are listed here as they were (the layout before each game had its own package), apart from the
table the library keeps (``cheekymonkey._moved``), so that a path the library forgot fails here.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import cheekymonkey
import cheekymonkey.game

CHEEKY = "cheekymonkey.cheeky"

OLD_MODULES: dict[str, str] = {
    **{
        f"cheekymonkey.{name}": f"{CHEEKY}.{name}"
        for name in ("actions", "board", "engine", "events", "narration", "notation", "records", "rules")
    },
    **{f"cheekymonkey.{name}": f"{CHEEKY}.{name}" for name in ("scoring", "state", "views")},
    "cheekymonkey.bots": f"{CHEEKY}.bots",
    **{
        f"cheekymonkey.bots.{name}": f"{CHEEKY}.bots.{name}"
        for name in ("base", "evaluation", "expectimax", "heuristic", "random", "registry", "search")
    },
    "cheekymonkey.search": f"{CHEEKY}.bots.search",
    "cheekymonkey.games.cheeky_monkey": f"{CHEEKY}.game",
    "cheekymonkey.rl.encoding": f"{CHEEKY}.encoding",
    "cheekymonkey.rl.observations": f"{CHEEKY}.encoding",
    "cheekymonkey.rl.rewards": f"{CHEEKY}.rewards",
    "cheekymonkey.rl.learned": f"{CHEEKY}.bots.learned",
    "cheekymonkey.serialization.documents": f"{CHEEKY}.documents",
    "cheekymonkey.serialization.format": f"{CHEEKY}.documents",
    "cheekymonkey.serialization.kinds": f"{CHEEKY}.documents",
    "cheekymonkey.serialization._checks": f"{CHEEKY}.documents",
    "cheekymonkey.verify.model": f"{CHEEKY}.verify.model",
    "cheekymonkey.verify.report": f"{CHEEKY}.verify.report",
    "cheekymonkey.verify.command": f"{CHEEKY}.verify.command",
}
"""Each module path that moved, and where the module is now."""

OLD_NAMES_IN_MODULES: dict[str, tuple[str, ...]] = {
    "cheekymonkey.search": ("MCTSBot",),
    "cheekymonkey.rl.encoding": ("DRAW_INDEX", "HERD_INDEX", "NUM_OUTCOMES", "STOP_INDEX", "ActionCodec"),
    "cheekymonkey.rl.observations": (
        "DEFAULT_OBSERVATION",
        "OBSERVATION_KINDS",
        "ObservationField",
        "ObservationKind",
        "ObservationLayout",
        "full_observation",
        "observation_layout",
        "observation_text",
        "observe",
        "table_observation",
    ),
    "cheekymonkey.serialization.format": ("DOCUMENT_FORMAT", "FORMAT", "KINDS", "MAX_INTEGER", "Document", "Kind"),
    "cheekymonkey.serialization._checks": ("check_value",),
    "cheekymonkey.serialization.documents": ("CODEC", "dumps", "from_document", "loads", "to_document"),
    "cheekymonkey.serialization.kinds": ("dump_record", "dump_state", "load_record", "load_state", "load_view"),
}
"""What the modules that were folded into another had, which that one must have now."""

_DOCUMENT_NAMES = (
    "FORMAT", "KINDS", "Document", "Kind", "dump_action", "dump_event", "dump_record", "dump_ruleset", "dump_score",
    "dump_state", "dump_view", "dumps", "from_document", "load_action", "load_event", "load_record", "load_ruleset",
    "load_score", "load_state", "load_view", "loads", "to_document", "ACTION_TAGS", "BOUNDS", "DOCUMENT_TYPES",
    "EVENT_TAGS", "FORMAT_NAME", "FORMAT_VERSION", "PER_ANIMAL", "SIGNED", "TAG_FIELD",
)  # fmt: skip
_ENCODING_NAMES = (
    "DEFAULT_OBSERVATION", "DRAW_INDEX", "HERD_INDEX", "NUM_OUTCOMES", "OBSERVATION_KINDS", "STOP_INDEX",
    "ActionCodec", "ObservationKind", "ObservationLayout", "full_observation", "observation_layout",
    "observation_text", "observe", "table_observation",
)  # fmt: skip
_PROOF_NAMES = (
    "CountTable", "PropertyResult", "ScoringModel", "Status", "VerificationReport", "Witness", "check_agreement",
    "enumerate_witnesses", "format_table", "verify_ruleset",
)  # fmt: skip

OLD_NAMES: dict[tuple[str, str], str] = {
    **{("cheekymonkey.serialization", name): f"{CHEEKY}.documents.{name}" for name in _DOCUMENT_NAMES},
    **{("cheekymonkey.rl", name): f"{CHEEKY}.encoding.{name}" for name in _ENCODING_NAMES},
    ("cheekymonkey.rl", "returns"): f"{CHEEKY}.rewards.returns",
    ("cheekymonkey.rl", "returns_of"): f"{CHEEKY}.rewards.returns_of",
    **{("cheekymonkey.verify", name): f"{CHEEKY}.verify.{name}" for name in _PROOF_NAMES},
    ("cheekymonkey.schema", "SCHEMA_KINDS"): f"{CHEEKY}.documents.KINDS",
}
"""Each name a shared package had that is one game's now, and its new path."""

GAME_MODULE_NAMES = (
    "Cell", "Column", "Documents", "Encoding", "Game", "GameBot", "ObservationField", "Outcome", "RecordLike",
    "TextTable", "as_index", "check_names", "check_record_seats", "lay_out", "name_key", "ranks_by", "replay_states",
)  # fmt: skip
"""What ``cheekymonkey.game`` exported before it was split by job: still importable from it, with no warning."""


def _resolve(path: str) -> object:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """Forget every old path imported so far (restored afterwards), so that each import here is the first."""
    # Looked up in the modules' own namespaces: asking the module would ask its alias, and warn.
    for old in OLD_MODULES:
        monkeypatch.delitem(sys.modules, old, raising=False)
        parent, _, child = old.rpartition(".")
        if parent in sys.modules and child in vars(sys.modules[parent]):
            monkeypatch.delattr(sys.modules[parent], child)
    for package, name in OLD_NAMES:
        if name in vars(importlib.import_module(package)):
            monkeypatch.delattr(importlib.import_module(package), name)
    return monkeypatch


@pytest.mark.parametrize(("old", "new"), OLD_MODULES.items())
def test_an_old_module_path_imports_the_new_module_and_warns_once_naming_it(
    old: str, new: str, fresh: pytest.MonkeyPatch
) -> None:
    """``import cheekymonkey.engine`` gives the module now at its new path, the same object, with a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    # An old package's module warns for the package too (cheekymonkey.bots, then cheekymonkey.bots.search).
    messages = [str(warning.message) for warning in caught]
    assert f"the module {old} has moved: import {new}" in messages
    assert all(warning.category is DeprecationWarning for warning in caught)
    assert module is importlib.import_module(new)
    assert module.__spec__ is not None
    assert module.__name__ == module.__spec__.name == new  # it keeps its own name and spec
    assert all(warning.filename == __file__ for warning in caught)  # attributed to the line that imported it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert importlib.import_module(old) is module  # once imported, it warns no more
    for name in OLD_NAMES_IN_MODULES.get(old, ()):
        assert hasattr(module, name), (old, name)


@pytest.mark.parametrize(
    ("where", "new"), OLD_NAMES.items(), ids=lambda value: ".".join(value) if isinstance(value, tuple) else value
)
def test_an_old_name_of_a_shared_package_is_the_same_object_with_a_warning(
    where: tuple[str, str], new: str, fresh: pytest.MonkeyPatch
) -> None:
    """``from cheekymonkey.serialization import dumps`` gives Cheeky Monkey's ``dumps``, with a warning naming it."""
    package, name = where
    with pytest.warns(DeprecationWarning, match=rf"{package}\.{name} has moved: import it as {new}$"):
        value = getattr(importlib.import_module(package), name)
    assert value is _resolve(new)


def test_an_old_module_as_an_attribute_of_the_package_warns_and_is_the_module(fresh: pytest.MonkeyPatch) -> None:
    """``cheekymonkey.engine`` after ``import cheekymonkey`` (as code written for the old layout used it)."""
    with pytest.warns(DeprecationWarning, match="cheekymonkey.engine has moved"):
        engine = cheekymonkey.engine
    assert engine is importlib.import_module(f"{CHEEKY}.engine")


def test_a_name_that_never_was_is_an_attribute_error() -> None:
    """The aliases answer only for what moved: anything else is missing, as it always was."""
    for package in ("cheekymonkey", "cheekymonkey.serialization", "cheekymonkey.rl", "cheekymonkey.verify"):
        with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
            _resolve(f"{package}.nothing_here")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("cheekymonkey.nothing_here")


def test_the_old_modules_leave_no_file_behind() -> None:
    """The tree shows what is shared and what is one game's: no stub module at an old path."""
    root = Path(cheekymonkey.__file__).resolve().parent
    for old in OLD_MODULES:
        path = root.joinpath(*old.split(".")[1:])
        assert not path.with_suffix(".py").exists(), old
        assert not (path / "__init__.py").exists(), old


def test_the_game_module_still_exports_everything_it_did_without_a_warning() -> None:
    """``from cheekymonkey.game import X`` works for every X it exported before the split, each the one object."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in GAME_MODULE_NAMES:
            value = getattr(cheekymonkey.game, name)
            home = importlib.import_module(value.__module__)
            assert getattr(home, name) is value, name
    assert set(GAME_MODULE_NAMES) <= set(cheekymonkey.game.__all__)


def test_no_module_of_the_library_uses_an_old_path() -> None:
    """Importing every module of the package, in a fresh process, warns of no old path: the library uses the new."""
    code = (
        "import importlib, pkgutil, warnings\n"
        "warnings.simplefilter('error', DeprecationWarning)\n"
        "import cheekymonkey\n"
        "from cheekymonkey import *\n"
        "names = [m.name for m in pkgutil.walk_packages(cheekymonkey.__path__, 'cheekymonkey.')]\n"
        "for name in names:\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "print(len(names))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 100
