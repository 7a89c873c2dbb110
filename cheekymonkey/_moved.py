"""The old import paths of what moved into a game's package, kept working with a :class:`DeprecationWarning`.

Cheeky Monkey's modules sat at the package root beside what every game shares; they now live in
:mod:`cheekymonkey.cheeky`, as Too Many Monkeys' live in :mod:`cheekymonkey.toomany`. Code written against
the old paths keeps working, without a file left behind for each old module:

- an old **module** path (``import cheekymonkey.engine``, ``from cheekymonkey.rl.encoding import
  ActionCodec``) is found by a finder on :data:`sys.meta_path` that hands out the module at its new path,
  the same module object, so its classes and functions are the same objects under either name;
- an old **name** in a shared package (``cheekymonkey.serialization.dumps``, ``cheekymonkey.rl.ActionCodec``,
  ``cheekymonkey.verify.verify_ruleset``) is found by that package's module ``__getattr__``, which asks
  :func:`moved_attribute`.

Each warns once, naming the new path. The package's ``__init__`` installs the finder, so it is in place
before any old path can be imported. Nothing here imports a game's package until an old path is used.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Final

__all__ = ["MOVED_ATTRIBUTES", "MOVED_MODULES", "moved_attribute"]

_CHEEKY: Final = "cheekymonkey.cheeky"

MOVED_MODULES: Final[dict[str, str]] = {
    **{
        f"cheekymonkey.{name}": f"{_CHEEKY}.{name}"
        for name in (
            "actions",
            "board",
            "engine",
            "events",
            "narration",
            "notation",
            "records",
            "rules",
            "scoring",
            "state",
            "views",
        )
    },
    "cheekymonkey.bots": f"{_CHEEKY}.bots",
    **{
        f"cheekymonkey.bots.{name}": f"{_CHEEKY}.bots.{name}"
        for name in (
            "base",
            "evaluation",
            "expectimax",
            "heuristic",
            "random",
            "registry",
            "search",
        )
    },
    "cheekymonkey.search": f"{_CHEEKY}.bots.search",
    "cheekymonkey.games.cheeky_monkey": f"{_CHEEKY}.game",
    "cheekymonkey.rl.encoding": f"{_CHEEKY}.encoding",
    "cheekymonkey.rl.observations": f"{_CHEEKY}.encoding",
    "cheekymonkey.rl.rewards": f"{_CHEEKY}.rewards",
    "cheekymonkey.rl.learned": f"{_CHEEKY}.bots.learned",
    "cheekymonkey.serialization.documents": f"{_CHEEKY}.documents",
    "cheekymonkey.serialization.format": f"{_CHEEKY}.documents",
    "cheekymonkey.serialization.kinds": f"{_CHEEKY}.documents",
    "cheekymonkey.serialization._checks": f"{_CHEEKY}.documents",
    "cheekymonkey.verify.model": f"{_CHEEKY}.verify.model",
    "cheekymonkey.verify.report": f"{_CHEEKY}.verify.report",
    "cheekymonkey.verify.command": f"{_CHEEKY}.verify.command",
}
"""Each old module path, and the module now at its new path."""

_DOCUMENT_NAMES: Final = (
    "ACTION_TAGS",
    "BOUNDS",
    "DOCUMENT_TYPES",
    "EVENT_TAGS",
    "FORMAT",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "KINDS",
    "PER_ANIMAL",
    "SIGNED",
    "TAG_FIELD",
    "Document",
    "Kind",
    "dump_action",
    "dump_event",
    "dump_record",
    "dump_ruleset",
    "dump_score",
    "dump_state",
    "dump_view",
    "dumps",
    "from_document",
    "load_action",
    "load_event",
    "load_record",
    "load_ruleset",
    "load_score",
    "load_state",
    "load_view",
    "loads",
    "to_document",
)
_ENCODING_NAMES: Final = (
    "DEFAULT_OBSERVATION",
    "DRAW_INDEX",
    "HERD_INDEX",
    "NUM_OUTCOMES",
    "OBSERVATION_KINDS",
    "STOP_INDEX",
    "ActionCodec",
    "ObservationKind",
    "ObservationLayout",
    "full_observation",
    "observation_layout",
    "observation_text",
    "observe",
    "table_observation",
)
_PROOF_NAMES: Final = (
    "CountTable",
    "PropertyResult",
    "ScoringModel",
    "Status",
    "VerificationReport",
    "Witness",
    "check_agreement",
    "enumerate_witnesses",
    "format_table",
    "verify_ruleset",
)

MOVED_ATTRIBUTES: Final[dict[str, dict[str, str]]] = {
    "cheekymonkey.serialization": dict.fromkeys(_DOCUMENT_NAMES, f"{_CHEEKY}.documents"),
    "cheekymonkey.rl": {
        **dict.fromkeys(_ENCODING_NAMES, f"{_CHEEKY}.encoding"),
        **dict.fromkeys(("returns", "returns_of"), f"{_CHEEKY}.rewards"),
    },
    "cheekymonkey.verify": dict.fromkeys(_PROOF_NAMES, f"{_CHEEKY}.verify"),
    "cheekymonkey.schema": {"SCHEMA_KINDS": f"{_CHEEKY}.documents:KINDS"},
}
"""For each shared package, its old names that are one game's, and the module that has them now (a name
that changed too is written ``module:name``)."""


_IMPORTLIB: Final = os.path.dirname(importlib.__file__)


def _internal(filename: str) -> bool:
    # The frames warnings.warn itself leaves out when it counts stacklevel: the import system's bootstrap.
    return "importlib" in filename and "_bootstrap" in filename


def _warn(message: str) -> None:
    """Warn at the line that used the old path, past the frames of this module and of the import machinery."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and (
        frame.f_code.co_filename == __file__
        or _internal(frame.f_code.co_filename)
        or frame.f_code.co_filename.startswith(_IMPORTLIB)
        or frame.f_code.co_name == "__getattr__"
    ):
        frame = frame.f_back
        if not _internal(frame.f_code.co_filename):
            level += 1
    warnings.warn(message, DeprecationWarning, stacklevel=level)


def moved_attribute(package: str, name: str) -> object:
    """The value of ``package.name`` where ``name`` moved into a game's package, with a warning naming it there.

    A shared package's module ``__getattr__`` calls this for a name it does not have: a name of
    :data:`MOVED_ATTRIBUTES`, or a module of :data:`MOVED_MODULES` (``cheekymonkey.engine`` after ``import
    cheekymonkey``).

    Raises:
        AttributeError: If ``name`` is not one that moved, as for any missing attribute.
    """
    if f"{package}.{name}" in MOVED_MODULES:
        # A module that moved, asked for as an attribute of its old package: imported by its old path.
        return importlib.import_module(f"{package}.{name}")
    target = MOVED_ATTRIBUTES.get(package, {}).get(name)
    if target is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module, _, new_name = target.partition(":")
    new_name = new_name or name
    _warn(f"{package}.{name} has moved: import it as {module}.{new_name}")
    value = getattr(importlib.import_module(module), new_name)
    # Kept on the old package, so that it warns once, as an old module path does once it is imported.
    setattr(sys.modules[package], name, value)
    return value


class _Alias(importlib.abc.Loader):
    """Loads an old module path as the module at its new path: the same object under both names."""

    def __init__(self, old: str, new: str) -> None:
        self.old = old
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system gave the module the old path's spec; it keeps its own, which names where it is.
        module.__spec__ = self.spec
        _warn(f"the module {self.old} has moved: import {self.new}")


class _Finder(importlib.abc.MetaPathFinder):
    """Finds an old module path of :data:`MOVED_MODULES`, ahead of every other finder."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED_MODULES.get(fullname)
        parent, _, child = fullname.rpartition(".")
        if new is None and parent in MOVED_MODULES:
            # A module inside a package that moved (cheekymonkey.bots.learned): the one inside the new package.
            new = f"{MOVED_MODULES[parent]}.{child}"
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(fullname, new))


def install() -> None:
    """Put the finder first on :data:`sys.meta_path`, once."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
