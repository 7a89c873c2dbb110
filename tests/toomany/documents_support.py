"""What the tests of Too Many Monkeys' documents share: played games, documents of every kind, the schemas.

Games are played here with chance drawn from a seeded stream and choices uniform among the legal actions,
under rule sets chosen so that every card and every phase comes up: the standard and short games, a small
deck whose piles run out (reshuffles), and the tiny deck of the rule tests.
"""

from __future__ import annotations

import random
from typing import Any, Final

import attrs
import jsonschema
from hypothesis import strategies as st

from cheekymonkey.schema import SCHEMA_GAMES, load_schema
from cheekymonkey.toomany import (
    Action,
    Event,
    GameRecord,
    GameState,
    Ruleset,
    apply_with_events,
    is_chance_node,
    is_terminal,
    legal_actions,
    sample_chance,
    view,
)
from cheekymonkey.toomany.documents import Document, to_document
from cheekymonkey.toomany.results import outcome
from tests.document_testing import TEXT_AND_LIMITS, Beyond
from tests.toomany.helpers import TINY

GAME: Final = "too-many-monkeys"

SMALL: Final = Ruleset.custom(
    {1: 4, 2: 4, 3: 4, "wild": 2, "skip": 3, "raccoon": 3, "do_not_disturb": 3, "giraffe": 1, "elephant": 1},
    row_size=3,
    max_players=4,
    name="small",
)
"""A small deck full of special cards, rows of 3: reshuffles, raccoons, turned-down cards and Skips come often."""

RULESETS: Final = (Ruleset.standard(), Ruleset.short(), SMALL, TINY)
"""The rule sets games are played under."""

BEYOND_SCHEMA: Final[tuple[Beyond, ...]] = (
    *TEXT_AND_LIMITS,
    Beyond("every card in one place (TM1)", r"card\(s\) are in the game .* but the deck has"),
    Beyond(
        "the cards never seen and the draw pile (TM19, TM20)",
        r"cards are counted as never seen|the draw pile holds \d+ cards, but pile_size",
    ),
    Beyond("the rows and the round (TM22)", r"round \d+, but the rows are \d+ card|rows have 1 to \d+ \(TM22"),
    Beyond(
        "a seat that the game has",
        r"is not one of the \d+ seats|is not one of seats|rows, but the rule set allows|seats, but the rule set allows"
        r"|skips must be a tuple of \d+ booleans|players: the .* rules allow|quit_by must be None or one of the",
    ),
    Beyond(
        "the turn in progress (TM6, TM11-TM18, TM21, TM23)",
        r"in phase \w+ the hand holds|the turn offers a choice|a draw is pending but|the discard top can be taken"
        r"|the player chose to draw|a wild with one face-down position|the bonus needs|the raccoon's choice is made"
        r"|the raccoon has nothing to take|no opponent has a face-up card|every opponent has a Skip waiting"
        r"|to move with a Skip waiting|the game is over, so seat|the winner holds|row is all face up",
    ),
    Beyond(
        "a view's legal actions and outcome",
        r"legal actions|an outcome needs one rank and one return per seat|the outcome .* is not the game's",
    ),
    Beyond(
        "an event that agrees with itself (TM7, TM9, TM13-TM16)",
        r"TM7: a number is put face up at the position|TM15: a face-up card in a row is a wild, or a number at"
        r"|a Skip is played on an opponent|only a number is discarded|only an elephant or a giraffe|only a raccoon or"
        r"|a declined card is a number|only a Do Not Disturb or a Skip can lack",
    ),
    Beyond(
        "an outcome of a finished game (TM23)",
        r"the winner alone is ranked first|seats that tie share a place|the winner's return is 1",
    ),
    Beyond(
        "a record that replays",
        r"does not replay|names for \d+ seats|bots for \d+ seats|kinds for \d+ seats",
    ),
    Beyond(
        "a deck that can be played (TME4, TME5, TM25)",
        r"max_players \d+ is below min_players|cards are too few|could stall|can be completed",
    ),
)
"""What Too Many Monkeys' loader checks that its schemas do not state: relations between fields."""

VALIDATORS: Final = {kind: jsonschema.Draft202012Validator(load_schema(kind, game=GAME)) for kind in SCHEMA_GAMES[GAME]}
"""The shipped schema of every kind, ready to validate."""


def validate(document: dict[str, Any]) -> None:
    """Validate ``document`` against the shipped schema of its kind (jsonschema raises if it does not fit)."""
    VALIDATORS[document["kind"]].validate(document)


@attrs.frozen
class Played:
    """A game played (maybe not to its end): its record, every state, and each action's events."""

    record: GameRecord
    """The record, seed and seats' names included."""
    states: tuple[GameState, ...]
    """Every state, one more than there are actions."""
    events: tuple[tuple[Event, ...], ...]
    """The events of each action, in order."""


def play(seed: int, players: int, ruleset: Ruleset | None = None, *, steps: int | None = None) -> Played:
    """A game of ``players`` seats played for ``steps`` actions (None: to the end), chance and choices from ``seed``."""
    rules = Ruleset.standard() if ruleset is None else ruleset
    rng = random.Random(seed)
    first = rng.randrange(players)
    record = GameRecord(rules, players, first)
    state = record.start()
    states: list[GameState] = [state]
    actions: list[Action] = []
    events: list[tuple[Event, ...]] = []
    while not is_terminal(state) and (steps is None or len(actions) < steps):
        if is_chance_node(state):
            action: Action = sample_chance(state, rng)
        else:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        state, happened = apply_with_events(state, action)
        states.append(state)
        actions.append(action)
        events.append(happened)
    names = tuple(f"Seat {seat}" for seat in range(players))
    kinds = ("human",) + ("random",) * (players - 1)
    record = GameRecord(rules, players, first, tuple(actions), seed, names, kinds)
    return Played(record, tuple(states), tuple(events))


@st.composite
def played_games(draw: st.DrawFn, max_steps: int = 300) -> Played:
    """A game under one of :data:`RULESETS`, any seat count it allows, played some steps from a drawn seed."""
    ruleset = draw(st.sampled_from(RULESETS))
    players = draw(st.integers(ruleset.min_players, ruleset.max_players))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, max_steps))
    return play(seed, players, ruleset, steps=steps)


def values_of(game: Played) -> list[Document]:
    """A value of every kind a game gives: states, views, legal actions, events, the rules, the record, the outcome."""
    values: list[Document] = [game.record, game.record.ruleset]
    for state in (game.states[0], game.states[len(game.states) // 2], game.states[-1]):
        values.append(state)
        values.extend(view(state, seat) for seat in (None, *range(state.players)))
        values.extend(legal_actions(state))
    for happened in game.events[-5:]:
        values.extend(happened)
    if is_terminal(game.states[-1]):
        values.append(outcome(game.states[-1]))
    return values


def samples() -> list[dict[str, Any]]:
    """Documents of every kind, from games under each rule set, for the fuzzers to start from."""
    values: list[Document] = []
    for seed, ruleset in enumerate(RULESETS):
        players = min(ruleset.max_players, 2 + seed)
        whole = play(seed, players, ruleset)
        values.extend(values_of(whole))
        values.extend(values_of(play(seed, players, ruleset, steps=len(whole.record.actions) // 2)))
    documents = [to_document(value) for value in values]
    assert {document["kind"] for document in documents} == set(SCHEMA_GAMES[GAME])
    return documents
