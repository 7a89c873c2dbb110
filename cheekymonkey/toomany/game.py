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

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

import attrs

from cheekymonkey.base import EngineGame
from cheekymonkey.game import Capabilities, Game
from cheekymonkey.toomany import board, bots, narration, notation, results, views
from cheekymonkey.toomany import encoding as encodings
from cheekymonkey.toomany import engine as rules_engine
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.bots import ALIASES, BOTS
from cheekymonkey.toomany.encoding import OBSERVATION_KINDS
from cheekymonkey.toomany.events import Event
from cheekymonkey.toomany.narration import RESULTS_NOTE, SUMMARY
from cheekymonkey.toomany.records import GameRecord
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase, new_game
from cheekymonkey.toomany.views import TableView

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
class TooManyMonkeys(EngineGame[GameState, Action, Ruleset, TableView, Event]):
    """Gamewright's *Too Many Monkeys* as a :class:`~cheekymonkey.game.Game`; use :data:`TOO_MANY_MONKEYS`."""

    name = "too-many-monkeys"
    title = "Too Many Monkeys"
    summary = SUMMARY
    """:data:`cheekymonkey.toomany.narration.SUMMARY`: turn your row up; the first to finish a row of one wins."""
    results_note = RESULTS_NOTE
    """:data:`cheekymonkey.toomany.narration.RESULTS_NOTE`: the game is mostly luck, as the choice study shows."""

    engine = (rules_engine, results, views, notation, board, narration, encodings, bots)
    """The engine's functions, bound as the members of the same name (:class:`~cheekymonkey.base.EngineGame`)."""
    engine_names = MappingProxyType({"to_move": "current_player", "event_text": "describe_event"})
    """The members whose functions have other names in the engine."""
    presets = MappingProxyType({name: Ruleset.preset(name) for name in Ruleset.preset_names()})
    """:meth:`Ruleset.preset <cheekymonkey.toomany.Ruleset.preset>` by name, the standard game first."""

    def seat_range(self, ruleset: Ruleset | None = None) -> tuple[int, int]:
        """The rule set's ``min_players`` and ``max_players`` (TM2)."""
        rules = Ruleset.standard() if ruleset is None else ruleset
        return rules.min_players, rules.max_players

    def new_game(self, players: int, ruleset: Ruleset | None = None, *, first_player: int = 0) -> GameState:
        """:func:`~cheekymonkey.toomany.new_game` (which takes the rule set by keyword)."""
        return new_game(players, ruleset=ruleset, first_player=first_player)

    def ruleset_of(self, state: GameState) -> Ruleset:
        """``state.ruleset``."""
        return state.ruleset

    def players(self, state: GameState) -> int:
        """``state.players``."""
        return state.players

    def begins_turn(self, state: GameState) -> bool:
        """A turn begins with its choice of pile (``START``), or with the draw that is its only way to begin (``DRAW``).

        A draw the player chose is ``CHOSEN_DRAW``, inside the turn the ``START`` state began; a skipped turn
        (TM16) is passed over inside the engine and begins no state.
        """
        return state.phase is Phase.START or state.phase is Phase.DRAW

    def number_bound(self, ruleset: Ruleset) -> int:
        """The deck's size plus every seat's first row: no count, size, position or round passes it.

        A round is won by one seat, whose row shrinks by one (TM22), so at most ``max_players * row_size``
        rounds are played; every other number counts cards or positions.
        """
        return ruleset.total_cards + ruleset.max_players * ruleset.row_size

    def bot_names(self) -> tuple[str, ...]:
        """The names in :data:`cheekymonkey.toomany.BOTS`, then the aliases (``strongest``)."""
        return (*BOTS, *ALIASES)

    def bot_aliases(self) -> Mapping[str, str]:
        """:data:`cheekymonkey.toomany.bots.registry.ALIASES`: ``strongest``, the game's best bot, and what it names."""
        return ALIASES

    def facts(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """``{"hint": ...}`` for the seat to move while it decides (:func:`~cheekymonkey.toomany.hint`), else ``{}``.

        The page shows the hint as it is, so its words are the game's, as the terminal's choices are.
        """
        text = narration.hint(state) if seat is not None and seat == state.seat else ""
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

    def observation_kinds(self) -> tuple[str, ...]:
        """``("full", "table")``: see :mod:`cheekymonkey.toomany.encoding`."""
        return OBSERVATION_KINDS

    # -- what the game ships beside its engine, declared in its capabilities --------------------------

    capabilities = Capabilities(encodings=True, proofs=True, schemas=True, page_script=True, batched=True)
    """Everything: encodings, proofs, JSON Schemas, a page drawing and a batched engine."""
    record_type = GameRecord
    documents_module = "cheekymonkey.toomany.documents"
    proofs_module = "cheekymonkey.toomany.verify"
    """The documents, the proofs (both imported when asked for: they need extras), and the record class."""

    def __repr__(self) -> str:
        return "TOO_MANY_MONKEYS"


TOO_MANY_MONKEYS: Final = TooManyMonkeys()
"""*Too Many Monkeys* as a :class:`~cheekymonkey.game.Game`."""

if TYPE_CHECKING:
    # mypy checks here that the binding offers everything the protocol asks, with this engine's own types.
    _checked: Game[GameState, Action, Ruleset, TableView, Event] = TOO_MANY_MONKEYS
