"""*Too Many Monkeys* bound into a :class:`~cheekymonkey.game.Game`: the engine's own functions, one object.

Nothing here is new rules: each method calls the function of the same idea in this package's modules (what
the base class :class:`~cheekymonkey.base.BaseGame` gives by default is left to it: no figures beside the view
(every seat sees the whole table, TM19), each decision a move of its own, bots' kinds capitalised), and
:data:`TOO_MANY_MONKEYS` is what the layers written for any game (:class:`~cheekymonkey.table.Table`, the
command line, the web rooms, the RL adapters, the simulation) hold. Its JSON documents are
:mod:`cheekymonkey.toomany.documents` (the ``json`` extra); its learning encodings are
:mod:`cheekymonkey.toomany.encoding`'s.

>>> from cheekymonkey.games import game_named
>>> game = game_named("too-many-monkeys")
>>> game.title, game.seat_range(), game.preset_names()
('Too Many Monkeys', (2, 6), ('standard', 'short'))
>>> state = game.new_game(3)
>>> game.is_chance_node(state), len(game.chance_outcomes(state)), game.begins_turn(state)
(True, 12, True)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from fractions import Fraction
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Final

import attrs

from cheekymonkey.base import BaseGame
from cheekymonkey.documents import Documents
from cheekymonkey.encoding import Encoding
from cheekymonkey.game import Game, GameBot
from cheekymonkey.outcome import Outcome
from cheekymonkey.text_table import TextTable
from cheekymonkey.toomany.actions import Action, Reveal
from cheekymonkey.toomany.board import board_table, board_text
from cheekymonkey.toomany.bots import BOTS, bot_named
from cheekymonkey.toomany.encoding import OBSERVATION_KINDS, encoding
from cheekymonkey.toomany.engine import (
    apply,
    apply_with_events,
    chance_outcomes,
    current_player,
    is_chance_node,
    is_terminal,
    legal_actions,
    sample_chance,
)
from cheekymonkey.toomany.events import Event
from cheekymonkey.toomany.narration import (
    RESULTS_NOTE,
    SUMMARY,
    action_words,
    choice_notes,
    describe_event,
    hint,
    result_table,
    result_text,
)
from cheekymonkey.toomany.notation import action_text, parse_actions
from cheekymonkey.toomany.records import GameRecord
from cheekymonkey.toomany.results import outcome
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase, new_game
from cheekymonkey.toomany.views import TableView, view

if TYPE_CHECKING:
    from cheekymonkey.verify import Proofs

__all__ = ["TOO_MANY_MONKEYS", "TooManyMonkeys"]


_ACTION_HELP: Final = """\
At the start of a turn:
  d, draw        draw the top card of the draw pile
  t, take        take the top of the discard pile (a number card you can use)
With a wild in hand:
  w P            put the wild on your face-down position P (just P works too)
With a number whose position holds your wild:
  b, bonus       put the number there and take the wild back; n to decline
After a raccoon:
  r K            take K from the discard pile (just K works too); n for none
After a Do Not Disturb:
  x S P          turn down the card at seat S's position P; n for none
After a Skip:
  s S            give the Skip to seat S (just S works too); n to nobody
"""


@attrs.frozen(slots=True)
class TooManyMonkeys(BaseGame[GameState, Action, Ruleset, TableView, Event]):
    """Gamewright's *Too Many Monkeys* as a :class:`~cheekymonkey.game.Game`; use :data:`TOO_MANY_MONKEYS`."""

    @property
    def name(self) -> str:
        """``"too-many-monkeys"``."""
        return "too-many-monkeys"

    @property
    def title(self) -> str:
        """``"Too Many Monkeys"``."""
        return "Too Many Monkeys"

    @property
    def summary(self) -> str:
        """:data:`cheekymonkey.toomany.narration.SUMMARY`: turn your row up; the first to finish a row of one wins."""
        return SUMMARY

    @property
    def results_note(self) -> str:
        """:data:`cheekymonkey.toomany.narration.RESULTS_NOTE`: the game is mostly luck, as the choice study shows."""
        return RESULTS_NOTE

    def ruleset(self, name: str | None = None) -> Ruleset:
        """:meth:`Ruleset.preset <cheekymonkey.toomany.Ruleset.preset>`, the standard game for None."""
        return Ruleset.standard() if name is None else Ruleset.preset(name)

    def preset_names(self) -> tuple[str, ...]:
        """:meth:`Ruleset.preset_names <cheekymonkey.toomany.Ruleset.preset_names>`."""
        return Ruleset.preset_names()

    def ruleset_name(self, ruleset: Ruleset) -> str:
        """``ruleset.name``: the preset's name, or the name a custom rule set was given."""
        return ruleset.name

    def seat_range(self, ruleset: Ruleset | None = None) -> tuple[int, int]:
        """The rule set's ``min_players`` and ``max_players`` (TM2)."""
        rules = ruleset or Ruleset.standard()
        return rules.min_players, rules.max_players

    def new_game(self, players: int, ruleset: Ruleset | None = None, *, first_player: int = 0) -> GameState:
        """:func:`~cheekymonkey.toomany.new_game`."""
        return new_game(players, ruleset=ruleset, first_player=first_player)

    def ruleset_of(self, state: GameState) -> Ruleset:
        """``state.ruleset``."""
        return state.ruleset

    def players(self, state: GameState) -> int:
        """``state.players``."""
        return state.players

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        """:func:`~cheekymonkey.toomany.legal_actions`."""
        return legal_actions(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        """:func:`~cheekymonkey.toomany.apply`."""
        return apply(state, action)

    def apply_with_events(self, state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """:func:`~cheekymonkey.toomany.apply_with_events`."""
        return apply_with_events(state, action)

    def is_chance_node(self, state: GameState) -> bool:
        """:func:`~cheekymonkey.toomany.is_chance_node`."""
        return is_chance_node(state)

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
        """:func:`~cheekymonkey.toomany.chance_outcomes`."""
        return chance_outcomes(state)

    def sample_chance(self, state: GameState, rng: random.Random) -> Reveal:
        """:func:`~cheekymonkey.toomany.sample_chance`."""
        return sample_chance(state, rng)

    def to_move(self, state: GameState) -> int | None:
        """:func:`~cheekymonkey.toomany.current_player`."""
        return current_player(state)

    def is_terminal(self, state: GameState) -> bool:
        """:func:`~cheekymonkey.toomany.is_terminal`."""
        return is_terminal(state)

    def begins_turn(self, state: GameState) -> bool:
        """A turn begins with its choice of pile (``START``), or with the draw that is its only way to begin (``DRAW``).

        A draw the player chose is ``CHOSEN_DRAW``, inside the turn the ``START`` state began; a skipped turn
        (TM16) is passed over inside the engine and begins no state.
        """
        return state.phase is Phase.START or state.phase is Phase.DRAW

    def outcome(self, state: GameState) -> Outcome:
        """:func:`~cheekymonkey.toomany.outcome`: the winner, then the others by row size (TM23)."""
        return outcome(state)

    def view(self, state: GameState, seat: int | None) -> TableView:
        """:func:`~cheekymonkey.toomany.view`."""
        return view(state, seat)

    def number_bound(self, ruleset: Ruleset) -> int:
        """The deck's size plus every seat's first row: no count, size, position or round passes it.

        A round is won by one seat, whose row shrinks by one (TM22), so at most ``max_players * row_size``
        rounds are played; every other number counts cards or positions.
        """
        return ruleset.total_cards + ruleset.max_players * ruleset.row_size

    def bot_names(self) -> tuple[str, ...]:
        """The names in :data:`cheekymonkey.toomany.BOTS`."""
        return tuple(BOTS)

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[GameState, Action]:
        """:func:`cheekymonkey.toomany.bot_named`; ``memory`` bounds a bot's caches (the expectimax bot's memo).

        >>> TOO_MANY_MONKEYS.bot_named("expectimax", memory=1000).memory
        1000

        Raises:
            InvalidValueError: If there is no bot of that name, or ``memory`` is not a positive integer.
        """
        return bot_named(name, memory=memory)

    def board_table(self, state: GameState, names: Sequence[str], viewer: int | None = None) -> TextTable:
        """:func:`cheekymonkey.toomany.board.board_table`: every row by position, the Skips, the hand, the piles."""
        return board_table(state, names, viewer)

    def result_table(self, state: GameState, names: Sequence[str]) -> TextTable:
        """:func:`cheekymonkey.toomany.narration.result_table`: each seat's place and the row it had left."""
        return result_table(state, names)

    def facts(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """``{"hint": ...}`` for the seat to move while it decides (:func:`~cheekymonkey.toomany.hint`), else ``{}``.

        The page shows the hint as it is, so its words are the game's, as the terminal's choices are.
        """
        text = hint(state) if seat is not None and seat == state.seat else ""
        return {"hint": text} if text else {}

    def action_help(self) -> str:
        """The notation of :mod:`cheekymonkey.toomany.notation`, as a help screen."""
        return _ACTION_HELP.rstrip("\n")

    def turn_of(self, state: GameState) -> int | None:
        """``state.seat``: the seat whose turn it is, at a chance node too; None once the game is over."""
        return None if state.phase is Phase.OVER else state.seat

    def round_of(self, state: GameState) -> int:
        """``state.round``: each round won deals a new one (TM22)."""
        return state.round

    def action_text(self, action: Action, state: GameState) -> str:
        """:func:`~cheekymonkey.toomany.action_text`: ``"d"``, ``"w 4"``, ``"x 1 3"``."""
        return action_text(action, state)

    def action_words(self, action: Action, state: GameState, names: Sequence[str]) -> str:
        """:func:`cheekymonkey.toomany.action_words`: ``"put the wild at position 4"``."""
        return action_words(action, state, names)

    def choice_notes(self, state: GameState, names: Sequence[str]) -> tuple[str, ...]:
        """:func:`cheekymonkey.toomany.narration.choice_notes`: seats a Skip or a Do Not Disturb cannot reach."""
        return choice_notes(state, names)

    def parse_actions(self, text: str, state: GameState) -> tuple[Action, ...]:
        """:func:`~cheekymonkey.toomany.parse_actions`."""
        return parse_actions(text, state)

    def board_text(self, state: GameState) -> str:
        """:func:`~cheekymonkey.toomany.board_text`."""
        return board_text(state)

    def event_text(self, event: Event, names: Sequence[str], viewer: int | None = None) -> str:
        """:func:`cheekymonkey.toomany.describe_event`."""
        return describe_event(event, names, viewer)

    def result_text(self, state: GameState, names: Sequence[str]) -> str:
        """:func:`cheekymonkey.toomany.result_text`."""
        return result_text(state, names)

    def record(
        self,
        ruleset: Ruleset,
        players: int,
        first_player: int,
        actions: Sequence[Action],
        *,
        seed: int | None = None,
        names: Sequence[str] = (),
        bots: Sequence[str] = (),
        quit_by: int | None = None,
    ) -> GameRecord:
        """A :class:`~cheekymonkey.toomany.GameRecord`."""
        return GameRecord(ruleset, players, first_player, tuple(actions), seed, tuple(names), tuple(bots), quit_by)

    def documents(self) -> Documents:
        """:data:`cheekymonkey.toomany.documents.CODEC`: the game's JSON documents, format ``too-many-monkeys/1``.

        Raises:
            ImportError: If the ``json`` extra (cattrs) is not installed; the message names it.
        """
        from cheekymonkey.toomany.documents import CODEC

        return CODEC

    def observation_kinds(self) -> tuple[str, ...]:
        """``("full", "table")``: see :mod:`cheekymonkey.toomany.encoding`."""
        return OBSERVATION_KINDS

    def encoding(
        self, players: int, ruleset: Ruleset | None = None, observation: str | None = None
    ) -> Encoding[GameState, Action]:
        """:class:`~cheekymonkey.toomany.encoding.TooManyEncoding`: the action indices and observations.

        Raises:
            InvalidValueError: If the seat count, rule set or observation kind does not fit.
        """
        return encoding(players, ruleset, observation)

    # -- what the game ships beside its engine, found through the registry ----------------------------

    def schemas(self) -> Traversable:
        """The folder of the game's JSON Schema files, one ``<kind>.schema.json`` per document kind."""
        return resources.files(__package__) / "schemas"

    def page_script(self) -> Traversable:
        """The web page's drawing of the table (``too-many-monkeys.js``), which the web server serves."""
        return resources.files(__package__) / "static" / "too-many-monkeys.js"

    def proofs(self) -> Proofs:
        """The z3 proofs of the deck and the turn (:mod:`cheekymonkey.toomany.verify`), for ``cheekymonkey verify``.

        Raises:
            ImportError: If z3 (the ``verify`` extra) is not installed.
        """
        # Imported by name: the proofs import z3, which a type check of the game (and the compiled build) must
        # not have to read.
        command_line: Proofs = importlib.import_module("cheekymonkey.toomany.verify").command_line
        return command_line

    def __repr__(self) -> str:
        return "TOO_MANY_MONKEYS"


TOO_MANY_MONKEYS: Final = TooManyMonkeys()
"""*Too Many Monkeys* as a :class:`~cheekymonkey.game.Game`."""

if TYPE_CHECKING:
    # mypy checks here that the binding offers everything the protocol asks, with this engine's own types.
    _checked: Game[GameState, Action, Ruleset, TableView, Event] = TOO_MANY_MONKEYS
