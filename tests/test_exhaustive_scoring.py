"""Every finished 2-seat table of the standard game, scored by the engine and by an independent scorer.

A finished 2-seat table is fixed by how many tokens of each animal seat 0 holds (seat 1 holds the rest),
so there are 4 * 5 * 6 * ... * 11 = 6,652,800 of them. Each one goes through the engine's
``score_counts`` and is compared with what the rulings say it scores: who takes each tile (R16), both
totals (R17), the winners and how they were decided (R18), and each seat's bonus and best tile.

The independent side is the reference scorer (``tests/reference_scorer.py``) specialised to two seats
and spread over the table so that it costs almost nothing per table: an animal's tile, and so its part
of each total, depends only on how that animal is split, so those parts are worked out once per animal
and split (with the reference's own R16 function) and summed down a nested loop. The specialisation is
itself checked against the plain reference scorer. The tables are cut into 20 slices (by how the
Elephants and the Seals are split) and checked in a pool of two processes, the machine's two cores.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Final, NamedTuple

import pytest

from cheekymonkey import Decision, Ruleset, score_counts
from tests.reference_scorer import STANDARD_VALUES, Outcome, reference_score, tile_holder

COUNTS: Final = (3, 4, 5, 6, 7, 8, 9, 10)
"""R1's counts, Elephant to Monkey, written out."""
TOKENS: Final = sum(COUNTS)
TABLES: Final = 6_652_800
"""4 * 5 * ... * 11: the ways to split each animal between two seats."""


class Split(NamedTuple):
    """One animal split between the seats: seat 0's share, the tile's holder, and what each seat gains."""

    mine: int
    holder: int | None
    bonus0: int
    bonus1: int


def _splits(animal: int) -> tuple[Split, ...]:
    """Every split of ``animal``'s tokens between seat 0 and seat 1, with R16's holder and R2's value."""
    splits = []
    for mine in range(COUNTS[animal] + 1):
        holder = tile_holder([mine, COUNTS[animal] - mine])
        value = STANDARD_VALUES[animal]
        splits.append(Split(mine, holder, value if holder == 0 else 0, value if holder == 1 else 0))
    return tuple(splits)


SPLITS: Final = tuple(_splits(animal) for animal in range(len(COUNTS)))


def _decide(total0: int, total1: int, best0: int, best1: int) -> tuple[tuple[int, ...], str]:
    """R18 for two seats (a best tile of 0 means none; the standard values are all at least 3)."""
    if total0 != total1:
        return ((0,) if total0 > total1 else (1,)), "score"
    if best0 == best1:  # neither holds a tile (equal non-zero bests cannot happen with distinct values)
        return (0, 1), "shared"
    return ((0,) if best0 > best1 else (1,)), "tie-break"


class _Partial(NamedTuple):
    """The sums down the nested loop: seat 0's row so far, the holders, tokens, bonuses and best tiles."""

    row0: tuple[int, ...]
    row1: tuple[int, ...]
    holders: tuple[int | None, ...]
    tokens0: int
    bonus0: int
    bonus1: int
    best0: int
    best1: int


def _extend(partial: _Partial, animal: int, split: Split) -> _Partial:
    return _Partial(
        (*partial.row0, split.mine),
        (*partial.row1, COUNTS[animal] - split.mine),
        (*partial.holders, split.holder),
        partial.tokens0 + split.mine,
        partial.bonus0 + split.bonus0,
        partial.bonus1 + split.bonus1,
        max(partial.best0, split.bonus0),
        max(partial.best1, split.bonus1),
    )


LAST: Final = len(COUNTS) - 1
"""The Monkey, whose loop runs once per table; the loops over the other animals run once per 11 tables."""


def _partials(partial: _Partial, animal: int) -> Iterator[_Partial]:
    """Every way to extend ``partial`` over the animals from ``animal`` up to, not including, the last."""
    if animal == LAST:
        yield partial
        return
    for split in SPLITS[animal]:
        yield from _partials(_extend(partial, animal, split), animal + 1)


def _finish(partial: _Partial, split: Split) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], Outcome]:
    """The whole table from ``partial`` and the last animal's split, and the outcome the rulings give it."""
    mine = split.mine
    tokens0 = partial.tokens0 + mine
    total0 = tokens0 + partial.bonus0 + split.bonus0
    total1 = TOKENS - tokens0 + partial.bonus1 + split.bonus1
    best0 = max(partial.best0, split.bonus0)
    best1 = max(partial.best1, split.bonus1)
    winners, decision = _decide(total0, total1, best0, best1)
    rows = ((*partial.row0, mine), (*partial.row1, COUNTS[LAST] - mine))
    return rows, Outcome((*partial.holders, split.holder), (total0, total1), winners, decision)


def _tables(partial: _Partial, animal: int) -> Iterator[tuple[tuple[tuple[int, ...], tuple[int, ...]], Outcome]]:
    """Every finished table that extends ``partial`` from ``animal`` on, with the outcome it should have."""
    for before_last in _partials(partial, animal):
        for split in SPLITS[LAST]:
            yield _finish(before_last, split)


_EMPTY: Final = _Partial((), (), (), 0, 0, 0, 0, 0)
_DECISIONS: Final = {decision.value: decision for decision in Decision}


def check_slice(elephants: int, seals: int) -> tuple[int, list[str]]:
    """Check every table in which seat 0 holds ``elephants`` Elephants and ``seals`` Seals.

    Returns:
        How many tables were checked, and a description of each of the first few disagreements.
    """
    ruleset = Ruleset.standard()
    assert ruleset.counts == COUNTS, "the standard counts changed: R1 says 3 to 10"
    start = _extend(_extend(_EMPTY, 0, SPLITS[0][elephants]), 1, SPLITS[1][seals])
    checked = 0
    wrong: list[str] = []
    for (row0, row1), expected in _tables(start, 2):
        sheet = score_counts((row0, row1), ruleset)
        seat0, seat1 = sheet.seats
        checked += 1
        if (
            sheet.tile_holders != expected.holders
            or seat0.total != expected.totals[0]
            or seat1.total != expected.totals[1]
            or sheet.winners != expected.winners
            or sheet.decided_by is not _DECISIONS[expected.decision]
            or seat0.tokens + seat1.tokens != TOKENS
            or seat0.bonus + seat0.tokens != seat0.total
        ) and len(wrong) < 5:
            wrong.append(f"{(row0, row1)}: engine {sheet!r}, rulings {expected!r}")
    return checked, wrong


def _table_of(shares: list[int]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], Outcome]:
    """The specialisation's table and outcome for seat 0 holding ``shares`` (one count per animal)."""
    partial = _EMPTY
    for animal in range(LAST):
        partial = _extend(partial, animal, SPLITS[animal][shares[animal]])
    return _finish(partial, SPLITS[LAST][shares[LAST]])


def test_the_two_seat_specialisation_agrees_with_the_reference_scorer() -> None:
    """The fast independent side gives exactly what the plain reference scorer gives, on 3,000 random tables."""
    rng = random.Random(9)
    extremes = [[0] * 8, list(COUNTS), [count // 2 for count in COUNTS], [(count + 1) // 2 for count in COUNTS]]
    randoms = [[rng.randint(0, count) for count in COUNTS] for _ in range(3000)]
    decisions = set()
    for shares in extremes + randoms:
        (row0, row1), expected = _table_of(shares)
        assert row0 == tuple(shares)
        assert [a + b for a, b in zip(row0, row1, strict=True)] == list(COUNTS)
        assert reference_score((row0, row1), STANDARD_VALUES) == expected, shares
        decisions.add(expected.decision)
    # No shared win: four animals have odd counts, so some seat always holds a tile, and R18 decides.
    assert decisions == {"score", "tie-break"}


def test_the_enumeration_lists_each_table_of_a_slice_once() -> None:
    """One slice holds 6 * 7 * 8 * 9 * 10 * 11 distinct tables, so the 20 slices hold all 6,652,800."""
    start = _extend(_extend(_EMPTY, 0, SPLITS[0][1]), 1, SPLITS[1][2])
    rows = [row0 for (row0, _), _ in _tables(start, 2)]
    assert len(rows) == len(set(rows)) == TABLES // (4 * 5)
    assert all(row[:2] == (1, 2) for row in rows)


def test_a_slice_finds_a_wrong_scorer() -> None:
    """The check can fail: under the reversed values (the old reading), the engine disagrees on a slice."""
    reversed_values = tuple(reversed(STANDARD_VALUES))
    row0, row1 = (2, 0, 0, 0, 0, 0, 0, 0), (1, 4, 5, 6, 7, 8, 9, 10)
    wrong = Ruleset(COUNTS, reversed_values)
    expected = reference_score((row0, row1), STANDARD_VALUES)
    sheet = score_counts((row0, row1), wrong)
    assert sheet.totals != expected.totals
    assert sheet.totals == reference_score((row0, row1), reversed_values).totals


@pytest.mark.slow
def test_every_finished_two_seat_standard_table_scores_as_the_rulings_say() -> None:
    """R16-R18, exhaustively: all 6,652,800 finished 2-seat tables, engine against the independent scorer."""
    slices = [(elephants, seals) for elephants in range(COUNTS[0] + 1) for seals in range(COUNTS[1] + 1)]
    # Spawned workers: they import the package afresh and share nothing with the test process.
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(check_slice, *zip(*slices, strict=True)))
    assert sum(checked for checked, _ in results) == TABLES
    wrong = [line for _, lines in results for line in lines]
    assert not wrong, "\n".join(wrong)
