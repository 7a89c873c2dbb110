"""The expectimax bot: an exact search of the rest of its turn, over the exact chance outcomes.

>>> import random
>>> from cheekymonkey.toomany import Card, Reveal, apply_all, new_game
>>> state = apply_all(new_game(2), [Reveal(Card.TWO), Reveal(Card.DO_NOT_DISTURB), Reveal(Card.WILD)])
>>> ExpectimaxBot().choose(state, random.Random(0))  # seat 1's wild: any of its six positions
PlaceWild(1)
"""

from __future__ import annotations

import math
import random
from typing import Final

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.actions import REVEALS, Action
from cheekymonkey.toomany.bots.base import paused_gc
from cheekymonkey.toomany.bots.evaluation import position_value
from cheekymonkey.toomany.bots.heuristic import HeuristicBot
from cheekymonkey.toomany.engine import apply, chance_pool, legal_actions, resolve_chance
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["ExpectimaxBot"]

_START: Final = Phase.START
_DRAW: Final = Phase.DRAW
_CHOSEN_DRAW: Final = Phase.CHOSEN_DRAW
_TURN_UP: Final = Phase.TURN_UP
_OVER: Final = Phase.OVER
_DISTURB: Final = Phase.DISTURB
_SKIP: Final = Phase.SKIP
_RIVALS: Final = HeuristicBot()
"""How the playouts play every seat: by the heuristic's rules of thumb, which decide in microseconds."""
_PLAYED_OPTIONS: Final = 3
"""How many options of an aimed choice are played out: the search's best, so a table of six stays fast."""


def _check_whole(name: str, value: object, least: int) -> int:
    # Typed object and checked here: compiled (mypyc), an int parameter refuses a string with a bare TypeError.
    if not is_whole_number(value) or value < least:
        raise InvalidValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    return value


class ExpectimaxBot:
    """Searches the rest of its own turn, every card that can come weighed by its exact probability.

    At each decision it compares the legal actions by the expected :func:`position_value` of the position
    each leads to, playing on as well as it can for the rest of the turn. A card drawn or turned up is a
    chance node: its outcomes are the cards of :func:`~cheekymonkey.toomany.chance_pool`, each weighed by
    its count over the pool's size, exactly the probabilities :func:`~cheekymonkey.toomany.chance_outcomes`
    gives as fractions. Where the turn ends (or the game, or the round) the position is valued with
    :func:`position_value`, as it is past ``depth`` cards revealed, where the search stops. Values are
    memoised within a decision; nothing is kept from one decision to the next.

    With ``playouts`` above 0, the two choices that aim at an opponent, the Do Not Disturb's card and the
    Skip's seat, are made by playing options out instead: the search's three best options, each that many
    times, until the bot's next turn begins (or the round ends), every seat playing by the heuristic's rules
    of thumb, and the position reached valued by :func:`position_value`. Every option is played out on the
    same random streams, drawn from ``rng``, so the options are compared on the same luck. A playout that
    wins the game counts 1; ties go to the option the search ranks higher.

    Args:
        depth: How many cards revealed to look ahead, 1 or more.
        memory: The most positions the memo holds during a decision (it starts again empty past that).
        playouts: How many playouts each option of an aimed choice gets; 0 (the default) decides them by the
            search, as every other choice.

    Raises:
        InvalidValueError: If ``depth`` or ``memory`` is not a positive integer, or ``playouts`` is not a
            whole number of at least 0.
    """

    __slots__ = ("_memo", "depth", "memory", "playouts")

    kind: Final = "expectimax"
    """The bot's kind, as :func:`~cheekymonkey.toomany.bot_named` knows it."""

    def __init__(self, depth: object = 2, *, memory: object = 100_000, playouts: object = 0) -> None:
        self.depth = _check_whole("depth", depth, 1)
        self.memory = _check_whole("memory", memory, 1)
        self.playouts = _check_whole("playouts", playouts, 0)
        self._memo: dict[tuple[object, ...], float] = {}

    @property
    def cache_entries(self) -> int:
        """How many positions the memo holds now: none between decisions."""
        return len(self._memo)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the action of highest expected value.

        ``rng`` is used only by the playouts: with ``playouts`` 0 the bot is deterministic.
        """
        actions = legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        values = self.action_values(state)
        phase = state.phase
        if self.playouts and (phase is _DISTURB or phase is _SKIP):
            ranked = sorted(values, key=_value_of, reverse=True)  # stable: ties stay in the listed order
            return self._played_out(state, [action for action, _ in ranked[:_PLAYED_OPTIONS]], rng)
        return max(values, key=_value_of)[0]

    def _played_out(self, state: GameState, actions: list[Action], rng: random.Random) -> Action:
        """The option whose playouts value the bot's position highest; ties go to the option listed first."""
        me = state.seat
        seeds = [rng.getrandbits(64) for _ in range(self.playouts)]
        best = actions[0]
        best_total = -1.0
        with paused_gc():
            for action in actions:
                after = apply(state, action)
                total = 0.0
                for seed in seeds:
                    total += _play_out(after, me, random.Random(seed))
                if total > best_total:
                    best, best_total = action, total
        return best

    def action_values(self, state: GameState) -> tuple[tuple[Action, float], ...]:
        """Every legal action in a deciding ``state`` with its expected value to the player, as the bot sees it.

        A value is the player's :func:`position_value`, expected over the cards to come; ties go to the
        action listed first.

        Raises:
            InvalidValueError: If no player decides in ``state`` (a chance node, or the end).
        """
        phase = state.phase
        if phase is _OVER or phase is _DRAW or phase is _CHOSEN_DRAW or phase is _TURN_UP:
            raise InvalidValueError(f"expected a state where a player decides, got one in phase {phase.name}")
        me = state.seat
        with paused_gc():
            try:
                actions = legal_actions(state)
                values = tuple((action, self._value(apply(state, action), me, self.depth)) for action in actions)
            finally:
                self._memo.clear()
        return values

    def _value(self, state: GameState, me: int, depth: int) -> float:
        phase = state.phase
        if state.seat != me or phase is _START or phase is _DRAW or phase is _OVER:
            return position_value(state, me)  # the turn (or the round, or the game) is over
        chance = phase is _TURN_UP or phase is _CHOSEN_DRAW
        if chance and depth == 0:
            return position_value(state, me)
        key = (phase, state.hand, state.rows[me], state.unseen, state.pile, state.discard, depth)
        memo = self._memo
        cached = memo.get(key)
        if cached is not None:
            return cached
        if chance:
            pool = chance_pool(state)
            value = 0.0
            for index, count in enumerate(pool):
                if count:
                    value += count * self._value(apply(state, REVEALS[index]), me, depth - 1)
            value /= sum(pool)
        else:
            value = -math.inf
            for action in legal_actions(state):
                found = self._value(apply(state, action), me, depth)
                if found > value:
                    value = found
        if len(memo) >= self.memory:
            memo.clear()
        memo[key] = value
        return value

    def __repr__(self) -> str:
        if self.playouts:
            return f"ExpectimaxBot(depth={self.depth!r}, playouts={self.playouts!r})"
        return f"ExpectimaxBot(depth={self.depth!r})"


def _value_of(entry: tuple[Action, float]) -> float:
    return entry[1]


def _play_out(state: GameState, me: int, rng: random.Random) -> float:
    """``me``'s position value when its next turn begins, or the round ends, every seat playing the heuristic."""
    round_played = state.round
    rivals = _RIVALS
    while True:
        phase = state.phase
        if phase is _OVER:
            return 1.0 if state.seat == me else 0.0
        if phase is _TURN_UP or phase is _DRAW or phase is _CHOSEN_DRAW:
            state = resolve_chance(state, rng)
        elif state.round != round_played or (phase is _START and state.seat == me):
            return position_value(state, me)  # the round is over (TM22), or the bot's next turn begins
        else:
            state = apply(state, rivals.choose(state, rng))
