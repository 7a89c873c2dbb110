"""Every game the library plays, by name, each a :class:`~cheekymonkey.game.Game`.

A front end that lets its user pick the game asks here; it never imports an engine. Each game's binding is
imported the first time it is asked for, so a program that plays one game never loads the others.

>>> game_named("cheeky-monkey").title
'Cheeky Monkey'
>>> GAME_NAMES[0], DEFAULT_GAME
('cheeky-monkey', 'cheeky-monkey')

Each game's JSON documents carry their own format name, so a program given a document (a saved record, say)
asks :func:`game_of_document` which game reads it:

>>> game_of_document('{"format": "too-many-monkeys/1", "kind": "action", "type": "draw"}').name
'too-many-monkeys'
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game

__all__ = [
    "DEFAULT_GAME",
    "DOCUMENT_FORMATS",
    "GAME_NAMES",
    "PROOF_MODULES",
    "AnyGame",
    "game_named",
    "game_of_document",
]

AnyGame = Game[Any, Any, Any, Any, Any]
"""A game of any types, as the layers written for every game hold it."""

_BINDINGS: Final[dict[str, tuple[str, str]]] = {
    "cheeky-monkey": ("cheekymonkey.games.cheeky_monkey", "CHEEKY_MONKEY"),
    "too-many-monkeys": ("cheekymonkey.toomany.game", "TOO_MANY_MONKEYS"),
}

GAME_NAMES: Final[tuple[str, ...]] = tuple(_BINDINGS)
"""The games' names, the default first."""

DOCUMENT_FORMATS: Final[dict[str, str]] = {"cheekymonkey": "cheeky-monkey", "too-many-monkeys": "too-many-monkeys"}
"""Each game's document format name (the ``format`` field of its documents, before the version), to the game's
name: Cheeky Monkey's documents, the library's first, are ``"cheekymonkey/1"``."""

DEFAULT_GAME: Final = "cheeky-monkey"
"""The game played when none is named."""

PROOF_MODULES: Final[dict[str, str]] = {
    "cheeky-monkey": "cheekymonkey.verify.command",
    "too-many-monkeys": "cheekymonkey.toomany.verify",
}
"""Where each game keeps its proofs (``cheekymonkey verify``): a module with
``command_line(preset, document, players, fail)``. The proofs need z3 (the ``verify`` extra), which no
binding may import, so they are found here by the game's name."""


def game_named(name: str) -> AnyGame:
    """The game called ``name``, one of :data:`GAME_NAMES`.

    Raises:
        InvalidValueError: If there is no game of that name.
    """
    binding = _BINDINGS.get(name) if isinstance(name, str) else None
    if binding is None:
        raise InvalidValueError(f"no game named {name!r}; the games are {', '.join(GAME_NAMES)}")
    module, attribute = binding
    game: AnyGame = getattr(importlib.import_module(module), attribute)
    return game


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
    if name not in DOCUMENT_FORMATS:
        formats = ", ".join(f"{fmt}/..." for fmt in DOCUMENT_FORMATS)
        reason = f"format {describe(declared)} is no game's; the formats are {formats}"
        raise DocumentError(None, [("$.format", reason)])
    return game_named(DOCUMENT_FORMATS[name])
