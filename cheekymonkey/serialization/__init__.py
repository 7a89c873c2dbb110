"""JSON documents for states, actions, rule sets, events, views, score sheets and game records.

Every document is a JSON object with a ``format`` (``"cheekymonkey/1"``) and a ``kind`` beside the
value's own fields, written with sorted keys. Animals and phases are lowercase names; a count per
animal (the bag, a rule set's counts) is an object keyed by animal name. For example, an action::

    {"format": "cheekymonkey/1", "kind": "action", "seat": 2, "type": "claim"}

Loading checks everything: the JSON itself, the format version, the kind, every field's type, unknown
fields, and then the value's own invariants (a state goes through :class:`~cheekymonkey.GameState`'s
validating constructor; a record is replayed; a score sheet must add up). Any problem raises one error
type, :class:`DocumentError`, naming the problem and where in the document it is.

This module needs the ``json`` extra (``pip install 'cheekymonkey[json]'``) for cattrs. The JSON Schema of
every document kind ships in :mod:`cheekymonkey.schema`.

>>> from cheekymonkey import new_game
>>> text = dumps(new_game(2))
>>> loads(text, "state") == new_game(2)
True
>>> loads('{"format": "cheekymonkey/9", "kind": "state"}')
Traceback (most recent call last):
    ...
cheekymonkey.serialization.DocumentError: invalid document at $.format: format 'cheekymonkey/9' is newer than ...
"""

try:
    import cattrs as _cattrs  # noqa: F401 (the documents need it: say which extra brings it, not a bare error)
except ImportError as _error:  # pragma: no cover - tested in a process without cattrs
    raise ImportError(
        "cheekymonkey.serialization needs cattrs, from the json extra: pip install 'cheekymonkey[json]'"
        " (or, in a clone of the repository: pip install '.[json]')",
        name=_error.name,
    ) from _error

from cheekymonkey.serialization.documents import dumps, from_document, loads, to_document
from cheekymonkey.serialization.errors import DocumentError
from cheekymonkey.serialization.format import ACTION_TAGS as ACTION_TAGS
from cheekymonkey.serialization.format import BOUNDS as BOUNDS
from cheekymonkey.serialization.format import DOCUMENT_TYPES as DOCUMENT_TYPES
from cheekymonkey.serialization.format import EVENT_TAGS as EVENT_TAGS
from cheekymonkey.serialization.format import FORMAT, KINDS, MAX_INTEGER, Document, Kind
from cheekymonkey.serialization.format import FORMAT_NAME as FORMAT_NAME
from cheekymonkey.serialization.format import FORMAT_VERSION as FORMAT_VERSION
from cheekymonkey.serialization.format import PER_ANIMAL as PER_ANIMAL
from cheekymonkey.serialization.format import SIGNED as SIGNED
from cheekymonkey.serialization.format import TAG_FIELD as TAG_FIELD
from cheekymonkey.serialization.kinds import (
    dump_action,
    dump_event,
    dump_record,
    dump_ruleset,
    dump_score,
    dump_state,
    dump_view,
    load_action,
    load_event,
    load_record,
    load_ruleset,
    load_score,
    load_state,
    load_view,
)
from cheekymonkey.serialization.limits import LIMITS, Limits

__all__ = [
    "FORMAT",
    "KINDS",
    "LIMITS",
    "MAX_INTEGER",
    "Document",
    "DocumentError",
    "Kind",
    "Limits",
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
]
