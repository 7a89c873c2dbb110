"""The Too Many Monkeys bot ladder: the declared evaluation of each step, run through the simulation.

Each step plays seeded games with :func:`cheekymonkey.simulation.simulate` (``game="too-many-monkeys"``):
game ``i`` uses seed ``SEED + i`` and moves every bot ``i`` seats round the table, so each bot sits in every
seat equally often. The first bot *beats* the others when the 95% Wilson interval of its win rate lies
above its fair share (1/2 at 2 seats, 1/3 at 3). The steps, their seeds and game counts are declared on the
page ``docs/explanation/bots-too-many-monkeys.md`` before they are run; this script runs them::

    python studies/tmm_ladder.py --step all          # every declared step, one after the other
    python studies/tmm_ladder.py --step expectimax-3 # one step
    python studies/tmm_ladder.py --bots expectimax,heuristic --games 200 --seed 0  # a run of your own
    benchmarks/compiled.sh ladder --step all            # the same games on the compiled build, faster

The games are seeded and the bots deterministic, so both builds play the same games to the same figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Final

from cheekymonkey._compiled import COMPILED
from cheekymonkey.simulation import simulate

# The declared evaluation: (step, bots, games, first seed). Written down before any of it was run.
STEPS: Final = (
    ("heuristic-2", "heuristic,random", 1_000, 1_000_000),
    ("heuristic-3", "heuristic,random,random", 600, 1_100_000),
    # The search's steps as declared again after its position value changed (the first declaration, of the
    # search before that change, was 24,000 games from seed 1,200,000 and 4,500 from seed 1,300,000).
    ("expectimax-2", "expectimax,heuristic", 500_000, 4_000_000),
    ("expectimax-3", "expectimax,heuristic,heuristic", 9_000, 4_600_000),
)


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def run(name: str, bots: str, games: int, seed: int, workers: int) -> None:
    """Play one step and print its summary line: wins, win rate and 95% interval of the first bot."""
    kinds = bots.split(",")
    fair = 1 / len(kinds)
    build = "compiled" if COMPILED else "pure Python"
    print(f"== {name}: {bots}, {games} games from seed {seed}, {workers} worker(s), {build}; load average {_load()}")
    start = time.perf_counter()
    cpu = time.process_time()
    summary = simulate(kinds, games, seed=seed, workers=workers, game="too-many-monkeys")
    first = summary.bots[0]
    shown = "shown" if first.low > fair else "NOT shown"
    print(
        f"   {first.name}: {first.wins:g} wins of {summary.games} ({summary.truncated} truncated): "
        f"{first.win_rate:.2%}, 95% interval {first.low:.2%} - {first.high:.2%}, fair share {fair:.2%}: {shown}"
    )
    print(f"   mean actions a game {summary.mean_actions:.1f}; seat win rates {summary.seat_win_rates}")
    print(
        f"   {time.perf_counter() - start:.0f} s elapsed ({time.process_time() - cpu:.0f} s CPU in this process); "
        f"load average {_load()}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the declared steps, or a run of your own; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--step", choices=[step[0] for step in STEPS] + ["all"], help="a declared step, or all")
    parser.add_argument("--bots", help="bot kinds, comma-separated, the one measured first (instead of --step)")
    parser.add_argument("--games", type=int, default=200, help="games, with --bots (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed, with --bots (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    if args.bots:
        run("your run", args.bots, args.games, args.seed, args.workers)
        return 0
    if not args.step:
        parser.error("give --step or --bots")
    for name, bots, games, seed in STEPS:
        if args.step in (name, "all"):
            run(name, bots, games, seed, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
