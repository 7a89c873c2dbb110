"""A conformance kit for a game's author: one call checks that a game keeps the protocol's promises.

>>> from cheekymonkey.testing import check_game
>>> from cheekymonkey.games import game_named
>>> check_game(game_named("cheeky-monkey"), seed=1, games=2)

:func:`check_game` plays seeded, bounded games through any :class:`~cheekymonkey.game.Game` and checks at
every state what every front end relies on; the first broken promise raises :class:`ConformanceError` (an
:class:`AssertionError`, so a test framework reports it as a failed assertion), naming the check
(:data:`CHECKS`), the game, and the actions that reach the state where it broke. The checks it runs at
each state and each step are functions here too, for a test that walks a game's states its own way (a
stateful test, a model check): :func:`check_state`, :func:`check_illegal_actions`,
:func:`check_transition`. For a game whose seats hold secrets, :func:`check_noninterference` checks
that no route facing a seat shows it more than its information. The kit imports no test framework.
"""

from __future__ import annotations

from typing import Final

from cheekymonkey.testing import _checks
from cheekymonkey.testing._checks import (
    ConformanceError,
    check_capabilities,
    check_game,
    check_illegal_actions,
    check_seats,
    check_state,
    check_transition,
)
from cheekymonkey.testing.noninterference import NoninterferenceError, NoninterferenceReport, check_noninterference

CHECKS: Final = _checks.CHECKS
"""The name of every check, as :attr:`ConformanceError.check` gives it, in the order they run at each state."""

__all__ = [
    "CHECKS",
    "ConformanceError",
    "NoninterferenceError",
    "NoninterferenceReport",
    "check_capabilities",
    "check_game",
    "check_illegal_actions",
    "check_noninterference",
    "check_seats",
    "check_state",
    "check_transition",
]
