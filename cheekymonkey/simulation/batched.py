"""Simulations on a game's batched engine (the ``batched`` extra): the bots that have a batched form only.

:func:`simulate_batched` plays what :func:`~cheekymonkey.simulation.simulate` plays, with the same summary
(wins with their intervals, places, scores, game lengths, truncated games apart), but every game of the run is
one row of the game's batched engine (:mod:`cheekymonkey.batched`), its bots' moves drawn as arrays. The games
are the engine's own (its random streams, seeded from ``seed``), not the Tables' seeded ``seed + i``: the
figures agree with the scalar path's within their intervals, game for game they differ. The bots with a
batched form: the engine's :attr:`~cheekymonkey.batched.BatchedGame.bots` (the random and heuristic bots of
every game, and *Cheeky Monkey*'s expectimax bot).

Policies play beside them, as in :func:`~cheekymonkey.simulation.simulate`: a callable from an observation
and a mask to an action index, a :class:`~cheekymonkey.simulation.PolicyBot` (its observation kind, scaling
and arrays or tuples), or a weights file (``"policy:PATH"`` or a :class:`pathlib.Path`,
:func:`~cheekymonkey.simulation.load_policy`). A policy is given exactly what its
:class:`~cheekymonkey.simulation.PolicyBot` would give it at a Table, the mover's observation and the mask,
read from the batch; a policy with a ``choose_batch(observations, masks)`` method (a weights file's
:class:`~cheekymonkey.simulation.NetworkPolicy`) is called once a step for every game it moves in,
with one row per game.

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
import numpy.typing as npt

from cheekymonkey.base import bot_aliases
from cheekymonkey.batched import BATCHED_BOTS, BatchedGame, BatchState, engine_class, random_legal_actions, seed_streams
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import as_index
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.game import Game
from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.observations import observation_divisors, scaled
from cheekymonkey.simulation._arguments import check_tables, labels
from cheekymonkey.simulation._tally import Tally
from cheekymonkey.simulation.blocks import WIN_UNITS, BlockResult
from cheekymonkey.simulation.policies import POLICY_PREFIX, Entry, PolicyBot, as_bot
from cheekymonkey.simulation.stats import Histogram
from cheekymonkey.simulation.summary import Summary

__all__ = ["BATCHED_BOTS", "simulate_batched"]


def simulate_batched(
    bots: Sequence[Entry],
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
    """Play ``games`` games between bots with a batched form and policies on the game's batched engine.

    The bots fill the seats as in :func:`~cheekymonkey.simulation.simulate` (repeated round the table, game
    ``i`` moving every bot ``i`` seats on), and the limits are the same. Up to ``batch_size`` games are played
    side by side, each row of the batch playing its share of the games in turn.

    Args:
        bots: Names of bots with a batched form, and policies (a callable, a
            :class:`~cheekymonkey.simulation.PolicyBot`, or a weights file: ``"policy:PATH"`` or a path).
        games: How many games to play.
        seed: Seeds the engine's streams of the games, and the bots' own streams apart from them.
        ruleset: The rules, one of ``game``'s rule sets; its standard game if omitted.
        players: The number of seats; if omitted, one per bot given (two if only one is given).
        max_actions: Cut a game off once it has played this many actions, chance outcomes included.
        max_turns: Cut a game off when a turn past this many would begin (None: no limit).
        game: The game played, or its name; it must have a batched engine.
        batch_size: The most games played side by side.

    Raises:
        InvalidValueError: If a bot has no batched form (a bot object, or a name the engine does not batch),
            a weights file cannot be read or does not fit the table, a policy chooses an index that is not
            legal, the game has no batched engine, or an argument is out of range.
        InvalidGameError: If the rules cannot seat that many players.
    """
    played = game_named(game) if isinstance(game, str) else game
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise InvalidValueError(f"bots must be a sequence of bot names and policies, got {bots!r}")
    engine_type = engine_class(played.name)
    batched: tuple[str, ...] = getattr(engine_type, "bots", ())
    entries: list[str | PolicyBot] = []
    for bot in bots:
        if isinstance(bot, str) and not bot.startswith(POLICY_PREFIX):
            if bot_aliases(played).get(bot, bot) not in batched:
                raise InvalidValueError(
                    f"bot {bot!r} has no batched form for {played.title}; the bots that do: {', '.join(batched)} "
                    "(and policies)"
                )
            entries.append(bot)
            continue
        entry = as_bot(bot, played)
        if not isinstance(entry, PolicyBot):
            raise InvalidValueError(
                f"{entry!r} has no batched form: the batched simulation plays the bots named "
                f"{', '.join(batched)} and policies, not bot objects"
            )
        entries.append(entry)
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
    check_tables(entries, players, ruleset, played)
    engine = engine_type(players, ruleset, max_turns=max_turns, max_steps=max_actions)
    lines = tuple(entries[i % len(entries)] for i in range(players))
    names = labels(lines)
    # A policy's lines are drawn as the random bot's first, then given the policy's own choice.
    mask_lines = tuple(line if isinstance(line, str) else "random" for line in lines)
    movers_of = _policy_lines(lines, engine_type, players, ruleset)
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
            mask = engine.mixed_bot_mask(states, mask_lines, choice)
            for mover in movers_of:
                mover.choose(states, np.flatnonzero(playing & np.isin(choice, mover.lines)), mask)
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


class _PolicyMover:
    """One policy of a batched simulation: the lines it plays, and what it sees the games through."""

    def __init__(self, bot: PolicyBot, lines: list[int], observer: BatchedGame[Any, Any, Any]) -> None:
        self.bot = bot
        self.lines = np.array(lines, np.int64)
        self.observer = observer
        encoding = observer.encoding
        self.bounds = encoding.observation_bounds
        self.divisors = np.array(observation_divisors(encoding), np.float32)
        batch = getattr(bot.policy, "choose_batch", None)
        self.batch = batch if callable(batch) and bot.arrays else None

    def choose(self, states: BatchState, rows: npt.NDArray[np.int64], mask: npt.NDArray[np.bool_]) -> None:
        """Set ``mask``'s rows ``rows`` to the policy's one choice, where somebody decides; refuse an illegal one."""
        rows = rows[states.current_player[rows] >= 0]
        if not rows.size:
            return
        seats = np.full(states.batch_size, -1, np.int64)
        seats[rows] = states.current_player[rows]
        observations = self.observer.observation(states, seats)[rows]
        legal = states.legal_action_mask[rows]
        bot = self.bot
        if bot.scaled and bot.arrays:
            np.divide(observations, self.divisors, out=observations)
        if self.batch is not None:
            picks = [as_index(pick) for pick in np.asarray(self.batch(observations, legal.copy())).tolist()]
        elif bot.arrays:
            picks = [as_index(bot.policy(observations[r], legal[r].copy())) for r in range(len(rows))]
        else:
            picks = []
            for r in range(len(rows)):
                values = tuple(observations[r].astype(np.int64).tolist())
                seen = scaled(values, self.bounds) if bot.scaled else values
                picks.append(as_index(bot.policy(seen, tuple(legal[r].tolist()))))
        if len(picks) != len(rows):
            raise InvalidValueError(f"policy {bot.name} chose {len(picks)} actions for {len(rows)} games")
        for r, pick in enumerate(picks):
            if not 0 <= pick < legal.shape[1] or not legal[r, pick]:
                allowed = ", ".join(str(i) for i in np.flatnonzero(legal[r]).tolist())
                raise InvalidValueError(
                    f"policy {bot.name} chose index {pick}, which is not legal here (legal: {allowed})"
                )
        mask[rows] = False
        mask[rows, np.array(picks, np.int64)] = True


def _policy_lines(
    lines: tuple[str | PolicyBot, ...], engine_type: Any, players: int, ruleset: Any
) -> list[_PolicyMover]:
    """One mover per policy (a policy repeated round the table moves for all its lines at once)."""
    found: dict[int, tuple[PolicyBot, list[int]]] = {}
    for index, line in enumerate(lines):
        if isinstance(line, PolicyBot):
            found.setdefault(id(line), (line, []))[1].append(index)
    observers: dict[str | None, BatchedGame[Any, Any, Any]] = {}
    movers = []
    for bot, indices in found.values():
        kind = bot.observation
        if kind not in observers:
            observers[kind] = engine_type(players, ruleset, observation=kind)
        movers.append(_PolicyMover(bot, indices, observers[kind]))
    return movers
