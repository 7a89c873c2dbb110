"""Rooms for the web front end: one :class:`~cheekymonkey.table.Table` each, kept in a store, seats reached by tokens.

A :class:`~cheekymonkey.web.Room` is a thin layer over a :class:`~cheekymonkey.table.Table` of any
:class:`~cheekymonkey.game.Game`: the table holds the state, the seats, the events and the chance stream,
and ends a game that reaches the room's move limit as *truncated*. The room adds what a server needs around
it: the seat tokens, the version a move must name, the store every move is committed to before it is
answered, the bots' random stream, and a message per seat (:meth:`~cheekymonkey.web.Room.message`). The
full state never leaves the room.

A :class:`~cheekymonkey.web.RoomManager` holds the rooms of one process, hands out the seat tokens, and ends
rooms by the rule of :meth:`~cheekymonkey.web.RoomManager.sweep`. It holds the games in progress and a few
finished ones; the other finished games stay in the store only and are read again when asked for. A room
whose record cannot be read or replayed is closed by itself (:class:`~cheekymonkey.web.RoomDamagedError`),
and the others are served as ever. Everything runs on one asyncio event loop.

The rooms' other jobs each have a module of their own, and every name is still importable from here:

- :mod:`cheekymonkey.web.bots`: the bots' turns, each decision made in a worker process;
- :mod:`cheekymonkey.web.messages`: what a seat is sent;
- :mod:`cheekymonkey.web.limits`: the :class:`~cheekymonkey.web.Limits` and the per-client counts;
- :mod:`cheekymonkey.web.streams`: the event streams' slots, and what a stream sends;
- :mod:`cheekymonkey.web.errors`: what a room refuses.

This module needs no web framework; :mod:`cheekymonkey.web.app` serves it over HTTP.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

import cheekymonkey.table
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named
from cheekymonkey.names import check_names as check_seat_names
from cheekymonkey.names import name_key
from cheekymonkey.table import Seat, Step, Table, Waiting, rngs_for
from cheekymonkey.web.bots import STAND_IN, BotPool, bot_problem, play_bots
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
from cheekymonkey.web.limits import (
    SAFE_INTEGER,
    Counters,
    Limits,
    LocalCounters,
    RedisCounters,
    StreamSlot,
    reserved,
)
from cheekymonkey.web.messages import bare, events_seen_since, table_message
from cheekymonkey.web.store import (
    WATCHER,
    MemoryStore,
    RedisStore,
    Store,
    StoredRoom,
    StoreError,
    UnreadableRoomError,
    token_hash,
)
from cheekymonkey.web.streams import StreamSlots

# The errors and the limits live in cheekymonkey.web.errors and cheekymonkey.web.limits; their names stay
# importable from here, where they were first.
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
    "RoomDamagedError",
    "RoomError",
    "RoomManager",
    "RoomsFullError",
    "SeatClaimedError",
    "SeatNotFoundError",
    "SeatSpec",
    "StaleMoveError",
    "WatchOnlyError",
    "check_names",
    "name_skeleton",
]

MAX_NAME_LENGTH: Final = 24
"""The longest seat name accepted, in characters."""

_LOG: Final = logging.getLogger("cheekymonkey.web")


SERVED_GAMES: Final[tuple[str, ...]] = GAME_NAMES
"""The games a server offers unless told otherwise: every game of :data:`~cheekymonkey.games.GAME_NAMES`."""


name_skeleton = name_key
"""What a name looks like, for telling names apart: :func:`cheekymonkey.names.name_key`, under its older name."""


class SeatClaimedError(RoomError):
    """A seat's link that has already been opened, and claimed, by another browser (409)."""

    status = 409


class WatchOnlyError(RoomError):
    """A room's watch link used to move or to fetch a seat's record: it only shows the public table (403)."""

    status = 403


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

    The rule is :func:`cheekymonkey.names.check_names` (names that differ only in case, spacing,
    punctuation or look-alike letters, "you" and its look-alikes, names without a letter or a digit); here
    it raises the web's own error, which the server answers with 400.

    Raises:
        RoomError: Naming the name, or the two names that look alike.

    >>> check_names(["Ann", "Bob"])
    >>> check_names(["Ann", "ANN"])
    Traceback (most recent call last):
    ...
    cheekymonkey.web.errors.RoomError: the names 'Ann' and 'ANN' look alike: give each seat a name of its own
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
        bot_rng: The bots' random stream (by default the one a table with the game's seed gives its bots, or
            a fresh unpredictable one for a game without a seed).
    """

    def __init__(
        self,
        manager: RoomManager,
        room_id: str,
        table: cheekymonkey.table.Table[Any, Any, Any, Any, Any],
        header: dict[str, Any],
        rules: str,
        last_move: float,
        bot_rng: random.Random | None = None,
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
        # The bots' stream: the one a table with this seed would give its bots, so a seeded room's bots
        # choose as at such a table, wherever they think.
        seed = table.seed
        self._bot_rng = bot_rng or (rngs_for(seed)[1] if seed is not None else random.Random(secrets.randbits(128)))
        self.streams: collections.Counter[int] = collections.Counter()
        """How many event streams are open on each seat, in this process."""
        self.stand_ins: dict[int, str] = {}
        """The seats whose bot failed to decide, each with the kind of bot that plays it instead (in this process)."""
        self.notices: list[str] = []
        """What the room tells every seat of its bots' failures (each table carries them, in ``notices``)."""
        self.bots_stopped = False
        """Whether the room's bots have stopped for good (no bot could decide): the room ends by its idle time."""

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

    def record_for(self, seat: int) -> dict[str, Any]:
        """The finished game's record as ``seat`` may have it: what the server gives out at ``/api/record``.

        For a game without private information, :meth:`record_document`: the replayable record, seed and all.

        For a game with private information, a record of kind ``"seat-record"`` that holds no more than the
        seat's last table: the header (game, rules, seats, first player) without the seed (which would
        replay every hidden draw), the events as the seat saw them (each through the game's
        :meth:`~cheekymonkey.Game.event_for`, numbered as in the room's log), the seat's view at the end
        (:meth:`~cheekymonkey.Game.view`: what the rules reveal there, such as the hands a showdown shows, and
        no more: a folded hand stays hidden), the outcome and each seat's returns. It cannot be replayed: the
        hidden draws are not in it.

        Raises:
            GameNotFinishedError: If the game is not finished (a record of the game in progress would show
                the draws hidden from the seat, so none is given before the end, for any game).
        """
        if not self.finished:
            raise GameNotFinishedError("the record can be downloaded once the game is finished")
        if not self.game.private_information:
            return self.record_document()
        table = self.table
        outcome = table.outcome()
        header = {key: value for key, value in self._header.items() if key not in ("actions", "seed", "quit_by")}
        return {
            **header,
            "kind": "seat-record",
            "game": self.game.name,
            "seat": seat,
            "seed": None,
            "truncated": table.truncated,
            "events": [
                {"seq": seq, "event": bare(self._documents.to_document(event))}
                for seq, event in events_seen_since(table, seat, 0)
            ],
            "view": bare(self._documents.to_document(table.view(seat))),
            "outcome": None if outcome is None else {"winners": list(outcome.winners), "ranks": list(outcome.ranks)},
            "returns": None if outcome is None else list(self.game.returns(table.state)),
        }

    def _action_documents(self, steps: Sequence[Step[Any, Any, Any]]) -> list[dict[str, Any]]:
        # Each action as its own document without the header (as a view lists the legal actions), read back
        # one by one with the game's documents when the room is rebuilt.
        return [bare(self._documents.to_document(step.action)) for step in steps]

    def _changed_now(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
        if self.finished and not self.closed:
            self.manager.finished_now(self)

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
        """Start the bots' turns in the background if a bot is to move (nothing if they are already playing).

        :func:`cheekymonkey.web.bots.play_bots` plays them, each decision made in the manager's
        :class:`~cheekymonkey.web.BotPool`.
        """
        playing = self._bot_task is not None and not self._bot_task.done()
        if not playing and not self.closed and not self.bots_stopped and self.table.waiting is Waiting.BOT:
            self._bot_task = asyncio.get_running_loop().create_task(play_bots(self))

    @property
    def bot_rng(self) -> random.Random:
        """The bots' random stream: a bot's decision draws from it, and the room keeps what the decision left."""
        return self._bot_rng

    def bot_failed(self, seat: int, kind: str, why: str) -> None:
        """``seat``'s ``kind`` bot failed to decide: the stand-in bot plays the seat from now on; the seats are told.

        One log line names the room, the seat, the bot and why.
        """
        stand_in = STAND_IN
        self.stand_ins[seat] = stand_in
        name = self.table.names[seat]
        _LOG.warning(
            "room %s: the %s bot of seat %d failed to decide (%s); the %s bot plays the seat from now on",
            self.id, kind, seat, why, stand_in,
        )  # fmt: skip
        self.notices.append(
            f"{name} ({self.game.bot_title(kind)} bot) could not decide; a {self.game.bot_title(stand_in)} bot "
            "plays that seat from now on."
        )

    def stop_bots(self, why: str) -> None:
        """The room's bots stop for good (one log line, and a notice to the seats); the room ends by its idle time."""
        if self.bots_stopped:
            return
        self.bots_stopped = True
        _LOG.warning("room %s: %s; its bots have stopped and the room ends when its idle time runs out", self.id, why)
        self.notices.append(
            "The bots of this room could not go on, so this game cannot be finished; the room closes after "
            f"{self.manager.limits.idle_minutes:g} minutes without a move. Start a new room."
        )
        self._changed_now()

    async def play_bot(self, version: int, action: object, rng: random.Random) -> bool:
        """Play a bot's ``action``, chosen at ``version``, and commit it; False if the room moved on meanwhile.

        ``rng`` is the bots' stream as the decision left it: the room keeps it once the move is committed.

        Raises:
            StoreError: If the store cannot take the move (the room is then unchanged).
        """
        async with self._lock:
            if self.closed or self.version != version:
                return False
            steps = [self.table.play(action), *self.table.advance(bots=False)]
            if not await self._commit(version, steps):
                await self._catch_up()
                return False
            self._bot_rng = rng
        self._changed_now()
        return True

    # -- what a seat sees ---------------------------------------------------------------------------

    def message(self, seat: int | None, since: int = 0) -> dict[str, Any]:
        """What ``seat`` sees now, as a JSON-ready dictionary; ``events`` holds those numbered ``since`` on.

        ``seat`` None is a spectator (a watch link): what no seat holds, the game's public view and events
        (:meth:`~cheekymonkey.Game.view`, :meth:`~cheekymonkey.Game.event_for` of None), and no moves.

        The keys, the same for every game:

        - ``game``, ``title``, ``rules``: the game's name and title, and the rules' name;
        - ``room``, ``seat`` (None for a spectator), ``version`` (the number a move must name), ``closed``;
        - ``seats``: each seat's ``name``, ``kind`` (``"human"`` or a bot kind) and ``title`` (a bot's
          kind for people, ``"MCTS"``; None for a person);
        - ``waiting`` (``"person"``, ``"bot"``, ``"over"`` or ``"truncated"``) and ``to_move``;
        - ``view``: the seat's view document (:meth:`~cheekymonkey.Game.view`), never the full state;
        - ``board``: the table as this seat reads it in the terminal (:meth:`~cheekymonkey.Game.board_table`
          as text), which the page shows for a game without a drawing of its own;
        - ``legal``: the seat's moves now, each its ``action`` document, its ``text`` in the game's notation
          and its ``words``; empty unless the seat is to move;
        - ``facts``: :meth:`~cheekymonkey.Game.facts`, what the seat could work out for itself;
        - ``events``: ``{"seq", "event", "text", "log"}`` for each event from ``since`` on: its document, one
          line in words written for this seat (their own seat is "you"), and the lines a log shows for it,
          the terminal's (a move of several actions, tokens stacked one at a time, is one line on its last
          event and none on the others; see :func:`~cheekymonkey.web.messages.log_lines`). For a game with private
          information, each as the seat sees it (:meth:`~cheekymonkey.Game.event_for`; one that shows the
          seat nothing is left out, the others keep their ``seq``);
        - ``outcome``: ``{"winners", "ranks"}`` once the game is over, else None;
        - ``notices``: what the room tells every seat, oldest first (a bot that failed to decide, and what
          plays its seat now; bots that stopped); empty as a rule;
        - ``seeded``: whether the room was made with a chosen seed (whoever chose it can foresee every draw).
        """
        return table_message(self, seat, since)

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
        while self.version <= version and not self.closed and not self.manager.stopping:
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
        bots: Where the bots think (:class:`~cheekymonkey.web.bots.BotPool`; by default a thread of this
            process, ``BotPool(0)``: ``cheekymonkey serve`` gives them worker processes).
        counters: Where the per-client limits are counted (by default in Redis for a
            :class:`~cheekymonkey.web.store.RedisStore`, so that they hold across processes, and in this
            process's memory otherwise).
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
        bots: BotPool | None = None,
        counters: Counters | None = None,
    ) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self.limits = limits if limits is not None else Limits()
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        self.games: tuple[AnyGame, ...] = tuple(game_named(name) for name in (games or SERVED_GAMES))
        self.clock = clock
        self.bots = bots if bots is not None else BotPool(0)
        """Where the rooms' bots think."""
        if counters is None:
            counters = RedisCounters(self.store) if isinstance(self.store, RedisStore) else LocalCounters()
        self.counters: Counters = counters
        """Where the per-client limits are counted."""
        self.process = uuid.uuid4().hex
        """This process's name, for the lease on a room's bots when several processes share the store."""
        self.rooms: dict[str, Room] = {}
        """The rooms this process holds, by id: the games in progress it has been asked about, and at most
        :attr:`Limits.finished_held` finished ones (the others are read again from the store when asked for)."""
        self.damaged: dict[str, str] = {}
        """The rooms found damaged (their records cannot be read or replayed), with why: closed, not served."""
        self._finished: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._seats: dict[str, tuple[str, int]] = {}
        self._room_tokens: dict[str, list[str]] = collections.defaultdict(list)
        self.stream_slots = StreamSlots(self.limits, self.counters)
        """The event streams' slots (:class:`~cheekymonkey.web.streams.StreamSlots`)."""
        self._creating = asyncio.Lock()
        self._listener: asyncio.Task[None] | None = None
        self._bot_problems: dict[tuple[str, str], str | None] = {}

    def bot_problem(self, game: AnyGame, kind: str) -> str | None:
        """Why a ``kind`` bot of ``game`` cannot play here, or None: asked once per bot, then remembered.

        The reason is :func:`~cheekymonkey.web.bots.bot_problem`'s (for a bot whose extra is missing, what to install).
        """
        key = (game.name, kind)
        if key not in self._bot_problems:
            self._bot_problems[key] = bot_problem(game, kind)
        return self._bot_problems[key]

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
        """Load the games in progress the store keeps (a store of this process only), or listen for other processes.

        A room whose record cannot be read or replayed is closed, with one log line that names it and says
        why; every other room is served. Finished games are not loaded: they are read when asked for.
        """
        if self.store.shared:
            self._listener = asyncio.get_running_loop().create_task(self.store.listen(self._heard))
            return
        for summary in await self.store.summaries():
            if not summary.finished:
                with contextlib.suppress(RoomDamagedError):
                    await self._load(summary.id)
        for room in list(self.rooms.values()):
            room.start_bots()

    async def stop(self) -> None:
        """Stop the rooms' bots and streams here (the rooms stay in the store) and release the store."""
        self.end_streams()
        if self._listener is not None:
            self._listener.cancel()
        for room in list(self.rooms.values()):
            room.close()
        self.rooms.clear()
        self.bots.close()
        await self.store.close()

    async def _heard(self, room_id: str, version: int | None) -> None:
        if version is None:
            self._forget(room_id)
            return
        room = self.rooms.get(room_id)
        if room is not None and version > room.version:
            await room.refresh()
            room.start_bots()

    async def _load(self, room_id: str) -> Room | None:
        """The room kept in the store, rebuilt and held; None if the store does not keep it.

        Raises:
            RoomDamagedError: If its record cannot be read or replayed (logged once, the first time).
        """
        if room_id in self.damaged:
            raise RoomDamagedError(self.damaged[room_id])
        try:
            stored = await self.store.load(room_id)
            if stored is None:
                return None
            room = self._rebuild(stored)
        except (UnreadableRoomError, CheekyMonkeyError, KeyError, TypeError, ValueError, RecursionError) as error:
            if isinstance(error, StoreError):
                raise
            why = " ".join(str(error).removeprefix(f"room {room_id}: ").split())[:300] or type(error).__name__
            _LOG.warning("room %s is damaged and closed: its record cannot be read or replayed: %s", room_id, why)
            self.damaged[room_id] = (
                "this room is damaged (its record in the server's store cannot be read or replayed) and has "
                "been closed; start a new room"
            )
            raise RoomDamagedError(self.damaged[room_id]) from None
        self.rooms[room_id] = room
        if room.finished:
            self.finished_now(room)
        return room

    def _rebuild(self, stored: StoredRoom) -> Room:
        game = self.game(stored.game)
        documents = game.documents()
        # The stored header is a record of no actions; the actions are read as actions, each on its own.
        record = documents.from_document(stored.record, "record")
        record = game.record(
            record.ruleset,
            record.players,
            record.first_player,
            [documents.from_document(action, "action") for action in stored.actions],
            seed=record.seed,
            names=record.names,
            bots=record.bots,
        )
        seats = [self._seat(name, kind) for name, kind in zip(record.names, record.bots, strict=True)]
        seed = record.seed if record.seed is not None else random.SystemRandom()
        table = Table(
            game,
            seats,
            ruleset=record.ruleset,
            first_player=record.first_player,
            seed=seed,
            # A game cut off at the move limit is finished as it was; one in progress goes on, even past a
            # limit lowered since it began.
            max_steps=len(record.actions) if stored.finished else max(self.limits.max_moves, len(record.actions) + 1),
        )
        for action in record.actions:
            table.play(action)
        return Room(self, stored.id, table, stored.record, stored.rules, stored.last_move)

    @staticmethod
    def _seat(name: str, kind: str) -> Seat:
        # A bot's seat holds no bot here: the bots think in the pool's workers (cheekymonkey.web.bots).
        return Seat.person(name) if kind == "human" else Seat(name, kind)

    def finished_now(self, room: Room) -> None:
        """Note that ``room``'s game is finished: it is held among the finished games, the oldest of them let go.

        A game let go stays in the store (its links work, its record can be downloaded); it is read again
        when asked for. Its event streams keep their last table and wait for the room's end.
        """
        if self.rooms.get(room.id) is not room:
            return
        self._finished[room.id] = None
        self._finished.move_to_end(room.id)
        while len(self._finished) > self.limits.finished_held:
            oldest, _ = self._finished.popitem(last=False)
            self._let_go(oldest)

    def _let_go(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        self._finished.pop(room_id, None)
        for hashed in self._room_tokens.pop(room_id, ()):
            self._seats.pop(hashed, None)

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
        claim_seats: Sequence[int] = (),
        watch: bool = False,
    ) -> tuple[Room, dict[int, str]]:
        """Open a room; return it and each person's seat token (only ever given out here).

        With ``watch``, the room also gets a watch token, returned under the key
        :data:`~cheekymonkey.web.store.WATCHER`: it opens the room to a spectator (:meth:`viewer_for`), who
        sees what no seat holds (the public view and events, :meth:`Room.message` of None) and can neither
        move nor fetch a seat's record. The store keeps its hash, as a seat token's, so it holds across a
        restart.

        A seat of ``claim_seats`` (a person's) gets no token: its entry is the one-time code of its link,
        which the first browser to open it exchanges for a token of its own (:meth:`claim`). The store keeps
        the code's hash, so a restart, or another process sharing the store, honours it.

        Raises:
            LimitError: If ``client`` has as many rooms open as :attr:`Limits.rooms_per_client` (or any, once the
                rooms in all reach the :func:`~cheekymonkey.web.limits.reserved` last quarter of
                :attr:`Limits.max_rooms`), or made :attr:`Limits.rooms_per_minute` in the last minute (429).
            RoomsFullError: If :attr:`Limits.max_rooms` rooms are open (503).
            RoomError: If a seed is given but seeds are not allowed, no seat is a person, a seat of
                ``claim_seats`` is not a person's, a bot kind is
                unknown or cannot play on this server (its extra is missing: the reason says what to
                install), two names look alike, or the rules' numbers are over :attr:`Limits.max_number`.
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
            problem = None if spec.bot is None else self.bot_problem(game, spec.bot)
            if problem is not None:
                raise RoomError(f"the {spec.bot} bot cannot play on this server: {problem}")
        check_names([s.name for s in seats])
        if any(not (0 <= i < len(seats) and seats[i].bot is None) for i in claim_seats):
            raise RoomError("a seat link to claim must be a person's seat of the room")
        bound = game.number_bound(ruleset)
        if bound is not None and bound > self.limits.max_number:
            raise RoomError(
                f"these rules allow numbers up to {bound}, over this server's limit of {self.limits.max_number}: "
                "use fewer tokens or smaller values"
            )
        async with self._creating:
            held = await self.store.count()
            if held >= self.limits.max_rooms:
                raise RoomsFullError(f"the server already holds {self.limits.max_rooms} rooms; try again later", 60)
            # The last quarter of the rooms is kept for clients that have none open.
            crowded = held >= self.limits.max_rooms - reserved(self.limits.max_rooms)
            table = Table(
                game,
                [self._seat(s.name, s.kind) for s in seats],
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
            # A seat claimed by its link: the code is given out, not a token; the seat's token is made at its claim.
            claims = {i: tokens.pop(i) for i in sorted(set(claim_seats))}
            if watch:
                tokens[WATCHER] = secrets.token_urlsafe(32)
            stored = StoredRoom(
                room_id, game.name, rules, header, tuple(room._action_documents(steps)), room.last_move,
                room.last_move, table.finished
            )  # fmt: skip
            await self.counters.count_room(client, room_id, self.limits, 1 if crowded else None)
            try:
                await self.store.create(
                    stored,
                    {seat: token_hash(token) for seat, token in tokens.items()},
                    {seat: token_hash(code) for seat, code in claims.items()},
                )
            except BaseException:
                with contextlib.suppress(StoreError):
                    await self.counters.uncount_room(client, room_id)
                raise
            self.rooms[room_id] = room
            for seat, token in tokens.items():
                self._seats[token_hash(token)] = (room_id, seat)
                self._room_tokens[room_id].append(token_hash(token))
        room.start_bots()
        return room, {**tokens, **claims}

    async def seat_for(self, token: str) -> tuple[Room, int]:
        """The room and seat a token opens.

        Raises:
            SeatNotFoundError: If no open room has a seat with this token.
            WatchOnlyError: If the token is a room's watch token (403): it opens no seat.
            RoomDamagedError: If the room's record cannot be read or replayed (it is closed).
        """
        room, seat = await self._token_for(token)
        if seat is None:
            raise WatchOnlyError(
                "this is a link to watch the room: it shows the table to everyone who opens it, but plays no seat"
            )
        return room, seat

    async def viewer_for(self, token: str) -> tuple[Room, int | None]:
        """The room a seat token or a watch token opens, and its seat (None: a spectator, by a watch token).

        Raises:
            SeatNotFoundError: If no open room has a seat or a watch link with this token.
            RoomDamagedError: If the room's record cannot be read or replayed (it is closed).
        """
        return await self._token_for(token)

    async def _token_for(self, token: str) -> tuple[Room, int | None]:
        hashed = token_hash(token)
        found = self._seats.get(hashed)
        room = None if found is None else self.rooms.get(found[0])
        if room is None:  # a room kept in the store that this process does not hold (yet, or any more)
            found = await self.store.seat_for(hashed)
            if found is not None:
                room = self.rooms.get(found[0]) or await self._load(found[0])
                if room is not None:
                    self._seats[hashed] = found
                    self._room_tokens[room.id].append(hashed)
        # A seat the room does not have (a store whose token rows were tampered with) opens nothing.
        if room is None or found is None or room.closed or not WATCHER <= found[1] < len(room.seats):
            raise SeatNotFoundError("no open room has a seat for this link (it may have ended)")
        if room.id in self._finished:
            self._finished.move_to_end(room.id)
        return room, None if found[1] == WATCHER else found[1]

    # -- seat links claimed by the first browser that opens them -------------------------------------

    async def claim(self, code: str) -> tuple[Room, int, str]:
        """Claim the seat a link's one-time ``code`` names: its room, its seat and a new token, given out once.

        A room of a game with private information hands its maker such a code in every person seat's link
        but the maker's own (``claim_seats`` of :meth:`create`): the first browser to open the link claims
        the seat and keeps the token it is given here; the maker's copy of the link then opens nothing, so a
        link handed on leaves no copy that sees the hand. The store claims it (:meth:`Store.claim`), so the
        code holds across a restart, and of several processes sharing a Redis store only one claims it.

        Raises:
            cheekymonkey.web.rooms.SeatClaimedError: If the code was claimed already (409): the link was
                opened in another browser.
            SeatNotFoundError: If no open room has a seat link with this code (404).
            RoomDamagedError: If the store keeps the link but cannot read it (410; one log line).
            StoreError: If the store cannot be reached (nothing is claimed).
        """
        token = secrets.token_urlsafe(32)
        hashed = token_hash(code)
        try:
            found = await self.store.claim(hashed, token_hash(token))
        except UnreadableRoomError as error:
            if isinstance(error, StoreError):  # pragma: no cover - the two are apart; kept for a store that mixes
                raise
            _LOG.warning("a seat link's claim cannot be read in the store: %s", " ".join(str(error).split())[:300])
            raise RoomDamagedError(
                "this seat's link is damaged in the server's store and cannot be opened; ask whoever made the "
                "room for a new one"
            ) from None
        if found is None:
            raise SeatNotFoundError("no open room has a seat for this link (it may have ended)")
        if not found.won:
            raise SeatClaimedError(
                "this seat's link has already been opened in another browser, and the seat is played "
                "there: a seat's link works in the first browser that opens it"
            )
        # Any token this process knew for the seat stops opening it: the claimed token is the seat's only one.
        for old in self._room_tokens.get(found.room, []):
            if self._seats.get(old) == (found.room, found.seat):
                del self._seats[old]
        room, seat = await self.seat_for(token)
        return room, seat, token

    def _forget(self, room_id: str) -> None:
        room = self.rooms.get(room_id)
        if room is not None:
            room.close()
        self._let_go(room_id)
        self.damaged.pop(room_id, None)
        self.stream_slots.room_ended(room_id)

    async def close(self, room_id: str) -> None:
        """End a room: forget it here and in the store (its links stop working)."""
        self._forget(room_id)
        await self.store.delete(room_id)
        await self.counters.room_ended(room_id)

    async def sweep(self) -> list[str]:
        """End the rooms whose time is up; return their ids. Each room ended writes one line to the log, with why.

        The rule: a room ends when its game finished (over, or cut off at the move limit) and
        :attr:`Limits.finished_minutes` have passed since its last move, or when nobody (person or bot) has
        moved in it for :attr:`Limits.idle_minutes`. Reading a table or following its events does not keep
        a room open. A damaged room ends by the same rule (nobody can move in it).
        """
        now = self.clock()
        ended = []
        for summary in await self.store.summaries():
            # By the store's own clock where it keeps one (SQLite, Redis): a process's clock may be off or step.
            idle = summary.idle if summary.idle is not None else now - summary.last_move
            limit = self.limits.finished_minutes if summary.finished else self.limits.idle_minutes
            if idle >= limit * 60:
                if summary.finished:
                    why = f"its game finished and {limit:g} minutes have passed since its last move"
                else:
                    why = f"no move in it for {limit:g} minutes"
                if summary.id in self.damaged:
                    why += " (it was damaged)"
                await self.close(summary.id)
                _LOG.info("room %s ended and was deleted from the store: %s", summary.id, why)
                ended.append(summary.id)
        return ended

    # -- streams: cheekymonkey.web.streams keeps the slots; these are its doors ----------------------

    @property
    def stopping(self) -> bool:
        """Whether the server is shutting down (:meth:`end_streams`): the event streams end."""
        return self.stream_slots.stopping

    def end_streams(self) -> None:
        """Tell every event stream to end now (the server is shutting down): each wakes, and returns."""
        self.stream_slots.end_all()
        for room in list(self.rooms.values()):
            room._changed_now()

    def stream_slot(
        self, room: Room, seat: int, client: str = ""
    ) -> contextlib.AbstractAsyncContextManager[StreamSlot]:
        """Hold one of the event streams the limits allow while the ``with`` block runs.

        Raises:
            LimitError: If the seat has :attr:`Limits.streams_per_seat` streams open, or ``client``
                :attr:`Limits.streams_per_client` (429; across processes with a Redis store).
            RoomsFullError: If :attr:`Limits.max_streams` streams are open in this process (503).
        """
        return self.stream_slots.slot(room, seat, client)

    async def renew_streams(self) -> None:
        """Renew the open streams' slots (with a shared store, each is a lease that ends unless renewed)."""
        await self.stream_slots.renew()

    async def wait_for_end(self, room_id: str, timeout: float) -> bool:
        """Wait until the room ends (or the server stops); False if ``timeout`` seconds pass first."""
        return await self.stream_slots.wait_for_end(room_id, timeout)

    @property
    def open_streams(self) -> int:
        """How many event streams are open in this process."""
        return self.stream_slots.open
