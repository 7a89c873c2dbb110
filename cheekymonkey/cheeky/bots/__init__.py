"""Bots: the :class:`Bot` protocol, the library's bots and the registry that names them.

Every bot follows the :class:`Bot` protocol (``choose(state, rng) -> action``) and stops with certainty
once every token left in the bag would bust it, as R22 asks. One module each:

- ``cheekymonkey.cheeky.bots.base``: the protocol, and :func:`paused_gc`;
- ``cheekymonkey.cheeky.bots.random``: :class:`RandomBot`, a uniform choice among the legal actions;
- ``cheekymonkey.cheeky.bots.heuristic``: :class:`HeuristicBot`, push-your-luck with a risk threshold;
- ``cheekymonkey.cheeky.bots.evaluation``: :func:`position_value`, the estimate the searching bots play by;
- ``cheekymonkey.cheeky.bots.expectimax``: :class:`ExpectimaxBot`, an exact search of its own turn;
- ``cheekymonkey.cheeky.bots.search``: :class:`MCTSBot`, a tree search through the opponents' turns, and
  :class:`QuickMCTSBot`, the same with fewer playouts, fast enough for people;
- ``cheekymonkey.cheeky.bots.learned``: the ``learned`` bot, a small network played with numpy (the ``rl``
  extra);
- ``cheekymonkey.cheeky.bots.registry``: :data:`BOTS`, :func:`bot_named`, and :data:`ALIASES`: ``strongest``
  names the best bot (:data:`STRONGEST`).

:func:`~cheekymonkey.bust_probability`, the chance a draw busts, is game maths: it lives in the engine and is
re-exported here.

>>> from cheekymonkey import play_game
>>> game = play_game([ExpectimaxBot(), HeuristicBot()], seed=3)
>>> sum(game.score.totals) >= 52
True
"""

from cheekymonkey.cheeky.bots.base import Bot, paused_gc
from cheekymonkey.cheeky.bots.evaluation import position_value
from cheekymonkey.cheeky.bots.expectimax import ExpectimaxBot
from cheekymonkey.cheeky.bots.heuristic import HeuristicBot
from cheekymonkey.cheeky.bots.random import RandomBot
from cheekymonkey.cheeky.bots.registry import ALIASES, BOTS, STRONGEST, bot_named
from cheekymonkey.cheeky.bots.search import MCTSBot, QuickMCTSBot
from cheekymonkey.cheeky.engine import bust_probability

__all__ = [
    "ALIASES",
    "BOTS",
    "STRONGEST",
    "Bot",
    "ExpectimaxBot",
    "HeuristicBot",
    "MCTSBot",
    "QuickMCTSBot",
    "RandomBot",
    "bot_named",
    "bust_probability",
    "paused_gc",
    "position_value",
]
