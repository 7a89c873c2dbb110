"""A game with a secret for the tests of the surface: each of two seats holds a card, seat 0 guesses seat 1's.

Three cards, 0 to 2: chance deals seat 0 a card, then seat 1 one of the two left; seat 0 names the card it
thinks seat 1 holds, and wins a chip if right (loses one if wrong). Seat 1's card is hidden from seat 0 until
the end. Small enough to reason about, with every secrets-and-stakes member written: :data:`GUESS`.
The leaky variants break one member each, for the checks that must catch them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Any, TypeAlias

import attrs

from cheekymonkey.base import BaseGame, Played
from cheekymonkey.errors import GameNotOverError, IllegalActionError, NotAChanceNodeError
from cheekymonkey.outcome import Outcome, Stakes, Utility

CARDS = (0, 1, 2)


@attrs.frozen(slots=True)
class Deal:
    """Chance deals ``card`` to ``seat``; ``card`` None where the viewer sees only the card's back."""

    seat: int
    card: int | None


@attrs.frozen(slots=True)
class Guess:
    """Seat 0 names the card it thinks seat 1 holds."""

    card: int


Action: TypeAlias = Deal | Guess


@attrs.frozen(slots=True)
class GuessState:
    cards: tuple[int | None, int | None]
    guess: int | None


@attrs.frozen(slots=True)
class GuessView:
    mine: int | None
    theirs: int | None
    guess: int | None
    dealt: int


class GuessGame(BaseGame[GuessState, Action, None, Any, Played[Action]]):
    """Guess the other seat's card."""

    name = "guess"
    title = "Guess"
    private_information = True

    def ruleset(self, name: str | None = None) -> None:
        return None

    def seat_range(self, ruleset: None = None) -> tuple[int, int]:
        return (2, 2)

    def new_game(self, players: int, ruleset: None = None, *, first_player: int = 0) -> GuessState:
        return GuessState((None, None), None)

    def ruleset_of(self, state: GuessState) -> None:
        return None

    def players(self, state: GuessState) -> int:
        return 2

    def _left(self, state: GuessState) -> tuple[int, ...]:
        return tuple(card for card in CARDS if card not in state.cards)

    def legal_actions(self, state: GuessState) -> tuple[Action, ...]:
        if state.guess is not None:
            return ()
        if None in state.cards:
            return tuple(Deal(state.cards.index(None), card) for card in self._left(state))
        return tuple(Guess(card) for card in CARDS if card != state.cards[0])

    def apply(self, state: GuessState, action: Action) -> GuessState:
        if action not in self.legal_actions(state):
            raise IllegalActionError(state, action, "G1: not a legal action now")
        if isinstance(action, Deal):
            cards = (action.card, None) if action.seat == 0 else (state.cards[0], action.card)
            return GuessState(cards, None)
        return GuessState(state.cards, action.card)

    def is_chance_node(self, state: GuessState) -> bool:
        return None in state.cards

    def chance_outcomes(self, state: GuessState) -> tuple[tuple[Action, Fraction], ...]:
        if not self.is_chance_node(state):
            raise NotAChanceNodeError("no card is dealt now")
        left = self._left(state)
        return tuple((Deal(state.cards.index(None), card), Fraction(1, len(left))) for card in left)

    def to_move(self, state: GuessState) -> int | None:
        return 0 if None not in state.cards and state.guess is None else None

    def is_terminal(self, state: GuessState) -> bool:
        return state.guess is not None

    def returns(self, state: GuessState) -> tuple[float, ...]:
        if state.guess is None:
            raise GameNotOverError("not over")
        return (1.0, -1.0) if state.guess == state.cards[1] else (-1.0, 1.0)

    def stakes(self, players: int, ruleset: None = None) -> Stakes:
        return Stakes(Utility.ZERO_SUM, -1.0, 1.0, 0.0)

    def outcome(self, state: GuessState) -> Outcome:
        returns = self.returns(state)
        return Outcome.of_winners([returns.index(1.0)], returns)

    def view(self, state: GuessState, seat: int | None) -> Any:
        over = state.guess is not None
        mine = None if seat is None else state.cards[seat]
        theirs = state.cards[1 - seat] if over and seat is not None else None
        return GuessView(mine, theirs, state.guess, 2 - state.cards.count(None))

    def information_state(self, state: GuessState, seat: int) -> Hashable:
        over = state.guess is not None
        return (state.cards[seat], state.cards.count(None), state.guess, state.cards if over else None)

    def resample(self, state: GuessState, seat: int, rng: random.Random) -> GuessState:
        if state.guess is not None or state.cards[1 - seat] is None:
            return state
        left = [card for card in CARDS if card != state.cards[seat]]
        other = left[rng.randrange(len(left))]
        cards = (state.cards[0], other) if seat == 0 else (other, state.cards[1])
        return GuessState(cards, state.guess)

    def event_for(self, event: Played[Action], viewer: int | None) -> Played[Action] | None:
        if isinstance(event.action, Deal) and event.action.seat != viewer:
            return Played(None, Deal(event.action.seat, None), f"a card to seat {event.action.seat}")
        return event

    def action_text(self, action: Action, state: GuessState) -> str:
        if isinstance(action, Deal):
            return f"card {action.card} to seat {action.seat}"
        return f"guess {action.card}"


class LeakyViewGame(GuessGame):
    """The base class's old example: the view is the whole state."""

    name = "guess-leaky-view"

    def view(self, state: GuessState, seat: int | None) -> Any:
        return state


class LeakyEventsGame(GuessGame):
    """Every event shown to every seat: a deal shows its card to all."""

    name = "guess-leaky-events"

    def event_for(self, event: Played[Action], viewer: int | None) -> Played[Action] | None:
        return event


class PeekingBot:
    """Guesses the card seat 1 holds in the state it is handed: right every time if handed the true state."""

    kind = "peeking"

    def __init__(self) -> None:
        self.handed: list[GuessState] = []

    def choose(self, state: GuessState, rng: random.Random) -> Action:
        self.handed.append(state)
        card = state.cards[1]
        assert card is not None
        return Guess(card)


GUESS = GuessGame()
