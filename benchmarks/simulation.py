"""Simulation throughput: games per second on each backend, and what a block (task) costs.

Plays the same seeded games (``--bots``, ``--games``, seed 0) in this process, in a local pool of 1 and of
2 processes, and on a 2-worker Dask cluster (``distributed.LocalCluster``: a scheduler and two worker
processes, one thread each), checks that every backend gives the same summary, and prints for each the
games per second (wall clock) and the CPU time its processes used per game. Then, on a warm pool of one
process and on the Dask cluster, it times the same games cut into blocks of different sizes and fits
``time per game = c + o / block size``: ``c`` is the cost of a game, ``o`` the overhead of a block. A
block of ``20 * o / c`` games or more keeps that overhead under 5%. Both clocks are fitted: wall time,
and CPU time (this process and every process below it: pool workers, Dask's scheduler and workers),
which other work on a shared machine disturbs far less. The machine's load average is printed beside
every figure: on a shared machine, take the best of several runs.

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


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and every process below it: pool workers, Dask's processes."""
    import psutil  # installed with distributed (the dask extra)

    total = 0.0
    me = psutil.Process()
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def timed(run: Callable[[], Summary], repeat: int) -> tuple[float, float, Summary]:
    """The best wall time and the least CPU time (all processes) of ``repeat`` runs, and the summary."""
    best = best_cpu = float("inf")
    summary = None
    for _ in range(repeat):
        cpu = cpu_seconds()
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, cpu_seconds() - cpu)
        if summary is not None and result != summary:
            sys.exit("two runs of the same games gave different summaries")
        summary = result
    assert summary is not None
    return best, best_cpu, summary


def dask_cluster() -> Any:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    return cluster, Client(cluster)


def backends(bots: list[str], games: int, repeat: int, figures: dict[str, Any]) -> None:
    print(f"== games per second, {games} games of {','.join(bots)}, best of {repeat} (wall clock)")
    reference: Summary | None = None
    rows: dict[str, float] = {}
    cpu_rows: dict[str, float] = {}

    def row(name: str, run: Callable[[], Summary]) -> None:
        nonlocal reference
        seconds, cpu, summary = timed(run, repeat)
        if reference is None:
            reference = summary
        elif summary != reference:
            sys.exit(f"{name} gave a different summary")
        rows[name] = games / seconds
        cpu_rows[name] = cpu * 1000 / games
        print(
            f"{name:<26} {games / seconds:8.1f} games/s  {seconds * 1000 / games:7.3f} ms/game wall  "
            f"{cpu * 1000 / games:7.3f} ms/game CPU, all processes  ({load()})"
        )

    row("in-process", lambda: simulate(bots, games))
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
    figures["backends"] = {
        "games": games,
        "bots": bots,
        "games_per_second": rows,
        "cpu_ms_per_game": cpu_rows,
        "load": os.getloadavg(),
    }


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
        wall: dict[int, float] = {}
        cpu: dict[int, float] = {}
        for size in SIZES:
            seconds, cpu_seconds, _ = timed(
                lambda: simulate(bots, games, executor=executor, block_size=size),  # noqa: B023
                repeat,
            )
            wall[size], cpu[size] = seconds / games, cpu_seconds / games
            print(
                f"{name:<22} block {size:4d}: {seconds * 1000 / games:7.3f} ms/game wall  "
                f"{cpu_seconds * 1000 / games:7.3f} ms/game CPU  ({load()})"
            )
        results[name] = {}
        for clock, per_game in (("wall", wall), ("cpu", cpu)):
            cost, overhead = fit(per_game)
            enough = max(1, round(20 * overhead / cost))
            print(
                f"{name}, {clock}: {cost * 1000:.3f} ms per game + {overhead * 1000:.2f} ms per block; "
                f"blocks of {enough}+ games keep the overhead under 5%"
            )
            results[name][clock] = {
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
