"""The game surface: what every game offers the layers above its engine, as one small typed protocol.

A *game* here is an object that binds one rules engine's functions together: :data:`~cheekymonkey.CHEEKY_MONKEY`
binds Cheeky Monkey's, and :func:`~cheekymonkey.games.game_named` finds any game by name. Everything written
once for every game (the :class:`~cheekymonkey.Table` session, the command line, the web rooms, the RL
adapters, the simulation) asks a game for what it needs through :class:`Game` and never imports an engine
itself. The engines' own functions stay as they are; the hot path (bots, search, benchmarks) calls them
directly and never pays for the surface.

The protocol is generic in the game's own types, so code written against it keeps them under
``mypy --strict``:

- ``S``: the state (for Cheeky Monkey, :class:`~cheekymonkey.GameState`);
- ``A``: the actions, chance outcomes included (:data:`~cheekymonkey.cheeky.actions.Action`);
- ``R``: the rule set (:class:`~cheekymonkey.Ruleset`);
- ``V``: a seat's view (:class:`~cheekymonkey.TableView`);
- ``E``: the events (:data:`~cheekymonkey.cheeky.events.Event`).

>>> from cheekymonkey import CHEEKY_MONKEY as game
>>> state = game.new_game(2)
>>> game.to_move(state), game.is_chance_node(state), game.legal_actions(state)[:2]
(None, True, (Reveal(Animal.ELEPHANT), Reveal(Animal.SEAL)))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import attrs

from cheekymonkey.documents import Documents
from cheekymonkey.encoding import Encoding
from cheekymonkey.outcome import Outcome, Stakes
from cheekymonkey.record import RecordLike
from cheekymonkey.text_table import TextTable

__all__ = ["Capabilities", "Game", "GameBot", "Proofs"]

S = TypeVar("S")
A = TypeVar("A")
R = TypeVar("R")
V_co = TypeVar("V_co", covariant=True)
E = TypeVar("E")
S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)
A_contra = TypeVar("A_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


def _a_bool(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"a capability is True or False, got {attribute.name}={value!r}")


@attrs.frozen(slots=True)
class Capabilities:
    """What a game offers beside its rules, declared as data: every front end reads it, and none probes for more.

    A game's binding sets it as a class attribute (:class:`~cheekymonkey.base.BaseGame`'s default offers
    nothing); the member that gives a declared capability is then the game's own, and calling one that is
    not declared raises :class:`~cheekymonkey.errors.NotOfferedError`. Secrets are declared apart, by
    :attr:`~cheekymonkey.Game.private_information`. :func:`cheekymonkey.testing.check_game` checks that a
    game gives what it declares.

    >>> Capabilities(encodings=True)
    Capabilities(encodings=True, proofs=False, schemas=False, page_script=False, batched=False)
    """

    encodings: bool = attrs.field(default=False, validator=_a_bool)
    """Encodings for learning: :meth:`~cheekymonkey.Game.encoding`, and :meth:`~cheekymonkey.Game.observation_kinds`
    not empty."""
    proofs: bool = attrs.field(default=False, validator=_a_bool)
    """Proofs of the rules, :meth:`~cheekymonkey.Game.proofs`, which ``cheekymonkey verify --game`` runs."""
    schemas: bool = attrs.field(default=False, validator=_a_bool)
    """A folder of JSON Schema files, :meth:`~cheekymonkey.Game.schemas`, which :mod:`cheekymonkey.schema` serves."""
    page_script: bool = attrs.field(default=False, validator=_a_bool)
    """A drawing of the table for the web page, :meth:`~cheekymonkey.Game.page_script`."""
    batched: bool = attrs.field(default=False, validator=_a_bool)
    """A batched engine, registered by the game's name in the entry-point group ``cheekymonkey.batched``."""


class Proofs(Protocol):
    """A game's proofs, as ``cheekymonkey verify`` runs them: a function of the command's arguments."""

    def __call__(
        self, preset: str, document: Path | None, players: Sequence[int] | None, fail: Callable[[str], int], /
    ) -> int:
        """Prove the rule set and print the report; the exit status (0 proved, 1 refuted, 2 ``fail``'s).

        Args:
            preset: The name of one of the game's preset rule sets, used when ``document`` is None.
            document: A file holding a ``ruleset`` document of the game, or None.
            players: The seat counts to prove, or None for the game's own choice.
            fail: Prints a one-line error and returns 2; for input that cannot be used.
        """
        ...


@runtime_checkable
class GameBot(Protocol[S_contra, A_co]):
    """Anything that picks an action for the player to move in one game's states.

    :class:`cheekymonkey.Bot` is this protocol for Cheeky Monkey's types.
    """

    def choose(self, state: S_contra, rng: random.Random) -> A_co:
        """Return one of the game's legal actions in ``state``; ``state`` is never a chance node."""
        ...


@runtime_checkable
class Game(Protocol[S, A, R, V_co, E]):
    """What a game offers every layer above its engine.

    One object per game implements it by calling the engine's own functions (see
    :class:`cheekymonkey.cheeky.game.CheekyMonkey`). Every method is pure: states, actions, views and events are
    values. Methods that take a state assume one of this game's states.
    """

    # -- who the game is ------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's short name, as the command line and documents spell it (``"cheeky-monkey"``)."""
        ...

    @property
    def title(self) -> str:
        """The game's title for people (``"Cheeky Monkey"``)."""
        ...

    @property
    def summary(self) -> str:
        """What the game is about and how it is won, in a few sentences for a new player.

        The command line prints it as a game begins.
        """
        ...

    @property
    def results_note(self) -> str:
        """What a reader of the bots' win rates should know: how much of a result is luck, and where it is measured.

        ``cheekymonkey simulate`` prints it under its table.
        """
        ...

    # -- rules and set-up ------------------------------------------------------------------------------

    def ruleset(self, name: str | None = None) -> R:
        """The preset rule set called ``name`` (None: the standard game).

        Raises:
            InvalidRulesetError: If there is no preset of that name.
        """
        ...

    def preset_names(self) -> tuple[str, ...]:
        """The names :meth:`ruleset` knows, the standard game first."""
        ...

    def ruleset_name(self, ruleset: R) -> str:
        """A rule set's name for people and summaries: its preset's name, or what it is called."""
        ...

    def seat_range(self, ruleset: R | None = None) -> tuple[int, int]:
        """The fewest and most seats ``ruleset`` (None: the standard game) can be played with."""
        ...

    def new_game(self, players: int, ruleset: R | None = None, *, first_player: int = 0) -> S:
        """The state before the first action.

        Raises:
            InvalidGameError: If the seat count or first seat does not fit the rule set.
        """
        ...

    def ruleset_of(self, state: S) -> R:
        """The rule set ``state`` is played under."""
        ...

    def players(self, state: S) -> int:
        """How many seats ``state`` has."""
        ...

    # -- playing ---------------------------------------------------------------------------------------

    def legal_actions(self, state: S) -> Sequence[A]:
        """The legal actions, complete and in a fixed order: at a chance node, the outcomes; at the end, none."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``.

        Raises:
            IllegalActionError: If the rules forbid ``action`` in ``state``; nothing changes.
        """
        ...

    def apply_with_events(self, state: S, action: A) -> tuple[S, tuple[E, ...]]:
        """The state after ``action`` and what happened, for front ends to show."""
        ...

    def is_chance_node(self, state: S) -> bool:
        """Whether chance acts next."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """Every outcome chance can give now, with its exact probability.

        Raises:
            NotAChanceNodeError: If ``state`` is not a chance node.
        """
        ...

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """One outcome drawn with the probabilities of :meth:`chance_outcomes`."""
        ...

    def to_move(self, state: S) -> int | None:
        """The seat that decides next, or None at a chance node and at the end."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game has ended by its rules."""
        ...

    def turn_of(self, state: S) -> int | None:
        """The seat whose turn it is, at a chance node too (a draw in its turn), or None once the game has ended."""
        ...

    def round_of(self, state: S) -> int:
        """The round ``state`` is in, counted from 1: a game played in one round is always in round 1.

        ``cheekymonkey replay --to round:N`` jumps to a round by it.
        """
        ...

    def begins_turn(self, state: S) -> bool:
        """Whether ``state`` is the first state of a seat's turn (the state :meth:`new_game` makes is one).

        The :class:`~cheekymonkey.Table` counts turns with it, for its turn limit.
        """
        ...

    def outcome(self, state: S) -> Outcome:
        """The winners, ranks and returns of a finished game.

        Raises:
            GameNotOverError: If the game has not ended.
        """
        ...

    def view(self, state: S, seat: int | None) -> V_co:
        """What ``seat`` (None: a spectator) may see of ``state``, as a type of its own."""
        ...

    # -- secrets and stakes ----------------------------------------------------------------------------

    @property
    def private_information(self) -> bool:
        """Whether some seat may know what another does not (a hand of cards).

        False for a game whose only secrets are chance's, hidden from everybody alike (a bag, a face-down
        deck): then a seat's information is the state itself, and every member below has its plain default.
        """
        ...

    def default_seats(self, ruleset: R | None = None) -> int:
        """The usual number of seats under ``ruleset`` (None: the standard game); every front end starts there."""
        ...

    def stakes(self, players: int, ruleset: R | None = None) -> Stakes:
        """What the game pays at its end with ``players`` seats: the bounds of one seat's return and their kind."""
        ...

    def returns(self, state: S) -> tuple[float, ...]:
        """Each seat's return in a finished game, within :meth:`stakes` (OpenSpiel's ``returns``).

        Raises:
            GameNotOverError: If the game has not ended.
        """
        ...

    def information_state(self, state: S, seat: int) -> Hashable:
        """All ``seat`` knows in ``state``: equal for two states exactly when the seat cannot tell them apart."""
        ...

    def resample(self, state: S, seat: int, rng: random.Random) -> S:
        """A state ``seat`` cannot tell from ``state``, drawn with its probability given what the seat knows.

        A function of :meth:`information_state` and ``rng`` alone, so two states the seat cannot tell apart
        give the same state for the same random numbers. Search bots plan on it; a bot of a game with private
        information is handed one instead of the true state.
        """
        ...

    def event_for(self, event: E, viewer: int | None) -> E | None:
        """What ``event`` shows ``viewer`` (None: a spectator): the event, a masked copy, or None for nothing."""
        ...

    def facts(self, state: S, seat: int | None) -> dict[str, Any]:
        """Figures ``seat`` could work out from what it has seen, for a front end to show beside the view.

        JSON-ready, and never more than the view reveals: Cheeky Monkey gives ``{"bust_odds": p}`` while a
        player decides (the bag's contents follow from every token seen face up), and ``{}`` otherwise.
        """
        ...

    def number_bound(self, ruleset: R) -> int | None:
        """An upper bound on every whole number a game under ``ruleset`` can put in its documents, or None.

        Sizes, counts and scores all stay at or below it, so a front end whose numbers are doubles
        (JavaScript's are exact up to ``2**53 - 1``) can tell from the rules alone whether it can show the game.
        None: the game gives no bound (:class:`~cheekymonkey.base.BaseGame`'s default), and such a front end
        takes the game as it comes.
        """
        ...

    # -- bots ------------------------------------------------------------------------------------------

    def bot_names(self) -> tuple[str, ...]:
        """The names of the game's bots, as :meth:`bot_named` knows them."""
        ...

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[S, A]:
        """A fresh bot of the kind called ``name``.

        Args:
            name: One of :meth:`bot_names`.
            memory: The most entries the bot may keep in its caches from one move to the next (None: the
                bot's own bound). A server with many bots sets it, so that their memory stays bounded.

        Raises:
            InvalidValueError: If the game has no bot of that name, or ``memory`` is not a positive integer.
        """
        ...

    # -- text ------------------------------------------------------------------------------------------

    def action_text(self, action: A, state: S) -> str:
        """The short text of a legal ``action``, which :meth:`parse_actions` reads back."""
        ...

    def action_words(self, action: A, state: S, names: Sequence[str]) -> str:
        """A legal ``action`` in words for a person choosing it, seats called by ``names``."""
        ...

    def choice_notes(self, state: S, names: Sequence[str]) -> tuple[str, ...]:
        """Why choices a player may look for are not offered in ``state``, one sentence each (often none).

        A seat left out of a choice of seats is named with the rule's reason (Too Many Monkeys' Skip skips a
        seat with one waiting already); a front end shows them beside the choices.
        """
        ...

    def parse_actions(self, text: str, state: S) -> tuple[A, ...]:
        """The actions a player typed, in order; they are legal one after the other.

        Raises:
            ActionTextError: If the text names no legal action.
        """
        ...

    def board_text(self, state: S) -> str:
        """The table as plain text, for a terminal or a log."""
        ...

    def event_text(self, event: E, names: Sequence[str], viewer: int | None = None) -> str:
        """One line of narration for an event, as ``viewer`` reads it (their own seat is "you")."""
        ...

    def result_text(self, state: S, names: Sequence[str]) -> str:
        """The final result of a finished game as plain text, at most 80 columns wide."""
        ...

    def board_table(self, state: S, names: Sequence[str], viewer: int | None = None) -> TextTable:
        """The table as ``viewer`` (None: a spectator) sees it, as cells a front end may colour."""
        ...

    def result_table(self, state: S, names: Sequence[str]) -> TextTable:
        """The final result of a finished game as cells a front end may colour; ``.text()`` fits 80 columns."""
        ...

    def action_help(self) -> str:
        """How a player types actions (the notation :meth:`parse_actions` reads), as a few lines for a help screen."""
        ...

    def bot_title(self, name: str) -> str:
        """A bot kind's name for people, as a seat's default name begins (``"Heuristic"``, ``"MCTS"``).

        A kind the game does not know (a bot of the caller's own) gets its name capitalised.
        """
        ...

    def mid_move(self, state: S) -> bool:
        """Whether ``state`` is inside one move made of several actions (tokens stacked one at a time).

        A front end that narrates holds the events of such a move until it is complete, then narrates them
        through :meth:`merge_events`.
        """
        ...

    def merge_events(self, events: Sequence[E]) -> tuple[E, ...]:
        """The events as one narrates them together: parts of one move (tokens stacked one at a time) joined."""
        ...

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
        """A replayable record of a game; ``quit_by``: the seat whose player quit it where its actions end."""
        ...

    def documents(self) -> Documents:
        """The game's JSON documents (which may need an optional extra).

        Raises:
            ImportError: If the extra the documents need is not installed; the message names it.
        """
        ...

    # -- capabilities ----------------------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities:
        """What the game offers beside its rules (encodings, proofs, schemas, a page drawing, a batched engine)."""
        ...

    def proofs(self) -> Proofs:
        """The proofs of the rules, for ``cheekymonkey verify --game`` (declared by ``capabilities.proofs``).

        Raises:
            NotOfferedError: If the game does not declare proofs.
            ImportError: If the proofs need a module that is not installed (z3, the ``verify`` extra).
        """
        ...

    def schemas(self) -> Traversable:
        """The folder of JSON Schema files, one ``<kind>.schema.json`` a document kind (``capabilities.schemas``).

        Raises:
            NotOfferedError: If the game does not declare schemas.
        """
        ...

    def page_script(self) -> Traversable:
        """The script that draws the table on the web page (declared by ``capabilities.page_script``).

        Raises:
            NotOfferedError: If the game does not declare a page drawing.
        """
        ...

    # -- learning --------------------------------------------------------------------------------------

    def observation_kinds(self) -> tuple[str, ...]:
        """The kinds of observation :meth:`encoding` offers, the default first."""
        ...

    def encoding(self, players: int, ruleset: R | None = None, observation: str | None = None) -> Encoding[S, A]:
        """The action indices and observations for ``players`` seats under ``ruleset``.

        Raises:
            InvalidValueError: If the seat count, rule set or observation kind does not fit.
        """
        ...
