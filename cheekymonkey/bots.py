"""Bots beyond :class:`~cheekymonkey.RandomBot`: a push-your-luck heuristic and an exact expectimax player.

Both follow the :class:`~cheekymonkey.Bot` protocol (``choose(state, rng) -> action``) and both stop
with certainty once every token left in the bag would bust them, as R22 asks.

>>> from cheekymonkey import play_game
>>> game = play_game([ExpectimaxBot(), HeuristicBot()], seed=3)
>>> sum(game.score.totals) >= 52
True
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
from collections.abc import Callable, Iterator
from typing import Final

from cheekymonkey._gamestate import count_sum as _size
from cheekymonkey.actions import DRAW, HERD, PLACES, REVEALS, STOP, Action, Claim, Draw, Herd, Stop, Swap
from cheekymonkey.engine import apply, legal_actions
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.play import Bot, RandomBot
from cheekymonkey.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.state import GameState, Phase

__all__ = [
    "BOTS",
    "Bot",
    "ExpectimaxBot",
    "HeuristicBot",
    "RandomBot",
    "bot_named",
    "bust_probability",
    "position_value",
]


def bust_probability(state: GameState) -> float:
    """The chance that drawing now busts the player to move (R5, R6): the share of the bag that matches the front.

    Args:
        state: A state whose player is deciding (or any state: the front and bag are read as they are).

    Returns:
        A probability from 0 to 1; 0 if the bag is empty (no draw is possible then).

    >>> from cheekymonkey import new_game, apply, Reveal, Animal
    >>> bust_probability(apply(new_game(2), Reveal(Animal.ELEPHANT)))  # 2 elephants left of 51 tokens
    0.0392156862745098
    """
    bag = state.bag
    total = _size(bag)
    if not total:
        return 0.0
    # R6: each animal in front busts once per token of it in the bag; a bit per animal marks those counted.
    busting = 0
    seen = 0
    for token in state.front:
        at: int = token  # compiled, indexing and shifting with an int is native; an Animal is an object there
        bit = 1 << at
        if not seen & bit:
            seen |= bit
            busting += bag[at]
    return busting / total


def _placing_order_choice(state: GameState) -> Action:
    # R9: the last token put down is the one exposed to claims and swaps. Put down first the animal
    # most likely to be drawn next (most left in the bag), so the top is the one least likely to be claimed.
    bag = state.bag
    front = state.front
    best = max((a for a in ANIMALS if a in front), key=lambda a: (bag[a], -a))
    return PLACES[best]


def _stop_action(state: GameState) -> Action:
    front = state.front
    # R10: a herd goes to the bottom, out of reach of claims and swaps, so it is never worse than a stop.
    if front.count(front[0]) == len(front):
        return HERD
    return STOP


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a search, and restore it as it was (used by the search bots).

    A search makes many short-lived tuples, which trigger collections that scan everything the program
    holds: pauses of tens of milliseconds in the middle of a decision. Paused, the collection waits until
    the decision is made. Reference counting still frees memory as usual; the search makes no cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class HeuristicBot:
    """A push-your-luck player: takes every claim, swaps for the most valuable top, stops at a risk threshold.

    While deciding it claims whenever it can (R7), otherwise swaps a drawn monkey for the opponent top
    with the highest bonus value (R12), otherwise draws again while the chance of busting is at most
    ``risk`` and stops (or secures a herd) once it is higher. When stopping it puts the animal least
    likely to be drawn next on top.

    Args:
        risk: The highest bust probability it will draw at, strictly between 0 and 1.

    Raises:
        InvalidValueError: If ``risk`` is not a number strictly between 0 and 1.
    """

    __slots__ = ("risk",)

    def __init__(self, risk: object = 0.3) -> None:
        # Typed object, checked here: compiled (mypyc), a float parameter would refuse a string with a bare
        # TypeError on entry instead of this error.
        if isinstance(risk, bool) or not isinstance(risk, int | float) or not 0 < risk < 1:
            raise InvalidValueError(f"risk must be a number strictly between 0 and 1, got {risk!r}")
        self.risk = float(risk)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the heuristic's action for the player to move (``rng`` is not used: it is deterministic)."""
        if state.phase is Phase.PLACING:
            return _placing_order_choice(state)
        actions = legal_actions(state)
        claims = [a for a in actions if isinstance(a, Claim)]
        if claims:
            return claims[0]
        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps:
            values = state.ruleset.bonus_values
            return max(swaps, key=lambda s: (values[state.stacks[s.seat][-1]], -s.seat))
        if DRAW in actions and bust_probability(state) <= self.risk:
            return DRAW
        return _stop_action(state)

    def __repr__(self) -> str:
        return f"HeuristicBot(risk={self.risk!r})"


# The evaluation's constants. In 300-game matches against two heuristic bots, sharpness 0.8 or 2.5 and
# 1.5 or 4 draws a turn did no better than these, within the intervals.
_DRAWS_PER_TURN: Final = 2.5
"""About how many draws a turn makes: R5 draws are what expose a stack's top to claims (R7)."""
_SHARPNESS: Final = 1.5
"""How firmly a lead in an animal holds while tokens of it are still to come (see :func:`position_value`)."""

_SHARES: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}


def _shares(column: tuple[int, ...], left: int) -> tuple[float, ...]:
    """Each seat's estimated share of one bonus tile, from its tokens of the animal and the tokens still out."""
    key = (column, left)
    cached = _SHARES.get(key)
    if cached is not None:
        return cached
    best = max(column)
    if left == 0:
        # R16: with every token of the animal stacked, the tile is settled: one sole leader, or nobody.
        shares = tuple(1.0 if c == best and column.count(best) == 1 and best > 0 else 0.0 for c in column)
    else:
        # Tokens still out can overturn a lead: the fewer there are, the firmer it holds.
        beta = _SHARPNESS / math.sqrt(left)
        weights = [math.exp(beta * (c - best)) for c in column]
        total = sum(weights)
        shares = tuple(w / total for w in weights)
    if len(_SHARES) > 100_000:
        _SHARES.clear()
    _SHARES[key] = shares
    return shares


def _strongest(points: list[float], me: int) -> float:
    # The lead is over the strongest opponent: in a game of several, only the best of them stands in the way.
    return max(points[:me] + points[me + 1 :])


class _Evaluator:
    """:func:`position_value` for the positions one search reaches from one root, computed incrementally.

    A turn changes few stacks: the mover's (a stop or a herd) and those it claims from or swaps with
    (R7, R12). The engine shares every unchanged stack tuple between a state and the next, so a stack
    that ``is`` the root's has the root's counts, and only the animals whose counts changed have their
    tile shares recomputed.
    """

    __slots__ = ("_base", "_columns", "_exposures", "_in_play", "_me", "_root", "_rows", "_ruleset", "_turns")

    def __init__(
        self, ruleset: Ruleset, stacks: tuple[tuple[Animal, ...], ...], me: int, mover: int | None = None
    ) -> None:
        self._ruleset = ruleset
        self._root = stacks
        self._me = me
        self._exposures: dict[tuple[object, ...], float] = {}
        n = len(stacks)
        self._in_play = ruleset.animals if ruleset.bonus_tiles else ()
        self._rows = [self._row(stack) for stack in stacks]
        # R7: a top is exposed to the opponents who play before its owner plays again; ``mover`` plays
        # next (by default the seat after ``me``: the positions where ``me`` has just ended its turn).
        first = (me + 1) % n if mover is None else mover
        self._turns = [(seat - first) % n for seat in range(n)]
        base = [float(len(stack)) for stack in stacks]  # R17: a point per token
        columns: list[tuple[int, ...]] = [()] * len(ANIMALS)
        counts = ruleset.counts
        values = ruleset.bonus_values
        for animal in self._in_play:
            column = tuple([row[animal] for row in self._rows])
            columns[animal] = column
            shares = _shares(column, counts[animal] - sum(column))
            value = values[animal]
            for seat in range(n):
                base[seat] += value * shares[seat]  # R16, R17: the tile's value, by the chance of holding it
        self._base = base
        self._columns = columns

    def _row(self, stack: tuple[Animal, ...]) -> list[int]:
        row = [0] * len(ANIMALS)
        for animal in self._in_play:
            row[animal] = stack.count(animal)
        return row

    def _points(self, stacks: tuple[tuple[Animal, ...], ...]) -> tuple[list[float], list[tuple[int, ...]]]:
        """Every seat's tokens plus its expected tiles, and the counts per animal by seat."""
        root = self._root
        points = self._base[:]
        columns = self._columns
        n = len(stacks)
        changed = [seat for seat in range(n) if stacks[seat] is not root[seat]]
        if not changed:
            return points, columns
        ruleset = self._ruleset
        counts = ruleset.counts
        values = ruleset.bonus_values
        columns = columns[:]
        moved: set[Animal] = set()
        rows: dict[int, list[int]] = {}
        for seat in changed:
            points[seat] += len(stacks[seat]) - len(root[seat])
            row = self._row(stacks[seat])
            rows[seat] = row
            old = self._rows[seat]
            for animal in self._in_play:
                if row[animal] != old[animal]:
                    moved.add(animal)
        for animal in moved:
            before = columns[animal]
            column = list(before)
            for seat, row in rows.items():
                column[seat] = row[animal]
            after = tuple(column)
            columns[animal] = after
            old_shares = _shares(before, counts[animal] - sum(before))
            new_shares = _shares(after, counts[animal] - sum(after))
            value = values[animal]
            for seat in range(n):
                points[seat] += value * (new_shares[seat] - old_shares[seat])
        return points, columns

    def _exposure(
        self, seat: int, stack: tuple[Animal, ...], bag: tuple[int, ...], in_bag: int, columns: list[tuple[int, ...]]
    ) -> float:
        """What ``seat`` expects to lose from its top before it plays again (R7), ``stack`` not empty."""
        turns = self._turns[seat]
        top = stack[-1]
        if not turns or not bag[top]:
            return 0.0
        key: tuple[object, ...] | None = None
        if stack is self._root[seat]:
            # A stack the search has not touched loses the same for the same bag and the same counts.
            key = (seat, bag[top], in_bag, columns[top])
            cached = self._exposures.get(key)
            if cached is not None:
                return cached
        risk = 1.0 - math.pow(1.0 - bag[top] / in_bag, _DRAWS_PER_TURN * turns)
        run = 1
        height = len(stack)
        while run < height and stack[-1 - run] is top:
            run += 1  # R7: claims chain down a run of the same animal
        loss = float(run)
        if self._in_play:
            column = columns[top]
            lower = list(column)
            lower[seat] -= run
            left = self._ruleset.counts[top] - sum(column)
            before = _shares(column, left)[seat]
            after = _shares(tuple(lower), left + run)[seat]
            loss += self._ruleset.bonus_values[top] * (before - after)
        if key is not None:
            self._exposures[key] = risk * loss
        return risk * loss

    def value(self, stacks: tuple[tuple[Animal, ...], ...], bag: tuple[int, ...]) -> float:
        """The position value for the root's player, of ``stacks`` (reached from the root's) and ``bag``."""
        points, columns = self._points(stacks)
        in_bag = sum(bag)
        if in_bag:
            for seat, stack in enumerate(stacks):
                if stack:
                    points[seat] -= self._exposure(seat, stack, bag, in_bag, columns)
        me = self._me
        mine = points[me]
        return mine - _strongest(points, me)

    def best_stack(
        self, stacks: list[tuple[Animal, ...]], options: list[tuple[Animal, ...]], bag: tuple[int, ...]
    ) -> tuple[int, float]:
        """The best of ``options`` for the root player's stack (the same tokens in different orders), and its value."""
        me = self._me
        stacks[me] = options[0]
        points, columns = self._points(tuple(stacks))
        in_bag = sum(bag)
        if in_bag:
            for seat, stack in enumerate(stacks):
                if stack and seat != me:
                    points[seat] -= self._exposure(seat, stack, bag, in_bag, columns)
        mine = points[me]
        lead = mine - _strongest(points, me)
        if not in_bag:
            return 0, lead
        best, best_value = 0, -math.inf
        for i, option in enumerate(options):
            value = lead - self._exposure(me, option, bag, in_bag, columns)
            if value > best_value:
                best, best_value = i, value
        return best, best_value


def position_value(state: GameState, seat: int) -> float:
    """How far ``seat`` leads its strongest opponent, by the expectimax bot's estimate of the final scores.

    Each seat is credited with a point per stacked token (R17) and, for each animal, the bonus tile's
    value times an estimate of its chance of holding the majority (R16): certain once every token of
    the animal is stacked (nothing for a tie), and otherwise a share that grows with the seat's lead
    and shrinks with the tokens still in the bag or in front. Then each stack's top is charged for the
    chance that an opponent draws its animal before the seat plays again and claims it, with any run
    of the same animal under it (R7): the chance comes from the bag, and ``seat`` is taken to have just
    ended its turn, so its top faces every opponent's turn. The value is the seat's estimate minus the
    highest of the others'. Tokens in front are not counted: call it on a state between turns.

    Args:
        state: Any state; only its stacks, bag and rule set are read.
        seat: The seat to value the position for.

    Raises:
        InvalidValueError: If ``seat`` is not one of the state's seats.

    >>> from cheekymonkey import new_game
    >>> position_value(new_game(2), 0)
    0.0
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.stacks):
        raise InvalidValueError(f"seat {seat!r} is not one of the {len(state.stacks)} seats")
    return _Evaluator(state.ruleset, state.stacks, seat).value(state.stacks, state.bag)


def _stacking_key(bag: tuple[int, ...]) -> Callable[[Animal], tuple[int, int]]:
    # Lower in the stack go the animals most likely to be drawn next: they are the ones most often claimed.
    return lambda animal: (-bag[animal], animal)


def _best_stacking(state: GameState, evaluator: _Evaluator) -> tuple[tuple[Animal, ...], float]:
    """The placing order (bottom first) whose final stacks evaluate best for the player, and that value (R9).

    Each animal in front is tried on top; under it the others go most likely to be drawn first, and the
    top's own duplicates lowest, away from it, so that a claim cannot chain through them (R7).
    """
    front = state.front
    bag = state.bag
    seat = state.seat
    key = _stacking_key(bag)
    rest = sorted(front, key=key)
    stack = state.stacks[seat]
    orders: list[tuple[Animal, ...]] = []
    for top in sorted(set(front), key=key, reverse=True):
        others = [a for a in rest if a is not top]
        orders.append((*([top] * (front.count(top) - 1)), *others, top))
    best, value = evaluator.best_stack(list(state.stacks), [stack + order for order in orders], bag)
    return orders[best], value


def _herd_value(state: GameState, evaluator: _Evaluator) -> float:
    # R10: a herd goes under the stack, so the top (and its exposure) stays as it was.
    stacks = list(state.stacks)
    stacks[state.seat] = state.front + stacks[state.seat]
    return evaluator.value(tuple(stacks), state.bag)


def _placing_choice(state: GameState) -> Action:
    """While placing, the next token of the best-valued order (R9)."""
    order, _ = _best_stacking(state, _Evaluator(state.ruleset, state.stacks, state.seat))
    return PLACES[order[0]]


def _candidates(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The actions worth searching among ``actions``: Stop and Herd first, and one claim for all of them.

    A claim takes a token of the animal just drawn, which is already in front, so it leaves the bust
    odds as they were (R6), and its token is the opponent's loss whether the turn banks it or busts
    (R6: claimed tokens go back into the bag). So the search takes every claim open, one after another,
    in seat order (the chain ends in the same place in any order, R7); the only alternative it weighs
    is a swap (R11: claiming gives the swap up).
    """
    claims = [a for a in actions if isinstance(a, Claim)]
    if claims:
        swaps = [a for a in actions if isinstance(a, Swap)]
        return (claims[0], *swaps)
    if actions[0] is DRAW:
        return (*actions[1:], DRAW)
    return actions


class ExpectimaxBot:
    """Searches the rest of its turn exactly and values where each line ends with :func:`position_value`.

    At each decision it compares every legal action by the expected value of the position it leads to
    when it then plays on optimally: a draw is averaged over :func:`~cheekymonkey.chance_outcomes`, the
    exact probabilities of R5 (no sampling), so the bust odds are exact; claims and swaps move tokens
    between stacks and the front; stopping is valued with the best stacking order (R9), a herd with its
    tokens under the stack (R10), and a bust with the tokens back in the bag (R6). Positions where the
    turn ends are valued with :func:`position_value`: tiles at stake, exposed tops, the bag. The search
    looks at most ``depth`` draws ahead; past that it stops. Values are memoised per state.

    Args:
        depth: How many draws ahead to look, 1 or more.

    Raises:
        InvalidValueError: If ``depth`` is not a positive integer.
    """

    __slots__ = ("_memo", "depth")

    def __init__(self, depth: object = 2) -> None:
        # Typed object and checked here, as HeuristicBot's risk (a compiled int parameter raises TypeError).
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InvalidValueError(f"depth must be a positive integer, got {depth!r}")
        self.depth = depth
        self._memo: dict[tuple[object, ...], float] = {}

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """Return the action with the highest expected value (``rng`` is not used: it is deterministic)."""
        if state.phase is Phase.PLACING:
            return _placing_choice(state)
        candidates = _candidates(legal_actions(state))
        if len(candidates) == 1:
            return candidates[0]
        if len(self._memo) > 100_000:
            self._memo.clear()
        with paused_gc():
            evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
            best = candidates[0]
            best_value = -math.inf
            for action in candidates:
                value = self._action_value(state, action, self.depth, evaluator)
                # Ties go to the earlier candidate: stop and herd come before draws, so a draw must gain something.
                if value > best_value + 1e-12:
                    best, best_value = action, value
        return best

    def action_values(self, state: GameState) -> tuple[tuple[Action, float], ...]:
        """Every legal action in a deciding ``state`` with its expected value to the player, as the bot sees it.

        A value is a :func:`position_value` for the player to move, expected over the draws to come.
        Stop and Herd come first, so that a draw must be worth strictly more to be chosen.

        Raises:
            InvalidValueError: If the player in ``state`` is not deciding (a chance node, placing, or the end).
        """
        if state.phase is not Phase.DECIDE:
            raise InvalidValueError(f"expected a deciding state, got one in phase {state.phase.name}")
        # Values do not depend on where the search started, so the memo serves the rest of the turn too.
        if len(self._memo) > 100_000:
            self._memo.clear()
        evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
        actions = legal_actions(state)
        ordered = [a for a in actions if isinstance(a, Stop | Herd)] + [
            a for a in actions if not isinstance(a, Stop | Herd)
        ]
        return tuple((action, self._action_value(state, action, self.depth, evaluator)) for action in ordered)

    def _values_of(
        self,
        state: GameState,
        actions: tuple[Action, ...],
        *,
        depth: int | None = None,
        evaluator: _Evaluator | None = None,
    ) -> list[float]:
        """The values of ``actions``, legal in the deciding ``state``, looking ``depth`` draws ahead (default: own)."""
        if len(self._memo) > 100_000:
            self._memo.clear()
        if evaluator is None:
            evaluator = _Evaluator(state.ruleset, state.stacks, state.seat)
        depth = self.depth if depth is None else depth
        return [self._action_value(state, action, depth, evaluator) for action in actions]

    def _action_value(self, state: GameState, action: Action, depth: int, evaluator: _Evaluator) -> float:
        if isinstance(action, Draw):
            drawing = apply(state, action)
            bag = drawing.bag
            front = state.front
            value = 0.0
            busting = 0
            for animal in ANIMALS:
                count = bag[animal]
                if not count:
                    continue
                if animal in front:
                    busting += count
                else:
                    value += count * self._value(apply(drawing, REVEALS[animal]), depth - 1, evaluator)
            if busting:
                # R6: every busting draw leads to the same position: the front back in the bag, stacks as they were.
                returned = list(bag)
                for token in front:
                    returned[token] += 1
                value += busting * evaluator.value(state.stacks, tuple(returned))
            return value / sum(bag)  # R5: each token in the bag equally likely
        if isinstance(action, Stop):
            return _best_stacking(state, evaluator)[1]
        if isinstance(action, Herd):
            return _herd_value(state, evaluator)
        return self._value(apply(state, action), depth, evaluator)

    def _value(self, state: GameState, depth: int, evaluator: _Evaluator) -> float:
        # The value does not depend on the order the tokens in front came in, so permutations share an entry.
        key = (state.seat, state.bag, tuple(sorted(state.front)), state.claimable, state.swap_open, state.stacks, depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        best = -math.inf
        for action in _candidates(legal_actions(state)):
            if action is DRAW and depth == 0:
                continue  # past the horizon the search stops
            value = self._action_value(state, action, depth, evaluator)
            if value > best:
                best = value
        self._memo[key] = best
        return best

    def __repr__(self) -> str:
        return f"ExpectimaxBot(depth={self.depth!r})"


def _mcts_bot() -> Bot:
    # The search module builds on this one, so it is imported when the first search bot is made.
    from cheekymonkey.search import MCTSBot

    return MCTSBot()


def _learned_bot() -> Bot:
    # The learned network (cheekymonkey.rl.learned) needs numpy, the rl extra: imported when first asked for.
    try:
        from cheekymonkey.rl.learned import LearnedBot
    except ImportError as error:
        raise InvalidValueError(str(error)) from error
    return LearnedBot(fallback=HeuristicBot())


BOTS: Final[dict[str, Callable[[], Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expectimax": ExpectimaxBot,
    "mcts": _mcts_bot,
    "learned": _learned_bot,
}
"""The bots by name, as the command line knows them: each entry builds a fresh bot."""


def bot_named(name: str) -> Bot:
    """A fresh bot of the kind called ``name``: one of :data:`BOTS`.

    Raises:
        InvalidValueError: If there is no bot of that name.
    """
    factory = BOTS.get(name)
    if factory is None:
        raise InvalidValueError(f"no bot named {name!r}; the bots are {', '.join(BOTS)}")
    return factory()
