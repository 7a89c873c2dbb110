"""The base class a game's binding subclasses: write the rules, get every other member of the protocol.

:class:`~cheekymonkey.game.Game` is what the front ends see, and it is wide: text, narration, bots, records,
documents, encodings. :class:`BaseGame` implements it all but a small core, so a game's author writes the
rules and nothing else:

- who the game is: :attr:`~BaseGame.name` and :attr:`~BaseGame.title`;
- the rules: :meth:`~BaseGame.ruleset`, :meth:`~BaseGame.seat_range`, :meth:`~BaseGame.new_game`,
  :meth:`~BaseGame.ruleset_of`, :meth:`~BaseGame.players`;
- playing: :meth:`~BaseGame.legal_actions`, :meth:`~BaseGame.apply`;
- chance: :meth:`~BaseGame.is_chance_node`, :meth:`~BaseGame.chance_outcomes`;
- the turn, the end and the outcome: :meth:`~BaseGame.to_move`, :meth:`~BaseGame.is_terminal`,
  :meth:`~BaseGame.outcome`;
- the view: :meth:`~BaseGame.view`.

Every other member has a default built from these, which a game overrides when it has better: a board drawn
from the view, a line of narration per action, an action's text (and reading it back by matching the legal
actions' texts), a random bot, a generic record, JSON documents for values made of attrs classes and enums.
Some capabilities have no sensible default and are *absent* unless declared: a game sets
:attr:`~BaseGame.capabilities` to what it offers (encodings for learning, proofs, JSON schemas, a page
drawing, a batched engine) and overrides the members that give them. Every front end reads the
declaration (the RL adapters refuse a game without encodings naming it; ``cheekymonkey verify``,
:mod:`cheekymonkey.schema` and the web page say so or fall back to the generic page); calling a member the
game does not declare raises :class:`~cheekymonkey.errors.NotOfferedError`.

The defaults are never on the hot path: :meth:`~BaseGame.sample_chance` and the random bot are written once
for every game, but a game's own engine functions (the ones its bots, search and benchmarks call) stay as
fast as the game makes them, and a game may override any default with its own.

A whole game, the smallest there is: one seat tosses a coin, and wins on heads. Its view is a value of its
own, what a seat may see, and never the state itself (a view that returns the state shows every seat
everything, a hand of cards included: see :attr:`~BaseGame.private_information`).

>>> from fractions import Fraction
>>> from cheekymonkey.outcome import Outcome, Stakes
>>> class Toss(BaseGame[tuple[str, ...], str, None, dict[str, str], Played[str]]):
...     name = "toss"
...     title = "Toss"
...     def ruleset(self, name=None): return None
...     def seat_range(self, ruleset=None): return (1, 1)
...     def new_game(self, players, ruleset=None, *, first_player=0): return ()
...     def ruleset_of(self, state): return None
...     def players(self, state): return 1
...     def legal_actions(self, state):
...         return () if len(state) == 2 else ("heads", "tails") if state else ("toss",)
...     def apply(self, state, action): return (*state, action)
...     def is_chance_node(self, state): return len(state) == 1
...     def chance_outcomes(self, state): return (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2)))
...     def to_move(self, state): return 0 if not state else None
...     def is_terminal(self, state): return len(state) == 2
...     def outcome(self, state): return Outcome((0,), (1,), (1.0 if state[1] == "heads" else 0.0,))
...     def view(self, state, seat): return {"coin": state[1] if len(state) == 2 else "not landed"}
>>> toss = Toss()
>>> toss.parse_actions("toss", toss.new_game(1)), toss.bot_names(), toss.preset_names()
(('toss',), ('random',), ('standard',))
>>> state, events = toss.apply_with_events(toss.new_game(1), "toss")
>>> toss.event_text(events[0], ["Ann"], viewer=0)
'You: toss'
"""

from __future__ import annotations

import importlib
import inspect
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import attrs

from cheekymonkey.checks import check_memory
from cheekymonkey.documents import Documents
from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import (
    ActionTextError,
    IllegalActionError,
    InvalidRulesetError,
    InvalidValueError,
    NotAChanceNodeError,
    NotOfferedError,
)
from cheekymonkey.game import Capabilities, Game, GameBot, Proofs
from cheekymonkey.outcome import Outcome, Stakes
from cheekymonkey.record import Record, RecordLike
from cheekymonkey.text_table import Cell, Column, TextTable

__all__ = ["BaseGame", "EngineGame", "Played", "RandomChoiceBot", "bot_aliases", "plain_text", "weighted_pick"]

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")
V = TypeVar("V")
E = TypeVar("E")


@attrs.frozen(slots=True)
class Played(Generic[A]):
    """The event of the default :meth:`BaseGame.apply_with_events`: who played which action, and its text."""

    seat: int | None
    """The seat that chose the action, or None for chance's outcome."""
    action: A
    """The action."""
    text: str
    """The action's text (:meth:`BaseGame.action_text`) where it was played."""


class RandomChoiceBot(Generic[S, A]):
    """The default bot of every game: a legal action picked uniformly with the ``rng`` it is given.

    Args:
        game: The game whose legal actions it picks from.
    """

    __slots__ = ("game",)

    kind = "random"
    """The bot's kind, as :meth:`BaseGame.bot_named` knows it."""

    def __init__(self, game: Game[S, A, Any, Any, Any]) -> None:
        self.game = game

    def choose(self, state: S, rng: random.Random) -> A:
        """A legal action of ``state`` picked uniformly with ``rng``."""
        actions = self.game.legal_actions(state)
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return f"RandomChoiceBot({self.game.name!r})"


def weighted_pick(outcomes: Sequence[tuple[A, Fraction]], rng: random.Random) -> A:
    """One of ``outcomes`` drawn with its exact probability: one ``rng.randrange`` over their common denominator.

    >>> rng = random.Random(1)
    >>> "".join(weighted_pick([("a", Fraction(1, 3)), ("b", Fraction(2, 3))], rng) for _ in range(12))
    'abababbbbbaa'
    """
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    weights = [probability.numerator * (denominator // probability.denominator) for _, probability in outcomes]
    if sum(weights) != denominator:
        raise InvalidValueError(
            f"the chance outcomes' probabilities add up to {Fraction(sum(weights), denominator)}, not 1"
        )
    ticket = rng.randrange(denominator)
    for index, weight in enumerate(weights):
        ticket -= weight
        if ticket < 0:
            return outcomes[index][0]
    raise AssertionError("unreachable: the weights add up to the denominator")  # pragma: no cover


def bot_aliases(game: object) -> Mapping[str, str]:
    """``game``'s second names for its bots, each to the bot it names (``{"strongest": "expectimax"}``), or none.

    A game lists an alias in its :meth:`~cheekymonkey.Game.bot_names` and builds it with
    :meth:`~cheekymonkey.Game.bot_named`; this says which names are aliases, so that a league seats every bot
    once. A game without :meth:`BaseGame.bot_aliases` has none.

    >>> from cheekymonkey import CHEEKY_MONKEY
    >>> dict(bot_aliases(CHEEKY_MONKEY))
    {'strongest': 'expectimax'}
    """
    method = getattr(game, "bot_aliases", None)
    found = method() if callable(method) else None
    return found if isinstance(found, Mapping) else MappingProxyType({})


def plain_text(value: object) -> str:
    """A value as a person reads it: enum members by name, tuples as lists, nested classes by their fields.

    >>> from enum import Enum
    >>> class Face(Enum):
    ...     ONE = 1
    ...     SNAKE_EYES = 2
    >>> plain_text((Face.ONE, Face.SNAKE_EYES, None, Fraction(1, 6)))
    'one, snake eyes, -, 1/6'
    """
    if isinstance(value, Enum):
        return value.name.lower().replace("_", " ")
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list | frozenset):
        return ", ".join(plain_text(item) for item in value) if value else "none"
    if attrs.has(type(value)):
        fields = ", ".join(
            f"{f.name} {plain_text(getattr(value, f.name))}" for f in attrs.fields(cast(Any, type(value)))
        )
        return f"{type(value).__name__.lower()} ({fields})" if fields else type(value).__name__.lower()
    return str(value)


def _public_fields(view: object) -> list[tuple[str, object]]:
    if attrs.has(type(view)):
        return [
            (f.name, getattr(view, f.name)) for f in attrs.fields(cast(Any, type(view))) if not f.name.startswith("_")
        ]
    if isinstance(view, dict):
        return [(str(key), item) for key, item in view.items()]
    return []


_BINDABLE: tuple[str, ...] = tuple(
    sorted(name for name, member in vars(Game).items() if not name.startswith("_") and inspect.isfunction(member))
)


def _bind_engine(cls: type[EngineGame[Any, Any, Any, Any, Any]]) -> None:
    """Bind ``cls``'s :attr:`~EngineGame.engine` functions as its members (see there)."""
    modules, renamed = cls.engine, cls.engine_names
    if not modules:
        return
    unknown = sorted(set(renamed) - set(_BINDABLE))
    if unknown:
        raise TypeError(f"{cls.__name__}.engine_names renames {unknown}, which are no members of the Game protocol")
    for member in _BINDABLE:
        if getattr(cls, member) is not getattr(BaseGame, member):
            continue  # the class (or a class between it and BaseGame) writes its own
        wanted = renamed.get(member, member)
        for module in modules:
            function = vars(module).get(wanted)
            # A function of the compiled build (mypyc) is a built-in function, not a Python one.
            if inspect.isfunction(function) or inspect.isbuiltin(function):
                setattr(cls, member, staticmethod(function))
                break
        else:
            if member in renamed:
                raise TypeError(f"{cls.__name__}.engine_names: no function {wanted!r} in its engine modules")


class BaseGame(ABC, Generic[S, A, R, V, E]):
    """A game's binding: subclass it, write the core (the abstract members), and every other member is a default.

    The type parameters are the game's own: ``S`` its states, ``A`` its actions (chance's outcomes included),
    ``R`` its rule sets, ``V`` a seat's view, ``E`` its events (:class:`Played` unless the game narrates its
    own). Every default is documented with what it does, so a game overrides exactly what it does better.
    A subclass registers its one object in the entry-point group ``cheekymonkey.games``
    (:mod:`cheekymonkey.games`).
    """

    __slots__ = ()

    # -- who the game is (required: set name and title as class attributes) ----------------------------

    @property
    @abstractmethod
    def name(self) -> str:
        """The game's short name, as the command line and documents spell it, and as it registers."""

    @property
    @abstractmethod
    def title(self) -> str:
        """The game's title for people."""

    @property
    def summary(self) -> str:
        """Default: the first paragraph of the class's docstring, or the title."""
        doc = inspect.getdoc(type(self))
        return doc.split("\n\n")[0].replace("\n", " ") if doc else f"{self.title}."

    @property
    def results_note(self) -> str:
        """Default: nothing (``cheekymonkey simulate`` prints no note under its table)."""
        return ""

    # -- the rules (required) --------------------------------------------------------------------------

    presets: Mapping[str, R] = MappingProxyType({})
    """The preset rule sets by name, the standard game first: :meth:`ruleset`, :meth:`preset_names` and
    :meth:`ruleset_name` are read from it (a class attribute; a game that writes :meth:`ruleset` may leave it
    empty)."""

    def ruleset(self, name: str | None = None) -> R:
        """Default: the rule set of :attr:`presets` called ``name`` (None: the first, the standard game).

        Raises:
            InvalidRulesetError: If there is no preset of that name.
            NotImplementedError: If the game declares no :attr:`presets` (it must then write this).
        """
        if not self.presets:
            raise NotImplementedError(f"{type(self).__name__} declares no presets and writes no ruleset()")
        if name is None:
            return next(iter(self.presets.values()))
        found = self.presets.get(name) if isinstance(name, str) else None
        if found is None:
            raise InvalidRulesetError(f"no preset named {name!r}; the presets are {', '.join(self.presets)}")
        return found

    @abstractmethod
    def seat_range(self, ruleset: R | None = None) -> tuple[int, int]:
        """The fewest and most seats ``ruleset`` (None: the standard game) can be played with."""

    @abstractmethod
    def new_game(self, players: int, ruleset: R | None = None, *, first_player: int = 0) -> S:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first seat does not fit the rule set.
        """

    @abstractmethod
    def ruleset_of(self, state: S) -> R:
        """The rule set ``state`` is played under."""

    @abstractmethod
    def players(self, state: S) -> int:
        """How many seats ``state`` has."""

    def preset_names(self) -> tuple[str, ...]:
        """Default: the names of :attr:`presets`, or ``("standard",)`` for a game without them."""
        return tuple(self.presets) or ("standard",)

    def ruleset_name(self, ruleset: R) -> str:
        """Default: the rule set's ``name`` if it has one, else its preset's name, else "custom".

        A game without :attr:`presets` calls its standard game "standard".
        """
        name = getattr(ruleset, "name", None)
        if isinstance(name, str) and name:
            return name
        for preset, rules in (self.presets or {"standard": self.ruleset()}).items():
            if rules == ruleset:
                return preset
        return "custom"

    def number_bound(self, ruleset: R) -> int | None:
        """Default: None, no bound known (a front end with double-precision numbers checks what it is sent)."""
        return None

    # -- playing (required: legal_actions, apply) ------------------------------------------------------

    def legal_actions(self, state: S) -> Sequence[A]:
        """Default: none at the end, chance's outcomes at a chance node, else :meth:`decisions`.

        A game writes :meth:`decisions` and its chance outcomes once, in :meth:`chance_outcomes`; or this whole.
        """
        if self.is_terminal(state):
            return ()
        if self.is_chance_node(state):
            return tuple(action for action, _ in self.chance_outcomes(state))
        return self.decisions(state)

    def decisions(self, state: S) -> Sequence[A]:
        """The actions the seat to move may choose from, complete and in a fixed order (a hook of the base class).

        Raises:
            NotImplementedError: If the game writes neither this nor :meth:`legal_actions`.
        """
        raise NotImplementedError(f"{type(self).__name__} writes neither decisions() nor legal_actions()")

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after ``action``.

        Raises:
            IllegalActionError: If the rules forbid ``action`` in ``state``; nothing changes.
        """

    def apply_with_events(self, state: S, action: A) -> tuple[S, tuple[E, ...]]:
        """Default: :meth:`apply`, and one :class:`Played` event (who played which action, by its text)."""
        seat = None if self.is_chance_node(state) else self.to_move(state)
        after = self.apply(state, action)
        return after, (cast(E, Played(seat, action, self.action_text(action, state))),)

    # -- chance (required: is_chance_node, chance_outcomes) --------------------------------------------

    @abstractmethod
    def is_chance_node(self, state: S) -> bool:
        """Whether chance acts next."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """Every outcome chance can give now, with its exact probability (they add up to 1).

        Raises:
            NotAChanceNodeError: If ``state`` is not a chance node.
        """

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Default: one of :meth:`chance_outcomes` drawn with its exact probability (:func:`weighted_pick`)."""
        if not self.is_chance_node(state):
            raise NotAChanceNodeError("chance does not act in this state")
        return weighted_pick(self.chance_outcomes(state), rng)

    # -- the turn, the end, the outcome (required: to_move, is_terminal, outcome) -----------------------

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat that decides next, or None at a chance node and at the end."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the game has ended by its rules."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """The winners, ranks and returns of a finished game.

        Raises:
            GameNotOverError: If the game has not ended.
        """

    def turn_of(self, state: S) -> int | None:
        """Default: :meth:`to_move` (None at a chance node: a game whose draws fall in a seat's turn says whose)."""
        return self.to_move(state)

    def round_of(self, state: S) -> int:
        """Default: 1, a game played in one round."""
        return 1

    def begins_turn(self, state: S) -> bool:
        """Default: every decision begins a turn (a game whose turns hold several decisions says which begins one)."""
        return self.to_move(state) is not None

    # -- the view (required) ---------------------------------------------------------------------------

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` (None: a spectator) may see of ``state``, as a value of its own."""

    def facts(self, state: S, seat: int | None) -> dict[str, Any]:
        """Default: ``{}``, no figures beside the view."""
        return {}

    # -- secrets and stakes ----------------------------------------------------------------------------

    private_information: bool = False
    """Default: False, no seat knows what another does not (set it True, and override the members below)."""

    def default_seats(self, ruleset: R | None = None) -> int:
        """Default: 3, or the nearest count :meth:`seat_range` allows."""
        fewest, most = self.seat_range(ruleset)
        return max(fewest, min(most, 3))

    def stakes(self, players: int, ruleset: R | None = None) -> Stakes:
        """Default: :meth:`~cheekymonkey.Stakes.of_outcome`, the winners sharing 1, the others 0.

        These are the bounds of :meth:`returns`' default.
        """
        return Stakes.of_outcome()

    def returns(self, state: S) -> tuple[float, ...]:
        """Default: the returns of :meth:`outcome`.

        Raises:
            GameNotOverError: If the game has not ended.
        """
        return self.outcome(state).returns

    def information_state(self, state: S, seat: int) -> Hashable:
        """Default: the state itself, for a game without private information.

        Raises:
            NotOfferedError: If the game declares :attr:`private_information` and does not override this.
        """
        if self.private_information:
            raise NotOfferedError(self.name, "a seat's information state (a game with private information gives it)")
        return cast(Hashable, state)

    def resample(self, state: S, seat: int, rng: random.Random) -> S:
        """Default: the state itself, for a game without private information (the seat knows all of it).

        Raises:
            NotOfferedError: If the game declares :attr:`private_information` and does not override this.
        """
        if self.private_information:
            raise NotOfferedError(self.name, "resampling what a seat knows (a game with private information gives it)")
        return state

    def event_for(self, event: E, viewer: int | None) -> E | None:
        """Default: the event as it is, for a game without private information.

        Raises:
            NotOfferedError: If the game declares :attr:`private_information` and does not override this.
        """
        if self.private_information:
            raise NotOfferedError(self.name, "what an event shows each seat (a game with private information gives it)")
        return event

    # -- bots ------------------------------------------------------------------------------------------

    def bot_names(self) -> tuple[str, ...]:
        """Default: ``("random",)``, the :class:`RandomChoiceBot`."""
        return ("random",)

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[S, A]:
        """Default: a :class:`RandomChoiceBot` for ``"random"`` (it keeps nothing, so ``memory`` is only checked).

        Raises:
            InvalidValueError: If the game has no bot of that name, or ``memory`` is not a positive integer.
        """
        check_memory(memory)
        if name != "random":
            raise InvalidValueError(f"no bot named {name!r}; the bots are {', '.join(self.bot_names())}")
        return RandomChoiceBot(self)

    def bot_aliases(self) -> Mapping[str, str]:
        """Default: none. Second names for bots, each listed by :meth:`bot_names` too, to the bot it names."""
        return MappingProxyType({})

    def bot_title(self, name: str) -> str:
        """Default: the bot's name, capitalised (``"Random"``); an alias's with the bot it names after it."""
        target = bot_aliases(self).get(name)
        return name.capitalize() if target is None else f"{name.capitalize()} ({target.capitalize()})"

    # -- text ------------------------------------------------------------------------------------------

    def action_text(self, action: A, state: S) -> str:
        """Default: the action as a person reads it (:func:`plain_text`: an enum member's name in lower case)."""
        return plain_text(action)

    def notation_actions(self, state: S) -> Sequence[A]:
        """Default: :meth:`legal_actions`; the actions a text may name in ``state``, refused ones included.

        Override it to return more than the legal actions (every move of the notation, say), and the default
        :meth:`parse_actions` refuses a text naming one the rules refuse now with the engine's own reason.
        """
        return self.legal_actions(state)

    def parse_actions(self, text: str, state: S) -> tuple[A, ...]:
        """Default: the one action of :meth:`notation_actions` whose :meth:`action_text` is ``text``, if legal.

        Texts are matched ignoring case and outer spaces. A text naming one action the rules refuse now is
        refused with the engine's reason (the :class:`IllegalActionError`'s, its rule last in brackets), the
        action on the error's ``action``.

        Raises:
            ActionTextError: If the text names no action, more than one, or one the rules refuse now.
        """
        legal = self.legal_actions(state)
        texts = tuple(self.action_text(action, state) for action in legal)
        wanted = " ".join(text.split()).casefold()
        named = [
            action for action in self.notation_actions(state) if self.action_text(action, state).casefold() == wanted
        ]
        if len(named) == 1:
            if named[0] in legal:
                return (named[0],)
            try:
                self.apply(state, named[0])
            except IllegalActionError as refusal:
                raise ActionTextError.refused(text, named[0], refusal.reason, texts) from None
            return (named[0],)
        reason = "that is no legal action now" if not named else "that names more than one action"
        raise ActionTextError(text, reason, texts)

    def action_words(self, action: A, state: S, names: Sequence[str]) -> str:
        """Default: :meth:`action_text`."""
        return self.action_text(action, state)

    def choice_notes(self, state: S, names: Sequence[str]) -> tuple[str, ...]:
        """Default: none."""
        return ()

    def action_help(self) -> str:
        """Default: type an action as the list of legal actions shows it."""
        return "Type one of the legal actions as it is listed (the game's own words for it)."

    def board_table(self, state: S, names: Sequence[str], viewer: int | None = None) -> TextTable:
        """Default: the view's fields, one a row (:func:`plain_text`); a field with one entry per seat by name."""
        players = self.players(state)
        view = self.view(state, viewer)
        rows: list[tuple[Cell, Cell]] = []
        for field, value in _public_fields(view):
            if isinstance(value, tuple) and len(value) == players and players > 1 and len(names) == players:
                shown = ", ".join(f"{names[seat]} {plain_text(item)}" for seat, item in enumerate(value))
            else:
                shown = plain_text(value)
            rows.append((Cell(field.replace("_", " ")), Cell(shown)))
        if not rows:
            rows.append((Cell("table"), Cell(plain_text(view))))
        whose = self.to_move(state)
        notes = () if whose is None or whose >= len(names) else (f"{names[whose]} to move.",)
        return TextTable((Column(Cell(self.title)), Column(Cell(""))), tuple(rows), notes=notes)

    def board_text(self, state: S) -> str:
        """Default: the spectator's :meth:`board_table`, seats named "Seat 0", "Seat 1", ..."""
        names = [f"Seat {seat}" for seat in range(self.players(state))]
        return self.board_table(state, names).text()

    def event_text(self, event: E, names: Sequence[str], viewer: int | None = None) -> str:
        """Default: a :class:`Played` event as ``"Ann: roll"`` (``"You: roll"`` for the viewer, ``"Chance: 6"``)."""
        if isinstance(event, Played):
            if event.seat is None:
                return f"Chance: {event.text}"
            who = "You" if event.seat == viewer else names[event.seat] if event.seat < len(names) else "?"
            return f"{who}: {event.text}"
        return plain_text(event)

    def mid_move(self, state: S) -> bool:
        """Default: never, each action a move of its own."""
        return False

    def merge_events(self, events: Sequence[E]) -> tuple[E, ...]:
        """Default: the events as they are."""
        return tuple(events)

    def result_table(self, state: S, names: Sequence[str]) -> TextTable:
        """Default: each seat's place (and score, if the outcome has them), and the winners."""
        outcome = self.outcome(state)
        columns = [Column(Cell("player")), Column(Cell("place"), right=True)]
        if outcome.scores is not None:
            columns.append(Column(Cell("score"), right=True))
        rows = []
        for seat in sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s)):
            row = [Cell(names[seat]), Cell(str(outcome.ranks[seat]))]
            if outcome.scores is not None:
                row.append(Cell(str(outcome.scores[seat])))
            rows.append(tuple(row))
        winners = " and ".join(names[seat] for seat in outcome.winners)
        return TextTable(tuple(columns), tuple(rows), title="Result", notes=(f"Winner: {winners}.",))

    def result_text(self, state: S, names: Sequence[str]) -> str:
        """Default: :meth:`result_table` as text, 80 columns wide."""
        return self.result_table(state, names).text()

    # -- records and documents -------------------------------------------------------------------------

    def record(
        self,
        ruleset: R,
        players: int,
        first_player: int,
        actions: Sequence[A],
        *,
        seed: int | None = None,
        names: Sequence[str] = (),
        bots: Sequence[str] = (),
        quit_by: int | None = None,
    ) -> RecordLike[R, A]:
        """Default: a :class:`~cheekymonkey.record.Record`, which replays through this game."""
        return Record(self, ruleset, players, first_player, tuple(actions), seed, tuple(names), tuple(bots), quit_by)

    def documents(self) -> Documents:
        """Default: :class:`~cheekymonkey.serialization.generic.GenericDocuments`, format ``<name>/1``.

        They write any value made of attrs classes, enums, numbers, strings and tuples, and read back
        those whose classes live in the game's own top-level package.

        Raises:
            ImportError: If the ``json`` extra is not installed (the documents' parser needs it).
        """
        from cheekymonkey.serialization.generic import GenericDocuments

        return GenericDocuments(self)

    # -- capabilities: declared in ``capabilities``, absent unless a game offers them --------------------

    capabilities: Capabilities = Capabilities()
    """Default: nothing beside the rules (set it to the :class:`~cheekymonkey.game.Capabilities` the game offers,
    and override the members below that give them)."""

    def observation_kinds(self) -> tuple[str, ...]:
        """Default: none (the game offers no encodings)."""
        return ()

    def encoding(self, players: int, ruleset: R | None = None, observation: str | None = None) -> Encoding[S, A]:
        """Default: absent (``capabilities.encodings`` is False).

        Raises:
            NotOfferedError: Always, naming the game.
        """
        raise NotOfferedError(self.name, "encodings for learning (the RL adapters need them)")

    def proofs(self) -> Proofs:
        """Default: absent (``capabilities.proofs`` is False): ``cheekymonkey verify --game`` says so, status 2.

        Raises:
            NotOfferedError: Always, naming the game.
        """
        raise NotOfferedError(self.name, "proofs of its rules")

    def schemas(self) -> Traversable:
        """Default: absent (``capabilities.schemas`` is False): :mod:`cheekymonkey.schema` leaves the game out.

        Raises:
            NotOfferedError: Always, naming the game.
        """
        raise NotOfferedError(self.name, "JSON Schema files")

    def page_script(self) -> Traversable:
        """Default: absent (``capabilities.page_script`` is False): the web page shows the board text instead.

        Raises:
            NotOfferedError: Always, naming the game.
        """
        raise NotOfferedError(self.name, "a drawing of the table for the web page")

    def __repr__(self) -> str:
        return f"<game {self.name!r}>"


class EngineGame(BaseGame[S, A, R, V, E]):
    """A game bound from an engine written as modules of functions: no forwarding methods.

    Set :attr:`engine` to the modules, and :attr:`engine_names` to the functions whose names differ from
    the members'. As the class is made, every member of :class:`~cheekymonkey.game.Game` the class leaves to
    the base class (its abstract core or a default) is bound to the function of that name in the first of
    these modules that has one, as it is, exactly as fast as the engine's own call. A member of the core
    that no module gives stays abstract, and making the object raises a ``TypeError`` naming it.
    """

    __slots__ = ()

    engine: tuple[object, ...] = ()
    """The modules whose functions are the game's members, each under the member's name (a class attribute)."""

    engine_names: Mapping[str, str] = MappingProxyType({})
    """The members whose function has another name in :attr:`engine`: ``{"to_move": "current_player"}``."""

    record_type: Callable[..., RecordLike[R, A]] | None = None
    """The game's record class (a :class:`~cheekymonkey.record.BaseRecord`) that :meth:`record` makes, called
    with the record's fields in order; None: the generic :class:`~cheekymonkey.record.Record`."""

    documents_module: str = ""
    """The module whose ``CODEC`` are the game's documents, imported when they are first asked for (they may
    need the ``json`` extra); empty: the generic documents."""

    proofs_module: str = ""
    """The module whose ``command_line`` are the game's proofs, imported when asked for (they need z3)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _bind_engine(cls)

    def record(
        self,
        ruleset: R,
        players: int,
        first_player: int,
        actions: Sequence[A],
        *,
        seed: int | None = None,
        names: Sequence[str] = (),
        bots: Sequence[str] = (),
        quit_by: int | None = None,
    ) -> RecordLike[R, A]:
        """A record of :attr:`record_type` (the base class's generic record without one)."""
        if self.record_type is None:
            return super().record(
                ruleset, players, first_player, actions, seed=seed, names=names, bots=bots, quit_by=quit_by
            )
        return self.record_type(
            ruleset, players, first_player, tuple(actions), seed, tuple(names), tuple(bots), quit_by
        )

    def documents(self) -> Documents:
        """The ``CODEC`` of :attr:`documents_module` (the base class's generic documents without one).

        Raises:
            ImportError: If the extra the documents need is not installed; the message names it.
        """
        if not self.documents_module:
            return super().documents()
        codec: Documents = importlib.import_module(self.documents_module).CODEC
        return codec

    def _package_files(self) -> Traversable:
        return resources.files(type(self).__module__.rpartition(".")[0])

    def schemas(self) -> Traversable:
        """Declared: the folder ``schemas`` of the game's package, one ``<kind>.schema.json`` a document kind."""
        if not self.capabilities.schemas:
            return super().schemas()
        return self._package_files() / "schemas"

    def page_script(self) -> Traversable:
        """Declared: ``static/<name>.js`` in the game's package, which the web server serves."""
        if not self.capabilities.page_script:
            return super().page_script()
        return self._package_files() / "static" / f"{self.name}.js"

    def proofs(self) -> Proofs:
        """Declared: the ``command_line`` of :attr:`proofs_module`.

        Raises:
            ImportError: If z3 (the ``verify`` extra) is not installed.
        """
        if not self.capabilities.proofs:
            return super().proofs()
        # Imported by name: the proofs import z3, which a type check of the game (and the compiled build) must
        # not have to read.
        command_line: Proofs = importlib.import_module(self.proofs_module).command_line
        return command_line

    if TYPE_CHECKING:  # what the type checker knows the engine's functions to be, bound as the class is made

        def apply(self, state: S, action: A) -> S:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def is_chance_node(self, state: S) -> bool:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def to_move(self, state: S) -> int | None:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def is_terminal(self, state: S) -> bool:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def outcome(self, state: S) -> Outcome:  # noqa: D102 (the protocol's)
            raise NotImplementedError

        def view(self, state: S, seat: int | None) -> V:  # noqa: D102 (the protocol's)
            raise NotImplementedError
