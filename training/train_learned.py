"""Train the learned bot's network (cheekymonkey/cheeky/bots/learned.npz) by imitation of the expectimax bot.

Needs the ``train`` extra (PyTorch): ``pip install -e '.[train]'``. Every step is seeded, and PyTorch runs
on one thread, so a run repeats on the same machine. The steps:

1. **Examples from the expert.** Seeded 2-seat games of the expectimax bot against the heuristic bot, and
   of the expectimax bot against itself, the seats alternating; every decision of the expectimax bot with
   a choice (two or more legal actions) becomes an example: the full observation from its seat, the
   legal-action mask, and the index of what it chose.
2. **A network that imitates it.** A perceptron of two hidden layers of ``--hidden`` units (ReLU) reads the
   observation, each entry divided by its bound, and the numbers :func:`cheekymonkey.cheeky.bots.learned.features`
   computes from it; training minimises the cross-entropy of the expert's choice among the legal actions
   (the mask sets the others to minus infinity), with Adam.
3. **DAgger rounds.** The network plays seeded games against the heuristic bot; in every position where it
   had a choice, the expectimax bot says what it would do, and those examples join the others. The network
   is trained again, from scratch, on all of them. This teaches it the positions its own play leads to.
4. **The weights** are written as float16 to ``--out``, with the seat count and rules they are for.

After each round the script prints the network's agreement with the expert on held-out examples and its
win rate against the heuristic bot on ``--check-games`` seeded games (seeds from 900000: the evaluation of
the ladder uses other seeds). The process's CPU time is printed at the end.

    nice python training/train_learned.py --out cheekymonkey/cheeky/bots/learned.npz
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import torch
except ImportError:
    sys.exit("training needs PyTorch: pip install -e '.[train]'")

from cheekymonkey import CHEEKY_MONKEY, ExpectimaxBot, HeuristicBot, Ruleset
from cheekymonkey.cheeky.bots.learned import LearnedBot, Network, features
from cheekymonkey.cheeky.encoding import ActionCodec, full_observation, observation_layout
from cheekymonkey.cheeky.engine import legal_actions
from cheekymonkey.play import Bot
from cheekymonkey.simulation import simulate, wilson_interval
from cheekymonkey.table import Seat, Table

PLAYERS = 2
RULES = "standard"
CHECK_SEED = 900_000

# Observations, masks, the expert's choices, and the seat each example was seen from.
Examples = tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int8]]


def examples(player: Bot, opponent: Bot, games: int, seed: int, expert: Bot) -> Examples:
    """Examples from ``games`` seeded games of ``player`` against ``opponent``, the seats alternating.

    Every decision of ``player`` with a choice is labelled with what ``expert`` chooses there.
    """
    codec = ActionCodec(PLAYERS)
    observations: list[bytes] = []
    masks: list[tuple[bool, ...]] = []
    labels: list[int] = []
    seen: list[int] = []
    rng = random.Random(seed)
    for game in range(games):
        seat = game % PLAYERS
        seats = [Seat.of(opponent, f"opponent {s}") for s in range(PLAYERS)]
        seats[seat] = Seat.of(player, "player")
        table = Table(CHEEKY_MONKEY, seats, seed=seed + game, events=False)
        for step in table.steps():
            state = step.before
            if step.seat != seat or len(legal_actions(state)) < 2:
                continue
            chosen = step.action if player is expert else expert.choose(state, rng)
            observations.append(bytes(full_observation(state, seat)))
            masks.append(codec.action_mask(state))
            labels.append(codec.encode_at(state, chosen))
            seen.append(seat)
    size = observation_layout("full", PLAYERS).size
    return (
        np.frombuffer(b"".join(observations), np.uint8).reshape(-1, size).copy(),
        np.array(masks, np.bool_),
        np.array(labels, np.int64),
        np.array(seen, np.int8),
    )


def join(*parts: Examples) -> Examples:
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([p[3] for p in parts]),
    )


def seen_from(data: Examples, seat: int) -> Examples:
    """The examples seen from ``seat`` only."""
    keep = data[3] == seat
    return data[0][keep], data[1][keep], data[2][keep], data[3][keep]


def fit(data: Examples, hidden: int, epochs: int, seed: int) -> tuple[dict[str, npt.NDArray[Any]], str]:
    """Train a network on ``data`` (5% held out); return its float16 weights and how often it agrees."""
    torch.manual_seed(seed)
    observations, masks, labels, _ = data
    order = np.random.default_rng(seed).permutation(len(labels))
    held = order[: len(order) // 20]
    train = order[len(order) // 20 :]
    layout = observation_layout("full", PLAYERS)
    x_all = torch.from_numpy(features(layout, observations))
    m_all = torch.tensor(masks)
    y_all = torch.tensor(labels)
    outputs = masks.shape[1]
    model = torch.nn.Sequential(
        torch.nn.Linear(x_all.shape[1], hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, outputs),
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    batch = 256
    generator = torch.Generator().manual_seed(seed)
    train_index = torch.tensor(train)
    for _ in range(epochs):
        model.train()
        for chunk in train_index[torch.randperm(len(train_index), generator=generator)].split(batch):
            logits = model(x_all[chunk]).masked_fill(~m_all[chunk], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y_all[chunk])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
    layers = [model[0], model[2], model[4]]
    weights: dict[str, npt.NDArray[Any]] = {"players": np.array(PLAYERS), "rules": np.array(RULES)}
    for i, layer in enumerate(layers):
        weights[f"w{i}"] = layer.weight.detach().numpy().astype(np.float16)
        weights[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    # Agreement of the float16 network, as it will be played, on the training and held-out examples.
    network = Network(weights)

    def agreement(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        h = features(layout, observations[rows])
        for i, (w, b) in enumerate(network._layers):
            h = h @ w.T + b
            if i < len(network._layers) - 1:
                h = np.maximum(h, 0)
        h[~masks[rows]] = -np.inf
        return np.argmax(h, axis=1) == labels[rows]

    seen = agreement(train[: len(held)])
    fresh = agreement(held)
    kinds = {
        "draw/stop/herd": labels[held] < 3,
        "claim/swap": (labels[held] >= 3) & (labels[held] < 3 + 2 * PLAYERS),
        "place": labels[held] >= 3 + 2 * PLAYERS,
    }
    by_kind = ", ".join(f"{name} {fresh[where].mean():.1%} of {where.sum()}" for name, where in kinds.items())
    return weights, f"agreement {seen.mean():.1%} trained, {fresh.mean():.1%} held out ({by_kind})"


def check(weights: dict[str, npt.NDArray[Any]], games: int) -> str:
    bot = LearnedBot(Network(weights), fallback=HeuristicBot())
    summary = simulate([bot, "heuristic"], games, seed=CHECK_SEED)
    wins = summary.bots[0].wins
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.1%} ({low:.1%} - {high:.1%}) against the heuristic bot, {games} games"


def win_rate_from(bot: Bot, seat: int, games: int, seed: int) -> str:
    """``bot`` in ``seat`` against the heuristic bot for ``games`` seeded games: its win rate and interval."""
    wins = 0.0
    for game in range(games):
        seats = [Seat.bot(CHEEKY_MONKEY, "heuristic") for _ in range(PLAYERS)]
        seats[seat] = Seat.of(bot, "learned")
        table = Table(CHEEKY_MONKEY, seats, seed=seed + game, events=False)
        table.advance()
        outcome = table.outcome()
        assert outcome is not None
        wins += outcome.returns[seat]
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.1%} ({low:.1%} - {high:.1%})"


def seat_check(data: Examples, args: argparse.Namespace, log: Any) -> None:
    """Train one network on the examples seen from seat 0 only and one on seat 1's; play each from both seats."""
    for trained in range(PLAYERS):
        weights, agreement = fit(seen_from(data, trained), args.hidden, args.epochs, args.seed)
        bot = LearnedBot(Network(weights), fallback=HeuristicBot())
        rates = [
            f"from seat {seat}: {win_rate_from(bot, seat, args.seat_check, CHECK_SEED)}" for seat in range(PLAYERS)
        ]
        log(f"trained on seat {trained}'s examples only ({agreement}): {'; '.join(rates)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("cheekymonkey/cheeky/bots/learned.npz"))
    parser.add_argument("--seed", type=int, default=0, help="seeds games from seed * 1,000,000")
    parser.add_argument("--games", type=int, default=1500, help="games of the expert against the heuristic")
    parser.add_argument("--self-games", type=int, default=500, help="games of the expert against itself")
    parser.add_argument("--rounds", type=int, default=3, help="DAgger rounds")
    parser.add_argument("--round-games", type=int, default=1000, help="games of the network per round")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--check-games", type=int, default=1000)
    parser.add_argument("--cache", type=Path, help="keep the examples here, and reuse the ones already kept")
    parser.add_argument(
        "--seat-check",
        type=int,
        metavar="GAMES",
        help="instead of training the bot: networks trained on one seat's examples, played from each seat",
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    assert Ruleset.preset(RULES) == Ruleset.standard()
    start = time.process_time()
    base = args.seed * 1_000_000

    def log(message: str) -> None:
        print(f"[{time.process_time() - start:7.0f} s CPU] {message}", flush=True)

    expert = ExpectimaxBot()

    def cached(name: str, make: Any) -> Examples:
        path = None if args.cache is None else args.cache / f"{name}.npz"
        if path is not None and path.exists():
            with np.load(path) as kept:
                return kept["observations"], kept["masks"], kept["labels"], kept["seats"]
        made: Examples = make()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, observations=made[0], masks=made[1], labels=made[2], seats=made[3])
        return made

    data = join(
        cached(f"expert-{args.seed}-{args.games}", lambda: examples(expert, HeuristicBot(), args.games, base, expert)),
        cached(
            f"self-{args.seed}-{args.self_games}",
            lambda: examples(expert, ExpectimaxBot(), args.self_games, base + 100_000, expert),
        ),
    )
    log(f"{len(data[2])} examples from {args.games + args.self_games} games of the expert")
    if args.seat_check:
        seat_check(data, args, log)
        return
    weights, agreement = fit(data, args.hidden, args.epochs, args.seed)
    log(f"round 0: {agreement}; {check(weights, args.check_games)}")
    for round_ in range(1, args.rounds + 1):
        player = LearnedBot(Network(weights), fallback=HeuristicBot())
        more = examples(player, HeuristicBot(), args.round_games, base + 200_000 + round_ * 10_000, expert)
        data = join(data, more)
        weights, agreement = fit(data, args.hidden, args.epochs, args.seed + round_)
        log(f"round {round_}: {len(data[2])} examples; {agreement}; {check(weights, args.check_games)}")
    np.savez_compressed(args.out, **weights)
    log(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
