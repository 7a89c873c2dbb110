"""The routes of the optional front ends, as :func:`~cheekymonkey.testing.check_noninterference` compares them.

Each family of routes is built from the front end itself, driven at a given state: the Gymnasium
environment's and the PettingZoo environment's own methods on a table put at that state, the web server's
own message and stream functions for a room holding that table. A family whose package is missing (or that
the game cannot take: no encodings, no batched engine) is not compared, and the reason is given, so a caller
can tell a route checked from a route left out.
"""

from __future__ import annotations

import collections
from collections.abc import AsyncIterator, Callable, Collection, Coroutine
from typing import Any, Final

from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.table import Seat, Table

__all__ = ["ADAPTER_ROUTES", "FAMILIES", "Adapters", "family_skipped", "skipped", "vector_difference"]

FAMILIES: Final = ("openspiel", "gymnasium", "gymnasium vector", "pettingzoo", "web")
"""The families of routes beside the library's own, each needing an optional package."""

ADAPTER_ROUTES: Final = (
    "openspiel observation string",
    "openspiel observation tensor",
    "openspiel information state string",
    "openspiel information state tensor",
    "gymnasium observation",
    "gymnasium action mask",
    "gymnasium info",
    "gymnasium render",
    "gymnasium vector observation",
    "gymnasium vector action mask",
    "pettingzoo observation",
    "pettingzoo action mask",
    "pettingzoo info",
    "pettingzoo render",
    "web table",
    "web stream",
    "web table after a step",
    "web stream after a step",
)
"""Every route of the families, as a :class:`~cheekymonkey.testing.NoninterferenceError` names it."""

_ROOM_ID: Final = "noninterference"
_REMEMBERED: Final = 2048  # the most states' routes kept at once (a few kilobytes each), then forgotten


def skipped(route: str, skip: Collection[str]) -> bool:
    """Whether ``route`` is left out by ``skip``: named, or in a family named (``"gymnasium"``: all of its)."""
    return any(route == name or route.startswith(name + " ") for name in skip)


def family_skipped(family: str, skip: Collection[str]) -> bool:
    """Whether ``skip`` leaves out the whole of ``family``: by its name, or every route of it by name."""
    routes = [route for route in ADAPTER_ROUTES if route.startswith(family + " ")]
    return skipped(family, skip) or all(skipped(route, skip) for route in routes)


class _Room:
    """A room holding one table, as the web server's message and stream functions read a room."""

    def __init__(self, table: Table[Any, Any, Any, Any, Any], rules: str) -> None:
        self.id = _ROOM_ID
        self.table = table
        self.game = table.game
        self.rules = rules
        self.closed = False
        self.notices: list[str] = []
        self.streams: collections.Counter[int] = collections.Counter()
        self._messages: dict[tuple[int | None, int], dict[str, Any]] = {}

    @property
    def version(self) -> int:
        return len(self.table.actions)

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def event_count(self) -> int:
        return len(self.table.events)

    async def refresh(self) -> None:
        """Nothing to read again: the room is this process's own."""

    def start_bots(self) -> None:
        """No bots: every seat is a person's."""

    def message(self, seat: int | None, since: int = 0) -> dict[str, Any]:
        # The room never changes: the table route's message, made once, is the one its stream sends too.
        from cheekymonkey.web.messages import table_message

        key = (seat, since)
        if key not in self._messages:
            self._messages[key] = table_message(self, seat, since)
        return self._messages[key]

    async def wait_for_change(self, version: int, timeout: float) -> bool:
        return True


class _Rooms:
    """The rooms a stream follows from: never stopping, and a finished room's end comes at once."""

    stopping = False

    async def wait_for_end(self, room_id: str, timeout: float) -> bool:
        return True

    async def renew_streams(self) -> None:
        """No leases to renew."""


def _run(step: Coroutine[Any, Any, Any]) -> tuple[bool, Any]:
    # One step of a coroutine that never suspends (the rooms above await nothing): (True, its value), or
    # (False, None) once the stream has ended.
    try:
        step.send(None)
    except StopIteration as done:
        return True, done.value
    except StopAsyncIteration:
        return False, None
    step.close()  # pragma: no cover - only a room that waits on something real suspends
    raise AssertionError("the stream waited on something outside the room")  # pragma: no cover


def _stream_text(room: _Room, seat: int) -> str:
    """The stream a seat's link receives from a room: its first table, and the closing one if the game is over."""
    from cheekymonkey.web.streams import follow

    stream: AsyncIterator[str] = follow(_Rooms(), room, seat, 0)
    chunks: list[str] = []
    wanted = 2 if room.finished else 1
    while len(chunks) < wanted:
        going, chunk = _run(stream.__anext__())  # type: ignore[arg-type]
        if not going:
            break
        chunks.append(chunk)
    _run(stream.aclose())  # type: ignore[attr-defined]
    return "".join(chunks)


def _arrays(value: Any) -> object:
    # A dict of arrays and plain values as something comparable: each array's type, shape and bytes.
    import numpy as np

    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, dict):
        return tuple(sorted((str(key), _arrays(item)) for key, item in value.items()))
    return repr(value)


class Adapters:
    """The optional families' routes for one game, seat count and rule set, built once per check.

    Args:
        game: The game checked.
        seats: The seat count.
        ruleset: The rules.
        skip: Route and family names to leave out (:func:`skipped`).
    """

    def __init__(self, game: Game[Any, Any, Any, Any, Any], seats: int, ruleset: Any, skip: Collection[str]) -> None:
        self.game = game
        self.seats = seats
        self.ruleset = ruleset
        self.skip = tuple(skip)
        self.unchecked: dict[str, str] = {}
        """Each family not compared, with the reason."""
        self._solo: list[Any] = []
        self._aec: Any = None
        self._vector: Any = None
        self._json_bytes: Any = None
        self._web_seats = [Seat.person(f"Seat {seat}") for seat in range(seats)]
        self._rules = self._rules_name()
        self._seen: dict[tuple[Any, ...], dict[str, object]] = {}
        self._build()

    def _rules_name(self) -> str:
        for name in self.game.preset_names():
            if self.game.ruleset(name) == self.ruleset:
                return name
        return "custom"

    def _leave(self, family: str, reason: str) -> None:
        self.unchecked[family] = reason

    def _build(self) -> None:
        game = self.game
        encodings = bool(game.observation_kinds())
        for family in FAMILIES[1:]:
            if family_skipped(family, self.skip):
                self._leave(family, "skipped, as asked")
        if "gymnasium" not in self.unchecked:
            if not encodings:
                self._leave("gymnasium", "the game offers no encodings for learning")
            else:
                try:
                    from cheekymonkey.rl.gymnasium_env import SoloEnv
                except ImportError:
                    self._leave("gymnasium", "Gymnasium is not installed (the rl extra)")
                else:
                    try:
                        self._solo = [
                            SoloEnv(self.seats, seat=seat, ruleset=self.ruleset, render_mode="ansi", game=game)
                            for seat in range(self.seats)
                        ]
                    except CheekyMonkeyError as error:
                        self._leave("gymnasium", self._refused(error))
        if "gymnasium vector" not in self.unchecked:
            self._build_vector(encodings)
        if "pettingzoo" not in self.unchecked:
            if not encodings:
                self._leave("pettingzoo", "the game offers no encodings for learning")
            else:
                try:
                    from cheekymonkey.rl.pettingzoo_env import GameEnv
                except ImportError:
                    self._leave("pettingzoo", "PettingZoo is not installed (the rl extra)")
                else:
                    try:
                        self._aec = GameEnv(self.seats, ruleset=self.ruleset, render_mode="ansi", game=game)
                    except CheekyMonkeyError as error:
                        self._leave("pettingzoo", self._refused(error))
                    else:
                        self._aec.reset(seed=0)
        if "web" not in self.unchecked:
            try:
                from cheekymonkey.web.app import _json_bytes
            except ImportError:
                self._leave("web", "Starlette is not installed (the web extra)")
            else:
                self._json_bytes = _json_bytes

    def _build_vector(self, encodings: bool) -> None:
        if not encodings:
            self._leave("gymnasium vector", "the game offers no encodings for learning")
            return
        try:
            from cheekymonkey.batched import engine_class
            from cheekymonkey.rl.gymnasium_vector import SoloVectorEnv
        except ImportError:
            self._leave("gymnasium vector", "Gymnasium, numpy or numba is not installed (the rl and batched extras)")
            return
        try:
            engine_class(self.game.name)
        except InvalidValueError:
            self._leave("gymnasium vector", "the game has no batched engine")
            return
        try:
            SoloVectorEnv(1, self.seats, seat=0, ruleset=self.ruleset, game=self.game, opponents="random")
        except CheekyMonkeyError as error:
            self._leave("gymnasium vector", self._refused(error))
            return
        self._vector = SoloVectorEnv

    def _refused(self, error: CheekyMonkeyError) -> str:
        return f"the environment refuses the game at {self.seats} seats: {error}"

    @property
    def checked(self) -> tuple[str, ...]:
        """The families compared, in :data:`FAMILIES` order (OpenSpiel's is the caller's to say)."""
        return tuple(family for family in FAMILIES[1:] if family not in self.unchecked)

    @property
    def vector(self) -> Any:
        """The vector environment's class, where its routes are compared, else None."""
        return self._vector

    # -- at a state ----------------------------------------------------------------------------------------

    def _remembered(self, key: tuple[Any, ...], make: Callable[[], dict[str, object]]) -> dict[str, object]:
        # The routes are a function of the state and seat (and the step's action): a state met again, as
        # the first states of each game are and the states drawn for a seat often are, is not driven through
        # every front end again. A state that cannot be hashed is driven every time.
        try:
            found = self._seen.get(key)
        except TypeError:
            return make()
        if found is None:
            if len(self._seen) >= _REMEMBERED:
                self._seen.clear()
            found = self._seen[key] = make()
        return found

    def state_routes(self, state: Any, seat: int) -> dict[str, object]:
        """What each family's routes show ``seat`` at ``state``."""
        return self._remembered(("at", state, seat), lambda: self._state_routes(state, seat))

    def _state_routes(self, state: Any, seat: int) -> dict[str, object]:
        routes: dict[str, object] = {}
        game = self.game
        if self._solo:
            env = self._solo[seat]
            env.table = Table(game, env.table.seats, start=state, events=False)
            over = game.is_terminal(state)
            # As the environment stands when it hands the learner this state: at its decision, or at the end.
            env._done = over
            env._no_decision = False
            routes["gymnasium observation"] = _arrays(env._observation())
            if over or game.to_move(state) == seat:
                routes["gymnasium action mask"] = _arrays(env.action_masks())
                routes["gymnasium info"] = _arrays(env._info())
            routes["gymnasium render"] = env.render()
        if self._aec is not None:
            aec = self._aec
            aec.table = Table(game, aec.table.seats, start=state, events=False)
            agent = aec.possible_agents[seat]
            observed = aec.observe(agent)
            routes["pettingzoo observation"] = _arrays(observed["observation"])
            routes["pettingzoo action mask"] = _arrays(observed["action_mask"])
            routes["pettingzoo info"] = _arrays(aec.infos[agent])
            routes["pettingzoo render"] = aec.render()
        if self._json_bytes is not None:
            routes.update(self._web(Table(game, self._web_seats, start=state), seat))
        return {route: value for route, value in routes.items() if not skipped(route, self.skip)}

    def step_routes(self, before: Any, action: Any, seat: int) -> dict[str, object]:
        """What each family's routes show ``seat`` after ``action`` from ``before``, the step's events with it."""
        if self._json_bytes is None:
            return {}
        return self._remembered(("after", before, action, seat), lambda: self._step_routes(before, action, seat))

    def _step_routes(self, before: Any, action: Any, seat: int) -> dict[str, object]:
        table = Table(self.game, self._web_seats, start=before)
        table.play(action)
        routes = {f"{route} after a step": value for route, value in self._web(table, seat).items()}
        return {route: value for route, value in routes.items() if not skipped(route, self.skip)}

    def _web(self, table: Table[Any, Any, Any, Any, Any], seat: int) -> dict[str, object]:
        room = _Room(table, self._rules)
        return {
            "web table": self._json_bytes(room.message(seat, 0)),
            "web stream": _stream_text(room, seat),
        }


def vector_difference(adapters: Adapters, seed: int, steps: int) -> tuple[int, tuple[str, int, object, object] | None]:
    """Hold the vector environment to the single one: what it shows each learner of the same state, bit for bit.

    The vector environment plays its games on the game's batched engine, whose states cannot be made from a
    state of the scalar engine (nor a state a seat cannot tell apart drawn in them); so its observation and
    mask are held to the single environment's (the game's encoding) of each of its games' states, decoded,
    and those are compared across states a seat cannot tell apart. Plays ``steps`` steps of one game per seat
    from ``seed``, the learner at that seat and random bots at the others.

    Returns:
        The states compared, and the first difference (route, seat, single's, vector's), or None.
    """
    import numpy as np

    from cheekymonkey.rl._arrays import Observations

    game = adapters.game
    compared = 0
    for seat in range(adapters.seats):
        envs = adapters.vector(1, adapters.seats, seat=seat, ruleset=adapters.ruleset, game=game, opponents="random")
        encoding = envs.engine.encoding
        observations = Observations(encoding, False)
        observation, info = envs.reset(seed=seed + seat)
        draws = np.random.default_rng(seed + seat)
        for _ in range(steps):
            state = envs.engine.decode(envs.states, 0)
            mine = _arrays(observations(state, seat))
            if mine != _arrays(observation[0]):
                return compared, ("gymnasium vector observation", seat, mine, _arrays(observation[0]))
            mask = info["action_mask"][0]
            if game.to_move(state) == seat and not game.is_terminal(state):
                wanted = _arrays(np.array(encoding.action_mask(state), np.int8))
                if wanted != _arrays(mask):
                    return compared, ("gymnasium vector action mask", seat, wanted, _arrays(mask))
            compared += 1
            legal = np.flatnonzero(mask)
            action = int(draws.choice(legal)) if legal.size else 0
            observation, _, _, _, info = envs.step(np.array([action]))
    return compared, None
