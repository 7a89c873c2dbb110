"""*Cheeky Monkey* (Reiner Knizia): a rules engine, one package of the same shape as every game's.

Animal tokens are drawn from a bag: push your luck, bust on a duplicate, claim and swap the tops of other
stacks, and score the longest runs with bonus tiles. The rules are R1-R22 (``specs/rules.md``); every rule
in the code names its clause.

Its API is importable from here, and from the package itself (``import cheekymonkey as cm; cm.apply``),
where Cheeky Monkey is the default game. Neither this engine nor Too Many Monkeys' imports the other; the
:class:`~cheekymonkey.game.Game` binding :data:`CHEEKY_MONKEY` is what the layers above hold (the
:class:`~cheekymonkey.table.Table`, and ``game_named("cheeky-monkey")``).

>>> from cheekymonkey.cheeky import Animal, Reveal, apply, legal_actions, new_game
>>> state = apply(new_game(2), Reveal(Animal.SEAL))
>>> state.front, legal_actions(state)
((Animal.SEAL,), (Draw(), Stop(), Herd()))
"""

from __future__ import annotations

from cheekymonkey.cheeky.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.cheeky.board import board_text
from cheekymonkey.cheeky.bots import Bot, ExpectimaxBot, HeuristicBot, RandomBot
from cheekymonkey.cheeky.bots.registry import bot_named
from cheekymonkey.cheeky.engine import (
    apply,
    apply_all,
    begins_turn,
    bust_probability,
    chance_outcomes,
    claim_all,
    current_player,
    illegal_reason,
    is_chance_node,
    is_terminal,
    legal_actions,
    resolve_chance,
    sample_chance,
    stop_in_order,
)
from cheekymonkey.cheeky.events import (
    Busted,
    Claimed,
    Drew,
    Event,
    GameOver,
    HerdSecured,
    Stacked,
    Stopped,
    Swapped,
    apply_with_events,
)
from cheekymonkey.cheeky.game import CHEEKY_MONKEY
from cheekymonkey.cheeky.narration import action_words, describe_event, format_sheet, hint, result_text
from cheekymonkey.cheeky.notation import ActionTextError, action_text, parse_action, parse_actions
from cheekymonkey.cheeky.records import GameRecord
from cheekymonkey.cheeky.results import outcome, winners
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.scoring import Decision, ScoreSheet, SeatScore, score, score_counts, score_stacks
from cheekymonkey.cheeky.state import GameState, Phase, check_state, new_game, show_states_with
from cheekymonkey.cheeky.views import TableView, view


def _as_text(value: GameState | TableView | ScoreSheet) -> str:
    if isinstance(value, ScoreSheet):
        return format_sheet(value, None, [f"Seat {line.seat}" for line in value.seats])
    return board_text(value)


# print(state) and print(view) draw the table as text, and print(sheet) the score sheet: the state's module
# never imports display code, so the package, which holds both, joins them here.
show_states_with(_as_text)

__all__ = [
    "ANIMALS",
    "CHEEKY_MONKEY",
    "Action",
    "ActionTextError",
    "Animal",
    "Bot",
    "Busted",
    "Claim",
    "Claimed",
    "Decision",
    "Draw",
    "Drew",
    "Event",
    "ExpectimaxBot",
    "GameOver",
    "GameRecord",
    "GameState",
    "Herd",
    "HerdSecured",
    "HeuristicBot",
    "Phase",
    "Place",
    "RandomBot",
    "Reveal",
    "Ruleset",
    "ScoreSheet",
    "SeatScore",
    "Stacked",
    "Stop",
    "Stopped",
    "Swap",
    "Swapped",
    "TableView",
    "action_text",
    "action_words",
    "apply",
    "apply_all",
    "apply_with_events",
    "begins_turn",
    "board_text",
    "bot_named",
    "bust_probability",
    "chance_outcomes",
    "check_state",
    "claim_all",
    "current_player",
    "describe_event",
    "hint",
    "illegal_reason",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "new_game",
    "outcome",
    "parse_action",
    "parse_actions",
    "resolve_chance",
    "result_text",
    "sample_chance",
    "score",
    "score_counts",
    "score_stacks",
    "stop_in_order",
    "view",
    "winners",
]
