"""The bots by name, as the command line, the web rooms and :data:`~cheekymonkey.toomany.TOO_MANY_MONKEYS` know them.

>>> tuple(BOTS)
('random', 'heuristic', 'expectimax')
>>> bot_named("expectimax", memory=500)
ExpectimaxBot(depth=2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from cheekymonkey.checks import check_memory
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.bots.base import Bot
from cheekymonkey.toomany.bots.expectimax import ExpectimaxBot
from cheekymonkey.toomany.bots.heuristic import HeuristicBot
from cheekymonkey.toomany.bots.random import RandomBot

__all__ = ["BOTS", "bot_named"]


def _expectimax(memory: int | None) -> Bot:
    return ExpectimaxBot() if memory is None else ExpectimaxBot(memory=memory)


# Each bot by name: a function of the memory bound that builds a fresh one. A bot that keeps no cache
# ignores the bound.
_MAKERS: Final[dict[str, Callable[[int | None], Bot]]] = {
    "random": lambda memory: RandomBot(),
    "heuristic": lambda memory: HeuristicBot(),
    "expectimax": _expectimax,
}

BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expectimax": ExpectimaxBot,
}
"""Every bot by name, weakest first: a function that makes a fresh one."""


def bot_named(name: str, *, memory: int | None = None) -> Bot:
    """A fresh bot of the kind called ``name``, one of :data:`BOTS`.

    Args:
        name: The bot's kind.
        memory: The most entries the bot may hold in its caches (None: its own bound). The random and
            heuristic bots keep none; the expectimax bot's memo holds at most this many positions.

    Raises:
        InvalidValueError: If there is no bot of that name, or ``memory`` is not a positive integer.
    """
    maker = _MAKERS.get(name) if isinstance(name, str) else None
    if maker is None:
        raise InvalidValueError(f"no Too Many Monkeys bot named {name!r}; the bots are {', '.join(BOTS)}")
    check_memory(memory)
    return maker(memory)
