"""The reference web front end: play in a browser, served by ``cheekymonkey serve``, for any game.

It needs the ``web`` extra (``pip install 'cheekymonkey[web]'``: Starlette and uvicorn); a Redis store needs
the ``redis`` extra too. The rooms live in :mod:`cheekymonkey.web.rooms` (each a thin layer over a
:class:`~cheekymonkey.table.Table`), which needs no web framework, and are kept in a store of
:mod:`cheekymonkey.web.store`; the limits and their counters are in :mod:`cheekymonkey.web.limits`, the
bots think in the worker processes of :mod:`cheekymonkey.web.bots`, and what a room refuses is one of the
errors of :mod:`cheekymonkey.web.errors`. :mod:`cheekymonkey.web.app` serves them with Starlette: a JSON API whose
bodies are the game's own documents, server-sent events for news, and a page of plain HTML, CSS and
JavaScript shipped in the package. The how-to :doc:`/howto/web-front-end` shows it.

>>> import asyncio
>>> from cheekymonkey import CHEEKY_MONKEY
>>> from cheekymonkey.web import RoomManager, SeatSpec
>>> async def demo():
...     manager = RoomManager(allow_seeds=True)
...     seats = [SeatSpec("Ann"), SeatSpec("Bob")]
...     room, tokens = await manager.create(CHEEKY_MONKEY, CHEEKY_MONKEY.ruleset(), seats, seed=1)
...     print(sorted(tokens), await manager.seat_for(tokens[1]) == (room, 1))
...     table = room.message(1)
...     print(table["view"]["kind"], table["to_move"], [s["name"] for s in table["seats"]])
...     print([event["text"] for event in table["events"]])
>>> asyncio.run(demo())
[0, 1] True
view 0 ['Ann', 'Bob']
['Ann draws a Hippo.']
"""

from __future__ import annotations

from cheekymonkey.web.app import DEFAULT_HOSTS, DEFAULT_MAX_BODY, MAX_DEPTH, STATIC_DIR, create_app
from cheekymonkey.web.bots import BotPool
from cheekymonkey.web.errors import (
    GameNotFinishedError,
    LimitError,
    NotYourTurnError,
    RoomClosedError,
    RoomDamagedError,
    RoomError,
    RoomsFullError,
    SeatNotFoundError,
    StaleMoveError,
)
from cheekymonkey.web.limits import SAFE_INTEGER, Limits
from cheekymonkey.web.rooms import (
    MAX_NAME_LENGTH,
    Room,
    RoomManager,
    SeatSpec,
    check_names,
    name_skeleton,
)
from cheekymonkey.web.store import (
    Listener,
    MemoryStore,
    RedisStore,
    RoomSummary,
    SqliteStore,
    Store,
    StoredRoom,
    StoreError,
    UnreadableRoomError,
    open_store,
    token_hash,
)

__all__ = [
    "DEFAULT_HOSTS",
    "DEFAULT_MAX_BODY",
    "MAX_DEPTH",
    "MAX_NAME_LENGTH",
    "SAFE_INTEGER",
    "STATIC_DIR",
    "BotPool",
    "GameNotFinishedError",
    "LimitError",
    "Limits",
    "Listener",
    "MemoryStore",
    "NotYourTurnError",
    "RedisStore",
    "Room",
    "RoomClosedError",
    "RoomDamagedError",
    "RoomError",
    "RoomManager",
    "RoomSummary",
    "RoomsFullError",
    "SeatNotFoundError",
    "SeatSpec",
    "SqliteStore",
    "StaleMoveError",
    "Store",
    "StoreError",
    "StoredRoom",
    "UnreadableRoomError",
    "check_names",
    "create_app",
    "name_skeleton",
    "open_store",
    "token_hash",
]
