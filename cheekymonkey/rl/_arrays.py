"""numpy helpers shared by the adapters (private; imported only by modules that need the ``rl`` extra).

They live in :mod:`cheekymonkey._observation_arrays`, below the adapters and the policy bots alike.
"""

from __future__ import annotations

from cheekymonkey._observation_arrays import Observations, fill

__all__ = ["Observations", "fill"]
