"""Scoring (R16-R19): pure functions of the stacks and the rules, giving a sheet a front end can show."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import ClassVar, Final, cast

import attrs

from cheekymonkey._values import Frozen, attrs_view
from cheekymonkey._values import count_sum as _size
from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.state import GameState, Phase, drawn
from cheekymonkey.errors import GameNotOverError, InvalidStateError

__all__ = ["Decision", "ScoreSheet", "SeatScore", "score", "score_counts", "score_stacks", "sheet_problems"]


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


# SeatScore and ScoreSheet are plain classes, so that mypyc compiles them natively with this module: their
# frozen, value behaviour comes from Frozen, and attrs' view of their fields (set below) keeps
# attrs.fields, attrs.asdict and cattrs working as for the attrs classes they were.


class SeatScore(Frozen):
    """One seat's line on the score sheet."""

    __slots__ = ("best_tile", "bonus", "counts", "seat", "tiles", "tokens", "total")
    __match_args__: ClassVar = ("seat", "counts", "tiles", "tokens", "bonus", "total", "best_tile")

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

    def __init__(
        self,
        seat: int,
        counts: tuple[int, ...],
        tiles: tuple[Animal, ...],
        tokens: int,
        bonus: int,
        total: int,
        best_tile: int | None,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "best_tile", best_tile)

    def _values(self) -> tuple[object, ...]:
        return (self.seat, self.counts, self.tiles, self.tokens, self.bonus, self.total, self.best_tile)


class ScoreSheet(Frozen):
    """Scores for every seat, who holds each tile, and who wins.

    >>> from cheekymonkey import Animal, Ruleset
    >>> sheet = score_stacks([(Animal.SEAL, Animal.SEAL), (Animal.SEAL,)], Ruleset.standard())
    >>> [s.total for s in sheet.seats], sheet.winners, sheet.decided_by
    ([6, 1], (0,), <Decision.SCORE: 'score'>)
    """

    __slots__ = ("decided_by", "seats", "tile_holders", "winners")
    __match_args__: ClassVar = ("seats", "tile_holders", "winners", "decided_by")

    seats: tuple[SeatScore, ...]
    """One line per seat, in seat order."""
    tile_holders: tuple[int | None, ...]
    """Per animal, the seat that took its bonus tile, or None (a tie, nobody has any, no tiles)."""
    winners: tuple[int, ...]
    """The winning seats, in seat order; more than one when they share the win."""
    decided_by: Decision
    """How the winners were found."""

    def __init__(
        self,
        seats: tuple[SeatScore, ...],
        tile_holders: tuple[int | None, ...],
        winners: tuple[int, ...],
        decided_by: Decision,
    ) -> None:
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "tile_holders", tile_holders)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "decided_by", decided_by)

    def _values(self) -> tuple[object, ...]:
        return (self.seats, self.tile_holders, self.winners, self.decided_by)

    def __str__(self) -> str:
        # print(sheet) shows the sheet, as print(state) shows the table, drawn by the text the package gave
        # (cheekymonkey/__init__.py: the core never imports display code); repr(sheet) stays the full value.
        return drawn(self)

    @property
    def totals(self) -> tuple[int, ...]:
        """Every seat's total score, in seat order."""
        return tuple([s.total for s in self.seats])


attrs_view(
    SeatScore,
    [
        ("seat", int, attrs.NOTHING),
        ("counts", tuple[int, ...], attrs.NOTHING),
        ("tiles", tuple[Animal, ...], attrs.NOTHING),
        ("tokens", int, attrs.NOTHING),
        ("bonus", int, attrs.NOTHING),
        ("total", int, attrs.NOTHING),
        ("best_tile", int | None, attrs.NOTHING),
    ],
)
attrs_view(
    ScoreSheet,
    [
        ("seats", tuple[SeatScore, ...], attrs.NOTHING),
        ("tile_holders", tuple[int | None, ...], attrs.NOTHING),
        ("winners", tuple[int, ...], attrs.NOTHING),
        ("decided_by", Decision, attrs.NOTHING),
    ],
)


def score_counts(counts: Sequence[Sequence[int]], ruleset: Ruleset) -> ScoreSheet:
    """Score seats given as token counts per animal (one row per seat, indexed by animal).

    Raises:
        InvalidStateError: If a row is not one non-negative integer per animal.
    """
    rows: list[tuple[int, ...]] = []
    for i, given in enumerate(counts):
        # Typed object until checked: compiled, an int-typed value is converted before it could be checked.
        row: tuple[object, ...] = tuple(given)
        if len(row) != len(ANIMALS) or not all(_is_count(c) for c in row):
            raise InvalidStateError(f"seat {i}'s counts must be {len(ANIMALS)} non-negative integers, got {row!r}")
        rows.append(cast(tuple[int, ...], row))
    if not rows:
        raise InvalidStateError("there are no seats to score")
    return _score_rows(rows, ruleset)


_INDICES: Final = tuple(range(len(ANIMALS)))


def _tally(rows: list[tuple[int, ...]], ruleset: Ruleset) -> tuple[list[int | None], list[int], list[int | None]]:
    """R16, R17: per animal the seat holding its tile (or None); per seat its bonus and its best tile (or None).

    The rows are checked: one count of 0 or more per animal, and at least one row. Plain loops over ints:
    compiled, they run natively, and a score is computed once per game (and once per playout of the search
    bot), so a simulator scores millions.
    """
    seats_n = len(rows)
    holders: list[int | None] = [None] * len(ANIMALS)
    bonus = [0] * seats_n
    best_tiles: list[int | None] = [None] * seats_n
    if ruleset.bonus_tiles:
        in_play = ruleset.counts
        values = ruleset.bonus_values
        for animal in _INDICES:
            if not in_play[animal]:
                continue
            # R16: strictly more than every other seat, and at least one token. ``holder`` is -1 while the
            # most so far is shared (or is nothing).
            most = 0
            holder = -1
            for seat in range(seats_n):
                count = rows[seat][animal]
                if count > most:
                    most = count
                    holder = seat
                elif count == most:
                    holder = -1
            if holder >= 0:
                holders[animal] = holder
                value = values[animal]
                bonus[holder] += value
                held_best = best_tiles[holder]
                if held_best is None or value > held_best:
                    best_tiles[holder] = value
    return holders, bonus, best_tiles


def _decide(totals: list[int], best_tiles: list[int | None]) -> tuple[tuple[int, ...], Decision]:
    """R17-R19: the winning seats, and how they were found, from each seat's total and best tile."""
    top = max(totals)
    tied = [seat for seat in range(len(totals)) if totals[seat] == top]
    if len(tied) == 1:
        return (tied[0],), _BY_SCORE
    # R18: the highest single tile breaks the tie; R19: without tiles the tied seats share.
    tied_best = [tile for tile in (best_tiles[seat] for seat in tied) if tile is not None]
    if not tied_best:
        return tuple(tied), _SHARED
    highest = max(tied_best)
    winners = tuple([seat for seat in tied if best_tiles[seat] == highest])
    return winners, _BY_TIE_BREAK if len(winners) == 1 else _SHARED


def _score_rows(rows: list[tuple[int, ...]], ruleset: Ruleset) -> ScoreSheet:
    # The rows are checked (see _tally).
    holders, bonus, best_tiles = _tally(rows, ruleset)
    tiles: list[list[Animal]] = [[] for _ in rows]
    for animal in _INDICES:
        holder = holders[animal]
        if holder is not None:
            tiles[holder].append(ANIMALS[animal])  # in animal order
    tokens = [_size(row) for row in rows]
    totals = [tokens[seat] + bonus[seat] for seat in range(len(rows))]
    winners, decided = _decide(totals, best_tiles)
    seats = tuple(
        [
            SeatScore(seat, rows[seat], tuple(tiles[seat]), tokens[seat], bonus[seat], totals[seat], best_tiles[seat])
            for seat in range(len(rows))
        ]
    )
    return ScoreSheet(seats, tuple(holders), winners, decided)


def _rows(stacks: tuple[tuple[Animal, ...], ...]) -> list[tuple[int, ...]]:
    # The count of each animal in each stack. A state's stacks hold only animals (every state is checked
    # or derived from one by a legal action), so there is nothing to check.
    rows = []
    for stack in stacks:
        row = [0] * len(ANIMALS)
        for token in stack:
            at: int = token  # compiled, indexing with an int is native; an Animal is a Python object there
            row[at] += 1
        rows.append(tuple(row))
    return rows


def _final_winners(state: GameState) -> tuple[int, ...]:
    """The winning seats of a finished game: ``score(state).winners`` without building the score sheet.

    For a search that plays games out by the thousand (:class:`~cheekymonkey.cheeky.bots.search.MCTSBot`).

    Raises:
        GameNotOverError: If the game has not ended.
    """
    if state.phase is not Phase.OVER:
        raise GameNotOverError(f"the game is not over: it is in phase {state.phase.name}")
    rows = _rows(state.stacks)
    _, bonus, best_tiles = _tally(rows, state.ruleset)
    totals = [_size(rows[seat]) + bonus[seat] for seat in range(len(rows))]
    return _decide(totals, best_tiles)[0]


_BY_SCORE: Final = Decision.SCORE
_BY_TIE_BREAK: Final = Decision.TIE_BREAK
_SHARED: Final = Decision.SHARED


def _is_count(value: object) -> bool:
    return is_whole_number(value) and value >= 0


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
    return _score_rows(_rows(state.stacks), state.ruleset)


# --- a score sheet's consistency -------------------------------------------------------------------------


def sheet_problems(sheet: ScoreSheet, ruleset: Ruleset | None = None) -> tuple[tuple[str, str], ...]:
    """What is wrong with a score sheet given from outside (a loaded document): nothing if scoring gives it.

    With ``ruleset``, the sheet must be what :func:`score_counts` gives for its own counts under it.
    Without one, the sheet must agree with itself (each line's tokens and total, the tile holders, the
    winners and how they were decided) and follow from its counts under rules that fit its tiles (R16-R18).

    Args:
        sheet: The sheet, its fields of the right types (a loader checks those first).
        ruleset: The rules it was scored under, if known.

    Returns:
        The problems of the first check that fails, each ``(where, reason)``: ``where`` is a path inside the
        sheet (``".seats[1].total"``, ``".tile_holders.lion"``; ``""`` for the sheet as a whole). Empty if
        the sheet is consistent.

    >>> sheet = score_stacks([(Animal.SEAL, Animal.SEAL), (Animal.SEAL,)], Ruleset.standard())
    >>> sheet_problems(sheet)
    ()
    >>> wrong = ScoreSheet(sheet.seats, sheet.tile_holders, (1,), sheet.decided_by)
    >>> sheet_problems(wrong)
    (('.winners', 'the winners must be among the top scorers [0], in order'),)
    """
    problems: list[tuple[str, str]] = []
    for i, line in enumerate(sheet.seats):
        where = f".seats[{i}]"
        if line.seat != i:
            problems.append((f"{where}.seat", f"line {i} is for seat {line.seat}"))
        if line.tokens != sum(line.counts):
            problems.append((f"{where}.tokens", f"{line.tokens} tokens, but the counts add up to {sum(line.counts)}"))
        if line.total != line.tokens + line.bonus:
            problems.append((f"{where}.total", f"total {line.total} is not tokens {line.tokens} + bonus {line.bonus}"))
    if problems:
        return tuple(problems)
    if not sheet.seats:
        return ((".seats", "a score sheet needs at least one seat"),)
    if ruleset is not None:
        if score_counts([line.counts for line in sheet.seats], ruleset) != sheet:
            return (("", "the score sheet does not follow from its counts under the rule set"),)
        return ()
    # Without the rule set, check what the sheet says of itself (R16-R18).
    for animal, holder in zip(ANIMALS, sheet.tile_holders, strict=True):
        name = animal.name.lower()
        if holder is not None:
            if holder >= len(sheet.seats):
                problems.append((f".tile_holders.{name}", f"seat {holder} is not on the sheet"))
                continue
            held = sheet.seats[holder].counts[animal]
            if any(line.counts[animal] >= held for line in sheet.seats if line.seat != holder):
                problems.append((f".tile_holders.{name}", f"seat {holder} does not hold the most {name} (R16)"))
    for i, line in enumerate(sheet.seats):
        tiles = tuple(a for a in ANIMALS if sheet.tile_holders[a] == i)
        if line.tiles != tiles:
            problems.append((f".seats[{i}].tiles", "the tiles do not match the tile holders"))
        if (line.best_tile is None) != (not tiles):
            problems.append((f".seats[{i}].best_tile", "a best tile needs a tile, and a tile a best tile"))
    top = max(line.total for line in sheet.seats)
    tied = {line.seat for line in sheet.seats if line.total == top}
    if not sheet.winners or not set(sheet.winners) <= tied or list(sheet.winners) != sorted(set(sheet.winners)):
        problems.append((".winners", f"the winners must be among the top scorers {sorted(tied)}, in order"))
    elif (sheet.decided_by is Decision.SCORE) != (len(tied) == 1) or (
        sheet.decided_by is Decision.SHARED and len(sheet.winners) < 2
    ):
        problems.append((".decided_by", f"{sheet.decided_by.value!r} does not fit {len(tied)} top scorers"))
    if problems:
        return tuple(problems)
    return _unfollowed(sheet)


def _tile_values(line: SeatScore) -> list[int] | tuple[str, str]:
    """Values for a seat's tiles that give its bonus and its best tile; or, if none can, what is wrong.

    The first tile is worth the best, the others share the rest, each worth 1 to the best.
    """
    tiles, bonus, best = len(line.tiles), line.bonus, line.best_tile
    if best is None or best < 1:
        return ("best_tile", f"a seat with tiles needs a best tile of 1 or more, not {best}")
    rest, others = bonus - best, tiles - 1
    if not others <= rest <= others * best:
        return ("bonus", f"a bonus of {bonus} is not {tiles} tiles each worth 1 to {best}, one of them {best}")
    values = [best]
    for left in range(others, 0, -1):
        value = min(best, rest - (left - 1))
        values.append(value)
        rest -= value
    return values


def _unfollowed(sheet: ScoreSheet) -> tuple[tuple[str, str], ...]:
    """Whether scoring the sheet's own counts gives the sheet, under rules that fit its tiles (R16-R18).

    A sheet carries no rule set, so this builds one from the sheet: every animal in play, tiles on if
    anybody took one, and tile values that give each seat its bonus and best tile. Any such rule set
    scores the counts alike, so the sheet must equal what :func:`score_counts` gives under it. Returns the
    first difference, or nothing.
    """
    values = [1] * len(ANIMALS)
    for i, line in enumerate(sheet.seats):
        if line.tiles:
            fitted = _tile_values(line)
            if isinstance(fitted, tuple):
                field, reason = fitted
                return ((f".seats[{i}].{field}", reason),)
            for animal, value in zip(line.tiles, fitted, strict=True):
                values[animal] = value
    tiles_on = any(holder is not None for holder in sheet.tile_holders)
    rules = Ruleset((1,) * len(ANIMALS), tuple(values), bonus_tiles=tiles_on, swap=False, name="sheet")
    expected = score_counts([line.counts for line in sheet.seats], rules)
    if expected == sheet:
        return ()
    for i, (want, got) in enumerate(zip(expected.seats, sheet.seats, strict=True)):
        for field in ("tiles", "bonus", "total", "best_tile"):
            if getattr(want, field) != getattr(got, field):
                reason = f"R16-R18: scoring the counts gives {getattr(want, field)!r}, not {getattr(got, field)!r}"
                return ((f".seats[{i}].{field}", reason),)
    for field in ("tile_holders", "winners", "decided_by"):
        want_value, got_value = getattr(expected, field), getattr(sheet, field)
        if want_value != got_value:
            return ((f".{field}", f"R16-R18: scoring the counts gives {want_value!r}, not {got_value!r}"),)
    raise AssertionError("unreachable: the sheets differ in some field")  # pragma: no cover
