"""The rooms' bots think away from the requests: in a bounded pool of worker processes, one decision at a time each.

A bot's decision is a pure function of the game, the bot's kind, the state and the random stream it draws
from, all of them plain values that pickle: :class:`BotPool` sends them to a worker process, which answers
with the action and the stream as it is after the decision. The room keeps that stream for the bot's next
decision, so a seeded room's bots choose exactly as they would at a :class:`~cheekymonkey.table.Table` that
plays them in this process.

Pure-Python search holds the interpreter's lock while it thinks, so a bot in a thread of the server would
hold up every request of every room for as long as it thinks; a process of its own has its own interpreter.
The pool is bounded twice: ``workers`` processes, and at most ``queue`` decisions waiting for one beyond
those being made (a room whose bot finds the queue full waits its turn; no request does). Each worker keeps
one bot of each kind it has been asked for, its caches bounded by :attr:`~cheekymonkey.web.Limits.bot_memory`.

With ``workers=0`` the decisions run in a thread of this process instead (for embedding and tests; it
costs no process, and holds up the event loop while a bot thinks).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.table import Seat, Table, Waiting
from cheekymonkey.web.limits import Limits
from cheekymonkey.web.store import Store, StoreError

__all__ = ["BOT_LEASE", "BotAnswer", "BotPool", "BotRoom", "BotRooms", "choose_in_worker", "play_bots"]

_LOG: Final = logging.getLogger("cheekymonkey.web")

BOT_LEASE: Final = 30.0
"""Seconds a process may play a room's bots before it must renew its claim (with a store shared by processes)."""

# The bots a worker keeps between decisions, one per game, kind and memory bound (so a handful at most). Per
# thread: with workers=0 two rooms' bots may think at once in two threads, and a bot is not shared between them.
_BOTS: Final = threading.local()


@attrs.frozen
class BotAnswer:
    """What a worker answers: the bot's action, its random stream after the decision, and what it cost."""

    action: Any
    """The action the bot chose."""
    rng: random.Random
    """The bot's random stream after the decision (the room keeps it for the bot's next one)."""
    pid: int
    """The process that made the decision."""
    cache_entries: int
    """How many entries the bot's caches held after the decision (within the memory bound)."""


def choose_in_worker(game: str, kind: str, memory: int, state: Any, rng: random.Random) -> BotAnswer:
    """Make one bot's decision: the function each worker runs (a module-level function, so that it pickles).

    Args:
        game: The game's name (:func:`~cheekymonkey.games.game_named`).
        kind: The bot's kind (:meth:`~cheekymonkey.Game.bot_named`).
        memory: The bound on the bot's caches, in entries.
        state: The state the bot decides in (never a chance node).
        rng: The bot's random stream; the answer carries it on.
    """
    kept: dict[tuple[str, str, int], Any] = _BOTS.__dict__.setdefault("bots", {})
    key = (game, kind, memory)
    bot = kept.get(key)
    if bot is None:
        bot = kept[key] = game_named(game).bot_named(kind, memory=memory)
    action = bot.choose(state, rng)
    return BotAnswer(action, rng, os.getpid(), int(getattr(bot, "cache_entries", 0)))


class BotPool:
    """Where the rooms' bots think: ``workers`` processes (0: a thread of this one), with a bounded queue.

    Args:
        workers: How many worker processes (0: decisions run in a thread of this process).
        queue: How many decisions may wait for a worker beyond those being made.

    Raises:
        InvalidValueError: If ``workers`` is negative or ``queue`` not positive.
    """

    def __init__(self, workers: int = 1, *, queue: int = 64) -> None:
        for name, value, low in (("workers", workers, 0), ("queue", queue, 1)):
            if not is_whole_number(value) or value < low:
                raise InvalidValueError(f"{name} must be a whole number of at least {low}, got {value!r}")
        self.workers = workers
        """How many worker processes think for the bots (0: a thread of this process)."""
        self.queue = queue
        """How many decisions may wait for a worker beyond those being made."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self.decisions = 0
        """How many decisions the pool has made."""
        self.answered_by: set[int] = set()
        """The processes that made them (a worker's id; this process's own with ``workers=0``)."""
        self.largest_cache = 0
        """The most cache entries a bot held after any decision (within :attr:`~cheekymonkey.web.Limits.bot_memory`)."""

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, not forked: a worker starts from a clean interpreter, whatever threads the server runs.
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    async def choose(self, game: str, kind: str, memory: int, state: Any, rng: random.Random) -> BotAnswer:
        """The decision of a ``kind`` bot of ``game`` in ``state``, drawing from ``rng``, made in a worker.

        Waits while :attr:`queue` decisions already wait. ``rng`` itself is left as it was: the answer
        carries the stream on.
        """
        if self._slots is None:
            self._slots = asyncio.Semaphore(max(1, self.workers) + self.queue)
        async with self._slots:
            stream = random.Random()
            stream.setstate(rng.getstate())
            if self.workers == 0:
                answer = await asyncio.to_thread(choose_in_worker, game, kind, memory, state, stream)
            else:
                loop = asyncio.get_running_loop()
                try:
                    answer = await loop.run_in_executor(
                        self._executor(), choose_in_worker, game, kind, memory, state, stream
                    )
                except BrokenProcessPool:
                    # A worker died (killed, or out of memory): start the pool again and make the decision there.
                    _LOG.warning("a bot worker process died; starting the bots' workers again")
                    self._shutdown()
                    answer = await loop.run_in_executor(
                        self._executor(), choose_in_worker, game, kind, memory, state, stream
                    )
        self.decisions += 1
        self.answered_by.add(answer.pid)
        self.largest_cache = max(self.largest_cache, answer.cache_entries)
        return answer

    def _shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        """Stop the workers (decisions still waiting are dropped: their rooms' bots play on at the next start)."""
        self._shutdown()


class BotRooms(Protocol):
    """What the bots' turns need of a :class:`~cheekymonkey.web.RoomManager`."""

    @property
    def store(self) -> Store:
        """Where the rooms are kept (and the bots' leases, for a shared store)."""
        ...

    @property
    def process(self) -> str:
        """This process's name, for the leases."""
        ...

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before each move."""
        ...

    @property
    def bots(self) -> BotPool:
        """Where the bots think."""
        ...

    @property
    def limits(self) -> Limits:
        """The limits (the bots' memory bound among them)."""
        ...


class BotRoom(Protocol):
    """What the bots' turns need of a :class:`~cheekymonkey.web.Room`."""

    @property
    def manager(self) -> BotRooms:
        """The room's manager."""
        ...

    @property
    def id(self) -> str:
        """The room's id."""
        ...

    @property
    def table(self) -> Table[Any, Any, Any, Any, Any]:
        """The game in progress."""
        ...

    @property
    def game(self) -> AnyGame:
        """The game."""
        ...

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats."""
        ...

    @property
    def closed(self) -> bool:
        """Whether the room has ended."""
        ...

    @property
    def version(self) -> int:
        """How many actions the game has had."""
        ...

    @property
    def bot_rng(self) -> random.Random:
        """The bots' random stream."""
        ...

    async def refresh(self) -> None:
        """Catch up with the store."""
        ...

    async def play_bot(self, version: int, action: object, rng: random.Random) -> bool:
        """Play and commit a bot's action chosen at ``version``."""
        ...


async def play_bots(room: BotRoom) -> None:
    """Play ``room``'s bots, turn after turn, until a person must move, the game ends or the room closes.

    With a store that several processes share, one process at a time plays a room's bots: it holds a lease
    in the store (:data:`BOT_LEASE`, renewed at every move), and the others hear of the moves. Each decision
    is made in the manager's :class:`BotPool` from the room's bots' stream (:attr:`~cheekymonkey.web.Room.bot_rng`),
    then played and committed by :meth:`~cheekymonkey.web.Room.play_bot`.
    """
    manager = room.manager
    store = manager.store
    owner = manager.process
    claimed = False
    try:
        while not room.closed:
            await room.refresh()
            if room.table.waiting is not Waiting.BOT:
                return
            claimed = await store.claim_bots(room.id, owner, BOT_LEASE)
            if not claimed:
                return
            if manager.bot_delay:
                await asyncio.sleep(manager.bot_delay)
            version = room.version
            mover = room.table.to_move
            if mover is None:  # not a seat's turn after all (the table waits for chance)
                return
            seat = room.seats[mover]
            answer = await manager.bots.choose(
                room.game.name, seat.kind, manager.limits.bot_memory, room.table.state, room.bot_rng
            )
            try:
                await room.play_bot(version, answer.action, answer.rng)
            except StoreError as error:
                _LOG.warning("room %s: a bot's move could not be stored (%s); trying again", room.id, error)
                await asyncio.sleep(5.0)
    except StoreError as error:
        _LOG.warning("room %s: the store failed while the bots played (%s)", room.id, error)
    finally:
        if claimed:
            with contextlib.suppress(StoreError):
                await store.release_bots(room.id, owner)
