"""JSON documents for a game that describes none of its own: values written as they are built, read back checked.

:meth:`BaseGame.documents() <cheekymonkey.base.BaseGame.documents>` gives them by default; a game with a
codec of its own (both built-in games) overrides it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Sequence
from enum import Enum
from fractions import Fraction
from typing import Any, Final, Protocol

import attrs

from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.serialization._parsing import parse, too_deep, value_depth
from cheekymonkey.serialization.codec import check_replay
from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.limits import LIMITS

__all__ = ["GenericDocuments"]


class _Game(Protocol):
    """What :class:`GenericDocuments` needs of its game: its name, and its records."""

    @property
    def name(self) -> str:
        """The game's name, the documents' format name."""
        ...

    def record(
        self,
        ruleset: Any,
        players: int,
        first_player: int,
        actions: Sequence[Any],
        *,
        seed: int | None = None,
        names: Sequence[str] = (),
        bots: Sequence[str] = (),
        quit_by: int | None = None,
    ) -> Any:
        """A record of the game."""
        ...


_RECORD_FIELDS: Final = ("players", "first_player", "seed", "names", "bots", "quit_by")


class GenericDocuments:
    """JSON documents for a game that has no codec of its own, as the base class gives them by default.

    Every value is a document ``{"format": "<game>/1", "kind": "value", "value": ...}`` and a record one of kind
    ``"record"``. A value is written as it is built: numbers, strings, booleans and None as themselves, tuples
    as lists, a :class:`~fractions.Fraction` as ``{"fraction": "1/6"}``, an enum member as ``{"enum":
    "module:Class", "name": ...}``, an attrs class or a dataclass as ``{"type": "module:Class", "fields":
    {...}}``. Reading back imports a class only from the game's own top-level package (or
    :mod:`cheekymonkey.base`), and builds it through its own constructor, so its own checks run; a record is
    replayed before it is returned. Any problem raises
    :class:`~cheekymonkey.serialization.DocumentError`. They need the ``json`` extra, as every game's do.

    A value with the kind of document a caller expects (``from_document(doc, "action")``) may come without
    its header, as a front end sends back one of the legal actions it was shown.

    Args:
        game: The game whose values the documents hold.
    """

    __slots__ = ("_game", "_packages")

    kinds: Final = ("value", "record")
    """The document kinds: every value but a record, and a record."""

    def __init__(self, game: _Game) -> None:
        self._game = game
        top = type(game).__module__.partition(".")[0]
        self._packages = (top, "cheekymonkey.base")

    @property
    def format(self) -> str:
        """``"<game's name>/1"``."""
        return f"{self._game.name}/1"

    # -- writing ---------------------------------------------------------------------------------------

    def _write(self, value: object) -> object:
        if value is None or isinstance(value, bool | int | str | float):
            return value
        if isinstance(value, tuple | list):
            return [self._write(item) for item in value]
        if isinstance(value, Fraction):
            return {"fraction": str(value)}
        if isinstance(value, Enum):
            return {"enum": _where(type(value)), "name": value.name}
        if isinstance(value, frozenset):
            return {"frozenset": sorted((self._write(item) for item in value), key=repr)}
        if isinstance(value, dict):
            return {"dict": [[self._write(k), self._write(v)] for k, v in value.items()]}
        fields = _fields_of(type(value))
        if fields is None:
            raise _error(None, "$", f"a {type(value).__name__} cannot be written in a generic document")
        return {"type": _where(type(value)), "fields": {name: self._write(getattr(value, name)) for name in fields}}

    def to_document(self, value: Any) -> dict[str, Any]:
        """``value`` as a JSON-ready dictionary with its header (a record as kind ``"record"``)."""
        header = {"format": self.format}
        if _is_record(value):
            body = {name: self._write(getattr(value, name)) for name in _RECORD_FIELDS}
            return {**header, "kind": "record", **body, "ruleset": self._write(value.ruleset),
                    "actions": [self._write(action) for action in value.actions]}  # fmt: skip
        return {**header, "kind": "value", "value": self._write(value)}

    def dumps(self, value: Any, *, indent: int | None = None) -> str:
        """``value`` as JSON text, keys sorted."""
        return json.dumps(self.to_document(value), indent=indent, sort_keys=True, allow_nan=False)

    # -- reading ---------------------------------------------------------------------------------------

    def _class(self, where: object, path: str) -> type:
        if not isinstance(where, str) or ":" not in where:
            raise _error(None, path, f"{where!r} names no class (module:Class)")
        module_name, _, qualname = where.partition(":")
        if not any(module_name == p or module_name.startswith(p + ".") for p in self._packages):
            raise _error(None, path, f"{where!r} is not a class of the game {self._game.name!r}")
        try:
            found: object = importlib.import_module(module_name)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError) as problem:
            raise _error(None, path, f"{where!r} names no class: {problem}") from None
        if not isinstance(found, type):
            raise _error(None, path, f"{where!r} is not a class")
        return found

    def _read(self, value: object, path: str) -> object:
        if value is None or isinstance(value, bool | int | str | float):
            return value
        if isinstance(value, list):
            return tuple(self._read(item, f"{path}[{i}]") for i, item in enumerate(value))
        if not isinstance(value, dict):
            raise _error(None, path, f"{value!r} is no value")
        try:
            if value.keys() == {"fraction"} and isinstance(value["fraction"], str):
                return Fraction(value["fraction"])
            if value.keys() == {"frozenset"} and isinstance(value["frozenset"], list):
                return frozenset(self._read(item, path) for item in value["frozenset"])
            if value.keys() == {"dict"} and isinstance(value["dict"], list):
                return {self._read(k, path): self._read(v, path) for k, v in value["dict"]}
            if value.keys() == {"enum", "name"}:
                cls = self._class(value["enum"], f"{path}.enum")
                if not issubclass(cls, Enum) or not isinstance(value["name"], str):
                    raise _error(None, path, f"{value['enum']!r} is not an enum")
                return cls[value["name"]]
            if value.keys() == {"type", "fields"} and isinstance(value["fields"], dict):
                cls = self._class(value["type"], f"{path}.type")
                fields = _fields_of(cls)
                if fields is None:
                    raise _error(None, path, f"{value['type']!r} is neither an attrs class nor a dataclass")
                given = value["fields"]
                unknown = sorted(set(given) - set(fields))
                if unknown:
                    raise _error(None, f"{path}.fields", f"unknown fields {unknown}")
                args = {fields[name]: self._read(item, f"{path}.fields.{name}") for name, item in given.items()}
                return cls(**args)
        except (KeyError, TypeError, ValueError) as problem:  # a constructor's own check, an unknown member
            if isinstance(problem, DocumentError):
                raise
            raise _error(None, path, f"{type(problem).__name__}: {problem}") from None
        raise _error(None, path, f"{sorted(value)!r} is no value")

    def from_document(self, document: object, kind: str | None = None) -> Any:
        """The value of a document, checked (a record replayed); a value may come without its header.

        Raises:
            DocumentError: If the document is not this game's, or its value cannot be built.
        """
        if value_depth(document, LIMITS.max_depth) > LIMITS.max_depth:
            raise too_deep(kind, LIMITS)
        if not isinstance(document, dict):
            raise _error(kind, "$", "a document must be a JSON object")
        if kind != "record" and "format" not in document and "kind" not in document and "value" in document:
            return self._read(document["value"], "$.value")
        if document.get("format") != self.format:
            raise _error(kind, "$.format", f"format {document.get('format')!r} is not {self.format!r}")
        declared = document.get("kind")
        if declared not in self.kinds or (kind == "record") != (declared == "record"):
            raise _error(kind, "$.kind", f"kind {declared!r} is not {'record' if kind == 'record' else 'value'!r}")
        if declared == "value":
            if document.keys() != {"format", "kind", "value"}:
                raise _error(kind, "$", "a value document holds format, kind and value")
            return self._read(document["value"], "$.value")
        return self._record(document)

    def _record(self, document: dict[str, Any]) -> Any:
        expected = {"format", "kind", "ruleset", "actions", *_RECORD_FIELDS}
        if document.keys() - {"quit_by"} != expected - {"quit_by"}:
            # quit_by came later: a record without it is one nobody quit (as the built-in codecs read it)
            raise _error("record", "$", f"a record holds {sorted(expected)} (quit_by may be left out)")
        actions = document["actions"]
        if not isinstance(actions, list):
            raise _error("record", "$.actions", "the actions are a list")
        fields = {name: self._read(document.get(name), f"$.{name}") for name in _RECORD_FIELDS}
        try:
            record = self._game.record(
                self._read(document["ruleset"], "$.ruleset"),
                fields["players"],  # type: ignore[arg-type]
                fields["first_player"],  # type: ignore[arg-type]
                [self._read(action, f"$.actions[{i}]") for i, action in enumerate(actions)],
                seed=fields["seed"],  # type: ignore[arg-type]
                names=fields["names"],  # type: ignore[arg-type]
                bots=fields["bots"],  # type: ignore[arg-type]
                quit_by=fields["quit_by"],  # type: ignore[arg-type]
            )
        except CheekyMonkeyError as problem:
            if isinstance(problem, DocumentError):
                raise
            raise _error("record", "$", str(problem)) from None
        try:
            check_replay(record)
        except DocumentError as problem:
            raise _error("record", problem.path, problem.reason) from None
        return record

    def loads(self, text: str | bytes, kind: str | None = None) -> Any:
        """The value of a JSON document, checked (within the default limits)."""
        return self.from_document(parse(text, kind, LIMITS), kind)

    def __repr__(self) -> str:
        return f"GenericDocuments({self.format!r})"


def _where(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _fields_of(cls: type) -> dict[str, str] | None:
    """The fields of an attrs class or a dataclass, each to the argument its constructor takes it by."""
    if attrs.has(cls):
        return {f.name: f.alias or f.name for f in attrs.fields(cls) if f.init}
    if dataclasses.is_dataclass(cls):
        return {f.name: f.name for f in dataclasses.fields(cls) if f.init}
    return None


def _is_record(value: object) -> bool:
    return all(hasattr(value, name) for name in ("ruleset", "actions", "start", "states", *_RECORD_FIELDS))


def _error(kind: str | None, path: str, reason: str) -> DocumentError:
    return DocumentError(kind, [(path, reason)])
