"""*Cheeky Monkey*'s recipe: the learned bot's network, by imitation of the expectimax bot in the batched engine.

Needs the ``train`` extra (PyTorch) and the ``batched`` extra (numba). The network is the one
:class:`~cheekymonkey.cheeky.bots.learned.LearnedBot` plays (the full observation and
:func:`~cheekymonkey.cheeky.bots.learned.features`, two hidden layers of 128 ReLU units, one output per action
index), written as the same float16 file. At budget 1 the recipe is the one that wrote the shipped
``learned.npz``, for 2 seats under the standard rules:

1. Examples: batched games of the expectimax bot's search compiled into the engine
   (:meth:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey.expectimax_actions`), three quarters against the
   heuristic bot's compiled rule (the seats alternating from game to game) and a quarter against itself; each
   of its decisions with two or more legal actions is an example (the mover's full observation, the mask, its
   choice): 300,000 of them, from seed ``SEED * 1,000,000`` (and ``+ 100,000`` for its games against itself).
2. The fit: cross-entropy of the expert's choice among the legal actions, Adam with a one-cycle schedule
   (peak learning rate 0.002), batches of 512, 10 epochs, 5% of the examples held out to say how often the
   network agrees with the expert on examples it was not trained on.
3. One round of DAgger: the network (greedy, as the float16 file plays) plays the heuristic rule in the batch,
   the compiled expert labels 100,000 of its decisions with a choice (from seed ``SEED * 1,000,000 +
   210,000``), those join the others, and the network is trained again from scratch for 4 epochs.

The budget scales the example counts; the epochs stay. PyTorch runs on one thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from cheekymonkey.cheeky.bots.learned import Network, features
from cheekymonkey.cheeky.encoding import observation_layout
from cheekymonkey.cheeky.rules import Ruleset

if TYPE_CHECKING:
    import torch

    from cheekymonkey.cheeky.batched import BatchedCheekyMonkey

__all__ = ["ARRAYS", "COMPRESSED", "EVALUATION", "PLAYERS", "RULES", "load_bot", "train"]

PLAYERS: Final = 2
RULES: Final = "standard"
ARRAYS: Final = ("players", "rules", "w0", "b0", "w1", "b1", "w2", "b2")
"""The arrays of the weights file, in the order written (the learned bot's file)."""
COMPRESSED: Final = True
"""The file is a compressed ``.npz``, as the shipped ``learned.npz`` is."""
EVALUATION: Final = ("heuristic", 6000, 170_000)
"""The declared evaluation: the opponent, the games, the first seed (``docs/explanation/bots.md``)."""
_RISK: Final = 0.3
"""The heuristic bot's threshold (its default)."""
_DEPTH: Final = 2
"""The expectimax bot's search depth."""
_EXAMPLES: Final = 300_000
_SELF_SHARE: Final = 0.25
_ROUNDS: Final = 1
_ROUND_EXAMPLES: Final = 100_000
_EPOCHS: Final = 10
_ROUND_EPOCHS: Final = 4
_BATCH: Final = 512
_HIDDEN: Final = 128
_FIT_BATCH: Final = 512
_FIT_LR: Final = 2e-3


def _expert_examples(
    engine: BatchedCheekyMonkey,
    count: int,
    seed: int,
    player: str,
    network: Network | None,
    advance: Any,
) -> dict[str, npt.NDArray[Any]]:
    """``count`` decisions with a choice, labelled by the compiled expectimax bot: observations, masks, choices.

    ``player``: ``"heuristic"``, the expert in one seat (seat 0 in the even games) against the heuristic rule,
    its decisions kept; ``"self"``, the expert in both seats; ``"network"``, ``network`` (greedy) against the
    heuristic rule, its decisions kept and labelled with the expert's choice there (DAgger).
    """
    batch = _BATCH
    states = engine.init(batch, seed)
    seats = (np.arange(batch) % PLAYERS).astype(np.int32)
    observations = np.zeros((batch, engine.observation_size), np.uint8)
    expert = np.zeros(batch, np.int64)
    values = np.zeros((batch, engine.num_actions), np.float64)
    actions = np.zeros(batch, np.int64)
    xs: list[npt.NDArray[np.uint8]] = []
    ms: list[npt.NDArray[np.bool_]] = []
    ys: list[npt.NDArray[np.int64]] = []
    total = 0
    while total < count:
        mover = states.current_player
        learner = mover >= 0 if player == "self" else mover == seats
        choice = learner & (states.legal_action_mask.sum(axis=1) >= 2)
        engine.expectimax_actions(states, _DEPTH, expert, choice if player == "network" else learner, values)
        rows = np.flatnonzero(choice)[: count - total]
        if rows.size:
            engine.observation(states, dtype=np.uint8, out=observations)
            xs.append(observations[rows].copy())
            ms.append(states.legal_action_mask[rows].copy())
            ys.append(expert[rows].copy())
            total += rows.size
            advance(int(rows.size))
        if player == "self":
            actions[:] = expert
        else:
            engine.heuristic_actions(states, _RISK, actions)
            if player == "network":
                assert network is not None
                actions[rows] = _greedy(network, observations[rows], states.legal_action_mask[rows])
            else:
                actions[learner] = expert[learner]
        engine.step(states, actions)
    return {"observations": np.concatenate(xs), "masks": np.concatenate(ms), "labels": np.concatenate(ys)}


def _greedy(
    network: Network, observations: npt.NDArray[np.uint8], masks: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """The float16 network's greedy choice (as the learned bot plays it) among each mask's actions."""
    h = features(network.layout, observations)
    layers = network._layers
    for i, (w, b) in enumerate(layers):
        h = h @ w.T + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0)
    h[~masks] = -np.inf
    chosen: npt.NDArray[np.int64] = np.argmax(h, axis=1)
    return chosen


def _policy_network(inputs: int, outputs: int) -> torch.nn.Sequential:
    import torch

    return torch.nn.Sequential(
        torch.nn.Linear(inputs, _HIDDEN),
        torch.nn.ReLU(),
        torch.nn.Linear(_HIDDEN, _HIDDEN),
        torch.nn.ReLU(),
        torch.nn.Linear(_HIDDEN, outputs),
    )


def _weights(model: torch.nn.Sequential) -> dict[str, npt.NDArray[Any]]:
    """The float16 arrays the learned bot reads, and the game they are for."""
    import torch

    weights: dict[str, npt.NDArray[Any]] = {"players": np.array(PLAYERS), "rules": np.array(RULES)}
    for i, index in enumerate((0, 2, 4)):
        layer = model[index]
        assert isinstance(layer, torch.nn.Linear)
        weights[f"w{i}"] = layer.weight.detach().numpy().astype(np.float16)
        weights[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    return weights


def _fit(
    run: Any,
    round_: int,
    x: torch.Tensor,
    m: torch.Tensor,
    y: torch.Tensor,
    epochs: int,
    resume: dict[str, Any] | None,
) -> torch.nn.Sequential:
    """The network trained from scratch on the examples, a checkpoint after every ``checkpoint_every`` epochs."""
    import torch

    seed = run.options.seed
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(y), generator=generator)
    held = order[: len(order) // 20]
    train = order[len(order) // 20 :]
    model = _policy_network(x.shape[1], m.shape[1])
    optimiser = torch.optim.Adam(model.parameters(), lr=_FIT_LR)
    steps = epochs * ((len(train) + _FIT_BATCH - 1) // _FIT_BATCH)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, _FIT_LR, total_steps=steps, pct_start=0.1)
    # The target is the expert's choice as a one-hot distribution, as the recipe that wrote the shipped weights
    # gave it (a probability target and a class index add up in another order).
    target = torch.nn.functional.one_hot(y, m.shape[1]).to(torch.float32)
    start = 0
    if resume is not None:
        model.load_state_dict(resume["model"])
        optimiser.load_state_dict(resume["optimiser"])
        schedule.load_state_dict(resume["schedule"])
        generator.set_state(resume["generator"])
        start = int(resume["epoch"])
    run.progress.stage(f"round {round_}: fit, epochs", epochs)
    run.progress.advance(start)
    for epoch in range(start, epochs):
        for chunk in torch.split(train[torch.randperm(len(train), generator=generator)], _FIT_BATCH):
            logits = model(x[chunk]).masked_fill(~m[chunk], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, target[chunk])
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
        run.progress.advance()
        if (epoch + 1) % run.options.checkpoint_every == 0 or epoch + 1 == epochs:
            run.checkpoint(
                {
                    "round": round_,
                    "epoch": epoch + 1,
                    "model": model.state_dict(),
                    "optimiser": optimiser.state_dict(),
                    "schedule": schedule.state_dict(),
                    "generator": generator.get_state(),
                }
            )
    with torch.no_grad():
        chosen = model(x[held]).masked_fill(~m[held], -1e9).argmax(dim=1)
    agree = float((chosen == y[held]).float().mean()) if len(held) else float("nan")
    run.progress.note(
        f"round {round_}: fitted {epochs} epochs on {len(train):,} examples; the network chooses as the expert in "
        f"{agree:.1%} of the {len(held):,} held out"
    )
    return model


def train(options: Any, run: Any) -> dict[str, npt.NDArray[Any]]:
    """Run the recipe (resuming from ``run``'s latest checkpoint, if any); return the weights to write.

    ``options`` and ``run`` are :class:`cheekymonkey.training.TrainingOptions` and the run's checkpoints, which
    :func:`cheekymonkey.training.train_weights` hands over (this package does not import them).
    """
    import torch

    from cheekymonkey.cheeky.batched import BatchedCheekyMonkey

    torch.set_num_threads(1)
    engine = BatchedCheekyMonkey(PLAYERS, Ruleset.preset(RULES), observation="full")
    layout = observation_layout("full", PLAYERS)
    base = options.seed * 1_000_000
    # At least four batches of the fit in each epoch, so that the one-cycle schedule has a warm-up step.
    examples = options.scaled(_EXAMPLES, least=4 * _FIT_BATCH)
    own = round(examples * _SELF_SHARE)
    latest = run.latest
    reached = (-1, -1) if latest is None else (int(latest["round"]), int(latest["epoch"]))
    data: list[dict[str, npt.NDArray[Any]]] = []
    weights: dict[str, npt.NDArray[Any]] = {}
    for round_ in range(_ROUNDS + 1):
        name = f"examples-{round_}"
        if reached[0] >= round_:
            data.append(run.load_data(name))
        else:
            if round_ == 0:
                run.progress.stage("round 0: the expectimax bot's examples", examples)
                parts = [
                    _expert_examples(engine, examples - own, base, "heuristic", None, run.progress.advance),
                    _expert_examples(engine, own, base + 100_000, "self", None, run.progress.advance),
                ]
                found = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
            else:
                count = options.scaled(_ROUND_EXAMPLES, least=_FIT_BATCH)
                run.progress.stage(f"round {round_}: the network's positions, labelled by the expert", count)
                seed = base + 200_000 + round_ * 10_000
                found = _expert_examples(engine, count, seed, "network", Network(weights), run.progress.advance)
            data.append(found)
            run.save_data(name, found)
            run.checkpoint({"round": round_, "epoch": 0})
        if reached[0] > round_:
            # A later round's checkpoint: this round's network is needed only for its weights, kept apart.
            weights = run.load_data(f"weights-{round_}")
            continue
        resume = latest if latest is not None and reached[0] == round_ and reached[1] > 0 else None
        x = torch.from_numpy(features(layout, np.concatenate([part["observations"] for part in data])))
        m = torch.from_numpy(np.concatenate([part["masks"] for part in data]))
        y = torch.from_numpy(np.concatenate([part["labels"] for part in data]))
        epochs = _EPOCHS if round_ == 0 else _ROUND_EPOCHS
        model = _fit(run, round_, x, m, y, epochs, resume)
        weights = _weights(model)
        run.save_data(f"weights-{round_}", weights)
    return weights


def load_bot(path: str | Path) -> Any:
    """The learned bot playing the network in ``path`` (the heuristic bot where it was not trained)."""
    from cheekymonkey.cheeky.bots import HeuristicBot
    from cheekymonkey.cheeky.bots.learned import LearnedBot, load_network

    return LearnedBot(load_network(path), fallback=HeuristicBot())
