"""Rooms for the web front end: one game each, its full state kept here, seats reached by secret tokens.

A :class:`Room` holds one game. The full :class:`~cheekymonkey.GameState` never leaves it: a seat gets
:meth:`~cheekymonkey.web.Room.table`, a JSON-ready dictionary made of the library's own documents (the seat's
:class:`~cheekymonkey.TableView`, the events that happened, and the score sheet at the
end). Moves come in as action documents. The room resolves chance itself and plays its bot seats.

A :class:`RoomManager` holds every room, maps each human seat's token to its seat, caps how many rooms
may exist and closes rooms left idle. Everything here runs on one asyncio event loop; only a bot's
choice, a pure function of an immutable state, runs in a worker thread so a slow bot never blocks it.

This module needs no web framework; :mod:`cheekymonkey.web.app` serves it over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from cheekymonkey.actions import Action, Reveal
from cheekymonkey.bots import BOTS, bot_named, bust_probability
from cheekymonkey.engine import sample_chance
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import Bot
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import score
from cheekymonkey.serialization import to_document
from cheekymonkey.state import GameState, Phase, new_game
from cheekymonkey.views import view

__all__ = [
    "MAX_NAME_LENGTH",
    "NotYourTurnError",
    "Room",
    "RoomClosedError",
    "RoomError",
    "RoomManager",
    "RoomsFullError",
    "SeatNotFoundError",
    "SeatSpec",
]

MAX_NAME_LENGTH: Final = 24
"""The longest seat name accepted, in characters."""


class RoomError(CheekyMonkeyError):
    """Something a room or the room manager refuses; the message is fit to show to the player."""


class NotYourTurnError(RoomError):
    """A seat sent a move while another seat is to act; the room is unchanged."""


class SeatNotFoundError(RoomError):
    """No open room has a seat with this token (a wrong link, or the room was closed)."""


class RoomClosedError(RoomError):
    """The room was closed (idle too long, or the server is stopping); it takes no more moves."""


class RoomsFullError(RoomError):
    """The server already holds as many rooms as it is allowed to."""


def _check_name(name: object) -> str:
    if not isinstance(name, str):
        raise RoomError(f"a seat name must be text, got {type(name).__name__}")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise RoomError("a seat name must not be empty")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise RoomError(f"the seat name {cleaned[:MAX_NAME_LENGTH]!r}... is longer than {MAX_NAME_LENGTH} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise RoomError(f"the seat name {cleaned!r} contains control or unassigned characters")
    return cleaned


def _check_bot(bot: object) -> str | None:
    if bot is None:
        return None
    if not isinstance(bot, str) or bot not in BOTS:
        raise RoomError(f"no bot named {bot!r}; the bots are {', '.join(BOTS)}")
    return bot


@attrs.frozen
class SeatSpec:
    """Who sits in a seat: a person (``bot`` is None) or a bot of the kind named ``bot``.

    Raises:
        RoomError: If the name is empty, too long (over :data:`MAX_NAME_LENGTH`) or holds control
            characters, or the bot is not one of :data:`cheekymonkey.bots.BOTS`.
    """

    name: str = attrs.field(converter=_check_name)
    """The name shown to everybody at the table (whitespace runs become one space)."""
    bot: str | None = attrs.field(default=None, converter=_check_bot)
    """The bot's kind (``"heuristic"``, ...), or None for a person."""

    @property
    def kind(self) -> str:
        """``"human"`` or the bot's kind."""
        return "human" if self.bot is None else self.bot


class Room:
    """One game at one table: the full state, the seats, the event log and who is waiting for news.

    Build rooms with :meth:`RoomManager.create`, which also hands out the seat tokens.

    Args:
        room_id: The room's public name (not a secret: the seat tokens are).
        ruleset: The rules of the game.
        seats: One entry per seat, people and bots.
        rng: The random generator that resolves chance (draws); unpredictable in production.
        bot_rng: The random generator the bots use.
        bot_delay: Seconds a bot waits before each move, so people can follow its turn.
        clock: Seconds, for idle times (``time.monotonic``).

    Raises:
        InvalidGameError: If the number of seats does not suit the rule set.
    """

    def __init__(
        self,
        room_id: str,
        ruleset: Ruleset,
        seats: Sequence[SeatSpec],
        *,
        rng: random.Random,
        bot_rng: random.Random,
        bot_delay: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id: Final = room_id
        self.ruleset: Final = ruleset
        self.seats: Final = tuple(seats)
        self._rng = rng
        self._bot_rng = bot_rng
        self._bot_delay = bot_delay
        self._clock = clock
        self._bots: dict[int, Bot] = {i: bot_named(s.bot) for i, s in enumerate(self.seats) if s.bot is not None}
        self._state = new_game(len(self.seats), ruleset=ruleset, first_player=0)
        self._actions: list[Action] = []
        self._events: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._bot_task: asyncio.Task[None] | None = None
        self.version = 0
        """How many changes the room has seen; every change wakes the seats' event streams."""
        self.closed = False
        """Whether the room was closed; a closed room takes no moves."""
        self.last_active = clock()
        """When a seat last asked for anything (in the ``clock``'s seconds)."""
        self._settle()

    # -- the game -----------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The full game state: for the server's own use (saving, checks), never to send to a seat."""
        return self._state

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._state.phase is Phase.OVER

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self._state.seat

    def record(self) -> GameRecord:
        """Every action so far, chance outcomes included, as a replayable record (kept on the server)."""
        return GameRecord(self.ruleset, len(self.seats), 0, tuple(self._actions), None)

    def _step(self, action: Action) -> None:
        # apply_with_events raises IllegalActionError before anything changes: the state is a value.
        state, events = apply_with_events(self._state, action)
        self._state = state
        self._actions.append(action)
        for event in events:
            self._events.append({"seq": len(self._events), "event": to_document(event)})

    def _settle(self) -> None:
        # The server resolves chance itself: players only ever see a state where somebody decides.
        while self._state.phase is Phase.CHANCE:
            outcome: Reveal = sample_chance(self._state, self._rng)
            self._step(outcome)

    def _changed_now(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    def touch(self) -> None:
        """Note that a seat asked for something now (the room is not idle)."""
        self.last_active = self._clock()

    async def play(self, seat: int, action: Action) -> None:
        """Play ``seat``'s move, resolve chance, and let the bots take their turns after it.

        Raises:
            RoomClosedError: If the room was closed.
            NotYourTurnError: If another seat is to act (or a bot is thinking).
            IllegalActionError: If the rules forbid the move; the room is then unchanged.
        """
        if self.closed:
            raise RoomClosedError("this room was closed")
        self.touch()
        if self._state.phase is not Phase.OVER and self._state.seat != seat:
            name = self.seats[self._state.seat].name
            raise NotYourTurnError(f"it is {name}'s turn (seat {self._state.seat}), not seat {seat}'s")
        self._step(action)
        self._settle()
        self._changed_now()
        self.start_bots()

    def start_bots(self) -> None:
        """Start the bots' turns in the background if a bot is to move (nothing if one already is)."""
        if self._bot_task is None and not self.closed and not self.over and self._state.seat in self._bots:
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        try:
            while not self.closed and not self.over and self._state.seat in self._bots:
                if self._bot_delay:
                    await asyncio.sleep(self._bot_delay)
                state = self._state
                bot = self._bots[state.seat]
                # A bot's choice is a pure function of an immutable state: a worker thread keeps a slow
                # bot from stalling every other room on this event loop.
                action = await asyncio.to_thread(bot.choose, state, self._bot_rng)
                if self.closed or self._state is not state:
                    continue  # pragma: no cover - only bots move while a bot is to move
                self._step(action)
                self._settle()
                self._changed_now()
        finally:
            self._bot_task = None

    # -- what a seat sees ---------------------------------------------------------------------------

    def table(self, seat: int, since: int = 0) -> dict[str, Any]:
        """What ``seat`` sees now, as a JSON-ready dictionary; ``events`` holds those numbered ``since`` on.

        The keys: ``room``, ``seat``, ``version``, ``closed``, ``seats`` (each seat's name and kind),
        ``view`` (a ``view`` document: :func:`~cheekymonkey.view` for this seat), ``bust_odds`` (the chance
        that drawing now busts the player to move, while they decide, else None), ``events`` (``{"seq",
        "event"}`` pairs, each an ``event`` document) and ``score`` (a ``score`` document once the game is
        over, else None). Never the full state.

        The bust odds depend only on what every seat has seen face up (the bag's contents follow from
        every token drawn, returned and stacked in the open), so sending them reveals nothing hidden.
        """
        state = self._state
        since = max(0, since)
        return {
            "room": self.id,
            "seat": seat,
            "version": self.version,
            "closed": self.closed,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind} for i, s in enumerate(self.seats)],
            "view": to_document(view(state, seat)),
            "bust_odds": bust_probability(state) if state.phase is Phase.DECIDE else None,
            "events": self._events[since:],
            "score": to_document(score(state)) if state.phase is Phase.OVER else None,
        }

    @property
    def event_count(self) -> int:
        """How many events the room has logged (the next event's ``seq``)."""
        return len(self._events)

    async def wait_for_change(self, version: int, timeout: float) -> bool:
        """Wait until the room's :attr:`version` is past ``version``; False if ``timeout`` seconds pass first.

        A closed room counts as changed: its streams wake up, send the last table and end.
        """
        deadline = asyncio.get_running_loop().time() + timeout
        while self.version <= version and not self.closed:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return False
            # Every change sets the current event and puts a new one in its place, so each waiter wakes.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    def close(self) -> None:
        """Close the room: no more moves; every waiting stream wakes up, sees ``closed`` and ends."""
        if self.closed:
            return
        self.closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()
        self._changed_now()


class RoomManager:
    """Every open room, the seat tokens that reach them, and the limits.

    Args:
        max_rooms: The most rooms open at once; :meth:`create` refuses more.
        idle_seconds: A room nobody has asked anything of for this long is closed by :meth:`sweep`.
        bot_delay: Seconds a bot waits before each move (0 in tests).
        allow_seeds: Whether :meth:`create` accepts a seed. A seeded room's draws are predictable, so
            this is for tests and demonstrations only.
        clock: Seconds, for idle times (``time.monotonic``).
    """

    def __init__(
        self,
        *,
        max_rooms: int = 1000,
        idle_seconds: float = 1800.0,
        bot_delay: float = 0.0,
        allow_seeds: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self.bot_delay = bot_delay
        self.allow_seeds = allow_seeds
        self._clock = clock
        self.rooms: dict[str, Room] = {}
        """The open rooms, by id."""
        self._tokens: dict[str, tuple[Room, int]] = {}
        self._room_tokens: dict[str, list[str]] = {}

    def create(
        self, ruleset: Ruleset, seats: Sequence[SeatSpec], *, seed: int | None = None
    ) -> tuple[Room, dict[int, str]]:
        """Open a room; return it and each human seat's token (only ever given out here).

        Raises:
            RoomsFullError: If ``max_rooms`` rooms are open.
            RoomError: If a seed is given but seeds are not allowed, or no seat is a person.
            InvalidGameError: If the number of seats does not suit the rule set.
        """
        if len(self.rooms) >= self.max_rooms:
            raise RoomsFullError(f"the server already holds {self.max_rooms} rooms; try again later")
        if seed is not None and not self.allow_seeds:
            raise RoomError("this server does not accept seeds: draws must stay unpredictable")
        if not any(s.bot is None for s in seats):
            raise RoomError("a room needs at least one person; to watch bots play, use 'cheekymonkey watch'")
        if seed is None:
            # Unseeded rooms draw from the operating system's randomness: nobody can predict the bag.
            rng: random.Random = random.SystemRandom()
            bot_rng = random.Random(secrets.randbits(64))
        else:
            rng, bot_rng = random.Random(seed), random.Random(f"cheekymonkey bots {seed}")
        room_id = secrets.token_urlsafe(6)
        while room_id in self.rooms:  # pragma: no cover - 48 random bits
            room_id = secrets.token_urlsafe(6)
        room = Room(room_id, ruleset, seats, rng=rng, bot_rng=bot_rng, bot_delay=self.bot_delay, clock=self._clock)
        tokens: dict[int, str] = {}
        for seat, spec in enumerate(room.seats):
            if spec.bot is None:
                # 32 random bytes: a link nobody can guess, and the only key to its seat.
                token = secrets.token_urlsafe(32)
                tokens[seat] = token
                self._tokens[token] = (room, seat)
        self.rooms[room_id] = room
        self._room_tokens[room_id] = list(tokens.values())
        room.start_bots()
        return room, tokens

    def seat_for(self, token: str) -> tuple[Room, int]:
        """The room and seat a token opens.

        Raises:
            SeatNotFoundError: If no open room has a seat with this token.
        """
        found = self._tokens.get(token)
        if found is None or found[0].closed:
            raise SeatNotFoundError("no open room has a seat for this link (it may have been closed)")
        return found

    def close(self, room_id: str) -> None:
        """Close a room and forget its tokens (nothing if there is no such room)."""
        room = self.rooms.pop(room_id, None)
        if room is None:
            return
        room.close()
        for token in self._room_tokens.pop(room_id, ()):
            del self._tokens[token]

    def sweep(self) -> list[str]:
        """Close every room idle for ``idle_seconds`` or more; return their ids."""
        now = self._clock()
        idle = [room_id for room_id, room in self.rooms.items() if now - room.last_active >= self.idle_seconds]
        for room_id in idle:
            self.close(room_id)
        return idle

    def close_all(self) -> None:
        """Close every room (when the server stops)."""
        for room_id in list(self.rooms):
            self.close(room_id)
