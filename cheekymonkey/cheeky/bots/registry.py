"""The bots by name, as the command line, the web rooms and :data:`~cheekymonkey.CHEEKY_MONKEY` know them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from cheekymonkey.cheeky.bots.base import Bot
from cheekymonkey.cheeky.bots.expectimax import ExpectimaxBot
from cheekymonkey.cheeky.bots.heuristic import HeuristicBot
from cheekymonkey.cheeky.bots.random import RandomBot
from cheekymonkey.cheeky.bots.search import MCTSBot, QuickMCTSBot
from cheekymonkey.errors import InvalidValueError

__all__ = ["ALIASES", "BOTS", "STRONGEST", "bot_named", "resolve_bot_name"]


# To add a bot, add its name and a function that builds a fresh one, with no arguments. A bot that needs an
# optional extra imports it inside that function, so that the registry loads without the extra.
def _learned_bot() -> Bot:
    # The learned network (cheekymonkey.cheeky.bots.learned) needs numpy, the rl extra: imported when first asked for.
    try:
        from cheekymonkey.cheeky.bots.learned import LearnedBot
    except ImportError as error:
        raise InvalidValueError(str(error)) from error
    return LearnedBot(fallback=HeuristicBot())


BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expectimax": ExpectimaxBot,
    "mcts": MCTSBot,
    "learned": _learned_bot,
    "mcts400": QuickMCTSBot,
}
"""The bots by name, as the command line knows them: each entry builds a fresh bot."""


STRONGEST: Final = "expectimax"
"""The bot ``strongest`` names: the winner of the leagues the bot page publishes, the highest rating summed
over its tables of 2, 3 and 6 seats (``tests/test_strongest.py`` checks it against the pinned leagues)."""

ALIASES: Final[Mapping[str, str]] = MappingProxyType({"strongest": STRONGEST})
"""Second names for bots of :data:`BOTS`, each to the bot it names: ``strongest``, the game's best bot."""


def resolve_bot_name(name: str) -> str:
    """The bot of :data:`BOTS` that ``name`` names: an alias of :data:`ALIASES` resolved, any other name as it is.

    >>> resolve_bot_name("strongest"), resolve_bot_name("heuristic")
    ('expectimax', 'heuristic')
    """
    return ALIASES.get(name, name)


def bot_named(name: str) -> Bot:
    """A fresh bot of the kind called ``name``: one of :data:`BOTS`, or an alias of :data:`ALIASES`.

    >>> bot_named("strongest")
    ExpectimaxBot(depth=2)

    Raises:
        InvalidValueError: If there is no bot of that name.
    """
    factory = BOTS.get(resolve_bot_name(name)) if isinstance(name, str) else None
    if factory is None:
        raise InvalidValueError(f"no bot named {name!r}; the bots are {', '.join([*BOTS, *ALIASES])}")
    return factory()
