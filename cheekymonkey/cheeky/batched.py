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

import math
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from cheekymonkey.batched import BatchedGame, BatchState, draw_below, jit, past_limits
from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.actions import REVEALS, Action, Reveal
from cheekymonkey.cheeky.bots.evaluation import _DRAWS_PER_TURN, _SHARPNESS
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
_NO_VALUES: Final = np.zeros((0, 0), np.float64)  # values=None: no candidate's value kept
_EVERY: Final = np.zeros(0, np.bool_)  # where=None: every game


@jit
def _random_bot(legal: Any, bag: Any, front_counts: Any, out: npt.NDArray[np.bool_]) -> None:
    # The random bot's choices: the legal actions, but never a draw when every token left in the bag matches
    # one in front (R22: a sure bust).
    for b in range(legal.shape[0]):
        for a in range(legal.shape[1]):
            out[b, a] = legal[b, a]
        sure_bust = True
        for animal in range(bag.shape[1]):
            if bag[b, animal] > 0 and front_counts[b, animal] == 0:
                sure_bust = False
                break
        if sure_bust:
            out[b, _DRAW] = False


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


# --- the expectimax bot's search, compiled ---------------------------------------------------------------------
# ExpectimaxBot.choose (cheekymonkey/cheeky/bots/expectimax.py) and the position value it reads
# (cheekymonkey/cheeky/bots/evaluation.py), clause by clause, one game at a time. The position searched lives in
# one int64 work array, changed in place by each move tried and put back after it; the evaluation's numbers in
# one float64 array. Two arrays per call, not one per field: numba counts the references to every array passed
# to a compiled function, and the search makes several calls per position it reaches. The floating-point sums
# are made in the scalar bot's order, so that its values are the scalar bot's to the last bit, and its
# choices, ties included, the same.
#
# The work array, for n seats and T tokens: the bag, the front's counts, the bag an evaluation reads, then
# single numbers, the rule set's counts and tile values, then per seat (n each): heights, the root's heights,
# turns before the seat plays again, a column of counts; per seat and animal (8n each): the stacks' counts,
# the root's, the counts an evaluation reads; and the stacks themselves (nT).
_X_BAG: Final = 0
_X_FRONT: Final = 8
_X_EVAL_BAG: Final = 16
_X_IN_BAG: Final = 24
_X_FRONT_LEN: Final = 25
_X_CLAIMABLE: Final = 26
_X_SWAP_OPEN: Final = 27
_X_ME: Final = 28
_X_N: Final = 29
_X_T: Final = 30
_X_TILES: Final = 31
_X_SWAP: Final = 32
_X_EVAL_IN_BAG: Final = 33
_X_COUNTS: Final = 40
_X_VALUES: Final = 48
_X_SEATS: Final = 56  # heights start here; the other blocks follow at multiples of n
# The float array: the root's points per seat (n), the root's tile shares (8n, by animal), points (n), shares (n).


@jit
def _x_shares(w: Any, f: Any, column: int, left: int, n: int, out: int) -> None:
    # evaluation._shares: each seat's share of one tile from its count (w[column + seat]) and the tokens left.
    best = w[column]
    for s in range(1, n):
        if w[column + s] > best:
            best = w[column + s]
    if left == 0:
        # R16: every token stacked, the tile is settled: one sole leader, or nobody.
        leaders = 0
        for s in range(n):
            if w[column + s] == best:
                leaders += 1
        for s in range(n):
            f[out + s] = 1.0 if w[column + s] == best and leaders == 1 and best > 0 else 0.0
        return
    beta = _SHARPNESS / math.sqrt(left)
    total = 0.0
    for s in range(n):
        weight = math.exp(beta * (w[column + s] - best))
        f[out + s] = weight
        total += weight
    for s in range(n):
        f[out + s] = f[out + s] / total


@jit
def _x_points(w: Any, f: Any, add: bool) -> None:
    # evaluation._Evaluator._points: each seat's tokens and expected tiles, into f's points; with ``add`` the
    # player's stack holds the front too. The counts an evaluation reads are left in the work array.
    n = w[_X_N]
    me = w[_X_ME]
    heights = _X_SEATS
    root_heights = heights + n
    rows = heights + 4 * n
    root_rows = rows + 8 * n
    current = root_rows + 8 * n
    column = heights + 3 * n
    points = 9 * n
    shares = 10 * n
    for s in range(n):
        mine = add and s == me
        height = w[heights + s] + (w[_X_FRONT_LEN] if mine else 0)
        value = f[s]
        if height != w[root_heights + s]:
            value += height - w[root_heights + s]  # R17: a point per token
        f[points + s] = value
        for a in range(_A):
            w[current + s * _A + a] = w[rows + s * _A + a] + (w[_X_FRONT + a] if mine else 0)
    if not w[_X_TILES]:
        return
    for a in range(_A):  # the animals whose counts changed, in animal order, as Python iterates a set of them
        if w[_X_COUNTS + a] == 0:
            continue
        moved = False
        stacked = 0
        for s in range(n):
            count = w[current + s * _A + a]
            w[column + s] = count
            stacked += count
            if count != w[root_rows + s * _A + a]:
                moved = True
        if moved:
            _x_shares(w, f, column, w[_X_COUNTS + a] - stacked, n, shares)
            value = w[_X_VALUES + a]
            for s in range(n):
                f[points + s] += value * (f[shares + s] - f[n + a * n + s])


@jit
def _x_exposure(w: Any, f: Any, seat: int, top: int, run: int, in_bag: int) -> float:
    # evaluation._Evaluator._exposure: what ``seat`` expects to lose from its top (and the run under it) (R7).
    n = w[_X_N]
    turns = w[_X_SEATS + 2 * n + seat]
    count = w[_X_EVAL_BAG + top]
    if turns == 0 or count == 0:
        return 0.0
    risk = 1.0 - math.pow(1.0 - count / in_bag, _DRAWS_PER_TURN * turns)
    loss = float(run)
    if w[_X_TILES]:
        column = _X_SEATS + 3 * n
        current = _X_SEATS + 20 * n
        shares = 10 * n
        stacked = 0
        for s in range(n):
            c = w[current + s * _A + top]
            w[column + s] = c
            stacked += c
        left = w[_X_COUNTS + top] - stacked
        _x_shares(w, f, column, left, n, shares)
        before = f[shares + seat]
        w[column + seat] -= run
        _x_shares(w, f, column, left + run, n, shares)
        after = f[shares + seat]
        loss += w[_X_VALUES + top] * (before - after)
    return risk * loss


@jit
def _x_top(w: Any, seat: int) -> int:
    # The animal on top of a seat's stack (not empty).
    n = w[_X_N]
    return int(w[_X_SEATS + 28 * n + seat * w[_X_T] + w[_X_SEATS + seat] - 1])


@jit
def _x_run(w: Any, seat: int) -> int:
    # How many tokens of the top's animal lie together at the top of a seat's stack (not empty) (R7).
    n = w[_X_N]
    start = _X_SEATS + 28 * n + seat * w[_X_T]
    height = w[_X_SEATS + seat]
    top = w[start + height - 1]
    run = 1
    while run < height and w[start + height - 1 - run] == top:
        run += 1
    return run


@jit
def _x_lead(w: Any, f: Any, me: int, n: int) -> float:
    # The player's points less the highest of the others' (evaluation._strongest).
    points = 9 * n
    strongest = -math.inf
    for s in range(n):
        if s != me and (strongest == -math.inf or f[points + s] > strongest):
            strongest = f[points + s]
    return float(f[points + me] - strongest)


@jit
def _x_value(w: Any, f: Any, herd: bool) -> float:
    # evaluation._Evaluator.value: the player's lead in the position, the bag the one at _X_EVAL_BAG; with
    # ``herd``, the front gone under the player's stack (R10, one animal in front).
    n = w[_X_N]
    me = w[_X_ME]
    _x_points(w, f, herd)
    in_bag = w[_X_EVAL_IN_BAG]
    if in_bag:
        points = 9 * n
        for s in range(n):
            height = w[_X_SEATS + s]
            if herd and s == me:
                animal = 0
                while w[_X_FRONT + animal] == 0:
                    animal += 1
                if height > 0:
                    top = _x_top(w, s)
                    run = _x_run(w, s)
                    if run == height and top == animal:
                        run += w[_X_FRONT_LEN]
                else:
                    top = animal
                    run = w[_X_FRONT_LEN]
            elif height > 0:
                top = _x_top(w, s)
                run = _x_run(w, s)
            else:
                continue
            f[points + s] -= _x_exposure(w, f, s, top, run, in_bag)
    return _x_lead(w, f, me, n)


@jit
def _x_stacking_lead(w: Any, f: Any) -> float:
    # evaluation.best_stack's common part for every order of the front (R9): the bag as it is, each opponent's
    # top less its exposure, and the mover's lead from that; each order then takes its own top's exposure off.
    n = w[_X_N]
    me = w[_X_ME]
    for a in range(_A):
        w[_X_EVAL_BAG + a] = w[_X_BAG + a]
    in_bag = w[_X_IN_BAG]
    w[_X_EVAL_IN_BAG] = in_bag
    _x_points(w, f, True)
    points = 9 * n
    if in_bag:
        for s in range(n):
            if s != me and w[_X_SEATS + s] > 0:
                f[points + s] -= _x_exposure(w, f, s, _x_top(w, s), _x_run(w, s), in_bag)
    return _x_lead(w, f, me, n)


@jit
def _x_kinds(w: Any) -> int:
    # How many kinds of animal are in front.
    kinds = 0
    for a in range(_A):
        if w[_X_FRONT + a] > 0:
            kinds += 1
    return kinds


@jit
def _x_stop(w: Any, f: Any) -> tuple[float, int]:
    # expectimax._best_stacking and evaluation.best_stack: the value of stacking the front in the best order
    # (R9), and that order's top. An order per animal in front as its top; they are tried fewest in the bag
    # first (the higher animal on a tie), and the first of the best wins.
    me = w[_X_ME]
    in_bag = w[_X_IN_BAG]
    lead = _x_stacking_lead(w, f)
    kinds = 0
    first = -1
    for a in range(_A):
        if w[_X_FRONT + a] > 0:
            kinds += 1
            if first < 0 or w[_X_BAG + a] <= w[_X_BAG + first]:
                first = a
    if not in_bag:
        return lead, first
    height = w[_X_SEATS + me]
    below = -1
    under = 0
    if height > 0:
        below = _x_top(w, me)
        under = _x_run(w, me)
    best = -1
    best_value = -math.inf
    for a in range(_A):
        if w[_X_FRONT + a] == 0:
            continue
        run = 1
        if kinds == 1:
            run = w[_X_FRONT + a] + (under if below == a else 0)
        value = lead - _x_exposure(w, f, me, a, run, in_bag)
        earlier = best < 0 or w[_X_BAG + a] < w[_X_BAG + best] or (w[_X_BAG + a] == w[_X_BAG + best] and a > best)
        if value > best_value or (value == best_value and earlier):
            best = a
            best_value = value
    return best_value, best


@jit
def _x_ends(w: Any, f: Any) -> float:
    # The best way to end the turn from the position: stop, or herd with one animal in front (R9, R10).
    best = _x_stop(w, f)[0]
    if _x_kinds(w) == 1:
        for a in range(_A):
            w[_X_EVAL_BAG + a] = w[_X_BAG + a]
        w[_X_EVAL_IN_BAG] = w[_X_IN_BAG]
        value = _x_value(w, f, True)
        if value > best:
            best = value
    return best


@jit
def _x_claim_all(w: Any, st: Any, at: int) -> None:
    # R7: every claim open, seat by seat, each seat's run of the animal as far as it goes (a claim gives the swap
    # up, R11); how many from each seat into st[at:at + n]. The bot takes them one after another, as the only
    # candidate after the first; the chain ends in the same place in any order.
    n = w[_X_N]
    me = w[_X_ME]
    animal = w[_X_CLAIMABLE]
    rows = _X_SEATS + 4 * n
    taken = 0
    for s in range(n):
        count = 0
        if animal >= 0 and s != me:
            while w[_X_SEATS + s] > 0 and _x_top(w, s) == animal:
                w[_X_SEATS + s] -= 1
                w[rows + s * _A + animal] -= 1
                count += 1
        st[at + s] = count
        taken += count
    if taken:
        w[_X_FRONT + animal] += taken
        w[_X_FRONT_LEN] += taken
        w[_X_SWAP_OPEN] = 0


@jit
def _x_unclaim_all(w: Any, st: Any, at: int, swappable: int) -> None:
    # The claims of _x_claim_all taken back.
    n = w[_X_N]
    animal = w[_X_CLAIMABLE]
    rows = _X_SEATS + 4 * n
    for s in range(n):
        count = st[at + s]
        if count:
            w[_X_SEATS + s] += count
            w[rows + s * _A + animal] += count
            w[_X_FRONT + animal] -= count
            w[_X_FRONT_LEN] -= count
    w[_X_SWAP_OPEN] = swappable


@jit
def _x_swap(w: Any, target: int) -> int:
    # R12: the monkey just drawn onto ``target``'s stack, its top in the monkey's place in front; that top.
    n = w[_X_N]
    rows = _X_SEATS + 4 * n
    at = _X_SEATS + 28 * n + target * w[_X_T] + w[_X_SEATS + target] - 1
    taken = int(w[at])
    w[at] = _MONKEY
    w[rows + target * _A + taken] -= 1
    w[rows + target * _A + _MONKEY] += 1
    w[_X_FRONT + _MONKEY] -= 1
    w[_X_FRONT + taken] += 1
    w[_X_CLAIMABLE] = -1
    w[_X_SWAP_OPEN] = 0
    return taken


@jit
def _x_unswap(w: Any, target: int, taken: int) -> None:
    # The swap of _x_swap taken back.
    n = w[_X_N]
    rows = _X_SEATS + 4 * n
    at = _X_SEATS + 28 * n + target * w[_X_T] + w[_X_SEATS + target] - 1
    w[at] = taken
    w[rows + target * _A + taken] += 1
    w[rows + target * _A + _MONKEY] -= 1
    w[_X_FRONT + _MONKEY] += 1
    w[_X_FRONT + taken] -= 1
    w[_X_CLAIMABLE] = _MONKEY
    w[_X_SWAP_OPEN] = 1


@jit
def _x_draw(w: Any, f: Any, st: Any, fl: Any, depth: int) -> float:
    """ExpectimaxBot's value of a draw, looking ``depth`` draws ahead (1 or more), in the position ``w``.

    A loop over an explicit stack, not a recursion (numba's disk cache cannot hold a recursive function). Each
    level of the stack is a draw: it goes through the animals the bag may give (R5); for each, through the
    candidates of the position reached (all the claims, or none; each swap); for each, the best end of the
    turn, and a draw one level down while the depth allows. A level's numbers in ``st`` (ints) and ``fl``
    (floats): the animal drawn, the candidate tried, the busting tokens, the bag's size, the claimable animal
    and the swap before the draw, the swap's target and the token it took, the claims by seat; the sum of the
    values, the best candidate's value, and the ends' value while a draw below is valued.
    """
    n = w[_X_N]
    me = w[_X_ME]
    frame = 8 + n
    level = 0
    returning = False
    below = 0.0
    st[0] = -1
    st[2] = 0
    st[3] = w[_X_IN_BAG]
    st[4] = w[_X_CLAIMABLE]
    st[5] = w[_X_SWAP_OPEN]
    fl[0] = 0.0
    while True:
        at = level * frame
        here = 3 * level
        animal = st[at]
        if returning:
            # The draw below is valued: the candidate's value is the best of it and the turn's ends.
            returning = False
            value = fl[here + 2]
            if below > value:
                value = below
            if st[at + 1] == 0:
                _x_unclaim_all(w, st, at + 8, 1 if animal == _MONKEY and w[_X_SWAP] else 0)
            else:
                _x_unswap(w, st[at + 6], st[at + 7])
            if value > fl[here + 1]:
                fl[here + 1] = value
        tried = False
        if animal >= 0:
            # The next candidate of the position the animal drawn reached: all its claims (0), or a swap (1 + seat).
            k = st[at + 1] + 1
            if k == 0:
                _x_claim_all(w, st, at + 8)
                tried = True
            elif animal == _MONKEY and w[_X_SWAP]:
                while k <= n:
                    s = k - 1
                    if s != me and w[_X_SEATS + s] > 0 and _x_top(w, s) != _MONKEY:
                        st[at + 6] = s
                        st[at + 7] = _x_swap(w, s)
                        tried = True
                        break
                    k += 1
            st[at + 1] = k
        if tried:
            ends = _x_ends(w, f)
            if depth - level > 1 and w[_X_IN_BAG] > 0:
                # Past the claims or the swap, a draw one level down.
                fl[here + 2] = ends
                level += 1
                at = level * frame
                st[at] = -1
                st[at + 2] = 0
                st[at + 3] = w[_X_IN_BAG]
                st[at + 4] = w[_X_CLAIMABLE]
                st[at + 5] = w[_X_SWAP_OPEN]
                fl[3 * level] = 0.0
                continue
            if st[at + 1] == 0:
                _x_unclaim_all(w, st, at + 8, 1 if animal == _MONKEY and w[_X_SWAP] else 0)
            else:
                _x_unswap(w, st[at + 6], st[at + 7])
            if ends > fl[here + 1]:
                fl[here + 1] = ends
            continue
        if animal >= 0:
            # Every candidate tried: the animal's draw back in the bag, its value weighted by its tokens.
            count = w[_X_BAG + animal] + 1
            w[_X_BAG + animal] = count
            w[_X_IN_BAG] += 1
            w[_X_FRONT + animal] -= 1
            w[_X_FRONT_LEN] -= 1
            fl[here] += count * fl[here + 1]
        a = animal + 1
        while a < _A:
            count = w[_X_BAG + a]
            if count > 0:
                if w[_X_FRONT + a] == 0:
                    break
                st[at + 2] += count  # R6: a duplicate of a token in front busts
            a += 1
        if a < _A:
            # The next animal the bag may give (R5): drawn, and open to claims and, a monkey, to the swap.
            w[_X_BAG + a] -= 1
            w[_X_IN_BAG] -= 1
            w[_X_FRONT + a] += 1
            w[_X_FRONT_LEN] += 1
            w[_X_CLAIMABLE] = a
            w[_X_SWAP_OPEN] = 1 if a == _MONKEY and w[_X_SWAP] else 0
            st[at] = a
            st[at + 1] = -1
            fl[here + 1] = -math.inf
            continue
        # Every animal drawn: the busting ones (R6: every bust the same position, the front back in the bag).
        w[_X_CLAIMABLE] = st[at + 4]
        w[_X_SWAP_OPEN] = st[at + 5]
        value = float(fl[here])
        busting = int(st[at + 2])
        if busting:
            for b in range(_A):
                w[_X_EVAL_BAG + b] = w[_X_BAG + b] + w[_X_FRONT + b]
            w[_X_EVAL_IN_BAG] = st[at + 3] + w[_X_FRONT_LEN]
            value += busting * _x_value(w, f, False)
        value = value / float(st[at + 3])
        if level == 0:
            return value
        level -= 1
        returning = True
        below = value


@jit
def _x_placings(w: Any, f: Any, found: npt.NDArray[np.float64], b: int) -> None:
    # While placing (two animals or more in front, R9): the value of placing each animal first, then the best
    # order, into found[b]. An order's value is the player's lead less its top's exposure (_x_stop): the same
    # for every order with that top over another animal, so several first tokens may share the best value.
    n = w[_X_N]
    me = w[_X_ME]
    in_bag = w[_X_IN_BAG]
    lead = _x_stacking_lead(w, f)
    kinds = _x_kinds(w)
    for first in range(_A):
        if w[_X_FRONT + first] == 0:
            continue
        left = kinds - (1 if w[_X_FRONT + first] == 1 else 0)  # the animals still in front after it
        best = -math.inf
        for top in range(_A):
            count = w[_X_FRONT + top] - (1 if top == first else 0)
            if count == 0:
                continue
            # The rest is one animal (not the first's) and follows at once (E2): a run of it all on top.
            run = count if left == 1 else 1
            value = lead - (_x_exposure(w, f, me, top, run, in_bag) if in_bag else 0.0)
            if value > best:
                best = value
        found[b, _FIXED + 2 * n + first] = best


@jit
def _x_turn(w: Any, f: Any, st: Any, fl: Any, depth: int) -> float:
    # ExpectimaxBot._value of a position with no claim or swap open: the best end of the turn, or a draw.
    best = _x_ends(w, f)
    if depth > 0 and w[_X_IN_BAG] > 0:
        value = _x_draw(w, f, st, fl, depth)
        if value > best:
            best = value
    return best


@jit
def _expectimax(
    g: Any, r: Any, depth: int, mover: npt.NDArray[np.int32], out: npt.NDArray[np.int64], found: npt.NDArray[np.float64]
) -> None:
    # ExpectimaxBot.choose in every game where ``mover`` names a seat; its action index into ``out``, 0 elsewhere;
    # and, if ``found`` has a row per game, the values of the candidates it weighed there (NaN for the others).
    keep = found.shape[0] > 0
    _, phase, bag, bag_size, heights, stacks, _, front_len, front_counts, claimable, swap_open = g[12:]
    counts, values, tiles, swap, n, total, _, _ = r
    w = np.zeros(_X_SEATS + 28 * n + n * total, np.int64)
    f = np.zeros(11 * n, np.float64)
    frame = 8 + n
    st = np.zeros((depth + 1) * frame, np.int64)
    fl = np.zeros(3 * (depth + 1), np.float64)
    claims = depth * frame + 8  # the root's claims
    candidates = np.zeros(2 * n + 3, np.int64)
    root_heights = _X_SEATS + n
    turns = _X_SEATS + 2 * n
    column = _X_SEATS + 3 * n
    rows = _X_SEATS + 4 * n
    root_rows = rows + 8 * n
    places = _X_SEATS + 28 * n
    shares = 10 * n
    w[_X_N] = n
    w[_X_T] = total
    w[_X_TILES] = 1 if tiles else 0
    w[_X_SWAP] = 1 if swap else 0
    for a in range(_A):
        w[_X_COUNTS + a] = counts[a]
        w[_X_VALUES + a] = values[a]
    for b in range(mover.shape[0]):
        out[b] = 0
        if keep:
            for a in range(found.shape[1]):
                found[b, a] = math.nan
        me = mover[b]
        if me < 0:
            continue
        # The root: the position, and the evaluator's numbers for it (evaluation._Evaluator.__init__).
        w[_X_ME] = me
        for a in range(_A):
            w[_X_BAG + a] = bag[b, a]
            w[_X_FRONT + a] = front_counts[b, a]
        w[_X_IN_BAG] = bag_size[b]
        w[_X_FRONT_LEN] = front_len[b]
        w[_X_CLAIMABLE] = claimable[b]
        w[_X_SWAP_OPEN] = 1 if swap_open[b] else 0
        following = (me + 1) % n
        for s in range(n):
            height = heights[b, s]
            w[_X_SEATS + s] = height
            w[root_heights + s] = height
            w[turns + s] = (s - following) % n  # R7: the opponents' turns before the seat plays again
            for a in range(_A):
                w[rows + s * _A + a] = 0
            for i in range(height):
                animal = stacks[b, s, i]
                w[places + s * total + i] = animal
                w[rows + s * _A + animal] += 1
            for a in range(_A):
                w[root_rows + s * _A + a] = w[rows + s * _A + a]
            f[s] = float(height)  # R17: a point per token
        if tiles:
            for a in range(_A):
                if counts[a] == 0:
                    continue
                stacked = 0
                for s in range(n):
                    w[column + s] = w[rows + s * _A + a]
                    stacked += w[column + s]
                _x_shares(w, f, column, counts[a] - stacked, n, shares)
                for s in range(n):
                    f[n + a * n + s] = f[shares + s]
                    f[s] += values[a] * f[shares + s]  # R16: the tile's value, by the chance of holding it
        if phase[b] == _PLACING:
            # The next token of the best order: the top's duplicates lowest, then the others most likely
            # drawn first (the most in the bag, the lower animal on a tie), the top last.
            top = _x_stop(w, f)[1]
            first = top
            if front_counts[b, top] == 1:
                for a in range(_A):
                    if a != top and front_counts[b, a] > 0 and (first == top or bag[b, a] > bag[b, first]):
                        first = a
            out[b] = _FIXED + 2 * n + first
            if keep:
                _x_placings(w, f, found, b)
            continue
        # The candidates (expectimax._candidates): the first claim by seat number and the swaps; or stop, herd,
        # the swaps, and the draw last.
        count = 0
        wanted = claimable[b]
        if wanted >= 0:
            for s in range(n):
                if s != me and heights[b, s] > 0 and stacks[b, s, heights[b, s] - 1] == wanted:
                    candidates[0] = _FIXED + (s - me) % n
                    count = 1
                    break
        claiming = count == 1
        if not claiming:
            candidates[0] = _STOP
            count = 1
            kinds = 0
            for a in range(_A):
                if front_counts[b, a] > 0:
                    kinds += 1
            if kinds == 1:
                candidates[count] = _HERD
                count += 1
        if swap_open[b]:
            for s in range(n):
                if s != me and heights[b, s] > 0 and stacks[b, s, heights[b, s] - 1] != _MONKEY:
                    candidates[count] = _FIXED + n + (s - me) % n
                    count += 1
        if not claiming and bag_size[b] > 0:
            candidates[count] = _DRAW
            count += 1
        if count == 1:
            out[b] = candidates[0]
            continue
        best = candidates[0]
        best_value = -math.inf
        for i in range(count):
            action = candidates[i]
            if action == _DRAW:
                value = _x_draw(w, f, st, fl, depth)
            elif action == _STOP:
                value = _x_stop(w, f)[0]
            elif action == _HERD:
                for a in range(_A):
                    w[_X_EVAL_BAG + a] = w[_X_BAG + a]
                w[_X_EVAL_IN_BAG] = w[_X_IN_BAG]
                value = _x_value(w, f, True)
            elif action < _FIXED + n:
                _x_claim_all(w, st, claims)
                value = _x_turn(w, f, st, fl, depth)
                _x_unclaim_all(w, st, claims, 1 if swap_open[b] else 0)
            else:
                target = (me + action - _FIXED - n) % n
                taken = _x_swap(w, target)
                value = _x_turn(w, f, st, fl, depth)
                _x_unswap(w, target, taken)
            if keep:
                found[b, action] = value
            # Ties go to the earlier candidate: a draw must gain something over stopping.
            if value > best_value + 1e-12:
                best = action
                best_value = value
        out[b] = best


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

    bots: ClassVar[tuple[str, ...]] = ("random", "heuristic", "expectimax")
    """The random bot, :class:`~cheekymonkey.HeuristicBot` (its default threshold) and
    :class:`~cheekymonkey.ExpectimaxBot` (its default depth) play in batched form."""

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
        mask = np.empty_like(states.legal_action_mask)
        _random_bot(states.legal_action_mask, states.bag, states.front_counts, mask)
        return mask

    def _other_bot_mask(self, states: CheekyBatchState, bot: str) -> npt.NDArray[np.bool_]:
        # The heuristic and expectimax bots choose without chance: their one action, where somebody decides.
        mask = np.zeros_like(states.legal_action_mask)
        rows = np.flatnonzero(states.current_player >= 0)
        chosen = self.expectimax_actions(states) if bot == "expectimax" else self.heuristic_actions(states)
        mask[rows, chosen[rows]] = True
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

    def expectimax_actions(
        self,
        states: CheekyBatchState,
        depth: int = 2,
        out: npt.NDArray[np.int64] | None = None,
        where: npt.NDArray[np.bool_] | None = None,
        values: npt.NDArray[np.float64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """:class:`~cheekymonkey.ExpectimaxBot`'s action index in every game (0 where nobody decides), compiled.

        The same search as the bot's, to the same values, so the same choice, ties included: the rest of
        the turn ``depth`` draws ahead, every draw averaged over the bag's exact odds, and the positions where
        the turn ends valued by :func:`~cheekymonkey.cheeky.bots.evaluation.position_value`.

        Args:
            states: The games.
            depth: How many draws ahead to look (the bot's default, 2), 1 or more.
            out: An int64 array of one entry per game to write into, or None for a new one.
            where: One bool per game: search only where True (0 elsewhere), or None for every game. The
                search costs far more than the heuristic rule, so a caller that needs some games only says so.
            values: A float64 array of one row per game and one column per action index, or None: where the
                bot weighed two or more candidates, it receives their values (:meth:`ExpectimaxBot.action_values
                <cheekymonkey.ExpectimaxBot.action_values>`' numbers), and while placing the value of
                placing each animal first and then the best order; NaN everywhere else.

        Raises:
            InvalidValueError: If ``depth`` is not a positive integer, or ``out``, ``where`` or ``values`` has
                the wrong shape.
        """
        self._check_states(states)
        if not is_whole_number(depth) or depth < 1:
            raise InvalidValueError(f"depth must be a positive integer, got {depth!r}")
        if out is None:
            out = np.empty(states.batch_size, np.int64)
        elif not isinstance(out, np.ndarray) or out.shape != (states.batch_size,) or out.dtype != np.int64:
            raise InvalidValueError(f"out must be an int64 array of {states.batch_size} entries")
        mover = states.current_player
        if where is not None:
            if not isinstance(where, np.ndarray) or where.shape != (states.batch_size,) or where.dtype != np.bool_:
                raise InvalidValueError(f"where must be a bool array of {states.batch_size} entries")
            mover = np.where(where, mover, -1).astype(mover.dtype)
        if values is None:
            values = _NO_VALUES
        elif (
            not isinstance(values, np.ndarray)
            or values.shape != (states.batch_size, self.num_actions)
            or values.dtype != np.float64
        ):
            raise InvalidValueError(f"values must be a float64 array of {states.batch_size} x {self.num_actions}")
        _expectimax(self._games(states), self._rules, depth, mover, out, values)
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
            if not is_whole_number(count) or count < 0:
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
