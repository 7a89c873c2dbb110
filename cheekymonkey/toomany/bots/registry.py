"""The bots by name, as the command line, the web rooms and :data:`~cheekymonkey.toomany.TOO_MANY_MONKEYS` know them.

>>> tuple(BOTS)
('random', 'heuristic', 'expectimax')
>>> bot_named("expectimax", memory=500)
ExpectimaxBot(depth=2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from cheekymonkey.checks import check_memory
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.bots.base import Bot
from cheekymonkey.toomany.bots.expectimax import ExpectimaxBot
from cheekymonkey.toomany.bots.heuristic import HeuristicBot
from cheekymonkey.toomany.bots.random import RandomBot

__all__ = ["ALIASES", "BOTS", "STRONGEST", "bot_named", "resolve_bot_name"]


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


STRONGEST: Final = "heuristic"
"""The bot ``strongest`` names: the winner of the leagues the bot page publishes, the highest rating summed
over its tables of 2, 3 and 6 seats (``tests/test_strongest.py`` checks it against the pinned leagues)."""

ALIASES: Final[Mapping[str, str]] = MappingProxyType({"strongest": STRONGEST})
"""Second names for bots of :data:`BOTS`, each to the bot it names: ``strongest``, the game's best bot."""


def resolve_bot_name(name: str) -> str:
    """The bot of :data:`BOTS` that ``name`` names: an alias of :data:`ALIASES` resolved, any other name as it is.

    >>> resolve_bot_name("strongest"), resolve_bot_name("expectimax")
    ('heuristic', 'expectimax')
    """
    return ALIASES.get(name, name)


def bot_named(name: str, *, memory: int | None = None) -> Bot:
    """A fresh bot of the kind called ``name``, one of :data:`BOTS` or an alias of :data:`ALIASES`.

    Args:
        name: The bot's kind, or a second name for it.
        memory: The most entries the bot may hold in its caches (None: its own bound). The random and
            heuristic bots keep none; the expectimax bot's memo holds at most this many positions.

    Raises:
        InvalidValueError: If there is no bot of that name, or ``memory`` is not a positive integer.
    """
    maker = _MAKERS.get(resolve_bot_name(name)) if isinstance(name, str) else None
    if maker is None:
        known = ", ".join([*BOTS, *ALIASES])
        raise InvalidValueError(f"no Too Many Monkeys bot named {name!r}; the bots are {known}")
    check_memory(memory)
    return maker(memory)
