"""Pig's rules as pure functions of a :class:`~cheekymonkey_pig.PigState`, held equal to OpenSpiel's ``pig``.

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
``tests/test_openspiel.py`` plays both side by side. OpenSpiel's returns are :func:`returns`: 1 for the
winner and ``-1/(n-1)`` for the others, all 0 for a game stopped at the horizon. The library's
:class:`~cheekymonkey.outcome.Outcome` is the same result in its own scale (:func:`outcome`): the winner's
return is 1, the others' 0, and a game stopped at the horizon is a draw shared by every seat, ``1/n`` each.
That is OpenSpiel's returns times ``(n-1)/n`` plus ``1/n``, so both rank every result alike.

>>> from cheekymonkey_pig import new_game
>>> state = apply(new_game(2), ROLL)
>>> is_chance_node(state), chance_outcomes(state)[0]
(True, (Face(face=1), Fraction(1, 6)))
>>> state = apply(state, Face(5))
>>> state.turn_total, legal_actions(state)
(5, (Roll(), Hold()))
>>> apply(state, HOLD).scores
(5, 0)
"""

from __future__ import annotations

import random
from fractions import Fraction

from cheekymonkey.errors import GameNotOverError, IllegalActionError, NotAChanceNodeError
from cheekymonkey.outcome import Outcome

from cheekymonkey_pig.actions import HOLD, ROLL, Action, Face, Hold, Roll
from cheekymonkey_pig.state import PigState

__all__ = [
    "apply",
    "chance_outcomes",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "outcome",
    "returns",
    "sample_chance",
    "to_move",
    "winner",
]

_BOTH = (ROLL, HOLD)
_HOLD_ONLY = (HOLD,)


def winner(state: PigState) -> int | None:
    """The seat whose score has reached the target, or None (P6)."""
    target = state.rules.winscore
    for seat, score in enumerate(state.scores):
        if score >= target:
            return seat
    return None


def is_terminal(state: PigState) -> bool:
    """Whether the game is over: a score has reached the target, or the horizon is reached (P6)."""
    return state.moves >= state.rules.horizon or winner(state) is not None


def is_chance_node(state: PigState) -> bool:
    """Whether the die is rolling in a game still going (P3)."""
    return state.rolling and not is_terminal(state)


def to_move(state: PigState) -> int | None:
    """The seat that decides now, or None at a chance node and at the end."""
    return None if state.rolling or is_terminal(state) else state.seat


def legal_actions(state: PigState) -> tuple[Action, ...]:
    """Roll and hold, only hold once the target is within the turn (P5); the faces at a chance node; none at the end."""
    if is_terminal(state):
        return ()
    if state.rolling:
        return tuple(Face(face) for face in range(1, state.rules.diceoutcomes + 1))
    if state.scores[state.seat] + state.turn_total >= state.rules.winscore:
        return _HOLD_ONLY
    return _BOTH


def chance_outcomes(state: PigState) -> tuple[tuple[Face, Fraction], ...]:
    """Every face of the die with its probability, ``1/diceoutcomes`` each (P3).

    Raises:
        NotAChanceNodeError: If the die is not rolling.
    """
    if not is_chance_node(state):
        raise NotAChanceNodeError("the die is not rolling: chance outcomes come only after a roll")
    faces = state.rules.diceoutcomes
    return tuple((Face(face), Fraction(1, faces)) for face in range(1, faces + 1))


def sample_chance(state: PigState, rng: random.Random) -> Face:
    """A face of the die, each as likely (P3).

    Raises:
        NotAChanceNodeError: If the die is not rolling.
    """
    if not is_chance_node(state):
        raise NotAChanceNodeError("the die is not rolling: chance outcomes come only after a roll")
    return Face(rng.randint(1, state.rules.diceoutcomes))


def _next_turn(state: PigState, scores: tuple[int, ...]) -> PigState:
    return PigState(state.rules, scores, 0, (state.seat + 1) % len(scores), False, state.moves)


def apply(state: PigState, action: Action) -> PigState:
    """The state after ``action``.

    Raises:
        IllegalActionError: If the rules do not allow ``action`` now; ``state`` is unchanged, as ever.
    """
    if is_terminal(state):
        raise IllegalActionError(state, action, "P6: the game is over")
    if state.rolling:
        if not isinstance(action, Face):
            raise IllegalActionError(state, action, "P3: the die is rolling, and chance gives its face")
        face = action.face
        if face > state.rules.diceoutcomes:
            raise IllegalActionError(state, action, f"P3: the die's faces are 1 to {state.rules.diceoutcomes}")
        if face == 1:
            return _next_turn(state, state.scores)
        return PigState(state.rules, state.scores, state.turn_total + face, state.seat, False, state.moves)
    if isinstance(action, Hold):
        scores = list(state.scores)
        scores[state.seat] += state.turn_total
        return PigState(state.rules, tuple(scores), 0, (state.seat + 1) % len(scores), False, state.moves + 1)
    if isinstance(action, Roll):
        if state.scores[state.seat] + state.turn_total >= state.rules.winscore:
            raise IllegalActionError(state, action, "P5: holding now reaches the target, so the only move is to hold")
        return PigState(state.rules, state.scores, state.turn_total, state.seat, True, state.moves + 1)
    raise IllegalActionError(state, action, "P2: a player rolls or holds")


def returns(state: PigState) -> tuple[float, ...]:
    """OpenSpiel's returns: 1 for the winner, ``-1/(n-1)`` for the others, 0 each while going or at the horizon."""
    seat = winner(state)
    players = len(state.scores)
    if seat is None:
        return (0.0,) * players
    return tuple(1.0 if other == seat else -1.0 / (players - 1) for other in range(players))


def outcome(state: PigState) -> Outcome:
    """The result in the library's scale: the winner alone, or every seat sharing a draw at the horizon (P6).

    Seats are ranked by their banked scores after the winners.

    Raises:
        GameNotOverError: If the game is still going.
    """
    if not is_terminal(state):
        raise GameNotOverError("Pig is over only when a score reaches the target or at the horizon (P6)")
    seat = winner(state)
    seats = range(len(state.scores)) if seat is None else (seat,)
    return Outcome.of_winners(tuple(seats), state.scores, state.scores)
