"""A search bot: Monte Carlo tree search over the bot's turn, with chance nodes for the draws.

:class:`MCTSBot` searches in the endgame, and plays as the expectimax bot until then. It builds a tree
of its own turn: a decision node per state where it chooses, a chance
node per draw (R5) whose children are the animals that came out, sampled with the bot's ``rng``. Each
iteration walks down the tree by UCT, adds one node, then plays on by sampling: the rest of its turn
as the expectimax bot would play it, then the opponents' turns, by the heuristic's rules of thumb,
until the bot is to play again. The position reached is scored as a chance of winning, from
:func:`~cheekymonkey.cheeky.bots.position_value`; once few tokens are left in the bag, the playout goes on to
the end of the game and scores the real result instead. The action with the best mean is played.

The opponents' turns are what the expectimax bot cannot see: it values the end of its own turn with
an estimate of what its exposed top risks, where this bot plays the claims and swaps out.

>>> from cheekymonkey import play_game
>>> from cheekymonkey.cheeky.bots import HeuristicBot
>>> game = play_game([MCTSBot(iterations=50), HeuristicBot()], seed=3)
>>> sum(len(stack) for stack in game.state.stacks)
52
"""

from __future__ import annotations

import math
import random
from typing import Final

from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.actions import CLAIMS, DRAW, HERD, SWAPS, Action, Herd, Stop
from cheekymonkey.cheeky.bots.base import paused_gc
from cheekymonkey.cheeky.bots.evaluation import _Evaluator
from cheekymonkey.cheeky.bots.expectimax import ExpectimaxBot, _best_stacking, _candidates, _placing_choice
from cheekymonkey.cheeky.engine import apply, begins_turn, legal_actions, resolve_chance, stop_in_order
from cheekymonkey.cheeky.rules import Animal
from cheekymonkey.cheeky.scoring import _final_winners
from cheekymonkey.cheeky.state import GameState, Phase, all_one_animal
from cheekymonkey.errors import InvalidValueError

__all__ = ["MCTSBot", "QuickMCTSBot"]

_CHANCE: Final = Phase.CHANCE
_DECIDE: Final = Phase.DECIDE
_PLACING: Final = Phase.PLACING
_OVER: Final = Phase.OVER
_MONKEY: Final = Animal.MONKEY

_ROLLOUT_RISK: Final = 0.3
"""The playouts draw while the chance of a bust is at most this (the heuristic bot's default)."""
_ENDGAME: Final = 16
"""With at most this many tokens in the bag, playouts run to the end of the game (R15)."""
_LEAD_SCALE: Final = 8.0
"""A lead of this many points (of :func:`~cheekymonkey.cheeky.bots.position_value`) counts as a 73% chance to win."""


_PRIOR: Final = 10
"""How many playouts the expectimax bot's value of a root action counts for."""


def _chance_to_win(lead: float) -> float:
    return 1.0 / (1.0 + math.exp(-lead / _LEAD_SCALE))


class _Node:
    """One node of the tree: a state of the bot's turn, and the playouts that went through it."""

    __slots__ = ("children", "state", "total", "untried", "visits")

    def __init__(self, state: GameState, untried: list[Action]) -> None:
        self.state = state
        self.untried = untried
        self.children: dict[object, _Node] = {}
        self.visits = 0
        self.total = 0.0


def _turn_ended(state: GameState, me: int) -> bool:
    # R4: a turn ends when the next one begins, with its compulsory draw (or the game is over, R15).
    return begins_turn(state) or state.phase is _OVER or state.seat != me


def _rollout_action(state: GameState) -> Action | None:
    """The heuristic's choice while deciding, or None to stop (the caller stacks the tokens itself)."""
    claimable = state.claimable
    me = state.seat
    stacks = state.stacks
    if claimable is not None:
        seat = 0
        for stack in stacks:
            if stack and stack[-1] is claimable and seat != me:
                return CLAIMS[seat]  # R7: every claim is taken
            seat += 1  # noqa: SIM113 (enumerate would build a tuple per seat)
        if state.swap_open:
            # R12: swap the monkey for the most valuable top that is not a monkey.
            values = state.ruleset.bonus_values
            best = -1
            best_value = -1
            seat = 0
            for stack in stacks:
                if stack and seat != me and stack[-1] is not _MONKEY and values[stack[-1]] > best_value:
                    best, best_value = seat, values[stack[-1]]
                seat += 1  # noqa: SIM113 (as above)
            if best >= 0:
                return SWAPS[best]
    bag = state.bag
    total = sum(bag)
    if total:
        front = state.front
        busting = 0
        for animal in set(front):
            busting += bag[animal]
        if busting <= _ROLLOUT_RISK * total:
            return DRAW
    return None


def _stop(state: GameState) -> GameState:
    """Stop (or secure a herd) with the animal least likely to be drawn next on top (R9, R10)."""
    front = state.front
    if all_one_animal(front):
        return apply(state, HERD)
    bag = state.bag
    return stop_in_order(state, sorted(front, key=lambda a: (-bag[a], a)))


def _play_turn_out(state: GameState, rng: random.Random) -> GameState:
    """Play from ``state`` to the start of the next turn, every choice the heuristic's."""
    seat = state.seat
    while True:
        phase = state.phase
        if phase is _CHANCE:
            state = resolve_chance(state, rng)
            if state.phase is not _DECIDE:
                return state  # R6: a bust ended the turn
        elif phase is _DECIDE:
            action = _rollout_action(state)
            if action is None:
                return _stop(state)
            state = apply(state, action)
        elif phase is _PLACING:
            bag = state.bag
            return stop_in_order(state, sorted(state.front, key=lambda a: (-bag[a], a)))
        else:
            return state
        if state.seat != seat:  # pragma: no cover - every turn ends through one of the returns above
            return state


def _after(state: GameState, action: Action) -> GameState:
    if isinstance(action, Stop):
        # R9: the stacking order is the expectimax bot's, not searched.
        order, _ = _best_stacking(state, _Evaluator(state.ruleset, state.stacks, state.seat))
        return stop_in_order(state, order)
    return apply(state, action)


class MCTSBot:
    """In the endgame, a Monte Carlo tree search of its turn, with chance nodes; before it, the expectimax play.

    It searches in the endgame: while more than ``endgame`` tokens are in the bag and in front, it
    plays as :class:`~cheekymonkey.cheeky.bots.ExpectimaxBot` does (``endgame=None`` searches every decision).
    Each search starts from the expectimax values of the options, each counted as 10 playouts, then
    runs ``iterations`` playouts (none when the choice is forced), and plays the option with the best
    mean. A playout walks the tree of the bot's turn by UCT (``exploration`` is the constant),
    sampling each draw with the ``rng`` it is given, so a seeded game plays the same every time. Its
    options are those the expectimax bot weighs: every claim is taken (R7), swaps (R12) are weighed
    against claiming, and a stop puts the tokens down in the order the expectimax bot would choose
    (R9). Past the tree the playout finishes the bot's turn as the expectimax bot would, looking one
    draw ahead, then plays every later turn by the heuristic's rules of thumb. When at most 16 tokens
    are out, or at most ``endgame`` if that is more (so, with ``endgame`` set, from the first search
    on), it plays to the end of the game and counts the real result: 1 for a win, 1/k for a win
    shared by k, else 0 (R18). Otherwise it stops when the bot is
    to play again and counts that position as a chance of winning of ``1 / (1 + exp(-lead / 8))``,
    the lead being :func:`~cheekymonkey.cheeky.bots.position_value` with the bot to move.

    Args:
        iterations: Playouts per decision, 1 or more.
        exploration: The UCT exploration constant, above 0.
        endgame: Search only with at most this many tokens in the bag and in front; None: always.

    Raises:
        InvalidValueError: If ``iterations`` is not a positive integer, ``exploration`` not a positive
            number, or ``endgame`` neither None nor a whole number.
    """

    __slots__ = ("_expectimax", "endgame", "exploration", "iterations")

    def __init__(self, iterations: object = 1000, exploration: object = 0.3, endgame: object = 16) -> None:
        # Typed object and checked here, as the other bots' settings: compiled (mypyc), an int parameter would
        # refuse a float with a bare TypeError on entry instead of these errors.
        if not is_whole_number(iterations) or iterations < 1:
            raise InvalidValueError(f"iterations must be a positive integer, got {iterations!r}")
        if isinstance(exploration, bool) or not isinstance(exploration, int | float) or not exploration > 0:
            raise InvalidValueError(f"exploration must be a positive number, got {exploration!r}")
        if endgame is not None and (not is_whole_number(endgame) or endgame < 0):
            raise InvalidValueError(f"endgame must be None or a whole number of tokens, got {endgame!r}")
        self.iterations: int = iterations
        self.exploration = float(exploration)
        self.endgame: int | None = endgame
        self._expectimax = ExpectimaxBot()

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the action with the best mean after the bot's playouts from ``state``, drawn with ``rng``."""
        if state.phase is _PLACING:
            return _placing_choice(state)
        if not self._searches(state):
            # Before the endgame, sampled playouts add more noise than they see (docs/explanation/bots.md).
            return self._expectimax.choose(state, rng)
        candidates = _candidates(legal_actions(state))
        if len(candidates) == 1:
            return candidates[0]
        means = self._root_means(state, rng, candidates)
        best = candidates[0]
        best_mean = -math.inf
        for action in candidates:
            mean = means[action]
            if mean > best_mean + 1e-12:
                best, best_mean = action, mean
        return best

    def _root_means(
        self, state: GameState, rng: random.Random, candidates: tuple[Action, ...] | None = None
    ) -> dict[Action, float]:
        if candidates is None:
            candidates = _candidates(legal_actions(state))
        me = state.seat
        evaluator = _Evaluator(state.ruleset, state.stacks, me)
        root = _Node(state, [])
        # The expectimax values are the prior: each root child starts as if it had been played out
        # _PRIOR times with the expectimax bot's estimate, so the playouts refine a sound start.
        values = self._expectimax._values_of(state, candidates)
        for action, value in zip(candidates, values, strict=True):
            child = _Node(_after(state, action), [])
            if child.state.phase is _DECIDE:
                child.untried = list(reversed(_candidates(legal_actions(child.state))))
            child.visits = _PRIOR
            child.total = _PRIOR * _chance_to_win(value)
            root.children[action] = child
            root.visits += _PRIOR
        # Playouts stop when the bot is to play again: its own top is then safe until it has played.
        at_next_turn = _Evaluator(state.ruleset, state.stacks, me, mover=me)
        with paused_gc():
            for _ in range(self.iterations):
                self._iterate(root, me, evaluator, at_next_turn, rng)
        means = {}
        for action in candidates:
            child = root.children[action]
            means[action] = child.total / child.visits
        return means

    def _searches(self, state: GameState) -> bool:
        """Whether the bot searches in ``state``, rather than play the expectimax bot's choice."""
        return self.endgame is None or sum(state.bag) + len(state.front) <= self.endgame

    def _iterate(
        self, root: _Node, me: int, evaluator: _Evaluator, at_next_turn: _Evaluator, rng: random.Random
    ) -> None:
        path = [root]
        node = root
        while True:
            state = node.state
            if _turn_ended(state, me):
                break  # the turn is over: play the rest out from here, afresh each time
            if state.phase is _CHANCE:
                # R5: the chance node samples the draw; each animal drawn has its own child.
                after = resolve_chance(state, rng)
                key = after.front[-1] if after.phase is _DECIDE else None  # None: a bust (R6)
                child = node.children.get(key)
                if child is None:
                    child = _Node(
                        after, [] if _turn_ended(after, me) else list(reversed(_candidates(legal_actions(after))))
                    )
                    node.children[key] = child
                    path.append(child)
                    node = child
                    break
                path.append(child)
                node = child
                continue
            if node.untried:
                action = node.untried.pop()
                child = _Node(_after(state, action), [])
                if child.state.phase is _DECIDE:  # a claim or a swap: the player decides again
                    child.untried = list(reversed(_candidates(legal_actions(child.state))))
                node.children[action] = child
                path.append(child)
                node = child
                break
            node = self._select(node)
            path.append(node)
        value = self._playout(node.state, me, evaluator, at_next_turn, rng)
        for visited in path:
            visited.visits += 1
            visited.total += value

    def _select(self, node: _Node) -> _Node:
        # UCT: the mean value plus an exploration bonus that shrinks as a child is tried more.
        log_visits = math.log(node.visits)
        c = self.exploration
        best: _Node | None = None
        best_score = -math.inf
        for child in node.children.values():
            uct = child.total / child.visits + c * math.sqrt(log_visits / child.visits)
            if uct > best_score:
                best, best_score = child, uct
        assert best is not None
        return best

    def _finish_turn(self, state: GameState, evaluator: _Evaluator, rng: random.Random) -> GameState:
        """Play the rest of the bot's own turn as the expectimax bot would, looking one draw ahead.

        The heuristic would stop where this bot draws, and so undervalue the draws the tree explores.
        """
        expectimax = self._expectimax
        while True:
            phase = state.phase
            if phase is _CHANCE:
                state = resolve_chance(state, rng)
                if state.phase is not _DECIDE:
                    return state  # R6: a bust ended the turn
                continue
            if phase is not _DECIDE:
                return state  # pragma: no cover - the loop leaves by a stop or a bust
            candidates = _candidates(legal_actions(state))
            action = candidates[0]
            if len(candidates) > 1:
                values = expectimax._values_of(state, candidates, depth=1, evaluator=evaluator)
                action = candidates[max(range(len(candidates)), key=values.__getitem__)]
            state = _after(state, action)
            if isinstance(action, Stop | Herd):
                return state

    def _playout(
        self, state: GameState, me: int, evaluator: _Evaluator, at_next_turn: _Evaluator, rng: random.Random
    ) -> float:
        """Play on from ``state`` and return the bot's chance of winning from where the playout stops."""
        to_the_end = sum(state.bag) + len(state.front) <= max(_ENDGAME, self.endgame or 0)
        if not _turn_ended(state, me):
            state = self._finish_turn(state, evaluator, rng)
        while state.phase is not _OVER and (to_the_end or state.seat != me):
            state = _play_turn_out(state, rng)
        if state.phase is _OVER:
            # R18: 1 for a win, 1/k for a win shared by k, else 0; scored without building a score sheet.
            winners = _final_winners(state)
            return 1.0 / len(winners) if me in winners else 0.0
        return _chance_to_win(at_next_turn.value(state.stacks, state.bag))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(iterations={self.iterations!r}, exploration={self.exploration!r}, "
            f"endgame={self.endgame!r})"
        )


class QuickMCTSBot(MCTSBot):
    """:class:`MCTSBot` with 400 playouts a search instead of 1000: the ``mcts400`` bot, fast enough for people.

    Its play is the search's, with fewer playouts. On the 2-core machine of the bot page
    (``docs/explanation/bots.md``), its 95th percentile was under 50 ms a decision at 2, 3 and 6 seats, and in
    4,000 paired games at 2 seats it won 2.0 ± 0.7 points (standard error) more often than the expectimax bot
    in the same seat. It is recorded as ``mcts400``, so a record names the bot that played.

    Args:
        iterations: Playouts per decision, 1 or more.
        exploration: The UCT exploration constant, above 0.
        endgame: Search only with at most this many tokens in the bag and in front; None: always.

    Raises:
        InvalidValueError: As :class:`MCTSBot`.
    """

    __slots__ = ()

    kind: Final = "mcts400"

    def __init__(self, iterations: object = 400, exploration: object = 0.3, endgame: object = 16) -> None:
        super().__init__(iterations, exploration, endgame)
