"""What a verification run returns: one result per property, proved or refuted with a counterexample."""

from __future__ import annotations

import enum

import attrs

from cheekymonkey.cheeky.rules import Animal, Ruleset

__all__ = ["CountTable", "PropertyResult", "Status", "VerificationReport", "format_table"]

CountTable = tuple[tuple[int, ...], ...]
"""Tokens per seat and animal: one row per seat, each indexed by :class:`~cheekymonkey.Animal` (8 counts)."""


class Status(enum.Enum):
    """The outcome of checking one property."""

    PROVED = "proved"
    """The property holds for every count table of the rule set and seat count."""
    REFUTED = "refuted"
    """A count table breaks the property; the result carries it."""
    NOT_APPLICABLE = "not applicable"
    """The property is about bonus tiles, and the rule set has none (R19)."""

    def __str__(self) -> str:
        return self.value


@attrs.frozen(slots=True)
class PropertyResult:
    """The verdict on one property of the scoring rules."""

    name: str
    """A short identifier, for example ``"one-holder"``."""
    statement: str
    """The property in words, naming its rules."""
    status: Status
    """Proved, refuted, or not applicable."""
    counterexample: CountTable | None = None
    """For a refuted property, a count table that breaks it (a finished game's, when one exists)."""
    detail: str = ""
    """More about the verdict: the bound found, or what goes wrong in the counterexample."""

    @property
    def proved(self) -> bool:
        """Whether the property was proved."""
        return self.status is Status.PROVED


@attrs.frozen(slots=True)
class VerificationReport:
    """Every scoring property checked for one rule set and seat count (see :func:`verify_ruleset`)."""

    ruleset: Ruleset
    """The rule set checked."""
    players: int
    """The number of seats."""
    results: tuple[PropertyResult, ...]
    """One verdict per property, in a fixed order."""
    max_score: int
    """The highest score one seat can reach in a finished game, found by z3's optimizer."""
    max_score_table: CountTable
    """A finished game's count table in which seat 0 reaches :attr:`max_score`."""

    @property
    def all_proved(self) -> bool:
        """Whether no property was refuted (properties that do not apply count as no finding)."""
        return all(r.status is not Status.REFUTED for r in self.results)

    @property
    def refuted(self) -> tuple[PropertyResult, ...]:
        """The refuted properties."""
        return tuple(r for r in self.results if r.status is Status.REFUTED)

    def format(self) -> str:
        """The report as plain text, one property per paragraph."""
        lines = [
            f"Scoring of the {self.ruleset.name} rules with {self.players} players "
            f"(animals: {', '.join(a.label for a in self.ruleset.animals)}):",
        ]
        for result in self.results:
            lines.append(f"  [{result.status.value}] {result.name}: {result.statement}")
            if result.detail:
                lines.append(f"      {result.detail}")
            if result.counterexample is not None:
                lines.extend(f"      {row}" for row in format_table(result.counterexample, self.ruleset))
        verdict = "all proved" if self.all_proved else f"{len(self.refuted)} refuted"
        lines.append(f"Result: {verdict}.")
        return "\n".join(lines)


def format_table(table: CountTable, ruleset: Ruleset) -> list[str]:
    """A count table as lines of text, one per seat, showing the animals in play."""
    return [
        f"seat {seat}: " + ", ".join(f"{Animal(a).label} {row[a]}" for a in ruleset.animals)
        for seat, row in enumerate(table)
    ]
