"""The session: one game in progress at one table, for any :class:`~cheekymonkey.game.Game`.

A :class:`Table` is to this library what python-chess's ``Board`` is to chess: the one object every front end
drives, so that none writes a game loop of its own. It holds

- the state and every state before it (undo is free: states are values);
- every action, chance outcomes included, and so a replayable record;
- the events each action caused, numbered in order, for front ends to animate;
- the seats, each a person or a bot, with a name;
- the two random streams, one for chance and one for the bots, both from one seed;
- what each seat may know: a bot of a game with private information is handed a state drawn from its
  seat's information (:func:`bot_state`), never the true one, and :meth:`~cheekymonkey.Table.events_for`
  gives the events as one seat (or a spectator) sees them (:meth:`~cheekymonkey.Game.event_for`);
- an optional limit on turns or steps. A game that reaches it is *truncated*: it stops, and has no
  outcome, since a game cut off is never a result.

:meth:`~cheekymonkey.Table.play_as` and :meth:`~cheekymonkey.Table.play_text_as` play a person's move for
their seat, taking only that seat's own decisions (never a draw's outcome, never another seat's move): every
front end feeds a person's input through them. :meth:`~cheekymonkey.Table.play` and
:meth:`~cheekymonkey.Table.play_text` play for whoever acts, chance included, for replays and tests;
:meth:`~cheekymonkey.Table.advance` resolves chance and plays the bots until a person must decide or the game
is finished, and :meth:`~cheekymonkey.Table.steps` does the same one step at a
time. Bots, search and benchmarks never go through a table: they call the engine directly.

>>> from cheekymonkey import CHEEKY_MONKEY
>>> table = Table(CHEEKY_MONKEY, [Seat.person("Ann"), Seat.bot(CHEEKY_MONKEY, "heuristic")], seed=7)
>>> table.waiting, table.to_move
(<Waiting.CHANCE: 'chance'>, None)
>>> [type(event).__name__ for step in table.advance() for event in step.events]
['Drew']
>>> table.waiting, table.to_move, [CHEEKY_MONKEY.action_text(a, table.state) for a in table.legal_actions()]
(<Waiting.PERSON: 'person'>, 0, ['d', 's', 'h'])
>>> step = table.play_text_as(0, "s")[0]
>>> step.seat, table.turns, [type(event).__name__ for event in step.events]
(0, 2, ['Stopped', 'Stacked'])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar

import attrs

from cheekymonkey.checks import check_bot, is_whole_number
from cheekymonkey.errors import (
    IllegalActionError,
    InvalidGameError,
    InvalidValueError,
    NotYourDecisionError,
    ReplayError,
)
from cheekymonkey.game import Game, GameBot
from cheekymonkey.names import MAX_LABEL_LENGTH, check_text
from cheekymonkey.outcome import Outcome
from cheekymonkey.record import RecordLike

__all__ = [
    "Seat",
    "SeatBot",
    "Step",
    "Table",
    "Waiting",
    "bot_kind",
    "bot_state",
    "events_seen",
    "past_limits",
    "rngs_for",
]

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")
V = TypeVar("V")
E = TypeVar("E")

HUMAN = "human"
"""The kind of a seat a person plays."""


def rngs_for(seed: int | random.Random | None) -> tuple[random.Random, random.Random]:
    """The two random streams a seeded game uses: one for chance, one for the bots.

    Keeping them apart means the draws of a seed do not depend on how often the bots roll. A
    ``random.Random`` (a ``random.SystemRandom`` for draws nobody can predict) is used for chance as it is,
    and seeds the bots' stream.

    Raises:
        InvalidGameError: If ``seed`` is not an integer, a ``random.Random`` or None.
    """
    if isinstance(seed, random.Random):
        return seed, random.Random(seed.getrandbits(64))
    if seed is not None and (not is_whole_number(seed)):
        raise InvalidGameError(f"seed must be an integer, a random.Random or None, got {seed!r}")
    return random.Random(seed), random.Random(f"cheekymonkey bots {seed}" if seed is not None else None)


def past_limits(turns: int, steps: int, max_turns: int | None, max_steps: int | None) -> bool:
    """Whether a game not yet over, with ``turns`` turns begun and ``steps`` actions played, is truncated.

    It is when a turn past ``max_turns`` has begun, or ``max_steps`` actions (chance outcomes included)
    have been played; None is no limit. This is the one truncation rule: :class:`Table` applies it, and so
    do the adapters that keep a loop of their own (OpenSpiel's).

    >>> past_limits(11, 40, 10, None), past_limits(10, 40, 10, 40), past_limits(10, 39, 10, 40)
    (True, True, False)
    """
    return (max_turns is not None and turns > max_turns) or (max_steps is not None and steps >= max_steps)


SeatBot = GameBot
"""A bot as a :class:`Table` asks it: :class:`~cheekymonkey.game.GameBot`, whose ``choose`` is handed
:func:`bot_state` of its seat (for a game with private information a state drawn from what the seat knows,
never the true one). The alias marks where a bot plays a seat rather than searches the true state."""


def bot_state(game: Game[S, A, R, V, E], state: S, seat: int, rng: random.Random) -> S:
    """The state a bot playing ``seat`` is handed: ``state``, or a resampled one for a game with secrets.

    For a game with private information, :meth:`~cheekymonkey.Game.resample` of ``state`` for ``seat``,
    drawn with ``rng``.

    A game without secrets draws nothing here, so a seeded game's bots use their random numbers as before.

    >>> from cheekymonkey import CHEEKY_MONKEY
    >>> state = CHEEKY_MONKEY.new_game(2)
    >>> bot_state(CHEEKY_MONKEY, state, 0, random.Random(1)) is state
    True
    """
    if not game.private_information:
        return state
    return game.resample(state, seat, rng)


def events_seen(game: Game[S, A, R, V, E], events: Sequence[E], viewer: int | None) -> tuple[E, ...]:
    """``events`` as ``viewer`` (None: a spectator) sees them.

    Each goes through :meth:`~cheekymonkey.Game.event_for`; the ones that show the viewer nothing are left out.

    For a game without private information, the events as they are.
    """
    if not game.private_information:
        return tuple(events)
    seen = (game.event_for(event, viewer) for event in events)
    return tuple(event for event in seen if event is not None)


def bot_kind(bot: object) -> str:
    """The kind a bot is recorded as: its ``kind`` attribute if it has one, else its class name.

    The class name loses a ``Bot`` ending and is lower case: ``HeuristicBot()`` is ``"heuristic"``.

    >>> from cheekymonkey import HeuristicBot
    >>> bot_kind(HeuristicBot())
    'heuristic'
    """
    kind = getattr(bot, "kind", None)
    if isinstance(kind, str) and kind.strip():
        return kind
    name = type(bot).__name__
    return (name.removesuffix("Bot") or name).lower()


@attrs.frozen(slots=True)
class Seat:
    """Who plays a seat: a person, or a bot.

    Build seats with :meth:`person` and :meth:`bot` (a bot by its game's name for it) or :meth:`of`
    (a bot object of your own).
    """

    name: str
    """The name shown to everybody at the table."""
    kind: str = HUMAN
    """``"human"``, or the bot's kind (``"heuristic"``)."""
    player: SeatBot[Any, Any] | None = attrs.field(default=None, eq=False, repr=False)
    """The bot that plays the seat, or None: for a person, or a bot that is not at this table (a record's
    seat, replayed: such a seat cannot move by itself). It is handed :func:`bot_state` of the seat."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidGameError(f"a seat's name must be non-empty text, got {self.name!r}")
        if not isinstance(self.kind, str) or not self.kind.strip():
            raise InvalidGameError(f"a seat's kind must be non-empty text, got {self.kind!r}")
        # Both are shown to everybody at the table and kept in its record: free text, checked as such.
        check_text(self.name, "a seat's name", limit=MAX_LABEL_LENGTH, error=InvalidGameError)
        check_text(self.kind, "a seat's kind", limit=MAX_LABEL_LENGTH, error=InvalidGameError)
        if self.player is not None and self.kind == HUMAN:
            raise InvalidGameError(f"seat {self.name!r}: a person has no bot, and a bot's kind is not {HUMAN!r}")
        if self.player is not None:
            check_bot(self.player, f"seat {self.name!r}: the bot")

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays the seat (its kind is not ``"human"``)."""
        return self.kind != HUMAN

    @classmethod
    def person(cls, name: str) -> Seat:
        """A seat a person plays."""
        return cls(name, HUMAN)

    @classmethod
    def bot(cls, game: Game[Any, Any, Any, Any, Any], kind: str, name: str | None = None) -> Seat:
        """A seat played by a fresh bot of ``game``'s kind ``kind``, named ``name`` (default: the kind).

        Raises:
            InvalidValueError: If ``game`` has no bot of that kind.
        """
        return cls(name or kind, kind, game.bot_named(kind))

    @classmethod
    def of(cls, bot: GameBot[Any, Any], name: str | None = None, kind: str | None = None) -> Seat:
        """A seat played by the bot object ``bot``, of kind ``kind`` (default: :func:`bot_kind`).

        Raises:
            InvalidGameError: If ``bot`` is a class, or has no ``choose`` method.
        """
        check_bot(bot)
        label = kind or bot_kind(bot)
        return cls(name or label, label, bot)


class Waiting(enum.Enum):
    """What a table waits for next."""

    CHANCE = "chance"
    """Chance acts next (:meth:`~cheekymonkey.Table.advance` resolves it)."""
    BOT = "bot"
    """A bot's seat decides next (:meth:`~cheekymonkey.Table.advance` plays it)."""
    PERSON = "person"
    """A person's seat decides next: :meth:`~cheekymonkey.Table.play_as` their action."""
    OVER = "over"
    """The game ended by its rules (:meth:`~cheekymonkey.Table.outcome` says how)."""
    TRUNCATED = "truncated"
    """The game reached the table's turn or step limit: it stopped, with no outcome."""


@attrs.frozen(slots=True)
class Step(Generic[S, A, E]):
    """One action played at a table, with what it did."""

    index: int
    """The action's place in the game, from 0."""
    seat: int | None
    """The seat that chose it, or None for a chance outcome."""
    action: A
    """The action."""
    before: S
    """The state it was played in."""
    after: S
    """The state it led to."""
    events: tuple[E, ...]
    """What it did, in order (empty if the table keeps no events)."""


class Table(Generic[S, A, R, V, E]):
    """One game of ``game`` in progress: state, history, record, events, seats, random streams, limits.

    Args:
        game: The game played.
        seats: Who plays each seat, in seat order; their number is the number of players.
        ruleset: The rules (None: the game's standard rules).
        first_player: The seat that starts.
        seed: An integer, a ``random.Random`` for chance (``random.SystemRandom()`` on a server), or None
            for a fresh unpredictable game. See :func:`rngs_for`.
        max_turns: Truncate the game when a turn past this many would begin (None: no limit).
        max_steps: Truncate the game when this many actions, chance outcomes included, have been played
            without reaching the end (None: no limit).
        events: Whether to keep the events of every action (a simulation saves time without them).
        start: A state to begin from instead of the game's new state (a game resumed mid-way).

    Raises:
        InvalidGameError: If the seats, first player, seed or limits do not fit.
    """

    def __init__(
        self,
        game: Game[S, A, R, V, E],
        seats: Sequence[Seat],
        *,
        ruleset: R | None = None,
        first_player: int = 0,
        seed: int | random.Random | None = None,
        max_turns: int | None = None,
        max_steps: int | None = None,
        events: bool = True,
        start: S | None = None,
    ) -> None:
        given: object = seats
        if isinstance(given, str) or not isinstance(given, Sequence) or not all(isinstance(s, Seat) for s in given):
            raise InvalidGameError(f"seats must be a list of Seat, one per seat, got {seats!r}")
        for name, limit in (("max_turns", max_turns), ("max_steps", max_steps)):
            if limit is not None and (not is_whole_number(limit) or limit < 1):
                raise InvalidGameError(f"{name} must be a positive integer or None, got {limit!r}")
        self.game: Game[S, A, R, V, E] = game
        """The game played."""
        self.seats: tuple[Seat, ...] = tuple(seats)
        """Who plays each seat."""
        state = game.new_game(len(self.seats), ruleset, first_player=first_player) if start is None else start
        if game.players(state) != len(self.seats):
            raise InvalidGameError(f"{len(self.seats)} seats for a {game.players(state)}-seat game")
        self.ruleset: R = game.ruleset_of(state)
        """The rules played."""
        self.first_player = first_player
        """The seat that started."""
        self.seed: int | None = seed if isinstance(seed, int) else None
        """The seed, if it was given as an integer (it is recorded)."""
        self._chance_rng, self._bot_rng = rngs_for(seed)
        self.max_turns = max_turns
        """The turn limit, or None."""
        self.max_steps = max_steps
        """The step limit, or None."""
        self._keep_events = events
        self._states: list[S] = [state]
        self._actions: list[A] = []
        self._events: list[E] = []
        # Where each step's events begin in _events, and whose turn count it leaves, for undo.
        self._event_starts: list[int] = []
        self._turn_counts: list[int] = [1 if game.begins_turn(state) else 0]
        self.truncated = False
        """Whether the game stopped at the turn or step limit (it then has no outcome)."""
        self._check_limits()

    @classmethod
    def from_record(
        cls,
        game: Game[S, A, R, V, E],
        record: RecordLike[R, A],
        *,
        seats: Sequence[Seat] | None = None,
        events: bool = True,
    ) -> Table[S, A, R, V, E]:
        """A table that has played every action of ``record``.

        Unless ``seats`` are given, each seat gets the record's name and kind; a seat of a bot kind the game
        knows gets a fresh bot of that kind, so the game can go on, and one it does not know gets none.

        Raises:
            ReplayError: At the first action that is illegal where it falls.
            InvalidGameError: If the record's seats or rules do not fit.
        """
        if seats is None:
            names = record.names or tuple(f"Seat {seat}" for seat in range(record.players))
            kinds = record.bots or (HUMAN,) * record.players
            known = set(game.bot_names())
            seats = [
                Seat.bot(game, kind, name) if kind in known else Seat(name, kind)
                for name, kind in zip(names, kinds, strict=True)
            ]
        table = cls(
            game, seats, ruleset=record.ruleset, first_player=record.first_player, seed=record.seed, events=events
        )
        for index, action in enumerate(record.actions):
            try:
                table.play(action)
            except IllegalActionError as error:
                raise ReplayError(index, error) from error
        return table

    # -- what the table holds -------------------------------------------------------------------------

    @property
    def state(self) -> S:
        """The state now."""
        return self._states[-1]

    @property
    def history(self) -> tuple[S, ...]:
        """Every state so far, from the first to :attr:`state`: one more than there are actions."""
        return tuple(self._states)

    @property
    def actions(self) -> tuple[A, ...]:
        """Every action so far, chance outcomes included."""
        return tuple(self._actions)

    @property
    def events(self) -> tuple[E, ...]:
        """Every event so far, in order; an event's index is its sequence number."""
        return tuple(self._events)

    def events_since(self, seq: int) -> tuple[E, ...]:
        """The events numbered ``seq`` and after, as they happened (every seat's secrets included)."""
        return tuple(self._events[max(0, seq) :])

    def events_for(self, viewer: int | None, since: int = 0) -> tuple[E, ...]:
        """The events numbered ``since`` and after as ``viewer`` (None: a spectator) sees them (:func:`events_seen`).

        What a route facing one seat shows: for a game with private information, another seat's secret is
        masked or left out by the game's :meth:`~cheekymonkey.Game.event_for`.
        """
        return events_seen(self.game, self._events[max(0, since) :], viewer)

    @property
    def turns(self) -> int:
        """How many turns have begun."""
        return self._turn_counts[-1]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names, in seat order."""
        return tuple(seat.name for seat in self.seats)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Each seat's kind (``"human"`` or a bot's), in seat order."""
        return tuple(seat.kind for seat in self.seats)

    @property
    def over(self) -> bool:
        """Whether the game ended by its rules."""
        return self.game.is_terminal(self.state)

    @property
    def finished(self) -> bool:
        """Whether nothing more can be played: the game is over or truncated."""
        return self.truncated or self.over

    @property
    def to_move(self) -> int | None:
        """The seat that decides next, or None (chance acts next, or the game is finished)."""
        return None if self.finished else self.game.to_move(self.state)

    @property
    def waiting(self) -> Waiting:
        """What the table waits for next."""
        if self.truncated:
            return Waiting.TRUNCATED
        state = self.state
        game = self.game
        if game.is_terminal(state):
            return Waiting.OVER
        if game.is_chance_node(state):
            return Waiting.CHANCE
        seat = game.to_move(state)
        return Waiting.BOT if seat is not None and self.seats[seat].is_bot else Waiting.PERSON

    def legal_actions(self) -> tuple[A, ...]:
        """What may be played now (at chance, the outcomes; once the game is finished, nothing)."""
        return () if self.finished else tuple(self.game.legal_actions(self.state))

    def view(self, seat: int | None) -> V:
        """What ``seat`` (None: a spectator) sees now."""
        return self.game.view(self.state, seat)

    def outcome(self) -> Outcome | None:
        """How the game came out, or None if it is not over (a truncated game never is)."""
        return self.game.outcome(self.state) if not self.truncated and self.over else None

    def record(self, *, quit_by: int | None = None) -> RecordLike[R, A]:
        """Every action so far as a replayable record, with the seats' names and kinds and the seed.

        Args:
            quit_by: The seat whose player quits the game here, to say so in the record; None if nobody does.
        """
        return self.game.record(
            self.ruleset,
            self.players,
            self.first_player,
            self._actions,
            seed=self.seed,
            names=self.names,
            bots=self.kinds,
            quit_by=quit_by,
        )

    # -- playing ---------------------------------------------------------------------------------------

    def _check_limits(self) -> None:
        if self.game.is_terminal(self.state):
            return
        self.truncated = past_limits(self.turns, len(self._actions), self.max_turns, self.max_steps)

    def play(self, action: A) -> Step[S, A, E]:
        """Play ``action`` for whoever acts now (a person, a bot, or chance's outcome).

        This trusts its caller with every seat and with chance: it is for replays, tests and drivers of
        their own. A front end feeds a person's move through :meth:`play_as`, which takes only that
        person's own decisions.

        Raises:
            IllegalActionError: If the rules forbid it, or the game is finished; the table is unchanged.
        """
        before = self.state
        if self.truncated:
            raise IllegalActionError(before, action, "the game was cut off at the table's limit")
        game = self.game
        seat = game.to_move(before)
        if self._keep_events:
            after, events = game.apply_with_events(before, action)
        else:
            after, events = game.apply(before, action), ()
        index = len(self._actions)
        self._event_starts.append(len(self._events))
        self._states.append(after)
        self._actions.append(action)
        self._events.extend(events)
        self._turn_counts.append(self._turn_counts[-1] + (1 if game.begins_turn(after) else 0))
        self._check_limits()
        return Step(index, seat, action, before, after, tuple(events))

    def play_text(self, text: str) -> list[Step[S, A, E]]:
        """Play a text in the game's notation (one action or several), all or nothing, for whoever acts.

        Like :meth:`play` it trusts its caller: the text may settle chance and play several seats' turns,
        as a replay or a test may. A front end reads what a person typed with :meth:`play_text_as`.

        Raises:
            ActionTextError: If the text names no legal action; nothing is played.
            IllegalActionError: If the game is finished, or an action is illegal where it falls; nothing is played.
        """
        if self.finished:
            raise IllegalActionError(self.state, text, "the game is finished")
        actions = self.game.parse_actions(text, self.state)
        steps: list[Step[S, A, E]] = []
        try:
            for action in actions:
                steps.append(self.play(action))  # noqa: PERF401 (undo needs the count so far if one fails)
        except IllegalActionError:
            self.undo(len(steps))
            raise
        return steps

    def play_as(self, seat: int, action: A) -> Step[S, A, E]:
        """Play ``action`` for ``seat``, if it is that seat's own decision now: the way in for a person's move.

        The seat must be the one to decide now: not another seat, not chance (a draw's outcome comes from the
        table's seeded stream, never from a player), and the game not finished. Then the rules must allow
        the action. Otherwise nothing is played.

        Raises:
            NotYourDecisionError: If ``seat`` does not decide now; the table is unchanged.
            IllegalActionError: If the rules forbid ``action`` now; the table is unchanged.
            InvalidValueError: If ``seat`` is not a seat number of this table.
        """
        self._check_decides(seat, action)
        return self.play(action)

    def play_text_as(self, seat: int, text: str) -> list[Step[S, A, E]]:
        """Play what the person at ``seat`` typed, if it names only that seat's own decisions: all or nothing.

        A text may name several actions while each is ``seat``'s decision and nothing else acts between
        them: Cheeky Monkey's ``"ls"`` puts a Lion and then a Seal on the stack. A text that goes on past
        them, into a draw (chance), another seat's turn or the end of the game, is refused whole: Too Many
        Monkeys' ``"d; g"`` draws and then names the card drawn, which the pile decides. The whole text is
        checked on the engine's states before anything is played, so a refused text never touches the table.

        >>> from cheekymonkey.games import game_named
        >>> tmm = game_named("too-many-monkeys")
        >>> table = Table(tmm, [Seat.person("Ann"), Seat.person("Bob")], seed=2)
        >>> steps = table.advance()
        >>> table.to_move, [tmm.action_text(action, table.state) for action in table.legal_actions()]
        (0, ['d', 't'])
        >>> table.play_text_as(0, "d; g")
        Traceback (most recent call last):
        ...
        cheekymonkey.errors.NotYourDecisionError: illegal action 'd; g': the turn passes to chance after 'd': \
type only 'd' (what is drawn is the table's to settle, never a player's)
        >>> table.play_text_as(1, "d")
        Traceback (most recent call last):
        ...
        cheekymonkey.errors.NotYourDecisionError: illegal action 'd': it is seat 0's move, not seat 1's
        >>> [step.seat for step in table.play_text_as(0, "d")], table.waiting
        ([0], <Waiting.CHANCE: 'chance'>)

        Raises:
            NotYourDecisionError: If ``seat`` does not decide now, or the text goes past its own decisions;
                nothing is played.
            ActionTextError: If the text names no legal action; nothing is played.
            IllegalActionError: If the rules forbid an action where it falls; nothing is played.
            InvalidValueError: If ``seat`` is not a seat number of this table, or ``text`` is not a string.
        """
        if not isinstance(text, str):
            raise InvalidValueError(f"a move's text must be a string, got {type(text).__name__} {text!r}")
        self._check_decides(seat, text)
        game = self.game
        state = self.state
        actions = game.parse_actions(text, state)
        # Walk the actions over the engine's states first: each must be the seat's own decision where it falls.
        turns, count = self.turns, len(self._actions)
        said: list[str] = []
        for index, action in enumerate(actions):
            if index:
                why = self._past_the_seat(state, seat, turns, count)
                if why is not None:
                    done = ", ".join(said)
                    reason = f"{why[0]} after {done!r}: type only {done!r}{why[1]}"
                    raise NotYourDecisionError(self.state, text, reason, seat)
            said.append(game.action_text(action, state))
            state = game.apply(state, action)  # IllegalActionError here leaves the table as it was
            count += 1
            turns += 1 if game.begins_turn(state) else 0
        steps = [self.play(action) for action in actions]
        return steps

    def _check_decides(self, seat: int, move: object) -> None:
        # The seat's own decision is due now, or NotYourDecisionError (InvalidValueError for a bad seat).
        if not is_whole_number(seat) or not 0 <= seat < len(self.seats):
            raise InvalidValueError(f"seat must be a seat number from 0 to {len(self.seats) - 1}, got {seat!r}")
        if self.truncated:
            raise NotYourDecisionError(self.state, move, "the game was cut off at the table's limit", seat)
        state = self.state
        if self.game.is_terminal(state):
            raise NotYourDecisionError(state, move, "the game is finished", seat)
        if self.game.is_chance_node(state):
            raise NotYourDecisionError(
                state, move, "chance acts now: the table draws, and no player chooses what comes out", seat
            )
        mover = self.game.to_move(state)
        if mover != seat:
            raise NotYourDecisionError(state, move, f"it is seat {mover}'s move, not seat {seat}'s", seat)

    def _past_the_seat(self, state: S, seat: int, turns: int, count: int) -> tuple[str, str] | None:
        # Why the next action of a text would not be ``seat``'s own decision in ``state`` (what happens, and a
        # word after the advice), or None if it is.
        game = self.game
        if game.is_terminal(state):
            return "the game ends", ""
        if past_limits(turns, count, self.max_turns, self.max_steps):
            return "the table's limit stops the game", ""
        if game.is_chance_node(state):
            return "the turn passes to chance", " (what is drawn is the table's to settle, never a player's)"
        mover = game.to_move(state)
        if mover != seat:
            return f"the turn passes to seat {mover}", f" (what seat {mover} does is theirs to choose)"
        return None

    def choose(self) -> A:
        """The action the bot to move would play now, without playing it (safe to call from a worker thread).

        The bot is handed :func:`bot_state` of its seat, drawn from the table's bots' stream: for a game
        with private information, a state its seat cannot tell from the true one.

        Raises:
            InvalidValueError: If no bot is to move.
        """
        seat = self.to_move
        if seat is None or not self.seats[seat].is_bot:
            raise InvalidValueError(f"no bot is to move now (the table waits for {self.waiting.value})")
        bot = self.seats[seat].player
        if bot is None:
            raise InvalidValueError(f"seat {seat}'s bot ({self.seats[seat].kind}) is not at this table")
        action: A = bot.choose(bot_state(self.game, self.state, seat, self._bot_rng), self._bot_rng)
        return action

    def step(self) -> Step[S, A, E] | None:
        """Play one step that needs nobody, a chance outcome or a bot's move; None if nobody else acts now.

        None means a person must decide, or the game is finished.

        Raises:
            IllegalActionError: If a bot chooses an illegal action; the table is unchanged.
        """
        return self._step(self.waiting)

    def _step(self, waiting: Waiting) -> Step[S, A, E] | None:
        # One step for what the table waits for (the caller has just asked it: a simulation's game is a few
        # hundred steps, and asking twice a step was a tenth of its time).
        if waiting is Waiting.CHANCE:
            return self.play(self.game.sample_chance(self.state, self._chance_rng))
        if waiting is Waiting.BOT:
            return self.play(self.choose())
        return None

    def steps(self, *, bots: bool = True) -> Iterator[Step[S, A, E]]:
        """Play chance and the bots one step at a time, yielding each step, until a person must decide.

        It also stops when the game is finished. With ``bots=False`` it resolves chance only.
        """
        while True:
            waiting = self.waiting
            if waiting is Waiting.CHANCE or (bots and waiting is Waiting.BOT):
                step = self._step(waiting)
                assert step is not None
                yield step
            else:
                return

    def advance(self, *, bots: bool = True) -> list[Step[S, A, E]]:
        """Play chance and the bots until a person must decide or the game is finished; return the steps."""
        return list(self.steps(bots=bots))

    def undo(self, count: int = 1) -> tuple[A, ...]:
        """Take back the last ``count`` actions and their events; return them, in the order they were played.

        Raises:
            InvalidValueError: If fewer than ``count`` actions have been played.
        """
        if not is_whole_number(count) or not 0 <= count <= len(self._actions):
            raise InvalidValueError(f"cannot undo {count!r} of {len(self._actions)} actions")
        if count == 0:
            return ()
        taken = tuple(self._actions[-count:])
        del self._actions[-count:]
        del self._states[-count:]
        del self._turn_counts[-count:]
        del self._events[self._event_starts[-count] :]
        del self._event_starts[-count:]
        self.truncated = False
        self._check_limits()
        return taken

    def __repr__(self) -> str:
        return f"<Table of {self.game.title}: {self.players} seats, {len(self._actions)} actions, {self.waiting.value}>"
