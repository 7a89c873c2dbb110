"""Train the learned bot's network from the batched engine, in a tenth of the imitation's CPU time.

Needs the ``train`` extra (PyTorch) and the ``batched`` extra (numba): ``pip install -e '.[train,batched]'``.
The network is the one :class:`cheekymonkey.cheeky.bots.learned.LearnedBot` plays (the same inputs,
:func:`~cheekymonkey.cheeky.bots.learned.features`, two hidden layers of ReLU units, one output per action
index), written as the same float16 file. Every game is played by
:class:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey`, B games at a time, the heuristic bot's rule
included (the engine's :meth:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey.heuristic_actions`, a compiled
port of :class:`~cheekymonkey.HeuristicBot` over the batch's arrays; ``check`` shows it chooses as the bot does
in every decision of 20,000), and the expectimax bot's search (the engine's
:meth:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey.expectimax_actions`, compiled the same way;
``check --bot expectimax`` shows it chooses as :class:`~cheekymonkey.ExpectimaxBot` in every decision of 20,000).
Every step is seeded, and PyTorch runs on one thread. Three methods:

``imitate``: imitation of the expectimax bot, its search compiled in the batch: the recipe of the shipped
    ``learned.npz``, now in the package (``cheekymonkey.cheeky._training``, run by ``cheekymonkey train
    --game cheeky-monkey``, with a progress bar, checkpoints and a reproducible seed). This subcommand runs
    it, taking the counts the bot page quotes with their recipe values only.

``train``: policy gradient against the heuristic rule.
    1. A warm start by imitation: batched games of the heuristic rule against itself; each decision with a
       choice is an example (the mover's full observation, the mask, the choice).
    2. PPO: in every game of the batch the network sits in one seat (half the games in each) and the
       heuristic rule in the other. The network samples its moves; when a game ends, each of its decisions
       in it gets the game's return from its seat (1 for a win, 1/2 for a shared one, 0 for a loss); the
       advantage is that return less a value network's estimate. Clipped PPO updates (Adam) train both
       networks on the decisions of the games finished so far, until ``--budget`` CPU seconds are spent.

``rollouts``: one step of policy improvement on the heuristic rule, learnt by the network.
    1. Positions: batched games of the heuristic rule against itself; each decision with a choice is kept
       with probability ``1 / --every``, until ``--positions`` are kept.
    2. Rollouts: from each position, each legal action is played and the heuristic rule plays every seat on
       to the end, ``--repeats`` times (the repeats of one position share their random streams across its
       actions); an action's value is the mover's mean return.
    3. Labels: the heuristic rule's choice, unless an action's value beats it by more than ``--margin``.
       The network is trained on them (cross-entropy over the legal actions, Adam). With ``--rounds``, the
       network then plays the heuristic rule and its own positions are labelled and added the same way.

Each way the weights are written as float16 to ``--out``, with the seat count and rules; the CPU time
(``time.process_time()``) is measured over the whole run, from before the first game to the written file.
After the timed part, the greedy network plays the heuristic rule in the batch (``--check-games`` games from
seed 990000, which no evaluation uses) and the win rate is printed.

    nice python training/train_batched.py imitate --out /tmp/imitate.npz
    nice python training/train_batched.py train --out /tmp/ppo.npz
    nice python training/train_batched.py rollouts --out /tmp/rollouts.npz
    python training/train_batched.py evaluate /tmp/ppo.npz heuristic --games 6000 --seed 170000 --workers 2
    python training/train_batched.py check --states 20000
    python training/train_batched.py check --bot expectimax --states 20000
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

try:
    import torch
except ImportError:
    sys.exit("training needs PyTorch: pip install -e '.[train]'")

from cheekymonkey import ExpectimaxBot, HeuristicBot, Ruleset
from cheekymonkey.batched import seed_streams
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey, CheekyBatchState
from cheekymonkey.cheeky.bots.learned import LearnedBot, Network, features, load_network
from cheekymonkey.cheeky.encoding import observation_layout
from cheekymonkey.simulation import simulate, wilson_interval

PLAYERS = 2
RULES = "standard"
RISK = 0.3
"""The heuristic bot's threshold (its default)."""
CHECK_SEED = 990_000


def heuristic_actions(
    engine: BatchedCheekyMonkey, states: CheekyBatchState, out: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.int64]:
    """The heuristic bot's action index in every game of the batch (0 where nobody is to move)."""
    return engine.heuristic_actions(states, RISK, out)


def expectimax_actions(
    engine: BatchedCheekyMonkey,
    states: CheekyBatchState,
    out: npt.NDArray[np.int64] | None = None,
    where: npt.NDArray[np.bool_] | None = None,
    values: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.int64]:
    """The expectimax bot's action index in the games ``where`` (every game if None), 0 elsewhere; depth 2."""
    return engine.expectimax_actions(states, 2, out, where, values)


def gather(states: CheekyBatchState, rows: npt.NDArray[np.int64]) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the games ``rows`` of ``states``, copied (a store of positions)."""
    return {name: getattr(states, name)[rows].copy() for name in CheekyBatchState.FIELDS}


def put_rows(
    states: CheekyBatchState,
    rows: npt.NDArray[np.int64],
    store: dict[str, npt.NDArray[Any]],
    src: npt.NDArray[np.int64],
) -> None:
    """Games ``rows`` of ``states`` become the stored positions ``src``, every array copied."""
    for name in CheekyBatchState.FIELDS:
        getattr(states, name)[rows] = store[name][src]


def positions(
    engine: BatchedCheekyMonkey,
    count: int,
    batch: int,
    seed: int,
    every: int,
    network: Network | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """``count`` decision positions with a choice, from batched games against the heuristic rule.

    Without ``network``, the heuristic rule plays every seat and the positions of both are kept; with it, the
    network (greedy) plays one seat of each game (seat 0 in the even games, 1 in the odd ones), the heuristic
    rule the other, and only the network's positions are kept. At every step, each game whose mover
    has two or more legal actions is kept with probability ``1 / every``, so that the positions spread over
    whole games (a small batch and a large ``every`` spread them over more games).
    """
    states = engine.init(batch, seed)
    keep = np.random.default_rng(seed)
    actions = np.zeros(batch, np.int64)
    seats = (np.arange(batch) % PLAYERS).astype(np.int32)
    observations = np.zeros((batch, engine.observation_size), np.uint8)
    kept: list[dict[str, npt.NDArray[Any]]] = []
    total = 0
    while total < count:
        heuristic_actions(engine, states, actions)
        mine = states.current_player == seats
        if network is not None:
            network_actions(network, engine, states, np.flatnonzero(mine), observations, actions)
        choice = (states.legal_action_mask.sum(axis=1) >= 2) & (keep.random(batch) * every < 1)
        if network is not None:
            choice &= mine
        rows = np.flatnonzero(choice)[: count - total]
        kept.append(gather(states, rows))
        total += rows.size
        engine.step(states, actions)
    return {name: np.concatenate([k[name] for k in kept]) for name in CheekyBatchState.FIELDS}


def greedy(
    network: Network, observations: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """The float16 network's greedy choice (as LearnedBot plays it) from each observation, among its mask's actions."""
    h = features(network.layout, observations)
    for i, (w, b) in enumerate(network._layers):
        h = h @ w.T + b
        if i < len(network._layers) - 1:
            h = np.maximum(h, 0)
    h[~masks] = -np.inf
    return np.argmax(h, axis=1)


def network_actions(
    network: Network,
    engine: BatchedCheekyMonkey,
    states: CheekyBatchState,
    rows: npt.NDArray[np.int64],
    observations: npt.NDArray[np.uint8],
    out: npt.NDArray[np.int64],
) -> None:
    """The network's greedy choice (float16 weights, as LearnedBot plays them) in games ``rows``, into ``out``."""
    if not rows.size:
        return
    engine.observation(states, dtype=np.uint8, out=observations)
    h = features(network.layout, observations[rows])
    for i, (w, b) in enumerate(network._layers):
        h = h @ w.T + b
        if i < len(network._layers) - 1:
            h = np.maximum(h, 0)
    h[~states.legal_action_mask[rows]] = -np.inf
    out[rows] = np.argmax(h, axis=1)


def rollout_values(
    engine: BatchedCheekyMonkey, store: dict[str, npt.NDArray[Any]], repeats: int, batch: int, seed: int
) -> tuple[npt.NDArray[np.float64], int]:
    """Each legal action's value in each stored position (-inf for an illegal action), by rollouts.

    The value is the mover's mean return when it plays the action and the heuristic rule plays every seat
    after it, over ``repeats`` games.

    The games run ``batch`` at a time; a finished one takes the next (position, action, repeat) at once. The
    repeats of one position share their random streams across its actions (common random numbers), so the
    difference between two actions' values is less noisy than either value. Returns the values and the
    batched steps played.
    """
    mask = store["legal_action_mask"]
    positions_, moves = np.nonzero(mask)
    jobs_position = np.repeat(positions_, repeats)
    jobs_action = np.repeat(moves, repeats)
    jobs_repeat = np.tile(np.arange(repeats), positions_.size)
    jobs = jobs_position.size
    mover = store["current_player"]
    streams = seed_streams(seed, mask.shape[0] * repeats)
    sums = np.zeros(mask.shape, np.float64)
    states = engine.init(batch, seed)
    job = np.full(batch, -1, np.int64)
    fresh = np.zeros(batch, np.bool_)
    actions = np.zeros(batch, np.int64)
    taken = 0
    steps = 0

    def load(rows: npt.NDArray[np.int64]) -> None:
        nonlocal taken
        rows = rows[: jobs - taken]
        new = np.arange(taken, taken + rows.size)
        taken += rows.size
        put_rows(states, rows, store, jobs_position[new])
        states.rng[rows] = streams[jobs_position[new] * repeats + jobs_repeat[new]]
        job[rows] = new
        fresh[rows] = True

    load(np.arange(batch))
    while (job >= 0).any():
        heuristic_actions(engine, states, actions)
        first = np.flatnonzero(fresh)
        actions[first] = jobs_action[job[first]]
        fresh[first] = False
        engine.step(states, actions)
        steps += batch
        ended = np.flatnonzero((states.terminated | states.truncated) & (job >= 0))
        if ended.size:
            j = job[ended]
            p = jobs_position[j]
            np.add.at(sums, (p, jobs_action[j]), states.rewards[ended, mover[p]])
            job[ended] = -1
            if taken < jobs:
                load(ended)
    values = np.where(mask, sums / repeats, -np.inf)
    return values, steps


def policy_network(inputs: int, hidden: int, outputs: int) -> torch.nn.Sequential:
    return torch.nn.Sequential(
        torch.nn.Linear(inputs, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, outputs),
    )


def weights_of(model: torch.nn.Sequential) -> dict[str, npt.NDArray[Any]]:
    weights: dict[str, npt.NDArray[Any]] = {"players": np.array(PLAYERS), "rules": np.array(RULES)}
    for i, layer in enumerate([model[0], model[2], model[4]]):
        weights[f"w{i}"] = layer.weight.detach().numpy().astype(np.float16)
        weights[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    return weights


class Trainer:
    """Policy gradient (PPO) against the heuristic rule in the batch, after a warm start by imitation of it."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.engine = BatchedCheekyMonkey(PLAYERS, Ruleset.preset(RULES), observation="full")
        self.layout = observation_layout("full", PLAYERS)
        self.size = self.layout.size
        b = args.batch
        self.seats = (np.arange(b) % PLAYERS).astype(np.int32)
        self.observations = np.zeros((b, self.size), np.uint8)
        self.actions = np.zeros(b, np.int64)
        torch.manual_seed(args.seed)
        self.generator = torch.Generator().manual_seed(args.seed)
        inputs = self.size + 8 + 1 + PLAYERS + 8
        outputs = self.engine.num_actions
        self.policy = policy_network(inputs, args.hidden, outputs)
        self.value = torch.nn.Sequential(
            torch.nn.Linear(inputs, args.value_hidden), torch.nn.ReLU(), torch.nn.Linear(args.value_hidden, 1)
        )
        self.steps = 0  # batched engine steps, summed over the games of the batch (every seat's decisions)
        self.decisions = 0  # the network's decisions with a choice it was trained on

    def features(self, states: CheekyBatchState, rows: npt.NDArray[np.int64]) -> torch.Tensor:
        """The network's inputs for the movers of games ``rows``."""
        self.engine.observation(states, dtype=np.uint8, out=self.observations)
        return torch.from_numpy(features(self.layout, self.observations[rows]))

    def imitation(self, start_seed: int) -> None:
        """Warm start: the policy imitates the heuristic rule, the value network learns the results."""
        args = self.args
        engine = self.engine
        states = engine.init(args.batch, start_seed)
        xs: list[torch.Tensor] = []
        ms: list[npt.NDArray[np.bool_]] = []
        ys: list[npt.NDArray[np.int64]] = []
        owners: list[npt.NDArray[np.int64]] = []  # (slot, serial, seat) of each example
        serial = np.arange(args.batch, dtype=np.int64)
        next_serial = args.batch
        results: dict[int, npt.NDArray[np.float32]] = {}
        for _ in range(args.imitation_steps):
            mask = states.legal_action_mask
            heuristic_actions(engine, states, self.actions)
            rows = np.flatnonzero(mask.sum(axis=1) >= 2)
            if rows.size:
                xs.append(self.features(states, rows))
                ms.append(mask[rows].copy())
                ys.append(self.actions[rows].copy())
                owners.append(np.stack([serial[rows], states.current_player[rows].astype(np.int64)], axis=1))
            states = engine.step(states, self.actions)
            self.steps += args.batch
            done = np.flatnonzero(states.terminated | states.truncated)
            for b in done:
                results[int(serial[b])] = states.rewards[b].copy()
                serial[b] = next_serial
                next_serial += 1
        x = torch.cat(xs)
        m = torch.from_numpy(np.concatenate(ms))
        y = torch.from_numpy(np.concatenate(ys))
        owner = np.concatenate(owners)
        finished = np.array([int(s) in results for s in owner[:, 0]])
        returns = np.array(
            [results[int(s)][int(seat)] if ok else 0.0 for (s, seat), ok in zip(owner, finished, strict=True)],
            np.float32,
        )
        r = torch.from_numpy(returns)
        keep = torch.from_numpy(finished)
        optimiser = torch.optim.Adam([*self.policy.parameters(), *self.value.parameters()], lr=args.imitation_lr)
        count = len(y)
        for _ in range(args.imitation_epochs):
            for chunk in torch.randperm(count, generator=self.generator).split(args.minibatch):
                logits = self.policy(x[chunk]).masked_fill(~m[chunk], -1e9)
                loss = torch.nn.functional.cross_entropy(logits, y[chunk])
                k = chunk[keep[chunk]]
                if len(k):
                    loss = loss + 0.5 * torch.nn.functional.mse_loss(self.value(x[k]).squeeze(1), r[k])
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
        self.log(f"imitation: {count} examples of the heuristic rule, {int(finished.sum())} with a finished game")

    def reinforce(self, start_seed: int, deadline: float) -> None:
        """PPO against the heuristic rule until ``deadline`` (process CPU seconds)."""
        args = self.args
        engine = self.engine
        states = engine.init(args.batch, start_seed)
        optimiser = torch.optim.Adam(
            [
                {"params": self.policy.parameters(), "lr": args.lr},
                {"params": self.value.parameters(), "lr": args.lr},
            ]
        )
        serial = np.arange(args.batch, dtype=np.int64)
        next_serial = args.batch
        outcome = np.full(1 << 20, np.nan, np.float32)  # the network's return in each game, by serial
        pending: list[
            tuple[torch.Tensor, npt.NDArray[np.bool_], npt.NDArray[np.int64], torch.Tensor, npt.NDArray[np.int64]]
        ] = []
        update = 0
        wins = 0.0
        games = 0
        while time.process_time() < deadline:
            for _ in range(args.rollout):
                mask = states.legal_action_mask
                heuristic_actions(engine, states, self.actions)
                mine = (states.current_player == self.seats) & (mask.sum(axis=1) >= 2)
                rows = np.flatnonzero(mine)
                if rows.size:
                    x = self.features(states, rows)
                    m = mask[rows].copy()
                    with torch.no_grad():
                        logits = self.policy(x).masked_fill(~torch.from_numpy(m), -1e9)
                        dist = torch.distributions.Categorical(logits=logits, validate_args=False)
                        chosen = dist.sample()
                        logp = dist.log_prob(chosen)
                    self.actions[rows] = chosen.numpy()
                    pending.append((x, m, chosen.numpy().astype(np.int64), logp, serial[rows].copy()))
                states = engine.step(states, self.actions)
                self.steps += args.batch
                done = np.flatnonzero(states.terminated | states.truncated)
                if done.size:
                    got = states.rewards[done, self.seats[done]]
                    outcome[serial[done]] = got
                    wins += float(got.sum())
                    games += done.size
                    serial[done] = np.arange(next_serial, next_serial + done.size)
                    next_serial += done.size
            # The decisions whose game has ended are trained on; the others wait for their game's end.
            x = torch.cat([p[0] for p in pending])
            m = np.concatenate([p[1] for p in pending])
            a = np.concatenate([p[2] for p in pending])
            old = torch.cat([p[3] for p in pending])
            s = np.concatenate([p[4] for p in pending])
            ret = outcome[s]
            ready = ~np.isnan(ret)
            keep = np.flatnonzero(~ready)
            at = np.flatnonzero(ready)
            if at.size < args.minibatch:  # too few finished yet: keep them for the next update
                pending = [(x, m, a, old, s)]
                continue
            pending = [(x[keep], m[keep], a[keep], old[keep], s[keep])] if keep.size else []
            self.ppo(
                optimiser, x[at], torch.from_numpy(m[at]), torch.from_numpy(a[at]), old[at], torch.from_numpy(ret[at])
            )
            self.decisions += at.size
            update += 1
            if update % args.log_every == 0:
                self.log(
                    f"update {update}: {self.steps:,} steps, {games} games, won {wins / max(games, 1):.1%} of them"
                )
                wins = 0.0
                games = 0

    def ppo(
        self,
        optimiser: torch.optim.Optimizer,
        x: torch.Tensor,
        m: torch.Tensor,
        a: torch.Tensor,
        old: torch.Tensor,
        ret: torch.Tensor,
    ) -> None:
        """Clipped PPO epochs over the decisions ``x`` (masks ``m``, actions ``a``, log-probabilities ``old``)."""
        args = self.args
        with torch.no_grad():
            advantage = ret - self.value(x).squeeze(1)
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        count = len(a)
        for _ in range(args.epochs):
            for chunk in torch.randperm(count, generator=self.generator).split(args.minibatch):
                logits = self.policy(x[chunk]).masked_fill(~m[chunk], -1e9)
                dist = torch.distributions.Categorical(logits=logits, validate_args=False)
                logp = dist.log_prob(a[chunk])
                ratio = torch.exp(logp - old[chunk])
                adv = advantage[chunk]
                clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                entropy = dist.entropy().mean()
                value_loss = torch.nn.functional.mse_loss(self.value(x[chunk]).squeeze(1), ret[chunk])
                loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()

    def log(self, message: str) -> None:
        """Print ``message`` after the CPU seconds spent."""
        print(f"[{time.process_time() - self.start:6.1f} s CPU] {message}", flush=True)

    def greedy_check(self, weights: dict[str, npt.NDArray[Any]], games: int) -> tuple[float, int]:
        """See :func:`greedy_check`."""
        return greedy_check(self.engine, weights, games, self.args.batch)


def greedy_check(
    engine: BatchedCheekyMonkey, weights: dict[str, npt.NDArray[Any]], games: int, batch: int
) -> tuple[float, int]:
    """The float16 network, greedy, against the heuristic rule in the batch: its returns and games played."""
    if True:
        network = Network(weights)
        layout = observation_layout("full", PLAYERS)
        size = layout.size
        batch = min(batch, games)
        seats = (np.arange(batch) % PLAYERS).astype(np.int32)
        states = engine.init(batch, CHECK_SEED)
        observations = np.zeros((batch, size), np.uint8)
        actions = np.zeros(batch, np.int64)
        total = 0.0
        played = 0
        alive = np.ones(batch, np.bool_)  # each slot plays games until the count is reached
        started = batch
        while played < games:
            mask = states.legal_action_mask
            heuristic_actions(engine, states, actions)
            rows = np.flatnonzero(states.current_player == seats)
            if rows.size:
                engine.observation(states, dtype=np.uint8, out=observations)
                h = features(layout, observations[rows])
                for i, (w, b) in enumerate(network._layers):
                    h = h @ w.T + b
                    if i < len(network._layers) - 1:
                        h = np.maximum(h, 0)
                h[~mask[rows]] = -np.inf
                actions[rows] = np.argmax(h, axis=1)
            states = engine.step(states, actions)
            for b in np.flatnonzero((states.terminated | states.truncated) & alive):
                total += float(states.rewards[b, seats[b]])
                played += 1
                if started >= games:
                    alive[b] = False
                else:
                    started += 1
        return total, played


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(1)
    start = time.process_time()
    trainer = Trainer(args)
    trainer.start = start
    base = args.seed * 1_000_000
    trainer.imitation(base)
    trainer.log(f"after imitation: {trainer.steps:,} steps")
    trainer.reinforce(base + 500_000, start + args.budget)
    weights = weights_of(trainer.policy)
    np.savez_compressed(args.out, **weights)
    spent = time.process_time() - start
    trainer.log(
        f"wrote {args.out}: {spent:.1f} s CPU, {trainer.steps:,} batched steps, "
        f"{trainer.decisions:,} of the network's decisions trained on by PPO"
    )
    if args.check_games:
        total, played = trainer.greedy_check(weights, args.check_games)
        low, high = wilson_interval(total, played)
        print(
            f"untimed check, greedy against the heuristic rule in the batch: {total / played:.1%} "
            f"({low:.1%} - {high:.1%}) of {played} games from seed {CHECK_SEED}"
        )


def fit(x: torch.Tensor, m: torch.Tensor, y: torch.Tensor, args: argparse.Namespace, log: Any) -> torch.nn.Sequential:
    """A policy network trained to choose ``y`` among the legal actions ``m`` (cross-entropy, Adam)."""
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    model = policy_network(x.shape[1], args.hidden, m.shape[1])
    optimiser = torch.optim.Adam(model.parameters(), lr=args.fit_lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, args.fit_epochs)
    for _ in range(args.fit_epochs):
        for chunk in torch.randperm(len(y), generator=generator).split(args.fit_batch):
            logits = model(x[chunk]).masked_fill(~m[chunk], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y[chunk])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
    with torch.no_grad():
        agree = (model(x).masked_fill(~m, -1e9).argmax(dim=1) == y).float().mean().item()
    log(f"fitted {args.fit_epochs} epochs on {len(y):,} positions: it chooses as its label in {agree:.1%}")
    return model


def train_rollouts(args: argparse.Namespace) -> None:
    """Rollout values: each action's value by the heuristic rule's games played on after it, learnt by the network."""
    torch.set_num_threads(1)
    start = time.process_time()

    def log(message: str) -> None:
        print(f"[{time.process_time() - start:6.1f} s CPU] {message}", flush=True)

    engine = BatchedCheekyMonkey(PLAYERS, Ruleset.preset(RULES), observation="full")
    layout = observation_layout("full", PLAYERS)
    base = args.seed * 1_000_000
    xs: list[torch.Tensor] = []
    ms: list[torch.Tensor] = []
    qs: list[torch.Tensor] = []
    steps = 0
    network: Network | None = None
    weights: dict[str, npt.NDArray[Any]] = {}
    for round_ in range(args.rounds + 1):
        seed = base + round_ * 100_000
        store = positions(engine, args.positions, args.batch, seed, args.every, network)
        count = store["rng"].shape[0]
        values, played = rollout_values(engine, store, args.repeats, args.rollout_batch, seed + 1)
        steps += played
        states = engine.init(count, seed + 2)
        put_rows(states, np.arange(count), store, np.arange(count))
        observations = engine.observation(states, seat=None, dtype=np.uint8)
        mask = store["legal_action_mask"].copy()
        xs.append(torch.from_numpy(features(layout, observations)))
        ms.append(torch.from_numpy(mask))
        # The label is the heuristic rule's choice, unless the rollouts find an action better by more than
        # --margin (a conservative step of policy improvement: where the rollouts cannot tell, or the network
        # has seen nothing like the position, it plays as the heuristic rule).
        best = np.argmax(values, axis=1)
        heuristic = heuristic_actions(engine, states)
        gain = values[np.arange(count), best] - values[np.arange(count), heuristic]
        label = np.where(gain > args.margin, best, heuristic)
        qs.append(torch.from_numpy(label))
        log(
            f"round {round_}: {count:,} positions ({'the heuristic rule' if network is None else 'the network'} "
            f"against the heuristic rule), {played:,} batched steps of rollouts, {args.repeats} per legal action; "
            f"the label differs from the heuristic rule's choice in {np.mean(heuristic != label):.1%}"
        )
        model = fit(torch.cat(xs), torch.cat(ms), torch.cat(qs), args, log)
        weights = weights_of(model)
        network = Network(weights)
    np.savez_compressed(args.out, **weights)
    spent = time.process_time() - start
    log(f"wrote {args.out}: {spent:.1f} s CPU, {steps:,} batched steps of rollouts")
    if args.check_games:
        total, played = greedy_check(engine, weights, args.check_games, args.batch)
        low, high = wilson_interval(total, played)
        print(
            f"untimed check, greedy against the heuristic rule in the batch: {total / played:.1%} "
            f"({low:.1%} - {high:.1%}) of {played} games from seed {CHECK_SEED}"
        )


def imitate(args: argparse.Namespace) -> None:
    """Imitation of the compiled expectimax bot: the package's recipe (``cheekymonkey train``), nothing else.

    The recipe moved into ``cheekymonkey.cheeky._training``; the options the bot page quotes are taken with
    the recipe's values only (its budget 1), and ``--check-games`` plays the declared evaluation's opponent
    from the check seed.
    """
    recipe = {"examples": 300_000, "rounds": 1, "round_examples": 100_000, "epochs": 10, "round_epochs": 4}
    other = {name: getattr(args, name) for name, value in recipe.items() if getattr(args, name) != value}
    if other:
        sys.exit(f"the recipe's counts are fixed ({other} differ); scale them with cheekymonkey train --budget")
    from cheekymonkey.cli import main as cli

    argv = ["train", "--game", "cheeky-monkey", "--out", str(args.out), "--seed", str(args.seed)]
    status = cli([*argv, "--eval-games", str(args.check_games), "--eval-seed", str(CHECK_SEED)])
    if status:
        sys.exit(status)


def evaluate(args: argparse.Namespace) -> None:
    """The declared evaluation: a weights file's bot against the heuristic bot or another weights file's."""
    bot = LearnedBot(load_network(args.weights), fallback=HeuristicBot())
    opponent: Any = (
        "heuristic"
        if args.opponent == "heuristic"
        else LearnedBot(load_network(args.opponent), fallback=HeuristicBot())
    )
    began = time.strftime("%H:%M:%S", time.gmtime())
    load = os.getloadavg()[0]
    summary = simulate([bot, opponent], args.games, seed=args.seed, workers=args.workers)
    mine, theirs = summary.bots[0], summary.bots[1]
    print(
        f"{args.weights} against {args.opponent}: won {mine.wins:g} of {summary.games} games, {mine.win_rate:.1%} "
        f"(95% interval {mine.low:.1%} - {mine.high:.1%}); "
        f"mean scores {mine.mean_score:.1f} to {theirs.mean_score:.1f}; "
        f"first seat won {summary.seat_win_rates[0]:.1%}; {began} to {time.strftime('%H:%M:%S', time.gmtime())} UTC, "
        f"load average {load:.1f} to {os.getloadavg()[0]:.1f}"
    )


def check(args: argparse.Namespace) -> None:
    """A compiled rule chooses as its scalar bot does, in every decision of batched games.

    ``--bot heuristic``: :meth:`~BatchedCheekyMonkey.heuristic_actions` against :class:`HeuristicBot`;
    ``--bot expectimax``: :meth:`~BatchedCheekyMonkey.expectimax_actions` against :class:`ExpectimaxBot`. Half
    the games play the compiled rule's moves and half random ones, to reach varied positions; the count of
    decisions where the two differ is printed (and the decisions per second of each, the compiled one timed
    over the whole batch and the scalar one over the decisions it was asked).
    """
    engine = BatchedCheekyMonkey(PLAYERS, Ruleset.preset(RULES), observation="full")
    from cheekymonkey.batched import random_legal_actions

    states = engine.init(64, 5)
    streams = seed_streams(6, 64)
    bot: Any = HeuristicBot(RISK) if args.bot == "heuristic" else ExpectimaxBot()
    compiled = heuristic_actions if args.bot == "heuristic" else expectimax_actions
    compiled(engine, states)  # compiled (or loaded from numba's cache) before the timing
    rng = random.Random(0)
    compared = 0
    differ = 0
    compiled_time = 0.0
    scalar_time = 0.0
    while compared < args.states:
        began = time.perf_counter()
        ours = compiled(engine, states)
        compiled_time += time.perf_counter() - began
        for b in np.flatnonzero(states.current_player >= 0):
            state = engine.decode(states, int(b))
            began = time.perf_counter()
            expected = bot.choose(state, rng)
            scalar_time += time.perf_counter() - began
            got = engine.encoding.decode(int(ours[b]), state)
            if got != expected:
                differ += 1
                print(f"the compiled rule chose {got} where {bot!r} chose {expected} in {state!r}")
            compared += 1
        # Random moves half the time and the rule's the other half, to reach varied positions.
        moves = random_legal_actions(states.legal_action_mask, streams)
        pick = np.flatnonzero(np.arange(64) % 2 == 0)
        moves[pick] = ours[pick]
        states = engine.step(states, moves)
    print(
        f"the compiled {args.bot} rule chose as {bot!r} in {compared - differ} of {compared} decisions "
        f"({differ} differ); {compared / compiled_time:,.0f} decisions/s compiled, "
        f"{compared / scalar_time:,.0f} decisions/s scalar; load average {os.getloadavg()[0]:.1f}"
    )
    if differ:
        sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("train", help="train a network and write its weights")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--seed", type=int, default=0, help="seeds the games from seed * 1,000,000, and PyTorch")
    t.add_argument("--budget", type=float, default=95.0, help="CPU seconds after which no update starts")
    t.add_argument("--batch", type=int, default=1024, help="games played at once")
    t.add_argument("--hidden", type=int, default=128)
    t.add_argument("--value-hidden", type=int, default=64)
    t.add_argument("--imitation-steps", type=int, default=100, help="steps of the batch of heuristic games")
    t.add_argument("--imitation-epochs", type=int, default=4)
    t.add_argument("--imitation-lr", type=float, default=2e-3)
    t.add_argument("--rollout", type=int, default=32, help="steps of the batch between updates")
    t.add_argument("--epochs", type=int, default=3, help="PPO epochs per update")
    t.add_argument("--minibatch", type=int, default=2048)
    t.add_argument("--lr", type=float, default=3e-4)
    t.add_argument("--clip", type=float, default=0.2)
    t.add_argument("--entropy", type=float, default=0.003)
    t.add_argument("--log-every", type=int, default=10)
    t.add_argument("--check-games", type=int, default=4000)
    e = commands.add_parser("evaluate", help="a weights file's bot against the heuristic bot or another's")
    e.add_argument("weights", type=Path)
    e.add_argument("opponent", help="'heuristic', or a weights file")
    e.add_argument("--games", type=int, required=True)
    e.add_argument("--seed", type=int, required=True)
    e.add_argument("--workers", type=int, default=1)
    c = commands.add_parser("check", help="a compiled rule against its scalar bot")
    c.add_argument("--states", type=int, default=20_000)
    c.add_argument("--bot", choices=("heuristic", "expectimax"), default="heuristic")
    r = commands.add_parser("rollouts", help="train a network on rollout labels and write its weights")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--seed", type=int, default=0, help="seeds the games from seed * 1,000,000, and PyTorch")
    r.add_argument("--batch", type=int, default=256, help="games played at once for the positions")
    r.add_argument("--positions", type=int, default=20_000)
    r.add_argument("--every", type=int, default=8, help="one position with a choice in this many is kept")
    r.add_argument("--repeats", type=int, default=64, help="games played on after each legal action")
    r.add_argument("--rollout-batch", type=int, default=8192)
    r.add_argument("--rounds", type=int, default=1, help="rounds of positions from the network's own games")
    r.add_argument("--margin", type=float, default=0.03, help="the gain an action needs over the rule's")
    r.add_argument("--hidden", type=int, default=128)
    r.add_argument("--fit-epochs", type=int, default=20)
    r.add_argument("--fit-batch", type=int, default=256)
    r.add_argument("--fit-lr", type=float, default=1e-3)
    r.add_argument("--check-games", type=int, default=4000)
    i = commands.add_parser("imitate", help="the package's recipe: cheekymonkey train --game cheeky-monkey")
    i.add_argument("--out", type=Path, required=True)
    i.add_argument("--seed", type=int, default=0, help="seeds the games from seed * 1,000,000, and PyTorch")
    i.add_argument("--examples", type=int, default=300_000)
    i.add_argument("--rounds", type=int, default=1)
    i.add_argument("--round-examples", type=int, default=100_000)
    i.add_argument("--epochs", type=int, default=10)
    i.add_argument("--round-epochs", type=int, default=4)
    i.add_argument("--check-games", type=int, default=2000, help="games against the heuristic bot afterwards")
    args = parser.parse_args(argv)
    commands_run = {
        "rollouts": train_rollouts,
        "train": train,
        "evaluate": evaluate,
        "check": check,
        "imitate": imitate,
    }
    commands_run[args.command](args)


if __name__ == "__main__":
    main()
