"""Whole-number histograms and the Wilson interval: the statistics a summary is made of."""

from __future__ import annotations

import math
from collections import Counter

import attrs

__all__ = ["Histogram", "wilson_interval"]


@attrs.frozen(slots=True)
class Histogram:
    """How often each whole-number value occurred: compact, exact, and quick to merge or draw.

    >>> h = Histogram(((3, 2), (5, 1)))
    >>> h.total, round(h.mean, 3), h.values, h.counts
    (3, 3.667, (3, 5), (2, 1))
    """

    pairs: tuple[tuple[int, int], ...]
    """``(value, count)`` pairs in increasing order of value, every count positive."""

    @classmethod
    def of(cls, counts: Counter[int] | dict[int, int]) -> Histogram:
        """The histogram of a mapping from value to count (zero counts left out)."""
        return cls(tuple((value, count) for value, count in sorted(counts.items()) if count))

    @property
    def values(self) -> tuple[int, ...]:
        """The values that occurred, in increasing order."""
        return tuple(value for value, _ in self.pairs)

    @property
    def counts(self) -> tuple[int, ...]:
        """How often each of :attr:`values` occurred."""
        return tuple(count for _, count in self.pairs)

    @property
    def total(self) -> int:
        """How many values were counted."""
        return sum(count for _, count in self.pairs)

    @property
    def mean(self) -> float:
        """The mean value (0.0 if empty)."""
        total = self.total
        return sum(value * count for value, count in self.pairs) / total if total else 0.0


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% with the default ``z``); ``(0, 1)`` for no trials.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
