"""A stand-in game written only against :class:`~cheekymonkey.base.BaseGame`'s required core: a dice race.

Each seat in turn either steps one square or rolls a three-sided die (chance) and moves that far; the first to
reach the target square wins. Nothing here but the rules: every other member of the protocol is the base
class's default, and it offers no encodings, proofs, schemas or page drawing.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Final

import attrs

from cheekymonkey.base import BaseGame, Played
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import (
    GameNotOverError,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    NotAChanceNodeError,
)
from cheekymonkey.outcome import Outcome

__all__ = ["RACE", "Move", "Race", "RaceRules", "RaceState", "RaceView", "Roll"]


class Move(enum.Enum):
    """A seat's choice: one square, or the die."""

    STEP = "step"
    ROLL = "roll"


@attrs.frozen(slots=True)
class Roll:
    """Chance's outcome: the die shows ``pips``."""

    pips: int = attrs.field(validator=attrs.validators.in_((1, 2, 3)))


Action = Move | Roll


@attrs.frozen(slots=True)
class RaceRules:
    """How far the race goes."""

    target: int = 6

    def __attrs_post_init__(self) -> None:
        if not is_whole_number(self.target) or not 1 <= self.target <= 100:
            raise InvalidRulesetError(f"the target must be a whole number from 1 to 100, got {self.target!r}")


@attrs.frozen(slots=True)
class RaceState:
    """Where every seat stands, whose turn it is, and whether the die is in the air."""

    rules: RaceRules
    squares: tuple[int, ...]
    seat: int
    rolling: bool = False


@attrs.frozen(slots=True)
class RaceView:
    """What anyone sees: all of it (the race hides nothing)."""

    squares: tuple[int, ...]
    to_move: int | None
    target: int


_PRESETS: Final = {"standard": RaceRules(), "short": RaceRules(target=3)}
_DIE: Final = tuple((Roll(pips), Fraction(1, 3)) for pips in (1, 2, 3))


class Race(BaseGame[RaceState, Action, RaceRules, RaceView, Played[Action]]):
    """A dice race: step one square or roll the die; the first to the target square wins."""

    name = "dice-race"
    title = "Dice Race"

    presets = _PRESETS

    def seat_range(self, ruleset: RaceRules | None = None) -> tuple[int, int]:
        return (2, 4)

    def new_game(self, players: int, ruleset: RaceRules | None = None, *, first_player: int = 0) -> RaceState:
        if not is_whole_number(players) or not 2 <= players <= 4:
            raise InvalidGameError(f"a race has 2 to 4 seats, not {players!r}")
        if not is_whole_number(first_player) or not 0 <= first_player < players:
            raise InvalidGameError(f"the first seat must be one of the {players} seats, not {first_player!r}")
        return RaceState(ruleset or self.ruleset(), (0,) * players, first_player)

    def ruleset_of(self, state: RaceState) -> RaceRules:
        return state.rules

    def players(self, state: RaceState) -> int:
        return len(state.squares)

    def is_terminal(self, state: RaceState) -> bool:
        return max(state.squares) >= state.rules.target

    def is_chance_node(self, state: RaceState) -> bool:
        return state.rolling

    def to_move(self, state: RaceState) -> int | None:
        return None if state.rolling or self.is_terminal(state) else state.seat

    def decisions(self, state: RaceState) -> tuple[Action, ...]:
        return (Move.STEP, Move.ROLL)

    def chance_outcomes(self, state: RaceState) -> tuple[tuple[Action, Fraction], ...]:
        if not state.rolling:
            raise NotAChanceNodeError("the die is not in the air")
        return _DIE

    def apply(self, state: RaceState, action: Action) -> RaceState:
        if action not in self.legal_actions(state):
            raise IllegalActionError(state, action, "not one of the actions allowed now")
        if action is Move.ROLL:
            return attrs.evolve(state, rolling=True)
        pips = action.pips if isinstance(action, Roll) else 1
        squares = tuple(square + pips if seat == state.seat else square for seat, square in enumerate(state.squares))
        return RaceState(state.rules, squares, (state.seat + 1) % len(squares))

    def outcome(self, state: RaceState) -> Outcome:
        if not self.is_terminal(state):
            raise GameNotOverError("the race is not over")
        best = max(state.squares)
        return Outcome.of_winners([s for s, q in enumerate(state.squares) if q == best], state.squares)

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        return RaceView(state.squares, self.to_move(state), state.rules.target)


RACE: Final = Race()
"""The dice race, as a game."""
