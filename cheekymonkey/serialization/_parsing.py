"""JSON text to plain values, within the limits: size, nesting, numbers and keys checked before the work.

Nothing here depends on a game: every game's documents are parsed the same way.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, Final, cast

from cheekymonkey.serialization.errors import BadValue, DocumentError, describe
from cheekymonkey.serialization.limits import Limits
from cheekymonkey.serialization.spec import MAX_INTEGER

__all__ = ["parse", "reject_duplicates", "text_depth", "too_deep", "value_depth"]


def reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s ``object_pairs_hook`` that refuses a key given twice in one object (:class:`BadValue`)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            # A repeated key would silently let the last copy win: a sign of tampering or a bad writer.
            raise BadValue(f"the key {describe(key)} appears twice in one object")
        result[key] = value
    return result


def _reject_constant(name: str) -> None:
    raise BadValue(f"{name} is not a JSON number")


def _parse_int(digits: str) -> int:
    # Checked before int() turns the digits into a number, which takes time quadratic in their count.
    if len(digits.lstrip("-")) > len(str(MAX_INTEGER)):
        raise BadValue(f"the integer {digits[:20]}... ({len(digits)} digits) is too large: the limit is {MAX_INTEGER}")
    return int(digits)


_BODY: Final = re.compile(r'(?:[^"\\]++|\\.)*+', re.DOTALL)
"""A string's body from just after its opening quote: plain runs and escapes, never given back (possessive).

Matched only where a string opens, it stops at the first quote not escaped, or at the end of the text (or
at a lone backslash that ends it): it reads each character once and never backtracks.
"""
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def text_depth(text: str) -> int:
    """How deep the objects and lists in ``text`` nest, found before parsing: strings are skipped.

    One pass over the text, linear in its length whatever it holds (a string never closed, a run of
    escapes, brackets nested a million deep): see :func:`_scan`.
    """
    return _scan(text)[0]


def _scan(text: str) -> tuple[int, int]:
    """The nesting of ``text`` and the work its scan took: how many characters its searches examined.

    A single pass, a state machine of two states (outside a string, inside one) whose every step is a search
    in C that starts where the previous one stopped: ``str.find`` for the next opening quote, :data:`_BODY`
    anchored just after it for the closing one. Each character is examined once by one of them (the one
    where a search stops, twice at most), and once more when the brackets outside strings are added up, so
    the work is at most three times the length of the text; the tests check the count on hostile texts.
    """
    outside: list[str] = []
    work = 0
    at, end = 0, len(text)
    while at < end:
        opening = text.find('"', at)
        if opening < 0:
            outside.append(text[at:])
            work += end - at
            break
        outside.append(text[at:opening])
        body = _BODY.match(text, opening + 1)
        assert body is not None  # the body may be empty: it always matches
        closing = body.end()
        work += closing - at + 1
        if closing >= end or text[closing] != '"':
            break  # a string never closed: the rest of the text is inside it (the JSON parse refuses it)
        at = closing + 1
    brackets = _NOT_BRACKET.sub("", "".join(outside))
    work += sum(map(len, outside))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets), initial=0)), work


def value_depth(value: object, limit: int) -> int:
    """How deep an already-parsed value nests, up to ``limit + 1`` (so a cycle or a huge depth stops early)."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, dict | list | tuple):
            depth += 1
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
            pending.extend((child, depth) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def too_deep(kind: str | None, limits: Limits) -> DocumentError:
    """The error for a document that nests deeper than ``limits`` allow."""
    return DocumentError(kind, [("$", f"the document nests deeper than the limit of {limits.max_depth} levels")])


def parse(text: str | bytes, kind: str | None, limits: Limits) -> object:
    """Parse JSON text within ``limits``: the size first, then the nesting, then the text itself.

    The nesting is read from the text (:func:`text_depth`), so the value parsed from it needs no walk of its
    own: a loader that parses passes ``depth_checked`` to :func:`~cheekymonkey.serialization.codec.open_document`.

    Raises:
        DocumentError: If the text is over a limit, is not UTF-8 or not JSON, repeats a key, or holds a
            number that is not a JSON number or an integer too large.
    """
    if not isinstance(text, str | bytes):
        raise DocumentError(kind, [("$", f"expected JSON text (str or bytes), got {describe(text)}")])
    # The size first, so that a huge document costs nothing more; a character is at most 4 bytes of UTF-8.
    size = len(text) if isinstance(text, bytes) or len(text) * 4 <= limits.max_bytes else None
    if size is None and len(text) <= limits.max_bytes:
        size = len(cast(str, text).encode("utf-8", "surrogatepass"))
    if size is None or size > limits.max_bytes:
        reason = f"the document is {size or len(text)} bytes or more, over the limit of {limits.max_bytes}"
        raise DocumentError(kind, [("$", reason)])
    if isinstance(text, bytes):
        # JSON is UTF-8 (RFC 8259); bytes are decoded as such, so they load exactly as the same text does.
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DocumentError(kind, [("$", f"not valid JSON: the bytes are not UTF-8 ({error.reason})")]) from None
    if text.startswith("\ufeff"):
        raise DocumentError(kind, [("$", "not valid JSON: it starts with a byte-order mark, which JSON text has not")])
    if text_depth(text) > limits.max_depth:
        raise too_deep(kind, limits)
    try:
        return json.loads(
            text, object_pairs_hook=reject_duplicates, parse_constant=_reject_constant, parse_int=_parse_int
        )
    except json.JSONDecodeError as error:
        raise DocumentError(kind, [("$", _json_problem(text, error))]) from None
    except (BadValue, RecursionError, ValueError) as error:
        raise DocumentError(kind, [("$", f"not valid JSON: {error}")]) from None


_WORDS: Final = ("null", "true", "false")


def _json_problem(text: str, error: json.JSONDecodeError) -> str:
    """What is wrong with text that is not JSON, for a person.

    A text cut short (a file copied or saved in part) is told apart from one that is corrupt.
    """
    where = f"line {error.lineno} column {error.colno}"
    # Some of json's messages end with "at" ("Unterminated string starting at"): the place completes them.
    problem = f"{error.msg[:1].lower()}{error.msg[1:]}{'' if error.msg.endswith(' at') else ' at'} {where}"
    if not text.strip():
        return "not valid JSON: the text is empty"
    rest = text[error.pos :].rstrip()
    # The text ends where a value was due, inside a string, or inside a word of JSON (``nu`` of ``null``).
    if not rest or error.msg.startswith("Unterminated string") or any(word.startswith(rest) for word in _WORDS):
        return f"not valid JSON: the text is cut short, stopping before the JSON ends ({problem})"
    return f"not valid JSON (corrupt?): {problem}"
