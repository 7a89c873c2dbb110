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
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

import attrs

from cheekymonkey.base import EngineGame
from cheekymonkey.checks import check_memory
from cheekymonkey.cheeky import board, events, narration, notation, views
from cheekymonkey.cheeky import engine as rules_engine
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.bots.registry import ALIASES, BOTS, bot_named, resolve_bot_name
from cheekymonkey.cheeky.engine import bust_probability
from cheekymonkey.cheeky.events import Event
from cheekymonkey.cheeky.narration import RESULTS_NOTE, SUMMARY, board_table, bot_title, hint, sheet_table
from cheekymonkey.cheeky.records import GameRecord
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.scoring import ScoreSheet, score, score_stacks
from cheekymonkey.cheeky.state import GameState, Phase, new_game
from cheekymonkey.cheeky.views import TableView
from cheekymonkey.encoding import Encoding, ObservationField
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Capabilities, Game, GameBot
from cheekymonkey.outcome import Outcome
from cheekymonkey.text_table import TextTable

__all__ = ["CHEEKY_MONKEY", "CheekyMonkey"]


class _Encoding:
    """Cheeky Monkey's :class:`~cheekymonkey.encoding.Encoding`: the action codec and one observation layout."""

    def __init__(self, players: int, ruleset: Ruleset | None, observation: str | None) -> None:
        from cheekymonkey.cheeky.encoding import DEFAULT_OBSERVATION, NUM_OUTCOMES, ActionCodec, observation_layout

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


def _cache_entries(bot: object) -> int:
    # The expectimax bot memoises values per state, and the search bot keeps an expectimax bot of its own;
    # their caches are the only memory a bot keeps from one move to the next.
    memo = getattr(bot, "_memo", None)
    if memo is None:
        memo = getattr(getattr(bot, "_expectimax", None), "_memo", None)
    return len(memo) if isinstance(memo, dict) else 0


class _BoundedBot:
    """A bot of one kind whose caches hold at most ``memory`` entries between moves.

    After a move that leaves its caches over the bound, the bot is replaced by a fresh one of the same kind:
    the caches hold values for the turn being played (their keys include the bag), so little is lost.
    """

    __slots__ = ("_bot", "kind", "memory")

    def __init__(self, kind: str, memory: int) -> None:
        self.kind = kind
        self.memory = memory
        self._bot = bot_named(kind)

    @property
    def cache_entries(self) -> int:
        """How many entries the bot's caches hold now."""
        return _cache_entries(self._bot)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        action = self._bot.choose(state, rng)
        if _cache_entries(self._bot) > self.memory:
            self._bot = bot_named(self.kind)
        return action

    def __repr__(self) -> str:
        return f"<{self.kind} bot, caches of at most {self.memory} entries between moves>"


_ACTION_HELP: Final = """\
While deciding:
  d, draw        draw another token (the odds of a bust are shown above)
  s, stop        stop: stack the tokens in front of you, in the order you choose
  h, herd        secure a herd (every token in front shows one animal): the
                 tokens go under your stack
  c SEAT         claim the top token of SEAT's stack (c alone if only one seat)
  w SEAT         swap the monkey just drawn for SEAT's top (w alone: one seat)
While stacking (the last token you put down ends on top, where others may
claim it):
  e s h g p k l m, or a name: put that animal down next; several at once,
  bottom first: "s l" or "sl"
"""


@attrs.frozen(slots=True)
class CheekyMonkey(EngineGame[GameState, Action, Ruleset, TableView, Event]):
    """Reiner Knizia's *Cheeky Monkey* as a :class:`~cheekymonkey.game.Game`; use :data:`CHEEKY_MONKEY`."""

    name = "cheeky-monkey"
    title = "Cheeky Monkey"
    summary = SUMMARY
    """:data:`cheekymonkey.cheeky.narration.SUMMARY`: draw, stop before a bust, stack, and score at the end."""
    results_note = RESULTS_NOTE
    """:data:`cheekymonkey.cheeky.narration.RESULTS_NOTE`: choices tell the bots apart, and where it is measured."""

    engine = (rules_engine, events, views, notation, board, narration)
    """The engine's functions, bound as the members of the same name (:class:`~cheekymonkey.base.EngineGame`)."""
    engine_names = MappingProxyType(
        {"to_move": "current_player", "event_text": "describe_event", "merge_events": "merge_stacking"}
    )
    """The members whose functions have other names in the engine."""
    presets = MappingProxyType({name: Ruleset.preset(name) for name in Ruleset.preset_names()})
    """:meth:`Ruleset.preset <cheekymonkey.Ruleset.preset>` by name, the standard game first."""

    def seat_range(self, ruleset: Ruleset | None = None) -> tuple[int, int]:
        """The rule set's ``min_players`` and ``max_players`` (R3).

        Raises:
            InvalidValueError: If ``ruleset`` is not a :class:`~cheekymonkey.Ruleset` (or None).
        """
        rules = Ruleset.standard() if ruleset is None else ruleset
        if not isinstance(rules, Ruleset):
            raise InvalidValueError(f"ruleset must be a Ruleset, got {rules!r}")
        return rules.min_players, rules.max_players

    def new_game(self, players: int, ruleset: Ruleset | None = None, *, first_player: int = 0) -> GameState:
        """:func:`~cheekymonkey.new_game` (which takes the rule set by keyword)."""
        return new_game(players, ruleset=ruleset, first_player=first_player)

    def ruleset_of(self, state: GameState) -> Ruleset:
        """``state.ruleset``."""
        return state.ruleset

    def players(self, state: GameState) -> int:
        """``state.players``."""
        return state.players

    def turn_of(self, state: GameState) -> int | None:
        """``state.seat``: the seat whose turn it is, drawing (chance) or deciding; None once the game is over."""
        return None if state.phase is Phase.OVER else state.seat

    def outcome(self, state: GameState) -> Outcome:
        """The score sheet's winners (R17, R18); the others ranked by their totals, which are the scores."""
        sheet = score(state)
        return Outcome.of_winners(sheet.winners, sheet.totals, sheet.totals)

    def bot_names(self) -> tuple[str, ...]:
        """The names in :data:`cheekymonkey.cheeky.bots.BOTS`, then the aliases (``strongest``)."""
        return (*BOTS, *ALIASES)

    def bot_aliases(self) -> Mapping[str, str]:
        """:data:`cheekymonkey.cheeky.bots.registry.ALIASES`: ``strongest``, the game's best bot, and what it names."""
        return ALIASES

    def bot_title(self, name: str) -> str:
        """:func:`~cheekymonkey.cheeky.narration.bot_title`; an alias with its bot: ``"Strongest (Expectimax)"``."""
        target = ALIASES.get(name)
        return bot_title(name) if target is None else f"{bot_title(name)} ({bot_title(target)})"

    def facts(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """``{"bust_odds": p}`` while a player decides (:func:`~cheekymonkey.bust_probability`), and ``"hint"``.

        The odds follow from what every seat has seen face up: the bag holds what was neither stacked nor is
        in front, and every token was drawn, returned and stacked in the open (R5, R6, R9).
        """
        facts: dict[str, Any] = {"bust_odds": bust_probability(state)} if state.phase is Phase.DECIDE else {}
        text = hint(state) if seat is not None and seat == state.seat else ""
        if text:
            facts["hint"] = text  # the page shows it as the terminal does (narration.hint)
        return facts

    def number_bound(self, ruleset: Ruleset) -> int:
        """Every token plus every bonus value: no bag size, stack height, count or total can pass it (R15-R19)."""
        return sum(ruleset.counts) + sum(ruleset.bonus_values) + ruleset.max_players

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[GameState, Action]:
        """:func:`cheekymonkey.cheeky.bots.bot_named`; with ``memory``, a bot whose caches keep at most that many.

        >>> bot = CHEEKY_MONKEY.bot_named("expectimax", memory=1000)
        >>> bot
        <expectimax bot, caches of at most 1000 entries between moves>
        """
        if memory is None:
            return bot_named(name)
        check_memory(memory)
        bot_named(name)  # the usual error for an unknown name
        return _BoundedBot(resolve_bot_name(name), memory)

    def result_text(self, state: GameState, names: Sequence[str]) -> str:
        """The final score sheet as plain text, 80 columns wide at most (:meth:`result_table`)."""
        return self.result_table(state, names).text(80)

    def board_table(self, state: GameState, names: Sequence[str], viewer: int | None = None) -> TextTable:
        """:func:`cheekymonkey.cheeky.narration.board_table`, with the odds of a bust while deciding."""
        bust = bust_probability(state) if state.phase is Phase.DECIDE and state.bag_size else None
        return board_table(state, names, viewer, bust)

    def result_table(self, state: GameState, names: Sequence[str]) -> TextTable:
        """:func:`cheekymonkey.cheeky.narration.sheet_table` of the final score (:func:`~cheekymonkey.score`)."""
        return sheet_table(score(state), state.ruleset, names)

    def action_help(self) -> str:
        """The notation of :func:`~cheekymonkey.parse_actions`: a letter per move, a seat, animals by letter."""
        return _ACTION_HELP.rstrip("\n")

    def mid_move(self, state: GameState) -> bool:
        """Whether tokens are being stacked one at a time (R9): the stop's stacking is one move."""
        return state.phase is Phase.PLACING

    def observation_kinds(self) -> tuple[str, ...]:
        """``("full", "table")``: see :mod:`cheekymonkey.cheeky.encoding`."""
        from cheekymonkey.cheeky.encoding import OBSERVATION_KINDS

        return tuple(OBSERVATION_KINDS)

    def encoding(
        self, players: int, ruleset: Ruleset | None = None, observation: str | None = None
    ) -> Encoding[GameState, Action]:
        """The action codec and an observation layout of :mod:`cheekymonkey.cheeky.encoding`."""
        return _Encoding(players, ruleset, observation)

    # -- what the game ships beside its engine, declared in its capabilities --------------------------

    capabilities = Capabilities(encodings=True, proofs=True, schemas=True, page_script=True, batched=True)
    """Everything: encodings, proofs, JSON Schemas, a page drawing and a batched engine."""
    record_type = GameRecord
    documents_module = "cheekymonkey.cheeky.documents"
    proofs_module = "cheekymonkey.cheeky.verify.command"
    """The documents, the proofs (both imported when asked for: they need extras), and the record class."""

    def score(self, state: GameState) -> ScoreSheet:
        """:func:`~cheekymonkey.score`: the final score sheet (``PlayedGame.score``)."""
        return score(state)

    def __repr__(self) -> str:
        return "CHEEKY_MONKEY"


CHEEKY_MONKEY: Final = CheekyMonkey()
"""*Cheeky Monkey* as a :class:`~cheekymonkey.game.Game`."""

if TYPE_CHECKING:
    # mypy checks here that the binding offers everything the protocol asks, with the engine's own types.
    _checked: Game[GameState, Action, Ruleset, TableView, Event] = CHEEKY_MONKEY
