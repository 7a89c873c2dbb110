"""The web front end's ASGI application: Starlette routes over :mod:`cheekymonkey.web.rooms`.

Routes (every answer under ``/api`` is JSON; an error is ``{"error": reason}`` with a 4xx status):

- ``GET /``: the lobby page (make a room); ``GET /play``: the table page; ``GET /static/...``: their files.
- ``GET /api/options``: the presets (as ``ruleset`` documents), the bot kinds and the limits.
- ``POST /api/rooms``: make a room. The body: ``{"preset": name}`` or ``{"ruleset": ruleset document}``,
  ``"seats": [{"name": ...}, {"name": ..., "bot": "heuristic"}, ...]`` and, if the server allows seeds,
  ``"seed"``. The answer (201) gives each human seat its link, ``/play#<token>``.
- ``GET /api/table?since=N``: what the seat sees (:meth:`~cheekymonkey.web.Room.table`).
- ``POST /api/move``: the body is an ``action`` document; the answer is the seat's new table.
- ``GET /api/events?since=N``: server-sent events, one ``table`` message at once and one per change.

A seat is named by its token in an ``Authorization: Bearer <token>`` header, never in a URL the server
sees: the page's link carries the token after ``#``, which browsers do not send. A custom header also
means another site's page cannot make a player's browser move for them (it would need a CORS grant).

Status codes: 400 a malformed document or bad field (the library's reason), 401 no token, 404 an unknown
token or closed room, 409 not your turn or an illegal move (the library's reason, the room unchanged),
413 a body over the cap, 415 a body that is not ``application/json``, 503 the room limit is reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, Final

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"the web front end needs the 'web' extra ({error.name} is missing): pip install 'cheekymonkey[web]'"
    ) from error

from cheekymonkey.bots import BOTS
from cheekymonkey.errors import CheekyMonkeyError, IllegalActionError
from cheekymonkey.rules import Ruleset
from cheekymonkey.serialization import load_action, load_ruleset, to_document
from cheekymonkey.web.rooms import (
    MAX_NAME_LENGTH,
    NotYourTurnError,
    Room,
    RoomClosedError,
    RoomManager,
    RoomsFullError,
    SeatNotFoundError,
    SeatSpec,
)

__all__ = ["DEFAULT_MAX_BODY", "STATIC_DIR", "create_app"]

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
"""The page's files (HTML, CSS and plain JavaScript, no build step), shipped inside the package."""

DEFAULT_MAX_BODY: Final = 8192
"""The default cap on a request body, in bytes (an action document is under 100; a custom room about 1000)."""

_HEARTBEAT: Final = 15.0  # seconds between keep-alive comments on an idle event stream

# Sent with every answer: the pages load nothing from elsewhere, run no inline script, and are never framed.
_SECURITY_HEADERS: Final = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

_Scope = MutableMapping[str, Any]
_Message = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[_Message]]
_Send = Callable[[_Message], Awaitable[None]]
_ASGI = Callable[[_Scope, _Receive, _Send], Awaitable[None]]


class _ApiError(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def _security_headers(app: _ASGI) -> _ASGI:
    # A plain ASGI wrapper (not BaseHTTPMiddleware), so streamed answers pass through untouched.
    async def wrapped(scope: _Scope, receive: _Receive, send: _Send) -> None:
        async def send_with_headers(message: _Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await app(scope, receive, send_with_headers if scope["type"] == "http" else send)

    return wrapped


async def _read_body(request: Request, limit: int) -> bytes:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise _ApiError(415, "send the body as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _ApiError(413, f"the body is over the {limit}-byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:  # a body sent in chunks, without a length, is cut off here
            raise _ApiError(413, f"the body is over the {limit}-byte limit")
    return bytes(body)


def _since(request: Request) -> int:
    text = request.query_params.get("since", "0")
    if not text.isdigit() or len(text) > 9:
        raise _ApiError(400, "since must be a whole number")
    return int(text)


def _seats_from(document: dict[str, Any]) -> list[SeatSpec]:
    seats = document.get("seats")
    if not isinstance(seats, list) or not seats:
        raise _ApiError(400, "seats must be a non-empty list of {name, bot} objects")
    specs = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict) or not set(seat) <= {"name", "bot"}:
            raise _ApiError(400, f"seat {index} must be an object with a name and, for a bot, a bot kind")
        specs.append(SeatSpec(seat.get("name", ""), seat.get("bot")))
    return specs


def _ruleset_from(document: dict[str, Any]) -> Ruleset:
    if ("preset" in document) == ("ruleset" in document):
        raise _ApiError(400, "give either a preset name or a ruleset document")
    if "preset" in document:
        name = document["preset"]
        if not isinstance(name, str):
            raise _ApiError(400, "preset must be a preset's name")
        return Ruleset.preset(name)
    # The library's own document loader checks every field and the rule set's invariants.
    return load_ruleset(json.dumps(document["ruleset"]))


def create_app(
    manager: RoomManager | None = None,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    sweep_seconds: float | None = None,
) -> Starlette:
    """Build the ASGI application: the pages, the JSON API and the event streams.

    Args:
        manager: The rooms (a new :class:`~cheekymonkey.web.rooms.RoomManager` with its defaults if None).
        max_body: The cap on a request body, in bytes; a bigger body gets a 413 answer.
        sweep_seconds: How often idle rooms are looked for (a quarter of the idle time, at most a
            minute, if None).

    Returns:
        The application, for uvicorn or any ASGI server. Its lifespan runs the idle-room sweeper and
        closes every room at shutdown.
    """
    rooms = manager if manager is not None else RoomManager()
    interval = sweep_seconds if sweep_seconds is not None else max(0.05, min(60.0, rooms.idle_seconds / 4))

    def seat_of(request: Request) -> tuple[Room, int]:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise _ApiError(401, "this needs a seat's link (an Authorization: Bearer <token> header)")
        room, seat = rooms.seat_for(token.strip())
        room.touch()
        return room, seat

    def answer(call: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await call(request)
            except _ApiError as error:
                return JSONResponse({"error": str(error)}, status_code=error.status)
            except SeatNotFoundError as error:
                return JSONResponse({"error": str(error)}, status_code=404)
            except (NotYourTurnError, IllegalActionError, RoomClosedError) as error:
                return JSONResponse({"error": str(error)}, status_code=409)
            except RoomsFullError as error:
                return JSONResponse({"error": str(error)}, status_code=503)
            except CheekyMonkeyError as error:
                # DocumentError, InvalidRulesetError, InvalidGameError, RoomError: the request is at fault.
                return JSONResponse({"error": str(error)}, status_code=400)

        return endpoint

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": {name: to_document(Ruleset.preset(name)) for name in Ruleset.preset_names()},
                "bots": list(BOTS),
                "max_name_length": MAX_NAME_LENGTH,
                "seeds": rooms.allow_seeds,
            }
        )

    async def create_room(request: Request) -> Response:
        body = await _read_body(request, max_body)
        try:
            document = json.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            raise _ApiError(400, f"the body is not JSON: {error}") from None
        if not isinstance(document, dict) or not set(document) <= {"preset", "ruleset", "seats", "seed"}:
            raise _ApiError(400, "the body must be an object with preset or ruleset, seats and optionally seed")
        seed = document.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise _ApiError(400, "seed must be an integer")
        ruleset = _ruleset_from(document)
        room, tokens = rooms.create(ruleset, _seats_from(document), seed=seed)
        seats = [
            {"seat": i, "name": s.name, "kind": s.kind, **({"link": f"/play#{tokens[i]}"} if i in tokens else {})}
            for i, s in enumerate(room.seats)
        ]
        return JSONResponse({"room": room.id, "ruleset": to_document(room.ruleset), "seats": seats}, status_code=201)

    async def table(request: Request) -> Response:
        since = _since(request)
        room, seat = seat_of(request)
        return JSONResponse(room.table(seat, since))

    async def move(request: Request) -> Response:
        room, seat = seat_of(request)
        body = await _read_body(request, max_body)
        action = load_action(body)  # DocumentError (400) names what is wrong with the document
        since = room.event_count
        await room.play(seat, action)
        return JSONResponse(room.table(seat, since))

    async def events(request: Request) -> Response:
        since = _since(request)
        room, seat = seat_of(request)

        async def stream() -> AsyncIterator[str]:
            sent = since
            while True:
                message = room.table(seat, sent)
                sent = room.event_count
                yield f"event: table\nid: {message['version']}\ndata: {json.dumps(message)}\n\n"
                if room.closed:
                    return
                # The table just sent is this version's; wait for a newer one. Reading the table and taking its
                # version happen with no await between, so no change can slip past unseen.
                while not await room.wait_for_change(message["version"], _HEARTBEAT):
                    yield ": still here\n\n"  # a comment line keeps proxies from closing an idle stream

        headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def page(request: Request) -> Response:
        name = "play.html" if request.url.path == "/play" else "index.html"
        return FileResponse(STATIC_DIR / name, headers={"cache-control": "no-cache"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweeper() -> None:
            while True:
                await asyncio.sleep(interval)
                rooms.sweep()

        task = asyncio.get_running_loop().create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            rooms.close_all()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/play", page),
            Route("/api/options", answer(options)),
            Route("/api/rooms", answer(create_room), methods=["POST"]),
            Route("/api/table", answer(table)),
            Route("/api/move", answer(move), methods=["POST"]),
            Route("/api/events", answer(events)),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    app.add_middleware(_SecurityHeadersMiddleware)
    return app


class _SecurityHeadersMiddleware:
    def __init__(self, app: _ASGI) -> None:
        self._app = _security_headers(app)

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        await self._app(scope, receive, send)
