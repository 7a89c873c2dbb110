"""The running sums of a simulation's finished blocks, and the summary they make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from cheekymonkey.simulation.blocks import WIN_UNITS, BlockResult
from cheekymonkey.simulation.stats import Histogram, wilson_interval
from cheekymonkey.simulation.summary import BotSummary, Summary

__all__ = ["Tally"]


class Tally:
    """The running sums of finished blocks (whole numbers only)."""

    def __init__(self, lines: int) -> None:
        self.played = 0  # games played, truncated ones included
        self.truncated = 0
        self.win_units = [0] * lines
        self.seat_win_units = [0] * lines
        self.scores: list[Counter[int]] = [Counter() for _ in range(lines)]
        self.places: list[Counter[int]] = [Counter() for _ in range(lines)]
        self.returns = [Fraction(0)] * lines
        self.actions = 0
        self.turns: Counter[int] = Counter()
        self.ranges: list[tuple[int, int]] = []
        self.blocks = 0  # how many of ranges are committed

    def add(self, result: BlockResult) -> None:
        win_units = [a + b for a, b in zip(self.win_units, result.win_units, strict=True)]
        seat_win_units = [a + b for a, b in zip(self.seat_win_units, result.seat_win_units, strict=True)]
        scores = [counter + Counter(dict(pairs)) for counter, pairs in zip(self.scores, result.scores, strict=True)]
        places = [counter + Counter(dict(pairs)) for counter, pairs in zip(self.places, result.places, strict=True)]
        turns = self.turns + Counter(dict(result.turns))
        paid = result.returns or (Fraction(0),) * len(self.returns)
        returns = [a + b for a, b in zip(self.returns, paid, strict=True)]
        del self.ranges[self.blocks :]
        self.ranges.append((result.start, result.stop))
        # One statement commits the whole block: CPython runs a Ctrl-C handler at calls and loop turns, never
        # between these stores, so an interrupted run counts a block entirely or not at all.
        (
            self.played,
            self.truncated,
            self.win_units,
            self.seat_win_units,
            self.scores,
            self.places,
            self.returns,
            self.actions,
            self.turns,
            self.blocks,
        ) = (
            self.played + result.stop - result.start,
            self.truncated + result.truncated,
            win_units,
            seat_win_units,
            scores,
            places,
            returns,
            self.actions + result.actions,
            turns,
            self.blocks + 1,
        )

    def completed(self) -> tuple[tuple[int, int], ...]:
        """The games played so far, as merged ``(start, stop)`` ranges."""
        merged: list[tuple[int, int]] = []
        for start, stop in sorted(self.ranges[: self.blocks]):
            if merged and merged[-1][1] == start:
                merged[-1] = (merged[-1][0], stop)
            else:
                merged.append((start, stop))
        return tuple(merged)

    def summary(self, labels: Sequence[str], *, requested: int, seed: int, ruleset: str) -> Summary:
        """The summary of the blocks finished so far; ``ruleset`` is the rule set's name."""
        games = self.played - self.truncated
        lines = []
        rows = zip(labels, self.win_units, self.scores, self.places, self.returns, strict=True)
        for label, units, counter, placed, paid in rows:
            wins = units / WIN_UNITS
            low, high = wilson_interval(wins, games)
            scores, places = Histogram.of(counter), Histogram.of(placed)
            rate = wins / games if games else 0.0
            mean_return = float(paid / games) if games else 0.0
            lines.append(
                BotSummary(label, wins, rate, low, high, scores.mean, scores, places.mean, places, mean_return)
            )
        turns = Histogram.of(self.turns)
        return Summary(
            games=games,
            bots=tuple(lines),
            mean_actions=self.actions / games if games else 0.0,
            mean_turns=turns.mean,
            requested=requested,
            partial=self.played < requested,
            seed=seed,
            ruleset=ruleset,
            players=len(labels),
            seat_win_rates=tuple(u / WIN_UNITS / games if games else 0.0 for u in self.seat_win_units),
            turns=turns,
            completed=self.completed(),
            truncated=self.truncated,
        )
