"""The end and the score: R15 when the game ends, R16 bonus tiles, R17 the score, R18 the winner."""

from __future__ import annotations

import pytest

from cheekymonkey import (
    Animal,
    Decision,
    GameNotOverError,
    InvalidStateError,
    Phase,
    Place,
    Reveal,
    Ruleset,
    ScoreSheet,
    SeatScore,
    Stop,
    is_terminal,
    new_game,
    score,
    score_counts,
    score_stacks,
)
from tests.helpers import E, G, H, K, L, M, P, S, draws, make, play

ALL_BUT_ONE_MONKEY = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 9

# --- R15: the end -------------------------------------------------------------------------------------


def test_game_ends_when_the_last_token_is_stacked() -> None:
    """R15: stopping with the bag empty leaves no token in the bag or in front: the game is over."""
    state = play(make((ALL_BUT_ONE_MONKEY, (), ()), seat=2), Reveal(M), Stop())
    assert state == make((ALL_BUT_ONE_MONKEY, (), (M,)), seat=0, phase=Phase.OVER)
    assert is_terminal(state)
    assert state.bag_size == 0


def test_game_goes_on_while_tokens_are_in_front_even_with_the_bag_empty() -> None:
    """R15: an empty bag alone does not end the game while tokens are still in front."""
    state = play(make((ALL_BUT_ONE_MONKEY, ()), seat=1), Reveal(M))
    assert state.bag_size == 0
    assert state.phase is Phase.DECIDE
    assert not is_terminal(state)


def test_game_goes_on_while_the_bag_has_tokens() -> None:
    """R15: a stop that leaves tokens in the bag passes the turn: the game is not over."""
    state = play(new_game(2), *draws(E, S), Stop(), Place(S))
    assert state == make(((S, E), ()), seat=1)
    assert state.phase is Phase.CHANCE
    assert not is_terminal(state)
    assert state.bag_size == 50


def test_score_refuses_a_game_that_is_not_over() -> None:
    """R15: the final score exists only after the end; before, GameNotOverError."""
    with pytest.raises(GameNotOverError, match="CHANCE"):
        score(new_game(2))


# --- R16: bonus tiles ---------------------------------------------------------------------------------


def _row(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(animal.name.lower(), 0) for animal in Animal)


def test_strict_majority_takes_the_tile_and_a_tie_gives_it_to_nobody() -> None:
    """R16: 3 Seals beat 2 and 1 and take the Seal tile; 2 Hippos against 2 Hippos give no Hippo tile."""
    sheet = score_counts([_row(seal=3, hippo=2), _row(seal=2, hippo=2), _row(seal=1)], Ruleset.standard())
    assert sheet.tile_holders == (None, 0, None, None, None, None, None, None)
    assert [s.tiles for s in sheet.seats] == [(S,), (), ()]


def test_three_way_tie_gives_the_tile_to_nobody() -> None:
    """R16: when three players share the most Lions nobody gets the Lion tile."""
    sheet = score_counts([_row(lion=3), _row(lion=3), _row(lion=3)], Ruleset.standard())
    assert sheet.tile_holders[Animal.LION] is None


def test_tile_needs_at_least_one_token() -> None:
    """R16: an animal nobody holds gives its tile to nobody, even though 0 ties 0 for everyone."""
    sheet = score_counts([_row(seal=1), _row()], Ruleset.standard())
    assert sheet.tile_holders == (None, 0, None, None, None, None, None, None)
    # A lone seat with nothing is "more than every other seat" vacuously, yet takes no tile.
    alone = score_counts([_row(seal=1)], Ruleset.standard())
    assert alone.tile_holders == (None, 0, None, None, None, None, None, None)
    assert alone.totals == (5,)  # one Seal and the Seal tile (4)


def test_one_token_against_none_takes_the_tile() -> None:
    """R16: a single token is a strict majority over players with none."""
    sheet = score_counts([_row(), _row(), _row(elephant=1)], Ruleset.standard())
    assert sheet.tile_holders[Animal.ELEPHANT] == 2


# --- R17: the score -----------------------------------------------------------------------------------


def test_score_is_tokens_plus_tile_values() -> None:
    """R17: each seat scores one per token plus the value of each tile it took (R2 values: the counts)."""
    stacks = [(E, E, S, M, M, M), (E, S, S, H), (K,)]
    sheet = score_stacks(stacks, Ruleset.standard())
    # Seat 0: 6 tokens + Elephant 3 + Monkey 10. Seat 1: 4 + Seal 4 + Hippo 5. Seat 2: 1 + Kangaroo 8.
    assert sheet == ScoreSheet(
        seats=(
            SeatScore(0, (2, 1, 0, 0, 0, 0, 0, 3), (E, M), 6, 13, 19, 10),
            SeatScore(1, (1, 2, 1, 0, 0, 0, 0, 0), (S, H), 4, 9, 13, 5),
            SeatScore(2, (0, 0, 0, 0, 0, 1, 0, 0), (K,), 1, 8, 9, 8),
        ),
        tile_holders=(0, 1, 1, None, None, 2, None, 0),
        winners=(0,),
        decided_by=Decision.SCORE,
    )
    assert sheet.totals == (19, 13, 9)


def test_two_elephants_score_less_than_one_monkey() -> None:
    """R2, R17: two Elephants and their tile (3) make 5; one Monkey and its tile (10) make 11, and win."""
    sheet = score_stacks([[E, E], [M]], Ruleset.standard())
    assert sheet.totals == (5, 11)
    assert (sheet.winners, sheet.decided_by) == ((1,), Decision.SCORE)


def test_score_of_a_finished_game_uses_its_stacks() -> None:
    """R17: score(state) of a finished game equals score_stacks of its stacks under its rules."""
    left = (E,) * 3 + (S,) * 4 + (H,) * 5 + (G,) * 6
    right = (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 10
    over = make((left, right))
    assert over.phase is Phase.OVER
    sheet = score(over)
    assert sheet == score_stacks((left, right), Ruleset.standard())
    # 18 tokens + 3 + 4 + 5 + 6 against 34 tokens + 7 + 8 + 9 + 10.
    assert sheet.totals == (36, 68)
    assert sheet.winners == (1,)
    assert sheet.decided_by is Decision.SCORE


# --- R18: the winner ----------------------------------------------------------------------------------


def test_highest_score_wins_outright() -> None:
    """R18: one highest score wins, decided by score."""
    sheet = score_counts([_row(seal=1, hippo=1), _row(seal=2)], Ruleset.standard())
    # Seat 0: 2 tokens + the Hippo tile (5). Seat 1: 2 tokens + the Seal tile (4).
    assert sheet.totals == (7, 6)
    assert (sheet.winners, sheet.decided_by) == ((0,), Decision.SCORE)


def test_tie_is_broken_by_the_highest_single_tile() -> None:
    """R18: tied on 12, the seat holding the Lion tile (9) beats the seat whose best tile is the Hippo (5)."""
    rows = [_row(lion=3), _row(hippo=2, seal=1)]
    sheet = score_counts(rows, Ruleset.standard())
    # Seat 0: 3 + 9 = 12. Seat 1: 3 + 5 + 4 = 12.
    assert sheet.totals == (12, 12)
    assert [s.best_tile for s in sheet.seats] == [9, 5]
    assert (sheet.winners, sheet.decided_by) == ((0,), Decision.TIE_BREAK)


def test_monkey_tile_holder_wins_a_tie_against_the_elephant_tile_holder() -> None:
    """R18: rows [E]+[L]*7, [M], [L]*7 score (11, 11, 7); the Monkey tile (10) beats the Elephant tile (3)."""
    sheet = score_stacks([[E] + [L] * 7, [M], [L] * 7], Ruleset.standard())
    assert sheet.tile_holders == (0, None, None, None, None, None, None, 1)  # 7 Lions against 7: no Lion tile
    assert sheet.totals == (11, 11, 7)
    assert [s.best_tile for s in sheet.seats] == [3, 10, None]
    assert (sheet.winners, sheet.decided_by) == ((1,), Decision.TIE_BREAK)


def test_monkey_tile_holder_wins_a_two_seat_tie_against_more_tiles() -> None:
    """R18: one Monkey (1 + 10) ties three Elephants and a Seal (4 + 3 + 4); the single best tile, 10, wins."""
    sheet = score_stacks([[M], [E, E, E, S]], Ruleset.standard())
    assert sheet.totals == (11, 11)
    assert [s.best_tile for s in sheet.seats] == [10, 4]
    assert (sheet.winners, sheet.decided_by) == ((0,), Decision.TIE_BREAK)


def test_a_forced_two_seat_game_is_won_by_the_holder_of_the_big_animals_tiles() -> None:
    """R2, R17, R18: a whole forced game where the count values and the reversed ones crown different seats.

    Each turn draws one forced token and stops. Seat 0 ends with every Elephant, Seal, Hippo and Giraffe
    (their tiles are worth 3 + 4 + 5 + 6 = 18) and seat 1 with most Pandas, Kangaroos, Lions and Monkeys
    (7 + 8 + 9 + 10 = 34); both have 26 tokens. With the values reversed (Elephant 10 ... Monkey 3) the
    same game would go to seat 0, 60 to 44.
    """
    seat0 = [E] * 3 + [S] * 4 + [H] * 5 + [G] * 6 + [P] * 3 + [K] * 3 + [L] * 2
    seat1 = [P] * 4 + [K] * 5 + [L] * 7 + [M] * 10
    assert len(seat0) == len(seat1) == 26
    state = new_game(2)
    for mine, theirs in zip(seat0, seat1, strict=True):
        state = play(state, Reveal(mine), Stop(), Reveal(theirs), Stop())
    assert state.phase is Phase.OVER
    sheet = score(state)
    assert sheet.tile_holders == (0, 0, 0, 0, 1, 1, 1, 1)
    assert sheet.totals == (44, 60)
    assert (sheet.winners, sheet.decided_by) == ((1,), Decision.SCORE)
    reversed_values = Ruleset(Ruleset.standard().counts, (10, 9, 8, 7, 6, 5, 4, 3), name="reversed")
    assert score_stacks(state.stacks, reversed_values).winners == (0,)


def test_tied_seat_with_a_tile_beats_tied_seats_without() -> None:
    """R18: three seats tie on 10; only seat 0 holds a tile (the Giraffe), so it wins the tie-break."""
    rows = [_row(giraffe=4), _row(monkey=5, kangaroo=4, elephant=1), _row(monkey=5, kangaroo=4, elephant=1)]
    sheet = score_counts(rows, Ruleset.standard())
    assert sheet.tile_holders == (None, None, None, 0, None, None, None, None)
    assert sheet.totals == (10, 10, 10)
    assert [s.best_tile for s in sheet.seats] == [6, None, None]
    assert (sheet.winners, sheet.decided_by) == ((0,), Decision.TIE_BREAK)


def test_tie_without_tiles_is_a_shared_win() -> None:
    """R18: if none of the tied seats holds a tile they share the win."""
    rows = [_row(seal=1, hippo=1), _row(seal=1, hippo=1), _row()]
    sheet = score_counts(rows, Ruleset.standard())
    assert sheet.tile_holders == (None,) * 8
    assert sheet.totals == (2, 2, 0)
    assert (sheet.winners, sheet.decided_by) == ((0, 1), Decision.SHARED)


def test_tile_held_outside_the_tie_does_not_break_it() -> None:
    """R18: seats 0 and 1 tie on 10 without tiles; seat 2's Kangaroo tile (9 points in all) changes nothing."""
    rows = [_row(monkey=5, lion=4, elephant=1), _row(monkey=5, lion=4, elephant=1), _row(kangaroo=1)]
    sheet = score_counts(rows, Ruleset.standard())
    assert sheet.tile_holders == (None, None, None, None, None, 2, None, None)
    assert sheet.totals == (10, 10, 9)
    assert (sheet.winners, sheet.decided_by) == ((0, 1), Decision.SHARED)


def test_equal_best_tiles_share_the_win_with_repeated_custom_values() -> None:
    """R18: with custom values that repeat, tied seats whose best tiles are equal share the win."""
    ruleset = Ruleset.custom(
        {Animal.ELEPHANT: 4, Animal.SEAL: 4, Animal.HIPPO: 4},
        bonus_values={Animal.ELEPHANT: 5, Animal.SEAL: 5, Animal.HIPPO: 1},
    )
    sheet = score_counts([_row(elephant=2), _row(seal=2), _row(hippo=1)], ruleset)
    assert sheet.totals == (7, 7, 2)
    assert [s.best_tile for s in sheet.seats] == [5, 5, 1]
    assert (sheet.winners, sheet.decided_by) == ((0, 1), Decision.SHARED)


def test_repeated_values_still_break_a_tie_when_best_tiles_differ() -> None:
    """R18: with repeated custom values the highest single tile still decides when it differs."""
    ruleset = Ruleset.custom(
        {Animal.ELEPHANT: 4, Animal.SEAL: 4, Animal.HIPPO: 4},
        bonus_values={Animal.ELEPHANT: 4, Animal.SEAL: 2, Animal.HIPPO: 2},
    )
    sheet = score_counts([_row(elephant=2), _row(seal=1, hippo=1)], ruleset)
    assert sheet.totals == (6, 6)
    assert (sheet.winners, sheet.decided_by) == ((0,), Decision.TIE_BREAK)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        pytest.param([], "there are no seats to score", id="no-seats"),
        pytest.param([(1, 2)], r"seat 0's counts must be 8 non-negative integers, got \(1, 2\)", id="short-row"),
        pytest.param([(0, 0, 0, 0, 0, 0, 0, -1)], r"seat 0's counts .*got \(0, 0, 0, 0, 0, 0, 0, -1\)", id="negative"),
        pytest.param([(0, 0, 0, 0, 0, 0, 0, True)], r"seat 0's counts .*got \(0, 0, 0, 0, 0, 0, 0, True\)", id="bool"),
    ],
)
def test_score_counts_refuses_rows_that_are_not_counts(rows: list[tuple[int, ...]], message: str) -> None:
    """R17: scoring needs one non-negative integer count per animal per seat."""
    with pytest.raises(InvalidStateError, match=message):
        score_counts(rows, Ruleset.standard())


def test_score_stacks_refuses_a_token_that_is_not_an_animal() -> None:
    """R17: a stack holding something other than an Animal cannot be scored."""
    with pytest.raises(InvalidStateError, match="not an Animal"):
        score_stacks([(E, 3)], Ruleset.standard())  # type: ignore[list-item]


def test_stop_result_is_scored_by_height_and_tiles() -> None:
    """R17, R15, E6: a one-token game under a tiny custom rule set ends at once and scores 1 + the tile (1)."""
    ruleset = Ruleset.custom({Animal.SEAL: 1})
    state = play(new_game(2, ruleset=ruleset), Reveal(S), Stop())
    assert state == make(((S,), ()), seat=1, ruleset=ruleset, phase=Phase.OVER)
    sheet = score(state)
    assert sheet.totals == (2, 0)  # the one Seal, and the Seal tile worth its count in this rule set, 1
    assert sheet.winners == (0,)
