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

How each failure ends:

- a bot whose extra is missing (the learned bot without numpy) cannot play here at all:
  :func:`~cheekymonkey.web.bots.bot_problem` says why, the lobby shows it as unavailable and a room asking
  for it is refused;
- a bot that raises while deciding: the room's seat is played by the random bot from then on (one log line
  per seat, and a notice in the seats' tables), so the game can still be finished; if the random bot fails
  too, the room's bots stop (one log line, a notice) and the room ends by its idle time;
- a worker process that dies (killed, out of memory): the workers are started again after a pause that
  doubles with each death in a row (:attr:`~cheekymonkey.web.BotPool.restart_delay` at first, 30 seconds at
  most), one log line per restart, and the decision is made again;
- the server killed outright: each worker was told at its start to die with it (Linux's parent-death
  signal; elsewhere a thread that watches the parent), and the multiprocessing resource tracker ends once
  the workers are gone, so nothing is left behind.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.games import AnyGame, game_named
from cheekymonkey.table import Seat, Table, Waiting, bot_state
from cheekymonkey.web.limits import Limits
from cheekymonkey.web.store import InconsistentRoomError, Store, StoreError

__all__ = [
    "BOT_LEASE",
    "STAND_IN",
    "BotAnswer",
    "BotPool",
    "BotRoom",
    "BotRooms",
    "bot_problem",
    "choose_in_worker",
    "play_bots",
]

_LOG: Final = logging.getLogger("cheekymonkey.web")

BOT_LEASE: Final = 30.0
"""Seconds a process may play a room's bots before it must renew its claim (with a store shared by processes)."""

STAND_IN: Final = "random"
"""The bot that plays a seat whose own bot failed to decide: it needs nothing but the rules."""

_MAX_RESTART_DELAY: Final = 30.0


def bot_problem(game: AnyGame, kind: str) -> str | None:
    """Why a ``kind`` bot of ``game`` cannot play on this server (what to install, say), or None if it can.

    The bot is built once, as a worker would build it: a bot whose extra is missing fails to build.

    >>> from cheekymonkey import CHEEKY_MONKEY
    >>> bot_problem(CHEEKY_MONKEY, "heuristic") is None
    True
    """
    try:
        game.bot_named(kind)
    except (CheekyMonkeyError, ImportError) as error:
        return " ".join(str(error).split()) or f"the {kind} bot cannot be built here"
    return None


def _die_with_parent(parent: int) -> None:
    """At a worker's start: die when the server does, however it ends (kill -9 included)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG is 1
                raise OSError(ctypes.get_errno(), "prctl")
        except (OSError, AttributeError):
            _watch_parent(parent)
    else:  # pragma: no cover - the tests run on Linux
        _watch_parent(parent)
    if os.getppid() != parent:  # the server died before the signal was asked for
        os._exit(0)


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


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
        restart_delay: Seconds before the workers start again after one died (doubled at each death in a row).

    Raises:
        InvalidValueError: If ``workers`` is negative, ``queue`` not positive or ``restart_delay`` negative.
    """

    def __init__(self, workers: int = 1, *, queue: int = 64, restart_delay: float = 0.5) -> None:
        for name, value, low in (("workers", workers, 0), ("queue", queue, 1)):
            if not is_whole_number(value) or value < low:
                raise InvalidValueError(f"{name} must be a whole number of at least {low}, got {value!r}")
        if isinstance(restart_delay, bool) or not isinstance(restart_delay, int | float) or not restart_delay >= 0:
            raise InvalidValueError(f"restart_delay must be a number of seconds of at least 0, got {restart_delay!r}")
        self.restart_delay = float(restart_delay)
        """Seconds before the workers start again after one died; doubled at each death in a row (30 at most)."""
        self.restarts = 0
        """How many times the workers were started again after one died."""
        self._deaths_in_a_row = 0
        self._resume_at = 0.0
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
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_die_with_parent, initargs=(os.getpid(),)
            )
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
                answer = await self._in_worker(game, kind, memory, state, stream)
        self.decisions += 1
        self.answered_by.add(answer.pid)
        self.largest_cache = max(self.largest_cache, answer.cache_entries)
        return answer

    async def _in_worker(self, game: str, kind: str, memory: int, state: Any, stream: random.Random) -> BotAnswer:
        loop = asyncio.get_running_loop()
        while True:
            pause = self._resume_at - time.monotonic()
            if pause > 0:
                await asyncio.sleep(pause)
            pool = self._executor()
            try:
                answer: BotAnswer = await loop.run_in_executor(
                    pool, choose_in_worker, game, kind, memory, state, stream
                )
            except BrokenProcessPool:
                # A worker died (killed, or out of memory). The first decision to hear of it starts the workers
                # again, after a pause that doubles with each death in a row; every decision then tries again.
                if pool is self._pool:
                    delay = min(_MAX_RESTART_DELAY, self.restart_delay * 2**self._deaths_in_a_row)
                    self._deaths_in_a_row += 1
                    self.restarts += 1
                    self._shutdown()
                    self._resume_at = time.monotonic() + delay
                    _LOG.warning(
                        "a bot worker process died; the bots' workers start again in %g s (restart %d)",
                        delay,
                        self.restarts,
                    )
                continue
            self._deaths_in_a_row = 0
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

    @property
    def stand_ins(self) -> dict[int, str]:
        """The seats whose bot failed to decide, each with the kind of bot that plays it instead."""
        ...

    async def play_bot(self, version: int, action: object, rng: random.Random) -> bool:
        """Play and commit a bot's action chosen at ``version``."""
        ...

    def bot_failed(self, seat: int, kind: str, why: str) -> None:
        """Note that ``seat``'s ``kind`` bot failed to decide: the :data:`STAND_IN` bot plays it from now on."""
        ...

    def stop_bots(self, why: str) -> None:
        """Stop the room's bots for good (no bot could decide): the room ends by its idle time."""
        ...


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]


async def play_bots(room: BotRoom) -> None:
    """Play ``room``'s bots, turn after turn, until a person must move, the game ends or the room closes.

    With a store that several processes share, one process at a time plays a room's bots: it holds a lease
    in the store (:data:`BOT_LEASE`, renewed at every move), and the others hear of the moves. Each decision
    is made in the manager's :class:`BotPool` from the room's bots' stream (:attr:`~cheekymonkey.web.Room.bot_rng`),
    then played and committed by :meth:`~cheekymonkey.web.Room.play_bot`.

    A bot that raises while deciding hands its seat to the :data:`~cheekymonkey.web.bots.STAND_IN` bot
    (:meth:`~cheekymonkey.web.Room.bot_failed`); if the stand-in fails too, or anything else fails here but
    the store, the room's bots stop (:meth:`~cheekymonkey.web.Room.stop_bots`). Either is logged once.
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
            kind = room.stand_ins.get(mover, room.seats[mover].kind)
            try:
                # A bot sees what its seat sees: for a game with secrets, a state resampled from the seat's
                # information, made here so that the true state never reaches a worker. It draws from a copy of
                # the bots' stream, which the room takes on only with the move it led to.
                stream = random.Random()
                stream.setstate(room.bot_rng.getstate())
                seen = bot_state(room.game, room.table.state, mover, stream)
                answer = await manager.bots.choose(room.game.name, kind, manager.limits.bot_memory, seen, stream)
            except (StoreError, asyncio.CancelledError):
                raise
            except Exception as error:  # the bot itself failed (in its worker, or in this process)
                why = _one_line(error)
                if kind == STAND_IN or STAND_IN not in room.game.bot_names():
                    room.stop_bots(f"the {kind} bot of seat {mover} failed to decide ({why})")
                    return
                room.bot_failed(mover, kind, why)
                continue
            try:
                await room.play_bot(version, answer.action, answer.rng)
            except StoreError as error:
                _LOG.warning("room %s: a bot's move could not be stored (%s); trying again", room.id, error)
                await asyncio.sleep(5.0)
    except StoreError as error:
        _LOG.warning("room %s: the store failed while the bots played (%s)", room.id, error)
    except InconsistentRoomError:
        pass  # the room is closed (410) and the store has said why in its one log line
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a bot's move the room cannot play: stop, once, rather than fail at every read
        room.stop_bots(f"a bot's move could not be played ({_one_line(error)})")
    finally:
        if claimed:
            with contextlib.suppress(StoreError):
                await store.release_bots(room.id, owner)
