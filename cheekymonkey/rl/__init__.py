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
Monkeys' in :mod:`cheekymonkey.toomany.encoding`.

Importing this package registers the Gymnasium environments (when Gymnasium is installed), as Gymnasium
documents for a third-party package: ``gymnasium.make("cheekymonkey.rl:cheekymonkey/Solo-v0")`` imports it
and makes one, and after ``gymnasium.register_envs(cheekymonkey.rl)`` (an import that a linter keeps)
``gymnasium.make("cheekymonkey/Solo-v0")`` does. Their ids are
:data:`~cheekymonkey.rl.GYMNASIUM_ENVIRONMENTS`; the adapter itself is imported only when an environment is
made.

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

from typing import Final

from cheekymonkey.encoding import ObservationField

__all__ = ["GYMNASIUM_ENVIRONMENTS", "ObservationField"]

GYMNASIUM_ENVIRONMENTS: Final = {
    "cheekymonkey/Solo-v0": ("cheekymonkey.rl.gymnasium_env:SoloEnv", "cheekymonkey.rl.gymnasium_vector:SoloVectorEnv"),
}
"""Each Gymnasium environment's id, and the import paths of its class and of its vector form (``make_vec``)."""


def _register_with_gymnasium() -> tuple[str, ...]:
    """Register every environment Gymnasium does not know yet, if it is installed; return their ids."""
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register with
        return ()
    registered = []
    for env_id, (entry_point, vector_entry_point) in GYMNASIUM_ENVIRONMENTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, vector_entry_point=vector_entry_point)
            registered.append(env_id)
    return tuple(registered)


_register_with_gymnasium()
