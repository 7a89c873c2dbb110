"""Drivers: play whole games with one bot per seat on a :class:`~cheekymonkey.Table`, chance from a seeded stream.

:func:`play_game` plays any game of the registry (:mod:`cheekymonkey.games`), Cheeky Monkey when none is
named.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cheekymonkey.checks import check_bot
from cheekymonkey.errors import GameTooLongError, InvalidGameError
from cheekymonkey.game import GameBot
from cheekymonkey.games import DEFAULT_GAME, AnyGame, game_named
from cheekymonkey.outcome import Outcome
from cheekymonkey.table import Seat, Table, bot_kind, rngs_for

# rngs_for lives in cheekymonkey.table; it is importable here too.
__all__ = ["PlayedGame", "play_game", "rngs_for"]


@attrs.frozen(slots=True)
class PlayedGame:
    """A finished game: its record and its final state, and the game they are of."""

    record: Any
    """The game's record (:class:`~cheekymonkey.record.RecordLike`; Cheeky Monkey's is a
    :class:`~cheekymonkey.GameRecord`): the rules, seats and every action. Replaying it gives :attr:`state`."""
    state: Any
    """The final state, one of the game's states."""
    game: AnyGame = attrs.field(factory=lambda: game_named(DEFAULT_GAME), kw_only=True, repr=False)
    """The game played (by default, :data:`~cheekymonkey.games.DEFAULT_GAME`)."""

    @property
    def outcome(self) -> Outcome:
        """The winners, ranks and returns, as every game gives them."""
        return self.game.outcome(self.state)

    @property
    def score(self) -> Any:
        """The final score sheet of a game that keeps one (Cheeky Monkey's :class:`~cheekymonkey.ScoreSheet`).

        Raises:
            AttributeError: If the game keeps no score sheet (its :attr:`outcome` says how it came out).
        """
        scorer: Callable[[Any], Any] | None = getattr(self.game, "score", None)
        if scorer is None:
            raise AttributeError(f"{self.game.title} keeps no score sheet: see the outcome of the game instead")
        return scorer(self.state)


def _check_bots(bots: object) -> None:
    # Misuse caught here reads better than the TypeError it would cause at the bot's first move.
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidGameError(f"bots must be a list with one bot per seat, got {bots!r}")
    for seat, bot in enumerate(bots):
        check_bot(bot, f"seat {seat}'s bot")


def play_game(
    bots: Sequence[GameBot[Any, Any]],
    *,
    game: AnyGame | None = None,
    ruleset: Any = None,
    first_player: int = 0,
    seed: int | random.Random | None = None,
    max_actions: int | None = 1_000_000,
    on_action: Callable[[Any, Any], None] | None = None,
) -> PlayedGame:
    """Play a whole game, one bot per seat; chance is sampled with a seeded random stream.

    The same seed and bots give the same game, every time. No random state is kept in a game state.

    Args:
        bots: One bot per seat, each a bot of the game played; their number is the number of players.
        game: The game (:func:`~cheekymonkey.games.game_named`); None for the default game, Cheeky Monkey.
        ruleset: The rules; the game's standard rules if omitted.
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

    >>> from cheekymonkey import RandomBot
    >>> played = play_game([RandomBot(), RandomBot(), RandomBot()], seed=1)
    >>> played.state.bag_size, sum(len(stack) for stack in played.state.stacks)
    (0, 52)
    >>> from cheekymonkey.toomany import TOO_MANY_MONKEYS, RandomBot as TooManyRandomBot
    >>> played = play_game([TooManyRandomBot(), TooManyRandomBot()], game=TOO_MANY_MONKEYS, seed=1)
    >>> played.outcome.winners
    (0,)
    """
    played = game_named(DEFAULT_GAME) if game is None else game
    _check_bots(bots)
    seats = [Seat.of(bot, f"{played.bot_title(bot_kind(bot))} {seat}") for seat, bot in enumerate(bots)]
    table = Table(
        played, seats, ruleset=ruleset, first_player=first_player, seed=seed, max_steps=max_actions, events=False
    )
    for step in table.steps():
        if on_action is not None:
            on_action(step.before, step.action)
    if table.truncated:
        raise GameTooLongError(f"the game passed {max_actions} actions: does every bot stop?")
    return PlayedGame(table.record(), table.state, game=played)
