"""*Too Many Monkeys* (Gamewright): a rules engine, written to the same standard as Cheeky Monkey's.

A 55-card push-your-luck game: each player turns up a row of face-down cards by swapping, in number order,
while wild monkeys, raccoons, Do Not Disturb and Skip cards interfere; a round's winner plays the next round
with one card fewer, and the first to complete a one-card row wins. The rules are TM1-TM26 (the
rulings on ``001``, the publisher's rules); every rule in the code names its clause.

Everything is importable from here. Neither this engine nor Cheeky Monkey's imports the other; the
:class:`~cheekymonkey.game.Game` binding :data:`TOO_MANY_MONKEYS` is what the layers above hold (the
:class:`~cheekymonkey.table.Table`, and ``game_named("too-many-monkeys")``).

>>> from cheekymonkey.toomany import Card, Reveal, apply, legal_actions, new_game
>>> state = apply(new_game(2), Reveal(Card.THREE))
>>> state.rows[0], state.phase
((None, None, Card.THREE, None, None, None), Phase.TURN_UP)
>>> state = apply(state, Reveal(Card.SKIP))
>>> state.hand, legal_actions(state)
(Card.SKIP, (GiveSkip(1), Decline()))
"""

from __future__ import annotations

from cheekymonkey.errors import ActionTextError
from cheekymonkey.toomany.actions import (
    Action,
    Decline,
    Draw,
    GiveSkip,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TurnDown,
)
from cheekymonkey.toomany.board import board_text
from cheekymonkey.toomany.bots import BOTS, Bot, ExpectimaxBot, HeuristicBot, RandomBot, bot_named
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, NUMBERS, Card, FaceDown, Slot, face_down
from cheekymonkey.toomany.engine import (
    apply,
    apply_all,
    apply_with_events,
    chance_outcomes,
    chance_pool,
    current_player,
    illegal_reason,
    is_chance_node,
    is_terminal,
    legal_actions,
    resolve_chance,
    sample_chance,
)
from cheekymonkey.toomany.events import (
    BonusTaken,
    Discarded,
    Drew,
    Event,
    GameWon,
    RaccoonTook,
    Reason,
    Reshuffled,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TookDiscard,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
)
from cheekymonkey.toomany.game import TOO_MANY_MONKEYS, TooManyMonkeys
from cheekymonkey.toomany.narration import action_words, card_words, describe_event, hint, result_text
from cheekymonkey.toomany.notation import action_text, parse_action, parse_actions
from cheekymonkey.toomany.records import GameRecord
from cheekymonkey.toomany.results import outcome, winner, winners
from cheekymonkey.toomany.rules import MAX_PLAYERS, STANDARD_COUNTS, Ruleset
from cheekymonkey.toomany.state import GameState, Phase, check_state, new_game, show_states_with
from cheekymonkey.toomany.views import TableView, view

# print(state) and print(view) draw the table: the state's module never imports display code, so the package,
# which holds both, joins them here.
show_states_with(board_text)

__all__ = [
    "BOTS",
    "CARDS",
    "MAX_NUMBER",
    "MAX_PLAYERS",
    "NUMBERS",
    "STANDARD_COUNTS",
    "TOO_MANY_MONKEYS",
    "Action",
    "ActionTextError",
    "BonusTaken",
    "Bot",
    "Card",
    "Decline",
    "Discarded",
    "Draw",
    "Drew",
    "Event",
    "ExpectimaxBot",
    "FaceDown",
    "GameRecord",
    "GameState",
    "GameWon",
    "GiveSkip",
    "HeuristicBot",
    "Phase",
    "PlaceWild",
    "RaccoonTake",
    "RaccoonTook",
    "RandomBot",
    "Reason",
    "Reshuffled",
    "Reveal",
    "RoundStarted",
    "RoundWon",
    "Ruleset",
    "SkipGiven",
    "Skipped",
    "Slot",
    "TableView",
    "TakeBonus",
    "TakeDiscard",
    "TooManyMonkeys",
    "TookDiscard",
    "TurnDown",
    "TurnedDown",
    "TurnedUp",
    "Uncovered",
    "WildPlaced",
    "action_text",
    "action_words",
    "apply",
    "apply_all",
    "apply_with_events",
    "board_text",
    "bot_named",
    "card_words",
    "chance_outcomes",
    "chance_pool",
    "check_state",
    "current_player",
    "describe_event",
    "face_down",
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
    "view",
    "winner",
    "winners",
]
