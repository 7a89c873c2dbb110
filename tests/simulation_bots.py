"""Bots that misbehave on purpose, for the simulation's fault tests.

They live in a small module of their own so that worker processes (a process pool, Dask or Ray workers
started with the repository on ``PYTHONPATH``) can import them cheaply when they unpickle a block.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from cheekymonkey import Action, GameState
from cheekymonkey.cheeky.bots import HeuristicBot


class BuggyBot:
    """Plays like the heuristic bot, but raises on its first move once the bag is down to ``at`` tokens."""

    def __init__(self, at: int = 30) -> None:
        self.at = at
        self.inner = HeuristicBot()
        self.moves = 0  # how often it was asked to move, the failing move included

    def choose(self, state: GameState, rng: random.Random) -> Action:
        self.moves += 1
        if state.bag_size <= self.at:
            raise ZeroDivisionError(f"a bug with {state.bag_size} tokens in the bag")
        return self.inner.choose(state, rng)

    def __repr__(self) -> str:
        return "buggy"


class DyingBot:
    """Plays like the heuristic bot, but kills the first worker process it moves in, once per run.

    The first time it moves in a process other than ``home`` it ends that process with ``os._exit``; the
    ``marker`` file records that it has, so it does so only once.
    """

    def __init__(self, marker: Path, home: int) -> None:
        self.marker = marker
        self.home = home
        self.inner = HeuristicBot()

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if os.getpid() != self.home:
            try:
                self.marker.touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                os._exit(17)  # the worker process dies mid-block, without any clean-up
        return self.inner.choose(state, rng)

    def __repr__(self) -> str:
        return "dying"
