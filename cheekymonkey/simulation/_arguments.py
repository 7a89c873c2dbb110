"""The checks of a simulation's arguments, made before any game is played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.game import Game, GameBot
from cheekymonkey.simulation.policies import Entry, PolicyBot, as_bot

__all__ = ["check_bots", "check_tables", "labels", "whole"]


def labels(bots: Sequence[str | GameBot[Any, Any]]) -> tuple[str, ...]:
    """Each line's label: the bot's name (a policy's) or repr, numbered by its place where the same one plays twice."""
    names = [bot if isinstance(bot, str) else bot.name if isinstance(bot, PolicyBot) else repr(bot) for bot in bots]
    return tuple(f"{name} {i}" if names.count(name) > 1 else name for i, name in enumerate(names))


def check_bots(bots: Sequence[Entry], game: Game[Any, Any, Any, Any, Any]) -> tuple[str | GameBot[Any, Any], ...]:
    """The bots as a tuple, each one of ``game``'s bot names or a bot; a policy becomes a :class:`PolicyBot`.

    Raises:
        InvalidValueError: If ``bots`` is not a sequence, or an entry is neither a name ``game`` knows, a bot,
            nor a policy.
        InvalidGameError: If no bot is given.
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidValueError(f"bots must be a sequence of bot names, bots, policies or weights files, got {bots!r}")
    entries = tuple(as_bot(entry, game) for entry in bots)
    if not entries:
        raise InvalidGameError("no bots given: name at least one")
    known = game.bot_names()
    for entry in entries:
        if isinstance(entry, str) and entry not in known:
            raise InvalidValueError(f"no bot named {entry!r}; the bots are {', '.join(known)}")
    return entries


def check_tables(
    entries: Sequence[str | GameBot[Any, Any]], players: int, ruleset: Any, game: Game[Any, Any, Any, Any, Any]
) -> None:
    """Refuse, before any game, a policy of another game, or one that cannot play this table (its shapes).

    The table: ``players`` seats of ``game`` under ``ruleset``.

    Raises:
        InvalidValueError: Naming the policy and what does not fit.
    """
    for entry in entries:
        if isinstance(entry, PolicyBot):
            if entry.game.name != game.name:
                raise InvalidValueError(
                    f"policy {entry.name} plays {entry.game.title}, not {game.title}: wrap it for {game.title}"
                )
            entry.check_table(players, ruleset)


def whole(name: str, value: object, least: int) -> int:
    """``value``, a whole number of at least ``least``; else :class:`~cheekymonkey.InvalidValueError` naming it."""
    if not is_whole_number(value) or value < least:
        raise InvalidValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    return value
