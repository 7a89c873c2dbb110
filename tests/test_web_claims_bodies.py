"""The web reads a request's JSON body with the library's own checks: its one depth scan and its duplicate-key hook.

``cheekymonkey.web.app`` measures a body's nesting with :func:`cheekymonkey.serialization._parsing.text_depth`
(one linear pass, strings skipped) and refuses a key given twice with
:func:`~cheekymonkey.serialization._parsing.reject_duplicates`, the hook every document loader uses: both
served by a real uvicorn server here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import cheekymonkey.web.app
from cheekymonkey.serialization import _parsing
from cheekymonkey.serialization._parsing import reject_duplicates
from cheekymonkey.serialization.errors import BadValue
from cheekymonkey.web import MAX_DEPTH, RoomManager
from tests.document_testing import count_calls
from tests.web_support import LiveServer, call, live_server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live_server(RoomManager()) as running:
        yield running


def test_web_claims_each_body_is_measured_once_by_the_librarys_text_depth(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One call of text_depth per body read (a room, a claim), and its verdict is the web's."""
    calls = count_calls(monkeypatch, cheekymonkey.web.app, "text_depth")
    body = {"preset": "standard", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    assert call(server, "POST", "/api/rooms", body)[0] == 201
    assert calls.count == 1
    assert call(server, "POST", "/api/claim", {"claim": "x" * 43})[0] == 404
    assert calls.count == 2


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 40])
def test_web_claims_a_body_is_refused_exactly_when_text_depth_finds_it_too_deep(server: LiveServer, depth: int) -> None:
    """Nested lists in the seats: refused for depth iff text_depth says it nests past MAX_DEPTH."""
    inner: object = "Ann"
    for _ in range(depth - 3):  # the object, the seats list and the seat object make 3
        inner = [inner]
    raw = json.dumps({"preset": "standard", "seats": [{"name": inner}]})
    assert _parsing.text_depth(raw) == depth
    status, answer = call(server, "POST", "/api/rooms", raw=raw.encode())
    assert status == 400
    too_deep = f"the body nests deeper than {MAX_DEPTH} levels"
    assert (answer["error"] == too_deep) is (depth > MAX_DEPTH), answer


def test_web_claims_brackets_inside_strings_do_not_count_toward_the_depth(server: LiveServer) -> None:
    """Forty brackets in a name are text: the body is refused for the name, not for its nesting."""
    raw = json.dumps({"preset": "standard", "seats": [{"name": "[{" * 20}, {"name": "Bob"}]})
    assert _parsing.text_depth(raw) == 3
    status, answer = call(server, "POST", "/api/rooms", raw=raw.encode())
    assert status == 400
    assert "nests" not in answer["error"]


def test_web_claims_a_key_given_twice_is_refused_in_the_loaders_own_words(server: LiveServer) -> None:
    """The web's 400 quotes reject_duplicates's own reason (the public name every loader uses)."""
    assert "reject_duplicates" in _parsing.__all__
    with pytest.raises(BadValue) as caught:
        reject_duplicates([("preset", "standard"), ("preset", "x")])
    raw = b'{"preset": "standard", "preset": "x", "seats": [{"name": "Ann"}]}'
    status, answer = call(server, "POST", "/api/rooms", raw=raw)
    assert status == 400
    assert answer["error"] == f"the body is not JSON: {caught.value}"
    assert reject_duplicates([("a", 1), ("b", [2])]) == {"a": 1, "b": [2]}
