"""What the tests of every game's JSON documents share: documents changed as a hostile client would, call counts.

:func:`hostile_documents` starts from a valid document of some kind and changes it in one to three ways
(replace, delete or add a part, nest it hundreds deep, repeat a list thousands of times, or copy another
field's value over it), or draws a random JSON value instead. The fuzzers of both games use it, each with
its own samples and hostile leaves.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs
import jsonschema
import pytest
from hypothesis import event
from hypothesis import strategies as st

from cheekymonkey.serialization import DocumentError

__all__ = [
    "DROP",
    "HUGE",
    "MAX_MESSAGE",
    "TEXT_AND_LIMITS",
    "Beyond",
    "Calls",
    "Fuzzing",
    "changed",
    "count_calls",
    "hostile_documents",
    "hostile_text",
    "nest",
    "paths",
    "single_edits",
]

MAX_MESSAGE: Final = 2000
"""The longest message a refusal may have, however large the document."""

HUGE: Final = "<a 5000-digit integer>"
"""A marker :func:`hostile_text` writes as an integer of 5,000 digits (Python will not print one, nor hypothesis
show it)."""

DROP: Final = object()
"""A marker for :func:`changed`: the field is taken out of the document."""


def paths(node: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path into a parsed document, the document itself (``prefix``) first."""
    found: list[tuple[str | int, ...]] = [prefix]
    items: list[tuple[str | int, object]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    for key, child in items:
        found.extend(paths(child, (*prefix, key)))
    return found


def nest(value: object, depth: int) -> object:
    """``value`` inside ``depth`` objects and lists, alternately."""
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def hostile_text(document: object) -> str:
    """JSON text, NaN and infinities allowed, each :data:`HUGE` marker written as an integer of 5,000 digits."""
    return json.dumps(document, allow_nan=True).replace(json.dumps(HUGE), "7" * 5000)


def changed(document: dict[str, Any], *edits: tuple[tuple[str | int, ...], object]) -> dict[str, Any]:
    """A copy of ``document`` with each ``(path, value)`` set (or dropped, for :data:`DROP`)."""
    result = copy.deepcopy(document)
    for path, value in edits:
        target: Any = result
        for key in path[:-1]:
            target = target[key]
        if value is DROP:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return result


@st.composite
def hostile_documents(
    draw: st.DrawFn, samples: Sequence[dict[str, Any]], values: st.SearchStrategy[Any], keys: st.SearchStrategy[Any]
) -> str:
    """The text of one of ``samples`` changed in one to three hostile ways, or of a random JSON value (1 in 10).

    ``values`` gives the values put into the document (and the random ones), ``keys`` the keys added to it.
    """
    if draw(st.integers(0, 9)) == 0:
        return hostile_text(draw(values))
    document = copy.deepcopy(draw(st.sampled_from(samples)))
    nested = False  # one deep nesting at most: two could pass what json.dumps can encode (1,000 levels)
    for _ in range(draw(st.integers(1, 3))):
        inside = paths(document)[1:]
        if not inside:
            break
        path = draw(st.sampled_from(inside))
        parent: Any = document
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        operation = draw(st.sampled_from(["replace", "delete", "add", "nest", "repeat", "copy"]))
        if operation == "replace":
            parent[key] = draw(values)
        elif operation == "delete":
            del parent[key]
        elif operation == "nest" and not nested:
            parent[key] = nest(parent[key], draw(st.sampled_from([2, 30, 40, 500])))
            nested = True
        elif operation == "repeat" and isinstance(parent[key], list):
            parent[key] = parent[key] * draw(st.sampled_from([2, 50, 3000]))
        elif operation == "copy":
            # Another field's value of the same object over this one: well-typed, often, and wrong.
            other = draw(st.sampled_from(sorted(parent) if isinstance(parent, dict) else range(len(parent))))
            parent[key] = copy.deepcopy(parent[other])
        elif isinstance(parent, dict):
            parent[draw(keys)] = draw(values)
        else:
            parent.insert(int(key), draw(values))
    return hostile_text(document)


class Calls:
    """How often a function was called (it still runs)."""

    def __init__(self) -> None:
        self.count = 0


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> Calls:
    """Count the calls of ``owner.name`` for the rest of the test, through monkeypatch."""
    calls = Calls()
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.count += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


@attrs.frozen
class Beyond:
    """A check the loader makes that the shipped schemas do not state, listed on the serialization page."""

    name: str
    """How the page lists it (the test checks that the page does)."""
    pattern: str
    """A regular expression that the refusal's reason matches (searched for)."""

    def matches(self, reason: str) -> bool:
        """Whether a refusal with ``reason`` is this check's."""
        return re.search(self.pattern, reason) is not None


TEXT_AND_LIMITS: Final = (
    Beyond("an integer written with a fraction", r"(expected an integer|must be a (count|seat number)).*got -?\d+\.0$"),
    Beyond("a key twice in one object", r"appears twice in one object"),
    Beyond("a string that is not text", r"lone surrogate"),
    Beyond("the limits", r"over the limit of|nests deeper than the limit"),
)
"""What both games' loaders refuse in the text or by a limit, which no schema of the values can say: JSON Schema
counts ``1.0`` as an integer, reads the last of two equal keys, takes any string, and knows no limit."""


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def single_edits(samples: Sequence[dict[str, Any]], pool: Sequence[object]) -> Iterator[dict[str, Any]]:
    """Each sample with one edit: a value of ``pool`` put in a place, an item dropped or repeated, a field changed.

    A field is changed by dropping it or adding an unknown one beside it. A place of the same shape in the same
    kind is edited once (a record's first three actions only), so that the corpus stays a few thousand documents.
    """
    seen: set[tuple[object, ...]] = set()
    for sample in samples:
        for path in paths(sample)[1:]:
            shape = (sample["kind"], *(key if isinstance(key, str) else "#" for key in path))
            if shape in seen or (path[0] == "actions" and len(path) > 1 and int(path[1]) > 2):
                continue
            seen.add(shape)
            for value in pool:
                yield changed(sample, (path, copy.deepcopy(value)))
            parent: Any = sample
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, list):
                without = changed(sample)
                _at(without, path[:-1]).pop(int(path[-1]))
                yield without
                twice = changed(sample)
                _at(twice, path[:-1]).insert(int(path[-1]), copy.deepcopy(parent[int(path[-1])]))
                yield twice
            elif path[-1] not in ("format", "kind"):
                yield changed(sample, (path, DROP))
                yield changed(sample, ((*path[:-1], "unknown"), 0))


def _at(document: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@attrs.frozen
class Fuzzing:
    """What a fuzzer asks of one game's documents: each text loads to a consistent value or is refused briefly."""

    documents: Any
    """The game's documents: ``dumps`` and ``loads`` (a module or a :class:`~cheekymonkey.documents.Documents`)."""
    validators: Mapping[str, jsonschema.Draft202012Validator]
    """The shipped schema of each kind."""
    consistent: Callable[[Any], None]
    """Checks, written from the rules apart from the library's own, that a loaded value could come from play."""
    beyond: Sequence[Beyond] = ()
    """What the loader checks that the schemas do not state: every other refusal, the schema makes too."""

    def load(self, text: str) -> Any:
        """The loaded value, or the DocumentError raised (any other exception fails the test)."""
        try:
            return self.documents.loads(text)
        except DocumentError as error:
            return error

    def check(self, text: str) -> None:
        """``text`` is refused with a short DocumentError, or loads to a value that is whole and consistent.

        Whole: it dumps and loads back equal, and the schema accepts its document.
        """
        value = self.load(text)
        if isinstance(value, DocumentError):
            event("refused")
            assert len(str(value)) < MAX_MESSAGE
            assert value.path.startswith("$")
            assert value.reason
            self.refused_alike(text)
            return
        event(f"loaded a {type(value).__name__}")
        again = self.documents.dumps(value)
        assert self.documents.loads(again) == value
        document = json.loads(again)
        self.validators[document["kind"]].validate(document)  # the schema agrees with what the library accepts
        self.consistent(value)

    def refused_alike(self, text: str) -> Beyond | None:
        """A document the loader refuses, the schema of its kind refuses too, but for the checks of :attr:`beyond`.

        Returns:
            The entry of :attr:`beyond` the refusal is, or None if it is none of them, and the schema refuses the
            document as well (or the text is no JSON value a schema could read).
        """
        try:
            document = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            return None  # not JSON a schema could read (NaN, an integer of thousands of digits, ...)
        if not isinstance(document, dict) or _has_nan(document):
            return None
        kind = document.get("kind")
        headerless = "format" not in document and "kind" not in document
        if headerless:
            kind = "action"  # an action may come without its header where an action is asked for
        if not isinstance(kind, str) or kind not in self.validators:
            return None  # every schema wants its own kind
        refused = self.load_as(text, kind)
        if refused is None:
            assert headerless, "refused without its kind, loaded with it"  # only a bare action is read differently
            return None
        found = next((beyond for beyond in self.beyond if beyond.matches(refused.reason)), None)
        if found is not None:
            return found  # listed: the schema may accept it (and a document too deep is not given to the validator)
        assert not self.validators[kind].is_valid(document), f"the schema accepts what the loader refuses: {refused}"
        return None

    def load_as(self, text: str, kind: str) -> DocumentError | None:
        """The DocumentError loading ``text`` as a ``kind`` document raises, or None if it loads."""
        try:
            self.documents.loads(text, kind)
        except DocumentError as error:
            return error
        return None

    def check_header(self, document: dict[str, Any], field: str, value: object) -> None:
        """A document whose ``field`` of the header is ``value`` loads only if that is its own; the schema agrees."""
        edited = {**document, field: value}
        loaded = self.load(hostile_text(edited))
        if not isinstance(loaded, DocumentError):
            assert edited[field] == document[field]
            return
        assert len(str(loaded)) < MAX_MESSAGE
        if value != HUGE:  # jsonschema cannot print an integer that long, so it is not asked
            assert not self.validators[document["kind"]].is_valid(edited)


def _has_nan(value: object) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_nan(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_nan(item) for item in value)
    return False
