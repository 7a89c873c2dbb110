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

__all__ = ["parse", "text_depth", "too_deep", "value_depth"]


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
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


_STRING: Final = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def text_depth(text: str) -> int:
    """How deep the objects and lists in ``text`` nest, found before parsing: strings are skipped.

    One pass over the text, all of it in C (the regular expressions, ``map`` and ``accumulate``): no Python
    code runs per bracket, so a large document costs little more than reading it.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets), initial=0))


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
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant, parse_int=_parse_int
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
