"""Reinforcement learning: action indices, observation vectors and returns, and adapters for game frameworks.

This package itself is pure Python (no numpy): :class:`ActionCodec` numbers the actions and gives masks
of the legal ones as tuples of bools, :func:`observe` encodes what a seat knows as a tuple of integers,
and :func:`returns` says what each seat gets at the end, all seen from one seat (the player who acts, or
the viewer, is seat 0). :mod:`cheekymonkey.rl.episodes` says what the adapters share: which game, the one
truncation rule, the reward options. The adapters and the learned bot are modules of their own, each
needing the ``rl`` extra (``pip install 'cheekymonkey[rl]'``):

- :mod:`cheekymonkey.rl.openspiel_game`: the library's games registered with OpenSpiel (``pyspiel``);
- :mod:`cheekymonkey.rl.pettingzoo_env`: a PettingZoo AEC environment, every seat an agent;
- :mod:`cheekymonkey.rl.gymnasium_env`: a Gymnasium environment, one seat against the library's bots;
- :mod:`cheekymonkey.rl.learned`: the ``learned`` bot, a small network played with numpy.

>>> import random
>>> from cheekymonkey import new_game, apply, is_terminal, is_chance_node, sample_chance
>>> codec, rng = ActionCodec(2), random.Random(7)
>>> state = new_game(2)
>>> while not is_terminal(state):
...     if is_chance_node(state):
...         state = apply(state, sample_chance(state, rng))
...     else:
...         mask = codec.action_mask(state)
...         legal = [i for i, ok in enumerate(mask) if ok and i != DRAW_INDEX] or [DRAW_INDEX]
...         state = apply(state, codec.decode_at(state, rng.choice(legal)))
>>> sum(returns(state))
1.0
"""

from cheekymonkey.rl.encoding import DRAW_INDEX, HERD_INDEX, NUM_OUTCOMES, STOP_INDEX, ActionCodec
from cheekymonkey.rl.observations import (
    DEFAULT_OBSERVATION,
    OBSERVATION_KINDS,
    ObservationField,
    ObservationKind,
    ObservationLayout,
    full_observation,
    observation_layout,
    observation_text,
    observe,
    table_observation,
)
from cheekymonkey.rl.rewards import returns, returns_of

__all__ = [
    "DEFAULT_OBSERVATION",
    "DRAW_INDEX",
    "HERD_INDEX",
    "NUM_OUTCOMES",
    "OBSERVATION_KINDS",
    "STOP_INDEX",
    "ActionCodec",
    "ObservationField",
    "ObservationKind",
    "ObservationLayout",
    "full_observation",
    "observation_layout",
    "observation_text",
    "observe",
    "returns",
    "returns_of",
    "table_observation",
]
