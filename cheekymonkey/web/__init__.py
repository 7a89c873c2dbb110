"""The reference web front end: play in a browser, served by ``cheekymonkey serve``.

It needs the ``web`` extra (``pip install 'cheekymonkey[web]'``: Starlette and uvicorn). The rooms live in
:mod:`cheekymonkey.web.rooms`, which needs no web framework; :mod:`cheekymonkey.web.app` serves them with
Starlette: a JSON API whose bodies are the library's documents, server-sent events for news, and a page of
plain HTML, CSS and JavaScript shipped in the package. The how-to :doc:`/howto/web-front-end` shows it.

>>> from cheekymonkey.web import RoomManager, SeatSpec
>>> from cheekymonkey import Ruleset
>>> manager = RoomManager(allow_seeds=True)
>>> room, tokens = manager.create(Ruleset.standard(), [SeatSpec("Ann"), SeatSpec("Bob")], seed=1)
>>> sorted(tokens), manager.seat_for(tokens[1]) == (room, 1)
([0, 1], True)
>>> table = room.table(0)
>>> table["view"]["kind"], table["view"]["to_move"], [s["name"] for s in table["seats"]]
('view', 0, ['Ann', 'Bob'])
"""

from __future__ import annotations

from cheekymonkey.web.app import DEFAULT_MAX_BODY, STATIC_DIR, create_app
from cheekymonkey.web.rooms import (
    MAX_NAME_LENGTH,
    NotYourTurnError,
    Room,
    RoomClosedError,
    RoomError,
    RoomManager,
    RoomsFullError,
    SeatNotFoundError,
    SeatSpec,
)

__all__ = [
    "DEFAULT_MAX_BODY",
    "MAX_NAME_LENGTH",
    "STATIC_DIR",
    "NotYourTurnError",
    "Room",
    "RoomClosedError",
    "RoomError",
    "RoomManager",
    "RoomsFullError",
    "SeatNotFoundError",
    "SeatSpec",
    "create_app",
]
