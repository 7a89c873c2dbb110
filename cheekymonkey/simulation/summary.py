"""The results of a simulation, and its progress while it runs."""

from __future__ import annotations

from typing import Any

import attrs

from cheekymonkey.simulation.stats import Histogram

__all__ = ["BotSummary", "SimulationProgress", "Summary"]


@attrs.frozen(slots=True)
class BotSummary:
    """One bot's line in a :class:`Summary`."""

    name: str
    """The bot's label (its kind, numbered by its place in the list if the same kind plays twice)."""
    wins: float
    """Games won, a win shared by ``k`` counting ``1/k``."""
    win_rate: float
    """Wins per counted game."""
    low: float
    """The lower end of the 95% Wilson interval of the win rate."""
    high: float
    """The upper end of the 95% Wilson interval of the win rate."""
    mean_score: float
    """The mean final score (0.0 for a game that counts no points: see :attr:`Summary.scored`)."""
    scores: Histogram
    """How often it finished with each score (empty for a game that counts no points)."""
    mean_place: float = 0.0
    """The mean place it finished in, 1 for a win (:attr:`Outcome.ranks <cheekymonkey.Outcome.ranks>`:
    every game ranks its seats); 0.0 if no game was counted."""
    places: Histogram = attrs.field(factory=lambda: Histogram(()))
    """How often it finished in each place."""
    mean_return: float = 0.0
    """Its mean :meth:`~cheekymonkey.Game.returns` per counted game, in the game's own stakes (chips for a
    game that pays chips; for a game with the default stakes, its win rate again); 0.0 if none was counted."""


@attrs.frozen(slots=True)
class Summary:
    """The results of a simulation: the same for any backend, number of workers or block size.

    A game cut off by the run's limits (``max_actions``, ``max_turns``) is *truncated*: it is counted in
    :attr:`truncated` and in :attr:`completed`, and in nothing else, since a game cut off is not a result.
    """

    games: int
    """How many games came to a result and are counted (a truncated game is not)."""
    bots: tuple[BotSummary, ...]
    """One line per bot at the table, in the order given (bots repeated round a larger table included)."""
    mean_actions: float
    """The mean number of actions per counted game, chance outcomes included."""
    mean_turns: float
    """The mean number of turns per counted game."""
    requested: int
    """How many games were asked for."""
    partial: bool
    """True if the run was stopped (Ctrl-C) before every block finished: only finished blocks are counted."""
    seed: int
    """Game ``i`` used seed ``seed + i``."""
    ruleset: str
    """The name of the rule set played."""
    players: int
    """The number of seats."""
    seat_win_rates: tuple[float, ...]
    """Wins per game by seat, whoever sat there: the first seat's edge shows here."""
    turns: Histogram
    """How many games took each number of turns."""
    completed: tuple[tuple[int, int], ...]
    """The games played, truncated ones included, as ``(start, stop)`` ranges of game numbers:
    ``((0, requested),)`` for a whole run."""
    truncated: int = 0
    """How many games the limits cut off: played, and counted in nothing above but :attr:`completed`."""

    @property
    def scored(self) -> bool:
        """Whether the games counted points, so that :attr:`BotSummary.mean_score` means something.

        They did if their outcomes had scores (:attr:`Outcome.scores <cheekymonkey.Outcome.scores>`).
        A game that counts no points (or a run with no game counted) has none, and a front end leaves the
        scores out, showing the places instead.
        """
        return any(line.scores.total for line in self.bots)

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain dicts, lists, numbers and strings, for :func:`json.dumps`.

        Each histogram becomes ``{"values": [...], "counts": [...]}``.
        """

        def plain(instance: object, attribute: object, value: object) -> object:
            if isinstance(value, Histogram):
                return {"values": list(value.values), "counts": list(value.counts)}
            return value

        return attrs.asdict(self, value_serializer=plain)


@attrs.frozen(slots=True)
class SimulationProgress:
    """How far a running simulation has got: passed to the ``progress`` callback after each block."""

    games_done: int
    """Games finished so far."""
    games: int
    """Games asked for."""
    blocks_done: int
    """Blocks finished so far."""
    blocks: int
    """Blocks in the run."""
    elapsed: float
    """Seconds since the run started."""

    @property
    def rate(self) -> float:
        """Games per second so far (0.0 before the first block)."""
        return self.games_done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        """Seconds left at the rate so far (None before the first block)."""
        rate = self.rate
        return (self.games - self.games_done) / rate if rate > 0 else None
