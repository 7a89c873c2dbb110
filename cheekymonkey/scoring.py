"""Scoring (R16-R19): pure functions of the stacks and the rules, giving a sheet a front end can show."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

import attrs

from cheekymonkey.errors import GameNotOverError, InvalidStateError
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.state import GameState, Phase

__all__ = ["Decision", "ScoreSheet", "SeatScore", "score", "score_counts", "score_stacks"]

_INT_ONLY: Final = {int}


class Decision(enum.Enum):
    """How the winners were decided (R18, R19)."""

    SCORE = "score"
    """One seat had the highest score."""
    TIE_BREAK = "tie-break"
    """Several seats shared the highest score; the highest single bonus tile picked one."""
    SHARED = "shared"
    """Several seats share the win: the tie-break found no single seat (no tiles, or equal best tiles)."""

    def __str__(self) -> str:
        # A word, the same as in JSON documents: str(Decision.TIE_BREAK) == "tie-break".
        return self.value


@attrs.frozen(slots=True)
class SeatScore:
    """One seat's line on the score sheet."""

    seat: int
    """The seat."""
    counts: tuple[int, ...]
    """Tokens of each animal in the seat's stack, indexed by :class:`~cheekymonkey.Animal`."""
    tiles: tuple[Animal, ...]
    """The animals whose bonus tiles the seat took (R16), in animal order."""
    tokens: int
    """Tokens in the stack: one point each (R17)."""
    bonus: int
    """The total value of the seat's bonus tiles (R17)."""
    total: int
    """``tokens + bonus``: the score (R17)."""
    best_tile: int | None
    """The value of the seat's highest bonus tile, or None without one (the tie-break, R18)."""


@attrs.frozen(slots=True)
class ScoreSheet:
    """Scores for every seat, who holds each tile, and who wins.

    >>> from cheekymonkey import Animal, Ruleset
    >>> sheet = score_stacks([(Animal.SEAL, Animal.SEAL), (Animal.SEAL,)], Ruleset.standard())
    >>> [s.total for s in sheet.seats], sheet.winners, sheet.decided_by
    ([6, 1], (0,), <Decision.SCORE: 'score'>)
    """

    seats: tuple[SeatScore, ...]
    """One line per seat, in seat order."""
    tile_holders: tuple[int | None, ...]
    """Per animal, the seat that took its bonus tile, or None (a tie, nobody has any, no tiles)."""
    winners: tuple[int, ...]
    """The winning seats, in seat order; more than one when they share the win."""
    decided_by: Decision
    """How the winners were found."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Every seat's total score, in seat order."""
        return tuple(s.total for s in self.seats)


def score_counts(counts: Sequence[Sequence[int]], ruleset: Ruleset) -> ScoreSheet:
    """Score seats given as token counts per animal (one row per seat, indexed by animal).

    Raises:
        InvalidStateError: If a row is not one non-negative integer per animal.
    """
    # Plain loops over small tuples: this runs once per finished game and, in the exhaustive test, once
    # for each of the 6.6 million finished 2-seat tables, so it avoids generators where it can.
    width = len(ANIMALS)
    rows: list[tuple[int, ...]] = []
    for i, row in enumerate(counts):
        row = tuple(row)
        if len(row) != width or (
            set(map(type, row)) != _INT_ONLY and not all(isinstance(c, int) and not isinstance(c, bool) for c in row)
        ):
            raise InvalidStateError(f"seat {i}'s counts must be {width} non-negative integers, got {row!r}")
        if min(row) < 0:
            raise InvalidStateError(f"seat {i}'s counts must be {width} non-negative integers, got {row!r}")
        rows.append(row)
    if not rows:
        raise InvalidStateError("there are no seats to score")
    holders: list[int | None] = [None] * width
    tiles: list[list[Animal]] = [[] for _ in rows]
    bonus = [0] * len(rows)
    best_tile: list[int | None] = [None] * len(rows)
    if ruleset.bonus_tiles:
        in_play, values = ruleset.counts, ruleset.bonus_values
        for animal in ANIMALS:
            if not in_play[animal]:
                continue
            # R16: strictly more than every other seat, and at least one token.
            most, holder = 0, None
            for i, row in enumerate(rows):
                held = row[animal]
                if held > most:
                    most, holder = held, i
                elif held == most:
                    holder = None
            if holder is not None:
                holders[animal] = holder
                tiles[holder].append(animal)
                value = values[animal]
                bonus[holder] += value
                held_best = best_tile[holder]
                if held_best is None or value > held_best:
                    best_tile[holder] = value
    seats = []
    top = -1
    for i, row in enumerate(rows):
        tokens = sum(row)
        total = tokens + bonus[i]  # R17
        top = max(top, total)
        seats.append(SeatScore(i, row, tuple(tiles[i]), tokens, bonus[i], total, best_tile[i]))
    tied = [s for s in seats if s.total == top]
    winners: tuple[int, ...]
    if len(tied) == 1:
        winners, decided = (tied[0].seat,), Decision.SCORE
    else:
        # R18: the highest single tile breaks the tie; R19: without tiles the tied seats share.
        best_tiles = [s.best_tile for s in tied if s.best_tile is not None]
        if not best_tiles:
            winners = tuple(s.seat for s in tied)
        else:
            highest = max(best_tiles)
            winners = tuple(s.seat for s in tied if s.best_tile == highest)
        decided = Decision.TIE_BREAK if len(winners) == 1 else Decision.SHARED
    return ScoreSheet(tuple(seats), tuple(holders), winners, decided)


def score_stacks(stacks: Sequence[Sequence[Animal]], ruleset: Ruleset) -> ScoreSheet:
    """Score the given stacks, finished or not (R16-R19).

    Raises:
        InvalidStateError: If a stack holds something that is not an animal.
    """
    rows = []
    for i, stack in enumerate(stacks):
        row = [0] * len(ANIMALS)
        for token in stack:
            if not isinstance(token, Animal):
                raise InvalidStateError(f"seat {i}'s stack holds {token!r}, which is not an Animal")
            row[token] += 1
        rows.append(row)
    return score_counts(rows, ruleset)


def score(state: GameState) -> ScoreSheet:
    """The final score sheet of a finished game (R16-R19).

    For a game still going on, use :func:`score_stacks` with ``state.stacks``.

    Raises:
        GameNotOverError: If the game has not ended.
    """
    if state.phase is not Phase.OVER:
        raise GameNotOverError(f"the game is not over: it is in phase {state.phase.name}")
    return score_stacks(state.stacks, state.ruleset)
