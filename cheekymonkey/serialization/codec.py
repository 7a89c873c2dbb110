"""Any game's documents, both ways: a value to its JSON document and text, and back, every part checked.

A :class:`DocumentCodec` joins a :class:`~cheekymonkey.serialization.spec.DocumentFormat`, the converter
built from it and the game's own checks of a value's invariants. Loading goes the same way for every game:
the size of the text, its nesting, the JSON itself (duplicate keys, huge numbers), the
header (:func:`check_header`), the length of a record, each field's type and unknown fields (the
converter), and then the game's checks. Any problem raises :class:`~cheekymonkey.serialization.DocumentError`
naming it and its JSON path. A codec is also a :class:`cheekymonkey.documents.Documents`, what a game binding
offers the layers above it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

import attrs
import cattrs

from cheekymonkey.errors import CheekyMonkeyError, ReplayError
from cheekymonkey.serialization._converter import check_lengths, make_converter, problems
from cheekymonkey.serialization._parsing import parse, too_deep, value_depth
from cheekymonkey.serialization.errors import BadValue, DocumentError, describe
from cheekymonkey.serialization.limits import LIMITS, Limits
from cheekymonkey.serialization.spec import MAX_INTEGER, DocumentFormat

__all__ = ["DocumentCodec", "check_header", "check_replay", "open_document"]

_HEADER: Final = ("format", "kind")


def _format_pattern(name: str) -> re.Pattern[str]:
    # A version is a plain decimal number: no sign, no leading zero (as the schema's constant says).
    return re.compile(rf"{re.escape(name)}/(0|[1-9][0-9]{{0,8}})")


_PATTERNS: Final[dict[str, re.Pattern[str]]] = {}


def check_header(document: object, kind: str | None, fmt: DocumentFormat) -> tuple[str, dict[str, Any]]:
    """Check a parsed document's ``format`` and ``kind``; return the kind and the fields without the header.

    A document of the :attr:`~cheekymonkey.serialization.spec.DocumentFormat.headerless` kind may come
    without both (a view lists its legal actions so, and a client may post one back as it is); with either,
    it needs both.

    Raises:
        DocumentError: If the document is not an object, has no format or another one (a newer version
            says so), or is not of ``kind`` (None: any kind of ``fmt``).
    """
    if not isinstance(document, dict):
        raise DocumentError(kind, [("$", f"a document must be a JSON object, got {describe(document)}")])
    if kind is not None and kind == fmt.headerless and not any(key in document for key in _HEADER):
        return kind, document
    declared = document.get("format")
    if "format" not in document:
        raise DocumentError(kind, [("$", f"no 'format' field: not a {fmt.name} document")])
    pattern = _PATTERNS.get(fmt.name)
    if pattern is None:
        pattern = _PATTERNS[fmt.name] = _format_pattern(fmt.name)
    match = pattern.fullmatch(declared) if isinstance(declared, str) else None
    if match is None:
        raise DocumentError(kind, [("$.format", f"format {describe(declared)} is not {fmt.text!r}")])
    version = int(match.group(1))
    if version > fmt.version:
        reason = f"format {declared!r} is newer than this library reads ({fmt.text!r}): upgrade cheekymonkey"
        raise DocumentError(kind, [("$.format", reason)])
    if version != fmt.version:
        raise DocumentError(kind, [("$.format", f"format {declared!r} is not {fmt.text!r}")])
    declared_kind = document.get("kind")
    if declared_kind not in fmt.kinds:
        reason = f"kind {describe(declared_kind)} is not one of {', '.join(fmt.kinds)}"
        raise DocumentError(kind, [("$.kind", reason)])
    if kind is not None and declared_kind != kind:
        raise DocumentError(kind, [("$.kind", f"expected a {kind} document, got a {declared_kind} document")])
    body = {k: v for k, v in document.items() if k not in _HEADER}
    return declared_kind, body


def open_document(
    document: object, kind: str | None, fmt: DocumentFormat, limits: Limits, *, depth_checked: bool = False
) -> tuple[str, dict[str, Any]]:
    """The checks before a document's fields are read: its header, the lengths of its lists, its nesting.

    The header and the lengths look at the document's top level only, so they come first: a document that a
    limit refuses there (a record of too many actions, a state of a million rows) is refused before its
    nesting is walked.

    Args:
        document: The parsed document.
        kind: The kind expected, or None for any kind.
        fmt: The game's document format.
        limits: The nesting and the record length to refuse beyond.
        depth_checked: Whether the nesting was checked already, on the text the document was parsed from
            (a loader that parses text does): then the value is not walked again.

    Returns:
        The document's kind and its fields without the header.

    Raises:
        DocumentError: If the document's header is wrong (:func:`check_header`), it is a record of more actions
            than ``limits`` allow, a list of it holds more or fewer items than its format allows
            (:attr:`~cheekymonkey.serialization.spec.DocumentFormat.lengths`), or it nests deeper than
            ``limits`` allow.
    """
    declared, body = check_header(document, kind, fmt)
    actions = body.get("actions") if declared == "record" else None
    if isinstance(actions, list) and len(actions) > limits.max_actions:
        reason = f"{len(actions)} actions, over the limit of {limits.max_actions} a record may hold"
        raise DocumentError(declared, [("$.actions", reason)])
    for (owner, name), levels in fmt.lengths.items():
        if fmt.types[declared] == (owner,) and name in body:
            try:
                check_lengths(body[name], levels)
            except BadValue as error:
                raise DocumentError(declared, [(f"$.{name}", str(error))]) from None
    if not depth_checked and value_depth(document, limits.max_depth) > limits.max_depth:
        raise too_deep(kind, limits)
    return declared, body


def check_replay(record: Any) -> None:
    """Check that a game record (a :class:`~cheekymonkey.record.RecordLike` with ``start`` and ``states``) replays.

    Raises:
        DocumentError: If the record cannot start (at ``$``), or at the first step that does not replay
            (at ``$.actions[i]``); its kind is None, for the caller to set.
    """
    try:
        record.start()
    except CheekyMonkeyError as error:
        raise DocumentError(None, [("$", str(error))]) from error
    try:
        record.states()
    except ReplayError as error:
        reason = f"step {error.step} does not replay: {error.cause}"
        raise DocumentError(None, [(f"$.actions[{error.step}]", reason)]) from error


_STRUCTURING_ERRORS: Final = (cattrs.BaseValidationError, BadValue, CheekyMonkeyError, KeyError, TypeError, ValueError)


@attrs.frozen(slots=True)
class DocumentCodec:
    """One game's documents: a value to its document and JSON text, and back, checked as the format says.

    It is the game's :class:`~cheekymonkey.documents.Documents`. Build one with :meth:`of`.
    """

    spec: DocumentFormat
    """What the documents are."""
    converter: cattrs.Converter = attrs.field(repr=False)
    """The converter built from :attr:`spec`."""
    check: Callable[[str, Any], None] = attrs.field(repr=False)
    """The game's checks of a structured value's invariants beyond its constructor's (a record's replay...):
    called with the kind and the value, it raises :class:`~cheekymonkey.serialization.DocumentError`."""
    limits: Limits = LIMITS
    """The limits :meth:`loads` and :meth:`from_document` apply unless given others."""

    @classmethod
    def of(cls, spec: DocumentFormat, check: Callable[[str, Any], None], limits: Limits = LIMITS) -> DocumentCodec:
        """The codec of ``spec``, its converter built (``cattrs``), with the game's value ``check``."""
        return cls(spec, make_converter(spec), check, limits)

    @property
    def format(self) -> str:
        """The ``format`` field of every document (``"too-many-monkeys/1"``)."""
        return self.spec.text

    @property
    def kinds(self) -> tuple[str, ...]:
        """The document kinds."""
        return self.spec.kinds

    def kind_of(self, value: object) -> str:
        """The kind of document that holds ``value``.

        Raises:
            TypeError: If no kind does.
        """
        kind = self.spec.kind_of(value)
        if kind is None:
            raise TypeError(f"{describe(value)} has no JSON document; documents hold {', '.join(self.spec.kinds)}")
        return kind

    def to_document(self, value: Any) -> dict[str, Any]:
        """The JSON document of ``value`` as plain dicts and lists, with its ``format`` and ``kind``.

        Raises:
            TypeError: If ``value`` has no document kind.
            ValueError: If a signed integer of ``value`` (a record's seed) is beyond :data:`MAX_INTEGER`,
                which no document holds.
        """
        kind = self.kind_of(value)
        for owner, name in self.spec.signed:
            number = getattr(value, name) if isinstance(value, owner) else None
            if isinstance(number, int) and abs(number) > MAX_INTEGER:
                # Refused here rather than written into a document that no loader would take back.
                what = f"the {kind}'s {name} {describe(number)}"
                raise ValueError(f"{what} is too large for a document (2**53 - 1 at most)")
        union = self.spec.union_of(kind)
        target = value.__class__ if union is None else union.union
        body: dict[str, Any] = self.converter.unstructure(value, unstructure_as=target)
        return {"format": self.spec.text, "kind": kind, **body}

    def dumps(self, value: Any, *, indent: int | None = None) -> str:
        """The JSON text of ``value``'s document, keys sorted, so equal values give equal text.

        Raises:
            TypeError: If ``value`` has no document kind.
        """
        return json.dumps(self.to_document(value), sort_keys=True, indent=indent, ensure_ascii=False)

    def structure(self, kind: str, body: dict[str, Any]) -> Any:
        """The value of a ``kind`` document's fields (without the header), every field and invariant checked.

        Raises:
            DocumentError: Naming each problem and its path.
        """
        union = self.spec.union_of(kind)
        target: Any = self.spec.types[kind][0] if union is None else union.union
        try:
            value = self.converter.structure(body, target)
        except _STRUCTURING_ERRORS as error:
            raise DocumentError(kind, problems(error)) from error
        try:
            self.check(kind, value)
        except DocumentError as error:
            if error.kind == kind:
                raise
            raise DocumentError(kind, list(error.problems)) from error
        return value

    def _kind(self, kind: str | None) -> str | None:
        if kind is not None and kind not in self.spec.kinds:
            raise DocumentError(kind, [("$", f"there is no document kind {kind!r}")])
        return kind

    def from_document(self, document: object, kind: str | None = None, *, limits: Limits | None = None) -> Any:
        """The value held by an already-parsed document (plain dicts and lists), fully checked.

        Args:
            document: The parsed document.
            kind: The kind expected, or None for any kind.
            limits: How deep the document may nest and how long a record may be (:attr:`limits` if None).

        Raises:
            DocumentError: If the document is malformed, of another kind or a newer format, holds a value
                that breaks an invariant, or is over a limit; it names the problem and its JSON path.
        """
        return self._read(document, self._kind(kind), limits or self.limits, depth_checked=False)

    def _read(self, document: object, kind: str | None, limits: Limits, *, depth_checked: bool) -> Any:
        declared, body = open_document(document, kind, self.spec, limits, depth_checked=depth_checked)
        return self.structure(declared, body)

    def loads(self, text: str | bytes, kind: str | None = None, *, limits: Limits | None = None) -> Any:
        """Parse JSON text into the value its document holds, fully checked.

        Raises:
            DocumentError: As :meth:`from_document`, and for text that is not JSON (truncated, say), that
                repeats a key or holds a huge number, or that is over the size limit.
        """
        limits = limits or self.limits
        kind = self._kind(kind)
        # The text's nesting is checked as it is parsed: the parsed value is not walked a second time.
        return self._read(parse(text, kind, limits), kind, limits, depth_checked=True)
