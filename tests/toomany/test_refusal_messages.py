"""The engine's refusals: each carries the state and the very action refused, and gives the rule's reason.

A front end shows a refusal's reason to the player and may log the action and state it carries; a refusal
that lost either, or whose reason changed its words, would mislead both. These tests pin them: every action
of the game's action space is offered in every state of seeded whole games, and the exact reasons of the
refusals a player meets most (an action of another phase, a discard top that cannot be taken) are checked
word for word.
"""

from __future__ import annotations

import random
import re

import pytest

from cheekymonkey.errors import IllegalActionError, InvalidValueError, NotAChanceNodeError
from cheekymonkey.toomany import (
    NUMBERS,
    Action,
    Card,
    GameState,
    Phase,
    apply,
    apply_with_events,
    chance_pool,
    face_down,
    is_chance_node,
    legal_actions,
    sample_chance,
)
from cheekymonkey.toomany.actions import (
    DECLINE,
    DRAW,
    GIVE_SKIPS,
    PLACE_WILDS,
    RACCOON_TAKES,
    REVEALS,
    TAKE_BONUS,
    TAKE_DISCARD,
    TURN_DOWNS,
    RaccoonTake,
)
from tests.toomany.helpers import TINY, make, random_game

RULE_FIRST = re.compile(r"^TM\d+(, TM\d+)*: \S")
"""A reason begins with the clause or clauses broken (TME8)."""


def _action_space(players: int) -> tuple[Action, ...]:
    # Every action a player or chance can name at this table, and one seat past it for the seat actions.
    turn_downs = tuple(action for seat in range(players + 1) for action in TURN_DOWNS[seat])
    return (
        DRAW,
        TAKE_DISCARD,
        TAKE_BONUS,
        DECLINE,
        *REVEALS,
        *PLACE_WILDS,
        *RACCOON_TAKES,
        *turn_downs,
        *GIVE_SKIPS[: players + 1],
    )


def _refusal_of(state: GameState, action: Action) -> IllegalActionError | None:
    # apply, and apply_with_events (the engine's other entry, with its own dispatch), must agree.
    refused: IllegalActionError | None = None
    try:
        apply(state, action)
    except IllegalActionError as error:
        refused = error
    if refused is None:
        after, _ = apply_with_events(state, action)
        assert after == apply(state, action)
        return None
    with pytest.raises(IllegalActionError) as logged:
        apply_with_events(state, action)
    assert logged.value.action is action
    assert logged.value.state is state
    assert logged.value.reason == refused.reason
    return refused


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_every_refusal_by_either_entry_carries_the_state_and_the_action_and_begins_with_its_rule(
    seed: int, players: int
) -> None:
    """TME8: apply refuses exactly the decisions legal_actions leaves out, each error holding what it refused."""
    space = _action_space(players)
    refusals = 0
    for state in random_game(seed, players):
        legal = set(legal_actions(state)) if not is_chance_node(state) else None
        for action in space:
            error = _refusal_of(state, action)
            if error is None:
                assert legal is None or action in legal
                continue
            refusals += 1
            assert error.action is action
            assert error.state is state
            assert RULE_FIRST.match(error.reason), error.reason
            assert str(error) == f"illegal action {action!r}: {error.reason}"
            assert legal is None or action not in legal
    assert refusals > 1000


def _refused(state: GameState, action: Action) -> str:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.action is action
    return caught.value.reason


HIDDEN = ["? ? ? ? ? ?", "? ? ? ? ? ?"]


@pytest.mark.parametrize(
    ("discard", "phase", "reason"),
    [
        (
            "1",
            Phase.START,
            "TM6: you hold no wild to place; your turn begins with a draw from the pile or the discard top",
        ),
        ("G", Phase.DRAW, "TM6, TM18: the turn began with a draw from the pile, and the card drawn is revealed next"),
    ],
)
def test_a_card_played_outside_its_phase_says_what_the_phase_asks_for(discard: str, phase: Phase, reason: str) -> None:
    """TM6, TM18: at a decision, the card not held is named first; while chance acts, only what comes next."""
    state = make(HIDDEN, discard=discard)
    assert state.phase is phase
    assert _refused(state, PLACE_WILDS[0]) == reason


@pytest.mark.parametrize(
    ("rows", "discard", "reason"),
    [
        (HIDDEN, "", "TM6: the discard pile is empty, so the turn began with a draw"),
        (HIDDEN, "3 G", "TM6: the discard top is a giraffe: special cards are never taken from the discard pile"),
        (
            ["? ? 3 ? ? ?", "? ? ? ? ? ?"],
            "3",
            "TM6: the discard top, a 3, already shows at position 3 of the row",
        ),
    ],
)
def test_taking_a_discard_top_that_cannot_be_taken_gives_the_reason(rows: list[str], discard: str, reason: str) -> None:
    """TM6: the turn began with a draw because the discard top could not be taken, and the refusal says why."""
    state = make(rows, discard=discard)
    assert state.phase is Phase.DRAW
    assert _refused(state, TAKE_DISCARD) == reason
    assert _refused(state, DRAW) == (
        "TM6, TM18: the turn began with a draw from the pile, and the card drawn is revealed next"
    )


def test_a_card_drawn_is_refused_outside_a_draw_with_the_phase_named() -> None:
    """TM19: a Reveal while a player decides is refused, saying what the phase asks for."""
    state = make(HIDDEN, discard="1")
    assert _refused(state, REVEALS[Card.TWO - 1]) == (
        "TM19: no card is being revealed now; your turn begins with a draw from the pile or the discard top"
    )


@pytest.mark.parametrize("text", ["do_not_disturb", "DO_NOT_DISTURB", "  Do  Not_Disturb ", "dnd", "Do Not Disturb"])
def test_a_cards_name_reads_with_underscores_or_spaces_in_any_case(text: str) -> None:
    """Card.parse reads a member's name as written in code, or its words as the rules write them."""
    assert Card.parse(text) is Card.DO_NOT_DISTURB


def test_a_word_that_names_no_card_is_refused_with_every_cards_name() -> None:
    """A wrong card name is answered with the names that would have been read, in the deck's order."""
    with pytest.raises(InvalidValueError) as caught:
        Card.parse("joker")
    assert str(caught.value) == (
        "'joker' is not a card: give a Card, a number 1 to 6, or a name (1, 2, 3, 4, 5, 6, wild, Skip, elephant, "
        "giraffe, raccoon, Do Not Disturb)"
    )


def test_asking_for_chance_where_a_player_decides_names_the_phase() -> None:
    """TM19: only a draw or a card picked up is revealed by chance; elsewhere the refusal names the phase."""
    state = make(HIDDEN, discard="1")
    assert state.phase is Phase.START
    for ask in (chance_pool, lambda state: sample_chance(state, random.Random(0))):
        with pytest.raises(NotAChanceNodeError) as caught:
            ask(state)
        assert str(caught.value) == "no card is being revealed in phase START"


def test_every_card_that_can_lie_face_down_has_its_one_shared_face_down_value() -> None:
    """TM7, TM11, TM15: a number or a wild can be turned down; each has one FaceDown, holding that card."""
    for card in (*NUMBERS, Card.WILD):
        assert face_down(card).card is card
        assert face_down(card) is face_down(Card.parse(card.code))


def test_a_card_revealed_that_the_reshuffled_pile_does_not_hold_is_refused_by_the_pile() -> None:
    """TM20: after a reshuffle the draw pile's cards are known, and a draw can only reveal one of them."""
    state = make(["(W)", "? ?"], ruleset=TINY, discard="1 2 G G G", pile="1")
    assert _refused(state, REVEALS[Card.TWO - 1]) == "TM20: the draw pile holds no 2"


def test_the_raccoon_takes_only_a_number_and_says_so() -> None:
    """TM14: the raccoon's choice is a numbered monkey; any other card is refused as a value, saying why."""
    with pytest.raises(InvalidValueError) as caught:
        RaccoonTake(Card.GIRAFFE)
    assert str(caught.value) == "the raccoon takes only numbered monkeys from the discard pile, not Card.GIRAFFE"
