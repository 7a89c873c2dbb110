"""Paired games for the studies: each job plays one seed twice, and the gain is summed up game by game.

A job's two results are one seat's share of the win (``1/k`` of a win shared by ``k``) in the game without the
bot measured and in the game with it, on the same seed. The games the bot does not change count the same in
both, so the gain has less noise than two separate runs give. ``search_tuning.py`` and
``tmm_playouts_pairs.py`` play their pairs through :func:`play_pairs`.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

Job = TypeVar("Job")


class Pairs(NamedTuple):
    """What the pairs gave: both results summed, the mean gain and its standard error, and what it cost."""

    games: int
    before: float
    """The seat's wins in the games without the bot measured."""
    after: float
    """The seat's wins in the games with it."""
    gain: float
    """The mean gain a game, as a fraction of a win."""
    error: float
    """The gain's standard error."""
    changed: float
    """The share of the games whose result the bot changed."""
    cpu: float
    """Seconds of CPU: this process and its workers."""
    clock: float
    """Seconds by the clock."""


def play_pairs(pair: Callable[[Job], tuple[float, float]], jobs: Sequence[Job], workers: int) -> Pairs:
    """Play every job (in a pool of ``workers`` processes if more than one) and sum up the pairs.

    ``pair`` must be a module-level function, for the pool to send it to its workers.
    """
    start = time.process_time()
    wall = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            pairs = pool.map(pair, jobs, chunksize=8)
    else:
        pairs = [pair(job) for job in jobs]
    cpu = sum(os.times()[2:4])  # the workers' CPU, once they have finished (none without workers)
    gains = [after - before for before, after in pairs]
    n = len(pairs)
    mean = sum(gains) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    return Pairs(
        games=n,
        before=sum(before for before, _ in pairs),
        after=sum(after for _, after in pairs),
        gain=mean,
        error=spread / math.sqrt(n),
        changed=sum(1 for g in gains if g) / n,
        cpu=time.process_time() - start + cpu,
        clock=time.perf_counter() - wall,
    )
