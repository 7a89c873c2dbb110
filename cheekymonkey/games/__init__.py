"""Every game the library plays, by name, each a :class:`~cheekymonkey.game.Game`, found as a plug-in.

A game registers itself in the entry-point group ``cheekymonkey.games`` of its distribution's metadata: the
name it is played by, and the object that binds its engine. The two games this library ships register there
exactly as a game in a package of its own would (``pyproject.toml``)::

    [project.entry-points."cheekymonkey.games"]
    cheeky-monkey = "cheekymonkey.cheeky.game:CHEEKY_MONKEY"
    too-many-monkeys = "cheekymonkey.toomany.game:TOO_MANY_MONKEYS"

A front end that lets its user pick the game asks here; it never imports an engine, and nothing lists the
games by hand: names, document formats, schemas, page drawings, proofs, bots and encodings all come from the
games found here.

>>> game_named("cheeky-monkey").title
'Cheeky Monkey'
>>> registry().names[0] == DEFAULT_GAME == "cheeky-monkey"
True

Each game's JSON documents carry their own format name, so a program given a document (a saved record, say)
asks :func:`game_of_document` which game reads it:

>>> game_of_document('{"format": "too-many-monkeys/1", "kind": "action", "type": "draw"}').name
'too-many-monkeys'

A plug-in that cannot be loaded (its module fails to import, its object is not a game, or two distributions
claim one name) is left out with one line on the ``cheekymonkey.games`` log, and the other games play on;
asked for by name, it raises :class:`~cheekymonkey.errors.InvalidValueError` saying why.
"""

from __future__ import annotations

import importlib.metadata
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game

__all__ = [
    "DEFAULT_GAME",
    "DOCUMENT_FORMATS",
    "ENTRY_POINT_GROUP",
    "GAME_NAMES",
    "AnyGame",
    "EntryPoint",
    "Registry",
    "document_format_name",
    "game_named",
    "game_of_document",
    "games",
    "registry",
]

AnyGame = Game[Any, Any, Any, Any, Any]
"""A game of any types, as the layers written for every game hold it."""

ENTRY_POINT_GROUP: Final = "cheekymonkey.games"
"""The entry-point group a game registers in: the entry point's name is the game's, its object the game."""

DEFAULT_GAME: Final = "cheeky-monkey"
"""The game played when none is named."""

_LOG: Final = logging.getLogger("cheekymonkey.games")


class EntryPoint(Protocol):
    """What the registry reads of an entry point (:class:`importlib.metadata.EntryPoint` has it)."""

    @property
    def name(self) -> str:
        """The game's name."""
        ...

    @property
    def value(self) -> str:
        """Where its object is: ``module:attribute``."""
        ...

    def load(self) -> Any:
        """Import the module and return the object."""
        ...


def _where(entry: EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    name = getattr(dist, "name", None)
    return f"{entry.value!r}" + (f" of the distribution {name!r}" if name else "")


class Registry:
    """The games of some entry points: their names at once, each game loaded the first time it is needed.

    The library keeps one, of the installed entry points (:func:`registry`); a test builds its own.

    Args:
        entry_points: The entry points of the group (``importlib.metadata.entry_points(group=...)``).
        report: Called with the one line that says why a plug-in was left out (by default, the
            ``cheekymonkey.games`` log, as a warning).
    """

    def __init__(self, entry_points: Iterable[EntryPoint], report: Callable[[str], None] | None = None) -> None:
        self._report = report or _LOG.warning
        by_name: dict[str, list[EntryPoint]] = {}
        for entry in entry_points:
            by_name.setdefault(entry.name, []).append(entry)
        self._entries: dict[str, EntryPoint] = {}
        self._broken: dict[str, str] = {}
        for name, entries in by_name.items():
            if len(entries) == 1:
                self._entries[name] = entries[0]
            else:
                where = " and ".join(_where(entry) for entry in entries)
                self._fail(name, f"the game name {name!r} is registered {len(entries)} times ({where})")
        self._loaded: dict[str, AnyGame] = {}
        self._names: tuple[str, ...] | None = None

    def _fail(self, name: str, reason: str) -> None:
        if name not in self._broken:
            self._broken[name] = reason
            self._report(f"cheekymonkey: the game {name!r} is left out: {reason}")

    def _load(self, name: str) -> AnyGame | None:
        if name in self._loaded:
            return self._loaded[name]
        entry = self._entries.get(name)
        if entry is None or name in self._broken:
            return None
        try:
            game = entry.load()
        except Exception as error:  # a plug-in's import can fail in any way; it must not stop the others
            self._fail(name, f"{_where(entry)} cannot be loaded: {type(error).__name__}: {error}")
            return None
        if not isinstance(game, Game):
            self._fail(name, f"{_where(entry)} is {game!r}, not a game (cheekymonkey.game.Game)")
            return None
        if game.name != name:
            self._fail(name, f"{_where(entry)} is the game {game.name!r}: a game registers under its own name")
            return None
        self._loaded[name] = game
        return game

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the games that load, :data:`DEFAULT_GAME` first, then in alphabetical order."""
        if self._names is None:
            found = [name for name in sorted(self._entries) if self._load(name) is not None]
            self._names = tuple(sorted(found, key=lambda name: name != DEFAULT_GAME))
        return self._names

    def game(self, name: str) -> AnyGame:
        """The game called ``name``.

        Raises:
            InvalidValueError: If no game has that name, or its plug-in cannot be loaded (saying why).
        """
        game = self._load(name) if isinstance(name, str) else None
        if game is not None:
            return game
        if isinstance(name, str) and name in self._broken:
            raise InvalidValueError(f"no game named {name!r} can be played: {self._broken[name]}")
        names = ", ".join(self.names) or "none (is cheekymonkey installed? its games register when it is)"
        raise InvalidValueError(f"no game named {name!r}; the games are {names}")

    def games(self) -> tuple[AnyGame, ...]:
        """Every game that loads, in the order of :attr:`names`."""
        return tuple(self.game(name) for name in self.names)


_REGISTRY: list[Registry] = []


def registry() -> Registry:
    """The registry of the installed games (the entry points of :data:`ENTRY_POINT_GROUP`), read once."""
    if not _REGISTRY:
        _REGISTRY.append(Registry(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)))
    return _REGISTRY[0]


def game_named(name: str) -> AnyGame:
    """The game called ``name``, one of :data:`GAME_NAMES`.

    Raises:
        InvalidValueError: If there is no game of that name, or its plug-in cannot be loaded.
    """
    return registry().game(name)


def games() -> tuple[AnyGame, ...]:
    """Every installed game that loads, the default first."""
    return registry().games()


def document_format_name(game: AnyGame) -> str:
    """The format name of ``game``'s documents, before the version: ``"cheekymonkey"`` for Cheeky Monkey.

    Raises:
        ImportError: If the ``json`` extra is not installed (the documents need it).
    """
    return game.documents().format.partition("/")[0]


def _document_formats() -> dict[str, str]:
    return {document_format_name(game): game.name for game in games()}


def game_of_document(document: object) -> AnyGame:
    """The game a JSON document belongs to, by the format name in its ``format`` field.

    Only the header is read: the game's own loader (``game.documents().loads``) then checks the version,
    the kind and everything else.

    Args:
        document: The document as JSON text (``str`` or UTF-8 ``bytes``, read within the default
            :class:`~cheekymonkey.serialization.Limits`) or already parsed (a ``dict``).

    Raises:
        DocumentError: If the text is not JSON, the document is not an object, or its ``format`` is no
            game's (an action without its header, as a view lists it, names no game either).
        ImportError: If the ``json`` extra is not installed (text is read with the documents' parser).
    """
    from cheekymonkey.serialization._parsing import parse
    from cheekymonkey.serialization.errors import DocumentError, describe
    from cheekymonkey.serialization.limits import LIMITS

    parsed = parse(document, None, LIMITS) if isinstance(document, str | bytes) else document
    if not isinstance(parsed, dict):
        raise DocumentError(None, [("$", f"a document must be a JSON object, got {describe(parsed)}")])
    if "format" not in parsed:
        raise DocumentError(None, [("$", "no 'format' field: the document names no game")])
    declared = parsed["format"]
    name = declared.partition("/")[0] if isinstance(declared, str) else None
    formats = _document_formats()
    if name not in formats:
        listed = ", ".join(f"{fmt}/..." for fmt in formats)
        reason = f"format {describe(declared)} is no game's; the formats are {listed}"
        raise DocumentError(None, [("$.format", reason)])
    return game_named(formats[name])


if TYPE_CHECKING:
    # Computed when first asked for (see __getattr__ below); declared here for the type checker and the docs.
    GAME_NAMES: tuple[str, ...]
    """The names of the games that load, :data:`DEFAULT_GAME` first, then in alphabetical order
    (:attr:`Registry.names` of the installed games)."""
    DOCUMENT_FORMATS: dict[str, str]
    """Each game's document format name (the ``format`` field of its documents, before the version), to the
    game's name: Cheeky Monkey's documents, the library's first, are ``"cheekymonkey/1"``. It needs the
    ``json`` extra."""


def __getattr__(name: str) -> object:
    # Computed when first asked for: reading the entry points and loading the games waits until a program
    # needs them.
    if name == "GAME_NAMES":
        return registry().names
    if name == "DOCUMENT_FORMATS":
        return _document_formats()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
