"""The batched engine where a practitioner meets it: the vector environment and ``simulate --batched``.

Side by side in one run, one game (``--game``, Cheeky Monkey by default), two seats, standard rules, random
legal moves everywhere:

- learner steps a second of ``SoloVectorEnv`` (``gymnasium.make_vec("cheekymonkey/Solo-v0", num_envs=N)``,
  random opponents inside) at N = 1,024, of the scalar ``SoloEnv`` against a random bot, and of Gymnasium's
  ``SyncVectorEnv`` over 8 ``SoloEnv`` (``vectorization_mode="sync"``);
- games a second of ``simulate_batched`` and of the scalar ``simulate`` in this process.

Each row is timed after an untimed first call (numba's compile or cache load), best of ``--repeat`` rounds.

Run: ``python benchmarks/batched_practice.py`` (about a minute on an idle 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import gymnasium
import numpy as np

from cheekymonkey.rl.gymnasium_env import ENV_ID
from cheekymonkey.simulation import simulate
from cheekymonkey.simulation.batched import simulate_batched


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal index per row, vectorised (0 where nothing is legal)."""
    scores = np.where(masks, rng.random(masks.shape), -1.0)
    return np.asarray(scores.argmax(axis=1), np.int64)


def vector_steps(envs: gymnasium.vector.VectorEnv, masks: Callable[[], np.ndarray], steps: int) -> int:
    rng = np.random.default_rng(0)
    for _ in range(steps):
        envs.step(random_actions(masks(), rng))
    return steps * envs.num_envs


def best(work: Callable[[], int], repeat: int) -> float:
    """The best rate of ``repeat`` timed rounds, units of work a second."""
    rates = []
    for _ in range(repeat):
        started = time.perf_counter()
        done = work()
        rates.append(done / (time.perf_counter() - started))
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", default="cheeky-monkey", help="the game: cheeky-monkey or too-many-monkeys")
    args = parser.parse_args()
    game = args.game
    print(f"game: {game}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    rows: list[tuple[str, float, str]] = []

    batched = gymnasium.make_vec(ENV_ID, num_envs=1024, players=2, opponents="random", game=game)
    batched.reset(seed=0)
    vector_steps(batched, batched.action_masks, 5)  # type: ignore[attr-defined]
    rows.append(
        (
            "SoloVectorEnv, 1,024 envs",
            best(lambda: vector_steps(batched, batched.action_masks, 50), args.repeat),  # type: ignore[attr-defined]
            "learner steps/s",
        )
    )

    sync = gymnasium.make_vec(ENV_ID, num_envs=8, vectorization_mode="sync", players=2, opponents=["random"], game=game)
    sync.reset(seed=0)

    def sync_masks() -> np.ndarray:
        return np.stack([env.unwrapped.action_masks() for env in sync.envs])  # type: ignore[attr-defined]

    vector_steps(sync, sync_masks, 5)
    rows.append(
        (
            "SyncVectorEnv of 8 SoloEnv",
            best(lambda: vector_steps(sync, sync_masks, 300), args.repeat),
            "learner steps/s",
        )
    )

    single = gymnasium.make(ENV_ID, players=2, opponents=["random"], game=game).unwrapped
    single.reset(seed=0)
    rng = np.random.default_rng(0)

    def scalar_steps() -> int:
        for _ in range(2000):
            mask = single.action_masks()  # type: ignore[attr-defined]
            _, _, terminated, truncated, _ = single.step(int(random_actions(mask[None], rng)[0]))
            if terminated or truncated:
                single.reset()
        return 2000

    rows.append(("SoloEnv (scalar)", best(scalar_steps, args.repeat), "learner steps/s"))

    simulate_batched(["random"], 100, seed=0, game=game)
    rows.append(
        (
            "simulate_batched (--batched)",
            best(lambda: simulate_batched(["random"], 20_000, seed=0, game=game).games, args.repeat),
            "games/s",
        )
    )
    rows.append(
        (
            "simulate (scalar, in process)",
            best(lambda: simulate(["random"], 1000, seed=0, game=game).games, args.repeat),
            "games/s",
        )
    )

    width = max(len(name) for name, _, _ in rows)
    for name, rate, unit in rows:
        print(f"{name:<{width}}  {rate:>12,.0f} {unit}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
