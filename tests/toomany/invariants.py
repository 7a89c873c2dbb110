"""Invariants every reachable Too Many Monkeys state satisfies, written here apart from the engine's own checks.

The stateful test and the seeded whole games call :func:`check_state_invariants` after every step and
:func:`check_transition` for every action.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

from cheekymonkey.errors import IllegalActionError
from cheekymonkey.testing import check_illegal_actions as kit_illegal_actions
from cheekymonkey.testing import check_state
from cheekymonkey.testing import check_transition as kit_transition
from cheekymonkey.toomany import (
    CARDS,
    MAX_NUMBER,
    TOO_MANY_MONKEYS,
    Action,
    Card,
    Decline,
    Draw,
    FaceDown,
    GameState,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TableView,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    apply,
    apply_with_events,
    current_player,
    view,
)

__all__ = ["all_candidate_actions", "cards_held", "check_state_invariants", "check_transition"]


def cards_held(state: GameState) -> list[int]:
    """How many cards of each kind the rows, piles, hand, Skips waiting and the pool never seen hold together."""
    held = list(state.unseen)
    for row in state.rows:
        for slot in row:
            if isinstance(slot, FaceDown):
                held[slot.card - 1] += 1
            elif slot is not None:
                held[slot - 1] += 1
    for card in state.discard:
        held[card - 1] += 1
    if state.hand is not None:
        held[state.hand - 1] += 1
    held[Card.SKIP - 1] += sum(state.skips)
    if state.pile is not None:
        held = [a + b for a, b in zip(held, state.pile, strict=True)]
    return held


def all_candidate_actions(state: GameState) -> Iterator[Action]:
    """Every action of every kind for a game with this many seats and one more, positions one past the longest row."""
    yield from (Draw(), TakeDiscard(), TakeBonus(), Decline())
    yield from (Reveal(card) for card in CARDS)
    yield from (PlaceWild(position) for position in range(1, MAX_NUMBER + 2))
    yield from (RaccoonTake(number) for number in range(1, MAX_NUMBER + 1))
    for seat in range(state.players + 1):
        yield GiveSkip(seat)
        yield from (TurnDown(seat, position) for position in range(1, MAX_NUMBER + 2))


def check_state_invariants(state: GameState) -> tuple[Action, ...]:
    """Assert every invariant of ``state`` and return its legal actions.

    All 55 cards (the rule set's) accounted for; every face-up number k at position k; at most one Skip
    waiting per seat, and none for the seat to move; the pool never seen as large as the cards it stands
    for; no draw with both piles empty (TM25); exactly one of chance, a player to move, or the end; chance
    probabilities exact and summing to 1 (those two, with pickle and hash, the conformance kit's
    :func:`~cheekymonkey.testing.check_state`); the checking constructor accepts the state and each seat's view.
    """
    ruleset = state.ruleset
    assert all(count >= 0 for count in state.unseen)
    assert cards_held(state) == list(ruleset.counts)  # TM1: every card in exactly one place
    for row in state.rows:
        for position, slot in enumerate(row, start=1):
            card = slot.card if isinstance(slot, FaceDown) else slot
            assert card is None or card is Card.WILD or card == position  # TM7: k lies at position k only
    assert isinstance(state.skips, tuple)
    assert all(isinstance(waiting, bool) for waiting in state.skips)
    assert not state.skips[state.seat]  # TM16: a seat with a Skip waiting would have been skipped
    hidden = sum(slot is None for row in state.rows for slot in row)
    picked = state.phase is Phase.TURN_UP or (state.phase is Phase.OVER and state.hand is None)
    assert sum(state.unseen) == hidden + (state.pile_size if state.pile is None else 0) + picked  # TM19
    if state.phase in (Phase.START, Phase.DRAW, Phase.CHOSEN_DRAW):
        assert state.pile_size + len(state.discard) >= 1  # TM25
    if state.phase in (Phase.DRAW, Phase.CHOSEN_DRAW):
        assert state.pile_size >= 1  # TM20: reshuffled before the draw
    actions = check_state(TOO_MANY_MONKEYS, state)  # one of chance / a move / the end, exact odds, pickle, hash
    rebuilt = GameState(**attrs.asdict(state, recurse=False))
    assert rebuilt == state
    assert hash(rebuilt) == hash(state)
    if current_player(state) is not None:
        assert len(actions) >= 2  # TM18
    # The view of the seat to move (or of seat 0) and a spectator's pass the view's checking constructor,
    # which rebuilds the state they show.
    for seat in (state.seat, None):
        table = view(state, seat)
        assert TableView(**attrs.asdict(table, recurse=False)) == table
    return actions


def check_transition(state: GameState, action: Action) -> GameState:
    """Apply a legal ``action`` through the kit's check; its events' seats, positions and counts are plain ints.

    :func:`cheekymonkey.testing.check_transition`: the same state twice and with events, ``state`` unchanged.
    """
    after = kit_transition(TOO_MANY_MONKEYS, state, action)
    _, events = apply_with_events(state, action)
    for event in events:
        # Events are attrs values whose seats, positions and counts are plain ints (a Card is no position).
        for field in attrs.fields(type(event)):
            value = getattr(event, field.name)
            if field.name in ("seat", "target", "position", "round", "first_seat", "cards"):
                assert type(value) is int, (event, field.name)
    return after


def check_illegal_actions(state: GameState, legal: tuple[Action, ...]) -> None:
    """Every action not legal here is refused, nothing changing (the kit's check), with an error citing a clause."""
    illegal = [action for action in all_candidate_actions(state) if action not in legal]
    assert kit_illegal_actions(TOO_MANY_MONKEYS, state, illegal) == len(illegal)
    for action in illegal:
        with pytest.raises(IllegalActionError) as caught:
            apply(state, action)
        assert caught.value.reason.startswith("TM"), caught.value.reason
