"""What a simulation raises: a game that failed, and a backend that lost what it could not play again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cheekymonkey.errors import CheekyMonkeyError

if TYPE_CHECKING:
    from cheekymonkey.simulation.summary import Summary

__all__ = ["GameFailedError", "SimulationError"]


class GameFailedError(CheekyMonkeyError, RuntimeError):
    """A game of a simulation raised: a bot (or the engine) failed inside a worker.

    It names the game and its seed, so the game can be played again alone with
    ``play_game(bots, seed=seed)``, bots in the seat order given. It holds only text and numbers, so it
    pickles across processes and clusters.

    Attributes:
        game: The game's number in the run (it used seed ``seed + game``).
        seed: The game's seed.
        seats: The bots in seat order, as labelled in the summary.
        error_type: The name of the exception's class.
        message: The exception's message.
        details: The traceback, as text, from the process that played the game.
    """

    def __init__(
        self, game: int, seed: int, seats: tuple[str, ...], error_type: str, message: str, details: str = ""
    ) -> None:
        super().__init__(
            f"game {game} (seed {seed}, seats: {', '.join(seats)}) failed: {error_type}: {message}".rstrip(": ")
        )
        self.game = game
        self.seed = seed
        self.seats = seats
        self.error_type = error_type
        self.message = message
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its fields: the default would call __init__ with the formatted message alone.
        return (type(self), (self.game, self.seed, self.seats, self.error_type, self.message, self.details))


class SimulationError(CheekyMonkeyError, RuntimeError):
    """The backend lost blocks it could not play again (a broken pool, a cluster that gave up).

    Attributes:
        reason: What went wrong, in words.
        summary: The blocks finished before it, summed up and marked partial (None if none finished).
    """

    def __init__(self, reason: str, summary: Summary | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.summary = summary

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.summary))


# Their public home: tracebacks and pickles name them cheekymonkey.simulation.GameFailedError, and so on.
GameFailedError.__module__ = SimulationError.__module__ = "cheekymonkey.simulation"
