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

from cheekymonkey import _moved
from cheekymonkey.cheeky import (
    ANIMALS,
    CHEEKY_MONKEY,
    Action,
    ActionTextError,
    Animal,
    Bot,
    Busted,
    Claim,
    Claimed,
    Decision,
    Draw,
    Drew,
    Event,
    ExpectimaxBot,
    GameOver,
    GameRecord,
    GameState,
    Herd,
    HerdSecured,
    HeuristicBot,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    ScoreSheet,
    SeatScore,
    Stacked,
    Stop,
    Stopped,
    Swap,
    Swapped,
    TableView,
    action_text,
    apply,
    apply_all,
    apply_with_events,
    begins_turn,
    board_text,
    bust_probability,
    chance_outcomes,
    claim_all,
    current_player,
    illegal_reason,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    parse_actions,
    resolve_chance,
    sample_chance,
    score,
    score_counts,
    score_stacks,
    stop_in_order,
    view,
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
from cheekymonkey.game import Game
from cheekymonkey.outcome import Outcome, Stakes, Utility
from cheekymonkey.play import PlayedGame, play_game
from cheekymonkey.table import Seat, Step, Table, Waiting

__version__ = "0.1.0"

# Cheeky Monkey's modules moved into cheekymonkey.cheeky: their old paths keep working, with a warning.
_moved.install()


def __getattr__(name: str) -> object:
    # cheekymonkey.cheeky.engine and the like, used as attributes after `import cheekymonkey`.
    return _moved.moved_attribute(__name__, name)


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
    "Stakes",
    "Step",
    "Stop",
    "Stopped",
    "Swap",
    "Swapped",
    "Table",
    "TableView",
    "Utility",
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
    "illegal_reason",
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
