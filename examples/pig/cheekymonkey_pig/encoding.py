"""Pig for learning: OpenSpiel's action indices (0 roll, 1 hold; outcome ``k``, the face ``k + 1``), one observation.

The observation, from the viewer's seat (the viewer first, the others in turn order): each seat's banked
score, the turn's points, a one-hot of whose turn it is, and whether the die is rolling.

>>> from cheekymonkey_pig import PIG, ROLL
>>> encoding = PIG.encoding(3, Rules(winscore=20))
>>> state = PIG.apply(PIG.new_game(3, Rules(winscore=20)), ROLL)
>>> encoding.observe(state, 1), encoding.legal_indices(state)
((0, 0, 0, 0, 0, 0, 1, 1), (0, 1, 2, 3, 4, 5))
>>> encoding.observation_text(state, 1)
'scores +0 0, +1 0, +2 0; turn total 0; turn of +2; rolling'
"""

from __future__ import annotations

from typing import Final

import attrs
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import ObservationField, as_index, lay_out
from cheekymonkey.errors import InvalidValueError

from cheekymonkey_pig.actions import HOLD, ROLL, Action, Face
from cheekymonkey_pig.game import PIG
from cheekymonkey_pig.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from cheekymonkey_pig.state import PigState

__all__ = ["PigEncoding"]

_ACTIONS: Final[tuple[Action, ...]] = (ROLL, HOLD)


@attrs.frozen
class PigEncoding:
    """Pig's action indices and observation for ``players`` seats under ``rules``.

    Raises:
        InvalidValueError: If the seat count, the rule set or the observation kind does not fit.
    """

    players: int
    """The seats."""
    rules: Rules
    """The rule set, whose target and die bound the numbers."""
    kind: str = "full"
    """The observation kind, the only one: ``"full"``."""
    observation_fields: tuple[ObservationField, ...] = attrs.field(init=False)
    """Scores, turn total, turn and rolling, in vector order."""

    def __attrs_post_init__(self) -> None:
        if not is_whole_number(self.players):
            raise InvalidValueError(f"players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidValueError(f"Pig seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.players}")
        if not isinstance(self.rules, Rules):
            raise InvalidValueError(f"rules must be a Rules of Pig, got {self.rules!r}")
        if self.kind != "full":
            raise InvalidValueError(f"Pig's one observation kind is 'full', got {self.kind!r}")
        # A hold banks less than the target plus a roll: the score before the last roll was short of it.
        most = self.rules.winscore + self.rules.diceoutcomes - 1
        fields = lay_out(
            [
                ("scores", (self.players,), most, "each seat's banked score, from the viewer's on"),
                ("turn_total", (1,), most, "the points rolled this turn and not yet banked"),
                ("turn", (self.players,), 1, "whose turn it is, one-hot, from the viewer's seat on"),
                ("rolling", (1,), 1, "1 while the die is rolling (chance acts next)"),
            ]
        )
        object.__setattr__(self, "observation_fields", fields)

    @property
    def num_actions(self) -> int:
        """Two: 0 roll, 1 hold."""
        return 2

    @property
    def num_outcomes(self) -> int:
        """The die's faces."""
        return self.rules.diceoutcomes

    @property
    def observation_size(self) -> int:
        """Two entries per seat and two more."""
        return 2 * self.players + 2

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        """Each entry's largest value, field by field."""
        return tuple(field.bound for field in self.observation_fields for _ in range(field.size))

    def encode(self, action: Action, state: PigState) -> int:
        """0 for a roll, 1 for a hold, ``face - 1`` for a face of the die.

        Raises:
            InvalidValueError: If ``action`` is none of Pig's, or a face the die does not have.
        """
        if isinstance(action, Face) and action.face <= self.rules.diceoutcomes:
            return action.face - 1
        if action in _ACTIONS:
            return _ACTIONS.index(action)
        raise InvalidValueError(f"{action!r} is not an action of Pig with a {self.rules.diceoutcomes}-faced die")

    def decode(self, index: int, state: PigState) -> Action:
        """A face at a chance node, else roll (0) or hold (1); any index in range decodes.

        Raises:
            InvalidValueError: If ``index`` is not an index of its space.
        """
        index = as_index(index)
        if PIG.is_chance_node(state):
            if 0 <= index < self.rules.diceoutcomes:
                return Face(index + 1)
            raise InvalidValueError(f"a chance outcome of a d{self.rules.diceoutcomes} is 0 to {self.num_outcomes - 1}")
        if 0 <= index < 2:
            return _ACTIONS[index]
        raise InvalidValueError(f"Pig's action indices are 0 (roll) and 1 (hold), got {index}")

    def legal_indices(self, state: PigState) -> tuple[int, ...]:
        """The legal actions' indices, ascending."""
        return tuple(self.encode(action, state) for action in PIG.legal_actions(state))

    def action_mask(self, state: PigState) -> tuple[bool, ...]:
        """Which of roll and hold are legal (both False at a chance node and at the end)."""
        legal = () if PIG.is_chance_node(state) else self.legal_indices(state)
        return (0 in legal, 1 in legal)

    def outcome_mask(self, state: PigState) -> tuple[bool, ...]:
        """Every face while the die rolls, else none."""
        return (PIG.is_chance_node(state),) * self.rules.diceoutcomes

    def action_name(self, index: int, *, chance: bool = False) -> str:
        """``"roll"``, ``"hold"``, or an outcome's face (``"6"``)."""
        index = as_index(index)
        if chance and 0 <= index < self.num_outcomes:
            return str(index + 1)
        if not chance and 0 <= index < 2:
            return ("roll", "hold")[index]
        raise InvalidValueError(f"{index} is not an {'outcome' if chance else 'action'} index of this encoding")

    def observe(self, state: PigState, seat: int | None) -> tuple[int, ...]:
        """Scores, turn total, turn and rolling, seats counted from ``seat`` (from seat 0 for a spectator)."""
        players = self.players
        if len(state.scores) != players or state.rules != self.rules:
            raise InvalidValueError(f"the state is not of {players} seats under {self.rules!r}")
        first = seat or 0
        order = [(first + step) % players for step in range(players)]
        turn = [0] * players
        if not PIG.is_terminal(state):
            turn[(state.seat - first) % players] = 1
        rolling = int(PIG.is_chance_node(state))
        return (*(state.scores[other] for other in order), state.turn_total, *turn, rolling)

    def observation_text(self, state: PigState, seat: int | None) -> str:
        """The observation in words, seats by their place after the viewer (``+0``): no more than the vector."""
        values = self.observe(state, seat)
        players = self.players
        scores = ", ".join(f"+{place} {values[place]}" for place in range(players))
        turn = values[players + 1 : 2 * players + 1]
        whose = f"turn of +{turn.index(1)}" if 1 in turn else "nobody's turn"
        return f"scores {scores}; turn total {values[players]}; {whose}" + ("; rolling" if values[-1] else "")

    def points(self, state: PigState) -> tuple[float, ...]:
        """The banked scores, in seat order."""
        return tuple(float(score) for score in state.scores)
