"""Properties of scoring (R16-R19) over arbitrary count tables, for presets and custom rule sets."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from cheekymonkey import ANIMALS, Animal, Decision, Ruleset, ScoreSheet, score_counts
from tests.strategies import count_tables, custom_rulesets, presets, rulesets

Table = tuple[tuple[int, ...], ...]


@st.composite
def scored_tables(draw: st.DrawFn, *, finished: bool = False) -> tuple[Ruleset, Table]:
    """A rule set with tiles more often than not, and a count table for 2 to 6 seats."""
    ruleset = draw(st.one_of(rulesets(), custom_rulesets(max_count=4)))
    players = draw(st.integers(2, 6))
    return ruleset, draw(count_tables(ruleset, players, finished=finished))


def _expected_holder(table: Table, ruleset: Ruleset, animal: int) -> int | None:
    """R16 in its own words: the one seat with strictly more than every other seat, and at least one."""
    if not ruleset.bonus_tiles:
        return None
    for seat, row in enumerate(table):
        others = [other[animal] for i, other in enumerate(table) if i != seat]
        if row[animal] >= 1 and all(row[animal] > count for count in others):
            return seat
    return None


@given(scored_tables())
def test_each_tile_goes_to_the_one_seat_holding_strictly_the_most(case: tuple[Ruleset, Table]) -> None:
    """R16: a tile goes to at most one seat, and to a seat exactly when it holds strictly the most (and any)."""
    ruleset, table = case
    sheet = score_counts(table, ruleset)
    for animal in ANIMALS:
        holders = [s.seat for s in sheet.seats if animal in s.tiles]
        assert len(holders) <= 1
        expected = _expected_holder(table, ruleset, animal)
        assert sheet.tile_holders[animal] == expected
        assert holders == ([] if expected is None else [expected])


@given(scored_tables())
def test_total_of_all_scores_is_tokens_plus_awarded_tiles_and_bounded(case: tuple[Ruleset, Table]) -> None:
    """R17: the scores add up to the tokens plus the values of the tiles taken, at most tokens + all values."""
    ruleset, table = case
    sheet = score_counts(table, ruleset)
    tokens = sum(map(sum, table))
    awarded = sum(ruleset.bonus_values[a] for a in ANIMALS if sheet.tile_holders[a] is not None)
    assert sum(sheet.totals) == tokens + awarded
    assert sum(sheet.totals) <= ruleset.total_tokens + (sum(ruleset.bonus_values) if ruleset.bonus_tiles else 0)
    for seat in sheet.seats:
        assert (
            seat.total
            == seat.tokens + seat.bonus
            == sum(seat.counts) + sum(ruleset.bonus_values[a] for a in seat.tiles)
        )


@given(count_tables(Ruleset.standard(), 6, finished=True) | count_tables(Ruleset.standard(), 2, finished=True))
def test_standard_finished_game_scores_add_up_to_at_most_104(table: Table) -> None:
    """R17 with R1-R2: in a finished standard game the scores total 52 tokens plus at most 52 in tiles."""
    sheet = score_counts(table, Ruleset.standard())
    assert sum(s.tokens for s in sheet.seats) == 52
    assert 52 <= sum(sheet.totals) <= 104


def _relabelled(sheet: ScoreSheet, order: list[int]) -> tuple[object, ...]:
    """The sheet as it must read after seat ``order[k]`` becomes seat ``k``."""
    new_of = {old: new for new, old in enumerate(order)}
    return (
        tuple(sheet.totals[old] for old in order),
        tuple(sheet.seats[old].tiles for old in order),
        tuple(None if h is None else new_of[h] for h in sheet.tile_holders),
        tuple(sorted(new_of[w] for w in sheet.winners)),
        sheet.decided_by,
    )


@given(scored_tables(), st.randoms(use_true_random=False))
def test_relabelling_the_seats_relabels_the_sheet(case: tuple[Ruleset, Table], rng: random.Random) -> None:
    """R16-R18 name no seat: permuting the rows permutes the totals, tiles, holders and winners alike."""
    ruleset, table = case
    order = list(range(len(table)))
    rng.shuffle(order)
    sheet = score_counts(table, ruleset)
    moved = score_counts([table[old] for old in order], ruleset)
    assert (
        moved.totals,
        tuple(s.tiles for s in moved.seats),
        moved.tile_holders,
        moved.winners,
        moved.decided_by,
    ) == _relabelled(sheet, order)


@given(scored_tables(), st.data())
def test_one_more_token_never_lowers_own_score_or_raises_another(
    case: tuple[Ruleset, Table], data: st.DataObject
) -> None:
    """R16-R17: a seat gaining a token never scores less, and no other seat scores more."""
    ruleset, table = case
    seat = data.draw(st.integers(0, len(table) - 1), label="seat")
    animal = data.draw(st.sampled_from(ruleset.animals), label="animal")
    grown = [list(row) for row in table]
    grown[seat][animal] += 1
    before = score_counts(table, ruleset).totals
    after = score_counts(grown, ruleset).totals
    assert after[seat] >= before[seat] + 1
    assert all(after[i] <= before[i] for i in range(len(table)) if i != seat)


def _check_winners(table: Table, ruleset: Ruleset) -> Decision:
    """Assert R18-R19 on one table, in their own words; return how the winners were decided."""
    sheet = score_counts(table, ruleset)
    top = max(sheet.totals)
    tied = [s for s in sheet.seats if s.total == top]
    assert set(sheet.winners) <= {s.seat for s in tied}
    if len(tied) == 1:
        assert sheet.winners == (tied[0].seat,)
        assert sheet.decided_by is Decision.SCORE
        return sheet.decided_by
    best = max((s.best_tile or 0) for s in tied)
    expected = tuple(s.seat for s in tied if best == 0 or s.best_tile == best)
    assert sheet.winners == expected
    assert sheet.decided_by is (Decision.TIE_BREAK if len(expected) == 1 else Decision.SHARED)
    if sheet.decided_by is Decision.SHARED and best > 0:
        # R18's note: only repeated bonus values can leave seats with tiles tied.
        assert len({v for v in ruleset.bonus_values if v}) < len(ruleset.animals)
    return sheet.decided_by


@given(scored_tables())
def test_winners_follow_the_top_score_then_the_highest_tile(case: tuple[Ruleset, Table]) -> None:
    """R18-R19: the top score wins; a tie goes to the highest single tile; with no tile among them, all share."""
    _check_winners(case[1], case[0])


def _splits(count: int, players: int) -> list[tuple[int, ...]]:
    """Every way to put at most ``count`` tokens of one animal into ``players`` stacks."""
    return [s for s in itertools.product(range(count + 1), repeat=players) if sum(s) <= count]


def test_winners_follow_r18_on_every_table_of_a_small_rule_set() -> None:
    """R16-R18, exhaustively: every 2- and 3-seat table of a 3-animal rule set, ties with tiles included."""
    ruleset = Ruleset.custom({Animal.ELEPHANT: 2, Animal.SEAL: 3, Animal.MONKEY: 4})
    seen: set[Decision] = set()
    tables = 0
    for players in (2, 3):
        per_animal = [_splits(ruleset.counts[a], players) for a in ruleset.animals]
        for columns in itertools.product(*per_animal):
            table = [[0] * len(ANIMALS) for _ in range(players)]
            for animal, column in zip(ruleset.animals, columns, strict=True):
                for seat, count in enumerate(column):
                    table[seat][animal] = count
            rows = tuple(tuple(row) for row in table)
            for animal in ANIMALS:
                assert score_counts(rows, ruleset).tile_holders[animal] == _expected_holder(rows, ruleset, animal)
            seen.add(_check_winners(rows, ruleset))
            tables += 1
    assert seen == set(Decision)  # scores, tie-breaks and shared wins all occur
    assert tables == 6 * 10 * 15 + 10 * 20 * 35  # C(count + seats, seats) splits per animal


@st.composite
def distinct_value_tables(draw: st.DrawFn) -> tuple[Ruleset, Table]:
    """A rule set whose bonus values are all different, and a count table for 2 to 4 seats."""
    ruleset = draw(st.one_of(presets(), custom_rulesets(max_count=3, max_value=8, repeat_values=False)))
    return ruleset, draw(count_tables(ruleset, draw(st.integers(2, 4))))


@given(distinct_value_tables())
def test_distinct_bonus_values_never_leave_a_tie_with_tiles(case: tuple[Ruleset, Table]) -> None:
    """R18: with all bonus values different (every preset), a shared win means no winner holds a tile."""
    ruleset, table = case
    sheet = score_counts(table, ruleset)
    if sheet.decided_by is Decision.SHARED:
        assert all(sheet.seats[w].best_tile is None for w in sheet.winners)
