"""The first call's cost in time (wall and CPU) of Too Many Monkeys' batched engine: import, init, step, observation.

Run it twice with ``NUMBA_CACHE_DIR`` set to a fresh folder: the first run compiles every kernel, the second
loads them from that folder's cache (docs/reference/batched.md quotes both).

    NUMBA_CACHE_DIR=/tmp/fresh python benchmarks/tmm_batched_first_call.py
"""

from __future__ import annotations

import time

started = time.perf_counter()
cpu = time.process_time()

from cheekymonkey.batched import random_legal_actions, seed_streams  # noqa: E402 (timed from here)
from cheekymonkey.toomany.batched import BatchedTooManyMonkeys  # noqa: E402

engine = BatchedTooManyMonkeys(2)
states = engine.init(64, seed=1)
engine.step(states, random_legal_actions(states.legal_action_mask, seed_streams(2, 64)))
engine.observation(states)
print(
    f"import, init, step and observation: {time.perf_counter() - started:.1f} s wall, "
    f"{time.process_time() - cpu:.1f} s CPU"
)
