"""Hypothesis strategies shared by the property and stateful tests: rule sets, seat counts, reachable states."""

from __future__ import annotations

import random
from typing import Final

from hypothesis import strategies as st

from cheekymonkey import (
    ANIMALS,
    Animal,
    GameState,
    Ruleset,
    apply,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    sample_chance,
)
from cheekymonkey.cheeky.actions import STOP

__all__ = [
    "count_tables",
    "custom_rulesets",
    "games",
    "presets",
    "reachable_states",
    "rulesets",
    "seat_counts",
]

PRESETS: Final = tuple(Ruleset.preset(name) for name in Ruleset.preset_names())


def presets() -> st.SearchStrategy[Ruleset]:
    """One of the named presets (standard, younger, little children with and without the kangaroo)."""
    return st.sampled_from(PRESETS)


@st.composite
def custom_rulesets(
    draw: st.DrawFn, *, max_count: int = 10, max_value: int = 12, max_players: int = 6, repeat_values: bool = True
) -> Ruleset:
    """A valid custom rule set (R21): some animals with counts, bonus values, switches and a player range.

    Args:
        draw: Supplied by hypothesis.
        max_count: The largest token count of an animal.
        max_value: The largest bonus value.
        max_players: The largest ``max_players`` the rule set may have.
        repeat_values: Whether two animals may share a bonus value (which weakens the tie-break, R18).
    """
    animals = draw(st.sets(st.sampled_from(ANIMALS), min_size=1))
    counts = {a: draw(st.integers(1, max_count), label=f"count {a.label}") for a in sorted(animals)}
    if repeat_values:
        values = {a: draw(st.integers(1, max_value), label=f"value {a.label}") for a in sorted(animals)}
    else:
        distinct = draw(st.lists(st.integers(1, max_value), min_size=len(animals), max_size=len(animals), unique=True))
        values = dict(zip(sorted(animals), distinct, strict=True))
    swap = Animal.MONKEY in animals and draw(st.booleans(), label="swap")
    low = draw(st.integers(2, max_players), label="min_players")
    high = draw(st.integers(low, max_players), label="max_players")
    return Ruleset.custom(
        counts,
        bonus_values=values,
        bonus_tiles=draw(st.booleans(), label="bonus_tiles"),
        swap=swap,
        min_players=low,
        max_players=high,
    )


def rulesets(*, max_count: int = 10) -> st.SearchStrategy[Ruleset]:
    """A preset or a valid custom rule set with counts up to ``max_count``."""
    return st.one_of(presets(), custom_rulesets(max_count=max_count))


def seat_counts(ruleset: Ruleset) -> st.SearchStrategy[int]:
    """A number of seats the rule set allows (R3)."""
    return st.integers(ruleset.min_players, ruleset.max_players)


@st.composite
def games(draw: st.DrawFn, ruleset: st.SearchStrategy[Ruleset] | None = None) -> GameState:
    """A new game (R4): a rule set, a seat count it allows, and any first seat."""
    rules = draw(rulesets(max_count=6) if ruleset is None else ruleset)
    players = draw(seat_counts(rules))
    first = draw(st.integers(0, players - 1), label="first_player")
    return new_game(players, ruleset=rules, first_player=first)


def play_randomly(state: GameState, rng: random.Random, steps: int, *, stop_weight: float = 0.3) -> GameState:
    """Play up to ``steps`` random legal actions from ``state``, stopping early at the end.

    Chance is resolved by :func:`sample_chance`; a player stops with probability ``stop_weight`` when
    stopping is legal (R22: a driver must stop with positive probability), and otherwise picks
    uniformly among the legal actions.
    """
    for _ in range(steps):
        if is_terminal(state):
            break
        if is_chance_node(state):
            state = apply(state, sample_chance(state, rng))
            continue
        actions = legal_actions(state)
        action = STOP if STOP in actions and rng.random() < stop_weight else rng.choice(actions)
        state = apply(state, action)
    return state


@st.composite
def reachable_states(
    draw: st.DrawFn, start: st.SearchStrategy[GameState] | None = None, *, max_steps: int = 400
) -> GameState:
    """A state reached from :func:`new_game` by random legal actions and chance outcomes."""
    state = draw(games() if start is None else start)
    steps = draw(st.integers(0, max_steps), label="steps")
    rng = draw(st.randoms(use_true_random=False))
    return play_randomly(state, rng, steps)


@st.composite
def count_tables(
    draw: st.DrawFn, ruleset: Ruleset, players: int, *, finished: bool = False
) -> tuple[tuple[int, ...], ...]:
    """Per-seat token counts (one row per seat, indexed by animal) that the rule set's tokens can fill.

    Each animal's counts across the seats add up to at most its count in the rule set, or exactly
    its count when ``finished`` (every token in some stack, R15).
    """
    rows = [[0] * len(ANIMALS) for _ in range(players)]
    for animal in ruleset.animals:
        total = ruleset.counts[animal] if finished else draw(st.integers(0, ruleset.counts[animal]))
        # Split ``total`` among the seats by cutting it at sorted points.
        cuts = sorted(draw(st.lists(st.integers(0, total), min_size=players - 1, max_size=players - 1)))
        bounds = [0, *cuts, total]
        for seat in range(players):
            rows[seat][animal] = bounds[seat + 1] - bounds[seat]
    return tuple(tuple(row) for row in rows)
