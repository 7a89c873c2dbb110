"""JSON documents, for any game: the machinery every game's documents are made with.

A game describes its documents as data (:class:`~cheekymonkey.serialization.spec.DocumentFormat`: the
format tag, the kinds, how each field is written) and its own checks; a
:class:`~cheekymonkey.serialization.codec.DocumentCodec` joins the two, and gives the game's
:class:`~cheekymonkey.documents.Documents`. Every document is a JSON object with a ``format`` (the game's
format name and version, ``"cheekymonkey/1"``) and a ``kind`` beside the value's own fields, written with
sorted keys. Loading checks everything: the size and nesting of the text (:class:`Limits`), the JSON itself,
the format version, the kind, every field's type, unknown fields, and then the value's own invariants. Any
problem raises one error type, :class:`DocumentError`, naming the problem and where in the document it is.

Each game's documents are in its own package: Cheeky Monkey's in :mod:`cheekymonkey.cheeky.documents`,
Too Many Monkeys' in :mod:`cheekymonkey.toomany.documents`; :func:`cheekymonkey.games.game_of_document`
tells which game a document is of.

This package needs the ``json`` extra (``pip install 'cheekymonkey[json]'``) for cattrs. The JSON Schema of
every document kind of every game ships in the game's package (:mod:`cheekymonkey.schema`).

>>> from cheekymonkey import new_game
>>> from cheekymonkey.cheeky.documents import dumps, loads
>>> loads(dumps(new_game(2)), "state") == new_game(2)
True
"""

try:
    import cattrs as _cattrs  # noqa: F401 (the documents need it: say which extra brings it, not a bare error)
except ImportError as _error:  # pragma: no cover - tested in a process without cattrs
    raise ImportError(
        "cheekymonkey.serialization needs cattrs, from the json extra: pip install 'cheekymonkey[json]'"
        " (or, in a clone of the repository: pip install '.[json]')",
        name=_error.name,
    ) from _error

from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.limits import LIMITS, Limits
from cheekymonkey.serialization.spec import MAX_INTEGER

__all__ = ["LIMITS", "MAX_INTEGER", "DocumentError", "Limits"]
