"""Simulation throughput: games per second on each backend, and what a block (task) costs.

Plays the same seeded games (``--bots``, ``--games``, seed 0) in this process, in a local pool of 1 and of
2 processes, and on a 2-worker Dask cluster (``distributed.LocalCluster``: a scheduler and two worker
processes, one thread each), checks that every backend gives the same summary, and prints games per second
(wall clock) for each. Then, on a warm pool of one process (and on the Dask cluster), it times the same
games cut into blocks of different sizes and fits ``time per game = c + o / block size``: ``c`` is the cost
of a game, ``o`` the overhead of a block. A block of ``20 * o / c`` games or more keeps that overhead under
5%. The machine's load average is printed beside every figure: on a shared machine, take the best of
several runs.

With the ``dask`` extra installed (``pip install -e '.[dask]'``), from the repository root::

    python benchmarks/simulation.py                          # everything, heuristic,random,heuristic
    python benchmarks/simulation.py --only backends --games 4000
    python benchmarks/simulation.py --only blocks --json figures.json
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from cheekymonkey.simulation import Summary, simulate

SIZES = (1, 2, 5, 10, 20, 50, 100, 250)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f}"


def timed(run: Callable[[], Summary], repeat: int) -> tuple[float, Summary]:
    """The best wall time of ``repeat`` runs, and the summary (the same every time)."""
    best = float("inf")
    summary = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
        if summary is not None and result != summary:
            sys.exit("two runs of the same games gave different summaries")
        summary = result
    assert summary is not None
    return best, summary


def dask_cluster() -> Any:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    return cluster, Client(cluster)


def backends(bots: list[str], games: int, repeat: int, figures: dict[str, Any]) -> None:
    print(f"== games per second, {games} games of {','.join(bots)}, best of {repeat} (wall clock)")
    reference: Summary | None = None
    rows: dict[str, float] = {}

    def row(name: str, run: Callable[[], Summary]) -> None:
        nonlocal reference
        seconds, summary = timed(run, repeat)
        if reference is None:
            reference = summary
        elif summary != reference:
            sys.exit(f"{name} gave a different summary")
        rows[name] = games / seconds
        print(f"{name:<28} {games / seconds:9.1f} games/s  {seconds * 1000 / games:7.3f} ms/game  ({load()})")

    row("in-process", lambda: simulate(bots, games))
    # CPU time of one core per game, which other work on a shared machine barely moves: the cost to scale up.
    cpu = time.process_time()
    simulate(bots, games)
    cpu_ms = (time.process_time() - cpu) * 1000 / games
    print(f"{'in-process, CPU time':<28} {1000 / cpu_ms:9.1f} games/s  {cpu_ms:7.3f} ms/game  ({load()})")
    figures["cpu_ms_per_game"] = cpu_ms
    for workers in (1, 2):
        with cf.ProcessPoolExecutor(workers) as pool:
            pool.submit(int).result()  # started before timing: start-up is a one-off, not a cost per game
            row(
                f"local pool, {workers} process{'es' if workers > 1 else ''}",
                lambda: simulate(bots, games, executor=pool),
            )
    cluster, client = dask_cluster()
    try:
        client.wait_for_workers(2)
        row("Dask, 2 workers", lambda: simulate(bots, games, executor=client))
    finally:
        client.close()
        cluster.close()
    figures["backends"] = {"games": games, "bots": bots, "games_per_second": rows, "load": os.getloadavg()}


def fit(per_game: dict[int, float]) -> tuple[float, float]:
    """Least squares of ``t = c + o / size`` over the measured sizes: (c, o) in seconds."""
    xs = [1 / size for size in per_game]
    ys = list(per_game.values())
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
    return mean_y - slope * mean_x, slope


def blocks(bots: list[str], games: int, repeat: int, figures: dict[str, Any]) -> None:
    print(f"== the cost of a block: {games} games of {','.join(bots)} in blocks of each size, best of {repeat}")
    results: dict[str, Any] = {}

    def measure(name: str, executor: cf.Executor | Any) -> None:
        per_game: dict[int, float] = {}
        for size in SIZES:
            seconds, _ = timed(lambda: simulate(bots, games, executor=executor, block_size=size), repeat)  # noqa: B023
            per_game[size] = seconds / games
            print(f"{name:<22} block {size:4d}: {seconds * 1000 / games:7.3f} ms/game  ({load()})")
        cost, overhead = fit(per_game)
        enough = max(1, round(20 * overhead / cost))
        print(
            f"{name}: {cost * 1000:.3f} ms per game + {overhead * 1000:.2f} ms per block; "
            f"blocks of {enough}+ games keep the overhead under 5%"
        )
        results[name] = {
            "ms_per_game_by_block_size": {size: t * 1000 for size, t in per_game.items()},
            "ms_per_game": cost * 1000,
            "ms_per_block": overhead * 1000,
            "block_size_for_5_percent": enough,
        }

    with cf.ProcessPoolExecutor(1) as pool:
        pool.submit(int).result()
        measure("local pool, 1 process", pool)
    cluster, client = dask_cluster()
    try:
        client.wait_for_workers(2)
        measure("Dask, 2 workers", client)
    finally:
        client.close()
        cluster.close()
    figures["blocks"] = results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic,random,heuristic", help="bots, comma-separated")
    parser.add_argument("--games", type=int, default=2000, help="games per backend (default 2000)")
    parser.add_argument("--block-games", type=int, default=500, help="games per block-size run (default 500)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the best kept (default 3)")
    parser.add_argument("--only", choices=("backends", "blocks"), default=None, help="run one part")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    bots = args.bots.split(",")
    figures: dict[str, Any] = {"cpus": os.cpu_count()}
    print(f"{os.cpu_count()} CPUs, {load()}, Python {sys.version.split()[0]}")
    if args.only in (None, "backends"):
        backends(bots, args.games, args.repeat, figures)
    if args.only in (None, "blocks"):
        blocks(bots, args.block_games, args.repeat, figures)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()
