"""Action indices: a fixed, documented mapping between actions and integers for an n-seat game.

A game of ``n`` seats numbers the players' actions from 0 to ``11 + 2n - 1``, in the order
:func:`~cheekymonkey.legal_actions` lists them, so the indices of the legal actions always come out sorted:

============================  ===========================  =====================
index                         action                       count
============================  ===========================  =====================
``0``                         :class:`~cheekymonkey.Draw`  1
``1``                         :class:`~cheekymonkey.Stop`  1
``2``                         :class:`~cheekymonkey.Herd`  1
``3 + s``                     ``Claim(s)``, seat ``s``     ``n``
``3 + n + s``                 ``Swap(s)``, seat ``s``      ``n``
``3 + 2n + a``                ``Place(a)``, animal ``a``   8
============================  ===========================  =====================

The chance outcomes have an index space of their own, as in OpenSpiel: ``Reveal(a)`` is index ``a``
(the :class:`~cheekymonkey.Animal`'s value, 0 to 7). Which space an index belongs to follows from the
state: at a chance node it is an outcome, otherwise a player's action.

Animals not in play under a rule set and the player's own seat keep their indices; they are simply
never legal. Decoding any index in range gives an action; if it is not legal where it is applied,
:func:`~cheekymonkey.apply` raises the usual :class:`~cheekymonkey.IllegalActionError`.

Nothing here needs numpy: masks are tuples of bools, so a pure-Python agent can use them as they are.

>>> from cheekymonkey import Claim, Place, Animal, new_game
>>> codec = ActionCodec(3)
>>> codec.num_actions, codec.encode(Claim(2)), codec.encode(Place(Animal.MONKEY))
(17, 5, 16)
>>> codec.decode(5)
Claim(2)
"""

from __future__ import annotations

import operator
from typing import Final, SupportsIndex

import attrs

from cheekymonkey.actions import CLAIMS, DRAW, HERD, PLACES, REVEALS, STOP, SWAPS, Action, Claim, Place, Reveal, Swap
from cheekymonkey.engine import legal_actions
from cheekymonkey.errors import InvalidValueError
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


def _as_index(index: object) -> int:
    # An int, or an integer of another type (numpy's int64); never a bool, float or string.
    try:
        if isinstance(index, bool):
            raise TypeError(index)
        return operator.index(index)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidValueError(f"an index must be an integer, got {index!r}") from None


@attrs.frozen(slots=True)
class ActionCodec:
    """The action indices of an ``players``-seat game: encode, decode, and masks of the legal actions.

    Args:
        players: The number of seats, 2 to 16.

    Raises:
        InvalidValueError: If ``players`` is not an integer from 2 to 16.
    """

    players: int = attrs.field(validator=lambda _i, _a, v: _check_players(v))
    """The number of seats the indices are laid out for."""
    _actions: tuple[Action, ...] = attrs.field(init=False, repr=False, eq=False)
    _indices: dict[Action, int] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        n = self.players
        actions: tuple[Action, ...] = (DRAW, STOP, HERD, *CLAIMS[:n], *SWAPS[:n], *PLACES)
        object.__setattr__(self, "_actions", actions)
        object.__setattr__(self, "_indices", {action: i for i, action in enumerate(actions)})

    @property
    def num_actions(self) -> int:
        """How many player-action indices there are: ``11 + 2 * players``."""
        return len(self._actions)

    @property
    def num_outcomes(self) -> int:
        """How many chance-outcome indices there are: 8, one per animal."""
        return NUM_OUTCOMES

    def claim_index(self, seat: int) -> int:
        """The index of ``Claim(seat)``."""
        return self.encode(Claim(seat))

    def swap_index(self, seat: int) -> int:
        """The index of ``Swap(seat)``."""
        return self.encode(Swap(seat))

    def place_index(self, animal: int) -> int:
        """The index of ``Place(animal)``."""
        return self.encode(Place(animal))

    def encode(self, action: Action) -> int:
        """The index of ``action``: a player's action in the action space, a ``Reveal`` in the outcome space.

        Raises:
            InvalidValueError: If ``action`` is not an action, or names a seat this game does not have.
        """
        if action.__class__ is Reveal:
            return int(action.animal)
        try:
            return self._indices[action]
        except (KeyError, TypeError):
            pass
        if isinstance(action, Claim | Swap):
            raise InvalidValueError(f"{action!r} names seat {action.seat}, but the game has {self.players} seats")
        raise InvalidValueError(f"{action!r} is not an action")

    def decode(self, index: SupportsIndex) -> Action:
        """The player's action with index ``index`` (an int, or an integer such as numpy's ``int64``).

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to ``num_actions - 1``.
        """
        number = _as_index(index)
        if not 0 <= number < len(self._actions):
            raise InvalidValueError(f"action index {number} is out of range 0 to {len(self._actions) - 1}")
        return self._actions[number]

    def decode_outcome(self, index: SupportsIndex) -> Reveal:
        """The chance outcome with index ``index``: ``Reveal`` of that animal.

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to 7.
        """
        number = _as_index(index)
        if not 0 <= number < NUM_OUTCOMES:
            raise InvalidValueError(f"outcome index {number} is out of range 0 to {NUM_OUTCOMES - 1}")
        return REVEALS[number]

    def decode_at(self, state: GameState, index: SupportsIndex) -> Action:
        """The action with index ``index`` in ``state``: an outcome at a chance node, a player's action otherwise.

        Raises:
            InvalidValueError: If ``index`` is out of range for its space.
        """
        if state.phase is Phase.CHANCE:
            return self.decode_outcome(index)
        return self.decode(index)

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
            return tuple(a for a in range(NUM_OUTCOMES) if state.bag[a])
        indices = self._indices
        # legal_actions lists actions in index order, so the indices come out ascending.
        return tuple([indices[action] for action in legal_actions(state)])

    def action_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per action index: True where that action is legal for the player to move.

        All False at a chance node and at the end, where no player acts.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        mask = [False] * len(self._actions)
        if state.phase is not Phase.CHANCE:
            indices = self._indices
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

    def describe(self, index: SupportsIndex) -> str:
        """A short name for the player's action with index ``index``, for example ``"Claim(2)"``."""
        return repr(self.decode(index))
