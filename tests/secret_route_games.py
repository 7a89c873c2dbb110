"""The guessing game with encodings, so the learning environments take it, and variants each leaking through one route.

:data:`LEARNABLE_GUESS` is :class:`~tests.secret_games.GuessGame` with an encoding written right: it shows a
seat its own card, how many are dealt, the guess, and the other card once the game is over. Each leaky
variant breaks one member that a single family of routes reads, and nothing else:

- :class:`LeakyObservationGame`: the encoding's observation shows the other seat's card (the environments'
  observations);
- :class:`LeakyMaskGame`: the encoding's action mask allows only the right guess (the environments' masks);
- :class:`LeakyRenderGame`: the text board, which the environments render, is the whole state;
- :class:`LeakyLogGame`: whether a move is complete (:meth:`~cheekymonkey.Game.mid_move`) reads seat 0's
  card, so the web's log lines for a deal come or not by the card dealt;
- :class:`LeakyOutcomeGame`: no card is shown at the end, but the outcome, which only the web's table
  carries, says whether seat 0 guessed right.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

import attrs

from cheekymonkey.encoding import ObservationField, as_index, lay_out
from cheekymonkey.errors import InvalidValueError
from tests.secret_games import CARDS, Action, Deal, Guess, GuessGame, GuessState, GuessView

_FIELDS = lay_out(
    [
        ("mine", (1,), len(CARDS), "the seat's own card plus 1, 0 before it is dealt"),
        ("dealt", (1,), 2, "how many cards are dealt"),
        ("guess", (1,), len(CARDS), "the card guessed plus 1, 0 before the guess"),
        ("theirs", (1,), len(CARDS), "the other seat's card plus 1 once the game is over, else 0"),
    ]
)


def _plus_one(card: int | None) -> int:
    return 0 if card is None else card + 1


@attrs.frozen
class GuessEncoding:
    """The guessing game's action indices (a guess of card ``i`` is ``i``; chance's card ``i`` too) and observation."""

    game: GuessGame

    @property
    def num_actions(self) -> int:
        return len(CARDS)

    @property
    def num_outcomes(self) -> int:
        return len(CARDS)

    @property
    def observation_size(self) -> int:
        return len(_FIELDS)

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        return tuple(field.bound for field in _FIELDS)

    @property
    def observation_fields(self) -> tuple[ObservationField, ...]:
        return _FIELDS

    def encode(self, action: Action, state: GuessState) -> int:
        if action.card is None:
            raise InvalidValueError(f"{action!r} has no index")
        return action.card

    def decode(self, index: int, state: GuessState) -> Action:
        index = as_index(index)
        if index not in CARDS:
            raise InvalidValueError(f"{index} is not an index of the guessing game")
        if self.game.is_chance_node(state):
            return Deal(state.cards.index(None), index)
        return Guess(index)

    def legal_indices(self, state: GuessState) -> tuple[int, ...]:
        return tuple(self.encode(action, state) for action in self.game.legal_actions(state))

    def action_mask(self, state: GuessState) -> tuple[bool, ...]:
        legal = () if self.game.is_chance_node(state) else self.legal_indices(state)
        return tuple(card in legal for card in CARDS)

    def outcome_mask(self, state: GuessState) -> tuple[bool, ...]:
        legal = self.legal_indices(state) if self.game.is_chance_node(state) else ()
        return tuple(card in legal for card in CARDS)

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return f"{'card' if chance else 'guess'} {as_index(index)}"

    def observe(self, state: GuessState, seat: int | None) -> tuple[int, ...]:
        view = self.game.view(state, seat)
        return (_plus_one(view.mine), view.dealt, _plus_one(view.guess), _plus_one(view.theirs))

    def observation_text(self, state: GuessState, seat: int | None) -> str:
        values = self.observe(state, seat)
        return " ".join(f"{field.name} {value}" for field, value in zip(_FIELDS, values, strict=True))

    def points(self, state: GuessState) -> tuple[float, ...]:
        return self.game.returns(state) if self.game.is_terminal(state) else (0.0, 0.0)


class LearnableGuess(GuessGame):
    """The guessing game with its encoding: every learning environment takes it."""

    name = "guess-learnable"

    def observation_kinds(self) -> tuple[str, ...]:
        return ("full",)

    def encoding(self, players: int, ruleset: None = None, observation: str | None = None) -> Any:
        if players != 2 or observation not in (None, "full"):
            raise InvalidValueError(f"the guessing game has 2 seats and the observation 'full', got {players}")
        return self._encoding()

    def _encoding(self) -> GuessEncoding:
        return GuessEncoding(self)


class _ObservesBoth(GuessEncoding):
    def observe(self, state: GuessState, seat: int | None) -> tuple[int, ...]:
        mine, dealt, guess, _ = super().observe(state, seat)
        other = None if seat is None else state.cards[1 - seat]
        return (mine, dealt, guess, _plus_one(other))


class LeakyObservationGame(LearnableGuess):
    """The observation's last entry is the other seat's card from the start, not only once the game is over."""

    name = "guess-leaky-observation"

    def _encoding(self) -> GuessEncoding:
        return _ObservesBoth(self)


class _MasksTheAnswer(GuessEncoding):
    def action_mask(self, state: GuessState) -> tuple[bool, ...]:
        if self.game.to_move(state) is None:
            return (False,) * len(CARDS)
        return tuple(card == state.cards[1] for card in CARDS)


class LeakyMaskGame(LearnableGuess):
    """The mask allows only the card seat 1 holds: the legal actions are right, their mask is not."""

    name = "guess-leaky-mask"

    def _encoding(self) -> GuessEncoding:
        return _MasksTheAnswer(self)


class LeakyRenderGame(LearnableGuess):
    """The text board, for a terminal or a log, is the whole state: what the environments render."""

    name = "guess-leaky-render"

    def board_text(self, state: GuessState) -> str:
        return repr(state)


class LeakyLogGame(LearnableGuess):
    """A deal of seat 0's card ends a move only if the card is 0: the log tells seat 1 whether it was."""

    name = "guess-leaky-log"

    def mid_move(self, state: GuessState) -> bool:
        return state.guess is None and state.cards[0] != 0


class LeakyOutcomeGame(LearnableGuess):
    """Nothing is shown at the end, yet the outcome names the winner: seat 0 learns if it guessed seat 1's card.

    The view, the information state and the draws for a seat are the guessing game's before the end, and stay
    so after it (no card turned up); only the outcome, in the web's table and stream, tells.
    """

    name = "guess-leaky-outcome"

    def view(self, state: GuessState, seat: int | None) -> Any:
        mine = None if seat is None else state.cards[seat]
        return GuessView(mine, None, state.guess, 2 - state.cards.count(None))

    def information_state(self, state: GuessState, seat: int) -> Hashable:
        return (state.cards[seat], state.cards.count(None), state.guess)

    def resample(self, state: GuessState, seat: int, rng: random.Random) -> GuessState:
        if state.cards[1 - seat] is None:
            return state
        # The other's card, among those the seat does not hold and (for seat 1) seat 0 did not guess.
        left = [card for card in CARDS if card != state.cards[seat] and (seat == 0 or card != state.guess)]
        other = left[rng.randrange(len(left))]
        cards = (state.cards[0], other) if seat == 0 else (other, state.cards[1])
        return GuessState(cards, state.guess)


class UnencodableGuess(LearnableGuess):
    """Offers an observation kind, but its encoding refuses every seat count: no environment can be built."""

    name = "guess-unencodable"

    def encoding(self, players: int, ruleset: None = None, observation: str | None = None) -> Any:
        raise InvalidValueError(f"no encoding for {players} seats")


LEARNABLE_GUESS = LearnableGuess()
