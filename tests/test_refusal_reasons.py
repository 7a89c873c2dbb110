"""Every game's refusals of a move name the engine's own reason, never a generic one.

For every registered game (:data:`cheekymonkey.games.GAME_NAMES`, read through its binding only): the texts a
player could type are gathered from seeded games, each with the action it names there (the short text of every
legal action met), and more are made from them by changing a number (a seat, a position) through the action's
JSON document, so that they name seats the table has not, cards elsewhere and positions off the row. Then, in
random reachable states where a player decides, every text that names an action the rules refuse now must be
refused with an :class:`~cheekymonkey.ActionTextError` that carries that action and begins with the reason
the engine's :class:`~cheekymonkey.IllegalActionError` gives for it, in the player's words (its rule last, in
brackets).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from functools import cache
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import ActionTextError, CheekyMonkeyError, IllegalActionError
from cheekymonkey.games import GAME_NAMES, AnyGame, game_named

_RULES: Final = re.compile(r"([A-Z]+\d+(?:, [A-Z]+\d+)*): (.+)", re.DOTALL)
_NUMBER: Final = re.compile(r"\d+")
_VARIANTS: Final = (0, 1, 2, 3, 5, 6, 7, 9, 14)
"""The numbers put in place of one in a text: seats and positions in range, past the table, past the row."""


def _states(game: AnyGame, seed: int, *, stop_after: int | None = None) -> list[Any]:
    """The states of a game of random choices under one of the game's presets, where a player decides."""
    rng = random.Random(seed)
    ruleset = game.ruleset(rng.choice(game.preset_names()))
    low, high = game.seat_range(ruleset)
    state = game.new_game(rng.randint(low, high), ruleset)
    found: list[Any] = []
    steps = 0
    while not game.is_terminal(state) and steps < 3_000:
        if game.is_chance_node(state):
            action = game.sample_chance(state, rng)
        else:
            found.append(state)
            if stop_after is not None and len(found) > stop_after:
                break
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        state = game.apply(state, action)
        steps += 1
    return found


@cache
def _texts(name: str) -> dict[str, frozenset[Any]]:
    """Each text a player could type, with every action it names: met in seeded games, or made from those."""
    game = game_named(name)
    documents = game.documents()
    names: dict[str, set[Any]] = defaultdict(set)
    for seed in range(12):
        for state in _states(game, seed):
            for action in game.legal_actions(state):
                names[game.action_text(action, state)].add(action)
    for text, actions in list(names.items()):
        numbers = _NUMBER.findall(text)
        for action in actions:
            document = documents.to_document(action)
            fields = [key for key, value in document.items() if is_whole_number(value)]
            for number in numbers:
                # One number of the text, held by one field of the action's document: change both alike.
                holding = [key for key in fields if document[key] == int(number)]
                if numbers.count(number) != 1 or len(holding) != 1:
                    continue
                for other in _VARIANTS:
                    parts = text.split()
                    at = next(i for i, part in enumerate(parts) if part == number)
                    parts[at] = str(other)
                    try:
                        changed = documents.from_document({**document, holding[0]: other}, "action")
                    except CheekyMonkeyError:
                        continue  # no such action at all (a position 0): nothing for the engine to refuse
                    names[" ".join(parts)].add(changed)
    return {text: frozenset(actions) for text, actions in names.items()}


def _refusal(game: AnyGame, state: Any, text: str) -> ActionTextError | None:
    try:
        game.parse_actions(text, state)
    except ActionTextError as error:
        return error
    return None


def _check_refusals(game: AnyGame, state: Any, texts: dict[str, frozenset[Any]], rules: set[str]) -> int:
    """Type every text in ``state``; each refused one must carry its action and begin with the engine's reason."""
    legal = set(game.legal_actions(state))
    refused = 0
    for text, named in texts.items():
        error = _refusal(game, state, text)
        if error is None:
            continue
        assert error.action is not None, (text, error.reason)  # the text names an action: it says which
        assert error.action in named, (text, error.action, named)  # one that this very text names
        assert error.action not in legal, (text, error.action)
        with pytest.raises(IllegalActionError) as engine:
            game.apply(state, error.action)
        match = _RULES.fullmatch(engine.value.reason)
        assert match is not None, engine.value.reason  # the engine's reason names its rule first
        words = f"{match.group(2)} ({match.group(1)})"
        assert error.reason == words or error.reason.startswith(f"{words}; "), (text, error.reason, words)
        assert "is not allowed now" not in error.reason
        rules.update(match.group(1).split(", "))
        refused += 1
    return refused


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 400))
def test_every_text_that_names_an_illegal_move_is_refused_with_the_engine_s_reason(
    name: str, seed: int, depth: int
) -> None:
    """Property: in random reachable states of every game, each refused move's message is the engine's reason."""
    game = game_named(name)
    states = _states(game, seed, stop_after=depth)
    rules: set[str] = set()
    for state in states[-1:] + states[:: max(1, len(states) // 3)]:
        _check_refusals(game, state, _texts(name), rules)


_BREADTH: Final = {"cheeky-monkey": (1_001, 5), "too-many-monkeys": (1_001, 5)}
"""The built-in games' notations name many moves refused under many rules: the refusals and rules to meet at least."""


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_refusals_checked_cover_many_rules_of_every_game(name: str) -> None:
    """Seeded: the texts refused in a few games' states are many, and their reasons cite several rules.

    The built-in games must meet :data:`_BREADTH`; any other game must refuse at least one text in each state where
    an action its notation names (``notation_actions``, the legal ones by default) is one the rules refuse now.
    """
    game = game_named(name)
    texts = _texts(name)
    rules: set[str] = set()
    states = _states(game, 99)[:60]
    refused = sum(_check_refusals(game, state, texts, rules) for state in states)
    notation = getattr(game, "notation_actions", game.legal_actions)
    refusable = sum(1 for state in states if set(notation(state)) - set(game.legal_actions(state)))
    least, cited = _BREADTH.get(name, (refusable, 1 if refusable else 0))
    assert refused >= least, (refused, least)
    assert len(rules) >= cited, rules
