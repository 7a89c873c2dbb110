"""One block of games: the task a worker runs, and the whole-number counts it sends back."""

from __future__ import annotations

import traceback
from collections import Counter, deque
from fractions import Fraction
from typing import Any

import attrs

from cheekymonkey.game import Game, GameBot
from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.simulation.errors import GameFailedError
from cheekymonkey.simulation.stats import Histogram
from cheekymonkey.table import Seat, Table

__all__ = ["WIN_UNITS", "Block", "BlockResult", "play_block"]

WIN_UNITS = 60
"""A whole win in the block counts: 60, the least common multiple of 1 to 6.

A win shared by ``k`` winners (a game whose outcome may name several) is ``60 // k`` units for each, a whole
number for any table of 2 to 6, so wins add up exactly, in any order.
"""


@attrs.frozen(slots=True)
class Block:
    """One task: games ``start`` to ``stop - 1`` of a run, everything a worker needs to play them."""

    bots: tuple[str | GameBot[Any, Any], ...]
    """One entry per line of the summary: a bot name (a fresh bot each game) or a picklable bot."""
    labels: tuple[str, ...]
    """The bots' labels, for error messages."""
    ruleset: Any
    """The rules (a rule set of :attr:`game`)."""
    seed: int
    """The run's seed: game ``i`` uses ``seed + i``."""
    start: int
    """The first game's number."""
    stop: int
    """One past the last game's number."""
    max_actions: int | None = 1_000_000
    """A game is cut off, *truncated*, once it has played this many actions, chance outcomes included
    (None: no limit)."""
    max_turns: int | None = None
    """A game is cut off, *truncated*, when a turn past this many would begin (None: no limit)."""
    game: Game[Any, Any, Any, Any, Any] = attrs.field(factory=lambda: game_named(DEFAULT_GAME))
    """The game played (the default game, :data:`~cheekymonkey.games.DEFAULT_GAME`, if not given)."""


@attrs.frozen(slots=True)
class BlockResult:
    """What a block sends back: whole-number counts only, so merging is exact and order-free.

    A game cut off by the block's limits is *truncated*: it counts in :attr:`truncated` and nowhere else,
    since a game cut off is not a result.
    """

    start: int
    """The block's first game."""
    stop: int
    """One past its last game."""
    win_units: tuple[int, ...]
    """Per bot line, wins in :data:`WIN_UNITS` per game."""
    seat_win_units: tuple[int, ...]
    """Per seat, wins in :data:`WIN_UNITS` per game."""
    scores: tuple[tuple[tuple[int, int], ...], ...]
    """Per bot line, ``(score, games)`` pairs: its final scores, from :attr:`Outcome.scores
    <cheekymonkey.Outcome.scores>` (none for a game that counts no points)."""
    actions: int
    """Actions played in all its games that came to a result."""
    turns: tuple[tuple[int, int], ...]
    """``(turns, games)`` pairs, for the games that came to a result."""
    truncated: int = 0
    """How many of its games were cut off by the limits, and so are counted nowhere else."""
    places: tuple[tuple[tuple[int, int], ...], ...] = ()
    """Per bot line, ``(place, games)`` pairs: how often it finished in each place (:attr:`Outcome.ranks
    <cheekymonkey.Outcome.ranks>`, 1 for a win), which every game has."""
    returns: tuple[Fraction, ...] = ()
    """Per bot line, the sum of its :meth:`~cheekymonkey.Game.returns` over the games that came to a result,
    each return taken exactly (a float is a fraction), so sums merge exactly in any order."""


def _seat(game: Game[Any, Any, Any, Any, Any], entry: str | GameBot[Any, Any], label: str) -> Seat:
    # A name: a fresh bot of the game's kind, each game. A bot object: itself.
    return Seat.bot(game, entry, label) if isinstance(entry, str) else Seat.of(entry, label)


def play_block(block: Block) -> BlockResult:
    """Play one block's games, each on a :class:`~cheekymonkey.Table`, and count them; what each worker runs.

    Raises:
        GameFailedError: If a game raises, naming the game and its seed.
    """
    game = block.game
    n = len(block.bots)
    win_units = [0] * n
    seat_win_units = [0] * n
    scores: list[Counter[int]] = [Counter() for _ in range(n)]
    places: list[Counter[int]] = [Counter() for _ in range(n)]
    returns = [Fraction(0)] * n
    turn_counts: Counter[int] = Counter()
    actions = 0
    truncated = 0
    for number in range(block.start, block.stop):
        # Seat s holds line (s + number) % n, so over n games each line sits in each seat once.
        order = [(s + number) % n for s in range(n)]
        game_seed = block.seed + number
        try:
            table = Table(
                game,
                [_seat(game, block.bots[line], block.labels[line]) for line in order],
                ruleset=block.ruleset,
                seed=game_seed,
                max_turns=block.max_turns,
                max_steps=block.max_actions,
                events=False,
            )
            deque(table.steps(), maxlen=0)  # every seat is a bot: chance and the bots play to the end
            outcome = table.outcome()
            paid = None if outcome is None else game.returns(table.state)
        except Exception as error:
            raise GameFailedError(
                number,
                game_seed,
                tuple(block.labels[line] for line in order),
                type(error).__qualname__,
                str(error),
                traceback.format_exc(),
            ) from error
        if outcome is None:  # cut off by a limit: truncated, not a result
            truncated += 1
            continue
        share = WIN_UNITS // len(outcome.winners)  # a shared win is split evenly
        assert paid is not None  # a game with an outcome pays
        for seat, line in enumerate(order):
            returns[line] += Fraction(paid[seat])
            if outcome.scores is not None:
                scores[line][outcome.scores[seat]] += 1
            places[line][outcome.ranks[seat]] += 1
            if seat in outcome.winners:
                win_units[line] += share
                seat_win_units[seat] += share
        actions += len(table.actions)
        turn_counts[table.turns] += 1
    return BlockResult(
        block.start,
        block.stop,
        tuple(win_units),
        tuple(seat_win_units),
        tuple(Histogram.of(c).pairs for c in scores),
        actions,
        Histogram.of(turn_counts).pairs,
        truncated,
        tuple(Histogram.of(c).pairs for c in places),
        tuple(returns),
    )
