"""The model check's refusals, word for word: each names the field or invariant broken and the rule behind it.

A program that shows these messages to a person (a loader, a server refusing a posted state) shows them as
they are, so each is pinned whole here, not by a fragment: a message that lost its rule, its field's name or
its words would pass a search for a fragment and fail here. Every state is the fields of one valid state with
one or two changed, handed to :func:`~cheekymonkey.toomany.check_state` as a plain namespace, so the check
sees exactly what a hand-built or decoded state would give it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from cheekymonkey.errors import InvalidStateError
from cheekymonkey.toomany import Card, GameState, Phase, check_state
from tests.toomany.helpers import TINY, make, row

BASE = make(["1 ? 3 ? ? ?", "? W ? ? ? ?"], discard="5 G")
"""Seat 0 to draw in round 1 of a standard 2-seat game, a 5 and a giraffe on the discard pile."""

TWELVE_ZEROS = (0,) * 12


def _refusal(state: GameState, **changes: Any) -> str:
    values = attrs.asdict(state, recurse=False)
    values.update(changes)
    with pytest.raises(InvalidStateError) as caught:
        check_state(SimpleNamespace(**values))
    return str(caught.value)


ROWS_AS_LIST = [row("1 ? 3 ? ? ?"), row("? W ? ? ? ?")]
ROW_AS_LIST = (row("1 ? 3 ? ? ?"), list(row("? W ? ? ? ?")))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ruleset": "standard"}, "ruleset must be a Ruleset, got 'standard'"),
        (
            {"rows": ROWS_AS_LIST},
            f"rows must be a tuple of rows, each a tuple of positions, got {ROWS_AS_LIST!r}",
        ),
        (
            {"rows": ROW_AS_LIST},
            f"rows must be a tuple of rows, each a tuple of positions, got {ROW_AS_LIST!r}",
        ),
        ({"rows": ((None,) * 6,)}, "1 rows, but the rule set allows 2 to 6 seats"),
        ({"round": True}, "round must be an integer, got True"),
        ({"round": 0}, "round is 0: rounds count from 1"),
        ({"round_first": True}, "round_first must be an integer, got True"),
        ({"round_first": 2}, "round_first 2 is not one of the 2 seats"),
        ({"seat": -1}, "seat -1 is not one of the 2 seats"),
        ({"seat": 2.0}, "seat must be an integer, got 2.0"),
        ({"phase": 3}, "phase must be a Phase, got 3"),
        ({"hand": "W"}, "hand must be a Card or None, got 'W'"),
        ({"discard": [Card.FIVE]}, "the discard pile must be a tuple of Cards, got [Card.FIVE]"),
        ({"discard": (Card.FIVE, 7)}, "the discard pile must be a tuple of Cards, got (Card.FIVE, 7)"),
        (
            {"discard": (Card.FIVE, Card.WILD)},
            "a wild is on the discard pile: a wild in hand is always placed, never discarded (TM11)",
        ),
        ({"pile_size": True}, "pile_size must be an integer, got True"),
        ({"pile_size": -1}, "pile_size is -1, below 0"),
        ({"pile": (0,)}, "the draw pile must be a tuple of 12 counts, one per card, got (0,)"),
        ({"pile": (1.0,) + (0,) * 11}, "the draw pile's count of 1 must be an integer, got 1.0"),
        ({"pile": (0, -1) + (0,) * 10}, "the draw pile's count of 2 is -1, below 0"),
        ({"pile": TWELVE_ZEROS}, "the draw pile holds 0 cards, but pile_size is 41"),
        (
            {"pile": (0,) * 6 + (1,) + (0,) * 5, "pile_size": 1},
            "a wild is in the reshuffled draw pile, which only holds discarded cards (TM11, TM20)",
        ),
        ({"skips": [False, False]}, "skips must be a tuple of 2 booleans, one per seat, got [False, False]"),
        ({"skips": (False,)}, "skips must be a tuple of 2 booleans, one per seat, got (False,)"),
        ({"skips": (0, 0)}, "skips must be a tuple of 2 booleans, one per seat, got (0, 0)"),
        (
            {"skips": (True, False)},
            "seat 0 is to move with a Skip waiting: its turn would have been skipped (TM16)",
        ),
        ({"unseen": [0] * 12}, f"unseen must be a tuple of 12 counts, one per card, got {[0] * 12!r}"),
        ({"unseen": (0,) * 11 + (True,)}, "unseen's count of Do Not Disturb must be an integer, got True"),
        ({"unseen": (-1,) + (0,) * 11}, "unseen's count of 1 is -1, below 0"),
        (
            {"unseen": (6, *BASE.unseen[1:])},
            "7 1 card(s) are in the game (rows, piles, hand, Skips waiting and cards never seen), but the deck "
            "has 6 (TM1)",
        ),
        (
            {"skips": (False, True)},
            "5 Skip card(s) are in the game (rows, piles, hand, Skips waiting and cards never seen), but the deck "
            "has 4 (TM1)",
        ),
    ],
)
def test_each_refusal_of_a_fields_value_is_its_whole_sentence(changes: dict[str, Any], message: str) -> None:
    """Each field's check names the field, what it must be and what it got; a rule's check cites the rule."""
    assert _refusal(BASE, **changes) == message


def test_a_state_missing_a_field_is_no_state_and_the_refusal_names_the_field() -> None:
    """TME8: an object without a state's fields is refused, naming the first field it lacks."""
    values = attrs.asdict(BASE, recurse=False)
    del values["phase"]
    with pytest.raises(InvalidStateError) as caught:
        check_state(SimpleNamespace(**values))
    assert str(caught.value).startswith("TME8: namespace(")
    assert str(caught.value).endswith(") is not a Too Many Monkeys GameState: it has no phase")


def test_the_pool_never_seen_is_counted_where_its_cards_are() -> None:
    """TM19: the cards never seen are the unknown face-down cards and the draw pile before its reshuffle."""
    # BASE hides 9 positions and 41 cards in the draw pile: 50 never seen. One card fewer in the pile, the same
    # pool: every card is still somewhere (TM1 holds), but the pool no longer matches what is hidden.
    assert _refusal(BASE, pile_size=40) == (
        "50 cards are counted as never seen, but there are 9 face-down cards nobody has seen and 40 in the draw "
        "pile (TM19)"
    )


@pytest.mark.parametrize(
    ("rows", "round_number", "message"),
    [
        (
            ["1 ? 3 ? ? ? ?", "? W ? ? ? ?"],
            1,
            "seat 0's row has 7 cards; rows have 1 to 6 (TM22, TM24)",
        ),
        (
            ["1 ? 3 ? ? ?", "? W ? 2 ? ?"],
            1,
            "seat 1's position 4 holds Card.TWO: only a wild or the number 4 can lie there, face up or turned down "
            "(TM7, TM11, TM15)",
        ),
        (
            ["1 ? 3 ? ? ?", "? W ? (2) ? ?"],
            1,
            "seat 1's position 4 holds FaceDown(Card.TWO): only a wild or the number 4 can lie there, face up or "
            "turned down (TM7, TM11, TM15)",
        ),
        (
            ["1 ? 3 ? ?", "? W ? ? ? ?"],
            1,
            "round 1, but the rows are 1 card(s) short of 6: each round won takes one card from its winner's row, "
            "so this is round 2 (TM22)",
        ),
    ],
)
def test_each_refusal_of_a_row_is_its_whole_sentence(rows: list[str], round_number: int, message: str) -> None:
    """TM7, TM22, TM24: a row's size, what each position can hold, and the round its length implies."""
    assert _refusal(BASE, rows=tuple(row(text) for text in rows), round=round_number) == message


def test_a_position_holding_something_other_than_a_card_is_refused_by_its_position() -> None:
    """A row position is a face-up Card, a FaceDown or None; anything else is named with its place."""
    rows = (row("1 ? 3 ? ? ?"), (None, "W", None, None, None, None))
    assert _refusal(BASE, rows=rows) == "seat 1's position 2 holds 'W': not a Card, a FaceDown or None"


def _turn(rows: list[str], phase: Phase, hand: Card | None, discard: str, skips: tuple[int, ...] = ()) -> str:
    # The pools are counted by the tests' builder, so only the turn's own check can fail.
    with pytest.raises(InvalidStateError) as caught:
        make(rows, phase=phase, hand=hand, discard=discard, skips=skips)
    return str(caught.value)


@pytest.mark.parametrize(
    ("rows", "phase", "hand", "discard", "message"),
    [
        (
            ["1 2 3 4 5 6", "? ? ? ? ? ?"],
            Phase.DRAW,
            None,
            "G",
            "seat 0's row is all face up, so that seat has won the round (TM21)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.START,
            None,
            "G",
            "the turn offers a choice of pile, but the discard top cannot be taken, so the engine draws (TM6, TM18)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.DRAW,
            None,
            "1",
            "the discard top can be taken, so the turn begins with a choice, not a draw (TM6, TM18)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.CHOSEN_DRAW,
            None,
            "G",
            "the player chose to draw, but the discard top could not be taken: there was no choice (TM18)",
        ),
        (
            ["1 2 3 4 5 ?", "? ? ? ? ? ?"],
            Phase.WILD,
            Card.WILD,
            "G",
            "a wild with one face-down position to go to is placed by the engine (TM11, TM18)",
        ),
        (
            ["1 ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.BONUS,
            Card.THREE,
            "G",
            "the bonus needs a number in hand whose position holds a face-up wild, not Card.THREE (TM12)",
        ),
        (
            ["W ? ? ? ?", "? ? ? ? ? ?"],
            Phase.BONUS,
            Card.SIX,
            "G",
            "the bonus needs a number in hand whose position holds a face-up wild, not Card.SIX (TM12)",
        ),
        (
            ["W ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.BONUS,
            Card.SKIP,
            "G",
            "the bonus needs a number in hand whose position holds a face-up wild, not Card.SKIP (TM12)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.RACCOON,
            None,
            "R G",
            "the raccoon's choice is made with the raccoon on top of the discard pile (TM14)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.RACCOON,
            None,
            "G R",
            "the raccoon has nothing to take, so the turn has ended (TM14, TM18)",
        ),
        (
            ["1 ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.DISTURB,
            Card.DO_NOT_DISTURB,
            "G",
            "no opponent has a face-up card, so the Do Not Disturb has no effect (TM15, TM18)",
        ),
        (
            ["? ? ? ? ? ?", "? ? ? ? ? ?"],
            Phase.DRAW,
            Card.SKIP,
            "G",
            "in phase DRAW the hand holds None, not Card.SKIP",
        ),
    ],
)
def test_each_refusal_of_a_turn_names_the_rule_that_decides_it(
    rows: list[str], phase: Phase, hand: Card | None, discard: str, message: str
) -> None:
    """TM6, TM11, TM12, TM14, TM15, TM18, TM21: a question the engine answers itself is no state of play."""
    assert _turn(rows, phase, hand, discard) == message


def test_a_skip_with_every_opponent_already_skipped_is_refused_as_the_engine_discards_it() -> None:
    """TM16, TM17, TM18: with a Skip waiting before every opponent, the Skip has no one to go to."""
    rows = ["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?"]
    assert _turn(rows, Phase.SKIP, Card.SKIP, "G", skips=(1, 2)) == (
        "every opponent has a Skip waiting, so the Skip has no effect (TM16, TM17, TM18)"
    )
    # One opponent free: the choice is real, and the state stands.
    assert make(rows, phase=Phase.SKIP, hand=Card.SKIP, discard="G", skips=(2,)).phase is Phase.SKIP


def test_a_draw_from_an_empty_pile_is_refused_as_the_reshuffle_comes_first() -> None:
    """TM20: the draw pile is reshuffled from the discards before a draw could find it empty."""
    # The tiny deck (1 1 2 2 3 W G G G): four cards hidden in the rows, the rest discarded, none in the pile.
    with pytest.raises(InvalidStateError) as caught:
        make(["? ?", "? ?"], ruleset=TINY, phase=Phase.DRAW, discard="1 2 G G G", pile="")
    assert str(caught.value) == "a draw is pending but the draw pile is empty: it is reshuffled before the draw (TM20)"


def test_after_a_reshuffle_the_pool_never_seen_is_the_hidden_positions_alone() -> None:
    """TM19, TM20: once the draw pile is reshuffled from seen cards, it is no part of the pool never seen."""
    # The tiny deck (1 1 2 2 3 W G G G): four hidden positions, a reshuffled pile of 1 2 G, the rest discarded.
    state = make(["? ?", "? ?"], ruleset=TINY, discard="G G", pile="1 2 G")
    assert state.pile is not None
    # One card too many counted as never seen: the message names the hidden positions and no draw pile.
    extra = list(state.unseen)
    extra[Card.GIRAFFE - 1] += 1
    assert _refusal(state, unseen=tuple(extra), discard=(Card.GIRAFFE,)) == (
        "5 cards are counted as never seen, but there are 4 face-down cards nobody has seen (TM19)"
    )


def test_a_card_picked_up_and_not_yet_revealed_is_counted_among_the_cards_never_seen() -> None:
    """TM7, TM19: while a card picked up from the row waits to be revealed, the pool counts it too."""
    state = make(["? ? ? ? ? ?", "? ? ? ? ? ?"], phase=Phase.TURN_UP, discard="G")
    assert _refusal(state, pile_size=state.pile_size + 1) == (
        f"{sum(state.unseen)} cards are counted as never seen, but there are 12 face-down cards nobody has seen "
        f"and {state.pile_size + 1} in the draw pile and the card just picked up (TM19)"
    )
