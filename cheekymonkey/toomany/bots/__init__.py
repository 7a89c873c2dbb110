"""Bots for Too Many Monkeys: the :class:`Bot` protocol, three bots, and the registry that names them.

One module each:

- ``cheekymonkey.toomany.bots.base``: the protocol, and what the bots read off a row;
- ``cheekymonkey.toomany.bots.random``: :class:`RandomBot`, a uniform choice among the legal actions;
- ``cheekymonkey.toomany.bots.heuristic``: :class:`HeuristicBot`, rules of thumb and the rules' own hints;
- ``cheekymonkey.toomany.bots.evaluation``: :func:`position_value`, the estimate the search plays by;
- ``cheekymonkey.toomany.bots.expectimax``: :class:`ExpectimaxBot`, an exact search of the rest of its turn;
- ``cheekymonkey.toomany.bots.registry``: :data:`BOTS`, :func:`bot_named`, and :data:`ALIASES`: ``strongest``
  names the best bot (:data:`STRONGEST`).

The ladder they climb, and their time per move, are on the page "The Too Many Monkeys bot ladder".

>>> import random
>>> from cheekymonkey.toomany import Card, Reveal, apply, new_game
>>> state = apply(new_game(2), Reveal(Card.SKIP))
>>> bot_named("random").choose(state, random.Random(3))
GiveSkip(1)
"""

from cheekymonkey.toomany.bots.base import Bot
from cheekymonkey.toomany.bots.evaluation import position_value
from cheekymonkey.toomany.bots.expectimax import ExpectimaxBot
from cheekymonkey.toomany.bots.heuristic import HeuristicBot
from cheekymonkey.toomany.bots.random import RandomBot
from cheekymonkey.toomany.bots.registry import ALIASES, BOTS, STRONGEST, bot_named

__all__ = [
    "ALIASES",
    "BOTS",
    "STRONGEST",
    "Bot",
    "ExpectimaxBot",
    "HeuristicBot",
    "RandomBot",
    "bot_named",
    "position_value",
]
