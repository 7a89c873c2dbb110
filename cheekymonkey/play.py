"""Drivers: play whole games with one bot per seat on a :class:`~cheekymonkey.Table`, chance from a seeded stream."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs

from cheekymonkey.actions import Action
from cheekymonkey.bots.base import Bot
from cheekymonkey.bots.random import RandomBot
from cheekymonkey.errors import GameTooLongError, InvalidGameError
from cheekymonkey.games.cheeky_monkey import CHEEKY_MONKEY
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import ScoreSheet, score
from cheekymonkey.state import GameState
from cheekymonkey.table import Seat, Table, bot_kind, rngs_for

# Bot and RandomBot live in cheekymonkey.bots, rngs_for in cheekymonkey.table; they are importable here too.
__all__ = ["Bot", "PlayedGame", "RandomBot", "play_game", "rngs_for"]


@attrs.frozen(slots=True)
class PlayedGame:
    """A finished game: its record and its final state."""

    record: GameRecord
    """The rules, seats and every action: replaying it gives :attr:`state`."""
    state: GameState
    """The final state."""

    @property
    def score(self) -> ScoreSheet:
        """The final score sheet."""
        return score(self.state)


def _check_bots(bots: object) -> None:
    # Misuse caught here reads better than the TypeError it would cause at the bot's first move.
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidGameError(f"bots must be a list with one bot per seat, got {bots!r}")
    for seat, bot in enumerate(bots):
        if isinstance(bot, type):
            raise InvalidGameError(
                f"seat {seat}'s bot is the class {bot.__name__}, not a bot: pass an instance, {bot.__name__}()"
            )
        if not callable(getattr(bot, "choose", None)):
            raise InvalidGameError(f"seat {seat}'s bot {bot!r} has no choose(state, rng) method; see cheekymonkey.Bot")


def play_game(
    bots: Sequence[Bot],
    *,
    ruleset: Ruleset | None = None,
    first_player: int = 0,
    seed: int | random.Random | None = None,
    max_actions: int | None = 1_000_000,
    on_action: Callable[[GameState, Action], None] | None = None,
) -> PlayedGame:
    """Play a whole game, one bot per seat; chance is sampled with a seeded random stream.

    The same seed and bots give the same game, every time. No random state is kept in a game state.

    Args:
        bots: One bot per seat; their number is the number of players.
        ruleset: The rules; the standard game if omitted.
        first_player: The seat that starts.
        seed: An integer seed, a ``random.Random`` to draw from, or None for a fresh random game.
        max_actions: Give up with :class:`~cheekymonkey.GameTooLongError` after this many actions
            (None: no limit). Bots that stop with positive probability end games long before.
        on_action: Called with each state and the action played in it, as each is played.

    Raises:
        InvalidGameError: If the seats, first player or seed do not fit, or a bot is not a bot (a class
            instead of an instance, or something without a ``choose`` method).
        IllegalActionError: If a bot chooses an illegal action.
        GameTooLongError: If the game passes ``max_actions``.

    >>> game = play_game([RandomBot(), RandomBot(), RandomBot()], seed=1)
    >>> game.state.bag_size, sum(len(stack) for stack in game.state.stacks)
    (0, 52)
    """
    _check_bots(bots)
    seats = [Seat.of(bot, f"{CHEEKY_MONKEY.bot_title(bot_kind(bot))} {seat}") for seat, bot in enumerate(bots)]
    table = Table(
        CHEEKY_MONKEY, seats, ruleset=ruleset, first_player=first_player, seed=seed, max_steps=max_actions, events=False
    )
    for step in table.steps():
        if on_action is not None:
            on_action(step.before, step.action)
    if table.truncated:
        raise GameTooLongError(f"the game passed {max_actions} actions: does every bot stop? (R22)")
    record = table.record()
    assert isinstance(record, GameRecord)
    return PlayedGame(record, table.state)
