"""Set-up and rule sets.

The deck (TM1), the seats (TM2), the rows and piles (TM3, TM4), the first seat (TM5), the short game (TM24), and
rule sets that cannot be played (TM25).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

import pytest

from cheekymonkey.errors import InvalidGameError, InvalidRulesetError
from cheekymonkey.toomany import (
    CARDS,
    MAX_PLAYERS,
    TOO_MANY_MONKEYS,
    Card,
    Phase,
    Ruleset,
    chance_outcomes,
    new_game,
)
from cheekymonkey.toomany.rules import MAX_COUNT
from tests.toomany.helpers import TM1_COUNTS, random_game


def test_the_standard_deck_is_tm1s_55_cards() -> None:
    """TM1: six each of 1 to 6, four wilds, four Skips, three elephants, giraffes and raccoons, two DND."""
    standard = Ruleset.standard()
    assert {card: standard.count(card) for card in CARDS} == TM1_COUNTS
    assert standard.total_cards == 55
    assert [card for card in CARDS if card.is_number] == [1, 2, 3, 4, 5, 6]
    assert not Card.WILD.is_number  # TM1: the wild is a special card too


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_new_game_deals_rows_of_six_face_down_and_the_rest_is_the_draw_pile(players: int) -> None:
    """TM2, TM3, TM4: every seat a row of six unseen cards, an empty discard pile, the rest to draw from."""
    state = new_game(players)
    assert state.rows == ((None,) * 6,) * players
    assert state.discard == ()
    assert state.pile_size == 55 - 6 * players
    assert state.pile is None  # TM19: the draw pile is part of the pool never seen
    assert sum(state.unseen) == 55
    assert state.skips == (False,) * players
    assert (state.round, state.hand) == (1, None)


@pytest.mark.parametrize("players", [1, 7, 0, -1])
def test_a_game_needs_two_to_six_seats(players: int) -> None:
    """TM2: 2 to 6 players."""
    with pytest.raises(InvalidGameError, match="TM2"):
        new_game(players)
    assert TOO_MANY_MONKEYS.seat_range() == (2, 6) == (Ruleset.standard().min_players, MAX_PLAYERS)


def test_the_first_turn_begins_with_a_draw_from_the_pile_since_the_discard_pile_is_empty() -> None:
    """TM6, TM18: nothing to take from the discard pile, so the engine draws: the first state is a chance node."""
    state = new_game(2)
    assert state.phase is Phase.DRAW
    assert chance_outcomes(state)[0][1] == Fraction(6, 55)


def test_seat_0_begins_unless_another_first_seat_is_named() -> None:
    """TM5: the first round starts with seat 0, or the seat the caller names."""
    assert new_game(4).seat == 0
    named = new_game(4, first_player=2)
    assert (named.seat, named.round_first) == (2, 2)
    with pytest.raises(InvalidGameError, match="first_player"):
        new_game(4, first_player=4)


def test_the_short_game_deals_rows_of_four() -> None:
    """TM24: the short preset deals every seat four cards; the deck is the standard one."""
    short = Ruleset.short()
    assert (short.row_size, short.counts, short.name) == (4, Ruleset.standard().counts, "short")
    assert new_game(3, ruleset=short).rows == ((None,) * 4,) * 3
    assert Ruleset.preset_names() == ("standard", "short")
    assert Ruleset.preset("short") == short


def _turns_to_finish(ruleset: Ruleset, seed: int) -> int:
    return sum(TOO_MANY_MONKEYS.begins_turn(state) for state in random_game(seed, 2, ruleset))


def test_the_short_game_takes_well_under_three_quarters_of_the_standard_games_turns() -> None:
    """TM24: why rows of 4: 200 seeded random 2-seat games take 0.64 of the standard turns; rows of 5, 0.81."""
    short = sum(_turns_to_finish(Ruleset.short(), seed) for seed in range(200))
    five = sum(_turns_to_finish(Ruleset.custom(row_size=5), seed) for seed in range(200))
    standard = sum(_turns_to_finish(Ruleset.standard(), seed) for seed in range(200))
    assert 0.6 * standard < short < 0.7 * standard < 0.75 * standard < five < 0.85 * standard


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_the_first_rounds_row_may_be_any_size_from_one_to_six(size: int) -> None:
    """TM24: a rule-set parameter, 1 to 6."""
    ruleset = Ruleset.custom(row_size=size)
    assert new_game(6, ruleset=ruleset).row_sizes == (size,) * 6


@pytest.mark.parametrize("size", [0, 7, -1])
def test_a_row_outside_one_to_six_is_refused(size: int) -> None:
    """TM24: rows have 1 to 6 cards."""
    with pytest.raises(InvalidRulesetError, match="TM24"):
        Ruleset.custom(row_size=size)


def test_a_deck_too_small_to_leave_a_card_to_draw_is_refused() -> None:
    """TM25: at a draw the rows hold up to max_players * row_size cards and the Skips one per opponent."""
    # 2 seats, rows of 2, one Skip: 4 + 1 cards may be held, so 8 cards leave 3 to draw, and 5 none.
    with pytest.raises(InvalidRulesetError, match="TM25"):
        Ruleset.custom({1: 2, 2: 2, "skip": 1}, row_size=2, max_players=2)
    assert Ruleset.custom({1: 3, 2: 3, "skip": 1, "giraffe": 1}, row_size=2, max_players=2).total_cards == 8
    # The standard deck leaves 55 - 36 - 5 = 14 cards at least for the piles.
    with pytest.raises(InvalidRulesetError, match="TM25"):
        Ruleset.custom(dict.fromkeys(CARDS[:6], 4) | {Card.WILD: 2}, row_size=6, max_players=6)


def test_a_deck_that_cannot_complete_a_row_is_refused() -> None:
    """TM11, TM21: each position needs its number or a wild; a missing number needs a wild of its own."""
    with pytest.raises(InvalidRulesetError, match="no 3"):
        Ruleset.custom({1: 3, 2: 3, "elephant": 3}, row_size=3, max_players=2)
    assert Ruleset.custom({1: 3, 2: 3, "wild": 3, "elephant": 3}, row_size=3, max_players=2).row_size == 3
    with pytest.raises(InvalidRulesetError, match="no 2, 3"):
        Ruleset.custom({1: 3, "wild": 1, "elephant": 3}, row_size=3, max_players=2)


@pytest.mark.parametrize(
    ("counts", "row_size", "seats", "stuck"),
    [
        # Stage one's stall: no wild and a single 1, which two one-card rows can hold out of reach.
        ({1: 1, "giraffe": 6}, 1, 2, "numbered 1 (1) and every wild (0) at position 1 "),
        ({1: 2, "giraffe": 6}, 1, 2, "numbered 1 (2) and every wild (0) at position 1 "),
        # A missing number with one wild: three seats can hold the wild at position 3.
        ({1: 4, 2: 4, "wild": 1, "elephant": 3}, 3, 3, "numbered 3 (0) and every wild (1) at position 3 "),
        # Scarce 1s and 2s together: four seats hold 3 + 3 + 2 cards at positions 1 and 2.
        ({1: 3, 2: 3, 3: 5, "wild": 2, "giraffe": 9}, 3, 4, "numbered 1, 2 (6) and every wild (2) at positions 1, 2 "),
        # Every number as often as there are seats and no wild: the rows can hold all of one number.
        ({1: 2, 2: 2, "giraffe": 3}, 2, 2, "numbered 1 (2) and every wild (0) at position 1 "),
    ],
)
def test_a_deck_whose_rounds_could_stall_is_refused_naming_the_positions(
    counts: dict[str | int, int], row_size: int, seats: int, stuck: str
) -> None:
    """TME4, TME5: for every set N of positions, N's numbers and the wilds must outnumber seats x |N|."""
    with pytest.raises(InvalidRulesetError, match="TME5") as caught:
        Ruleset.custom(counts, row_size=row_size, max_players=seats)
    assert stuck in caught.value.reason
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("counts", "row_size", "seats"),
    [
        ({1: 3, "giraffe": 6}, 1, 2),  # three 1s: two rows cannot hold them all
        ({1: 2, "wild": 1, "giraffe": 6}, 1, 2),  # a wild makes up for the third 1
        ({1: 2, 2: 2, "wild": 1, "giraffe": 3}, 2, 2),  # 2 + 1 > 2 for each position, 5 > 4 for both
        ({1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, "wild": 1, "giraffe": 6}, 6, 6),  # one wild is enough for six
    ],
)
def test_a_deck_that_cannot_stall_is_accepted(counts: dict[str | int, int], row_size: int, seats: int) -> None:
    """TME5: the condition is met: one card more than the rows can hold out of reach, for every set of positions."""
    assert Ruleset.custom(counts, row_size=row_size, max_players=seats).max_players == seats


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_the_standard_deck_cannot_stall_with_any_row_or_seat_count(size: int) -> None:
    """TME5: six of each number and four wilds outnumber what six rows can hold, for every set of positions."""
    for seats in range(2, 7):
        assert Ruleset.custom(row_size=size, max_players=seats).row_size == size
    # With no wilds, six rows could hold all six copies of one number: the standard deck needs its wilds.
    with pytest.raises(InvalidRulesetError, match="TME5"):
        Ruleset.custom(dict.fromkeys(CARDS[:6], 6) | {"giraffe": 19}, row_size=size, max_players=6)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"counts": {"joker": 1}}, "not a card"),
        ({"counts": {1: -1}}, "below 0"),
        ({"counts": {1: True}}, "whole number"),
        ({"counts": [1, 2]}, "mapping"),
        ({"row_size": 2.0}, "row_size must be a whole number"),
        ({"min_players": 1}, "TM2"),
        ({"max_players": 7}, "TM2"),
        ({"min_players": 4, "max_players": 3}, "below min_players"),
        ({"name": ""}, "name"),
    ],
)
def test_custom_refuses_each_kind_of_bad_argument_with_a_typed_error(
    arguments: dict[str, object], message: str
) -> None:
    """A custom rule set is checked when it is made: InvalidRulesetError (a ValueError) naming the problem."""
    with pytest.raises(InvalidRulesetError, match=message) as caught:
        Ruleset.custom(**arguments)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)


def test_the_constructor_checks_as_custom_does() -> None:
    """Building a Ruleset directly runs the same checks: a counts tuple of the wrong length, an unknown preset."""
    with pytest.raises(InvalidRulesetError, match="12 counts"):
        Ruleset((6, 6, 6))
    with pytest.raises(InvalidRulesetError, match="no preset named 'long'"):
        Ruleset.preset("long")
    assert Ruleset.custom() == Ruleset(Ruleset.standard().counts, name="custom")


_UNTYPED: Any = Ruleset
"""Ruleset as an untyped caller sees it: these tests pass what the types forbid, as a careless caller would."""

_TME5_AFTER_TM25: Final = (
    "a round could stall for ever (TME5): 2 rows can hold every card numbered 1 (2) and every wild (0) at "
    "position 1 of the rows, out of everybody's reach; these cards must number more than 2 (add copies or wilds, "
    "or allow fewer seats)"
)


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        pytest.param(
            lambda: Ruleset((6, 6, 6)), "counts must be a tuple of 12 counts, one per card, got (6, 6, 6)", id="short"
        ),
        pytest.param(lambda: _UNTYPED.custom({3: "2"}), "the count of 3 must be a whole number, got '2'", id="text"),
        pytest.param(lambda: Ruleset.custom({3: True}), "the count of 3 must be a whole number, got True", id="bool"),
        pytest.param(
            lambda: Ruleset.custom({3: -1}), "the count of 3 is -1: a count below 0 is impossible", id="negative"
        ),
        pytest.param(
            lambda: Ruleset.custom({"giraffe": 2**48 + 1}),
            "the count of giraffe is 281474976710657: at most 281474976710656 (2**48), so that every pile a game "
            "makes can be saved",
            id="above-max-count",
        ),
        pytest.param(lambda: _UNTYPED.custom(row_size=2.0), "row_size must be a whole number, got 2.0", id="row-float"),
        pytest.param(lambda: Ruleset.custom(row_size=0), "row_size is 0: a row has 1 to 6 cards (TM24)", id="row-0"),
        pytest.param(lambda: Ruleset.custom(row_size=7), "row_size is 7: a row has 1 to 6 cards (TM24)", id="row-7"),
        pytest.param(lambda: _UNTYPED.custom(min_players="2"), "min_players must be a whole number, got '2'", id="min"),
        pytest.param(lambda: _UNTYPED.custom(max_players="6"), "max_players must be a whole number, got '6'", id="max"),
        pytest.param(
            lambda: Ruleset.custom(min_players=1), "min_players is 1: a game needs at least 2 players (TM2)", id="one"
        ),
        pytest.param(
            lambda: Ruleset.custom(min_players=4, max_players=3), "max_players 3 is below min_players 4", id="range"
        ),
        pytest.param(
            lambda: Ruleset.custom(max_players=7), "max_players 7 is above the supported 6 (TM2)", id="seven-seats"
        ),
        pytest.param(lambda: Ruleset.custom(name="  "), "name must be a non-empty string, got '  '", id="blank"),
        pytest.param(
            lambda: Ruleset.custom({2: 3, "elephant": 9}, row_size=2, max_players=2),
            "no row of 2 can be completed: the deck has no 1 and 0 wild(s) to stand in",
            id="no-1",
        ),
        pytest.param(
            lambda: Ruleset.custom({1: 2, 2: 2, "skip": 1}, row_size=2, max_players=2),
            "5 cards are too few (TM25): 2 rows of 2 and up to 1 Skip(s) waiting leave nothing to draw; the deck "
            "needs 6 or more",
            id="tm25",
        ),
        # Two Skips, two seats: one Skip at most waits (the mover never has one), so 4 cards leave one to draw;
        # the deck is refused by TME5 instead, which TM25 could never be without (a deck past TME5 has a card to
        # draw whatever the rows and Skips hold).
        pytest.param(
            lambda: Ruleset.custom({1: 2, "skip": 2}, row_size=1, max_players=2), _TME5_AFTER_TM25, id="tm25-skips"
        ),
        pytest.param(
            lambda: _UNTYPED.custom([1, 2]), "counts must be a mapping of cards to counts, got [1, 2]", id="list"
        ),
        pytest.param(
            lambda: _UNTYPED.preset(3), "no preset named 3; the presets are standard, short", id="preset-not-text"
        ),
    ],
)
def test_each_rule_set_refused_gives_its_whole_reason(build: Any, reason: str) -> None:
    """TME4: the whole reason, word for word (a match on part of it lets a reworded or emptied message through)."""
    with pytest.raises(InvalidRulesetError) as caught:
        build()
    assert caught.value.reason == reason
    assert str(caught.value) == reason


def test_a_preset_name_that_is_not_text_is_refused_with_the_presets_named() -> None:
    """TME4: Ruleset.preset of anything but a name of a preset, a list even, says which presets there are."""
    with pytest.raises(InvalidRulesetError) as caught:
        Ruleset.preset(["standard"])  # type: ignore[arg-type]
    assert caught.value.reason == "no preset named ['standard']; the presets are standard, short"


def test_a_count_may_be_max_count_itself_and_no_more() -> None:
    """TME4: a count of MAX_COUNT (2**48) is allowed (of wilds, of giraffes); one above it is refused."""
    for card in (Card.WILD, Card.GIRAFFE):
        counts = dict(TM1_COUNTS)
        assert Ruleset.custom({**counts, card: MAX_COUNT}).counts[card.value - 1] == MAX_COUNT
        with pytest.raises(InvalidRulesetError, match=rf"is {MAX_COUNT + 1}: at most {MAX_COUNT} \(2\*\*48\)"):
            Ruleset.custom({**counts, card: MAX_COUNT + 1})
