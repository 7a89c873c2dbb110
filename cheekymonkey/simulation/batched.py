"""Simulations on a game's batched engine (the ``batched`` extra): the bots that have a batched form only.

:func:`simulate_batched` plays what :func:`~cheekymonkey.simulation.simulate` plays, with the same summary
(wins with their intervals, places, scores, game lengths, truncated games apart), but every game of the run is
one row of the game's batched engine (:mod:`cheekymonkey.batched`), its bots' moves drawn as arrays. The games
are the engine's own (its random streams, seeded from ``seed``), not the Tables' seeded ``seed + i``: the
figures agree with the scalar path's within their intervals, game for game they differ. The bots with a
batched form: the engine's :attr:`~cheekymonkey.batched.BatchedGame.bots` (the random and heuristic bots of
every game, and *Cheeky Monkey*'s expectimax bot).

>>> from cheekymonkey.cheeky.rules import Animal, Ruleset
>>> small = Ruleset.custom({Animal.SEAL: 3, Animal.LION: 3, Animal.MONKEY: 4})
>>> summary = simulate_batched(["random"], 300, seed=1, ruleset=small, players=3)
>>> summary.games + summary.truncated, summary.players, round(sum(line.wins for line in summary.bots))
(300, 3, 300)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from cheekymonkey.batched import BATCHED_BOTS, engine_class, random_legal_actions, seed_streams
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.simulation._arguments import labels
from cheekymonkey.simulation._tally import Tally
from cheekymonkey.simulation.blocks import WIN_UNITS, BlockResult
from cheekymonkey.simulation.stats import Histogram
from cheekymonkey.simulation.summary import Summary

__all__ = ["BATCHED_BOTS", "simulate_batched"]


def simulate_batched(
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    ruleset: Any | None = None,
    players: int | None = None,
    max_actions: int | None = 1_000_000,
    max_turns: int | None = None,
    game: Game[Any, Any, Any, Any, Any] | str = DEFAULT_GAME,
    batch_size: int = 1024,
) -> Summary:
    """Play ``games`` games between bots with a batched form on the game's batched engine, and sum them up.

    The bots fill the seats as in :func:`~cheekymonkey.simulation.simulate` (repeated round the table, game
    ``i`` moving every bot ``i`` seats on), and the limits are the same. Up to ``batch_size`` games are played
    side by side, each row of the batch playing its share of the games in turn.

    Raises:
        InvalidValueError: If a bot has no batched form, the game no batched engine, or an argument is out
            of range.
        InvalidGameError: If the rules cannot seat that many players.
    """
    played = game_named(game) if isinstance(game, str) else game
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise InvalidValueError(f"bots must be a sequence of bot names, got {bots!r}")
    if not all(isinstance(bot, str) for bot in bots):
        raise InvalidValueError(f"bots must be a sequence of bot names, got {bots!r}")
    engine_type = engine_class(played.name)
    batched = getattr(engine_type, "bots", ())
    for bot in bots:
        if bot not in batched:
            raise InvalidValueError(
                f"bot {bot!r} has no batched form for {played.title}; the bots that do: {', '.join(batched)}"
            )
    for name, value, least in (("games", games, 0), ("batch_size", batch_size, 1)):
        if not is_whole_number(value) or value < least:
            raise InvalidValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    if not is_whole_number(seed):
        raise InvalidValueError(f"seed must be an integer, got {seed!r}")
    ruleset = played.ruleset() if ruleset is None else ruleset
    low, _ = played.seat_range(ruleset)
    if players is None:
        players = len(bots) if len(bots) > 1 else max(2, low)
    if len(bots) > players:
        raise InvalidGameError(f"{len(bots)} bots for {players} seats: give at most one bot per seat")
    engine = engine_type(players, ruleset, max_turns=max_turns, max_steps=max_actions)
    lines = tuple(bots[i % len(bots)] for i in range(players))
    names = labels(lines)
    n = players
    win_units = [0] * n
    seat_win_units = [0] * n
    scores: list[Counter[int]] = [Counter() for _ in range(n)]
    places: list[Counter[int]] = [Counter() for _ in range(n)]
    returns = [Fraction(0)] * n
    turn_counts: Counter[int] = Counter()
    actions = 0
    truncated = 0
    if games:
        width = min(batch_size, games)
        # Row b plays games b, b + width, b + 2 * width, ...: each row its share, whatever their lengths.
        quota = np.array([len(range(b, games, width)) for b in range(width)], np.int64)
        finished = np.zeros(width, np.int64)
        states = engine.init(width, seed)
        movers = seed_streams(-seed - 1, width)  # the bots' own streams, apart from the games'
        playing = finished < quota
        rows = np.arange(width, dtype=np.int64)
        while playing.any():
            # The mover's bot: seat s of game number k is played by line (s + k) % n.
            numbers = finished * width + rows
            choice = (np.maximum(states.current_player, 0) + numbers) % n
            mask = engine.mixed_bot_mask(states, lines, choice)
            engine.step(states, random_legal_actions(mask, movers), where=playing)
            for b in np.flatnonzero(playing & (states.terminated | states.truncated)).tolist():
                number = int(finished[b]) * width + b
                finished[b] += 1
                if states.truncated[b]:
                    truncated += 1
                    continue
                final = engine.decode(states, b)
                outcome = played.outcome(final)
                assert outcome is not None  # a game the engine ends by its rules has an outcome
                paid = played.returns(final)
                order = [(s + number) % n for s in range(n)]
                share = WIN_UNITS // len(outcome.winners)
                for seat, line in enumerate(order):
                    returns[line] += Fraction(paid[seat])
                    if outcome.scores is not None:
                        scores[line][outcome.scores[seat]] += 1
                    places[line][outcome.ranks[seat]] += 1
                    if seat in outcome.winners:
                        win_units[line] += share
                        seat_win_units[seat] += share
                actions += int(states.steps[b])
                turn_counts[int(states.turns[b])] += 1
            playing = finished < quota
    tally = Tally(players)
    tally.add(
        BlockResult(
            0,
            games,
            tuple(win_units),
            tuple(seat_win_units),
            tuple(Histogram.of(c).pairs for c in scores),
            actions,
            Histogram.of(turn_counts).pairs,
            truncated,
            tuple(Histogram.of(c).pairs for c in places),
            tuple(returns),
        )
    )
    return tally.summary(names, requested=games, seed=seed, ruleset=played.ruleset_name(ruleset))
