"""Action indices: a fixed, documented mapping between actions and integers for an n-seat game.

A game of ``n`` seats numbers the players' actions from 0 to ``11 + 2n - 1``, in the order
:func:`~cheekymonkey.legal_actions` lists them. **Seats are counted from the player who acts**: a claim
from, or a swap with, the seat ``k`` places after the player to move (clockwise, R3) has the same index
whichever seat that player sits in, so a policy learnt in one seat plays in every seat (as OpenSpiel's
Hanabi numbers its hints by offset):

============================  ==================================  =====================
index                         action                              count
============================  ==================================  =====================
``0``                         :class:`~cheekymonkey.Draw`         1
``1``                         :class:`~cheekymonkey.Stop`         1
``2``                         :class:`~cheekymonkey.Herd`         1
``3 + k``                     a claim from the seat ``k`` after   ``n``
``3 + n + k``                 a swap with the seat ``k`` after    ``n``
``3 + 2n + a``                ``Place(a)``, animal ``a``          8
============================  ==================================  =====================

Offset 0 is the player's own seat: its claim and swap keep their indices and are never legal. For the
player in seat 0 the offsets are the seat numbers, so seat 0's indices are the seat numbers themselves.

The chance outcomes have an index space of their own, as in OpenSpiel: ``Reveal(a)`` is index ``a``
(the :class:`~cheekymonkey.Animal`'s value, 0 to 7). Which space an index belongs to follows from the
state: at a chance node it is an outcome, otherwise an action of the player to move.

Animals not in play under a rule set keep their indices; they are simply never legal. Decoding any index
in range gives an action; if it is not legal where it is applied, :func:`~cheekymonkey.apply` raises the
usual :class:`~cheekymonkey.IllegalActionError`.

Nothing here needs numpy: masks are tuples of bools, so a pure-Python agent can use them as they are.

>>> from cheekymonkey import Claim, Place, Animal, new_game
>>> codec = ActionCodec(3)
>>> codec.num_actions, codec.encode(Claim(2), seat=1), codec.encode(Place(Animal.MONKEY))
(17, 4, 16)
>>> codec.decode(4, seat=1), codec.decode(4, seat=2), codec.describe(4)
(Claim(2), Claim(0), 'Claim(+1)')
"""

from __future__ import annotations

from typing import Final, SupportsIndex

import attrs

from cheekymonkey.actions import CLAIMS, DRAW, HERD, PLACES, REVEALS, STOP, SWAPS, Action, Claim, Place, Reveal, Swap
from cheekymonkey.engine import legal_actions
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import as_index
from cheekymonkey.rules import ANIMALS, MAX_PLAYERS
from cheekymonkey.state import GameState, Phase

__all__ = ["DRAW_INDEX", "HERD_INDEX", "NUM_OUTCOMES", "STOP_INDEX", "ActionCodec"]

DRAW_INDEX: Final = 0
"""The index of :class:`~cheekymonkey.Draw`, whatever the seat count."""
STOP_INDEX: Final = 1
"""The index of :class:`~cheekymonkey.Stop`, whatever the seat count."""
HERD_INDEX: Final = 2
"""The index of :class:`~cheekymonkey.Herd`, whatever the seat count."""
NUM_OUTCOMES: Final = len(ANIMALS)
"""How many chance outcomes there are: one ``Reveal`` per animal."""

_FIXED: Final = 3  # Draw, Stop, Herd


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise InvalidValueError(f"players must be an integer from 2 to {MAX_PLAYERS}, got {players!r}")
    return players


def _check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidValueError(f"seat {seat!r} is not one of the {players} seats")
    return seat


@attrs.frozen(slots=True)
class ActionCodec:
    """The action indices of an ``players``-seat game: encode, decode, and masks of the legal actions.

    Indices count seats from the player who acts (see the module's table): ``seat`` arguments say who that
    is, and the methods that take a state use its player to move.

    Args:
        players: The number of seats, 2 to 16.

    Raises:
        InvalidValueError: If ``players`` is not an integer from 2 to 16.
    """

    players: int = attrs.field(validator=lambda _i, _a, v: _check_players(v))
    """The number of seats the indices are laid out for."""
    # For each acting seat: its actions in index order, and each action's index.
    _actions: tuple[tuple[Action, ...], ...] = attrs.field(init=False, repr=False, eq=False)
    _indices: tuple[dict[Action, int], ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        n = self.players
        rows: list[tuple[Action, ...]] = []
        for seat in range(n):
            order = [(seat + k) % n for k in range(n)]
            claims = tuple(CLAIMS[s] for s in order)
            swaps = tuple(SWAPS[s] for s in order)
            rows.append((DRAW, STOP, HERD, *claims, *swaps, *PLACES))
        object.__setattr__(self, "_actions", tuple(rows))
        object.__setattr__(self, "_indices", tuple({action: i for i, action in enumerate(row)} for row in rows))

    @property
    def num_actions(self) -> int:
        """How many player-action indices there are: ``11 + 2 * players``."""
        return len(self._actions[0])

    @property
    def num_outcomes(self) -> int:
        """How many chance-outcome indices there are: 8, one per animal."""
        return NUM_OUTCOMES

    def claim_index(self, offset: int) -> int:
        """The index of a claim from the seat ``offset`` places after the player who acts."""
        return _FIXED + offset % self.players

    def swap_index(self, offset: int) -> int:
        """The index of a swap with the seat ``offset`` places after the player who acts."""
        return _FIXED + self.players + offset % self.players

    def place_index(self, animal: int) -> int:
        """The index of ``Place(animal)``."""
        return self.encode(Place(animal))

    def encode(self, action: Action, seat: int = 0) -> int:
        """The index of ``action`` played by ``seat``: a player's action, or a ``Reveal`` in the outcome space.

        Raises:
            InvalidValueError: If ``action`` is not an action, names a seat this game does not have, or
                ``seat`` is not one of its seats.
        """
        if action.__class__ is Reveal:
            return int(action.animal)
        indices = self._indices[_check_seat(seat, self.players)]
        try:
            return indices[action]
        except (KeyError, TypeError):
            pass
        if isinstance(action, Claim | Swap):
            raise InvalidValueError(f"{action!r} names seat {action.seat}, but the game has {self.players} seats")
        raise InvalidValueError(f"{action!r} is not an action")

    def decode(self, index: SupportsIndex, seat: int = 0) -> Action:
        """The action with index ``index`` (an int, or an integer such as numpy's ``int64``) played by ``seat``.

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to ``num_actions - 1``, or ``seat`` is
                not one of the seats.
        """
        number = as_index(index)
        actions = self._actions[_check_seat(seat, self.players)]
        if not 0 <= number < len(actions):
            raise InvalidValueError(f"action index {number} is out of range 0 to {len(actions) - 1}")
        return actions[number]

    def decode_outcome(self, index: SupportsIndex) -> Reveal:
        """The chance outcome with index ``index``: ``Reveal`` of that animal.

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to 7.
        """
        number = as_index(index)
        if not 0 <= number < NUM_OUTCOMES:
            raise InvalidValueError(f"outcome index {number} is out of range 0 to {NUM_OUTCOMES - 1}")
        return REVEALS[number]

    def decode_at(self, state: GameState, index: SupportsIndex) -> Action:
        """The action with index ``index`` in ``state``: an outcome at a chance node, else the mover's action.

        Raises:
            InvalidValueError: If ``index`` is out of range for its space, or the state's seat count differs.
        """
        self._check_state(state)
        if state.phase is Phase.CHANCE:
            return self.decode_outcome(index)
        return self.decode(index, state.seat)

    def encode_at(self, state: GameState, action: Action) -> int:
        """The index of ``action`` in ``state``: an outcome's at a chance node, else as the mover plays it.

        Raises:
            InvalidValueError: If ``action`` is not an action of this game, or the state's seat count differs.
        """
        self._check_state(state)
        return self.encode(action, state.seat)

    def _check_state(self, state: GameState) -> None:
        if state.players != self.players:
            raise InvalidValueError(f"the state has {state.players} seats, but the codec is for {self.players}")

    def legal_indices(self, state: GameState) -> tuple[int, ...]:
        """The indices of the legal actions in ``state``, ascending: outcome indices at a chance node.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        if state.phase is Phase.CHANCE:
            return tuple([a for a in range(NUM_OUTCOMES) if state.bag[a]])
        indices = self._indices[state.seat]
        # legal_actions lists actions in absolute seat order; counted from the mover, they need sorting.
        return tuple(sorted([indices[action] for action in legal_actions(state)]))

    def action_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per action index: True where that action is legal for the player to move.

        All False at a chance node and at the end, where no player acts.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        mask = [False] * self.num_actions
        if state.phase is not Phase.CHANCE:
            indices = self._indices[state.seat]
            for action in legal_actions(state):
                mask[indices[action]] = True
        return tuple(mask)

    def outcome_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per outcome index: True for each animal that may come out of the bag now.

        All False unless ``state`` is a chance node.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        if state.phase is not Phase.CHANCE:
            return (False,) * NUM_OUTCOMES
        return tuple(count > 0 for count in state.bag)

    def describe(self, index: SupportsIndex, seat: int | None = None) -> str:
        """A short name for the action with index ``index``: ``"Claim(+2)"`` counts from the player who acts.

        With ``seat``, the action that seat plays, as its ``repr``: ``"Claim(0)"``.
        """
        if seat is not None:
            return repr(self.decode(index, seat))
        number = as_index(index)
        action = self.decode(number)
        if isinstance(action, Claim | Swap):
            return f"{type(action).__name__}(+{action.seat})"
        return repr(action)
