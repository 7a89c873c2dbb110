"""*Too Many Monkeys*' recipe: a policy network by imitation of the heuristic bot, from the batched engine.

Needs the ``train`` extra (PyTorch) and the ``batched`` extra (numba). At budget 1, for 2 seats under the
standard rules:

1. Positions: :class:`~cheekymonkey.toomany.batched.BatchedTooManyMonkeys` plays 256 games at a time from
   seed ``SEED``, every seat played by :class:`~cheekymonkey.toomany.HeuristicBot` (each game decoded to its
   state, the bot's action encoded to its index; the bot draws from ``random.Random(SEED)``), a tenth of the
   moves played at random instead (from ``numpy.random.default_rng(SEED)``; the label stays the heuristic's),
   so that the examples reach positions the heuristic would not. Each decision with more than one legal
   action is an example (the mover's observation, each entry divided by its bound; the mask; the
   heuristic's choice), until 60,000 are kept (the last step's whole batch is kept: 60,107 at seed 0).
2. The fit: one hidden layer of 128 ReLU units, one score per action index, cross-entropy over the legal
   actions, Adam (learning rate 0.001), minibatches of 256 in a fresh order each pass, 24,510 updates: the
   count the CPU-time budget of the run that wrote ``training/tmm_policy.npz`` reached.

The weights are float32 (``scale``, ``w1``, ``b1``, ``w2``, ``b2``, ``players``), played in numpy by
:class:`~cheekymonkey.simulation.NetworkPolicy`. The budget scales the positions and the updates. PyTorch runs
on one thread.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from cheekymonkey.toomany.bots import HeuristicBot
from cheekymonkey.toomany.encoding import encoding

if TYPE_CHECKING:
    import torch

__all__ = ["ARRAYS", "COMPRESSED", "EVALUATION", "PLAYERS", "train"]

PLAYERS: Final = 2
ARRAYS: Final = ("scale", "w1", "b1", "w2", "b2", "players")
"""The arrays of the weights file, in the order written: a policy network of one hidden layer, played in numpy
by :class:`cheekymonkey.simulation.NetworkPolicy` (this module has no ``load_bot``)."""
COMPRESSED: Final = False
"""The file is an uncompressed ``.npz``, as ``training/tmm_policy.npz`` is."""
EVALUATION: Final = ("heuristic", 1000, 7_000_000)
"""The declared evaluation: the opponent, the games, the first seed (``docs/explanation/bots-too-many-monkeys.md``)."""
_POSITIONS: Final = 60_000
_UPDATES: Final = 24_510
_BATCH: Final = 256
_EXPLORE: Final = 0.1
_HIDDEN: Final = 128
_MINIBATCH: Final = 256
_LR: Final = 1e-3


def _linear(model: torch.nn.Sequential, index: int) -> torch.nn.Linear:
    import torch

    layer = model[index]
    assert isinstance(layer, torch.nn.Linear)
    return layer


def _positions(seed: int, count: int, advance: Any) -> dict[str, npt.NDArray[Any]]:
    """The heuristic's labelled positions with a choice, from the batched engine (see the module's docs)."""
    from cheekymonkey.toomany.batched import BatchedTooManyMonkeys

    engine = BatchedTooManyMonkeys(PLAYERS)
    code = encoding(PLAYERS)
    bot = HeuristicBot()
    rng = random.Random(seed)
    explore = np.random.default_rng(seed)
    batch = _BATCH
    states = engine.init(batch, seed=seed)
    xs: list[npt.NDArray[Any]] = []
    ms: list[npt.NDArray[Any]] = []
    ys: list[npt.NDArray[Any]] = []
    total = 0
    while total < count:
        mask = states.legal_action_mask
        observation = engine.observation(states)
        labels = np.zeros(batch, np.int64)
        for i in range(batch):
            if states.current_player[i] < 0:
                continue
            state = engine.decode(states, i)
            labels[i] = code.encode(bot.choose(state, rng), state)
        actions = labels.copy()
        wander = explore.random(batch) < _EXPLORE
        for row in np.flatnonzero(wander & (states.current_player >= 0)):
            actions[row] = explore.choice(np.flatnonzero(mask[row]))
        keep = mask.sum(axis=1) > 1
        xs.append(observation[keep])
        ms.append(mask[keep].copy())
        ys.append(labels[keep])
        kept = int(keep.sum())
        total += kept
        advance(kept)
        states = engine.step(states, actions)
    return {"observations": np.concatenate(xs), "masks": np.concatenate(ms), "labels": np.concatenate(ys)}


def train(options: Any, run: Any) -> dict[str, npt.NDArray[Any]]:
    """Run the recipe (resuming from ``run``'s latest checkpoint, if any); return the weights to write.

    ``options`` and ``run`` are :class:`cheekymonkey.training.TrainingOptions` and the run's checkpoints, which
    :func:`cheekymonkey.training.train_weights` hands over (this package does not import them).
    """
    import torch

    torch.set_num_threads(1)
    seed = options.seed
    latest = run.latest
    count = options.scaled(_POSITIONS, least=64)
    if latest is None:
        run.progress.stage("the heuristic's positions", count)
        data = _positions(seed, count, run.progress.advance)
        run.save_data("positions", data)
        run.checkpoint({"updates": 0})
    else:
        data = run.load_data("positions")
    scale = 1.0 / np.maximum(np.asarray(encoding(PLAYERS).observation_bounds, np.float32), 1.0)
    inputs = torch.from_numpy(data["observations"] * scale)
    masks = torch.from_numpy(data["masks"])
    labels = torch.from_numpy(data["labels"])
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(inputs.shape[1], _HIDDEN), torch.nn.ReLU(), torch.nn.Linear(_HIDDEN, masks.shape[1])
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=_LR)
    generator = torch.Generator().manual_seed(seed)
    target = options.scaled(_UPDATES)
    updates = 0
    if latest is not None and int(latest["updates"]) > 0:
        model.load_state_dict(latest["model"])
        optimiser.load_state_dict(latest["optimiser"])
        generator.set_state(latest["generator"])
        updates = int(latest["updates"])
    run.progress.stage("fit, updates", target)
    run.progress.advance(updates)
    passes = 0
    while updates < target:
        order = torch.randperm(len(labels), generator=generator)
        for at in range(0, len(order), _MINIBATCH):
            rows = order[at : at + _MINIBATCH]
            scores = model(inputs[rows]).masked_fill(~masks[rows], -1e9)
            loss = torch.nn.functional.cross_entropy(scores, labels[rows])
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            updates += 1
            run.progress.advance()
            if updates >= target:
                break
        passes += 1
        if passes % run.options.checkpoint_every == 0 or updates >= target:
            run.checkpoint(
                {
                    "updates": updates,
                    "model": model.state_dict(),
                    "optimiser": optimiser.state_dict(),
                    "generator": generator.get_state(),
                }
            )
    with torch.no_grad():
        agree = float((model(inputs).masked_fill(~masks, -1e9).argmax(dim=1) == labels).float().mean())
    run.progress.note(
        f"{len(labels):,} positions, {updates:,} updates of {_MINIBATCH}: the network chooses as the heuristic in "
        f"{agree:.1%} of them"
    )
    first, second = _linear(model, 0), _linear(model, 2)
    return {
        "scale": scale,
        "w1": first.weight.detach().numpy().T.copy(),
        "b1": first.bias.detach().numpy(),
        "w2": second.weight.detach().numpy().T.copy(),
        "b2": second.bias.detach().numpy(),
        "players": np.array(PLAYERS),
    }
