"""Pig's rules, written as the methods of its :class:`~cheekymonkey.base.BaseGame`: the engine is the binding.

P1. Two to six seats; every score starts at 0; ``first_player`` (seat 0 by default) decides first, and the
    turn passes round the table in seat order.
P2. On your turn you roll or hold.
P3. A roll is a chance node: each face from 1 to ``diceoutcomes`` with probability ``1/diceoutcomes``. A 1
    loses the turn's points and ends the turn; any other face adds to them, and you decide again.
P4. Holding banks the turn's points in your score and ends the turn.
P5. Once your score and the turn's points reach the target, you may only hold.
P6. The game ends as soon as a score reaches ``winscore``: that seat wins. It also ends once ``horizon``
    decisions have been made, undecided.

These are OpenSpiel's ``open_spiel/games/pig/pig.cc`` (its ``piglet`` variant aside), and
``tests/test_openspiel.py`` plays both side by side. OpenSpiel's returns are :meth:`Pig.returns`: 1 for the
winner and ``-1/(n-1)`` for the others, all 0 for a game stopped at the horizon. The library's
:class:`~cheekymonkey.outcome.Outcome` is the same result in its own scale (:meth:`Pig.outcome`): the
winner's return is 1, the others' 0, and a game stopped at the horizon is a draw shared by every seat,
``1/n`` each. That is OpenSpiel's returns times ``(n-1)/n`` plus ``1/n``, so both order every result alike.

Every method is pure: states and actions are values, and :data:`PIG` holds nothing.

>>> state = PIG.apply(PIG.new_game(2), ROLL)
>>> PIG.is_chance_node(state), PIG.chance_outcomes(state)[0]
(True, (Face(face=1), Fraction(1, 6)))
>>> state = PIG.apply(state, Face(5))
>>> state.turn_total, PIG.legal_actions(state), PIG.action_text(HOLD, state)
(5, (Roll(), Hold()), 'h')
>>> PIG.apply(state, HOLD).scores
(5, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from cheekymonkey.base import BaseGame, Played
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import GameNotOverError, IllegalActionError, InvalidGameError, NotAChanceNodeError
from cheekymonkey.game import Capabilities
from cheekymonkey.outcome import Outcome, Stakes, Utility

from cheekymonkey_pig.actions import HOLD, ROLL, Action, Face, Hold, Roll
from cheekymonkey_pig.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules
from cheekymonkey_pig.state import PigState, PigView

__all__ = ["PIG", "Pig"]

_BOTH: Final[tuple[Action, ...]] = (ROLL, HOLD)
_HOLD_ONLY: Final[tuple[Action, ...]] = (HOLD,)


class Pig(BaseGame[PigState, Action, Rules, PigView, Played[Action]]):
    """Pig: roll a die as often as you dare, adding what it shows to your turn; hold to bank it, but a 1 loses it all.

    The first to the target score wins.
    """

    __slots__ = ()

    name = "pig"
    title = "Pig"
    capabilities = Capabilities(encodings=True)
    """Encodings for learning (OpenSpiel's action indices): no proofs, schemas, page drawing or batched engine."""

    # -- the rule set and the seats (P1) ---------------------------------------------------------------

    presets = PRESETS
    """``standard`` (OpenSpiel's defaults) and ``short``: :meth:`ruleset` and :meth:`preset_names` read them."""

    def seat_range(self, ruleset: Rules | None = None) -> tuple[int, int]:
        """Two to six seats, whatever the rules (P1)."""
        return MIN_PLAYERS, MAX_PLAYERS

    def new_game(self, players: int, ruleset: Rules | None = None, *, first_player: int = 0) -> PigState:
        """Every score 0, ``first_player`` to decide (P1).

        Raises:
            InvalidGameError: If ``players`` is not from 2 to 6, ``first_player`` is not a seat, or ``ruleset``
                is not a :class:`~cheekymonkey_pig.Rules`.
        """
        if not is_whole_number(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidGameError(f"Pig seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r} (P1)")
        if not is_whole_number(first_player) or not 0 <= first_player < players:
            raise InvalidGameError(f"first_player must be one of the seats 0 to {players - 1}, got {first_player!r}")
        if ruleset is not None and not isinstance(ruleset, Rules):
            raise InvalidGameError(f"the rule set must be a Rules of Pig, got {ruleset!r}")
        return PigState(ruleset or Rules(), (0,) * players, 0, first_player, False, 0)

    def ruleset_of(self, state: PigState) -> Rules:
        """``state.rules``."""
        return state.rules

    def players(self, state: PigState) -> int:
        """One score per seat."""
        return len(state.scores)

    # -- the end (P6) ----------------------------------------------------------------------------------

    def winner(self, state: PigState) -> int | None:
        """The seat whose score has reached the target, or None (P6)."""
        target = state.rules.winscore
        for seat, score in enumerate(state.scores):
            if score >= target:
                return seat
        return None

    def is_terminal(self, state: PigState) -> bool:
        """Whether a score has reached the target, or the horizon is reached (P6)."""
        return state.moves >= state.rules.horizon or self.winner(state) is not None

    def outcome(self, state: PigState) -> Outcome:
        """The winner alone, or every seat sharing a draw at the horizon; then by banked score (P6).

        Raises:
            GameNotOverError: If the game is still going.
        """
        if not self.is_terminal(state):
            raise GameNotOverError("Pig is over only when a score reaches the target or at the horizon (P6)")
        seat = self.winner(state)
        seats = range(len(state.scores)) if seat is None else (seat,)
        return Outcome.of_winners(tuple(seats), state.scores, state.scores)

    def returns(self, state: PigState) -> tuple[float, ...]:
        """OpenSpiel's returns: 1 for the winner, ``-1/(n-1)`` for the others; 0 each while going or at the horizon."""
        seat = self.winner(state)
        players = len(state.scores)
        if seat is None:
            return (0.0,) * players
        return tuple(1.0 if other == seat else -1.0 / (players - 1) for other in range(players))

    def stakes(self, players: int, ruleset: Rules | None = None) -> Stakes:
        """Zero-sum, as OpenSpiel's: the winner's 1 against the others' ``-1/(n-1)`` each, at least -1."""
        return Stakes(Utility.ZERO_SUM, -1.0, 1.0, 0.0)

    # -- the turn: roll or hold (P2-P5) ----------------------------------------------------------------

    def is_chance_node(self, state: PigState) -> bool:
        """Whether the die is rolling in a game still going (P3)."""
        return state.rolling and not self.is_terminal(state)

    def to_move(self, state: PigState) -> int | None:
        """The seat that decides, or None while the die rolls and at the end."""
        return None if state.rolling or self.is_terminal(state) else state.seat

    def turn_of(self, state: PigState) -> int | None:
        """The seat whose turn it is, while its die rolls too; None at the end."""
        return None if self.is_terminal(state) else state.seat

    def begins_turn(self, state: PigState) -> bool:
        """A turn begins with nothing rolled yet: a 1 and a hold both reset the turn's points (P3, P4)."""
        return not state.rolling and state.turn_total == 0 and not self.is_terminal(state)

    def decisions(self, state: PigState) -> tuple[Action, ...]:
        """Roll and hold; only hold once the target is within the turn (P5); the faces are chance's outcomes."""
        if state.scores[state.seat] + state.turn_total >= state.rules.winscore:
            return _HOLD_ONLY
        return _BOTH

    def chance_outcomes(self, state: PigState) -> tuple[tuple[Action, Fraction], ...]:
        """Every face of the die, ``1/diceoutcomes`` each (P3).

        Raises:
            NotAChanceNodeError: If the die is not rolling.
        """
        if not self.is_chance_node(state):
            raise NotAChanceNodeError("the die is not rolling: chance outcomes come only after a roll")
        faces = state.rules.diceoutcomes
        return tuple((Face(face), Fraction(1, faces)) for face in range(1, faces + 1))

    def apply(self, state: PigState, action: Action) -> PigState:
        """The state after ``action``.

        Raises:
            IllegalActionError: If the rules do not allow ``action`` now; ``state`` is unchanged, as ever.
        """
        if self.is_terminal(state):
            raise IllegalActionError(state, action, "P6: the game is over")
        rules = state.rules
        if state.rolling:
            if not isinstance(action, Face):
                raise IllegalActionError(state, action, "P3: the die is rolling, and chance gives its face")
            if action.face > rules.diceoutcomes:
                raise IllegalActionError(state, action, f"P3: the die's faces are 1 to {rules.diceoutcomes}")
            if action.face == 1:
                return PigState(rules, state.scores, 0, (state.seat + 1) % len(state.scores), False, state.moves)
            return PigState(rules, state.scores, state.turn_total + action.face, state.seat, False, state.moves)
        if isinstance(action, Hold):
            scores = list(state.scores)
            scores[state.seat] += state.turn_total
            return PigState(rules, tuple(scores), 0, (state.seat + 1) % len(scores), False, state.moves + 1)
        if isinstance(action, Roll):
            if state.scores[state.seat] + state.turn_total >= rules.winscore:
                raise IllegalActionError(state, action, "P5: holding now reaches the target, so hold")
            return PigState(rules, state.scores, state.turn_total, state.seat, True, state.moves + 1)
        raise IllegalActionError(state, action, "P2: a player rolls or holds")

    # -- what a seat sees, and the notation ------------------------------------------------------------

    def view(self, state: PigState, seat: int | None) -> PigView:
        """The target, the scores and the turn's points, the same for every seat: Pig hides nothing."""
        return PigView(state.rules.winscore, state.scores, state.turn_total)

    def action_text(self, action: Action, state: PigState) -> str:
        """``r`` to roll, ``h`` to hold, and a face of the die as its number."""
        if isinstance(action, Face):
            return str(action.face)
        return "r" if isinstance(action, Roll) else "h"

    def notation_actions(self, state: PigState) -> tuple[Action, ...]:
        """Roll and hold whenever a seat decides, so ``r`` past the target is refused with P5's reason."""
        if self.is_terminal(state) or state.rolling:
            return tuple(self.legal_actions(state))
        return _BOTH

    def action_words(self, action: Action, state: PigState, names: Sequence[str]) -> str:
        """What a choice does, for a person choosing it: ``"roll the die"``, ``"hold and bank 7"``."""
        if isinstance(action, Face):
            return f"the die shows {action.face}"
        return "roll the die" if isinstance(action, Roll) else f"hold and bank {state.turn_total}"

    # -- learning --------------------------------------------------------------------------------------

    def observation_kinds(self) -> tuple[str, ...]:
        """``("full",)``: :class:`~cheekymonkey_pig.encoding.PigEncoding`'s one observation."""
        return ("full",)

    def encoding(
        self, players: int, ruleset: Rules | None = None, observation: str | None = None
    ) -> Encoding[PigState, Action]:
        """:class:`~cheekymonkey_pig.encoding.PigEncoding`: OpenSpiel's action indices, and the table as numbers.

        Raises:
            InvalidValueError: If the seat count, rule set or observation kind does not fit.
        """
        from cheekymonkey_pig.encoding import PigEncoding  # it plays through PIG: imported once PIG exists

        return PigEncoding(players, ruleset or Rules(), observation or "full")


PIG: Final = Pig()
"""Pig as a game of :mod:`cheekymonkey`: what the entry point ``pig`` in ``cheekymonkey.games`` names."""
