"""Rooms for the web front end: one :class:`~cheekymonkey.table.Table` each, kept in a store, seats reached by tokens.

A :class:`~cheekymonkey.web.Room` is a thin layer over a :class:`~cheekymonkey.table.Table` of any
:class:`~cheekymonkey.game.Game`: the table holds the state, the seats (people, and bots that it plays
with :meth:`~cheekymonkey.Table.choose`), the events and the two random streams, and ends a game
that reaches the room's move limit as *truncated*. The room adds what a server needs around it: the seat
tokens, the version a move must name, the store every move is committed to before it is answered, the
streams waiting for news, and a message per seat (:meth:`~cheekymonkey.web.Room.message`) made of the
game's own documents, with every event told in words written for that seat. The full state never leaves
the room.

A :class:`~cheekymonkey.web.RoomManager` holds the rooms of one process, hands out the seat tokens, applies
the :class:`~cheekymonkey.web.Limits`, and ends rooms by the rule of
:meth:`~cheekymonkey.web.RoomManager.sweep`. Everything runs on one asyncio event loop; only a bot's choice,
a pure function of an immutable state, runs in a worker thread.

This module needs no web framework; :mod:`cheekymonkey.web.app` serves it over HTTP.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import random
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

import attrs

import cheekymonkey.table
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.game import check_names as check_seat_names
from cheekymonkey.game import name_key
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.table import Seat, Step, Table, Waiting
from cheekymonkey.web.store import MemoryStore, Store, StoredRoom, StoreError, token_hash

__all__ = [
    "MAX_NAME_LENGTH",
    "SAFE_INTEGER",
    "SERVED_GAMES",
    "GameNotFinishedError",
    "LimitError",
    "Limits",
    "NotYourTurnError",
    "Room",
    "RoomClosedError",
    "RoomError",
    "RoomManager",
    "RoomsFullError",
    "SeatNotFoundError",
    "SeatSpec",
    "StaleMoveError",
    "check_names",
    "name_skeleton",
]

MAX_NAME_LENGTH: Final = 24
"""The longest seat name accepted, in characters."""

SAFE_INTEGER: Final = 2**53 - 1
"""The largest whole number JavaScript holds exactly: no rule set the web accepts lets a number pass it."""

_LOG: Final = logging.getLogger("cheekymonkey.web")

_BOT_LEASE: Final = 30.0  # seconds a process may play a room's bots before it must renew its claim


SERVED_GAMES: Final[tuple[str, ...]] = GAME_NAMES
"""The games a server offers unless told otherwise: every game of :data:`~cheekymonkey.games.GAME_NAMES`."""


class RoomError(CheekyMonkeyError):
    """Something a room or the room manager refuses; the message is fit to show to the player."""

    status: int = 400
    """The HTTP status the server answers with."""


class NotYourTurnError(RoomError):
    """A seat sent a move while another seat is to act; the room is unchanged."""

    status = 409


class StaleMoveError(RoomError):
    """A move named a version the room has passed (a retry, or a move chosen from an old table): not played."""

    status = 409


class GameNotFinishedError(RoomError):
    """The record of a game is given out only once the game is finished."""

    status = 409


class SeatNotFoundError(RoomError):
    """No open room has a seat with this token (a wrong link, or the room has ended)."""

    status = 404


class RoomClosedError(RoomError):
    """The room has ended (see :meth:`~cheekymonkey.web.RoomManager.sweep`); it takes no more moves."""

    status = 409


class LimitError(RoomError):
    """A limit of :class:`Limits` was reached; ``retry_after`` says how many seconds to wait."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, retry_after)
        """Seconds to wait before asking again (the answer's ``Retry-After``)."""


class RoomsFullError(LimitError):
    """The server already holds as many rooms, or streams, as it is allowed to."""

    status = 503


def _positive(kind: type[int] | type[float]) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int if kind is int else (int, float)) or not value > 0:
            raise InvalidValueError(f"{attribute.name} must be a positive {kind.__name__}, got {value!r}")
        if not math.isfinite(value):
            raise InvalidValueError(f"{attribute.name} must be finite, got {value!r}")

    return check


@attrs.frozen
class Limits:
    """What one server allows, so that no client can take it from the others.

    Each has a flag of ``cheekymonkey serve`` of the same name (``--rooms-per-client``, ...).

    Raises:
        InvalidValueError: If a limit is not a positive number, or ``max_number`` is above :data:`SAFE_INTEGER`.
    """

    max_rooms: int = attrs.field(default=1000, validator=_positive(int))
    """Rooms open at once, in all (more: 503)."""
    rooms_per_client: int = attrs.field(default=20, validator=_positive(int))
    """Rooms one client (one address) may have open at once (more: 429)."""
    rooms_per_minute: int = attrs.field(default=10, validator=_positive(int))
    """Rooms one client may make in any 60 seconds (more: 429)."""
    max_streams: int = attrs.field(default=500, validator=_positive(int))
    """Event streams open at once, in all (more: 503)."""
    streams_per_seat: int = attrs.field(default=4, validator=_positive(int))
    """Event streams open at once on one seat (more: 429): a few tabs, not a flood."""
    max_moves: int = attrs.field(default=2000, validator=_positive(int))
    """Actions a room's game may take, chance and bots included; a game that reaches it stops as *truncated*."""
    bot_memory: int = attrs.field(default=1000, validator=_positive(int))
    """Entries each bot may keep in its caches from one move to the next (about half a KiB each)."""
    max_number: int = attrs.field(default=10_000, validator=_positive(int))
    """The largest :meth:`~cheekymonkey.Game.number_bound` of a rule set the server accepts."""
    idle_minutes: float = attrs.field(default=60.0, validator=_positive(float))
    """A game nobody has moved in for this long ends."""
    finished_minutes: float = attrs.field(default=15.0, validator=_positive(float))
    """A finished game's room ends this long after its last move (its record can be downloaded until then)."""

    def __attrs_post_init__(self) -> None:
        if self.max_number > SAFE_INTEGER:
            raise InvalidValueError(
                f"max_number must be at most 2**53 - 1 (exact in JavaScript), got {self.max_number}"
            )


name_skeleton = name_key
"""What a name looks like, for telling names apart: :func:`cheekymonkey.game.name_key`, under its older name."""


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise RoomError(f"a seat name must be text, got {type(name).__name__}")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise RoomError("a seat name must not be empty")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise RoomError(f"the seat name {cleaned[:MAX_NAME_LENGTH]!r}... is longer than {MAX_NAME_LENGTH} characters")
    check_names([cleaned])
    return cleaned


def check_names(names: Sequence[str]) -> None:
    """Refuse seat names two players could mistake for each other, as every front end does.

    The rule is :func:`cheekymonkey.game.check_names` (names that differ only in case, spacing,
    punctuation or look-alike letters, "you" and its look-alikes, names without a letter or a digit); here
    it raises the web's own error, which the server answers with 400.

    Raises:
        RoomError: Naming the name, or the two names that look alike.

    >>> check_names(["Ann", "Bob"])
    >>> check_names(["Ann", "ANN"])
    Traceback (most recent call last):
    ...
    cheekymonkey.web.rooms.RoomError: the names 'Ann' and 'ANN' look alike: give each seat a name of its own
    """
    try:
        check_seat_names(names)
    except InvalidValueError as error:
        raise RoomError(str(error)) from None


@attrs.frozen
class SeatSpec:
    """Who sits in a seat: a person (``bot`` is None) or a bot of the kind named ``bot``.

    Raises:
        RoomError: If the name is empty, too long (over :data:`MAX_NAME_LENGTH`), holds control characters,
            has no letter or digit, or reads as "you"; or ``bot`` is not text.
    """

    name: str = attrs.field(converter=_check_name)
    """The name shown to everybody at the table (whitespace runs become one space)."""
    bot: str | None = attrs.field(default=None)
    """The bot's kind (``"heuristic"``, ...), or None for a person."""

    @bot.validator
    def _check_bot(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None and not isinstance(value, str):
            raise RoomError(f"a bot kind must be text, got {type(value).__name__}")

    @property
    def kind(self) -> str:
        """``"human"`` or the bot's kind."""
        return "human" if self.bot is None else self.bot


def _bare(document: dict[str, Any]) -> dict[str, Any]:
    """A document without its format header, as a view's own lists hold actions."""
    return {key: value for key, value in document.items() if key not in ("format", "kind")}


class Room:
    """One game at one table: a :class:`~cheekymonkey.table.Table`, its tokens' seats, its store and its streams.

    Build rooms with :meth:`RoomManager.create`, which also hands out the seat tokens. ``room.table`` is the
    game in progress, for the server's own use: it is never sent to a seat.

    Args:
        manager: The manager that holds the room (its store, limits and clock).
        room_id: The room's public name (not a secret: the seat tokens are).
        table: The game in progress.
        header: The record document of the game with no actions, as the store keeps it.
        rules: The name the rules are shown by.
        last_move: When the last action was played (the clock's seconds).
    """

    def __init__(
        self,
        manager: RoomManager,
        room_id: str,
        table: cheekymonkey.table.Table[Any, Any, Any, Any, Any],
        header: dict[str, Any],
        rules: str,
        last_move: float,
    ) -> None:
        self.manager = manager
        self.id: Final = room_id
        # The game in progress (a cheekymonkey.table.Table): for the server's own use, never sent to a seat.
        self.table = table
        self.game: AnyGame = table.game
        self.rules = rules
        self.last_move = last_move
        """When the last action was played (the manager's clock)."""
        self.closed = False
        """Whether the room has ended; it then takes no more moves."""
        self._header = header
        self._documents = self.game.documents()
        self._lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._bot_task: asyncio.Task[None] | None = None
        self.streams: collections.Counter[int] = collections.Counter()
        """How many event streams are open on each seat."""

    # -- the game -----------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many actions the game has had: a move names the version it was chosen from."""
        return len(self.table.actions)

    @property
    def finished(self) -> bool:
        """Whether the game is over, or was cut off at the room's move limit."""
        return self.table.finished

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats, in order."""
        return self.table.seats

    def record_document(self) -> dict[str, Any]:
        """The game's record, as a document (the server gives it out once the game is finished).

        Raises:
            GameNotFinishedError: If the game is not finished.
        """
        if not self.finished:
            raise GameNotFinishedError("the record can be downloaded once the game is finished")
        return self._documents.to_document(self.table.record())

    def _action_documents(self, steps: Sequence[Step[Any, Any, Any]]) -> list[dict[str, Any]]:
        # The actions as the game's record writes them, so a stored room reads back as one record document.
        table = self.table
        record = self.game.record(table.ruleset, table.players, table.first_player, [s.action for s in steps])
        actions: list[dict[str, Any]] = self._documents.to_document(record)["actions"]
        return actions

    def _changed_now(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _commit(self, version: int, steps: list[Step[Any, Any, Any]]) -> bool:
        """Append the steps played since ``version`` to the store; undo them if that fails."""
        if not steps:
            return True
        now = self.manager.clock()
        try:
            done = await self.manager.store.append(
                self.id, version, self._action_documents(steps), last_move=now, finished=self.table.finished
            )
        except StoreError:
            self.table.undo(len(steps))
            raise
        if not done:
            self.table.undo(len(steps))
            return False
        self.last_move = now
        return True

    async def refresh(self) -> None:
        """Catch up with the store, for a store that other processes change too (nothing otherwise)."""
        if not self.manager.store.shared or self.closed:
            return
        async with self._lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        newer = await self.manager.store.actions_since(self.id, self.version)
        if newer is None:
            self.close()
            return
        if not newer:
            return
        try:
            for document in newer:
                self.table.play(self._documents.from_document(document, "action"))
        except (CheekyMonkeyError, KeyError, TypeError, ValueError) as error:
            _LOG.warning("room %s cannot follow its record in the store and is closed here: %s", self.id, error)
            self.close()
            return
        self.last_move = self.manager.clock()
        self._changed_now()

    async def play(
        self, seat: int, version: int, *, action: object = None, text: str | None = None
    ) -> list[Step[Any, Any, Any]]:
        """Play ``seat``'s move, chosen from ``version``, resolve chance after it, commit it, then start the bots.

        Give the move as an ``action`` of the game, or as ``text`` in the game's notation (which may name
        several actions, played all or none).

        Raises:
            RoomClosedError: If the room has ended.
            StaleMoveError: If the room is past ``version`` (the move was already played, or chosen from an
                old table).
            NotYourTurnError: If another seat is to act (or a bot), or the game is finished.
            NotYourDecisionError: If the move goes past the seat's own decisions (a text that names a draw's
                outcome, or another seat's move).
            IllegalActionError: If the rules forbid the move.
            ActionTextError: If ``text`` names no legal action.
            StoreError: If the store cannot take the move.

        In every case the room is then unchanged.
        """
        async with self._lock:
            if self.manager.store.shared:
                await self._catch_up()
            if self.closed:
                raise RoomClosedError("this room has ended")
            if version != self.version:
                raise StaleMoveError(
                    f"the table has moved on since version {version} (it is at {self.version}): look again and choose"
                )
            table = self.table
            if table.finished:
                raise NotYourTurnError("the game is finished")
            if table.to_move != seat:
                mover = table.to_move
                name = "chance" if mover is None else f"{table.names[mover]}'s turn (seat {mover})"
                raise NotYourTurnError(f"it is {name}, not seat {seat}'s")
            # Only the seat's own decisions: a text or document that settles a draw or plays another seat's turn
            # is refused whole (NotYourDecisionError), before anything is played.
            steps = table.play_text_as(seat, text) if text is not None else [table.play_as(seat, action)]
            steps += table.advance(bots=False)
            if not await self._commit(version, steps):
                await self._catch_up()
                raise StaleMoveError("another move was played first: look again and choose")
        self._changed_now()
        self.start_bots()
        return steps

    def start_bots(self) -> None:
        """Start the bots' turns in the background if a bot is to move (nothing if they are already playing)."""
        if self._bot_task is None and not self.closed and self.table.waiting is Waiting.BOT:
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        store = self.manager.store
        owner = self.manager.process
        claimed = False
        try:
            while not self.closed:
                await self.refresh()
                if self.table.waiting is not Waiting.BOT:
                    return
                # With several processes, one of them plays a room's bots; the others hear of the moves.
                claimed = await store.claim_bots(self.id, owner, _BOT_LEASE)
                if not claimed:
                    return
                if self.manager.bot_delay:
                    await asyncio.sleep(self.manager.bot_delay)
                version = self.version
                # A bot's choice is a pure function of an immutable state: a worker thread keeps a slow bot
                # from stalling every other room on this event loop.
                action = await asyncio.to_thread(self.table.choose)
                async with self._lock:
                    if self.closed or self.version != version:
                        continue
                    steps = [self.table.play(action), *self.table.advance(bots=False)]
                    try:
                        done = await self._commit(version, steps)
                    except StoreError as error:
                        _LOG.warning("room %s: a bot's move could not be stored (%s); trying again", self.id, error)
                        done = False
                        await asyncio.sleep(5.0)
                    if not done:
                        await self._catch_up()
                        continue
                self._changed_now()
        except StoreError as error:
            _LOG.warning("room %s: the store failed while the bots played (%s)", self.id, error)
        finally:
            self._bot_task = None
            if claimed:
                with contextlib.suppress(StoreError):
                    await store.release_bots(self.id, owner)

    # -- what a seat sees ---------------------------------------------------------------------------

    def message(self, seat: int, since: int = 0) -> dict[str, Any]:
        """What ``seat`` sees now, as a JSON-ready dictionary; ``events`` holds those numbered ``since`` on.

        The keys, the same for every game:

        - ``game``, ``title``, ``rules``: the game's name and title, and the rules' name;
        - ``room``, ``seat``, ``version`` (the number a move must name), ``closed``;
        - ``seats``: each seat's ``name``, ``kind`` (``"human"`` or a bot kind) and ``title`` (a bot's
          kind for people, ``"MCTS"``; None for a person);
        - ``waiting`` (``"person"``, ``"bot"``, ``"over"`` or ``"truncated"``) and ``to_move``;
        - ``view``: the seat's view document (:meth:`~cheekymonkey.Game.view`), never the full state;
        - ``legal``: the seat's moves now, each its ``action`` document, its ``text`` in the game's notation
          and its ``words``; empty unless the seat is to move;
        - ``facts``: :meth:`~cheekymonkey.Game.facts`, what the seat could work out for itself;
        - ``events``: ``{"seq", "event", "text"}`` for each event from ``since`` on: its document and one
          line in words written for this seat (their own seat is "you");
        - ``outcome``: ``{"winners", "ranks"}`` once the game is over, else None.
        """
        table = self.table
        game = self.game
        documents = self._documents
        state = table.state
        names = table.names
        start = max(0, since)
        legal = table.legal_actions() if table.waiting is Waiting.PERSON and table.to_move == seat else ()
        outcome = table.outcome()
        return {
            "game": game.name,
            "title": game.title,
            "rules": self.rules,
            "room": self.id,
            "seat": seat,
            "version": self.version,
            "closed": self.closed,
            "seats": [
                {"seat": i, "name": s.name, "kind": s.kind, "title": game.bot_title(s.kind) if s.is_bot else None}
                for i, s in enumerate(table.seats)
            ],
            "waiting": table.waiting.value,
            "to_move": table.to_move,
            "view": documents.to_document(table.view(seat)),
            "legal": [
                {
                    "action": _bare(documents.to_document(action)),
                    "text": game.action_text(action, state),
                    "words": game.action_words(action, state, names),
                }
                for action in legal
            ],
            "facts": game.facts(state, seat),
            "events": [
                {"seq": start + i, "event": documents.to_document(event), "text": game.event_text(event, names, seat)}
                for i, event in enumerate(table.events_since(start))
            ],
            "outcome": None if outcome is None else {"winners": list(outcome.winners), "ranks": list(outcome.ranks)},
        }

    @property
    def event_count(self) -> int:
        """How many events the room has logged (the next event's ``seq``)."""
        return len(self.table.events)

    async def wait_for_change(self, version: int, timeout: float) -> bool:
        """Wait until the room is past ``version``; False if ``timeout`` seconds pass first.

        A closed room counts as changed: its streams wake up, send the last table and end.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.version <= version and not self.closed:
            left = deadline - loop.time()
            if left <= 0:
                return False
            # Every change sets the current event and puts a new one in its place, so each waiter wakes.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    def close(self) -> None:
        """End the room here: no more moves; every waiting stream wakes up, sees ``closed`` and ends."""
        if self.closed:
            return
        self.closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()
        self._changed_now()


class RoomManager:
    """The rooms of one server process, the seat tokens that reach them, the limits, and the end of rooms.

    Args:
        store: Where rooms are kept (a :class:`~cheekymonkey.web.store.MemoryStore` if None).
        limits: What one server allows (:class:`Limits`).
        bot_delay: Seconds a bot waits before each move (0 in tests).
        allow_seeds: Whether :meth:`create` accepts a seed. A seeded room's draws are predictable, so
            this is for tests and demonstrations only.
        games: The names of the games served (by default :data:`~cheekymonkey.web.rooms.SERVED_GAMES`).
        clock: Seconds since the epoch (``time.time``), for when rooms moved.
    """

    def __init__(
        self,
        *,
        store: Store | None = None,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
        allow_seeds: bool = False,
        games: Sequence[str] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.limits = limits if limits is not None else Limits()
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        self.games: tuple[AnyGame, ...] = tuple(game_named(name) for name in (games or SERVED_GAMES))
        self.clock = clock
        self.process = uuid.uuid4().hex
        """This process's name, for the lease on a room's bots when several processes share the store."""
        self.rooms: dict[str, Room] = {}
        """The rooms this process holds, by id (with a shared store, those it has been asked about)."""
        self._seats: dict[str, tuple[str, int]] = {}
        self._room_tokens: dict[str, list[str]] = collections.defaultdict(list)
        self._client_rooms: dict[str, set[str]] = collections.defaultdict(set)
        self._client_times: dict[str, collections.deque[float]] = {}
        self._creating = asyncio.Lock()
        self._streams = 0
        self._listener: asyncio.Task[None] | None = None

    def game(self, name: str) -> AnyGame:
        """The served game called ``name``.

        Raises:
            RoomError: If this server serves no game of that name.
        """
        for game in self.games:
            if game.name == name:
                return game
        raise RoomError(f"no game named {name!r} is served here; the games are {', '.join(g.name for g in self.games)}")

    # -- start and stop -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the rooms the store keeps (a store of this process only) or listen for other processes' moves."""
        if self.store.shared:
            self._listener = asyncio.get_running_loop().create_task(self.store.listen(self._heard))
            return
        for summary in await self.store.summaries():
            await self._load(summary.id)
        for room in self.rooms.values():
            room.start_bots()

    async def stop(self) -> None:
        """Stop the rooms' bots and streams here (the rooms stay in the store) and release the store."""
        if self._listener is not None:
            self._listener.cancel()
        for room in self.rooms.values():
            room.close()
        self.rooms.clear()
        await self.store.close()

    async def _heard(self, room_id: str, version: int | None) -> None:
        room = self.rooms.get(room_id)
        if room is None:
            return
        if version is None:
            self._forget(room_id)
        elif version > room.version:
            await room.refresh()
            room.start_bots()

    async def _load(self, room_id: str) -> Room | None:
        stored = await self.store.load(room_id)
        if stored is None:
            return None
        try:
            room = self._rebuild(stored)
        except (CheekyMonkeyError, KeyError, TypeError, ValueError) as error:
            _LOG.warning("room %s cannot be rebuilt from its record and stays closed: %s", room_id, error)
            return None
        self.rooms[room_id] = room
        return room

    def _rebuild(self, stored: StoredRoom) -> Room:
        game = self.game(stored.game)
        record = game.documents().from_document({**stored.record, "actions": list(stored.actions)}, "record")
        seats = [self._seat(game, name, kind) for name, kind in zip(record.names, record.bots, strict=True)]
        seed = record.seed if record.seed is not None else random.SystemRandom()
        table = Table(
            game,
            seats,
            ruleset=record.ruleset,
            first_player=record.first_player,
            seed=seed,
            max_steps=max(self.limits.max_moves, len(record.actions) + 1),
        )
        for action in record.actions:
            table.play(action)
        return Room(self, stored.id, table, stored.record, stored.rules, stored.last_move)

    def _seat(self, game: AnyGame, name: str, kind: str) -> Seat:
        if kind == "human":
            return Seat.person(name)
        return Seat(name, kind, game.bot_named(kind, memory=self.limits.bot_memory))

    # -- rooms ----------------------------------------------------------------------------------------

    async def create(
        self,
        game: AnyGame,
        ruleset: Any,
        seats: Sequence[SeatSpec],
        *,
        rules: str = "custom",
        seed: int | None = None,
        client: str = "",
    ) -> tuple[Room, dict[int, str]]:
        """Open a room; return it and each person's seat token (only ever given out here).

        Raises:
            LimitError: If ``client`` has as many rooms open as :attr:`Limits.rooms_per_client`, or made
                :attr:`Limits.rooms_per_minute` in the last minute (429).
            RoomsFullError: If :attr:`Limits.max_rooms` rooms are open (503).
            RoomError: If a seed is given but seeds are not allowed, no seat is a person, a bot kind is
                unknown, two names look alike, or the rules' numbers are over :attr:`Limits.max_number`.
            InvalidGameError: If the number of seats does not suit the rule set.
            StoreError: If the store cannot keep the room.
        """
        if seed is not None and not self.allow_seeds:
            raise RoomError("this server does not accept seeds: draws must stay unpredictable")
        if not any(s.bot is None for s in seats):
            raise RoomError("a room needs at least one person; to watch bots play, use 'cheekymonkey watch'")
        for spec in seats:
            if spec.bot is not None and spec.bot not in game.bot_names():
                raise RoomError(f"no bot named {spec.bot!r}; the bots are {', '.join(game.bot_names())}")
        check_names([s.name for s in seats])
        bound = game.number_bound(ruleset)
        if bound > self.limits.max_number:
            raise RoomError(
                f"these rules allow numbers up to {bound}, over this server's limit of {self.limits.max_number}: "
                "use fewer tokens or smaller values"
            )
        async with self._creating:
            self._check_client(client)
            if len(self.rooms) >= self.limits.max_rooms or await self.store.count() >= self.limits.max_rooms:
                raise RoomsFullError(f"the server already holds {self.limits.max_rooms} rooms; try again later", 60)
            table = Table(
                game,
                [self._seat(game, s.name, s.kind) for s in seats],
                ruleset=ruleset,
                seed=seed if seed is not None else random.SystemRandom(),
                max_steps=self.limits.max_moves,
            )
            steps = table.advance(bots=False)
            room_id = secrets.token_urlsafe(9)
            header = game.documents().to_document(
                game.record(table.ruleset, table.players, table.first_player, [], seed=seed, names=table.names,
                            bots=table.kinds)
            )  # fmt: skip
            room = Room(self, room_id, table, header, rules, self.clock())
            tokens = {i: secrets.token_urlsafe(32) for i, s in enumerate(seats) if s.bot is None}
            stored = StoredRoom(
                room_id, game.name, rules, header, tuple(room._action_documents(steps)), room.last_move,
                room.last_move, table.finished
            )  # fmt: skip
            await self.store.create(stored, {seat: token_hash(token) for seat, token in tokens.items()})
            self.rooms[room_id] = room
            for seat, token in tokens.items():
                self._seats[token_hash(token)] = (room_id, seat)
                self._room_tokens[room_id].append(token_hash(token))
            self._client_rooms[client].add(room_id)
            self._client_times.setdefault(client, collections.deque()).append(time.monotonic())
        room.start_bots()
        return room, tokens

    def _check_client(self, client: str) -> None:
        now = time.monotonic()
        times = self._client_times.get(client)
        if times is not None:
            while times and times[0] <= now - 60:
                times.popleft()
            if not times:
                del self._client_times[client]
            elif len(times) >= self.limits.rooms_per_minute:
                wait = math.ceil(times[0] + 60 - now)
                raise LimitError(
                    f"you made {len(times)} rooms in the last minute, this server's limit; try again in {wait} s", wait
                )
        mine = self._client_rooms.get(client)
        if mine is not None:
            mine &= self.rooms.keys()
            if len(mine) >= self.limits.rooms_per_client:
                raise LimitError(f"you have {len(mine)} rooms open, this server's limit: finish or leave one first", 60)

    async def seat_for(self, token: str) -> tuple[Room, int]:
        """The room and seat a token opens.

        Raises:
            SeatNotFoundError: If no open room has a seat with this token.
        """
        hashed = token_hash(token)
        found = self._seats.get(hashed)
        room = None if found is None else self.rooms.get(found[0])
        if room is None:  # a room kept in the store that this process has not been asked about yet
            found = await self.store.seat_for(hashed)
            if found is not None:
                room = self.rooms.get(found[0]) or await self._load(found[0])
                if room is not None:
                    self._seats[hashed] = found
                    self._room_tokens[room.id].append(hashed)
        if room is None or found is None or room.closed:
            raise SeatNotFoundError("no open room has a seat for this link (it may have ended)")
        return room, found[1]

    def _forget(self, room_id: str) -> None:
        room = self.rooms.pop(room_id, None)
        if room is not None:
            room.close()
        for hashed in self._room_tokens.pop(room_id, ()):
            self._seats.pop(hashed, None)

    async def close(self, room_id: str) -> None:
        """End a room: forget it here and in the store (its links stop working)."""
        self._forget(room_id)
        await self.store.delete(room_id)

    async def sweep(self) -> list[str]:
        """End the rooms whose time is up; return their ids.

        The rule: a room ends when its game finished (over, or cut off at the move limit) and
        :attr:`Limits.finished_minutes` have passed since its last move, or when nobody (person or bot) has
        moved in it for :attr:`Limits.idle_minutes`. Reading a table or following its events does not keep
        a room open.
        """
        now = self.clock()
        ended = []
        for summary in await self.store.summaries():
            idle = now - summary.last_move
            limit = self.limits.finished_minutes if summary.finished else self.limits.idle_minutes
            if idle >= limit * 60:
                ended.append(summary.id)
                await self.close(summary.id)
        return ended

    # -- streams --------------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def stream_slot(self, room: Room, seat: int) -> AsyncIterator[None]:
        """Hold one of the event streams the limits allow while the ``with`` block runs.

        Raises:
            LimitError: If the seat has :attr:`Limits.streams_per_seat` streams open (429).
            RoomsFullError: If :attr:`Limits.max_streams` streams are open in all (503).
        """
        if room.streams[seat] >= self.limits.streams_per_seat:
            raise LimitError(f"this seat already has {room.streams[seat]} event streams open: close a tab", 10)
        if self._streams >= self.limits.max_streams:
            raise RoomsFullError(f"the server already serves {self._streams} event streams; try again later", 10)
        room.streams[seat] += 1
        self._streams += 1
        try:
            yield
        finally:
            room.streams[seat] -= 1
            self._streams -= 1

    @property
    def open_streams(self) -> int:
        """How many event streams are open."""
        return self._streams
