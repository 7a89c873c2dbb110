"""*Cheeky Monkey* bound into a :class:`~cheekymonkey.game.Game`: the engine's own functions, one object.

Nothing here is new rules: each method calls the function of the same idea in the engine's modules
(:func:`~cheekymonkey.apply`, :func:`~cheekymonkey.score`, :func:`~cheekymonkey.view`, ...), so code that
imports those keeps working and is exactly as fast; this object is what the layers written for any game
(:class:`~cheekymonkey.table.Table`, the command line, the web rooms, the RL adapters, the simulation) hold.

>>> from cheekymonkey import CHEEKY_MONKEY as game
>>> game.name, game.title, game.seat_range(), game.preset_names()[0]
('cheeky-monkey', 'Cheeky Monkey', (2, 6), 'standard')
>>> state = game.new_game(3)
>>> game.is_chance_node(state), len(game.chance_outcomes(state)), game.begins_turn(state)
(True, 8, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import attrs

from cheekymonkey.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.board import board_text
from cheekymonkey.bots import BOTS, bot_named
from cheekymonkey.engine import (
    apply,
    chance_outcomes,
    current_player,
    is_chance_node,
    is_terminal,
    legal_actions,
    sample_chance,
)
from cheekymonkey.events import Event, apply_with_events
from cheekymonkey.game import Documents, Encoding, Game, GameBot, ObservationField, Outcome
from cheekymonkey.narration import a, describe_event, format_sheet
from cheekymonkey.notation import action_text, parse_actions
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import score, score_stacks
from cheekymonkey.state import GameState, Phase, new_game
from cheekymonkey.views import TableView, view

__all__ = ["CHEEKY_MONKEY", "CheekyMonkey"]


class _Encoding:
    """Cheeky Monkey's :class:`~cheekymonkey.game.Encoding`: the action codec and one observation layout."""

    def __init__(self, players: int, ruleset: Ruleset | None, observation: str | None) -> None:
        from cheekymonkey.rl.encoding import NUM_OUTCOMES, ActionCodec
        from cheekymonkey.rl.observations import DEFAULT_OBSERVATION, observation_layout

        self.layout = observation_layout(observation or DEFAULT_OBSERVATION, players, ruleset)
        self.codec = ActionCodec(players)
        self.num_outcomes: Final = NUM_OUTCOMES

    @property
    def num_actions(self) -> int:
        return self.codec.num_actions

    @property
    def observation_size(self) -> int:
        return self.layout.size

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        return self.layout.bounds

    @property
    def observation_fields(self) -> tuple[ObservationField, ...]:
        return self.layout.fields

    def encode(self, action: Action, state: GameState) -> int:
        return self.codec.encode_at(state, action)

    def decode(self, index: int, state: GameState) -> Action:
        return self.codec.decode_at(state, index)

    def legal_indices(self, state: GameState) -> tuple[int, ...]:
        return self.codec.legal_indices(state)

    def action_mask(self, state: GameState) -> tuple[bool, ...]:
        return self.codec.action_mask(state)

    def outcome_mask(self, state: GameState) -> tuple[bool, ...]:
        return self.codec.outcome_mask(state)

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return repr(self.codec.decode_outcome(index)) if chance else self.codec.describe(index)

    def observe(self, state: GameState, seat: int | None) -> tuple[int, ...]:
        return self.layout.encode(state, seat)

    def observation_text(self, state: GameState, seat: int | None) -> str:
        return self.layout.text(self.layout.encode(state, seat))

    def points(self, state: GameState) -> tuple[float, ...]:
        # R17 on the stacks as they stand (tokens in the bag and in front count for nobody yet).
        return tuple(float(total) for total in score_stacks(state.stacks, state.ruleset).totals)


class _Documents:
    """Cheeky Monkey's :class:`~cheekymonkey.game.Documents`: :mod:`cheekymonkey.serialization` (``json`` extra)."""

    def __init__(self) -> None:
        from cheekymonkey import serialization

        self._module = serialization

    @property
    def format(self) -> str:
        return self._module.FORMAT

    @property
    def kinds(self) -> tuple[str, ...]:
        return self._module.KINDS

    def to_document(self, value: Any) -> dict[str, Any]:
        return self._module.to_document(value)

    def from_document(self, document: object, kind: str | None = None) -> Any:
        return self._module.from_document(document, self._kind(kind))

    def dumps(self, value: Any, *, indent: int | None = None) -> str:
        return self._module.dumps(value, indent=indent)

    def loads(self, text: str | bytes, kind: str | None = None) -> Any:
        return self._module.loads(text, self._kind(kind))

    def _kind(self, kind: str | None) -> Any:
        if kind is not None and kind not in self._module.KINDS:
            raise self._module.DocumentError(kind, [("$", f"there is no document kind {kind!r}")])
        return kind


@attrs.frozen(slots=True)
class CheekyMonkey:
    """Reiner Knizia's *Cheeky Monkey* as a :class:`~cheekymonkey.game.Game`; use :data:`CHEEKY_MONKEY`."""

    @property
    def name(self) -> str:
        """``"cheeky-monkey"``."""
        return "cheeky-monkey"

    @property
    def title(self) -> str:
        """``"Cheeky Monkey"``."""
        return "Cheeky Monkey"

    def ruleset(self, name: str | None = None) -> Ruleset:
        """:meth:`Ruleset.preset <cheekymonkey.Ruleset.preset>`, the standard game for None."""
        return Ruleset.standard() if name is None else Ruleset.preset(name)

    def preset_names(self) -> tuple[str, ...]:
        """:meth:`Ruleset.preset_names <cheekymonkey.Ruleset.preset_names>`."""
        return Ruleset.preset_names()

    def seat_range(self, ruleset: Ruleset | None = None) -> tuple[int, int]:
        """The rule set's ``min_players`` and ``max_players`` (R3)."""
        rules = ruleset or Ruleset.standard()
        return rules.min_players, rules.max_players

    def new_game(self, players: int, ruleset: Ruleset | None = None, *, first_player: int = 0) -> GameState:
        """:func:`~cheekymonkey.new_game`."""
        return new_game(players, ruleset=ruleset, first_player=first_player)

    def ruleset_of(self, state: GameState) -> Ruleset:
        """``state.ruleset``."""
        return state.ruleset

    def players(self, state: GameState) -> int:
        """``state.players``."""
        return state.players

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        """:func:`~cheekymonkey.legal_actions`."""
        return legal_actions(state)

    def apply(self, state: GameState, action: Action) -> GameState:
        """:func:`~cheekymonkey.apply`."""
        return apply(state, action)

    def apply_with_events(self, state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """:func:`~cheekymonkey.apply_with_events`."""
        return apply_with_events(state, action)

    def is_chance_node(self, state: GameState) -> bool:
        """:func:`~cheekymonkey.is_chance_node`."""
        return is_chance_node(state)

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
        """:func:`~cheekymonkey.chance_outcomes`."""
        return chance_outcomes(state)

    def sample_chance(self, state: GameState, rng: random.Random) -> Reveal:
        """:func:`~cheekymonkey.sample_chance`."""
        return sample_chance(state, rng)

    def to_move(self, state: GameState) -> int | None:
        """:func:`~cheekymonkey.current_player`."""
        return current_player(state)

    def is_terminal(self, state: GameState) -> bool:
        """:func:`~cheekymonkey.is_terminal`."""
        return is_terminal(state)

    def begins_turn(self, state: GameState) -> bool:
        """A turn begins with its compulsory first draw (R4): a draw pending with nothing in front yet."""
        return state.phase is Phase.CHANCE and len(state.front) == 0

    def outcome(self, state: GameState) -> Outcome:
        """The score sheet's winners (R17, R18); the others ranked by their totals."""
        sheet = score(state)
        return Outcome.of_winners(sheet.winners, sheet.totals)

    def view(self, state: GameState, seat: int | None) -> TableView:
        """:func:`~cheekymonkey.view`."""
        return view(state, seat)

    def bot_names(self) -> tuple[str, ...]:
        """The names in :data:`cheekymonkey.bots.BOTS`."""
        return tuple(BOTS)

    def bot_named(self, name: str) -> GameBot[GameState, Action]:
        """:func:`cheekymonkey.bots.bot_named`."""
        return bot_named(name)

    def action_text(self, action: Action, state: GameState) -> str:
        """:func:`~cheekymonkey.action_text`: ``"d"``, ``"c 2"``, ``"l"``."""
        return action_text(action, state)

    def action_words(self, action: Action, state: GameState, names: Sequence[str]) -> str:
        """``"draw"``, ``"claim from Bob"``, ``"swap with Bob for a Lion"``, ``"put a Lion down"``."""
        if isinstance(action, Claim):
            return f"claim from {names[action.seat]}"
        if isinstance(action, Swap):
            top = state.stacks[action.seat][-1]
            return f"swap with {names[action.seat]} for {a(top.label)}"
        if isinstance(action, Place):
            return f"put {a(action.animal.label)} down"
        if isinstance(action, Reveal):
            return f"reveal {a(action.animal.label)}"
        if isinstance(action, Draw):
            return "draw"
        if isinstance(action, Stop):
            return "stop"
        assert isinstance(action, Herd)
        return "secure a herd"

    def parse_actions(self, text: str, state: GameState) -> tuple[Action, ...]:
        """:func:`~cheekymonkey.parse_actions`."""
        return parse_actions(text, state)

    def board_text(self, state: GameState) -> str:
        """:func:`~cheekymonkey.board_text`."""
        return board_text(state)

    def event_text(self, event: Event, names: Sequence[str], viewer: int | None = None) -> str:
        """:func:`cheekymonkey.narration.describe_event`."""
        return describe_event(event, names, viewer)

    def result_text(self, state: GameState, names: Sequence[str]) -> str:
        """:func:`cheekymonkey.narration.format_sheet` of the final score."""
        return format_sheet(score(state), state.ruleset, names)

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
    ) -> GameRecord:
        """A :class:`~cheekymonkey.GameRecord`."""
        return GameRecord(ruleset, players, first_player, tuple(actions), seed, tuple(names), tuple(bots))

    def documents(self) -> Documents:
        """:mod:`cheekymonkey.serialization`'s documents (the ``json`` extra)."""
        return _Documents()

    def observation_kinds(self) -> tuple[str, ...]:
        """``("full", "table")``: see :mod:`cheekymonkey.rl.observations`."""
        from cheekymonkey.rl.observations import OBSERVATION_KINDS

        return tuple(OBSERVATION_KINDS)

    def encoding(
        self, players: int, ruleset: Ruleset | None = None, observation: str | None = None
    ) -> Encoding[GameState, Action]:
        """:class:`~cheekymonkey.rl.ActionCodec` and :func:`~cheekymonkey.rl.observation_layout`."""
        return _Encoding(players, ruleset, observation)

    def __repr__(self) -> str:
        return "CHEEKY_MONKEY"


CHEEKY_MONKEY: Final = CheekyMonkey()
"""*Cheeky Monkey* as a :class:`~cheekymonkey.game.Game`."""

if TYPE_CHECKING:
    # mypy checks here that the binding offers everything the protocol asks, with the engine's own types.
    _checked: Game[GameState, Action, Ruleset, TableView, Event] = CHEEKY_MONKEY
