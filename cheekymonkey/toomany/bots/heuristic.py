"""The heuristic bot: rules of thumb, and the hints of the rules themselves.

>>> import random
>>> from cheekymonkey.toomany import Card, Draw, Reveal, apply_all, new_game
>>> state = apply_all(new_game(2), [Reveal(Card.TWO), Reveal(Card.DO_NOT_DISTURB), Reveal(Card.SKIP)])
>>> HeuristicBot().choose(state, random.Random(0))  # seat 1 gives the Skip to seat 0, who shows a card
GiveSkip(0)
"""

from __future__ import annotations

import random
from typing import Final

from cheekymonkey.toomany.actions import (
    DECLINE,
    DRAW,
    GIVE_SKIPS,
    PLACE_WILDS,
    RACCOON_TAKES,
    TAKE_BONUS,
    TAKE_DISCARD,
    TURN_DOWNS,
    Action,
)
from cheekymonkey.toomany.bots.base import face_up_count, usable
from cheekymonkey.toomany.cards import Card, FaceDown
from cheekymonkey.toomany.engine import legal_actions
from cheekymonkey.toomany.state import GameState, Phase, raccoon_choices

__all__ = ["HeuristicBot"]


def _opponents_by_show(state: GameState) -> list[int]:
    """The opponents, most face-up cards first, ties in turn order from the seat after the mover."""
    seat = state.seat
    players = len(state.rows)
    others = [(seat + step) % players for step in range(1, players)]
    return sorted(others, key=lambda other: -face_up_count(state.rows[other]))


def _wild_place(state: GameState) -> Action:
    # TM11: on a card turned down by a Do Not Disturb, whose face is known, the chain goes on with a card
    # that is certainly of use (a number at its own position gives the bonus, a wild is placed again).
    # Otherwise on the unseen position whose number is scarcest among the cards not seen: the other
    # numbers are the likelier to come.
    row = state.rows[state.seat]
    pool = state.unseen
    best = -1
    for index, slot in enumerate(row):
        if slot.__class__ is FaceDown:
            return PLACE_WILDS[index]
        if slot is None and (best < 0 or pool[index] < pool[best]):
            best = index
    return PLACE_WILDS[best]


def _turn_down(state: GameState) -> Action:
    # TM15, and the rules' own hint: the player who shows the most cards; a number rather than a wild (the
    # owner who turns a wild up again goes on with it), the highest.
    for other in _opponents_by_show(state):
        row = state.rows[other]
        shown = [index for index, slot in enumerate(row) if slot.__class__ is Card]
        if shown:
            numbers = [index for index in shown if row[index] is not Card.WILD]
            return TURN_DOWNS[other][(numbers or shown)[-1]]
    return DECLINE  # pragma: no cover - the engine asks only when some opponent shows a card (TM18)


def _skip_target(state: GameState) -> Action:
    # TM16, TM17: the opponent who shows the most cards, of those without a Skip waiting.
    for other in _opponents_by_show(state):
        if not state.skips[other]:
            return GIVE_SKIPS[other]
    return DECLINE  # pragma: no cover - the engine asks only when some opponent can take one (TM18)


class HeuristicBot:
    """Plays by rules of thumb, and by the hints the rules give; deterministic, so ``rng`` is not used.

    - At the start of a turn it takes the discard top when the number makes progress in its row (its
      position is face down or holds a wild, TM6), and draws otherwise.
    - It puts a wild on a card turned down by a Do Not Disturb if it has one (that card's face is known,
      so the chain goes on), and otherwise on the face-down position whose number is scarcest among the
      cards nobody has seen.
    - It always takes the wild bonus (TM12) and the raccoon's first pick (TM14).
    - It turns down, and gives the Skip to, the opponent who shows the most cards, as the rules advise for
      the Do Not Disturb: a number rather than a wild, the highest (TM15, TM16).
    """

    __slots__ = ()

    kind: Final = "heuristic"
    """The bot's kind, as :func:`~cheekymonkey.toomany.bot_named` knows it."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the rule of thumb's action for the player to move."""
        phase = state.phase
        if phase is Phase.START:
            return TAKE_DISCARD if usable(state.discard[-1], state.rows[state.seat]) else DRAW
        if phase is Phase.WILD:
            return _wild_place(state)
        if phase is Phase.BONUS:
            return TAKE_BONUS
        if phase is Phase.RACCOON:
            return RACCOON_TAKES[raccoon_choices(state.rows[state.seat], state.discard[:-1])[0] - 1]
        if phase is Phase.DISTURB:
            return _turn_down(state)
        if phase is Phase.SKIP:
            return _skip_target(state)
        return legal_actions(state)[0]  # pragma: no cover - a bot is asked only where a player decides

    def __repr__(self) -> str:
        return "HeuristicBot()"
