"""The web front end's ASGI application: Starlette routes over :mod:`cheekymonkey.web.rooms`, for any game.

Routes (every answer under ``/api`` is JSON; an error is ``{"error": reason}`` with a 4xx status):

- ``GET /``: the lobby page (make a room); ``GET /play``: the table page; ``GET /static/...``: their files,
  and ``GET /static/games/<name>.js``: a served game's drawing of its table, from the game's own package.
- ``GET /api/options``: the games served, each with its presets (as ``ruleset`` documents), its bots, its
  seat counts (``seats``: the fewest and most), the count a game starts with (``default_seats``, the game's
  :meth:`~cheekymonkey.Game.default_seats`) and that count under each preset (``preset_seats``); the limits;
  whether seeds are accepted.
- ``POST /api/rooms``: make a room. The body: ``{"game": name}`` (optional: the first game served),
  ``{"preset": name}`` or ``{"ruleset": ruleset document}``, ``"seats": [{"name": ...}, {"name": ...,
  "bot": "heuristic"}, ...]`` and, if the server allows seeds, ``"seed"``. The answer (201) gives each
  person's seat its link, ``/play#<token>`` (for a game with private information, every person's but the
  first is ``/play#claim:<code>``, claimed once with ``POST /api/claim``), and ``watch``, the room's
  watch link ``/play#watch:<token>``: its token opens ``GET /api/table`` and ``GET /api/events`` as a
  spectator (``seat`` None: the public view and events only, no moves); a move or a record asked with it
  gets 403.
- ``GET /api/table?since=N``: what the seat sees (:meth:`~cheekymonkey.web.Room.message`), or with a watch
  link's token what a spectator sees.
- ``POST /api/move``: ``{"version": V, "action": action document}`` or ``{"version": V, "text": "c 2"}``
  (a move in the game's notation). ``V`` is the ``version`` of the table the move was chosen from. The
  answer is the seat's new table. A move whose version the room has passed (a retry of a move already
  played, or one chosen from an old table) is refused with 409 and ``"table"``, the current table: a
  retry never plays twice. A seat plays only its own decisions (:meth:`~cheekymonkey.Table.play_as`): a
  text or action document that names a draw's outcome, another seat's move or a move past the end of the
  seat's turn is refused whole with 409 (:class:`~cheekymonkey.NotYourDecisionError`), the version unchanged.
- ``GET /api/events?since=N``: server-sent events, one ``table`` message at once and one per change.
- ``GET /api/record``: the finished game's record, as a download (409 before the end, for any game): the
  replayable record document, or for a game with private information the seat's ``seat-record``
  (:meth:`~cheekymonkey.web.Room.record_for`: what the seat saw, no seed, no hidden draw).
- ``POST /api/claim``: ``{"claim": code}``, the one-time code of a seat link ``/play#claim:<code>`` (a room
  of a game with private information gives one to every person but its maker): the first to send it gets
  ``{"room", "seat", "token"}``, a token made for the seat now; anyone after gets 409 (through any process
  sharing the store, and after a restart: the store keeps the code's hash and whether it was claimed), an
  unknown code 404, and a code whose claim the store cannot read 410.

A seat is named by its token in an ``Authorization: Bearer <token>`` header, never in a URL the server
sees: the page's link carries the token after ``#``, which browsers do not send. A custom header also
means another site's page cannot make a player's browser move for them (it would need a CORS grant).

Status codes: 400 a malformed body, query or field (the library's reason), or a host not served; 401 no
token; 403 a watch link's token used to move or to fetch a record; 404 an unknown token or an ended room;
405 a wrong method; 408 a body not sent in time; 409 not your turn, an illegal move (the library's reason,
each rule it cites named in words: "rule R7, Claims"; the room unchanged), a stale version, a record asked
for before the end, or a seat link claimed already; 413 a body over the cap; 415 a body that is not
``application/json``; 429 a client's limit reached and 503 the server's (both with ``Retry-After``), or
the store unreachable (its body never names the store's address or file: the log does). Every answer
carries the security headers, every answer under ``/api`` ``Cache-Control: no-store``, and every refused
request writes one line to the ``cheekymonkey.web`` log.

A client is its network (:func:`~cheekymonkey.web.limits.client_network`: an IPv4 address, an IPv6 /64),
for every per-client limit; each request under ``/api`` is charged to its client's
:class:`~cheekymonkey.web.limits.RequestBudget` by the size of its answer, and refused with 429 while the
budget is spent.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, MutableMapping
from importlib.resources.abc import Traversable
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

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import ActionTextError, CheekyMonkeyError, IllegalActionError, InvalidValueError
from cheekymonkey.games import AnyGame
from cheekymonkey.refusals import refusal_text
from cheekymonkey.serialization._parsing import reject_duplicates, text_depth
from cheekymonkey.web.limits import RequestBudget, client_network, request_cost
from cheekymonkey.web.rooms import (
    MAX_NAME_LENGTH,
    LimitError,
    Room,
    RoomError,
    RoomManager,
    SeatSpec,
)
from cheekymonkey.web.store import WATCHER, StoreError
from cheekymonkey.web.streams import follow

__all__ = [
    "CLAIM_PREFIX",
    "DEFAULT_HOSTS",
    "DEFAULT_MAX_BODY",
    "MAX_DEPTH",
    "STATIC_DIR",
    "WATCH_PREFIX",
    "create_app",
    "page_script",
]

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
"""The page's files (HTML, CSS and plain JavaScript, no build step), shipped inside the package. Each game's
drawing of its table ships in the game's own package and is served as ``/static/games/<name>.js``."""


def page_script(game: AnyGame) -> Traversable | None:
    """The script that draws ``game``'s table on the page (its binding's ``page_script()``), or None."""
    return game.page_script() if game.capabilities.page_script else None


DEFAULT_MAX_BODY: Final = 8192
"""The default cap on a request body, in bytes (a move is under 100; a room with custom rules about 1000)."""

DEFAULT_HOSTS: Final = ("127.0.0.1", "localhost", "::1")
"""The host names a server answers to unless told more (``--host`` and ``--allowed-host`` add to them)."""

MAX_DEPTH: Final = 16
"""How deeply a request's JSON may nest (a room with custom rules nests 4 deep)."""

_LOG: Final = logging.getLogger("cheekymonkey.web")

# Sent with every answer (cheekymonkey.web.server.SECURITY_HEADERS, here as the bytes ASGI sends).
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

_SINCE: Final = re.compile(r"[0-9]{1,9}", re.ASCII)
_PORT: Final = re.compile(r":[0-9]{1,5}", re.ASCII)
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,128}", re.ASCII)

CLAIM_PREFIX: Final = "claim:"
"""What starts the part after ``#`` of a seat link that must be claimed (``/play#claim:<code>``)."""

WATCH_PREFIX: Final = "watch:"
"""What starts the part after ``#`` of a room's watch link (``/play#watch:<token>``): a spectator's."""


class _ApiError(Exception):
    def __init__(self, status: int, reason: str, *, retry_after: int | None = None, extra: Any = None) -> None:
        super().__init__(reason)
        self.status = status
        self.retry_after = retry_after
        self.extra = extra


def _one_line(text: str) -> str:
    # A reason may quote what the client sent: keep the log to one line of printable text.
    return " ".join(text.replace("\x1b", " ").split())[:300]


def _log_refusal(scope: _Scope, status: int, reason: str) -> None:
    client = scope.get("client") or ("?", 0)
    path = _one_line(str(scope.get("path", "")))[:120]
    _LOG.warning("%d %s %s from %s: %s", status, scope.get("method", "?"), path, client[0], _one_line(reason))


def _host_of(scope: _Scope) -> str | None:
    """The host a request names, without its port; the whole header if it is not a well-formed host."""
    for name, value in scope.get("headers", ()):
        if name == b"host":
            text: str = value.decode("latin-1").strip().lower()
            if text.startswith("["):  # an IPv6 address: [::1] or [::1]:8000, and nothing else
                address, bracket, rest = text[1:].partition("]")
                if not bracket or (rest and not _PORT.fullmatch(rest)):
                    return text
                try:
                    ipaddress.IPv6Address(address)
                except ValueError:
                    return text
                return address
            if text.count(":") == 1:  # a name or IPv4 address and its port
                host, _, port = text.partition(":")
                return host if _PORT.fullmatch(":" + port) else text
            return text
    return None


def _guard(app: _ASGI, allowed_hosts: frozenset[str]) -> _ASGI:
    """The outermost layer: refuse hosts not served, add the security headers, and log what the app refused."""

    async def guarded(scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        scope["cheekymonkey.logged"] = False
        host = _host_of(scope)
        host = None if host is None else host.rstrip(".")

        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: _Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *_SECURITY_HEADERS]
                if api and not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", b"no-store"))  # a seat's table is nobody else's
                message["headers"] = headers
                status = message["status"]
                if status >= 400 and not scope["cheekymonkey.logged"]:
                    _log_refusal(scope, status, "refused")
            await send(message)

        if host not in allowed_hosts:
            reason = f"this server does not serve the host {host!r}" if host else "a Host header is needed"
            scope["cheekymonkey.logged"] = True
            _log_refusal(scope, 400, reason)
            await JSONResponse({"error": reason}, status_code=400)(scope, receive, send_with_headers)
            return
        try:
            await app(scope, receive, send_with_headers)
        except Exception as error:
            scope["cheekymonkey.logged"] = True
            _LOG.error("500 %s %s: %s: %s", scope.get("method"), scope.get("path"), type(error).__name__, error)
            _LOG.debug("the error in full", exc_info=True)
            with contextlib.suppress(Exception):
                await JSONResponse({"error": "the server failed; try again"}, status_code=500)(
                    scope, receive, send_with_headers
                )

    return guarded


_CACHED_TABLE: Final = 16 * 1024  # tables this big or bigger are kept once made...
_CACHED_TABLES: Final = 4 * 1024 * 1024  # ...up to this many bytes in all, the oldest let go first


def _json_bytes(message: Any) -> bytes:
    # As JSONResponse renders its content.
    return json.dumps(message, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise _ApiError(400, "the body is not UTF-8 text") from None
    if text_depth(text) > MAX_DEPTH:  # the library's one linear scan, strings skipped
        raise _ApiError(400, f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        # A key given twice is refused as the library's own loaders refuse it (their check, reused).
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=reject_duplicates)
    except (ValueError, RecursionError) as error:
        raise _ApiError(400, f"the body is not JSON: {error}") from None


async def _read_body(request: Request, limit: int, seconds: float) -> bytes:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise _ApiError(415, "send the body as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and (not _SINCE.fullmatch(declared) or int(declared) > limit):
        raise _ApiError(413, f"the body is over the {limit}-byte limit")
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                body.extend(chunk)
                if len(body) > limit:  # a body sent in chunks, without a length, is cut off here
                    raise _ApiError(413, f"the body is over the {limit}-byte limit")
    except TimeoutError:
        raise _ApiError(408, f"the body did not arrive within {seconds:g} seconds") from None
    return bytes(body)


def _since(request: Request) -> int:
    text = request.query_params.get("since", "0")
    if not _SINCE.fullmatch(text):
        raise _ApiError(400, "since must be a whole number (digits 0-9, at most 9 of them)")
    return int(text)


def _object(document: Any, keys: Iterable[str], what: str) -> dict[str, Any]:
    if not isinstance(document, dict) or not set(document) <= set(keys):
        raise _ApiError(400, f"the body must be an object with {what}")
    return document


def _seats_from(document: dict[str, Any]) -> list[SeatSpec]:
    seats = document.get("seats")
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        raise _ApiError(400, "seats must be a list of 1 to 16 {name, bot} objects")
    specs = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict) or not set(seat) <= {"name", "bot"}:
            raise _ApiError(400, f"seat {index} must be an object with a name and, for a bot, a bot kind")
        specs.append(SeatSpec(seat.get("name", ""), seat.get("bot")))
    return specs


def _address(request: Request) -> str:
    # The connection's address, or the one a trusted proxy named (uvicorn reads X-Forwarded-For from those only).
    return (request.client.host if request.client else "") or "?"


async def _charged(content: AsyncIterator[str], budget: RequestBudget, client: str) -> AsyncIterator[str]:
    """A stream's messages, each charged to its client's budget as it goes out (a stream is never cut for it)."""
    async for message in content:
        budget.charge(client, len(message.encode()) // 1024)
        yield message


class _Stream(StreamingResponse):
    """An event stream that gives its slot back however it ends (even before it starts)."""

    def __init__(self, content: AsyncIterator[str], slot: contextlib.AsyncExitStack) -> None:
        super().__init__(
            content, media_type="text/event-stream", headers={"cache-control": "no-store", "x-accel-buffering": "no"}
        )
        self._slot = slot

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._slot.aclose()


def create_app(
    manager: RoomManager | None = None,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    body_seconds: float = 10.0,
    sweep_seconds: float | None = None,
    allowed_hosts: Iterable[str] = DEFAULT_HOSTS,
    ipv4_prefix: int | None = None,
    ipv6_prefix: int | None = None,
) -> Starlette:
    """Build the ASGI application: the pages, the JSON API and the event streams.

    Args:
        manager: The rooms (a new :class:`~cheekymonkey.web.rooms.RoomManager` with its defaults if None).
        max_body: The cap on a request body, in bytes; a bigger body gets a 413 answer.
        body_seconds: How long a request's body may take to arrive (408 after that).
        sweep_seconds: How often rooms are checked for their end (a minute if None).
        allowed_hosts: The host names served (the ``Host`` header); a request for another gets 400, so a
            page on another site cannot reach this server by rebinding its own name to this address.
        ipv4_prefix: The leading bits of an IPv4 address that name a client, for every per-client limit
            (the manager's :attr:`~cheekymonkey.web.Limits.ipv4_prefix` if None: 32, the address).
        ipv6_prefix: The same for IPv6 (the manager's :attr:`~cheekymonkey.web.Limits.ipv6_prefix` if None:
            64, a /64).

    Returns:
        The application, for uvicorn or any ASGI server (``app.state.rooms`` is the manager). Its lifespan
        loads the stored rooms, runs the sweeper, and releases the store at shutdown.
    """
    rooms = manager if manager is not None else RoomManager()
    interval = sweep_seconds if sweep_seconds is not None else 60.0
    hosts = frozenset(host.lower().strip("[]").rstrip(".") for host in allowed_hosts)
    v4 = rooms.limits.ipv4_prefix if ipv4_prefix is None else ipv4_prefix
    v6 = rooms.limits.ipv6_prefix if ipv6_prefix is None else ipv6_prefix
    if not (1 <= v4 <= 32 and 1 <= v6 <= 128):
        raise InvalidValueError(f"ipv4_prefix must be 1 to 32 and ipv6_prefix 1 to 128, got {v4} and {v6}")
    budget = RequestBudget(rooms.limits)

    def client_of(request: Request) -> str:
        """The client a request counts against: its network (an IPv4 address, an IPv6 /64 by default)."""
        return client_network(_address(request), v4, v6)

    def token_of(request: Request) -> str:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise _ApiError(401, "this needs a seat's link (an Authorization: Bearer <token> header)")
        token = token.strip()
        if not _TOKEN.fullmatch(token):
            raise _ApiError(404, "no open room has a seat for this link (it may have ended)")
        return token

    async def seat_of(request: Request) -> tuple[Room, int]:
        return await rooms.seat_for(token_of(request))

    async def viewer_of(request: Request) -> tuple[Room, int | None]:
        """A seat's room and seat, or with a watch link's token the room and None (a spectator)."""
        return await rooms.viewer_for(token_of(request))

    def answer(call: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            headers: dict[str, str] = {}
            client = client_of(request)
            charged = True
            logged = None
            try:
                budget.check(client)
                response = await call(request)
                if not isinstance(response, _Stream):  # a stream is charged message by message
                    budget.charge(client, request_cost(len(getattr(response, "body", b""))))
                return response
            except _ApiError as error:
                status, reason, extra = error.status, str(error), error.extra
                if error.retry_after is not None:
                    headers["retry-after"] = str(error.retry_after)
            except LimitError as error:
                status, reason, extra = error.status, str(error), None
                headers["retry-after"] = str(error.retry_after)
                charged = False
            except StoreError as error:
                # The store's own words name its address or its file: they go to the log, not to the client.
                status, reason, extra = 503, "the rooms cannot be reached now; try again in a few seconds", None
                logged = f"{reason} (the store: {error})"
                headers["retry-after"] = "5"
            except RoomError as error:
                status, reason, extra = error.status, str(error), None
            except IllegalActionError as error:  # NotYourDecisionError too: a move that is not the seat's own
                status, reason, extra = 409, str(error), None
            except CheekyMonkeyError as error:
                # DocumentError, InvalidRulesetError, InvalidGameError, ActionTextError: the request is at fault.
                status, reason, extra = 400, str(error), None
            request.scope["cheekymonkey.logged"] = True
            _log_refusal(request.scope, status, logged or reason)
            body = {"error": reason} if extra is None else {"error": reason, **extra}
            refusal = JSONResponse(body, status_code=status, headers=headers)
            if charged:
                budget.charge(client, request_cost(len(refusal.body)))
            return refusal

        return endpoint

    async def options(request: Request) -> Response:
        games = []
        for game in rooms.games:
            documents = game.documents()
            games.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "presets": {name: documents.to_document(game.ruleset(name)) for name in game.preset_names()},
                    "bots": [
                        {"name": name, "title": game.bot_title(name), "unavailable": rooms.bot_problem(game, name)}
                        for name in game.bot_names()
                    ],
                    "seats": list(game.seat_range()),
                    # The seat count every front end starts from, for the standard rules and for each preset:
                    # the lobby starts there, and again when the game or the preset changes.
                    "default_seats": game.default_seats(),
                    "preset_seats": {name: game.default_seats(game.ruleset(name)) for name in game.preset_names()},
                }
            )
        limits = rooms.limits
        return JSONResponse(
            {
                "games": games,
                "max_name_length": MAX_NAME_LENGTH,
                "seeds": rooms.allow_seeds,
                "limits": {"max_number": limits.max_number, "max_moves": limits.max_moves},
            }
        )

    async def create_room(request: Request) -> Response:
        keys = ("game", "preset", "ruleset", "seats", "seed")
        document = _object(_parse(await _read_body(request, max_body, body_seconds)), keys, "preset or ruleset, seats")
        name = document.get("game", rooms.games[0].name)
        if not isinstance(name, str):
            raise _ApiError(400, "game must be a game's name")
        game = rooms.game(name)
        seed = document.get("seed")
        if seed is not None and (not is_whole_number(seed) or abs(seed) > 2**63):
            raise _ApiError(400, "seed must be an integer")
        if ("preset" in document) == ("ruleset" in document):
            raise _ApiError(400, "give either a preset name or a ruleset document")
        if "preset" in document:
            preset = document["preset"]
            if not isinstance(preset, str):
                raise _ApiError(400, "preset must be a preset's name")
            ruleset, label = game.ruleset(preset), preset
        else:
            # The game's own document loader checks every field and the rule set's invariants.
            ruleset, label = game.documents().from_document(document["ruleset"], "ruleset"), "custom"
        specs = _seats_from(document)
        # For a game with private information the maker keeps its own seat (the first person's); every other
        # person's link carries a one-time code that the first browser to open it exchanges for a token.
        people = [i for i, spec in enumerate(specs) if spec.bot is None]
        claim_seats = people[1:] if game.private_information else []
        room, tokens = await rooms.create(
            game, ruleset, specs, rules=label, seed=seed, client=client_of(request), claim_seats=claim_seats,
            watch=True,
        )  # fmt: skip
        # The watch link: anyone who opens it sees the table as no seat does (public view and events only).
        watch = f"/play#{WATCH_PREFIX}{tokens.pop(WATCHER)}"
        links = {i: f"/play#{CLAIM_PREFIX if i in claim_seats else ''}{key}" for i, key in tokens.items()}
        seats = [
            {"seat": i, "name": s.name, "kind": s.kind, **({"link": links[i]} if i in links else {})}
            for i, s in enumerate(room.seats)
        ]
        body = {"room": room.id, "game": game.name, "rules": label, "seats": seats, "watch": watch}
        return JSONResponse(body, status_code=201)

    # The big tables (a long game's history, read from since=0) as last sent, by room, seat, since and version:
    # a reader asking again for the same table costs its bytes, not their making again. A few, by size.
    made: collections.OrderedDict[tuple[str, int | None, int, int, bool, int], bytes] = collections.OrderedDict()

    def table_bytes(room: Room, seat: int | None, since: int) -> bytes:
        key = (room.id, seat, since, room.version, room.closed, len(room.notices))
        body = made.get(key)
        if body is None:
            body = _json_bytes(room.message(seat, since))
            if len(body) >= _CACHED_TABLE:
                made[key] = body
                while sum(map(len, made.values())) > _CACHED_TABLES:
                    made.popitem(last=False)
        else:
            made.move_to_end(key)
        return body

    async def table(request: Request) -> Response:
        since = _since(request)
        room, seat = await viewer_of(request)
        await room.refresh()
        room.start_bots()
        return Response(table_bytes(room, seat, since), media_type="application/json")

    async def move(request: Request) -> Response:
        room, seat = await seat_of(request)
        document = _object(
            _parse(await _read_body(request, max_body, body_seconds)),
            ("version", "action", "text"),
            "the version it was chosen from, and an action or a text",
        )
        version = document.get("version")
        if not is_whole_number(version) or version < 0:
            raise _ApiError(400, "name the table's version the move was chosen from: {version: N, action: ...}")
        if ("action" in document) == ("text" in document):
            raise _ApiError(400, "give either an action document or a text")
        since = room.event_count
        try:
            if "text" in document:
                text = document["text"]
                if not isinstance(text, str) or len(text) > 200:
                    raise _ApiError(400, "text must be a move in the game's notation, at most 200 characters")
                await room.play(seat, version, text=text)
            else:
                action = room.game.documents().from_document(document["action"], "action")
                await room.play(seat, version, action=action)
        except (RoomError, IllegalActionError) as error:
            if isinstance(error, RoomError) and error.status != 409:
                raise
            # The player reads the reason: each rule it cites by number is named in words, as at the terminal.
            reason = refusal_text(room.game, str(error))
            raise _ApiError(409, reason, extra={"table": room.message(seat, since)}) from None
        except ActionTextError as error:  # a text that is no move in the game's notation: 400, in words too
            raise _ApiError(400, refusal_text(room.game, str(error))) from None
        return JSONResponse(room.message(seat, since))

    async def claim(request: Request) -> Response:
        document = _object(_parse(await _read_body(request, max_body, body_seconds)), ("claim",), "the link's claim")
        code = document.get("claim")
        if not isinstance(code, str) or not _TOKEN.fullmatch(code):
            raise _ApiError(404, "no open room has a seat for this link (it may have ended)")
        room, seat, token = await rooms.claim(code)
        return JSONResponse({"room": room.id, "seat": seat, "token": token})

    async def record(request: Request) -> Response:
        room, seat = await seat_of(request)
        await room.refresh()
        document = room.record_for(seat)
        name = f"{room.game.name}-{room.id}.json"
        return JSONResponse(document, headers={"content-disposition": f'attachment; filename="{name}"'})

    async def events(request: Request) -> Response:
        since = _since(request)
        room, seat = await viewer_of(request)
        slot = contextlib.AsyncExitStack()
        client = client_of(request)
        # A watch link's streams are counted as one seat's (WATCHER): a few tabs, as a seat's.
        await slot.enter_async_context(rooms.stream_slot(room, WATCHER if seat is None else seat, client))
        return _Stream(_charged(follow(rooms, room, seat, since), budget, client), slot)

    async def page(request: Request) -> Response:
        name = "play.html" if request.url.path == "/play" else "index.html"
        return FileResponse(STATIC_DIR / name, headers={"cache-control": "no-cache"})

    # Each served game's drawing of its table, from the game's own package (its binding's page_script), read
    # once; a game without one is drawn by the page's generic fallback.
    scripts = {game.name: script.read_bytes() for game in rooms.games if (script := page_script(game)) is not None}

    async def game_script(request: Request) -> Response:
        script = scripts.get(request.path_params["name"])
        if script is None:
            # A script's type even when there is none, so that a browser reports a missing file, not a
            # refused one, and the page draws the board text.
            return Response("// no drawing for this game\n", status_code=404, media_type="text/javascript")
        return Response(script, media_type="text/javascript", headers={"cache-control": "no-cache"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _quiet_accept_errors(asyncio.get_running_loop())
        await rooms.start()

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(interval)
                try:
                    await rooms.sweep()
                except StoreError as error:
                    _LOG.warning("the sweep of ended rooms failed: %s", error)

        task = asyncio.get_running_loop().create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            await rooms.stop()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/play", page),
            Route("/api/options", answer(options)),
            Route("/api/rooms", answer(create_room), methods=["POST"]),
            Route("/api/table", answer(table)),
            Route("/api/move", answer(move), methods=["POST"]),
            Route("/api/events", answer(events)),
            Route("/api/record", answer(record)),
            Route("/api/claim", answer(claim), methods=["POST"]),
            Route("/static/games/{name}.js", game_script),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    app.state.budget = budget  # each client's RequestBudget, for the tests and for whoever embeds the app
    app.state.end_streams = rooms.end_streams  # called by cheekymonkey.web.server.Server as it shuts down
    app.add_middleware(_Guard, allowed_hosts=hosts)
    return app


class _Guard:
    def __init__(self, app: _ASGI, allowed_hosts: frozenset[str]) -> None:
        self._app = _guard(app, allowed_hosts)

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        await self._app(scope, receive, send)


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Log a failing ``accept`` (out of file descriptors) as one line a minute, not a traceback a second."""
    default = loop.get_exception_handler()
    last = [0.0]
    skipped = [0]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if "accept" not in str(context.get("message", "")):
            if default is not None:
                default(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - last[0] < 60:
            skipped[0] += 1
            return
        more = f" ({skipped[0]} more since the last report)" if skipped[0] else ""
        _LOG.error("cannot accept connections: %s%s", context.get("exception"), more)
        last[0], skipped[0] = now, 0

    loop.set_exception_handler(handler)
