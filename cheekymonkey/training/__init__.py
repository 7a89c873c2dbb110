"""Training: from the batched engine to a weights file that plays as a bot, for each game (``cheekymonkey train``).

Each game has one recipe, the one that wrote the weights the project ships, run by :func:`train_weights`:
*Cheeky Monkey*'s (``cheekymonkey.cheeky._training``) learns the learned bot's network by imitation of the
expectimax bot, *Too Many Monkeys*' (``cheekymonkey.toomany._training``) a policy network by imitation of
the heuristic bot. Each lives in its game's package, found through the registry (:func:`recipe_games`).
Both need the ``train`` extra (PyTorch) and the ``batched`` extra (numba); playing the
weights (:func:`load_bot`) needs numpy alone.

A run is reproducible: every game, draw and initialisation is seeded from :attr:`TrainingOptions.seed`, and
PyTorch runs on one thread, so the same seed, budget, package versions and machine give the same bytes. It
writes checkpoints as it goes (:class:`TrainingOptions`), and a run resumed from one gives the same bytes as
a run never stopped. :func:`evaluate` plays the declared evaluation of a weights file.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from attrs import frozen

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.training._recipes import recipe, recipe_games
from cheekymonkey.training._run import Progress, Run, TrainingOptions, TrainingStoppedError, write_npz
from cheekymonkey.training.bots import game_of_weights, load_bot

__all__ = [
    "Evaluation",
    "Progress",
    "TrainingOptions",
    "TrainingStoppedError",
    "declared_evaluation",
    "evaluate",
    "game_of_weights",
    "load_bot",
    "recipe_games",
    "train_weights",
    "write_npz",
]


@frozen
class Evaluation:
    """An evaluation of a weights file: the games against one opponent, seats rotated, seeds from ``seed``."""

    opponent: str
    games: int
    seed: int


def declared_evaluation(game: str) -> Evaluation:
    """The evaluation declared for the weights of ``game``'s recipe (its bot page reports it).

    Raises:
        InvalidValueError: If the game has no recipe.
    """
    opponent, games, seed = recipe(game).EVALUATION
    return Evaluation(str(opponent), int(games), int(seed))


def train_weights(options: TrainingOptions, out: Path, progress: Progress | None = None) -> None:
    """Run ``options.game``'s recipe and write its weights to ``out``.

    Raises:
        InvalidValueError: If the game has no recipe, or the checkpoint folder does not fit the run.
        TrainingStoppedError: If the run stopped after the checkpoint ``options.stop_after`` asked for.
        ImportError: If PyTorch (the ``train`` extra) or numba (the ``batched`` extra) is missing.
    """
    found = recipe(options.game)
    if not options.budget > 0:
        raise InvalidValueError(f"the budget must be above 0, got {options.budget}")
    run = Run(options, progress or Progress())
    weights: dict[str, Any] = found.train(options, run)
    write_npz(out, {name: weights[name] for name in found.ARRAYS}, compressed=bool(found.COMPRESSED))
    run.progress.finish()


def _executor_for(address: str | None, workers: int | None, stack: ExitStack) -> cf.Executor | Any | None:
    """What plays the evaluation's games, opened on ``stack``: None for this process (or ``workers`` local ones).

    ``address``: ``ray`` for a local Ray instance (with ``workers`` CPUs), ``auto`` or ``ray://HOST:PORT`` for
    a Ray cluster, ``tcp://HOST:PORT`` for a running Dask scheduler.

    Raises:
        InvalidValueError: If the address is none of these.
        ImportError: If Ray or Dask is not installed.
    """
    if address is None:
        return None
    if address.startswith("tcp://"):
        try:
            import distributed
        except ImportError:
            raise ImportError("a tcp:// address is a Dask scheduler's: pip install 'cheekymonkey[dask]'") from None
        connect: Any = distributed.Client
        client = connect(address, timeout="30s")
        stack.callback(client.close)
        return client
    if address == "ray" or address == "auto" or address.startswith("ray://"):
        from cheekymonkey.simulation import RayExecutor

        local = address == "ray"
        ray = RayExecutor(None if local else address, num_cpus=workers if local else None)
        stack.callback(ray.shutdown, wait=False, cancel_futures=True)
        return ray
    raise InvalidValueError(
        f"the address {address!r} is neither Ray's (ray, auto, ray://HOST:PORT) nor a Dask scheduler's (tcp://HOST:PORT)"
    )


def evaluate(
    weights: Path,
    evaluation: Evaluation,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[Any], None] | None = None,
) -> Any:
    """Play ``evaluation``: the weights' bot against the opponent, 2 seats, game ``i`` from seed ``seed + i``.

    Returns the :class:`~cheekymonkey.simulation.Summary` (the trained bot first).
    """
    from cheekymonkey.simulation import simulate

    game = game_of_weights(weights)
    with ExitStack() as stack:
        executor = _executor_for(address, workers, stack)
        return simulate(
            [load_bot(weights), evaluation.opponent],
            evaluation.games,
            seed=evaluation.seed,
            players=2,
            executor=executor,
            workers=workers if executor is None and workers not in (None, 1) else None,
            progress=progress,
            game=game,
        )
