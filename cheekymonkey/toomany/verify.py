"""Proofs about *Too Many Monkeys* that hold for any deal: one turn's bounds, the piles, and rounds that end.

Four properties, each proved for every deal, not sampled:

- **TM11, a wild always has a place**, and **TME6, every turn ends**: one turn turns up at most as many cards
  as the row has face-down positions when it begins (so at most the row size), and takes at most
  3 actions for a row of 1 and ``3n - 1`` for a row of ``n >= 2`` (17 in the standard game). Proved by an
  exhaustive search of :class:`TurnModel`, a model of one turn written from the rules apart from the engine,
  which allows everything the rest of the table could allow (any card from chance, any number on the
  discard pile, a target or none for each special card), so a bound on the model bounds every real turn;
  the tests check that the model allows every step the engine takes, and replay the longest turns the search
  finds through the engine (so each bound is reached).
- **TM25, no draw finds both piles empty**: proved with the z3 SMT solver over every way the rows, the
  Skips waiting and the piles can hold a deck's cards; and, over symbolic decks, for every rule set that
  passes :class:`~cheekymonkey.toomany.Ruleset`'s check.
- **TME5, no round can stall**: proved with z3 over every table at a turn's start (every row, face up, face
  down known or unseen, with any cards hidden face down): some seat always has a position it can turn up
  with a card from the piles. Over symbolic decks, this holds for every deck that passes the rule set's
  check (``cheekymonkey.toomany.rules.stall_numbers``); a deck that fails it has a stuck table.

It needs the ``verify`` extra (z3): ``pip install 'cheekymonkey[verify]'``. The engine never imports this
module. Run ``python -m cheekymonkey.toomany.verify [short]`` for the report of a preset.

>>> from cheekymonkey.toomany import Ruleset
>>> report = verify(Ruleset.short(), players=(2, 3))
>>> report.all_proved, [(b.row_size, b.most_turned_up, b.most_steps) for b in report.bounds]
(True, [(1, 1, 3), (2, 2, 5), (3, 3, 8), (4, 4, 11)])
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError
from cheekymonkey.toomany.actions import (
    DECLINE,
    DRAW,
    PLACE_WILDS,
    RACCOON_TAKES,
    REVEALS,
    TAKE_BONUS,
    TAKE_DISCARD,
    Action,
)
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, FaceDown
from cheekymonkey.toomany.rules import MAX_PLAYERS, Ruleset
from cheekymonkey.toomany.state import GameState, Phase

try:
    import z3
except ImportError as error:  # pragma: no cover - the verify extra is installed in every test run
    raise ImportError(
        "cheekymonkey.toomany.verify needs z3: install it with pip install 'cheekymonkey[verify]' "
        "(or, in a clone of the repository: pip install '.[verify]')"
    ) from error

__all__ = [
    "Finding",
    "Report",
    "TurnBounds",
    "TurnModel",
    "TurnPoint",
    "TurnStep",
    "pile_check",
    "prove_no_stall",
    "prove_pile_check_suffices",
    "prove_piles_never_empty",
    "prove_stall_check_suffices",
    "row_codes",
    "stall_check",
    "turn_bounds",
    "verify",
]

# -- one turn, modelled apart from the engine -------------------------------------------------------------

UNSEEN: Final = "?"
"""A face-down card nobody has seen (``None`` in a row)."""
KNOWN: Final = "k"
"""A number turned face down by a Do Not Disturb, at its own position (``FaceDown(k)``)."""
KNOWN_WILD: Final = "w"
"""A wild turned face down by a Do Not Disturb (``FaceDown(Card.WILD)``)."""
UP: Final = "N"
"""A face-up number, at its own position."""
UP_WILD: Final = "W"
"""A face-up wild."""
_DOWN: Final = frozenset({UNSEEN, KNOWN, KNOWN_WILD})


def row_codes(row: Sequence[object]) -> str:
    """A row as the turn model sees it: one letter per position, ``?``, ``k``, ``w``, ``N`` or ``W``.

    >>> row_codes((Card.ONE, None, FaceDown(Card.THREE), Card.WILD, FaceDown(Card.WILD)))
    'N?kWw'
    """
    codes = []
    for slot in row:
        if slot is None:
            codes.append(UNSEEN)
        elif isinstance(slot, FaceDown):
            codes.append(KNOWN_WILD if slot.card is Card.WILD else KNOWN)
        else:
            codes.append(UP_WILD if slot is Card.WILD else UP)
    return "".join(codes)


_TURN_PHASES: Final = frozenset(
    {
        Phase.START,
        Phase.DRAW,
        Phase.CHOSEN_DRAW,
        Phase.TURN_UP,
        Phase.WILD,
        Phase.BONUS,
        Phase.RACCOON,
        Phase.DISTURB,
        Phase.SKIP,
    }
)


@attrs.frozen(slots=True)
class TurnPoint:
    """A moment of a turn as :class:`TurnModel` sees it: the phase, the mover's row, the card in hand.

    Everything else on the table (the piles, the other rows, the Skips) only decides which of the model's
    branches are open, and the model keeps every branch open.
    """

    phase: Phase
    """What happens next: a choice, a draw of chance, or a decision with a card in hand."""
    row: str
    """The mover's row, one letter per position (see :func:`row_codes`)."""
    hand: Card | None
    """The card in hand (the wild, the number offered the bonus, the Do Not Disturb or the Skip), or None."""

    @classmethod
    def of(cls, state: GameState) -> TurnPoint:
        """The point of a turn that ``state`` is at.

        Raises:
            InvalidGameError: If the game is over.
        """
        if state.phase not in _TURN_PHASES:
            raise InvalidGameError("the game is over: no turn is being played")
        return cls(state.phase, row_codes(state.rows[state.seat]), state.hand)


@attrs.frozen(slots=True)
class TurnStep:
    """One action of a turn in the model, and where it leads."""

    action: Action
    """The action (for a Do Not Disturb or a Skip, :class:`~cheekymonkey.toomany.Decline` stands for every
    answer: each ends the turn the same way for the mover's row)."""
    after: TurnPoint | None
    """The point it leads to, or None if the turn is over (it ended, or the row was completed)."""
    turned_up: int
    """How many face-down positions of the row it turned face up (a wild placed counts; the bonus's swap,
    a face-up wild for its number, does not)."""


_Point = tuple[Phase, str, Card | None]
_Step = tuple[Action, "_Point | None", int]


class TurnModel:
    """One turn of *Too Many Monkeys* for a row of ``row_size`` positions, as the rules describe it (TM6-TM18).

    A model of the mover's row and hand only, written from the rules apart from the engine. Where the rest of
    the table decides what may happen, it allows everything: chance may reveal any card, the discard top may
    be any number the player may take (TM6 as 001 words it), the raccoon may find any number whose position
    is face down, and a Do Not Disturb or a Skip may have a target or none. So every turn the engine plays is
    a path of the model, and a bound on the model's paths bounds every real turn.

    Args:
        row_size: The row's size, 1 to 6.

    Raises:
        InvalidRulesetError: If ``row_size`` is not 1 to 6.
    """

    def __init__(self, row_size: int) -> None:
        if not is_whole_number(row_size) or not 1 <= row_size <= MAX_NUMBER:
            raise InvalidRulesetError(f"row_size is {row_size!r}: a row has 1 to {MAX_NUMBER} cards (TM24)")
        self.row_size = row_size
        self.wilds_in_hand = 0
        """How many of the steps worked out so far put a wild in hand (each is worked out once)."""
        self.homeless_wilds: list[str] = []
        """The rows in which a wild came into hand with no face-down position to go to (TM11 broken)."""
        self._memo: dict[_Point, list[_Step]] = {}
        self._reveals: dict[str, list[_Step]] = {}

    def starts(self) -> list[TurnPoint]:
        """Every point a turn can begin at: each row with a face-down position, beginning with or without a choice."""
        return [TurnPoint(*point) for point in self._starts()]

    def _starts(self) -> list[_Point]:
        points: list[_Point] = []
        for letters in itertools.product((UNSEEN, KNOWN, KNOWN_WILD, UP, UP_WILD), repeat=self.row_size):
            row = "".join(letters)
            if any(code in _DOWN for code in row):
                points.append((Phase.START, row, None))
                points.append((Phase.DRAW, row, None))
        return points

    def steps(self, point: TurnPoint) -> tuple[TurnStep, ...]:
        """Every step the rules allow from ``point``, under every arrangement of the rest of the table."""
        return tuple(
            TurnStep(action, None if after is None else TurnPoint(*after), turned)
            for action, after, turned in self._steps((point.phase, point.row, point.hand))
        )

    def _steps(self, point: _Point) -> list[_Step]:
        found = self._memo.get(point)
        if found is None:
            found = self._memo[point] = self._compute(*point)
        return found

    def _compute(self, phase: Phase, row: str, hand: Card | None) -> list[_Step]:
        steps: list[_Step] = []
        if phase is Phase.START:
            # TM6: draw, or take a number from the discard pile that is not face up in the row.
            steps.append((DRAW, (Phase.CHOSEN_DRAW, row, None), 0))
            for card in CARDS[:MAX_NUMBER]:
                if card > self.row_size or row[card - 1] != UP:
                    self._play(steps, TAKE_DISCARD, row, card)
        elif phase is Phase.DRAW or phase is Phase.CHOSEN_DRAW or phase is Phase.TURN_UP:
            # TM19: chance may reveal any card (the same steps at the three chance phases: worked out once).
            revealed = self._reveals.get(row)
            if revealed is None:
                revealed = self._reveals[row] = []
                for card in CARDS:
                    self._play(revealed, REVEALS[card - 1], row, card)
            steps.extend(revealed)
        elif phase is Phase.WILD:
            # TM11: the wild goes on any face-down position; the card there comes into hand.
            for index, code in enumerate(row):
                if code in _DOWN:
                    placed = row[:index] + UP_WILD + row[index + 1 :]
                    if code == UNSEEN:
                        steps.append((PLACE_WILDS[index], (Phase.TURN_UP, placed, None), 1))
                    else:
                        known = CARDS[index] if code == KNOWN else Card.WILD
                        self._play(steps, PLACE_WILDS[index], placed, known, 1)
        elif phase is Phase.BONUS:
            # TM12: take the bonus (the number takes the wild's place, the wild comes into hand), or decline.
            assert hand is not None
            steps.append((DECLINE, None, 0))
            self._play(steps, TAKE_BONUS, row[: hand - 1] + UP + row[hand:], Card.WILD)
        elif phase is Phase.RACCOON:
            # TM14: take a number whose position is face down, or nothing.
            steps.append((DECLINE, None, 0))
            for index, code in enumerate(row):
                if code in _DOWN:
                    self._play(steps, RACCOON_TAKES[index], row, CARDS[index])
        else:
            # TM15, TM16: turning a card down, giving the Skip and declining all end the turn.
            steps.append((DECLINE, None, 0))
        return steps

    def _play(self, steps: list[_Step], action: Action, row: str, card: Card, turned: int = 0) -> None:
        """Add the steps of ``action``, which puts ``card`` in hand: the chain it starts, to a choice or the end."""
        size = self.row_size
        while True:
            if card <= MAX_NUMBER:
                if card > size:
                    steps.append((action, None, turned))  # TM9: too high
                    return
                code = row[card - 1]
                if code == UP:
                    steps.append((action, None, turned))  # TM9: a duplicate
                    return
                if code == UP_WILD:
                    steps.append((action, (Phase.BONUS, row, card), turned))  # TM12
                    return
                # TM7: the number goes face up at its position; the card there comes into hand.
                row = row[: card - 1] + UP + row[card:]
                turned += 1
                if UNSEEN not in row and KNOWN not in row and KNOWN_WILD not in row:
                    steps.append((action, None, turned))  # TM21: the round is won
                    return
                if code == UNSEEN:
                    steps.append((action, (Phase.TURN_UP, row, None), turned))
                    return
                if code == KNOWN_WILD:  # TM15: a known card comes up, no chance
                    card = Card.WILD
                continue
            if card is Card.WILD:
                # TM11: the wild goes on a face-down position, and there must be one.
                self.wilds_in_hand += 1
                down = sum(row.count(code) for code in _DOWN)
                if not down:
                    self.homeless_wilds.append(row)
                    steps.append((action, None, turned))
                elif down > 1:
                    steps.append((action, (Phase.WILD, row, card), turned))
                else:
                    # TM18: one place only; it was the last face-down position (TM21).
                    steps.append((action, None, turned + 1))
                return
            # TM14, TM15, TM16: a raccoon, a Do Not Disturb or a Skip with nothing to act on ends the turn;
            # with something, the player chooses. TM13: a giraffe or an elephant ends it.
            steps.append((action, None, turned))
            if card is Card.RACCOON:
                if any(row[index] in _DOWN for index in range(size)):
                    steps.append((action, (Phase.RACCOON, row, None), turned))
            elif card is Card.DO_NOT_DISTURB:
                steps.append((action, (Phase.DISTURB, row, card), turned))
            elif card is Card.SKIP:
                steps.append((action, (Phase.SKIP, row, card), turned))
            return


@attrs.frozen(slots=True)
class TurnBounds:
    """What one turn can do for a row of :attr:`row_size`, over every turn the model allows (TM11, TME6)."""

    row_size: int
    """The row's size."""
    points: int
    """How many points of a turn the search visited."""
    most_turned_up: int
    """The most face-down positions one turn turns face up."""
    most_steps: int
    """The most actions one turn takes, chance's included, from its start to its end."""
    by_face_down: tuple[tuple[int, int], ...]
    """For a turn that begins with 1, 2, ... face-down positions: the most it turns up, and the most actions."""
    wilds_in_hand: int
    """How many of the model's steps put a wild in hand; in each it had a place to go (TM11)."""
    longest: tuple[TurnStep, ...]
    """A turn of :attr:`most_steps` actions, from :attr:`longest_start`."""
    longest_start: TurnPoint
    """Where that turn begins."""
    fullest: tuple[TurnStep, ...]
    """A turn that turns up :attr:`most_turned_up` positions, from :attr:`fullest_start`."""
    fullest_start: TurnPoint
    """Where that turn begins."""


class _Longest:
    """Longest paths of the turn model by actions and by positions turned up, memoised, refusing a cycle."""

    def __init__(self, model: TurnModel) -> None:
        self.model = model
        self.best: dict[_Point, tuple[int, int, _Step, _Step]] = {}
        self.open: set[_Point] = set()

    def __call__(self, point: _Point) -> tuple[int, int]:
        found = self.best.get(point)
        if found is not None:
            return found[0], found[1]
        if point in self.open:
            raise AssertionError(f"a turn can go on for ever: the model returns to {TurnPoint(*point)!r}")
        self.open.add(point)
        steps = turned = -1
        by_steps = by_turned = None
        for step in self.model._steps(point):
            after = step[1]
            more_steps, more_turned = (0, 0) if after is None else self(after)
            if 1 + more_steps > steps:
                steps, by_steps = 1 + more_steps, step
            if step[2] + more_turned > turned:
                turned, by_turned = step[2] + more_turned, step
        self.open.discard(point)
        assert by_steps is not None  # every point has a step
        assert by_turned is not None
        self.best[point] = (steps, turned, by_steps, by_turned)
        return steps, turned

    def path(self, point: _Point, which: int) -> tuple[TurnStep, ...]:
        found = []
        current: _Point | None = point
        while current is not None:
            best = self.best[current]
            action, after, turned = best[2] if which == 0 else best[3]
            found.append(TurnStep(action, None if after is None else TurnPoint(*after), turned))
            current = after
        return tuple(found)


def turn_bounds(row_size: int) -> TurnBounds:
    """Search every turn of the model for a row of ``row_size``, from every start; return its bounds (TME6).

    Every path of the model ends (the search would raise on a cycle), so every turn ends; a wild that came
    into hand with no place to go would be recorded (TM11). A few seconds for a row of 6.

    Raises:
        InvalidRulesetError: If ``row_size`` is not 1 to 6.
        AssertionError: If the model had a cycle or a wild without a place (the rules as modelled broken).

    >>> bounds = turn_bounds(2)
    >>> bounds.most_turned_up, bounds.most_steps, bounds.by_face_down
    (2, 5, ((1, 3), (2, 5)))
    """
    model = TurnModel(row_size)
    longest = _Longest(model)
    per_down: dict[int, list[int]] = {}
    best_steps: tuple[int, _Point] | None = None
    best_turned: tuple[int, _Point] | None = None
    for start in model._starts():
        steps, turned = longest(start)
        down = sum(start[1].count(code) for code in _DOWN)
        most = per_down.setdefault(down, [0, 0])
        most[0], most[1] = max(most[0], turned), max(most[1], steps)
        if best_steps is None or steps > best_steps[0]:
            best_steps = (steps, start)
        if best_turned is None or turned > best_turned[0]:
            best_turned = (turned, start)
    assert best_steps is not None
    assert best_turned is not None
    if model.homeless_wilds:
        raise AssertionError(f"a wild came into hand with no face-down position, row {model.homeless_wilds[0]!r}")
    return TurnBounds(
        row_size,
        len(longest.best),
        best_turned[0],
        best_steps[0],
        tuple((per_down[down][0], per_down[down][1]) for down in sorted(per_down)),
        model.wilds_in_hand,
        longest.path(best_steps[1], 0),
        TurnPoint(*best_steps[1]),
        longest.path(best_turned[1], 1),
        TurnPoint(*best_turned[1]),
    )


@attrs.frozen(slots=True)
class Finding:
    """The verdict on one claim: proved, or refuted by a table z3 found."""

    name: str
    """A short identifier, ``"piles-never-empty"``."""
    statement: str
    """The claim in words, naming its rules."""
    proved: bool
    """Whether the claim holds for every table."""
    detail: str = ""
    """More about the verdict: what was searched, or what goes wrong in the counterexample."""
    counterexample: str | None = None
    """For a refuted claim, a table that breaks it, as text."""


def _check_seats(ruleset: Ruleset | None, players: int) -> None:
    if not is_whole_number(players):
        raise InvalidGameError(f"players must be an integer, got {players!r}")
    low, high = (2, MAX_PLAYERS) if ruleset is None else (ruleset.min_players, ruleset.max_players)
    if not low <= players <= high:
        raise InvalidGameError(f"{players} players: the rules allow {low} to {high} (TM2)")


def _solve(constraints: Sequence[Any]) -> Any | None:
    """A model of ``constraints``, or None if there is none (the claim they deny is proved)."""
    solver = z3.Solver()
    solver.add(*constraints)
    verdict = solver.check()
    if verdict == z3.unsat:
        return None
    if verdict != z3.sat:  # pragma: no cover - linear integer arithmetic over bounded counts is decidable
        raise RuntimeError(f"z3 could not decide: {solver.reason_unknown()}")
    return solver.model()


def _value(model: Any, term: Any) -> int:
    return int(model.eval(term, model_completion=True).as_long())


class _Deck:
    """A deck as z3 terms: concrete counts, or one symbolic count per kind (each 0 or more)."""

    def __init__(self, ruleset: Ruleset | None) -> None:
        if ruleset is None:
            self.counts = [z3.Int(f"deck_{card.name.lower()}") for card in CARDS]
            self.facts = [count >= 0 for count in self.counts]
        else:
            self.counts = [z3.IntVal(count) for count in ruleset.counts]
            self.facts = []

    def __getitem__(self, card: Card) -> Any:
        return self.counts[card - 1]

    def total(self) -> Any:
        return z3.Sum(self.counts)


def _pile_constraints(deck: _Deck, players: int, row_size: int) -> tuple[list[Any], Any]:
    """A table at a draw (TM25): rows, Skips waiting and piles holding the deck; returns it and the piles' size."""
    facts: list[Any] = list(deck.facts)
    sizes = [z3.Int(f"row_{seat}") for seat in range(players)]
    facts += [z3.And(size >= 1, size <= row_size) for size in sizes]  # TM22, TM24: rows shrink from the first
    # Each kind of card is in the rows, waiting as a Skip, or in the piles; the hand is empty at a draw.
    rows = [z3.Int(f"rows_{card.name.lower()}") for card in CARDS]
    piles = [z3.Int(f"piles_{card.name.lower()}") for card in CARDS]
    skips = [z3.Int(f"skip_waiting_{seat}") for seat in range(players)]
    facts += [z3.Or(skip == 0, skip == 1) for skip in skips]
    facts.append(skips[0] == 0)  # TM16: the seat drawing (seat 0, say) has no Skip waiting, or it was skipped
    waiting = z3.Sum(skips)
    for card, in_rows, in_piles in zip(CARDS, rows, piles, strict=True):
        facts += [in_rows >= 0, in_piles >= 0]
        facts.append(deck[card] == in_rows + in_piles + (waiting if card is Card.SKIP else 0))
    facts.append(z3.Sum(rows) == z3.Sum(sizes))  # TM3: every position of a row holds one card
    return facts, z3.Sum(piles)


def _pile_table(model: Any, players: int, row_size: int) -> str:
    sizes = [_value(model, z3.Int(f"row_{seat}")) for seat in range(players)]
    waiting = [_value(model, z3.Int(f"skip_waiting_{seat}")) for seat in range(players)]
    piles = sum(_value(model, z3.Int(f"piles_{card.name.lower()}")) for card in CARDS)
    return f"rows of {sizes}, Skips waiting {waiting}, {piles} card(s) in the piles"


def prove_piles_never_empty(ruleset: Ruleset, players: int) -> Finding:
    """Prove with z3 that no draw under ``ruleset`` with ``players`` seats finds both piles empty (TM25).

    Over every table at a draw: rows of 1 to the first round's size (a round's winner has fewer, TM22),
    the mover with no Skip waiting and each other seat with one or none, the hand empty, and each kind of
    card split between the rows, the Skips and the piles as the deck's counts allow.

    Raises:
        InvalidGameError: If the rule set does not allow ``players`` seats.

    >>> prove_piles_never_empty(Ruleset.standard(), 6).proved
    True
    """
    _check_seats(ruleset, players)
    facts, piles = _pile_constraints(_Deck(ruleset), players, ruleset.row_size)
    model = _solve([*facts, piles == 0])
    statement = f"no draw finds both piles empty, {players} seats, rows of {ruleset.row_size} at most (TM25)"
    if model is None:
        return Finding("piles-never-empty", statement, True)
    return Finding(
        "piles-never-empty", statement, False, "every card is held", _pile_table(model, players, ruleset.row_size)
    )


def pile_check(deck: Sequence[Any], players: int, row_size: int) -> Any:
    """:class:`~cheekymonkey.toomany.Ruleset`'s check for TM25 as a z3 term: more cards than rows and Skips hold."""
    skips = deck[Card.SKIP - 1]
    most_waiting = z3.If(skips < players - 1, skips, players - 1)
    return z3.Sum(list(deck)) > players * row_size + most_waiting


def prove_pile_check_suffices(players: int, row_size: int) -> Finding:
    """Prove with z3 that every deck passing the rule set's TM25 check leaves a card to draw (TM25, TME4).

    The deck is symbolic: every count of every kind of card at once, for ``players`` seats (the rule set's
    most) and rows of ``row_size`` at most.

    >>> prove_pile_check_suffices(6, 6).proved
    True
    """

    def empty_piles(deck: _Deck) -> list[Any]:
        facts, piles = _pile_constraints(deck, players, row_size)
        return [*facts, pile_check(deck.counts, players, row_size), piles == 0]

    return _every_deck(
        "pile-check-suffices",
        f"every deck that passes the TM25 check leaves a card to draw, {players} seats, rows of {row_size}",
        players,
        row_size,
        empty_piles,
        lambda model: _pile_table(model, players, row_size),
    )


def _every_deck(
    name: str,
    statement: str,
    players: int,
    row_size: int,
    broken: Callable[[_Deck], list[Any]],
    table: Callable[[Any], str],
) -> Finding:
    """Prove over symbolic decks that no table satisfies ``broken``'s constraints; else show the one z3 found."""
    _check_seats(None, players)
    TurnModel(row_size)  # checks the row size
    model = _solve(broken(_Deck(None)))
    if model is None:
        return Finding(name, statement, True, "over every deck (symbolic counts)")
    return Finding(name, statement, False, counterexample=table(model))


# How a seat's row holds a position, in the stall model: the five ways a position holds a card.
_WAYS: Final = (UNSEEN, KNOWN, KNOWN_WILD, UP, UP_WILD)


def _stall_constraints(deck: _Deck, players: int, row_size: int) -> list[Any]:
    """Tables at a turn's start where nobody can ever turn a position up (TME5), counted position by position.

    For each position p, how many seats hold it in each of the five ways (``seats_<way>_<p>``), and how many
    of the unseen cards are each number (``unseen_<k>``), a wild or anything else. Every real table has such
    counts, so a claim proved over them holds for every table.
    """
    facts: list[Any] = list(deck.facts)
    seats = {(way, p): z3.Int(f"seats_{way}_{p}") for way in _WAYS for p in range(1, row_size + 1)}
    facts += [count >= 0 for count in seats.values()]
    reaching = [z3.Sum([seats[way, p] for way in _WAYS]) for p in range(1, row_size + 1)]
    facts.append(reaching[0] == players)  # every row has position 1
    facts += [z3.And(later <= earlier) for earlier, later in itertools.pairwise(reaching)]  # rows of 1 to n
    down = z3.Sum([seats[way, p] for way in (UNSEEN, KNOWN, KNOWN_WILD) for p in range(1, row_size + 1)])
    facts.append(down >= players)  # TM21: the round is not won, so every row has a face-down position
    unseen = {card: z3.Int(f"unseen_{card}") for card in (*range(1, row_size + 1), "wild", "other")}
    facts += [count >= 0 for count in unseen.values()]
    facts.append(z3.Sum(list(unseen.values())) == z3.Sum([seats[UNSEEN, p] for p in range(1, row_size + 1)]))
    others = [card for card in CARDS if card is not Card.WILD and card > row_size]
    facts.append(unseen["other"] <= z3.Sum([deck[card] for card in others]))
    # TM7, TM11: a number lies face up or turned down at its own position only; wilds anywhere. Every wild
    # is in the rows, none in the piles where a draw could bring it (the hand is empty at a turn's start).
    wilds = z3.Sum([seats[way, p] for way in (KNOWN_WILD, UP_WILD) for p in range(1, row_size + 1)])
    facts.append(wilds + unseen["wild"] == deck[Card.WILD])
    for p in range(1, row_size + 1):
        held = seats[KNOWN, p] + seats[UP, p] + unseen[p]
        facts.append(held <= deck[Card(p)])
        # A position still needs a card if it is face down, or holds a face-up wild the bonus could free;
        # then every copy of its number is in the rows.
        needed = seats[UNSEEN, p] + seats[KNOWN, p] + seats[KNOWN_WILD, p] + seats[UP_WILD, p] >= 1
        facts.append(z3.Implies(needed, held == deck[Card(p)]))
    return facts


def stall_check(deck: Sequence[Any], players: int, row_size: int) -> Any:
    """The rule set's check for TME5 as a z3 term, for ``players`` seats and rows of ``row_size``.

    For every non-empty set N of positions, the copies of N's numbers and the wilds together outnumber
    ``players * |N|``: each of the 2^n - 1 sets written out, not the shortcut
    ``cheekymonkey.toomany.rules.stall_numbers`` takes.
    """
    wilds = deck[Card.WILD - 1]
    return z3.And(
        [
            z3.Sum([deck[index] for index in chosen]) + wilds > players * size
            for size in range(1, row_size + 1)
            for chosen in itertools.combinations(range(row_size), size)
        ]
    )


def _stall_table(model: Any, row_size: int) -> str:
    words = {UNSEEN: "unseen", KNOWN: "turned down", KNOWN_WILD: "a wild turned down", UP: "face up",
             UP_WILD: "a face-up wild"}  # fmt: skip
    parts = []
    for p in range(1, row_size + 1):
        held = [f"{count} {words[way]}" for way in _WAYS if (count := _value(model, z3.Int(f"seats_{way}_{p}")))]
        parts.append(f"position {p}: {', '.join(held) or 'no row'}")
    hidden = [(card, _value(model, z3.Int(f"unseen_{card}"))) for card in (*range(1, row_size + 1), "wild", "other")]
    shown = ", ".join(f"{count} x {card}" for card, count in hidden if count)
    return "; ".join(parts) + f"; the unseen cards: {shown or 'none'}"


def prove_no_stall(ruleset: Ruleset, players: int) -> Finding:
    """Prove with z3 that no round under ``ruleset`` with ``players`` seats can stall (TME5).

    A round stalls at a turn's start when nobody can ever turn a position up: every position of every row
    that still needs a card (face down, or holding a face-up wild that the bonus could free) needs a number
    none of whose copies is in the piles, and no wild is in the piles. z3 searches every table: each row of
    1 to the first round's size, each position unseen, turned down or face up, with any cards hidden face
    down. Found, the table is the counterexample.

    Raises:
        InvalidGameError: If the rule set does not allow ``players`` seats.

    >>> prove_no_stall(Ruleset.standard(), 6).proved
    True
    """
    _check_seats(ruleset, players)
    model = _solve(_stall_constraints(_Deck(ruleset), players, ruleset.row_size))
    statement = f"no round can stall: some seat can always turn a position up, {players} seats (TME5)"
    if model is None:
        return Finding("no-stall", statement, True)
    table = _stall_table(model, ruleset.row_size)
    return Finding("no-stall", statement, False, "every card these positions need is in the rows", table)


def prove_stall_check_suffices(players: int, row_size: int) -> Finding:
    """Prove with z3 that no deck passing the rule set's TME5 check can stall a round (TME4, TME5).

    The deck is symbolic: every count of every kind of card at once, for ``players`` seats (the rule set's
    most) and rows of ``row_size`` at most.

    >>> prove_stall_check_suffices(3, 3).proved
    True
    """
    return _every_deck(
        "stall-check-suffices",
        f"no deck that passes the TME5 check can stall a round, {players} seats, rows of {row_size}",
        players,
        row_size,
        lambda deck: [*_stall_constraints(deck, players, row_size), stall_check(deck.counts, players, row_size)],
        lambda model: _stall_table(model, row_size),
    )


# -- everything for a rule set ----------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Report:
    """The proofs for one rule set: the turn's bounds for each row size, then the piles and the stall."""

    ruleset: Ruleset
    """The rule set."""
    bounds: tuple[TurnBounds, ...]
    """The turn's bounds for rows of 1 up to the first round's size (TM11, TME6)."""
    findings: tuple[Finding, ...]
    """The z3 verdicts, for each seat count: the piles (TM25) and the stall (TME5)."""

    @property
    def all_proved(self) -> bool:
        """Whether every claim was proved."""
        return all(finding.proved for finding in self.findings)

    def format(self) -> str:
        """The report as text, a line or two per claim."""
        lines = [f"Too Many Monkeys, the {self.ruleset.name} rules:"]
        lines.extend(
            f"  [proved] rows of {bounds.row_size}: a turn turns up at most {bounds.most_turned_up} card(s) "
            f"and takes at most {bounds.most_steps} actions; a wild had a place in all {bounds.wilds_in_hand} "
            "steps that bring one into hand (TM11, TME6)"
            for bounds in self.bounds
        )
        for finding in self.findings:
            lines.append(f"  [{'proved' if finding.proved else 'refuted'}] {finding.statement}")
            if finding.counterexample is not None:
                lines.append(f"      {finding.detail}: {finding.counterexample}")
        lines.append(f"Result: {'all proved' if self.all_proved else 'refuted'}.")
        return "\n".join(lines)


def verify(ruleset: Ruleset | None = None, players: Iterable[int] | None = None) -> Report:
    """Every proof for ``ruleset`` (the standard game if None), for each of ``players`` (default: every count).

    Raises:
        InvalidGameError: If the rule set does not allow one of the seat counts.
    """
    rules = Ruleset.standard() if ruleset is None else ruleset
    if not isinstance(rules, Ruleset):
        raise InvalidRulesetError(f"ruleset must be a Ruleset, got {rules!r}")
    counts = range(rules.min_players, rules.max_players + 1) if players is None else tuple(players)
    for seats in counts:
        _check_seats(rules, seats)
    bounds = tuple(turn_bounds(size) for size in range(1, rules.row_size + 1))
    findings = []
    for seats in counts:
        findings.append(prove_piles_never_empty(rules, seats))
        findings.append(prove_no_stall(rules, seats))
    return Report(rules, bounds, tuple(findings))


def command_line(preset: str, document: object, players: Sequence[int] | None, fail: Callable[[str], int]) -> int:
    """``cheekymonkey verify --game too-many-monkeys``: print the report of a preset; 1 if refuted.

    ``document`` is the ``--ruleset`` file, which this game cannot read yet (its JSON documents come with
    another part of the work): given one, this fails. ``fail`` prints a one-line error and returns status 2.
    """
    if document is not None:
        return fail("Too Many Monkeys rule sets cannot be read from a file yet: give --preset standard or short")
    try:
        report = verify(Ruleset.preset(preset), None if not players else sorted(set(players)))
    except (InvalidRulesetError, InvalidGameError) as error:
        return fail(str(error))
    print(report.format())
    return 0 if report.all_proved else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report of a preset (``python -m cheekymonkey.toomany.verify [standard|short]``); 1 if refuted."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    name = arguments[0] if arguments else "standard"
    try:
        ruleset = Ruleset.preset(name)
    except InvalidRulesetError as error:
        print(f"cheekymonkey.toomany.verify: {error}", file=sys.stderr)
        return 2
    report = verify(ruleset)
    print(report.format())
    return 0 if report.all_proved else 1


if __name__ == "__main__":  # pragma: no cover - run as a script
    sys.exit(main())
