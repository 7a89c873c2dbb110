"""Observations as numpy float32 arrays: what every RL adapter and a policy bot hands its policy.

Private, and imported only where numpy is wanted (the ``rl`` extra): by :mod:`cheekymonkey.rl`'s adapters and by
:class:`~cheekymonkey.simulation.PolicyBot` for a policy given arrays. It sits below both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cheekymonkey.encoding import Encoding
from cheekymonkey.observations import observation_divisors


def fill(out: npt.NDArray[Any], values: Sequence[int], bound: int) -> None:
    """Copy ``values`` (integers from 0 to ``bound``) into ``out``, fast.

    Observations are a few thousand small integers; numpy converts a tuple of Python ints one by one,
    while ``bytes`` does it in one C loop, about ten times faster, whenever every value fits a byte.
    """
    if bound <= 255:
        out[:] = np.frombuffer(bytes(values), np.uint8)
    else:
        out[:] = np.fromiter(values, out.dtype, len(values))


class Observations:
    """An encoding's observations as float32 arrays: what every adapter hands its agents.

    Raw (whole numbers), or ``scaled`` (each entry divided by its bound, as
    :func:`~cheekymonkey.observations.scaled_observation` divides it).

    numpy's float32 division is correctly rounded, so a scaled entry is bit for bit the pure-Python quotient
    rounded to float32.
    """

    __slots__ = ("_bound", "_divisors", "encoding", "high", "scaled")

    def __init__(self, encoding: Encoding[Any, Any], scaled: bool) -> None:
        self.encoding = encoding
        self.scaled = scaled
        self._bound = max(encoding.observation_bounds)
        self._divisors = np.array(observation_divisors(encoding), np.float32) if scaled else None
        self.high: npt.NDArray[np.float32] = (
            np.ones(encoding.observation_size, np.float32)
            if scaled
            else np.array(encoding.observation_bounds, np.float32)
        )
        """Each entry's largest value, for the observation space's ``high``."""

    def fill(self, out: npt.NDArray[np.float32], state: Any, seat: int | None) -> None:
        """Write what ``seat`` observes of ``state`` into ``out`` (float32, of the observation's size)."""
        fill(out, self.encoding.observe(state, seat), self._bound)
        if self._divisors is not None:
            np.divide(out, self._divisors, out=out)

    def __call__(self, state: Any, seat: int | None) -> npt.NDArray[np.float32]:
        """What ``seat`` observes of ``state``, as a new float32 array."""
        out = np.empty(self.encoding.observation_size, np.float32)
        fill(out, self.encoding.observe(state, seat), self._bound)  # fill() inlined: once per step
        if self._divisors is not None:
            np.divide(out, self._divisors, out=out)
        return out
