"""A z3 model of scoring (R16-R19) over symbolic count tables, and the proofs built on it.

The model restates the scoring rules as constraints, independently of :mod:`cheekymonkey.cheeky.scoring`:
for every seat ``i`` and animal ``a`` in play, ``c[i][a]`` is an integer variable, the tokens of ``a``
in seat ``i``'s stack. Then:

- R16: seat ``i`` takes ``a``'s tile iff the rules have bonus tiles, ``c[i][a] >= 1`` and
  ``c[i][a] > c[j][a]`` for every other seat ``j``;
- R17: the score of ``i`` is the sum of its counts plus the values of the tiles it takes;
- R18: the tied seats are those with the top score; among them, those whose best tile is the highest
  win; if none of them holds a tile, all of them share the win.

Two kinds of table are used. A *table* is any split of at most the rule set's tokens between the
seats (the stacks at any moment of a game, each animal's column adding up to at most its count); a
*finished* table puts every token in some stack (each column adds up to exactly the count, R15).
Properties are proved over all tables, which includes the finished ones; a refuted property is
shown with a finished table when one breaks it. The score bound is found over finished tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.scoring import Decision, score_counts
from cheekymonkey.cheeky.verify.report import CountTable, PropertyResult, Status, VerificationReport
from cheekymonkey.errors import InvalidGameError, InvalidRulesetError

try:
    import z3
except ImportError as error:  # pragma: no cover - the verify extra is installed in every test run
    raise ImportError(
        "cheekymonkey.verify needs z3: install it with pip install 'cheekymonkey[verify]' "
        "(or, in a clone of the repository: pip install '.[verify]')"
    ) from error

__all__ = ["ScoringModel", "Witness", "check_agreement", "enumerate_witnesses", "verify_ruleset"]

_DECISION_CODES = {Decision.SCORE: 0, Decision.TIE_BREAK: 1, Decision.SHARED: 2}
_DECISIONS = {code: decision for decision, code in _DECISION_CODES.items()}


def _max(values: Sequence[Any]) -> Any:
    best = values[0]
    for value in values[1:]:
        best = z3.If(value > best, value, best)
    return best


class ScoringModel:
    """The scoring rules (R16-R19) as z3 terms over one symbolic count table.

    Args:
        ruleset: The rule set whose counts, bonus values and switches the model uses.
        players: The number of seats.

    Raises:
        InvalidRulesetError: If ``ruleset`` is not a :class:`~cheekymonkey.Ruleset`.
        InvalidGameError: If ``players`` is not a seat count the rule set allows.

    Attributes:
        ruleset: The rule set.
        players: The number of seats.
        animals: The animals in play.
        counts: The integer variable per (seat, animal in play): that seat's tokens of that animal.
        awarded: Per (seat, animal), whether the seat takes the animal's tile (R16).
        scores: Each seat's score (R17).
        best: Each seat's best tile value, 0 without a tile (R18).
        tied: Per seat, whether it has the top score.
        wins: Per seat, whether it is among the winners (R18, R19).
        decision: 0, 1 or 2 for :class:`~cheekymonkey.Decision` SCORE, TIE_BREAK or SHARED.
        unresolved: Whether two or more seats share the top score and the tie-break leaves two or more.
        holder: Per animal, the seat taking its tile plus one, or 0 for nobody.
    """

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        if not isinstance(ruleset, Ruleset):
            raise InvalidRulesetError(f"ruleset must be a Ruleset, got {ruleset!r}")
        if not is_whole_number(players):
            raise InvalidGameError(f"players must be an integer, got {players!r}")
        if not ruleset.allows_players(players):
            raise InvalidGameError(
                f"{players} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players}"
            )
        self.ruleset = ruleset
        self.players = players
        self.animals = ruleset.animals
        seats = range(players)
        self.counts: dict[tuple[int, Animal], Any] = {
            (i, a): z3.Int(f"c_{i}_{a.name.lower()}") for i in seats for a in self.animals
        }
        c = self.counts
        # R16: strictly more than every other seat, and at least one token; only if the rules have tiles.
        self.awarded: dict[tuple[int, Animal], Any] = {
            (i, a): z3.And(c[i, a] >= 1, *(c[i, a] > c[j, a] for j in seats if j != i))
            if ruleset.bonus_tiles
            else z3.BoolVal(False)
            for i in seats
            for a in self.animals
        }
        value = ruleset.bonus_values
        self.tokens = [z3.Sum([c[i, a] for a in self.animals]) for i in seats]
        self.bonus = [z3.Sum([z3.If(self.awarded[i, a], value[a], 0) for a in self.animals]) for i in seats]
        # R17: tokens plus the values of the tiles taken.
        self.scores = [self.tokens[i] + self.bonus[i] for i in seats]
        # The best tile's value, 0 for none (every bonus value in play is 1 or more).
        self.best = [_max([z3.If(self.awarded[i, a], value[a], 0) for a in self.animals]) for i in seats]
        self.top = _max(self.scores)
        self.tied = [self.scores[i] == self.top for i in seats]
        self.n_tied = z3.Sum([z3.If(t, 1, 0) for t in self.tied])
        self.best_tied = _max([z3.If(self.tied[i], self.best[i], 0) for i in seats])
        self.n_best_tied = z3.Sum([z3.If(z3.And(self.tied[i], self.best[i] == self.best_tied), 1, 0) for i in seats])
        # R18: one top score wins; else the highest best tile among the tied; else (no tiles) all share.
        self.wins = [
            z3.And(self.tied[i], z3.Or(self.n_tied == 1, self.best_tied == 0, self.best[i] == self.best_tied))
            for i in seats
        ]
        self.n_winners = z3.Sum([z3.If(w, 1, 0) for w in self.wins])
        self.decision = z3.If(
            self.n_tied == 1,
            _DECISION_CODES[Decision.SCORE],
            z3.If(self.n_winners == 1, _DECISION_CODES[Decision.TIE_BREAK], _DECISION_CODES[Decision.SHARED]),
        )
        self.unresolved = z3.And(self.n_tied >= 2, self.n_winners >= 2)
        # Per animal, the tile's holder as a number: 0 for nobody, seat + 1 otherwise.
        self.holder = {a: z3.Sum([z3.If(self.awarded[i, a], i + 1, 0) for i in seats]) for a in self.animals}

    def table_constraints(self, *, finished: bool) -> list[Any]:
        """Constraints making the counts a table of the rule set (a finished game's if ``finished``)."""
        constraints = [self.counts[key] >= 0 for key in self.counts]
        for a in self.animals:
            column = z3.Sum([self.counts[i, a] for i in range(self.players)])
            constraints.append(column == self.ruleset.counts[a] if finished else column <= self.ruleset.counts[a])
        return constraints

    def table(self, model: Any) -> CountTable:
        """The count table a z3 model assigns, one 8-count row per seat."""
        return tuple(
            tuple(
                self._int(model, self.counts[i, a]) if (i, a) in self.counts else 0
                for a in ANIMALS  # every Animal, so the rows fit score_counts
            )
            for i in range(self.players)
        )

    @staticmethod
    def _int(model: Any, term: Any) -> int:
        return int(model.eval(term, model_completion=True).as_long())

    def holders(self, model: Any) -> tuple[int | None, ...]:
        """Per animal (all eight), the seat the model gives its tile to, or None."""
        numbers = {a: self._int(model, self.holder[a]) for a in self.animals}
        return tuple(numbers[a] - 1 if numbers.get(a, 0) else None for a in ANIMALS)

    def outcome(self, model: Any) -> tuple[tuple[int, ...], tuple[int, ...], Decision]:
        """The totals, winners and decision the model gives its table."""
        totals = tuple(self._int(model, s) for s in self.scores)
        winners = tuple(i for i in range(self.players) if z3.is_true(model.eval(self.wins[i], model_completion=True)))
        return totals, winners, _DECISIONS[self._int(model, self.decision)]


def _find(model: ScoringModel, claim_broken: Any, given: Sequence[Any] = ()) -> CountTable | None:
    """A table breaking a claim: a finished one if any, else any table; None if the claim is proved.

    ``given`` are facts already proved for every table: adding them changes no verdict, and helps z3.
    """
    for finished in (True, False):
        solver = z3.Solver()
        solver.add(*model.table_constraints(finished=finished), *given, claim_broken)
        verdict = solver.check()
        if verdict == z3.sat:
            return model.table(solver.model())
        if verdict != z3.unsat:  # pragma: no cover - linear integer arithmetic over bounded counts is decidable
            raise RuntimeError(f"z3 could not decide the claim: {solver.reason_unknown()}")
    return None


def _result(
    model: ScoringModel, name: str, statement: str, claim_broken: Any, explain: str = "", given: Sequence[Any] = ()
) -> PropertyResult:
    table = _find(model, claim_broken, given)
    if table is None:
        return PropertyResult(name, statement, Status.PROVED)
    return PropertyResult(name, statement, Status.REFUTED, table, explain)


def _values(ruleset: Ruleset) -> list[tuple[Animal, int]]:
    return [(a, ruleset.bonus_values[a]) for a in ruleset.animals]


def _optimum(model: ScoringModel, objective: Any) -> tuple[int, CountTable]:
    optimizer = z3.Optimize()
    optimizer.add(*model.table_constraints(finished=True))
    handle = optimizer.maximize(objective)
    if optimizer.check() != z3.sat:  # pragma: no cover - a finished table always exists
        raise RuntimeError("z3 found no finished table")
    return int(handle.value().as_long()), model.table(optimizer.model())


def verify_ruleset(ruleset: Ruleset, players: int) -> VerificationReport:
    """Prove or refute the scoring properties of ``ruleset`` with ``players`` seats, over all count tables.

    The properties, in order:

    - ``one-holder``: each bonus tile goes to at most one seat (R16).
    - ``majority-takes-tile``: a seat holding more than half of an animal's tokens takes its tile (R16).
    - ``score-bound``: no seat scores more than the maximum z3's optimizer finds for a finished game;
      the report carries that maximum and a table reaching it.
    - ``total-bound``: all scores together are at most the tokens plus the values of all tiles (R17).
    - ``tie-break-decides``: the tie-break (R18) leaves a tie unresolved only when the tied seats hold
      no tile. Refuted, with a counterexample, when bonus values repeat.
    - ``tie-break-equal-tiles``: when the tie-break fails although the tied seats hold tiles, their best
      tiles are tiles of different animals with equal values (R18's note on custom values).

    Every counterexample table is also scored by :func:`~cheekymonkey.score_counts`, which must agree
    with the model on it (who takes which tile, the totals, the winners).

    Args:
        ruleset: The rule set to check.
        players: The number of seats.

    Returns:
        The report: each property proved, refuted with a counterexample table, or not applicable.

    Raises:
        InvalidRulesetError: If ``ruleset`` is not a rule set.
        InvalidGameError: If the rule set does not allow ``players`` seats.

    >>> from cheekymonkey import Ruleset
    >>> verify_ruleset(Ruleset.standard(), 2).all_proved
    True
    """
    model = ScoringModel(ruleset, players)
    seats = range(players)
    animals = model.animals
    c, aw = model.counts, model.awarded
    results: list[PropertyResult] = []
    one_holder = [z3.Sum([z3.If(aw[i, a], 1, 0) for i in seats]) <= 1 for a in animals]
    results.append(
        _result(model, "one-holder", "each bonus tile goes to at most one seat (R16)", z3.Not(z3.And(one_holder)))
    )
    # Once proved, one-holder is a fact about every table; handing it to z3 for the bounds below saves it
    # from rediscovering it (the 6-seat total bound takes minutes without it).
    # The same fact weighted by the tile's value (every value is 1 or more) is what the total bound needs.
    given = (
        [*one_holder, *(z3.Sum([z3.If(aw[i, a], v, 0) for i in seats]) <= v for a, v in _values(ruleset))]
        if results[-1].proved
        else []
    )
    if ruleset.bonus_tiles:
        results.append(
            _result(
                model,
                "majority-takes-tile",
                "a seat holding more than half of an animal's tokens takes its tile (R16)",
                z3.Or([z3.And(2 * c[i, a] > ruleset.counts[a], z3.Not(aw[i, a])) for a in animals for i in seats]),
            )
        )
    else:
        results.append(
            PropertyResult(
                "majority-takes-tile",
                "a seat holding more than half of an animal's tokens takes its tile (R16)",
                Status.NOT_APPLICABLE,
                detail="these rules have no bonus tiles (R19)",
            )
        )
    best, best_table = _optimum(model, model.scores[0])
    results.append(
        _result(
            model,
            "score-bound",
            f"no seat scores more than {best} (R17)",
            z3.Or([s > best for s in model.scores]),
            given=given,
        )
    )
    tiles_value = sum(ruleset.bonus_values) if ruleset.bonus_tiles else 0
    total_bound = ruleset.total_tokens + tiles_value
    total_statement = (
        f"all scores together are at most {ruleset.total_tokens} tokens + {tiles_value} in tiles = {total_bound} (R17)"
    )
    # The total is a sum over animals of (tokens of the animal + its tile's value if taken), so it is proved
    # animal by animal: each column adds at most its count plus its value. z3 proves these small claims at
    # once, where the single claim over 6 seats takes it minutes. Only if one fails is the whole claim searched
    # for a counterexample.
    columns_hold = all(
        _find(
            model,
            z3.Sum([c[i, a] + z3.If(aw[i, a], ruleset.bonus_values[a], 0) for i in seats])
            > ruleset.counts[a] + (ruleset.bonus_values[a] if ruleset.bonus_tiles else 0),
        )
        is None
        for a in animals
    )
    if columns_hold:
        results.append(PropertyResult("total-bound", total_statement, Status.PROVED, detail="proved animal by animal"))
    else:
        results.append(_result(model, "total-bound", total_statement, z3.Sum(model.scores) > total_bound))
    if ruleset.bonus_tiles:
        results.append(
            _result(
                model,
                "tie-break-decides",
                "a tie for the top score is left unresolved only when the tied seats hold no tile (R18)",
                z3.And(model.unresolved, model.best_tied > 0),
                "tied seats hold best tiles of equal value, so they share the win",
            )
        )
        value = ruleset.bonus_values
        equal_best = z3.Or(
            [
                z3.And(
                    model.tied[i], model.tied[j], aw[i, a], aw[j, b], value[a] == value[b], model.best_tied == value[a]
                )
                for i, j in itertools.permutations(seats, 2)
                for a in animals
                for b in animals
                if a != b and value[a] == value[b]
            ]
            or [False]
        )
        results.append(
            _result(
                model,
                "tie-break-equal-tiles",
                "when tied seats with tiles stay tied, their best tiles are different animals of equal value (R18)",
                z3.And(model.unresolved, model.best_tied > 0, z3.Not(equal_best)),
            )
        )
    else:
        results.extend(
            PropertyResult(
                name,
                "the tie-break by the highest bonus tile (R18)",
                Status.NOT_APPLICABLE,
                detail="these rules have no bonus tiles: equal tallest stacks share the win (R19)",
            )
            for name in ("tie-break-decides", "tie-break-equal-tiles")
        )
    for result in results:
        if result.counterexample is not None:
            check_agreement(model, result.counterexample)
    check_agreement(model, best_table)
    return VerificationReport(ruleset, players, tuple(results), best, best_table)


@attrs.frozen(slots=True)
class Witness:
    """A count table with the scoring outcome the z3 model gives it: a golden case for ``score_counts``."""

    table: CountTable
    """Tokens per seat and animal."""
    holders: tuple[int | None, ...]
    """Per animal (all eight), the seat that takes its tile, or None."""
    totals: tuple[int, ...]
    """Each seat's score."""
    winners: tuple[int, ...]
    """The winning seats."""
    decision: Decision
    """How the winners were decided."""


def _solve_outcome(model: ScoringModel, table: CountTable) -> Witness:
    solver = z3.Solver()
    solver.add(*(model.counts[i, a] == table[i][a] for i, a in model.counts))
    if solver.check() != z3.sat:  # pragma: no cover - every table has an outcome
        raise RuntimeError(f"the model has no outcome for {table!r}")
    found = solver.model()
    totals, winners, decision = model.outcome(found)
    return Witness(table, model.holders(found), totals, winners, decision)


def check_agreement(model: ScoringModel, table: CountTable) -> Witness:
    """Score ``table`` with the z3 model and with :func:`~cheekymonkey.score_counts`; raise if they differ.

    Returns:
        The model's outcome as a :class:`Witness`.

    Raises:
        AssertionError: If the Python scoring disagrees with the model (a bug in one of them).
    """
    witness = _solve_outcome(model, table)
    sheet = score_counts(table, model.ruleset)
    python = (sheet.tile_holders, sheet.totals, sheet.winners, sheet.decided_by)
    expected = (witness.holders, witness.totals, witness.winners, witness.decision)
    if python != expected:
        raise AssertionError(f"score_counts disagrees with the z3 model on {table!r}: {python!r} != {expected!r}")
    return witness


def enumerate_witnesses(ruleset: Ruleset, players: int, *, finished: bool = False) -> list[Witness]:
    """One count table for every pattern of outcome, found by z3 with blocking clauses.

    A pattern is who takes each tile, who wins, and how the winners were decided. After each table is
    found, a clause forbidding its pattern is added, until no table with a new pattern is left; so the
    list covers every outcome the rules allow, each once.

    Args:
        ruleset: The rule set.
        players: The number of seats.
        finished: Only finished games' tables (every token in a stack).

    Returns:
        The witnesses, in the order z3 found them.
    """
    model = ScoringModel(ruleset, players)
    solver = z3.Solver()
    solver.add(*model.table_constraints(finished=finished))
    pattern = [model.holder[a] for a in model.animals] + [z3.If(w, 1, 0) for w in model.wins] + [model.decision]
    witnesses = []
    while solver.check() == z3.sat:
        found = solver.model()
        witnesses.append(Witness(model.table(found), model.holders(found), *model.outcome(found)))
        solver.add(z3.Or([term != found.eval(term, model_completion=True) for term in pattern]))
    return witnesses
