"""Properties of every game, for any choices and any deal, checked by hypothesis after every step.

Each example plays a game of some rule set (standard, short, rows of 1 and 2, small decks that reshuffle
often), with any number of seats and any first seat; hypothesis picks every decision and every card chance
reveals (each card of the pool can be picked). The game stops at its end or after 150 actions.
"""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey.toomany import (
    CARDS,
    Action,
    Card,
    FaceDown,
    GameState,
    GiveSkip,
    Phase,
    Ruleset,
    apply,
    chance_pool,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
)
from tests.toomany.helpers import TINY
from tests.toomany.invariants import cards_held
from tests.toomany.test_verify import BOUNDS

RULESETS = (
    Ruleset.standard(),
    Ruleset.short(),
    Ruleset.custom(row_size=1),
    Ruleset.custom(row_size=2),
    TINY,
    Ruleset.custom({1: 4, 2: 4, "wild": 1, "skip": 2, "raccoon": 2, "dnd": 2, "giraffe": 1}, row_size=2, max_players=3),
)


@attrs.frozen
class Played:
    """A game played from its start: every state, and the action that led from each to the next."""

    states: tuple[GameState, ...]
    """The states, the start first."""
    actions: tuple[Action, ...]
    """The actions, one fewer than the states."""


@st.composite
def played(draw: st.DrawFn) -> Played:
    """A game of any rule set, seats and first seat, every decision and every card revealed chosen by hypothesis."""
    ruleset = draw(st.sampled_from(RULESETS))
    players = draw(st.integers(ruleset.min_players, ruleset.max_players))
    state = new_game(players, ruleset=ruleset, first_player=draw(st.integers(0, players - 1)))
    states = [state]
    actions: list[Action] = []
    for pick in draw(st.lists(st.integers(0, 2**20), min_size=1, max_size=150)):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        if is_chance_node(state):
            # Any card of the pool: the pick counts cards, so every card (not only every kind) can come up.
            pool = [card for card, count in zip(CARDS, chance_pool(state), strict=True) for _ in range(count)]
            card = pool[pick % len(pool)]
            action = next(reveal for reveal in legal if reveal.card is card)  # type: ignore[union-attr]
        else:
            action = legal[pick % len(legal)]
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return Played(tuple(states), tuple(actions))


@given(played())
def test_every_card_is_in_exactly_one_place_after_every_step(game: Played) -> None:
    """TM1, TM19: rows, piles, hand, Skips waiting and the cards never seen hold the deck, each card once."""
    for state in game.states:
        assert cards_held(state) == list(state.ruleset.counts)
        assert min(state.unseen) >= 0


@given(played())
def test_every_face_up_number_lies_at_its_own_position(game: Played) -> None:
    """TM7, TM15: a number k, face up or turned down, lies at position k of a row; only a wild lies anywhere."""
    for state in game.states:
        for row in state.rows:
            for position, slot in enumerate(row, start=1):
                card = slot.card if isinstance(slot, FaceDown) else slot
                assert card is None or card is Card.WILD or card == position


@given(played())
def test_no_seat_ever_has_two_skips_waiting_and_none_is_given_a_second(game: Played) -> None:
    """TM16, TM17: one flag per seat, never the mover's; a Skip is only ever offered to a seat without one."""
    for state in game.states:
        assert all(waiting.__class__ is bool for waiting in state.skips)
        assert len(state.skips) == state.players
        assert not state.skips[state.seat]
        for action in legal_actions(state):
            if isinstance(action, GiveSkip):
                assert not state.skips[action.seat]
                assert action.seat != state.seat


@given(played())
def test_no_draw_finds_both_piles_empty(game: Played) -> None:
    """TM25, TM20: at every turn's start a card is there to take; a pending draw always has a card in the pile."""
    for state in game.states:
        if state.phase in (Phase.START, Phase.DRAW, Phase.CHOSEN_DRAW):
            assert state.pile_size + len(state.discard) >= 1
        if state.phase in (Phase.DRAW, Phase.CHOSEN_DRAW):
            assert state.pile_size >= 1


@given(played())
def test_play_is_deterministic(game: Played) -> None:
    """TME9: the same actions from the same start give equal states at every step, and the state given is untouched."""
    again = game.states[0]
    for state, action, after in zip(game.states[:-1], game.actions, game.states[1:], strict=True):
        assert apply(state, action) == after
        again = apply(again, action)
        assert again == after
        assert hash(again) == hash(after)


@given(played())
def test_every_turn_ends_within_the_proved_bound(game: Played) -> None:
    """TME6: from a turn's start to the next, never more actions than proved: 3 for rows of 1, else 3n - 1."""
    bounds = {size: most[-1][1] for size, most in BOUNDS.items()}
    count = 0
    row = len(game.states[0].rows[game.states[0].seat])
    for after in game.states[1:]:
        count += 1
        if after.phase in (Phase.START, Phase.DRAW, Phase.OVER):
            assert count <= bounds[row]
            count = 0
            row = len(after.rows[after.seat])
