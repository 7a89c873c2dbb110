"""Every endpoint of the web front end under hostile requests: bodies, query strings and headers of any shape.

Whatever arrives, the answer is never a 5xx, and the server logs no traceback: a bad request is a 4xx with a
reason, in one log line. The requests go to a real uvicorn server, over real connections.
"""

from __future__ import annotations

import http.client
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cheekymonkey.web import Limits, RoomManager
from tests.web_support import LiveServer, live_server, make_room, token_of

ENDPOINTS = ["/", "/play", "/api/options", "/api/rooms", "/api/table", "/api/move", "/api/events", "/api/record"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]


class Collected(logging.Handler):
    """Keeps every log record the server writes."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[tuple[LiveServer, list[str], Collected]]:
    """A server with one room (two seats: one of its tokens, and tokens of no room) and a log collector."""
    collected = Collected()
    loggers = [logging.getLogger(name) for name in ("cheekymonkey.web", "uvicorn.error", "asyncio")]
    for logger in loggers:
        logger.addHandler(collected)
    limits = Limits(rooms_per_client=10**6, rooms_per_minute=10**6, max_rooms=10**6, streams_per_seat=10**6)
    # Streams opened by the fuzz are cut at once by a body-less client; a short header timeout bounds the rest.
    try:
        with live_server(RoomManager(allow_seeds=True, limits=limits), header_timeout=2) as server:
            room = make_room(server, "Ann", "Bob")
            yield server, [token_of(room, 0), token_of(room, 1), "A" * 43, "x"], collected
    finally:
        for logger in loggers:
            logger.removeHandler(collected)
    tracebacks = [r for r in collected.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)

documents = st.fixed_dictionaries(
    {},
    optional={
        "version": st.integers(-5, 10**20) | json_values,
        "action": json_values | st.fixed_dictionaries({"type": st.sampled_from(["draw", "stop", "claim", "place"])}),
        "text": st.text(max_size=300) | json_values,
        "preset": st.sampled_from(["standard", "chess", ""]) | json_values,
        "ruleset": json_values,
        "seats": st.lists(st.fixed_dictionaries({"name": st.text(max_size=30)}, optional={"bot": json_values})),
        "seed": json_values,
        "game": json_values,
    },
)


def nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


bodies = st.one_of(
    st.binary(max_size=300),
    documents.map(lambda d: json.dumps(d).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.integers(15, 5000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(15, 3000).map(nested),
    st.sampled_from([b"NaN", b"Infinity", b"1" * 5000, b'"\\ud800"', b"\xff\xfe", b"", b"{}", b"[]"]),
)

header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=60)
header_names = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=20)
queries = st.dictionaries(st.sampled_from(["since", "x", "since[]", ""]), st.text(max_size=15), max_size=3)


def send(
    server: LiveServer, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        connection.putrequest(method, path, skip_host="host" in {k.lower() for k in headers}, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value.encode("latin-1"))
        if body is not None and "content-length" not in {k.lower() for k in headers}:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        if path.startswith("/api/events") and response.status == 200:
            response.close()  # an open stream: enough that it opened
        else:
            response.read()
        return response
    finally:
        connection.close()


def query_string(query: dict[str, str]) -> str:
    from urllib.parse import urlencode

    return ("?" + urlencode(query)) if query else ""


@settings(deadline=None)
@given(
    method=st.sampled_from(METHODS),
    endpoint=st.sampled_from(ENDPOINTS),
    query=queries,
    body=st.none() | bodies,
    token=st.integers(0, 4),
    content_type=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", ""]),
)
def test_no_body_or_query_string_gets_a_server_error(
    fuzzed: tuple[LiveServer, list[str], Collected],
    method: str,
    endpoint: str,
    query: dict[str, str],
    body: bytes | None,
    token: int,
    content_type: str,
) -> None:
    """Any body and query string, to any endpoint, with a seat's token or none: a 2xx, 3xx or 4xx, never a 5xx."""
    server, tokens, _ = fuzzed
    headers = {"Content-Type": content_type} if content_type else {}
    if token < len(tokens):
        headers["Authorization"] = f"Bearer {tokens[token]}"
    response = send(server, method, endpoint + query_string(query), body, headers)
    assert response.status < 500, (method, endpoint, query, body, response.status)
    if response.status >= 400:
        assert response.getheader("x-content-type-options") == "nosniff"


@settings(deadline=None)
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    headers=st.dictionaries(header_names, header_text, max_size=6),
    host=st.none() | header_text,
    authorization=st.none() | header_text,
    length=st.none() | st.sampled_from(["-1", "abc", "99999999999999999999", "1e3", "\u00b2"]),
)
def test_no_header_gets_a_server_error(
    fuzzed: tuple[LiveServer, list[str], Collected],
    endpoint: str,
    headers: dict[str, str],
    host: str | None,
    authorization: str | None,
    length: str | None,
) -> None:
    """Any headers (Host, Authorization and Content-Length of any text among them): never a 5xx."""
    server, _, _ = fuzzed
    reserved = ("host", "content-length", "transfer-encoding")
    sent: dict[str, Any] = {k: v for k, v in headers.items() if k not in reserved}
    if host is not None:
        sent["Host"] = host
    if authorization is not None:
        sent["Authorization"] = authorization
    body = None
    if length is not None:
        sent["Content-Length"] = length
        body = b"{}"
    try:
        response = send(server, "POST" if length else "GET", endpoint, body, sent)
    except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
        return  # uvicorn closed a request it could not read as HTTP: nothing reached the application
    assert response.status < 500, (endpoint, sent, response.status)
