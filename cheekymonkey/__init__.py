"""cheekymonkey: a pure, typed rules engine for Reiner Knizia's *Cheeky Monkey*.

>>> import random
>>> from cheekymonkey import new_game, legal_actions, apply, is_terminal, is_chance_node
>>> from cheekymonkey import sample_chance, score
>>> rng = random.Random(4)
>>> state = new_game(3)
>>> while not is_terminal(state):
...     if is_chance_node(state):
...         action = sample_chance(state, rng)
...     else:
...         actions = legal_actions(state)
...         action = actions[rng.randrange(len(actions))]
...     state = apply(state, action)
>>> sum(score(state).totals) >= 52
True
"""

from cheekymonkey.actions import Action, Claim, Draw, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.board import board_text
from cheekymonkey.bots import Bot, ExpectimaxBot, HeuristicBot, RandomBot
from cheekymonkey.engine import (
    apply,
    apply_all,
    begins_turn,
    bust_probability,
    chance_outcomes,
    claim_all,
    current_player,
    is_chance_node,
    is_terminal,
    legal_actions,
    resolve_chance,
    sample_chance,
    stop_in_order,
)
from cheekymonkey.errors import (
    CheekyMonkeyError,
    GameNotOverError,
    GameTooLongError,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    InvalidStateError,
    InvalidValueError,
    NotAChanceNodeError,
    NotYourDecisionError,
    ReplayError,
)
from cheekymonkey.events import (
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
from cheekymonkey.game import Game, Outcome
from cheekymonkey.games.cheeky_monkey import CHEEKY_MONKEY
from cheekymonkey.narration import format_sheet
from cheekymonkey.notation import ActionTextError, action_text, parse_action, parse_actions
from cheekymonkey.play import PlayedGame, play_game
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.scoring import Decision, ScoreSheet, SeatScore, score, score_counts, score_stacks
from cheekymonkey.state import GameState, Phase, new_game, show_states_with
from cheekymonkey.table import Seat, Step, Table, Waiting
from cheekymonkey.views import TableView, view

__version__ = "0.1.0"


def _as_text(value: GameState | TableView | ScoreSheet) -> str:
    if isinstance(value, ScoreSheet):
        return format_sheet(value, None, [f"Seat {line.seat}" for line in value.seats])
    return board_text(value)


# print(state) and print(view) draw the table as text, and print(sheet) the score sheet: the core never
# imports display code, so the package, which holds both, joins them here.
show_states_with(_as_text)

__all__ = [
    "ANIMALS",
    "CHEEKY_MONKEY",
    "Action",
    "ActionTextError",
    "Animal",
    "Bot",
    "Busted",
    "CheekyMonkeyError",
    "Claim",
    "Claimed",
    "Decision",
    "Draw",
    "Drew",
    "Event",
    "ExpectimaxBot",
    "Game",
    "GameNotOverError",
    "GameOver",
    "GameRecord",
    "GameState",
    "GameTooLongError",
    "Herd",
    "HerdSecured",
    "HeuristicBot",
    "IllegalActionError",
    "InvalidGameError",
    "InvalidRulesetError",
    "InvalidStateError",
    "InvalidValueError",
    "NotAChanceNodeError",
    "NotYourDecisionError",
    "Outcome",
    "Phase",
    "Place",
    "PlayedGame",
    "RandomBot",
    "ReplayError",
    "Reveal",
    "Ruleset",
    "ScoreSheet",
    "Seat",
    "SeatScore",
    "Stacked",
    "Step",
    "Stop",
    "Stopped",
    "Swap",
    "Swapped",
    "Table",
    "TableView",
    "Waiting",
    "__version__",
    "action_text",
    "apply",
    "apply_all",
    "apply_with_events",
    "begins_turn",
    "board_text",
    "bust_probability",
    "chance_outcomes",
    "claim_all",
    "current_player",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_actions",
    "play_game",
    "resolve_chance",
    "sample_chance",
    "score",
    "score_counts",
    "score_stacks",
    "stop_in_order",
    "view",
]
