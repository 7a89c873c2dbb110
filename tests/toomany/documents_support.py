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
