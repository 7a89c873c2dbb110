"""A league: every bot against every other, head to head, ranked by Bradley-Terry ratings with intervals.

:func:`league` plays each pair of entries (bots' names, bots, or policies: :func:`~cheekymonkey.simulation.as_bot`)
the same number of two-seat games through :func:`~cheekymonkey.simulation.simulate`, so on any of its backends,
with the seats rotated from one game to the next. Pairing ``p`` (in the order of
:attr:`~cheekymonkey.simulation.League.pairings`) plays the games of seeds ``seed + p * games`` up to
``seed + (p + 1) * games - 1``: every game of a league has its own seed, and a league repeats exactly.

The results are fitted with the Bradley-Terry model (:func:`bradley_terry`): bot ``i`` beats bot ``j`` with
probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``, so ratings are on the Elo scale (400 points are odds of
10 to 1), here centred on 1500. A shared win (a tie at two seats) counts half a win to each side, and a game
cut off by a limit counts for neither. Each rating comes with its 95% interval, from the model's Fisher
information at the fitted ratings (the ratings' mean is held at 1500, so an interval measures a bot against
the field). Each pairing also counts one drawn game more than it played, half a win to each side: a weak
prior that keeps a bot that won every game at a finite rating, and that fades as the games grow.

>>> table = league(["heuristic", "random"], 20, seed=0)
>>> [(line.name, line.wins, line.games) for line in table.standings]
[('heuristic', 20.0, 20), ('random', 0.0, 20)]
>>> best, worst = table.standings
>>> round(best.rating - worst.rating), round(400 * math.log10(20.5 / 0.5))  # the odds, a drawn game added
(645, 645)
>>> round(best.low), round(best.rating), round(best.high)
(1579, 1823, 2066)
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.game import Game, GameBot
from cheekymonkey.games import DEFAULT_GAME, game_named
from cheekymonkey.simulation._arguments import check_bots, check_tables, labels, whole
from cheekymonkey.simulation.backends import _ignore_interrupts
from cheekymonkey.simulation.policies import Entry
from cheekymonkey.simulation.run import simulate
from cheekymonkey.simulation.summary import SimulationProgress

__all__ = [
    "ELO_CENTRE",
    "League",
    "Pairing",
    "Standing",
    "TableLeague",
    "TableStanding",
    "bradley_terry",
    "league",
    "line_ups",
    "pairwise_placings",
    "table_league",
]

ELO_CENTRE: Final = 1500.0
"""The mean of a league's ratings."""

_ELO: Final = 400.0 / math.log(10.0)  # Elo points per unit of log-strength
_Z: Final = 1.959963984540054  # the 97.5% point of the normal distribution: 95% intervals
_PRIOR: Final = 0.5  # half a win to each side of every pairing: one drawn game more than it played


@attrs.frozen(slots=True)
class Pairing:
    """The games of two entries against each other, seats rotated."""

    first: str
    """One entry's label."""
    second: str
    """The other's."""
    first_wins: float
    """Games :attr:`first` won, a shared win counting half."""
    second_wins: float
    """Games :attr:`second` won, a shared win counting half."""
    games: int
    """Games with a result (a truncated game is not one)."""
    truncated: int
    """Games cut off by a limit, counted for neither."""
    seed: int
    """The pairing's first seed: its games used ``seed`` and up."""
    first_return: float = 0.0
    """:attr:`first`'s mean :meth:`~cheekymonkey.Game.returns` per game with a result, in the game's own stakes."""
    second_return: float = 0.0
    """:attr:`second`'s mean returns per game with a result."""


@attrs.frozen(slots=True)
class Standing:
    """One entry's line in the league table."""

    name: str
    """The entry's label."""
    rating: float
    """Its Bradley-Terry rating on the Elo scale (the league's mean is :data:`ELO_CENTRE`)."""
    low: float
    """The lower end of the rating's 95% interval."""
    high: float
    """The upper end of the rating's 95% interval."""
    wins: float
    """Games it won, over all its pairings, a shared win counting half."""
    games: int
    """Games it played that came to a result."""
    mean_return: float = 0.0
    """Its mean :meth:`~cheekymonkey.Game.returns` per game with a result, over all its pairings, in the game's own
    stakes (chips for a betting game; for a game that declares none, the :class:`~cheekymonkey.Outcome` scale, so
    the same as :attr:`score`)."""

    @property
    def score(self) -> float:
        """Wins per game with a result (0.0 before any)."""
        return self.wins / self.games if self.games else 0.0


@attrs.frozen(slots=True)
class League:
    """A league's result: the standings, best first, and every pairing's games."""

    standings: tuple[Standing, ...]
    """One line per entry, by rating, highest first."""
    pairings: tuple[Pairing, ...]
    """Every pair of entries, in the order played."""
    games: int
    """Games asked for per pairing."""
    seed: int
    """The first pairing's first seed."""
    ruleset: str
    """The name of the rule set played."""
    game: str
    """The name of the game played."""
    partial: bool = False
    """True if the run was stopped (Ctrl-C) before every pairing finished."""

    def to_dict(self) -> dict[str, Any]:
        """The league as plain dicts, lists, numbers and strings, for :func:`json.dumps`."""
        return attrs.asdict(self)


def bradley_terry(
    entries: int, results: Sequence[tuple[int, int, float, float]], *, prior: float = _PRIOR
) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...]]:
    """The Bradley-Terry log-strengths of ``entries`` players, summing to 0, and their covariance.

    Each result ``(i, j, wins_i, wins_j)`` is a pairing's games; ``prior`` adds that many wins to each side of
    every pairing given (half a win each by default: one drawn game). The strengths maximise the likelihood
    (Newton's method with step halving, the likelihood being concave); the covariance is the inverse of the
    Fisher information on the plane of strengths summing to 0.

    >>> strengths, covariance = bradley_terry(2, [(0, 1, 29.5, 9.5)])
    >>> round(math.exp(strengths[0] - strengths[1]), 6)  # the odds: (29.5 + 0.5) / (9.5 + 0.5)
    3.0

    Raises:
        InvalidValueError: If a result names a player out of range or itself, has negative wins, or if the
            pairings do not connect every player to every other.
    """
    k = whole("entries", entries, 1)
    if isinstance(prior, bool) or not isinstance(prior, int | float) or not prior >= 0 or math.isinf(prior):
        raise InvalidValueError(f"prior must be a finite number of wins, 0 or more, got {prior!r}")
    wins = [[0.0] * k for _ in range(k)]
    for result in results:
        i, j, a, b = result
        if not (0 <= i < k and 0 <= j < k) or i == j:
            raise InvalidValueError(f"result {result!r} does not name two different players of {k}")
        if not (a >= 0 and b >= 0) or math.isinf(a) or math.isinf(b):
            raise InvalidValueError(f"result {result!r} has wins that are not finite and 0 or more")
        wins[i][j] += a + prior
        wins[j][i] += b + prior
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    _check_connected(games)
    totals = [sum(row) for row in wins]
    strengths = [0.0] * k

    def likelihood(s: list[float]) -> float:
        return sum(wins[i][j] * -math.log1p(math.exp(s[j] - s[i])) for i in range(k) for j in range(k) if wins[i][j])

    information = _information(strengths, games)
    for _ in range(200):
        gradient = [
            totals[i] - sum(games[i][j] / (1.0 + math.exp(strengths[j] - strengths[i])) for j in range(k) if j != i)
            for i in range(k)
        ]
        step = _solve(_plus_mean(information), gradient)
        before = likelihood(strengths)
        scale = 1.0
        while True:
            trial = [s + scale * d for s, d in zip(strengths, step, strict=True)]
            if likelihood(trial) >= before or scale < 1e-9:
                break
            scale /= 2.0
        mean = sum(trial) / k
        strengths = [s - mean for s in trial]
        information = _information(strengths, games)
        if max((abs(d) * scale for d in step), default=0.0) < 1e-12:
            break
    inverse = _inverse(_plus_mean(information))
    covariance = tuple(tuple(inverse[i][j] - 1.0 / k for j in range(k)) for i in range(k))
    return tuple(strengths), covariance


def _check_connected(games: list[list[float]]) -> None:
    k = len(games)
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(k):
            if games[i][j] > 0 and j not in reached:
                reached.add(j)
                frontier.append(j)
    if len(reached) != k:
        raise InvalidValueError("the pairings do not connect every player to every other: no common scale")


def _information(strengths: list[float], games: list[list[float]]) -> list[list[float]]:
    # The Fisher information of the log-strengths: a weighted graph Laplacian, singular along all-equal shifts.
    k = len(strengths)
    matrix = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                p = 1.0 / (1.0 + math.exp(strengths[j] - strengths[i]))
                weight = games[i][j] * p * (1.0 - p)
                matrix[i][j] -= weight
                matrix[i][i] += weight
    return matrix


def _plus_mean(matrix: list[list[float]]) -> list[list[float]]:
    # The information plus J/k: invertible, and its inverse minus J/k is the information's pseudo-inverse.
    k = len(matrix)
    return [[value + 1.0 / k for value in row] for row in matrix]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    k = len(vector)
    inverse = _inverse(matrix)
    return [sum(inverse[i][j] * vector[j] for j in range(k)) for i in range(k)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    # Gauss-Jordan elimination with partial pivoting: a league has a handful of entries.
    k = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(k))] for i, row in enumerate(matrix)]
    for column in range(k):
        pivot = max(range(column, k), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(k):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [value - factor * top for value, top in zip(rows[r], rows[column], strict=True)]
    return [row[k:] for row in rows]


def league(
    bots: Sequence[Entry],
    games: int,
    *,
    seed: int = 0,
    ruleset: Any | None = None,
    game: Game[Any, Any, Any, Any, Any] | str = DEFAULT_GAME,
    executor: cf.Executor | Any | None = None,
    workers: int | None = None,
    block_size: int | None = None,
    progress: Callable[[SimulationProgress], None] | None = None,
    max_actions: int | None = 1_000_000,
    max_turns: int | None = None,
) -> League:
    """Play every pair of ``bots`` head to head, ``games`` two-seat games each, and rate them (Bradley-Terry).

    Args:
        bots: Two or more entries: bot names (the game's), bots, policies (callables from an observation
            and an action mask to an action index) or policies' weights files (``"policy:PATH"``), as
            :func:`~cheekymonkey.simulation.simulate` takes them.
        games: Games per pairing (an even number gives each side each seat equally often).
        seed: Pairing ``p`` plays the seeds ``seed + p * games`` and up.
        ruleset: The rules (the game's standard rules if omitted); they must seat two.
        game: The game played, or its name.
        executor: Runs the games' blocks, as for :func:`~cheekymonkey.simulation.simulate`.
        workers: Instead of ``executor``, a local pool of this many processes for each pairing.
        block_size: Games per block, as for :func:`~cheekymonkey.simulation.simulate`.
        progress: Called after each finished block, with the games of the whole league.
        max_actions: Cut a game off after this many actions (None: no limit); it counts for neither side.
        max_turns: Cut a game off when a turn past this many would begin (None: no limit).

    Returns:
        The league. If it is stopped (Ctrl-C), the pairings finished by then and the one in progress, with
        ``partial`` set.

    Raises:
        InvalidValueError: If fewer than two entries are given, or anything :func:`simulate` refuses.
        InvalidGameError: If the rules cannot seat two.
        GameFailedError: If a game raises.
    """
    played = game_named(game) if isinstance(game, str) else game
    if not isinstance(played, Game):
        raise InvalidValueError(f"game must be a Game or a game's name, got {game!r}")
    entries = check_bots(bots, played)
    if len(entries) < 2:
        raise InvalidValueError(f"a league needs two entries or more, got {len(entries)}")
    games = whole("games", games, 1)
    if not is_whole_number(seed):
        raise InvalidValueError(f"seed must be an integer, got {seed!r}")
    ruleset = played.ruleset() if ruleset is None else ruleset
    low, _ = played.seat_range(ruleset)
    if low > 2:
        raise InvalidGameError(f"a league plays two-seat games, and these rules seat {low} or more")
    check_tables(entries, 2, ruleset, played)
    names = labels(entries)
    pairs = [(i, j) for i in range(len(entries)) for j in range(i + 1, len(entries))]
    total = games * len(pairs)
    started = time.monotonic()
    done_games = 0
    done_blocks = 0
    blocks_each = 0

    def report(step: SimulationProgress) -> None:
        nonlocal blocks_each
        blocks_each = step.blocks
        if progress is not None:
            progress(
                SimulationProgress(
                    done_games + step.games_done,
                    total,
                    done_blocks + step.blocks_done,
                    step.blocks * len(pairs),
                    time.monotonic() - started,
                )
            )

    pairings: list[Pairing] = []
    partial = False
    for number, (i, j) in enumerate(pairs):
        first_seed = seed + number * games
        try:
            summary = simulate(
                [entries[i], entries[j]],
                games,
                seed=first_seed,
                ruleset=ruleset,
                players=2,
                executor=executor,
                workers=workers,
                block_size=block_size,
                progress=report,
                max_actions=max_actions,
                max_turns=max_turns,
                game=played,
            )
        except KeyboardInterrupt:  # between two blocks' games: the pairings finished are the answer
            partial = True
            break
        first, second = summary.bots
        pairings.append(
            Pairing(
                names[i],
                names[j],
                first.wins,
                second.wins,
                summary.games,
                summary.truncated,
                first_seed,
                first.mean_return,
                second.mean_return,
            )
        )
        done_games += games
        done_blocks += blocks_each
        if summary.partial:
            partial = True
            break
    # Every pairing of the league counts, the prior's drawn game included, even one a stop left unplayed.
    results = [(i, j, 0.0, 0.0) for i, j in pairs]
    for number, pairing in enumerate(pairings):
        results[number] = (*pairs[number], pairing.first_wins, pairing.second_wins)
    strengths, covariance = bradley_terry(len(entries), results)
    standings = []
    for index, name in enumerate(names):
        rating = ELO_CENTRE + _ELO * strengths[index]
        half = _Z * _ELO * math.sqrt(max(covariance[index][index], 0.0))
        wins = sum(p.first_wins for p in pairings if p.first == name) + sum(
            p.second_wins for p in pairings if p.second == name
        )
        played_games = sum(p.games for p in pairings if name in (p.first, p.second))
        paid = sum(p.first_return * p.games for p in pairings if p.first == name) + sum(
            p.second_return * p.games for p in pairings if p.second == name
        )
        mean_return = paid / played_games if played_games else 0.0
        standings.append(Standing(name, rating, rating - half, rating + half, wins, played_games, mean_return))
    standings.sort(key=lambda line: -line.rating)
    return League(tuple(standings), tuple(pairings), games, seed, played.ruleset_name(ruleset), played.name, partial)


# -- a league at any table size ------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class TableStanding:
    """One entry's line in a league of several seats: its rating from its placings, and its mean place."""

    name: str
    """The entry's label."""
    rating: float
    """Its Bradley-Terry rating over pairwise placings, on the Elo scale (the league's mean is :data:`ELO_CENTRE`)."""
    low: float
    """The lower end of the rating's 95% interval (a bootstrap over games)."""
    high: float
    """The upper end of the rating's 95% interval."""
    mean_place: float
    """Its mean place (1 is first), over the seats it held in games with a result."""
    seatings: int
    """How many seats it held in games with a result (an entry may hold two seats of one table)."""
    mean_return: float = 0.0
    """Its mean :meth:`~cheekymonkey.Game.returns` per seat held in a game with a result, in the game's own stakes."""


@attrs.frozen(slots=True)
class TableLeague:
    """A league of several seats: the standings, best first, and the tables played."""

    standings: tuple[TableStanding, ...]
    """One line per entry, by rating, highest first."""
    tables: tuple[tuple[str, ...], ...]
    """The line-up of each table, its entries in seat order for its first game."""
    seats: int
    """Seats at every table."""
    games: int
    """Games per table."""
    truncated: int
    """Games cut off by a limit, counted for nobody."""
    seed: int
    """Table ``t`` played the seeds ``seed + t * games`` and up."""
    bootstrap: int
    """Resamples of the games behind each interval."""
    ruleset: str
    """The name of the rule set played."""
    game: str
    """The name of the game played."""

    def to_dict(self) -> dict[str, Any]:
        """The league as plain dicts, lists, numbers and strings, for :func:`json.dumps`."""
        return attrs.asdict(self)


def line_ups(entries: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """The tables of a league: for each entry, it and the entries after it round the list, ``seats`` in all.

    Every entry heads one table and holds ``seats`` seats over the league; with fewer entries than seats, an
    entry holds more than one seat of a table.

    >>> line_ups(4, 3)
    ((0, 1, 2), (1, 2, 3), (2, 3, 0), (3, 0, 1))
    """
    return tuple(tuple((first + k) % entries for k in range(seats)) for first in range(entries))


def pairwise_placings(
    placings: Sequence[Sequence[tuple[int, int]]],
) -> list[tuple[int, int, float, float]]:
    """Each game's placings ``(entry, rank)`` as head-to-head results: the better place wins, a tie halves.

    Two seats of one entry are not compared.
    """
    results: list[tuple[int, int, float, float]] = []
    for placing in placings:
        for a, (i, rank_i) in enumerate(placing):
            for j, rank_j in placing[a + 1 :]:
                if i == j:
                    continue
                if rank_i < rank_j:
                    results.append((i, j, 1.0, 0.0))
                elif rank_j < rank_i:
                    results.append((i, j, 0.0, 1.0))
                else:
                    results.append((i, j, 0.5, 0.5))
    return results


def table_league(
    bots: Sequence[Entry],
    games: int,
    seats: int,
    *,
    seed: int = 0,
    ruleset: Any | None = None,
    game: Game[Any, Any, Any, Any, Any] | str = DEFAULT_GAME,
    max_actions: int | None = 1_000_000,
    max_turns: int | None = None,
    bootstrap: int = 200,
    workers: int | None = None,
) -> TableLeague:
    """Play a league at ``seats`` seats a table and rate every entry by its placings.

    The tables are :func:`line_ups`; each plays ``games`` games, the seats rotated one place from a game to the
    next (so over ``seats`` games each entry of a table sits in each seat once). Each game's placings count as
    head-to-head results between the entries at its table (:func:`pairwise_placings`), fitted with the
    Bradley-Terry model (:func:`bradley_terry`, ratings on the Elo scale). The placings of one game are not
    independent, so each rating's 95% interval comes from a bootstrap over the games: ``bootstrap`` resamples
    of the games (drawn with ``random.Random(seed)``), refitted, their 2.5% and 97.5% points.

    ``workers`` plays the games in a local pool of that many processes (the entries must then pickle, as for
    :func:`~cheekymonkey.simulation.simulate`); the league is the same with any number.

    Raises:
        InvalidValueError: If fewer than two entries or a bad count is given.
        InvalidGameError: If the rules cannot seat ``seats``.
        GameFailedError: Never: a game that raises raises as it is.
    """
    import random

    played = game_named(game) if isinstance(game, str) else game
    if not isinstance(played, Game):
        raise InvalidValueError(f"game must be a Game or a game's name, got {game!r}")
    entries = check_bots(bots, played)
    if len(entries) < 2:
        raise InvalidValueError(f"a league needs two entries or more, got {len(entries)}")
    games = whole("games", games, 1)
    bootstrap = whole("bootstrap", bootstrap, 1)
    seats = whole("seats", seats, 2)
    if workers is not None:
        workers = whole("workers", workers, 1)
    if not is_whole_number(seed):
        raise InvalidValueError(f"seed must be an integer, got {seed!r}")
    ruleset = played.ruleset() if ruleset is None else ruleset
    low, high = played.seat_range(ruleset)
    if not low <= seats <= high:
        raise InvalidGameError(f"these rules seat {low} to {high}, not {seats}")
    check_tables(entries, seats, ruleset, played)
    names = labels(entries)
    tables = line_ups(len(entries), seats)
    placings: list[list[tuple[int, int]]] = []
    paid: list[list[float]] = [[] for _ in entries]
    truncated = 0
    jobs = []
    for number, line_up in enumerate(tables):
        for g in range(games):
            order = tuple(line_up[(s + g) % seats] for s in range(seats))
            line = tuple((entries[i], f"{names[i]} {s}") for s, i in enumerate(order))
            jobs.append((order, (played, line, ruleset, seed + number * games + g, max_turns, max_actions)))
    if workers is None or workers == 1:
        results = [_table_game(job) for _, job in jobs]
    else:
        with cf.ProcessPoolExecutor(workers, initializer=_ignore_interrupts) as pool:
            results = list(pool.map(_table_game, [job for _, job in jobs], chunksize=4))
    for (order, _), result in zip(jobs, results, strict=True):
        if result is None:
            truncated += 1
            continue
        ranks, returns = result
        placings.append([(i, ranks[s]) for s, i in enumerate(order)])
        for s, value in enumerate(returns):
            paid[order[s]].append(value)
    k = len(entries)
    links = _links(tables)
    strengths, _ = bradley_terry(k, _by_pair(pairwise_placings(placings), links))
    draws = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(k)]
    for _ in range(bootstrap):
        resampled = [placings[draws.randrange(len(placings))] for _ in placings] if placings else []
        fitted, _ = bradley_terry(k, _by_pair(pairwise_placings(resampled), links))
        for index, value in enumerate(fitted):
            samples[index].append(ELO_CENTRE + _ELO * value)
    standings = []
    for index, name in enumerate(names):
        places = [rank for placing in placings for i, rank in placing if i == index]
        ordered = sorted(samples[index])
        low_end = ordered[int(0.025 * (len(ordered) - 1))]
        high_end = ordered[math.ceil(0.975 * (len(ordered) - 1))]
        standings.append(
            TableStanding(
                name,
                ELO_CENTRE + _ELO * strengths[index],
                low_end,
                high_end,
                sum(places) / len(places) if places else 0.0,
                len(places),
                sum(paid[index]) / len(paid[index]) if paid[index] else 0.0,
            )
        )
    standings.sort(key=lambda line: -line.rating)
    return TableLeague(
        tuple(standings),
        tuple(tuple(names[i] for i in line_up) for line_up in tables),
        seats,
        games,
        truncated,
        seed,
        bootstrap,
        played.ruleset_name(ruleset),
        played.name,
    )


def _table_game(job: tuple[Any, ...]) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
    """One game of a table league, in this process or a worker's: each seat's place and return, None if cut off."""
    from collections import deque

    from cheekymonkey.table import Table

    played, line, ruleset, seed, max_turns, max_actions = job
    table = Table(
        played,
        [_seat(played, entry, label) for entry, label in line],
        ruleset=ruleset,
        seed=seed,
        max_turns=max_turns,
        max_steps=max_actions,
        events=False,
    )
    deque(table.steps(), maxlen=0)
    outcome = table.outcome()
    if outcome is None:
        return None
    return tuple(outcome.ranks), tuple(float(value) for value in played.returns(table.state))


def _seat(game: Game[Any, Any, Any, Any, Any], entry: str | GameBot[Any, Any], label: str) -> Any:
    from cheekymonkey.table import Seat

    # A name: a fresh bot of the game's kind, each game. A bot object (a policy's bot included): itself.
    return Seat.bot(game, entry, label) if isinstance(entry, str) else Seat.of(entry, label)


def _by_pair(
    results: Sequence[tuple[int, int, float, float]], links: Sequence[tuple[int, int]]
) -> list[tuple[int, int, float, float]]:
    # The head-to-head results summed per pair of entries, one line per pair that shares a table: the
    # Bradley-Terry prior (one drawn game) then counts once per pair, and the fit is defined even where a
    # resample leaves a pair no game.
    totals = {link: [0.0, 0.0] for link in links}
    for i, j, a, b in results:
        key, (x, y) = ((i, j), (a, b)) if i < j else ((j, i), (b, a))
        totals[key][0] += x
        totals[key][1] += y
    return [(i, j, a, b) for (i, j), (a, b) in totals.items()]


def _links(tables: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    # Every two different entries that share a table.
    links = {(min(a, b), max(a, b)) for table in tables for a in table for b in table if a != b}
    return sorted(links)
