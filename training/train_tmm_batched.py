"""Train a *Too Many Monkeys* policy from the batched engine, and run its declared evaluation (a thin wrapper).

The recipe lives in the package now: ``cheekymonkey train --game too-many-monkeys`` runs it
(``cheekymonkey.toomany._training``), with a progress bar, checkpoints and a seed that makes it
reproducible. This script keeps the two command lines the bot page quotes:

``train``: the package's recipe at budget 1 (60,000 positions, 24,510 updates: the work of the run that
wrote ``training/tmm_policy.npz``). The first version of this script stopped its fit after ``--budget`` CPU
seconds instead, which no run can repeat to the bit; that option is gone.

``evaluate``: the network against a bot at 2 seats, seats rotated (numpy only).

    nice -n 10 python training/train_tmm_batched.py train --out NEW.npz
    python training/train_tmm_batched.py evaluate training/tmm_policy.npz heuristic --games 1000 --seed 7000000
    python training/train_tmm_batched.py evaluate training/tmm_policy.npz expectimax --games 300 --seed 7100000
"""

from __future__ import annotations

import argparse
import os
import time

from cheekymonkey.cli import main as cli
from cheekymonkey.simulation import load_policy, simulate


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def evaluate(args: argparse.Namespace) -> None:
    """The declared evaluation: the network against a bot at 2 seats, seats rotated."""
    began = time.strftime("%H:%M:%S", time.gmtime())
    load = _load()
    summary = simulate(
        [load_policy(args.weights), args.opponent],
        args.games,
        seed=args.seed,
        workers=args.workers,
        game="too-many-monkeys",
    )
    mine = summary.bots[0]
    print(
        f"{args.weights} against {args.opponent}: won {mine.wins:g} of {summary.games} games "
        f"({summary.truncated} truncated), {mine.win_rate:.1%} (95% interval {mine.low:.1%} - {mine.high:.1%}); "
        f"first seat won {summary.seat_win_rates[0]:.1%}; {began} to {time.strftime('%H:%M:%S', time.gmtime())} "
        f"UTC, load average {load} to {_load()}"
    )


def main(argv: list[str] | None = None) -> int:
    """Train or evaluate; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("train", help="the package's recipe: cheekymonkey train --game too-many-monkeys")
    t.add_argument("--out", default="training/tmm_policy.npz")
    t.add_argument("--seed", default="0")
    e = commands.add_parser("evaluate", help="the network against a bot, the declared evaluation")
    e.add_argument("weights")
    e.add_argument("opponent", choices=["heuristic", "expectimax", "random"])
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=7_000_000)
    e.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "train":
        return cli(["train", "--game", "too-many-monkeys", "--out", args.out, "--seed", args.seed, "--eval-games", "0"])
    evaluate(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
