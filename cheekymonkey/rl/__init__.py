"""Reinforcement learning: adapters that put any game of the library into game frameworks.

The adapters are written against the :class:`~cheekymonkey.game.Game` protocol and each game's encodings
(:class:`~cheekymonkey.encoding.Encoding`: action indices, masks and observations, seen from one seat), so
every game of the registry plays in every one. :mod:`cheekymonkey.rl.episodes` says what they share: which
game, the one truncation rule, the reward options. Each needs the ``rl`` extra (``pip install
'cheekymonkey[rl]'``):

- :mod:`cheekymonkey.rl.openspiel_game`: the library's games registered with OpenSpiel (``pyspiel``);
- :mod:`cheekymonkey.rl.pettingzoo_env`: a PettingZoo AEC environment, every seat an agent;
- :mod:`cheekymonkey.rl.gymnasium_env`: a Gymnasium environment, one seat against the game's bots.

A game's encodings are its own: Cheeky Monkey's in :mod:`cheekymonkey.cheeky.encoding` (with its returns,
:mod:`cheekymonkey.cheeky.rewards`, and its learned bot, :mod:`cheekymonkey.cheeky.bots.learned`), Too Many
Monkeys' in :mod:`cheekymonkey.toomany.encoding`. Cheeky Monkey's were first importable from here
(``from cheekymonkey.rl import ActionCodec``): they still are, with a :class:`DeprecationWarning` naming
their new home.

>>> import random
>>> from cheekymonkey.games import game_named
>>> game, rng = game_named("cheeky-monkey"), random.Random(7)
>>> state = game.new_game(2)
>>> encoding = game.encoding(2)
>>> while not game.is_terminal(state):
...     if game.is_chance_node(state):
...         state = game.apply(state, game.sample_chance(state, rng))
...     else:
...         state = game.apply(state, encoding.decode(rng.choice(encoding.legal_indices(state)), state))
>>> sum(game.outcome(state).returns)
1.0
"""

from cheekymonkey import _moved
from cheekymonkey.encoding import ObservationField

__all__ = ["ObservationField"]


def __getattr__(name: str) -> object:
    # Cheeky Monkey's encodings and returns, where they were first: now in its own package.
    return _moved.moved_attribute(__name__, name)
