"""Any Cheeky Monkey document: a value to its JSON document and text, and back, every part checked.

The work is the :class:`~cheekymonkey.serialization.codec.DocumentCodec` every game's documents share, with
Cheeky Monkey's format (:data:`~cheekymonkey.serialization.format.DOCUMENT_FORMAT`) and checks
(:mod:`._checks`); these functions keep their own names and types.
"""

from __future__ import annotations

from typing import Any, Final, cast

from cheekymonkey.serialization._checks import check_value
from cheekymonkey.serialization.codec import DocumentCodec
from cheekymonkey.serialization.format import DOCUMENT_FORMAT, Document, Kind
from cheekymonkey.serialization.limits import LIMITS, Limits

__all__ = ["CODEC", "dumps", "from_document", "loads", "to_document"]

CODEC: Final = DocumentCodec.of(DOCUMENT_FORMAT, cast(Any, check_value))
"""Cheeky Monkey's documents, made as every game's are: the :class:`~cheekymonkey.game.Documents` of
:data:`~cheekymonkey.CHEEKY_MONKEY`. The functions of this package are its typed face."""


def to_document(value: Document) -> dict[str, Any]:
    """The JSON document of ``value`` as plain dicts and lists, ready for ``json.dumps`` or a web framework.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.

    Returns:
        A dict with ``format``, ``kind`` and the value's fields.

    Raises:
        TypeError: If ``value`` is none of those.
        ValueError: If ``value`` is a record whose seed is beyond :data:`MAX_INTEGER`, which no document holds.
    """
    return CODEC.to_document(value)


def dumps(value: Document, *, indent: int | None = None) -> str:
    """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.
        indent: Indent nested levels by this many spaces; None for one line.

    Raises:
        TypeError: If ``value`` has no document kind.
    """
    return CODEC.dumps(value, indent=indent)


def from_document(document: object, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """The value held by an already-parsed JSON document (plain dicts and lists), fully checked.

    Args:
        document: The parsed document.
        kind: The kind of document expected, or None to accept any kind. An ``action`` may come without
            its ``format`` and ``kind``, as a view lists them.
        limits: How deep the document may nest and how long a record may be (the size of text is
            checked by :func:`loads`).

    Returns:
        The state, action, rule set, event, view, score sheet or record the document holds.

    Raises:
        DocumentError: If the document is malformed, of another kind or a newer format, holds a value
            that breaks an invariant, or is over a limit; it names the problem and its JSON path.
    """
    value: Document = CODEC.from_document(document, kind, limits=limits)
    return value


def loads(text: str | bytes, kind: Kind | None = None, *, limits: Limits = LIMITS) -> Document:
    """Parse JSON text into the value its document holds, fully checked.

    Args:
        text: The JSON text (bytes must be UTF-8).
        kind: The kind of document expected, or None to accept any kind.
        limits: The size, nesting and record length to refuse beyond; :data:`LIMITS` by default.

    Raises:
        DocumentError: As :func:`from_document`, and for text that is not JSON (truncated, say) or over
            the size limit.
    """
    value: Document = CODEC.loads(text, kind, limits=limits)
    return value
