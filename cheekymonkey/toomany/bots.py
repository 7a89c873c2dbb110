"""Bots for Too Many Monkeys; for now the random one, which the search and heuristic bots will join.

>>> import random
>>> from cheekymonkey.toomany import Card, Reveal, apply, new_game
>>> state = apply(new_game(2), Reveal(Card.SKIP))
>>> bot_named("random").choose(state, random.Random(3))
GiveSkip(1)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, Protocol

from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.actions import Action
from cheekymonkey.toomany.engine import legal_actions
from cheekymonkey.toomany.state import GameState

__all__ = ["BOTS", "Bot", "RandomBot", "bot_named"]


class Bot(Protocol):
    """Anything that picks an action for the player to move in a Too Many Monkeys state."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return one of ``legal_actions(state)``; ``state`` is never a chance node nor the end."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions, with ``rng``: the baseline every other bot must beat."""

    kind: Final = "random"
    """The bot's kind, as :func:`bot_named` knows it and records name it."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return a legal action chosen uniformly with ``rng``."""
        actions = legal_actions(state)
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomBot()"


BOTS: Final[dict[str, Callable[[], Bot]]] = {"random": RandomBot}
"""Every bot by name: a function that makes a fresh one."""


def bot_named(name: str) -> Bot:
    """A fresh bot of the kind called ``name``, one of :data:`BOTS`.

    Raises:
        InvalidValueError: If there is no bot of that name.
    """
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise InvalidValueError(f"no Too Many Monkeys bot named {name!r}; the bots are {', '.join(BOTS)}")
    return factory()
