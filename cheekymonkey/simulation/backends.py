"""What runs the blocks: a local process pool started again if it breaks, any executor, or Ray."""

from __future__ import annotations

import concurrent.futures as cf
import signal
from collections.abc import Callable
from typing import Any

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.simulation.blocks import Block, BlockResult, play_block
from cheekymonkey.simulation.errors import GameFailedError, SimulationError
from cheekymonkey.simulation.summary import Summary

__all__ = ["RayExecutor"]

_RETRIES = 3  # how often a lost block is played again (a dead local pool started again) before giving up


def _ignore_interrupts() -> None:
    # Ctrl-C at a terminal reaches every process of the group: the pool's workers leave it to the parent,
    # which stops the run and keeps the finished blocks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def as_executor(executor: object) -> cf.Executor:
    """``executor`` as a :class:`concurrent.futures.Executor`: itself, or a ``distributed.Client``'s executor."""
    if isinstance(executor, cf.Executor):
        return executor
    get_executor = getattr(executor, "get_executor", None)
    if callable(get_executor):  # a distributed.Client: tasks are not pure, so every block is its own task
        wrapped = get_executor(pure=False)
        if isinstance(wrapped, cf.Executor):
            return wrapped
    raise InvalidValueError(
        f"executor must be a concurrent.futures.Executor or a distributed.Client, got {type(executor).__name__}"
    )


def _game_failure(error: BaseException) -> GameFailedError | None:
    """The :class:`GameFailedError` inside what a backend raised, rebuilt plain (Ray wraps it in its own class)."""
    for candidate in (error, getattr(error, "cause", None), error.__cause__):
        if isinstance(candidate, GameFailedError):
            return GameFailedError(
                candidate.game,
                candidate.seed,
                candidate.seats,
                candidate.error_type,
                candidate.message,
                candidate.details,
            )
    return None


def run_blocks(
    blocks: list[Block],
    executor: cf.Executor | None,
    workers: int | None,
    window: int,
    done: Callable[[BlockResult], None],
    summary: Callable[[], Summary],
) -> None:
    """Run the blocks on ``executor``, or on an owned pool of ``workers`` processes started again if it breaks."""
    owned = executor is None
    restarts = 0

    def new_pool() -> cf.Executor:
        return cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)

    current = new_pool() if executor is None else executor
    waiting = list(range(len(blocks)))[::-1]  # a stack: the next block to submit is at the end
    pending: dict[cf.Future[BlockResult], int] = {}
    failures: dict[int, int] = {}  # block index -> how often it failed without a result
    try:
        while waiting or pending:
            broken = False
            while waiting and len(pending) < window:
                index = waiting.pop()
                try:
                    pending[current.submit(play_block, blocks[index])] = index
                except cf.BrokenExecutor as error:
                    waiting.append(index)
                    if not owned:
                        raise SimulationError(f"the executor is broken: {error}", summary()) from error
                    broken = True
                    break
            finished, _ = cf.wait(list(pending), timeout=0.5, return_when=cf.FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                problem = cf.CancelledError() if future.cancelled() else future.exception()
                if problem is None:
                    done(future.result())
                    continue
                failure = _game_failure(problem)
                if failure is not None:
                    raise failure
                if owned and isinstance(problem, cf.BrokenExecutor):
                    waiting.append(index)
                    broken = True
                    continue
                # Lost some other way (a cluster that lost the result with its worker, say): the block was not
                # counted, so it can run again, a few times at most.
                failures[index] = failures.get(index, 0) + 1
                if failures[index] <= _RETRIES:
                    waiting.append(index)
                    continue
                block = blocks[index]
                raise SimulationError(
                    f"the block of games {block.start} to {block.stop - 1} failed {failures[index]} times, "
                    f"last with {type(problem).__name__}: {problem}",
                    summary(),
                ) from problem
            if broken:
                # A process of the owned pool died, and every block still in the pool with it. Count those
                # that finished first, then play the rest again in a fresh pool: none lost, none twice.
                restarts += 1
                if restarts > _RETRIES:
                    raise SimulationError(f"the local process pool broke {restarts} times; giving up", summary())
                cf.wait(list(pending))
                for future, index in pending.items():
                    if not future.cancelled() and future.exception() is None:
                        done(future.result())
                    else:
                        waiting.append(index)
                pending.clear()
                waiting.sort(reverse=True)
                current.shutdown(wait=True)
                current = new_pool()
    finally:
        for future in pending:
            future.cancel()
        if owned:
            # Wait for the pool's own threads when every block is in: shutting down without waiting lets
            # the pool's manager thread write to a wake-up pipe already closed, and print a traceback
            # ("Bad file descriptor") at exit. Only a run cut short (an error, an interrupt) leaves at once.
            current.shutdown(wait=not pending, cancel_futures=True)


class RayExecutor(cf.Executor):
    """Runs each call as a Ray task (the ``ray`` extra: ``pip install 'cheekymonkey[ray]'``).

    Starts a local Ray instance, or connects to ``address`` (``"auto"``, ``"ray://host:10001"``), unless
    Ray is already running in this process. A task whose worker dies is played again (``max_retries``
    times); an exception raised by the task itself is not retried. :meth:`shutdown` stops Ray if this
    executor started it, and every task with it. Cancelling a future drops its result but lets the task
    finish: on a cluster this executor joined, tasks already submitted run to their end.

    Args:
        address: The cluster to join; None starts a local instance.
        num_cpus: CPUs for a local instance (all if None).
        max_retries: How often a task lost with its worker runs again.

    Raises:
        ImportError: If Ray is not installed.
    """

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None, max_retries: int = 3) -> None:
        try:
            import ray
        except ImportError as error:
            raise ImportError("RayExecutor needs Ray: install it with pip install 'cheekymonkey[ray]'") from error
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is not None:
                options["address"] = address
            elif num_cpus is not None:
                options["num_cpus"] = num_cpus
            ray.init(**options)
            self._started = True
        self._max_retries = max_retries
        self._remotes: dict[Callable[..., Any], Any] = {}
        self._refs: dict[cf.Future[Any], Any] = {}
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; cancelling its future drops the result."""
        if self._closed:
            raise RuntimeError("cannot submit to a RayExecutor after shutdown")
        remote = self._remotes.get(fn)
        if remote is None:
            remote = self._remotes[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
        ref = remote.remote(*args, **kwargs)
        outer: cf.Future[Any] = cf.Future()
        self._refs[outer] = ref

        def settle(inner: cf.Future[Any]) -> None:
            if not outer.set_running_or_notify_cancel():
                return
            error = inner.exception()
            if error is None:
                outer.set_result(inner.result())
            else:
                outer.set_exception(error)

        # A cancelled future only drops its result: ray.cancel racing a task that is just finishing can abort
        # this process inside Ray (seen with Ray 2.60: "Tried to complete task that was not pending"). The
        # tasks of a Ray instance this executor started end with it, in shutdown.
        outer.add_done_callback(lambda future: self._refs.pop(future, None))
        ref.future().add_done_callback(settle)
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel (if asked) or wait for the tasks in flight, then stop Ray if this executor started it."""
        self._closed = True
        refs = list(self._refs.items())
        if cancel_futures:
            for future, _ in refs:
                future.cancel()
        elif wait and refs:
            cf.wait([future for future, _ in refs])
        if self._started:
            self._ray.shutdown()
            self._started = False
