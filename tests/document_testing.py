"""What the tests of every game's JSON documents share: documents changed as a hostile client would, call counts.

:func:`hostile_documents` starts from a valid document of some kind and changes it in one to three ways
(replace, delete or add a part, nest it hundreds deep, repeat a list thousands of times, or copy another
field's value over it), or draws a random JSON value instead. The fuzzers of both games use it, each with
its own samples and hostile leaves.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any, Final

import pytest
from hypothesis import strategies as st

__all__ = ["DROP", "HUGE", "Calls", "changed", "count_calls", "hostile_documents", "hostile_text", "nest", "paths"]

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
        elif operation == "nest":
            parent[key] = nest(parent[key], draw(st.sampled_from([2, 30, 40, 500])))
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
