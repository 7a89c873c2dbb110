r"""The scan every loader makes before parsing is linear in its text, whatever the text holds.

Before a document is parsed its nesting is read from the text (:func:`~cheekymonkey.serialization._parsing.
text_depth`): every ``loads``/``load_*`` of both games, :func:`~cheekymonkey.games.game_of_document` and
``cheekymonkey replay`` run it first. Nothing here is timed: the scan counts the characters its searches
examine (``_scan``'s second value), and the count is checked on hostile texts of growing size, the shapes a
scan that searched again from every quote would spend quadratic time on (a string never closed, ``"\``
repeated, runs of escapes, brackets a million deep). The depth it finds is checked against a reference
state machine written here, one character at a time.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey.cheeky import documents as cm_documents
from cheekymonkey.games import game_of_document
from cheekymonkey.serialization import DocumentError, _parsing
from cheekymonkey.toomany import documents as tm_documents


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """``unit`` repeated to about ``size`` characters, between ``head`` and ``tail``."""
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


HOSTILE_SHAPES: Final[dict[str, Callable[[int], str]]] = {
    "quote and backslash repeated": lambda n: _fill('"\\', n),
    "a string never closed": lambda n: _fill("a", n, '"'),
    "a string never closed, of brackets": lambda n: _fill("[", n, '"'),
    "a string ending in a lone backslash": lambda n: _fill("a", n, '"', "\\"),
    "a closed string of escaped backslashes": lambda n: _fill("\\\\", n, '"', '"'),
    "a closed string of escaped quotes": lambda n: _fill('\\"', n, '"', '"'),
    "an unclosed string of escaped quotes": lambda n: _fill('\\"', n, '"'),
    "long unicode escapes never closed": lambda n: _fill("\\u00e9", n, '"'),
    "quotes only": lambda n: _fill('"', n),
    "empty strings": lambda n: _fill('""', n, "[", "]"),
    "brackets opened": lambda n: _fill("[", n),
    "brackets nested and closed": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "objects opened with a string key each": lambda n: _fill('{"a":', n),
    "a list of strings never closed": lambda n: _fill('"a",', n, "["),
    "a record whose name never closes": lambda n: _fill(
        '"\\', n, '{"format": "cheekymonkey/1", "kind": "record", "players": 2, "names": ["'
    ),
}
"""Texts on which a scan that searched again from each quote, or backtracked, would take quadratic time."""

ROOT: Final = Path(__file__).resolve().parent.parent

SIZES: Final = (1_000, 4_000, 16_000, 64_000)


def _reference_depth(text: str) -> int:
    """The nesting outside strings, read one character at a time: the scan's meaning, written plainly."""
    depth = deepest = 0
    inside = escaped = False
    for ch in text:
        if inside:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                inside = False
        elif ch == '"':
            inside = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


@pytest.mark.parametrize("shape", HOSTILE_SHAPES)
def test_the_scan_s_work_grows_linearly_with_a_hostile_text(shape: str) -> None:
    """Work(4n) is at most 4.5 times work(n), and never more than three characters examined per character."""
    works = []
    for size in SIZES:
        text = HOSTILE_SHAPES[shape](size)
        depth, work = _parsing._scan(text)
        assert depth == _reference_depth(text)
        assert len(text) <= work <= 3 * len(text), (size, work)
        works.append(work)
    for smaller, larger in itertools.pairwise(works):
        assert larger <= 4.5 * smaller, works


def test_the_scan_of_the_reported_text_is_a_single_pass() -> None:
    """48 KB of a quote and a backslash repeated took 14 s in ``load_state``: now each character is read once."""
    text = '"\\' * 24_000
    assert _parsing._scan(text) == (0, len(text))


@given(st.text(alphabet='"\\[]{}a:, ', max_size=60))
def test_the_scan_finds_the_depth_a_character_by_character_reading_finds(text: str) -> None:
    """On any text of quotes, escapes and brackets, the depth is the reference's and the work at most 3n."""
    depth, work = _parsing._scan(text)
    assert depth == _reference_depth(text) == _parsing.text_depth(text)
    assert work <= 3 * len(text)


def test_the_scan_skips_brackets_inside_strings_of_a_real_document() -> None:
    """A document whose strings hold brackets and escaped quotes nests only as deep as its objects and lists."""
    text = json.dumps({"a": ['[[[{"', "\\", '"]]]'], "b": {"c": "}}}"}})
    assert _parsing.text_depth(text) == 2 == _reference_depth(text)


_LOADERS: Final[dict[str, Callable[[str], Any]]] = {
    "Cheeky Monkey's loads": cm_documents.loads,
    "Cheeky Monkey's load_state": cm_documents.load_state,
    "Cheeky Monkey's load_record": cm_documents.load_record,
    "Too Many Monkeys' loads": tm_documents.loads,
    "Too Many Monkeys' records": lambda text: tm_documents.loads(text, "record"),
    "game_of_document": game_of_document,
}


@pytest.mark.parametrize("loader", _LOADERS)
@pytest.mark.parametrize("shape", HOSTILE_SHAPES)
def test_every_loader_refuses_a_hostile_text_with_a_document_error_after_a_linear_scan(
    shape: str, loader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loaders' own scans, counted as they run: linear on each shape, and the text refused, typed."""
    works: list[int] = []
    scan = _parsing._scan

    def counted(text: str) -> tuple[int, int]:
        found = scan(text)
        works.append(found[1])
        return found

    monkeypatch.setattr(_parsing, "_scan", counted)
    for size in (4_000, 16_000):
        text = HOSTILE_SHAPES[shape](size)
        with pytest.raises(DocumentError):
            _LOADERS[loader](text)
    # Each loader scans the text once (brackets opened a thousand deep are refused by the scan itself).
    assert len(works) == 2
    assert works[1] <= 4.5 * works[0]


def test_cheekymonkey_replay_refuses_a_hostile_file_in_one_line(tmp_path: Path) -> None:
    """``cheekymonkey replay`` of 64 KB of a quote and a backslash repeated: a one-line refusal, no traceback."""
    path = tmp_path / "hostile.json"
    path.write_text(HOSTILE_SHAPES["quote and backslash repeated"](64_000), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "cheekymonkey", "replay", str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "not valid JSON" in result.stderr
