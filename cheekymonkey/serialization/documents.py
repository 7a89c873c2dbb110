"""Any document: a value to its JSON document and text, and back, every part checked."""

from __future__ import annotations

import json
import re
from typing import Any, Final, cast

import cattrs

from cheekymonkey.actions import Action
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.events import Event
from cheekymonkey.records import GameRecord
from cheekymonkey.serialization._checks import check_value
from cheekymonkey.serialization._converter import CONVERTER, problems
from cheekymonkey.serialization._parsing import parse, too_deep, value_depth
from cheekymonkey.serialization.errors import BadValue, DocumentError, describe
from cheekymonkey.serialization.format import (
    DOCUMENT_TYPES,
    FORMAT,
    FORMAT_NAME,
    FORMAT_VERSION,
    KINDS,
    MAX_INTEGER,
    Document,
    Kind,
)
from cheekymonkey.serialization.limits import LIMITS, Limits

__all__ = ["dumps", "from_document", "loads", "to_document"]

# A version is a plain decimal number: no sign, no leading zero (as the schema's constant says for version 1).
_FORMAT_PATTERN: Final = re.compile(rf"{FORMAT_NAME}/(0|[1-9][0-9]{{0,8}})")
_HEADER: Final = ("format", "kind")


def _kind_of(value: object) -> Kind:
    for kind, types in DOCUMENT_TYPES.items():
        if isinstance(value, types):
            return kind
    raise TypeError(f"{describe(value)} has no JSON document; documents hold {', '.join(KINDS)}")


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
    kind = _kind_of(value)
    if isinstance(value, GameRecord) and value.seed is not None and abs(value.seed) > MAX_INTEGER:
        # Refused here rather than written into a record that no loader would take back.
        raise ValueError(f"the record's seed {describe(value.seed)} is too large for a document (2**53 - 1 at most)")
    if kind == "action":
        body: dict[str, Any] = CONVERTER.unstructure(value, unstructure_as=Action)
    elif kind == "event":
        body = CONVERTER.unstructure(value, unstructure_as=Event)
    else:
        body = CONVERTER.unstructure(value, unstructure_as=value.__class__)
    return {"format": FORMAT, "kind": kind, **body}


def dumps(value: Document, *, indent: int | None = None) -> str:
    """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

    Args:
        value: A state, action, rule set, event, table view, score sheet or game record.
        indent: Indent nested levels by this many spaces; None for one line.

    Raises:
        TypeError: If ``value`` has no document kind.
    """
    return json.dumps(to_document(value), sort_keys=True, indent=indent, ensure_ascii=False)


def _check_header(document: object, kind: Kind | None) -> tuple[Kind, dict[str, Any]]:
    if not isinstance(document, dict):
        raise DocumentError(kind, [("$", f"a document must be a JSON object, got {describe(document)}")])
    if kind == "action" and not any(key in document for key in _HEADER):
        # A view offers its legal actions without the header, and a client may post one back as it is:
        # an action is the same with or without the header (the action schema says so too).
        return "action", document
    declared = document.get("format")
    if "format" not in document:
        raise DocumentError(kind, [("$", f"no 'format' field: not a {FORMAT_NAME} document")])
    match = _FORMAT_PATTERN.fullmatch(declared) if isinstance(declared, str) else None
    if match is None:
        raise DocumentError(kind, [("$.format", f"format {describe(declared)} is not {FORMAT!r}")])
    version = int(match.group(1))
    if version > FORMAT_VERSION:
        reason = f"format {declared!r} is newer than this library reads ({FORMAT!r}): upgrade cheekymonkey"
        raise DocumentError(kind, [("$.format", reason)])
    if version != FORMAT_VERSION:
        raise DocumentError(kind, [("$.format", f"format {declared!r} is not {FORMAT!r}")])
    declared_kind = document.get("kind")
    if declared_kind not in KINDS:
        raise DocumentError(kind, [("$.kind", f"kind {describe(declared_kind)} is not one of {', '.join(KINDS)}")])
    if kind is not None and declared_kind != kind:
        raise DocumentError(kind, [("$.kind", f"expected a {kind} document, got a {declared_kind} document")])
    body = {k: v for k, v in document.items() if k not in _HEADER}
    return cast(Kind, declared_kind), body


def _structure(kind: Kind, body: dict[str, Any]) -> Document:
    target: Any
    if kind == "action":
        target = Action
    elif kind == "event":
        target = Event
    else:
        (target,) = DOCUMENT_TYPES[kind]
    try:
        value: Document = CONVERTER.structure(body, target)
    except (cattrs.BaseValidationError, BadValue, CheekyMonkeyError, KeyError, TypeError, ValueError) as error:
        raise DocumentError(kind, problems(error)) from error
    check_value(kind, value)
    return value


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
    if value_depth(document, limits.max_depth) > limits.max_depth:
        raise too_deep(kind, limits)
    declared, body = _check_header(document, kind)
    actions = body.get("actions") if declared == "record" else None
    if isinstance(actions, list) and len(actions) > limits.max_actions:
        reason = f"{len(actions)} actions, over the limit of {limits.max_actions} a record may hold"
        raise DocumentError(declared, [("$.actions", reason)])
    return _structure(declared, body)


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
    return from_document(parse(text, kind, limits), kind, limits=limits)
