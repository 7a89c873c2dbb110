"""Observations for learning, as numbers in [0, 1]: each entry of an encoding's observation divided by its bound.

The RL adapters (:mod:`cheekymonkey.rl`, with ``scaled=True``) and the policy bots of
:mod:`cheekymonkey.simulation.policies` both give a policy these; they live here, below both, so that neither
imports the other for them. Pure Python; the private ``cheekymonkey._observation_arrays`` makes them numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cheekymonkey.encoding import Encoding

__all__ = ["observation_divisors", "scaled", "scaled_observation"]


def observation_divisors(encoding: Encoding[Any, Any]) -> tuple[int, ...]:
    """What each entry of ``encoding``'s observations is divided by when scaled: its bound (0 counts as 1)."""
    return tuple(bound or 1 for bound in encoding.observation_bounds)


def scaled(values: Sequence[int], bounds: Sequence[int]) -> tuple[float, ...]:
    """Each of ``values`` divided by its bound (0 counting as 1): an observation scaled into [0, 1].

    The quotients are Python floats; as float32 they are exactly numpy's float32 division of the same numbers
    (a quotient rounded once to double precision and then to single is the quotient rounded to single).
    """
    return tuple(value / (bound or 1) for value, bound in zip(values, bounds, strict=True))


def scaled_observation(encoding: Encoding[Any, Any], state: Any, seat: int | None) -> tuple[float, ...]:
    """What ``seat`` observes of ``state``, each entry divided by its bound: numbers in [0, 1].

    It is :meth:`~cheekymonkey.encoding.Encoding.observe` scaled, the observation the adapters give with
    ``scaled=True``.

    >>> from cheekymonkey.games import game_named
    >>> game = game_named("too-many-monkeys")
    >>> encoding = game.encoding(2)
    >>> observation = scaled_observation(encoding, game.new_game(2), 0)
    >>> len(observation) == encoding.observation_size, min(observation) >= 0.0, max(observation) <= 1.0
    (True, True, True)
    """
    return scaled(encoding.observe(state, seat), encoding.observation_bounds)
