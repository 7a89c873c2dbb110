"""Train a *Too Many Monkeys* policy from the batched engine, and run its declared evaluation.

``train`` needs the ``train`` extra (PyTorch) and the ``batched`` extra (numba); ``evaluate`` needs numpy only
(the network is played in numpy: no PyTorch at play time). The method, at 2 seats and standard rules:

1. Positions and labels: :class:`~cheekymonkey.toomany.batched.BatchedTooManyMonkeys` plays ``--batch``
   games at a time, every seat played by the heuristic bot's rule (each game of the batch decoded to a
   :class:`~cheekymonkey.toomany.GameState` and given to :class:`~cheekymonkey.toomany.HeuristicBot`, whose
   action is encoded to its index). Each decision with more than one legal action is an example: the
   mover's observation from the batch (each entry divided by its bound), the mask, the heuristic's choice.
   With ``--explore``, that share of the moves played is a random legal action instead (the label stays the
   heuristic's), so the examples reach positions the heuristic would not.
2. Fit: a network of one hidden layer of ReLU units, one score per action index, trained by cross-entropy
   over the legal actions (Adam, minibatches), until ``--budget`` CPU seconds are spent in all.

The CPU time (``time.process_time()``) is measured from before the first batched game to the written
weights (float32, ``--out``). PyTorch runs on one thread. After the timed part, the greedy network plays the
heuristic bot in ``--check-games`` games from seed 990,000, which no evaluation uses.

    nice -n 10 python training/train_tmm_batched.py train --budget 90 --out training/tmm_policy.npz
    python training/train_tmm_batched.py evaluate training/tmm_policy.npz heuristic --games 1000 --seed 7000000
    python training/train_tmm_batched.py evaluate training/tmm_policy.npz expectimax --games 300 --seed 7100000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cheekymonkey.simulation import simulate
from cheekymonkey.toomany import HeuristicBot
from cheekymonkey.toomany.encoding import encoding

PLAYERS = 2
CHECK_SEED = 990_000


class NetworkPolicy:
    """The trained network as a policy of :func:`~cheekymonkey.simulation.simulate`: numpy only, greedy."""

    def __init__(self, path: str | Path) -> None:
        with np.load(path) as weights:
            self.scale = weights["scale"].astype(np.float32)
            self.w1 = weights["w1"].astype(np.float32)
            self.b1 = weights["b1"].astype(np.float32)
            self.w2 = weights["w2"].astype(np.float32)
            self.b2 = weights["b2"].astype(np.float32)
        self.__name__ = "network"

    def __call__(self, observation: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> int:
        """The legal action index of highest score."""
        hidden = np.maximum(np.asarray(observation, np.float32) * self.scale @ self.w1 + self.b1, 0.0)
        scores = hidden @ self.w2 + self.b2
        return int(np.argmax(np.where(mask, scores, -np.inf)))


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _examples(args: argparse.Namespace, started: float) -> tuple[Any, Any, Any, int]:
    from cheekymonkey.toomany.batched import BatchedTooManyMonkeys

    engine = BatchedTooManyMonkeys(PLAYERS)
    code = encoding(PLAYERS)
    bot = HeuristicBot()
    rng = random.Random(0)
    explore = np.random.default_rng(0)
    states = engine.init(args.batch, seed=0)
    xs: list[npt.NDArray[Any]] = []
    ms: list[npt.NDArray[Any]] = []
    ys: list[npt.NDArray[Any]] = []
    count = steps = 0
    while count < args.positions and time.process_time() - started < args.budget * args.collect:
        mask = states.legal_action_mask
        observation = engine.observation(states)
        labels = np.zeros(args.batch, np.int64)
        for i in range(args.batch):
            if states.current_player[i] < 0:
                continue
            state = engine.decode(states, i)
            labels[i] = code.encode(bot.choose(state, rng), state)
        actions = labels.copy()
        wander = explore.random(args.batch) < args.explore
        for i in np.flatnonzero(wander & (states.current_player >= 0)):
            actions[i] = explore.choice(np.flatnonzero(mask[i]))
        keep = mask.sum(axis=1) > 1
        xs.append(observation[keep])
        ms.append(mask[keep].copy())
        ys.append(labels[keep])
        count += int(keep.sum())
        states = engine.step(states, actions)
        steps += args.batch
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ys), steps


def train(args: argparse.Namespace) -> None:
    """Collect the heuristic's labelled positions from the batched engine, fit the network, write it."""
    try:
        import torch
    except ImportError:
        sys.exit("training needs PyTorch: pip install -e '.[train]'")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    print(f"load average at the start {_load()}")
    started = time.process_time()
    x, m, y, steps = _examples(args, started)
    scale = 1.0 / np.maximum(np.asarray(encoding(PLAYERS).observation_bounds, np.float32), 1.0)
    collected = time.process_time() - started
    print(f"{len(y)} positions with a choice from {steps} batched steps in {collected:.1f} s CPU")
    inputs = torch.from_numpy(x * scale)
    masks = torch.from_numpy(m)
    labels = torch.from_numpy(y)
    model = torch.nn.Sequential(
        torch.nn.Linear(inputs.shape[1], args.hidden), torch.nn.ReLU(), torch.nn.Linear(args.hidden, m.shape[1])
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    updates = 0
    generator = torch.Generator().manual_seed(0)
    while time.process_time() - started < args.budget - 1:
        order = torch.randperm(len(labels), generator=generator)
        for at in range(0, len(order), args.minibatch):
            rows = order[at : at + args.minibatch]
            scores = model(inputs[rows]).masked_fill(~masks[rows], -1e9)
            loss = torch.nn.functional.cross_entropy(scores, labels[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            updates += 1
            if time.process_time() - started >= args.budget - 1:
                break
    with torch.no_grad():
        scores = model(inputs).masked_fill(~masks, -1e9)
        agree = float((scores.argmax(dim=1) == labels).float().mean())
    first, second = model[0], model[2]
    np.savez(
        args.out,
        scale=scale,
        w1=first.weight.detach().numpy().T.copy(),
        b1=first.bias.detach().numpy(),
        w2=second.weight.detach().numpy().T.copy(),
        b2=second.bias.detach().numpy(),
        players=PLAYERS,
    )
    spent = time.process_time() - started
    print(
        f"{updates} updates of {args.minibatch}; agrees with the heuristic on {agree:.1%} of its positions; "
        f"{spent:.1f} s CPU in all; load average {_load()}; written to {args.out}"
    )
    if args.check_games:
        summary = simulate(
            [NetworkPolicy(args.out), "heuristic"], args.check_games, seed=CHECK_SEED, game="too-many-monkeys"
        )
        print(
            f"check, {args.check_games} games against the heuristic from seed {CHECK_SEED}: "
            f"{summary.bots[0].win_rate:.1%}"
        )


def evaluate(args: argparse.Namespace) -> None:
    """The declared evaluation: the network against a bot at 2 seats, seats rotated."""
    began = time.strftime("%H:%M:%S", time.gmtime())
    load = _load()
    summary = simulate(
        [NetworkPolicy(args.weights), args.opponent],
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


def main(argv: list[str] | None = None) -> None:
    """Train or evaluate; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("train", help="train the network and write its weights")
    t.add_argument("--out", default="training/tmm_policy.npz")
    t.add_argument("--budget", type=float, default=90.0, help="CPU seconds in all (default 90)")
    t.add_argument("--collect", type=float, default=0.5, help="share of the budget for positions at most")
    t.add_argument("--positions", type=int, default=60_000)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--explore", type=float, default=0.1)
    t.add_argument("--hidden", type=int, default=128)
    t.add_argument("--minibatch", type=int, default=256)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--check-games", type=int, default=200)
    e = commands.add_parser("evaluate", help="the network against a bot, the declared evaluation")
    e.add_argument("weights")
    e.add_argument("opponent", choices=["heuristic", "expectimax", "random"])
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=7_000_000)
    e.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    {"train": train, "evaluate": evaluate}[args.command](args)


if __name__ == "__main__":
    main()
