"""Drivers: play whole games with one bot per seat, chance resolved by a seeded sampler."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from cheekymonkey.actions import Action, Draw
from cheekymonkey.engine import legal_actions
from cheekymonkey.errors import GameTooLongError, InvalidGameError
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import ANIMALS, Ruleset
from cheekymonkey.scoring import ScoreSheet, score
from cheekymonkey.state import GameState
from cheekymonkey.table import Seat, Table, bot_kind, rngs_for

__all__ = ["Bot", "PlayedGame", "RandomBot", "play_game", "rngs_for"]  # rngs_for: from cheekymonkey.table


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for the player to move.

    A bot must stop with positive probability in every state (R22), or games may never end.
    """

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return one of ``legal_actions(state)``; ``state`` is never a chance node."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions, but never a draw that must bust.

    So it stops with positive probability, and never draws when every token left in the bag would bust
    it, as R22 asks.
    """

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return a legal action chosen uniformly with ``rng``, leaving out a draw that must bust (R22)."""
        actions = legal_actions(state)
        if actions[0].__class__ is Draw:
            bag = state.bag
            front = state.front
            for animal in ANIMALS:
                if bag[animal] and animal not in front:
                    break
            else:
                # R22: every token left in the bag matches one in front, so drawing is a certain bust.
                actions = actions[1:]
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomBot()"


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
    from cheekymonkey.games.cheeky_monkey import CHEEKY_MONKEY

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
