"""Events: what an action did, as typed values a front end can animate or narrate."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from cheekymonkey.cheeky.actions import Action, Claim, Herd, Place, Reveal, Stop, Swap
from cheekymonkey.cheeky.engine import apply
from cheekymonkey.cheeky.rules import Animal
from cheekymonkey.cheeky.scoring import ScoreSheet, score
from cheekymonkey.cheeky.state import GameState, Phase

__all__ = [
    "Busted",
    "Claimed",
    "Drew",
    "Event",
    "GameOver",
    "HerdSecured",
    "Stacked",
    "Stopped",
    "Swapped",
    "apply_with_events",
]


@attrs.frozen(slots=True)
class Drew:
    """``seat`` drew ``animal`` and did not bust (R5)."""

    seat: int
    """The seat that drew."""
    animal: Animal
    """The animal drawn."""


@attrs.frozen(slots=True)
class Busted:
    """``seat`` drew ``animal``, a duplicate, and every token in front went back into the bag (R6)."""

    seat: int
    """The seat that bust."""
    animal: Animal
    """The duplicate drawn."""
    returned: tuple[Animal, ...]
    """Every token that went back into the bag, the drawn one last."""


@attrs.frozen(slots=True)
class Claimed:
    """``seat`` claimed ``animal`` from the top of ``from_seat``'s stack (R7)."""

    seat: int
    """The seat that claimed."""
    from_seat: int
    """The seat whose top token was claimed."""
    animal: Animal
    """The animal claimed."""


@attrs.frozen(slots=True)
class Swapped:
    """``seat`` gave its monkey to ``with_seat`` and took that seat's top token, ``took`` (R12)."""

    seat: int
    """The seat that swapped."""
    with_seat: int
    """The seat that got the monkey."""
    took: Animal
    """The animal taken in exchange."""


@attrs.frozen(slots=True)
class Stopped:
    """``seat`` chose to stop with ``tokens`` in front (R9); :class:`Stacked` events follow."""

    seat: int
    """The seat that stopped."""
    tokens: tuple[Animal, ...]
    """The tokens in front when it stopped."""


@attrs.frozen(slots=True)
class Stacked:
    """``seat`` put ``animals`` on top of its stack, in that order, the last on top (R9)."""

    seat: int
    """The seat that stacked."""
    animals: tuple[Animal, ...]
    """The tokens put on the stack, bottom first."""


@attrs.frozen(slots=True)
class HerdSecured:
    """``seat`` put ``animals``, all one animal, at the bottom of its stack (R10)."""

    seat: int
    """The seat that secured the herd."""
    animals: tuple[Animal, ...]
    """The herd."""


@attrs.frozen(slots=True)
class GameOver:
    """The game ended (R15) with this score sheet."""

    sheet: ScoreSheet
    """The final scores and winners."""


Event: TypeAlias = Drew | Busted | Claimed | Swapped | Stopped | Stacked | HerdSecured | GameOver
"""Any event."""


def apply_with_events(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`~cheekymonkey.apply`, and also say what happened.

    A :class:`~cheekymonkey.Draw` alone says nothing (the token is not known until the chance
    outcome); the :class:`~cheekymonkey.Reveal` that follows says :class:`Drew` or :class:`Busted`.

    Raises:
        IllegalActionError: As :func:`~cheekymonkey.apply` does.

    >>> from cheekymonkey import new_game, Reveal, Animal
    >>> apply_with_events(new_game(2), Reveal(Animal.HIPPO))[1]
    (Drew(seat=0, animal=Animal.HIPPO),)
    """
    after = apply(state, action)
    seat = state.seat
    events: list[Event] = []
    if isinstance(action, Reveal):
        if action.animal in state.front:
            events.append(Busted(seat, action.animal, (*state.front, action.animal)))
        else:
            events.append(Drew(seat, action.animal))
    elif isinstance(action, Claim):
        events.append(Claimed(seat, action.seat, after.front[-1]))
    elif isinstance(action, Swap):
        events.append(Swapped(seat, action.seat, after.front[-1]))
    elif isinstance(action, Stop):
        events.append(Stopped(seat, state.front))
        if after.phase is not Phase.PLACING:
            events.append(Stacked(seat, state.front))
    elif isinstance(action, Place):
        if after.phase is Phase.PLACING:
            events.append(Stacked(seat, (action.animal,)))
        else:
            rest = list(state.front)
            rest.remove(action.animal)
            events.append(Stacked(seat, (action.animal, *rest)))
    elif isinstance(action, Herd):
        events.append(HerdSecured(seat, state.front))
    if after.phase is Phase.OVER:
        events.append(GameOver(score(after)))
    return after, tuple(events)
