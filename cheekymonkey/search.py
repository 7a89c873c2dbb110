"""The search bot, :class:`~cheekymonkey.bots.search.MCTSBot`, by the import path it first had.

The bots live in :mod:`cheekymonkey.bots`; ``from cheekymonkey.search import MCTSBot`` keeps working and
gives the same class.
"""

from cheekymonkey.bots.search import MCTSBot

__all__ = ["MCTSBot"]
