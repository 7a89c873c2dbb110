"""The JSON Schema (draft 2020-12) of every document kind, shipped with the package.

Front ends in other languages can validate documents against these files before sending them:
``cheekymonkey/schema/<kind>.schema.json`` for each kind in :data:`SCHEMA_KINDS`. They are generated
from the value types by :mod:`cheekymonkey.schema.generate` (``python -m cheekymonkey.schema`` writes
them), and a test checks that the shipped files equal freshly generated ones.

Reading a shipped schema needs nothing beyond the standard library:

>>> load_schema("action")["title"]
'cheekymonkey/1 action document'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

__all__ = ["SCHEMA_KINDS", "load_schema", "schema_filename"]

SCHEMA_KINDS: Final = ("state", "action", "ruleset", "event", "view", "score", "record")
"""The document kinds, each with a schema file (the same as ``cheekymonkey.serialization.KINDS``)."""


def schema_filename(kind: str) -> str:
    """The file name of ``kind``'s schema inside this package, for example ``"state.schema.json"``."""
    return f"{kind}.schema.json"


def load_schema(kind: str) -> dict[str, Any]:
    """The shipped JSON Schema of the ``kind`` documents, as a dict.

    Raises:
        ValueError: If ``kind`` is not a document kind.
    """
    if kind not in SCHEMA_KINDS:
        raise ValueError(f"no schema for kind {kind!r}; the kinds are {', '.join(SCHEMA_KINDS)}")
    text = resources.files(__name__).joinpath(schema_filename(kind)).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
