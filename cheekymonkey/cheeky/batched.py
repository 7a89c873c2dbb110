"""*Cheeky Monkey*, B games at once: numpy arrays stepped by compiled loops (the ``batched`` extra).

:class:`BatchedCheekyMonkey` plays many games of one seat count and rule set side by side, with the API of
:class:`~cheekymonkey.batched.BatchedGame` (Pgx's shape: ``init``, ``step``, ``observation``). Each game is
exactly the scalar engine's: the same rules (any :class:`~cheekymonkey.Ruleset`, custom ones included), the
same action indices (:class:`~cheekymonkey.cheeky.encoding.ActionCodec`, seats counted from the mover), the same
observation vectors (:mod:`cheekymonkey.cheeky.encoding`), the draws with exactly the probabilities of
:func:`~cheekymonkey.chance_outcomes` (R5), the returns of the game's outcome (R16-R19), and the
:class:`~cheekymonkey.table.Table`'s limits. A test replays a million steps of batched games through the
scalar engine and compares every state, mask, observation and reward.

A custom rule set, three seats, four games, the draws' outcomes replayed through the scalar engine:

>>> from cheekymonkey import Animal, Ruleset, apply
>>> from cheekymonkey.batched import random_legal_actions, seed_streams
>>> rules = Ruleset.custom({Animal.SEAL: 4, Animal.LION: 3, Animal.MONKEY: 5})
>>> engine = BatchedCheekyMonkey(3, rules)
>>> states = engine.init(4, seed=7)
>>> states.current_player.tolist(), states.legal_action_mask.shape
([0, 0, 0, 0], (4, 17))
>>> before = engine.decode(states, 0)
>>> states = engine.step(states, [1, 1, 1, 1])  # every game's seat 0 stops (index 1)
>>> engine.outcomes(states, 0)  # the next turn's first draw
(Reveal(Animal.MONKEY),)
>>> engine.decode(states, 0) == apply(apply(before, engine.encoding.decode(1, before)), Reveal(Animal.MONKEY))
True
>>> player = seed_streams(8, 4)
>>> for _ in range(300):
...     states = engine.step(states, random_legal_actions(states.legal_action_mask, player))
>>> engine.observation(states).shape
(4, 375)
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from cheekymonkey.batched import BatchedGame, BatchState, draw_below, jit, past_limits
from cheekymonkey.cheeky.actions import REVEALS, Action, Reveal
from cheekymonkey.cheeky.game import CHEEKY_MONKEY
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.cheeky.state import GameState, Phase
from cheekymonkey.errors import InvalidValueError

__all__ = ["BatchedCheekyMonkey", "CheekyBatchState"]

_A: Final = len(ANIMALS)
_MONKEY: Final = int(Animal.MONKEY)
_CHANCE: Final = int(Phase.CHANCE)
_DECIDE: Final = int(Phase.DECIDE)
_PLACING: Final = int(Phase.PLACING)
_OVER: Final = int(Phase.OVER)
# The action indices (cheekymonkey.cheeky.encoding): Draw, Stop, Herd, n claims, n swaps, 8 places.
_DRAW: Final = 0
_STOP: Final = 1
_HERD: Final = 2
_FIXED: Final = 3


class CheekyBatchState(BatchState):
    """B games of *Cheeky Monkey*: :class:`~cheekymonkey.batched.BatchState`'s arrays and the game's own.

    A game's fields are :class:`~cheekymonkey.GameState`'s, as arrays: ``T`` is the rule set's token count.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        *BatchState.FIELDS,
        "seat",
        "phase",
        "bag",
        "bag_size",
        "heights",
        "stacks",
        "front",
        "front_len",
        "front_counts",
        "claimable",
        "swap_open",
    )

    seat: npt.NDArray[np.int32]
    """The seat whose turn it is."""
    phase: npt.NDArray[np.int8]
    """The :class:`~cheekymonkey.Phase`, as its number."""
    bag: npt.NDArray[np.int32]
    """B x 8: tokens of each animal in the bag."""
    bag_size: npt.NDArray[np.int32]
    """Tokens in the bag."""
    heights: npt.NDArray[np.int32]
    """B x players: tokens in each seat's stack."""
    stacks: npt.NDArray[np.int8]
    """B x players x T: each stack's animals from the bottom up (entries past its height mean nothing)."""
    front: npt.NDArray[np.int8]
    """B x T: the tokens in front, in the order they came (entries past ``front_len`` mean nothing)."""
    front_len: npt.NDArray[np.int32]
    """Tokens in front."""
    front_counts: npt.NDArray[np.int32]
    """B x 8: tokens of each animal in front."""
    claimable: npt.NDArray[np.int8]
    """The animal that may be claimed now (R7), or -1."""
    swap_open: npt.NDArray[np.bool_]
    """Whether the monkey just drawn may be swapped (R11)."""


# The kernels take the arrays as one plain tuple, in CheekyBatchState.FIELDS order, and the rules as another:
# counts, bonus values, tiles, swap, players, total tokens, max_turns, max_steps. Plain tuples, not named ones:
# numba's disk cache pickles the argument types, and a class of this module would tie the cache to the name
# the module was imported under (a test runner may import it under another).


# --- the kernels --------------------------------------------------------------------------------------------
# One game at a time (index b), as the scalar engine plays it: cheekymonkey/engine.py, clause by clause. The loop
# is one function, its arrays taken out of the tuple once: numba counts the references to every array passed
# to a compiled function, and helpers that took the arrays made a step three times as slow (see
# cheekymonkey.batched).


@jit
def _score(
    heights: npt.NDArray[np.int32],
    stacks: npt.NDArray[np.int8],
    rewards: npt.NDArray[np.float32],
    rows: npt.NDArray[np.int64],
    totals: npt.NDArray[np.int64],
    best: npt.NDArray[np.int64],
    b: int,
    r: Any,
) -> None:
    # R16-R19, and the Outcome's returns: 1/k to each of the k winners. Once a game: a call is cheap enough.
    counts, values, tiles, _, n, _, _, _ = r
    for seat in range(n):
        for animal in range(_A):
            rows[seat, animal] = 0
        for i in range(heights[b, seat]):
            rows[seat, stacks[b, seat, i]] += 1
        totals[seat] = heights[b, seat]  # R17: a point per token
        best[seat] = -1
    if tiles:
        for animal in range(_A):
            if counts[animal] == 0:
                continue
            # R16: strictly more than every other seat, and at least one token.
            most = 0
            holder = -1
            for seat in range(n):
                count = rows[seat, animal]
                if count > most:
                    most = count
                    holder = seat
                elif count == most:
                    holder = -1
            if holder >= 0:
                value = values[animal]
                totals[holder] += value
                if value > best[holder]:
                    best[holder] = value
    top = totals.max()
    tied = 0
    highest = -1
    for seat in range(n):
        if totals[seat] == top:
            tied += 1
            if best[seat] > highest:
                highest = best[seat]
    # R18: the best single tile among the tied breaks the tie; without one (R19) they share.
    winners = 0
    for seat in range(n):
        if totals[seat] == top and (tied == 1 or best[seat] == highest):
            winners += 1
    share = 1.0 / winners
    for seat in range(n):
        if totals[seat] == top and (tied == 1 or best[seat] == highest):
            rewards[b, seat] = share


@jit
def _play(g: Any, r: Any, actions: npt.NDArray[np.int64], start: bool, where: npt.NDArray[np.bool_]) -> int:
    """Step every game (or, with ``start``, deal every game anew); the first illegal game, or -1.

    ``where``, if not empty, names the games to step (one bool per game); the others are left as they are.
    """
    rng, steps, turns, mover, mask, rewards, terminated, truncated, started, outcomes, outcome_count = g[:11]
    no_decision = g[11]
    seat, phase, bag, bag_size, heights, stacks, front, front_len, front_counts, claimable, swap_open = g[12:]
    counts, _, _, swap, n, total, max_turns, max_steps = r
    batch = rng.shape[0]
    width = mask.shape[1]
    every = where.shape[0] == 0
    if not start:
        # First every action is checked, so that an illegal one changes nothing.
        for b in range(batch):
            if not every and not where[b]:
                continue
            if not (terminated[b] or truncated[b] or no_decision[b]):
                action = actions[b]
                if action < 0 or action >= width or not mask[b, action]:
                    return b
    rows = np.zeros((n, _A), np.int64)
    totals = np.zeros(n, np.int64)
    best = np.zeros(n, np.int64)
    for b in range(batch):
        if not every and not where[b]:
            continue
        for seat_ in range(n):
            rewards[b, seat_] = 0
        outcome_count[b] = 0
        ending = False  # the action just played ends the turn
        if no_decision[b] and not start:
            # The second beat of a game with no decision: nothing is played, and its end is reported.
            no_decision[b] = False
            started[b] = False
            if phase[b] == _OVER:
                terminated[b] = True
                _score(heights, stacks, rewards, rows, totals, best, b, r)
            else:
                truncated[b] = True
            continue
        fresh = start or terminated[b] or truncated[b]  # a new game: nobody has decided in it yet
        if fresh:
            # R4: a new game (after a finished one, from the same stream): every token in the bag, nothing in
            # front, empty stacks; seat 0 starts (new_game's default, R3). It begins a turn: the Table counts it.
            terminated[b] = False
            truncated[b] = False
            no_decision[b] = False
            started[b] = True
            seat[b] = 0
            phase[b] = _CHANCE
            for animal in range(_A):
                bag[b, animal] = counts[animal]
                front_counts[b, animal] = 0
            bag_size[b] = total
            for seat_ in range(n):
                heights[b, seat_] = 0
            front_len[b] = 0
            claimable[b] = -1
            swap_open[b] = False
            steps[b] = 0
            turns[b] = 1
            played = False
        else:
            # The decision, its index as ActionCodec numbers it for the seat to move.
            started[b] = False
            played = True
            action = actions[b]
            me = seat[b]
            size = front_len[b]
            if action == _DRAW:
                # R7: claims not taken are lost at the next decision.
                phase[b] = _CHANCE
                claimable[b] = -1
                swap_open[b] = False
            elif action == _STOP:
                kinds = 0
                for animal in range(_A):
                    if front_counts[b, animal] > 0:
                        kinds += 1
                if kinds == 1:
                    # R9, E2: one animal stacks at once, in the order it came.
                    height = heights[b, me]
                    for i in range(size):
                        stacks[b, me, height + i] = front[b, i]
                    heights[b, me] = height + size
                    ending = True
                else:
                    phase[b] = _PLACING
                    claimable[b] = -1
                    swap_open[b] = False
            elif action == _HERD:
                # R10: the front goes under the stack, in its order, and the turn ends.
                height = heights[b, me]
                for i in range(height - 1, -1, -1):
                    stacks[b, me, i + size] = stacks[b, me, i]
                for i in range(size):
                    stacks[b, me, i] = front[b, i]
                heights[b, me] = height + size
                ending = True
            elif action < _FIXED + n:
                # R7: the opponent's top token comes in front; R11: a claim gives up the swap.
                target = (me + action - _FIXED) % n
                heights[b, target] -= 1
                animal = claimable[b]
                front[b, size] = animal
                front_len[b] = size + 1
                front_counts[b, animal] += 1
                swap_open[b] = False
            elif action < _FIXED + 2 * n:
                # R12: the monkey goes onto the opponent's stack, their top takes its place last in front.
                target = (me + action - _FIXED - n) % n
                top = heights[b, target] - 1
                taken = stacks[b, target, top]
                stacks[b, target, top] = _MONKEY
                front[b, size - 1] = taken
                front_counts[b, _MONKEY] -= 1
                front_counts[b, taken] += 1
                claimable[b] = -1
                swap_open[b] = False
            else:
                # R9: the first token of that animal in front goes onto the stack.
                animal = action - _FIXED - 2 * n
                at = 0
                while front[b, at] != animal:
                    at += 1
                for i in range(at, size - 1):
                    front[b, i] = front[b, i + 1]
                size -= 1
                front_len[b] = size
                front_counts[b, animal] -= 1
                height = heights[b, me]
                stacks[b, me, height] = animal
                height += 1
                kinds = 0
                for kind in range(_A):
                    if front_counts[b, kind] > 0:
                        kinds += 1
                if kinds == 1:
                    # E2: the rest is one animal, so its order is no choice: it follows at once.
                    for i in range(size):
                        stacks[b, me, height + i] = front[b, i]
                    height += size
                    ending = True
                heights[b, me] = height
        # Then, after each action: the turn's end, the Table's counters, the game's end, the limits, and
        # chance up to the next decision.
        mover[b] = -1
        for a in range(width):
            mask[b, a] = False
        while True:
            if ending:
                # R3: play goes up the seat numbers; E1: the next turn opens at a chance node; R15: or the end.
                ending = False
                following = seat[b] + 1
                seat[b] = 0 if following == n else following
                front_len[b] = 0
                for animal in range(_A):
                    front_counts[b, animal] = 0
                claimable[b] = -1
                swap_open[b] = False
                phase[b] = _CHANCE if bag_size[b] > 0 else _OVER
            if played:
                steps[b] += 1
                if phase[b] == _CHANCE and front_len[b] == 0:
                    turns[b] += 1  # R4: a state that begins a turn
            played = True
            now = phase[b]
            if now == _OVER or past_limits(turns[b], steps[b], max_turns, max_steps):
                if fresh:
                    no_decision[b] = True  # its end is reported at the next step
                elif now == _OVER:
                    terminated[b] = True
                    _score(heights, stacks, rewards, rows, totals, best, b, r)
                else:
                    truncated[b] = True
                break
            if now != _CHANCE:
                me = seat[b]
                mover[b] = me
                if now == _PLACING:
                    # R9: one Place per animal in front.
                    for animal in range(_A):
                        if front_counts[b, animal] > 0:
                            mask[b, _FIXED + 2 * n + animal] = True
                    break
                # E3: Draw (unless the bag is empty, R8), Stop, Herd for one animal in front (R10), the claims
                # of the animal just drawn (R7), the swaps of a monkey just drawn (R12).
                kinds = 0
                for animal in range(_A):
                    if front_counts[b, animal] > 0:
                        kinds += 1
                mask[b, _DRAW] = bag_size[b] > 0
                mask[b, _STOP] = True
                mask[b, _HERD] = kinds == 1
                wanted = claimable[b]
                swappable = swap_open[b]
                if wanted >= 0:
                    for offset in range(1, n):
                        other = me + offset
                        if other >= n:
                            other -= n
                        height = heights[b, other]
                        if height > 0:
                            top = stacks[b, other, height - 1]
                            if top == wanted:
                                mask[b, _FIXED + offset] = True
                            if swappable and top != _MONKEY:
                                mask[b, _FIXED + n + offset] = True
                break
            # R5: one token drawn from the bag, each as likely as any other.
            rng[b], pick = draw_below(rng[b], bag_size[b])
            animal = 0
            while pick >= bag[b, animal]:
                pick -= bag[b, animal]
                animal += 1
            outcomes[b, outcome_count[b]] = animal
            outcome_count[b] += 1
            size = front_len[b]
            if front_counts[b, animal] > 0:
                # R6: a duplicate busts; the tokens in front go back into the bag (the drawn one never left it).
                for kind in range(_A):
                    bag[b, kind] += front_counts[b, kind]
                bag_size[b] += size
                ending = True
                continue
            bag[b, animal] -= 1
            bag_size[b] -= 1
            front[b, size] = animal
            front_len[b] = size + 1
            front_counts[b, animal] += 1
            claimable[b] = animal
            # R11: a monkey that did not bust may be swapped, under rules with the swap.
            swap_open[b] = animal == _MONKEY and swap
            phase[b] = _DECIDE
    return -1


@jit
def _observe_all(g: Any, r: Any, seats: npt.NDArray[np.int64], full: bool, out: npt.NDArray[Any]) -> None:
    # cheekymonkey.cheeky.encoding, field by field: rows per seat start at the viewer's own seat.
    seat, phase, bag, bag_size, heights, stacks, _, _, front_counts, claimable, swap_open = g[12:]
    n, depth = r[4], r[5]
    for b in range(seats.shape[0]):
        for i in range(out.shape[1]):
            out[b, i] = 0
        viewer = seats[b]
        first = viewer if viewer >= 0 else 0
        if viewer >= 0:
            out[b, 0] = 1  # viewer
        at = n
        out[b, at + (seat[b] - first) % n] = 1  # to_move
        at += n
        out[b, at + phase[b]] = 1  # phase
        at += 4
        out[b, at] = bag_size[b]  # bag_size
        at += 1
        tops = at + n
        for k in range(n):  # stack_heights, stack_tops
            other = (first + k) % n
            height = heights[b, other]
            out[b, at + k] = height
            if height > 0:
                out[b, tops + k * _A + stacks[b, other, height - 1]] = 1
        at = tops + n * _A
        for animal in range(_A):  # front
            out[b, at + animal] = front_counts[b, animal]
        at += _A
        if claimable[b] >= 0:  # claimable
            out[b, at + claimable[b]] = 1
        at += _A
        out[b, at] = 1 if swap_open[b] else 0  # swap_open
        at += 1
        if not full:
            continue
        for animal in range(_A):  # bag
            out[b, at + animal] = bag[b, animal]
        at += _A
        tokens = at + n * _A
        for k in range(n):  # stack_counts, and stacks from the top down, one-hot
            other = (first + k) % n
            height = heights[b, other]
            for d in range(height):
                animal = stacks[b, other, height - 1 - d]
                out[b, at + k * _A + animal] += 1
                out[b, tokens + (k * depth + d) * _A + animal] = 1


_NO_ACTIONS: Final = np.zeros(0, np.int64)
_EVERY: Final = np.zeros(0, np.bool_)  # where=None: every game


@jit
def _heuristic(g: Any, values: npt.NDArray[np.int64], risk: float, out: npt.NDArray[np.int64]) -> None:
    # HeuristicBot.choose, clause by clause, one game at a time; the indices as ActionCodec numbers them.
    mover, mask = g[3], g[4]
    _, phase, bag, bag_size, heights, stacks, _, _, front_counts, _, _ = g[12:]
    n = heights.shape[1]
    for b in range(mover.shape[0]):
        out[b] = 0
        seat = mover[b]
        if seat < 0:
            continue
        if phase[b] == _PLACING:  # the animal in front with the most left in the bag, the lowest on a tie
            best = -1
            for animal in range(_A):
                if front_counts[b, animal] > 0 and (best < 0 or bag[b, animal] > bag[b, best]):
                    best = animal
            out[b] = _FIXED + 2 * n + best
            continue
        chosen = -1
        for s in range(n):  # the first claim, seats in their order
            offset = (s - seat) % n
            if mask[b, _FIXED + offset]:
                chosen = _FIXED + offset
                break
        if chosen < 0:
            best_value = -1
            for s in range(n):  # the swap for the most valuable top, the lowest seat on a tie
                offset = (s - seat) % n
                if mask[b, _FIXED + n + offset]:
                    value = values[stacks[b, s, heights[b, s] - 1]]
                    if value > best_value:
                        best_value = value
                        chosen = _FIXED + n + offset
        if chosen < 0 and mask[b, _DRAW]:  # a draw while the chance of a bust is at most the threshold
            busting = 0
            for animal in range(_A):
                if front_counts[b, animal] > 0:
                    busting += bag[b, animal]
            if bag_size[b] == 0 or busting / bag_size[b] <= risk:
                chosen = _DRAW
        if chosen < 0:
            chosen = _HERD if mask[b, _HERD] else _STOP
        out[b] = chosen


_PHASES: Final = tuple(Phase)


# --- the engine -----------------------------------------------------------------------------------------------


class BatchedCheekyMonkey(BatchedGame[CheekyBatchState, GameState, Action]):
    """B games of *Cheeky Monkey* at once, each exactly the scalar engine's (see the module's description).

    Args:
        players: The number of seats of every game.
        ruleset: The rules: a :class:`~cheekymonkey.Ruleset` (custom ones too), a preset's name, or None for
            the standard game.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game when this many actions, chance outcomes included, have been played.
        observation: ``"full"`` (the default) or ``"table"``: the kind :meth:`observation` gives.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
        InvalidRulesetError: If ``ruleset`` names no preset.
    """

    max_outcomes: ClassVar[int] = 2
    """A step draws at most twice in a game: the draw it asked for, and after a bust the next turn's first."""

    bots: ClassVar[tuple[str, ...]] = ("random", "heuristic")
    """The random bot and :class:`~cheekymonkey.HeuristicBot` (its default threshold) play in batched form."""

    def __init__(
        self,
        players: int,
        ruleset: Ruleset | str | None = None,
        *,
        max_turns: int | None = None,
        max_steps: int | None = None,
        observation: str | None = None,
    ) -> None:
        super().__init__(
            CHEEKY_MONKEY, players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=observation
        )
        rules: Ruleset = self.ruleset
        self._rules = (
            np.array(rules.counts, np.int32),
            np.array(rules.bonus_values, np.int64),
            rules.bonus_tiles,
            rules.swap,
            players,
            rules.total_tokens,
            self._turn_limit,
            self._step_limit,
        )

    def _state_class(self) -> type[CheekyBatchState]:
        return CheekyBatchState

    def _allocate(self, batch_size: int) -> CheekyBatchState:
        n, total = self.players, self.ruleset.total_tokens
        return CheekyBatchState(
            {
                **self._common(batch_size),
                "seat": np.zeros(batch_size, np.int32),
                "phase": np.zeros(batch_size, np.int8),
                "bag": np.zeros((batch_size, _A), np.int32),
                "bag_size": np.zeros(batch_size, np.int32),
                "heights": np.zeros((batch_size, n), np.int32),
                "stacks": np.zeros((batch_size, n, total), np.int8),
                "front": np.zeros((batch_size, total), np.int8),
                "front_len": np.zeros(batch_size, np.int32),
                "front_counts": np.zeros((batch_size, _A), np.int32),
                "claimable": np.full(batch_size, -1, np.int8),
                "swap_open": np.zeros(batch_size, np.bool_),
            }
        )

    @staticmethod
    def _games(states: CheekyBatchState) -> Any:
        return tuple([getattr(states, name) for name in CheekyBatchState.FIELDS])

    def _start(self, states: CheekyBatchState) -> None:
        _play(self._games(states), self._rules, _NO_ACTIONS, True, _EVERY)

    def _advance(self, states: CheekyBatchState, actions: npt.NDArray[np.int64]) -> int:
        return int(_play(self._games(states), self._rules, actions, False, _EVERY))

    def _advance_where(
        self, states: CheekyBatchState, actions: npt.NDArray[np.int64], where: npt.NDArray[np.bool_]
    ) -> int:
        return int(_play(self._games(states), self._rules, actions, False, where))

    def _random_bot_mask(self, states: CheekyBatchState) -> npt.NDArray[np.bool_]:
        # The random bot never draws when every token left in the bag matches one in front (R22: a sure bust).
        mask = states.legal_action_mask.copy()
        sure_bust = ~((states.bag > 0) & (states.front_counts == 0)).any(axis=1)
        mask[:, _DRAW] &= ~sure_bust
        return mask

    def _other_bot_mask(self, states: CheekyBatchState, bot: str) -> npt.NDArray[np.bool_]:
        # The heuristic bot chooses without chance: its one action, where somebody decides.
        mask = np.zeros_like(states.legal_action_mask)
        rows = np.flatnonzero(states.current_player >= 0)
        mask[rows, self.heuristic_actions(states)[rows]] = True
        return mask

    def heuristic_actions(
        self, states: CheekyBatchState, risk: float = 0.3, out: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.int64]:
        """:class:`~cheekymonkey.HeuristicBot`'s action index in every game (0 where nobody decides), compiled.

        Args:
            states: The games.
            risk: The bot's threshold (its default); the highest chance of a bust it draws at.
            out: An int64 array of one entry per game to write into, or None for a new one.

        Raises:
            InvalidValueError: If ``risk`` is not strictly between 0 and 1, or ``out`` has the wrong shape.
        """
        self._check_states(states)
        if isinstance(risk, bool) or not isinstance(risk, int | float) or not 0 < risk < 1:
            raise InvalidValueError(f"risk must be a number strictly between 0 and 1, got {risk!r}")
        if out is None:
            out = np.empty(states.batch_size, np.int64)
        elif not isinstance(out, np.ndarray) or out.shape != (states.batch_size,) or out.dtype != np.int64:
            raise InvalidValueError(f"out must be an int64 array of {states.batch_size} entries")
        _heuristic(self._games(states), self._rules[1], float(risk), out)
        return out

    def _observe(self, states: CheekyBatchState, seats: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        _observe_all(self._games(states), self._rules, seats, self.observation_kind == "full", out)

    def decode(self, states: CheekyBatchState, index: int) -> GameState:
        """Game ``index`` of the batch as a :class:`~cheekymonkey.GameState`, built (and so checked) by its constructor.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch.
        """
        i = self._check_index(states, index)
        heights = states.heights[i].tolist()
        stacks = tuple(
            tuple(map(ANIMALS.__getitem__, states.stacks[i, seat, : heights[seat]].tolist()))
            for seat in range(self.players)
        )
        front = tuple(map(ANIMALS.__getitem__, states.front[i, : states.front_len[i]].tolist()))
        claimable = int(states.claimable[i])
        return GameState(
            self.ruleset,
            int(states.seat[i]),
            _PHASES[states.phase[i]],
            tuple(states.bag[i].tolist()),
            stacks,
            front,
            None if claimable < 0 else ANIMALS[claimable],
            bool(states.swap_open[i]),
        )

    def put(self, states: CheekyBatchState, index: int, state: GameState, *, steps: int = 0, turns: int = 1) -> None:
        """Set game ``index`` of the batch to ``state``, a decision of a game with this engine's seats and rules.

        The game then goes on from there; ``steps`` and ``turns`` are its counters for the limits (a fresh
        count by default). For tests, and to play batched games on from chosen positions.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch, or ``state`` is not a decision
                (deciding or placing) of a game with this engine's seats and rules.
        """
        i = self._check_index(states, index)
        if not isinstance(state, GameState) or state.players != self.players or state.ruleset != self.ruleset:
            raise InvalidValueError(f"expected a {self.players}-seat state under this engine's rules, got {state!r}")
        if state.phase is not Phase.DECIDE and state.phase is not Phase.PLACING:
            raise InvalidValueError(f"only a decision can be put in a batch, not a state in phase {state.phase.name}")
        for name, count in (("steps", steps), ("turns", turns)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise InvalidValueError(f"{name} must be a whole number, got {count!r}")
        states.seat[i] = state.seat
        states.phase[i] = int(state.phase)
        states.bag[i] = state.bag
        states.bag_size[i] = state.bag_size
        for seat, stack in enumerate(state.stacks):
            states.heights[i, seat] = len(stack)
            states.stacks[i, seat, : len(stack)] = [int(a) for a in stack]
        states.front_len[i] = len(state.front)
        states.front[i, : len(state.front)] = [int(a) for a in state.front]
        states.front_counts[i] = [state.front.count(a) for a in ANIMALS]
        states.claimable[i] = -1 if state.claimable is None else int(state.claimable)
        states.swap_open[i] = state.swap_open
        states.steps[i] = steps
        states.turns[i] = turns
        states.terminated[i] = False
        states.truncated[i] = False
        states.started[i] = False
        states.no_decision[i] = False
        states.rewards[i] = 0
        states.outcome_count[i] = 0
        states.current_player[i] = state.seat
        states.legal_action_mask[i] = self.encoding.action_mask(state)

    def outcome_action(self, outcome: int) -> Reveal:
        """``Reveal`` of the animal with number ``outcome`` (the chance outcome's index, R5)."""
        return REVEALS[outcome]
