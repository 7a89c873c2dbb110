"""*Too Many Monkeys*, many games at once: a batched engine compiled with numba (the ``batched`` extra).

:class:`BatchedTooManyMonkeys` plays ``B`` games of one seat count and rule set side by side, with the API of
:class:`~cheekymonkey.batched.BatchedGame` (Pgx's shape: ``init``, ``step``, ``observation``). Each game
is exactly the scalar engine's (:mod:`cheekymonkey.toomany.engine`): the same rules (any
:class:`~cheekymonkey.toomany.Ruleset`, custom ones included, at 2 to 6 seats), the same states
(:meth:`~BatchedTooManyMonkeys.decode` turns a game back into a :class:`~cheekymonkey.toomany.GameState`),
the same action indices and observation vectors as the game's encoding (:mod:`cheekymonkey.toomany.encoding`),
each card revealed with exactly the probability of :func:`~cheekymonkey.toomany.chance_outcomes` (TM19,
TME10), the returns of the outcome (TME1), and the :class:`~cheekymonkey.table.Table`'s limits.
``tests/toomany/test_batched.py`` replays a million steps of batched games through the scalar engine and
compares every state, mask, observation and reward.

A game's fields lie in one row of int16 per game, :attr:`TooManyBatchState.data`, so that a game's step
reads and writes one stretch of memory; the state's properties (:attr:`~TooManyBatchState.rows`,
:attr:`~TooManyBatchState.discard`, ...) are named views of it, batch first. A step may reveal any number of
cards in a game (a turn that ends before anybody decides hands the next turn a draw, and so on; a deck of
giraffes can play whole games so), so :attr:`~cheekymonkey.batched.BatchState.outcomes` starts 32 wide and
is replaced by one twice as wide whenever a step draws more.

>>> from cheekymonkey.batched import random_legal_actions, seed_streams
>>> engine = BatchedTooManyMonkeys(3)
>>> states = engine.init(4, seed=7)
>>> states.legal_action_mask.shape, engine.observation(states).shape
((4, 30), (4, 803))
>>> player = seed_streams(8, 4)
>>> for _ in range(200):
...     states = engine.step(states, random_legal_actions(states.legal_action_mask, player))
>>> engine.decode(states, 0).players
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from cheekymonkey.batched import BatchedGame, BatchState, draw_below, jit, past_limits, pick_from_counts
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.actions import REVEALS, Action, Reveal
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, Slot, face_down
from cheekymonkey.toomany.encoding import DECLINE_INDEX, TAKE_BONUS_INDEX
from cheekymonkey.toomany.game import TOO_MANY_MONKEYS
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["BatchedTooManyMonkeys", "TooManyBatchState"]

I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
B8 = npt.NDArray[np.bool_]
_EVERY: Final = np.zeros(0, np.bool_)
"""An empty ``where``: step every game."""
F32 = npt.NDArray[np.float32]


# -- the layout of a game's row in TooManyBatchState.data ------------------------------------------------------
# One int16 row per game: the fixed fields, then each seat's row size, Skip flag and six positions, the pile,
# the pool never seen, and the discard pile bottom first. A position holds 0 for a card never seen (None), c for
# a face-up Card c, and -c for FaceDown(c). A phase is its Phase value, a card its Card value, no card 0.

_PHASE: Final = 0
_SEAT: Final = 1
_ROUND: Final = 2
_FIRST: Final = 3
_HAND: Final = 4
_PILE_SIZE: Final = 5
_RESHUFFLED: Final = 6
_DISCARD_LEN: Final = 7
_SIZES: Final = 8  # then n row sizes; n Skip flags; 6 n positions; 12 pile; 12 unseen; T discard
_K: Final = len(CARDS)
_P: Final = MAX_NUMBER


# Phases and cards as the kernels see them.
_START: Final = int(Phase.START)
_DRAW: Final = int(Phase.DRAW)
_CHOSEN_DRAW: Final = int(Phase.CHOSEN_DRAW)
_TURN_UP: Final = int(Phase.TURN_UP)
_WILD_PHASE: Final = int(Phase.WILD)
_BONUS: Final = int(Phase.BONUS)
_RACCOON_PHASE: Final = int(Phase.RACCOON)
_DISTURB: Final = int(Phase.DISTURB)
_SKIP_PHASE: Final = int(Phase.SKIP)
_OVER: Final = int(Phase.OVER)
_WILD: Final = int(Card.WILD)
_SKIP: Final = int(Card.SKIP)
_RACCOON: Final = int(Card.RACCOON)
_DND: Final = int(Card.DO_NOT_DISTURB)
_DECLINE: Final = DECLINE_INDEX
_TAKE_BONUS: Final = TAKE_BONUS_INDEX

# -- the rules, one game at a time (cheekymonkey.toomany.engine, on a row of ints) ----------------------------


@jit
def _new_game(data: I16, i: int, n: int, total: int, row_size: int, counts: I64) -> None:
    # new_game: every card in the pool never seen (TM19), the first draw pending (TM6, TM18), seat 0 first.
    data[i, _PHASE] = _DRAW
    data[i, _SEAT] = 0
    data[i, _ROUND] = 1
    data[i, _FIRST] = 0
    data[i, _HAND] = 0
    data[i, _PILE_SIZE] = total - n * row_size
    data[i, _RESHUFFLED] = 0
    data[i, _DISCARD_LEN] = 0
    for s in range(n):
        data[i, _SIZES + s] = row_size
        data[i, _SIZES + n + s] = 0
    rows = _SIZES + 2 * n
    for p in range(_P * n):
        data[i, rows + p] = 0
    pile = rows + _P * n
    for k in range(_K):
        data[i, pile + k] = 0
        data[i, pile + _K + k] = counts[k]


@jit
def _complete(data: I16, i: int, at: int, size: int) -> bool:
    # TM21: every position face up. (Loops, not all() or any() of a generator: numba compiles loops best.)
    for p in range(size):  # noqa: SIM110
        if data[i, at + p] <= 0:
            return False
    return True


@jit
def _push(data: I16, i: int, n: int, card: int) -> None:
    length = data[i, _DISCARD_LEN]
    data[i, _SIZES + 8 * n + 2 * _K + length] = card
    data[i, _DISCARD_LEN] = length + 1


@jit
def _reshuffle(data: I16, i: int, n: int) -> None:
    # TM20: the whole discard pile becomes the draw pile, its cards known and their order not.
    pile = _SIZES + 8 * n
    discard = pile + 2 * _K
    for k in range(_K):
        data[i, pile + k] = 0
    length = data[i, _DISCARD_LEN]
    for d in range(length):
        data[i, pile + data[i, discard + d] - 1] += 1
    data[i, _PILE_SIZE] = length
    data[i, _DISCARD_LEN] = 0
    data[i, _RESHUFFLED] = 1


@jit
def _end_turn(data: I16, i: int, n: int) -> None:
    # TM5: play passes to the left; TM16: a seat with a Skip waiting is passed over, its Skip discarded.
    seat = data[i, _SEAT] + 1
    if seat == n:
        seat = 0
    skips = _SIZES + n
    while data[i, skips + seat]:
        data[i, skips + seat] = 0
        _push(data, i, n, _SKIP)
        seat += 1
        if seat == n:
            seat = 0
    data[i, _SEAT] = seat
    data[i, _HAND] = 0
    length = data[i, _DISCARD_LEN]
    if length > 0:
        # TM6: a choice when the discard top is a number not face up at its position of the row.
        top = data[i, _SIZES + 8 * n + 2 * _K + length - 1]
        if top <= _P and (top > data[i, _SIZES + seat] or data[i, _SIZES + 2 * n + _P * seat + top - 1] != top):
            data[i, _PHASE] = _START
            return
    if data[i, _PILE_SIZE] == 0:
        _reshuffle(data, i, n)
    data[i, _PHASE] = _DRAW


@jit
def _won(data: I16, i: int, n: int, total: int, counts: I64, hand: int) -> None:
    # TM21-TM23: the game is won with a one-card row; else a new round, the winner's row one shorter.
    seat = data[i, _SEAT]
    if data[i, _SIZES + seat] == 1:
        data[i, _PHASE] = _OVER
        data[i, _HAND] = hand
        return
    data[i, _SIZES + seat] -= 1
    first = data[i, _FIRST] + 1
    if first == n:
        first = 0
    data[i, _ROUND] += 1
    data[i, _FIRST] = first
    data[i, _SEAT] = first
    data[i, _PHASE] = _DRAW
    data[i, _HAND] = 0
    data[i, _DISCARD_LEN] = 0
    data[i, _RESHUFFLED] = 0
    held = 0
    for s in range(n):
        held += data[i, _SIZES + s]
        data[i, _SIZES + n + s] = 0
    data[i, _PILE_SIZE] = total - held
    rows = _SIZES + 2 * n
    for p in range(_P * n):
        data[i, rows + p] = 0
    pile = rows + _P * n
    for k in range(_K):
        data[i, pile + k] = 0
        data[i, pile + _K + k] = counts[k]


@jit
def _face_up_elsewhere(data: I16, i: int, n: int, seat: int) -> bool:
    rows = _SIZES + 2 * n
    for other in range(n):
        if other != seat:
            for p in range(data[i, _SIZES + other]):
                if data[i, rows + _P * other + p] > 0:
                    return True
    return False


@jit
def _raccoon_can_take(data: I16, i: int, n: int, seat: int, k: int) -> bool:
    # TM14: k no greater than the row, its position face down, and a k in the pile below the raccoon.
    if k > data[i, _SIZES + seat] or data[i, _SIZES + 2 * n + _P * seat + k - 1] > 0:
        return False
    discard = _SIZES + 8 * n + 2 * _K
    for d in range(data[i, _DISCARD_LEN] - 1):  # noqa: SIM110
        if data[i, discard + d] == k:
            return True
    return False


@jit
def _play(data: I16, i: int, n: int, total: int, counts: I64, card: int) -> None:
    """The engine's _play: ``card`` in hand, played with everything that follows, to a decision or chance."""
    seat = data[i, _SEAT]
    size = data[i, _SIZES + seat]
    row = _SIZES + 2 * n + _P * seat
    while True:
        if card <= _P:
            if card > size:
                break  # TM9: too high
            slot = data[i, row + card - 1]
            if slot == card:
                break  # TM9: a duplicate
            if slot == _WILD:
                data[i, _PHASE] = _BONUS  # TM12
                data[i, _HAND] = card
                return
            data[i, row + card - 1] = card  # TM7
            if slot == 0:
                if _complete(data, i, row, size):
                    _won(data, i, n, total, counts, 0)
                    return
                data[i, _PHASE] = _TURN_UP  # TM19
                data[i, _HAND] = 0
                return
            card = -slot  # TM15: a card turned down comes up known
            if _complete(data, i, row, size):
                _won(data, i, n, total, counts, card)
                return
            continue
        if card == _WILD:
            # TM11: a choice if two positions or more are face down; with one, the engine places it (TM18).
            at = -1
            many = False
            for p in range(size):
                if data[i, row + p] <= 0:
                    if at >= 0:
                        many = True
                        break
                    at = p
            if many:
                data[i, _PHASE] = _WILD_PHASE
                data[i, _HAND] = _WILD
                return
            slot = data[i, row + at]
            data[i, row + at] = _WILD
            _won(data, i, n, total, counts, -slot)
            return
        if card == _RACCOON:
            _push(data, i, n, card)  # TM14: onto the pile first
            for k in range(1, _P + 1):
                if _raccoon_can_take(data, i, n, seat, k):
                    data[i, _PHASE] = _RACCOON_PHASE
                    data[i, _HAND] = 0
                    return
            _end_turn(data, i, n)
            return
        if card == _DND:
            if _face_up_elsewhere(data, i, n, seat):  # TM15
                data[i, _PHASE] = _DISTURB
                data[i, _HAND] = card
                return
        elif card == _SKIP:
            skips = _SIZES + n
            free = 0
            for other in range(n):
                if not data[i, skips + other]:
                    free += 1
            if free > 1:  # TM16, TM17: the mover has none waiting, so another free seat is an opponent
                data[i, _PHASE] = _SKIP_PHASE
                data[i, _HAND] = card
                return
        break  # TM13: a giraffe or an elephant; a Do Not Disturb or Skip with no target
    _push(data, i, n, card)
    _end_turn(data, i, n)


@jit
def _pool(data: I16, i: int, n: int) -> int:
    # chance_pool: where in the row the counts chance draws from begin (TM19, TM20).
    pile = _SIZES + 8 * n
    if data[i, _PHASE] == _TURN_UP or data[i, _RESHUFFLED] == 0:
        return pile + _K
    return pile


@jit
def _pool_size(data: I16, i: int, at: int) -> int:
    size = 0
    for k in range(_K):
        size += data[i, at + k]
    return size


@jit
def _reveal(data: I16, i: int, n: int, total: int, counts: I64, card: int) -> None:
    # The engine's _apply_reveal, for a card of the pool (the sampler draws only those).
    pile = _SIZES + 8 * n
    if data[i, _PHASE] == _TURN_UP:
        data[i, pile + _K + card - 1] -= 1
    else:
        if data[i, _RESHUFFLED]:
            data[i, pile + card - 1] -= 1
        else:
            data[i, pile + _K + card - 1] -= 1
        data[i, _PILE_SIZE] -= 1
    _play(data, i, n, total, counts, card)


@jit
def _decide(data: I16, i: int, n: int, total: int, counts: I64, action: int) -> None:
    """Apply the legal action index ``action`` (seen from the mover) to game ``i``."""
    seat = data[i, _SEAT]
    rows = _SIZES + 2 * n
    if action == 0:  # Draw (TM6, TM20)
        if data[i, _PILE_SIZE] == 0:
            _reshuffle(data, i, n)
        data[i, _PHASE] = _CHOSEN_DRAW
    elif action == 1:  # TakeDiscard (TM6)
        length = data[i, _DISCARD_LEN] - 1
        data[i, _DISCARD_LEN] = length
        _play(data, i, n, total, counts, int(data[i, _SIZES + 8 * n + 2 * _K + length]))
    elif action <= 1 + _P:  # PlaceWild (TM11)
        at = rows + _P * seat + action - 2
        slot = data[i, at]
        data[i, at] = _WILD
        if slot == 0:
            data[i, _PHASE] = _TURN_UP
            data[i, _HAND] = 0
        else:
            _play(data, i, n, total, counts, -int(slot))
    elif action == _TAKE_BONUS:  # TakeBonus (TM12)
        card = int(data[i, _HAND])
        data[i, rows + _P * seat + card - 1] = card
        _play(data, i, n, total, counts, _WILD)
    elif action < _DECLINE:  # RaccoonTake (TM14, TME3: the copy nearest the top)
        card = action - _TAKE_BONUS
        discard = _SIZES + 8 * n + 2 * _K
        length = data[i, _DISCARD_LEN]
        at = length - 2
        while data[i, discard + at] != card:
            at -= 1
        for d in range(at, length - 1):
            data[i, discard + d] = data[i, discard + d + 1]
        data[i, _DISCARD_LEN] = length - 1
        _play(data, i, n, total, counts, card)
    elif action == _DECLINE:  # TM12, TM14-TM16
        if data[i, _PHASE] != _RACCOON_PHASE:
            _push(data, i, n, int(data[i, _HAND]))
        _end_turn(data, i, n)
    elif action <= 9 + _P * n:  # TurnDown (TM15)
        offset = (action - 10) // _P
        position = (action - 10) % _P
        target = (seat + offset) % n
        at = rows + _P * target + position
        data[i, at] = -data[i, at]
        _push(data, i, n, _DND)
        _end_turn(data, i, n)
    else:  # GiveSkip (TM16)
        target = (seat + action - 9 - _P * n) % n
        data[i, _SIZES + n + target] = 1
        _end_turn(data, i, n)


@jit
def _legal(data: I16, i: int, n: int, mask: B8) -> None:
    # legal_actions, as the encoding's mask seen from the mover (TME2).
    for a in range(mask.shape[1]):
        mask[i, a] = False
    phase = data[i, _PHASE]
    seat = data[i, _SEAT]
    rows = _SIZES + 2 * n
    if phase == _START:
        mask[i, 0] = True
        mask[i, 1] = True
    elif phase == _WILD_PHASE:
        for p in range(data[i, _SIZES + seat]):
            if data[i, rows + _P * seat + p] <= 0:
                mask[i, 2 + p] = True
    elif phase == _BONUS:
        mask[i, _TAKE_BONUS] = True
        mask[i, _DECLINE] = True
    elif phase == _RACCOON_PHASE:
        for k in range(1, _P + 1):
            if _raccoon_can_take(data, i, n, seat, k):
                mask[i, _TAKE_BONUS + k] = True
        mask[i, _DECLINE] = True
    elif phase == _DISTURB:
        for offset in range(1, n):
            target = (seat + offset) % n
            for p in range(data[i, _SIZES + target]):
                if data[i, rows + _P * target + p] > 0:
                    mask[i, 10 + _P * offset + p] = True
        mask[i, _DECLINE] = True
    elif phase == _SKIP_PHASE:
        for offset in range(1, n):
            if not data[i, _SIZES + n + (seat + offset) % n]:
                mask[i, 9 + _P * n + offset] = True
        mask[i, _DECLINE] = True


# -- the heuristic bot: HeuristicBot.choose, on a row of ints ---------------------------------------------------


@jit
def _face_up(data: I16, i: int, n: int, seat: int) -> int:
    # face_up_count: the numbers and wilds lying face up in the seat's row.
    at = _SIZES + 2 * n + _P * seat
    count = 0
    for p in range(data[i, _SIZES + seat]):
        if data[i, at + p] > 0:
            count += 1
    return count


@jit
def _most_shown(data: I16, i: int, n: int, seat: int, free_only: bool) -> int:
    # _opponents_by_show's first: the opponent showing the most cards, ties to the nearer in turn order (a
    # stable sort of the seats after the mover); with free_only, of those without a Skip waiting. -1 for none.
    best = -1
    most = -1
    for offset in range(1, n):
        other = (seat + offset) % n
        if free_only and data[i, _SIZES + n + other]:
            continue
        count = _face_up(data, i, n, other)
        if count > most:
            best = offset
            most = count
    return best


@jit
def _heuristic_action(data: I16, i: int, n: int) -> int:
    """HeuristicBot's choice at game ``i``'s decision, as the encoding's index seen from the mover."""
    phase = data[i, _PHASE]
    seat = data[i, _SEAT]
    size = data[i, _SIZES + seat]
    row = _SIZES + 2 * n + _P * seat
    if phase == _START:
        # TM6: take the top when it makes progress (usable: a wild, or a number whose position does not show it).
        top = data[i, _SIZES + 8 * n + 2 * _K + data[i, _DISCARD_LEN] - 1]
        if top == _WILD or (top <= size and top <= _P and data[i, row + top - 1] != top):
            return 1
        return 0
    if phase == _WILD_PHASE:
        # TM11: a card turned down (its face known) first; else the unseen position scarcest among unseen cards.
        unseen = _SIZES + 8 * n + _K
        best = -1
        for p in range(size):
            slot = data[i, row + p]
            if slot < 0:
                return 2 + p
            if slot == 0 and (best < 0 or data[i, unseen + p] < data[i, unseen + best]):
                best = p
        return 2 + best
    if phase == _BONUS:
        return _TAKE_BONUS  # TM12: always
    if phase == _RACCOON_PHASE:
        for k in range(1, _P + 1):  # TM14: the first pick, the lowest number it may take
            if _raccoon_can_take(data, i, n, seat, k):
                return _TAKE_BONUS + k
        return _DECLINE
    if phase == _DISTURB:
        # TM15: the opponent showing the most; a number rather than a wild, the highest position.
        offset = _most_shown(data, i, n, seat, False)
        if offset < 0:
            return _DECLINE
        target = (seat + offset) % n
        at = _SIZES + 2 * n + _P * target
        number = -1
        shown = -1
        for p in range(data[i, _SIZES + target]):
            slot = data[i, at + p]
            if slot > 0:
                shown = p
                if slot != _WILD:
                    number = p
        if number >= 0:
            return 10 + _P * offset + number
        if shown >= 0:
            return 10 + _P * offset + shown
        return _DECLINE
    if phase == _SKIP_PHASE:
        offset = _most_shown(data, i, n, seat, True)  # TM16, TM17
        if offset < 0:
            return _DECLINE
        return 9 + _P * n + offset
    return 0


@jit
def _heuristic_all(data: I16, n: int, current: I32, out: I64) -> None:
    for i in range(data.shape[0]):
        out[i] = _heuristic_action(data, i, n) if current[i] >= 0 else 0


# -- the batch: steps, limits, chance, auto-reset --------------------------------------------------------------


# What _settle found: a decision or the end; a limit passed; the row of outcomes full at a chance node.
_SETTLED: Final = 0
_CUT: Final = 1
_FULL: Final = 2


@jit
def _counted(data: I16, i: int, turns: I64, steps: I64, max_turns: int, max_steps: int) -> bool:
    # The Table's count after each action, chance's included, and its one truncation rule (past_limits).
    steps[i] += 1
    phase = data[i, _PHASE]
    if phase == _START or phase == _DRAW:  # noqa: SIM109 (begins_turn; two compares, no tuple)
        turns[i] += 1
    return phase != _OVER and past_limits(turns[i], steps[i], max_turns, max_steps)


@jit
def _settle(
    data: I16,
    rng: U64,
    i: int,
    n: int,
    total: int,
    counts: I64,
    turns: I64,
    steps: I64,
    outcomes: I32,
    drawn: I32,
    max_turns: int,
    max_steps: int,
) -> int:
    """Resolve chance until a decision or the end (_SETTLED), a limit (_CUT), or a full row of outcomes (_FULL)."""
    while True:
        phase = data[i, _PHASE]
        if phase != _DRAW and phase != _CHOSEN_DRAW and phase != _TURN_UP:
            return _SETTLED
        if drawn[i] == outcomes.shape[1]:
            return _FULL
        at = _pool(data, i, n)
        rng[i], pick = draw_below(rng[i], _pool_size(data, i, at))
        card = pick_from_counts(pick, data[i, at : at + _K]) + 1
        outcomes[i, drawn[i]] = card - 1
        drawn[i] += 1
        _reveal(data, i, n, total, counts, card)
        if _counted(data, i, turns, steps, max_turns, max_steps):
            return _CUT


@jit
def _finish(
    data: I16,
    i: int,
    n: int,
    current: I32,
    terminated: B8,
    truncated: B8,
    no_decision: B8,
    rewards: F32,
    mask: B8,
    cut: bool,
    fresh: bool,
) -> None:
    # The game stopped at a decision, at its end, or cut off by a limit. A game dealt at this step that ended
    # before anybody decided in it shows a start with nothing to play; its end is reported at the next step.
    over = data[i, _PHASE] == _OVER
    if over or cut:
        current[i] = -1
        for a in range(mask.shape[1]):
            mask[i, a] = False
        if fresh:
            no_decision[i] = True
        elif over:
            terminated[i] = True
            rewards[i, data[i, _SEAT]] = 1.0  # TME1: 1 for the winner, 0 for the others
        else:
            truncated[i] = True
    else:
        current[i] = data[i, _SEAT]
        _legal(data, i, n, mask)


@jit
def _play_all(
    data: I16,
    rng: U64,
    steps: I64,
    turns: I64,
    current: I32,
    mask: B8,
    rewards: F32,
    terminated: B8,
    truncated: B8,
    started: B8,
    outcomes: I32,
    drawn: I32,
    no_decision: B8,
    actions: I64,
    start: bool,
    n: int,
    total: int,
    row_size: int,
    counts: I64,
    max_turns: int,
    max_steps: int,
    where: B8,
) -> tuple[int, int]:
    """Step every game (or those of ``where``, if it is not empty), or with ``start`` deal every one anew.

    Returns the first game whose action is illegal (before anything changes), or -1; and how many games stopped
    at a chance node with their row of outcomes full.
    """
    size = data.shape[0]
    every = where.shape[0] == 0
    if not start:
        for i in range(size):
            if not every and not where[i]:
                continue
            if not (terminated[i] or truncated[i] or no_decision[i]):
                action = actions[i]
                if action < 0 or action >= mask.shape[1] or not mask[i, action]:
                    return i, 0
    full = 0
    for i in range(size):
        if not every and not where[i]:
            continue
        drawn[i] = 0
        for s in range(n):
            rewards[i, s] = 0.0
        if no_decision[i] and not start:
            # The second beat of a game with no decision: nothing is played, and its end is reported.
            no_decision[i] = False
            started[i] = False
            if data[i, _PHASE] == _OVER:
                terminated[i] = True
                rewards[i, data[i, _SEAT]] = 1.0
            else:
                truncated[i] = True
            continue
        fresh = start or terminated[i] or truncated[i]
        cut = False
        if fresh:
            # A new game from the game's own stream: a Table's, one turn begun (the first draw), no action yet.
            terminated[i] = False
            truncated[i] = False
            no_decision[i] = False
            started[i] = True
            _new_game(data, i, n, total, row_size, counts)
            turns[i] = 1
            steps[i] = 0
        else:
            started[i] = False
            _decide(data, i, n, total, counts, actions[i])
            cut = _counted(data, i, turns, steps, max_turns, max_steps)
        status = _CUT
        if not cut:
            status = _settle(data, rng, i, n, total, counts, turns, steps, outcomes, drawn, max_turns, max_steps)
        if status == _FULL:
            full += 1
        else:
            _finish(data, i, n, current, terminated, truncated, no_decision, rewards, mask, status == _CUT, fresh)
    return -1, full


@jit
def _resume(
    data: I16,
    rng: U64,
    steps: I64,
    turns: I64,
    current: I32,
    mask: B8,
    rewards: F32,
    terminated: B8,
    truncated: B8,
    started: B8,
    outcomes: I32,
    drawn: I32,
    no_decision: B8,
    n: int,
    total: int,
    counts: I64,
    max_turns: int,
    max_steps: int,
) -> int:
    # The games a full row of outcomes stopped at a chance node go on (the row is wider now).
    full = 0
    for i in range(data.shape[0]):
        phase = data[i, _PHASE]
        if terminated[i] or truncated[i] or no_decision[i]:
            continue
        if phase != _DRAW and phase != _CHOSEN_DRAW and phase != _TURN_UP:
            continue
        status = _settle(data, rng, i, n, total, counts, turns, steps, outcomes, drawn, max_turns, max_steps)
        if status == _FULL:
            full += 1
        else:
            _finish(data, i, n, current, terminated, truncated, no_decision, rewards, mask, status == _CUT, started[i])
    return full


# -- observations: TooManyEncoding.observe, for every game ----------------------------------------------------


@jit
def _observe(data: I16, viewers: I64, out: Any, n: int, offsets: I64, depth: int) -> None:
    rows = _SIZES + 2 * n
    pile = rows + _P * n
    discard = pile + 2 * _K
    (viewer_at, to_move_at, phase_at, round_at, first_at, sizes_at, rows_at, hand_at, pile_size_at,
     reshuffled_at, pile_at, unseen_at, discard_size_at, top_at, counts_at, skips_at, discard_at) = (
        offsets[0], offsets[1], offsets[2], offsets[3], offsets[4], offsets[5], offsets[6], offsets[7],
        offsets[8], offsets[9], offsets[10], offsets[11], offsets[12], offsets[13], offsets[14], offsets[15],
        offsets[16],
    )  # fmt: skip
    for i in range(data.shape[0]):
        for e in range(out.shape[1]):
            out[i, e] = 0
        viewer = viewers[i]
        first = 0
        if viewer >= 0:
            first = viewer
            out[i, viewer_at] = 1
        out[i, to_move_at + (data[i, _SEAT] - first) % n] = 1
        out[i, phase_at + data[i, _PHASE]] = 1
        out[i, round_at] = data[i, _ROUND]
        out[i, first_at + (data[i, _FIRST] - first) % n] = 1
        for k in range(n):
            s = (first + k) % n
            size = data[i, _SIZES + s]
            out[i, sizes_at + k] = size
            for p in range(size):
                slot = data[i, rows + _P * s + p]
                if slot == 0:
                    entry = 4  # never seen
                elif slot == -_WILD:
                    entry = 3  # a wild turned down
                elif slot < 0:
                    entry = 2  # a number turned down
                elif slot == _WILD:
                    entry = 1
                else:
                    entry = 0
                out[i, rows_at + (k * _P + p) * 5 + entry] = 1
            if data[i, _SIZES + n + s]:
                out[i, skips_at + k] = 1
        hand = data[i, _HAND]
        if hand:
            out[i, hand_at + hand - 1] = 1
        out[i, pile_size_at] = data[i, _PILE_SIZE]
        if data[i, _RESHUFFLED]:
            out[i, reshuffled_at] = 1
            for k in range(_K):
                out[i, pile_at + k] = data[i, pile + k]
        for k in range(_K):
            out[i, unseen_at + k] = data[i, pile + _K + k]
        length = data[i, _DISCARD_LEN]
        out[i, discard_size_at] = length
        if length:
            out[i, top_at + data[i, discard + length - 1] - 1] = 1
        for d in range(length):
            card = data[i, discard + length - 1 - d]
            out[i, counts_at + card - 1] += 1
            if d < depth:
                out[i, discard_at + d * _K + card - 1] = 1


_FIELDS: Final = (
    "viewer", "to_move", "phase", "round", "round_first", "row_sizes", "rows", "hand", "pile_size", "reshuffled",
    "pile", "unseen", "discard_size", "discard_top", "discard_counts", "skips",
)  # fmt: skip


class TooManyBatchState(BatchState):
    """``B`` games of *Too Many Monkeys*: :class:`~cheekymonkey.batched.BatchState`'s arrays and the game's own.

    The game's fields are :class:`~cheekymonkey.toomany.GameState`'s, held in :attr:`data`, one row per game;
    the properties below are views of it, batch first (``n`` seats, ``T`` the rule set's cards).
    """

    FIELDS: ClassVar[tuple[str, ...]] = (*BatchState.FIELDS, "data")

    data: I16
    """B x (40 + 8 n + T) int16: each game's fields in one row (the views below name them)."""

    @property
    def players(self) -> int:
        """The number of seats of every game."""
        return int(self.rewards.shape[1])

    @property
    def phase(self) -> I16:
        """Each game's :class:`~cheekymonkey.toomany.Phase`, as its value."""
        return self.data[:, _PHASE]

    @property
    def seat(self) -> I16:
        """The seat whose turn it is; after the end, the winner."""
        return self.data[:, _SEAT]

    @property
    def round(self) -> I16:
        """Each game's round, from 1."""
        return self.data[:, _ROUND]

    @property
    def round_first(self) -> I16:
        """The seat that began each game's round."""
        return self.data[:, _FIRST]

    @property
    def hand(self) -> I16:
        """The card in hand, as its Card value, 0 for none."""
        return self.data[:, _HAND]

    @property
    def pile_size(self) -> I16:
        """The draw pile's size."""
        return self.data[:, _PILE_SIZE]

    @property
    def reshuffled(self) -> I16:
        """1 where the draw pile holds known cards after a reshuffle this round (TM20), else 0."""
        return self.data[:, _RESHUFFLED]

    @property
    def discard_size(self) -> I16:
        """The discard pile's size."""
        return self.data[:, _DISCARD_LEN]

    @property
    def row_sizes(self) -> I16:
        """B x n: each seat's row size."""
        return self.data[:, _SIZES : _SIZES + self.players]

    @property
    def skips(self) -> I16:
        """B x n: 1 where a Skip waits in front of the seat."""
        n = self.players
        return self.data[:, _SIZES + n : _SIZES + 2 * n]

    @property
    def rows(self) -> I16:
        """B x n x 6: each position, 0 never seen, ``c`` the face-up Card ``c``, ``-c`` ``FaceDown(c)``."""
        n = self.players
        return self.data[:, _SIZES + 2 * n : _SIZES + 8 * n].reshape(self.batch_size, n, _P)

    @property
    def pile(self) -> I16:
        """B x 12: after a reshuffle, the draw pile's cards by kind (not meaningful where not reshuffled)."""
        at = _SIZES + 8 * self.players
        return self.data[:, at : at + _K]

    @property
    def unseen(self) -> I16:
        """B x 12: the cards never seen this round, by kind (TM19)."""
        at = _SIZES + 8 * self.players + _K
        return self.data[:, at : at + _K]

    @property
    def discard(self) -> I16:
        """B x T: the discard pile bottom first, its first :attr:`discard_size` entries (Card values)."""
        return self.data[:, _SIZES + 8 * self.players + 2 * _K :]


class BatchedTooManyMonkeys(BatchedGame[TooManyBatchState, GameState, Action]):
    """``B`` games of *Too Many Monkeys* at once, each exactly the scalar engine's (see the module's description).

    Args:
        players: The number of seats of every game, within the rule set's range (2 to 6).
        ruleset: The rules: a :class:`~cheekymonkey.toomany.Ruleset` (custom ones too), a preset's name, or
            None for the standard game.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game when this many actions, chance outcomes included, have been played.
        observation: ``"full"`` (the default) or ``"table"``: the kind
            :meth:`~cheekymonkey.batched.BatchedGame.observation` gives.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
        InvalidRulesetError: If ``ruleset`` names no preset.
        InvalidGameError: If ``ruleset`` is not a rule set of this game.
    """

    max_outcomes: ClassVar[int] = 32
    """The width :attr:`~cheekymonkey.batched.BatchState.outcomes` starts at; a step that draws more in a
    game widens it (a step has no bound on its draws)."""

    bots: ClassVar[tuple[str, ...]] = ("random", "heuristic")
    """The random bot and :class:`~cheekymonkey.toomany.HeuristicBot` play in batched form
    (:meth:`heuristic_actions`)."""

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
            TOO_MANY_MONKEYS, players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=observation
        )
        rules: Ruleset = self.ruleset
        if rules.total_cards > np.iinfo(np.int16).max:
            raise InvalidValueError(
                f"a deck of {rules.total_cards} cards: the batched engine holds counts in 16 bits, "
                f"{np.iinfo(np.int16).max} cards at most"
            )
        self._counts: Final = np.array(rules.counts, np.int64)
        offsets = [self.encoding.field(name).offset for name in _FIELDS]  # type: ignore[attr-defined]
        full = self.observation_kind == "full"
        offsets.append(self.encoding.field("discard").offset if full else 0)  # type: ignore[attr-defined]
        self._offsets: Final = np.array(offsets, np.int64)
        self._depth: Final = rules.total_cards - players if full else 0

    def _state_class(self) -> type[TooManyBatchState]:
        return TooManyBatchState

    def _allocate(self, batch_size: int) -> TooManyBatchState:
        width = _SIZES + 8 * self.players + 2 * _K + self.ruleset.total_cards
        return TooManyBatchState({**self._common(batch_size), "data": np.zeros((batch_size, width), np.int16)})

    def _start(self, states: TooManyBatchState) -> None:
        self._play(states, np.zeros(states.batch_size, np.int64), start=True)

    def _advance(self, states: TooManyBatchState, actions: I64) -> int:
        return self._play(states, actions, start=False)

    def _advance_where(self, states: TooManyBatchState, actions: I64, where: B8) -> int:
        return self._play(states, actions, start=False, where=where)

    def _play(self, states: TooManyBatchState, actions: I64, *, start: bool, where: B8 = _EVERY) -> int:
        rules: Ruleset = self.ruleset
        n, total, limits = self.players, rules.total_cards, (self._turn_limit, self._step_limit)
        bad, full = _play_all(
            states.data, states.rng, states.steps, states.turns, states.current_player, states.legal_action_mask,
            states.rewards, states.terminated, states.truncated, states.started, states.outcomes,
            states.outcome_count, states.no_decision, actions, start, n, total, rules.row_size, self._counts, *limits,
            where,
        )  # fmt: skip
        while full:
            # Some game drew more outcomes than the row holds: widen it (the one array that may be replaced), and
            # each such game goes on from its chance node.
            states.widen_outcomes(2 * states.outcomes.shape[1])
            full = _resume(
                states.data, states.rng, states.steps, states.turns, states.current_player, states.legal_action_mask,
                states.rewards, states.terminated, states.truncated, states.started, states.outcomes,
                states.outcome_count, states.no_decision, n, total, self._counts, *limits,
            )  # fmt: skip
        return int(bad)

    def _other_bot_mask(self, states: TooManyBatchState, bot: str) -> B8:
        # The heuristic bot chooses without chance: its one action, where somebody decides.
        mask = np.zeros_like(states.legal_action_mask)
        rows = np.flatnonzero(states.current_player >= 0)
        mask[rows, self.heuristic_actions(states)[rows]] = True
        return mask

    def heuristic_actions(self, states: TooManyBatchState, out: I64 | None = None) -> I64:
        """:class:`~cheekymonkey.toomany.HeuristicBot`'s action index in every game (0 where nobody decides), compiled.

        The bot's rules of thumb clause by clause, so its choice at every decision: it uses no chance.

        Args:
            states: The games.
            out: An int64 array of one entry per game to write into, or None for a new one.

        Raises:
            InvalidValueError: If ``states`` are not this engine's, or ``out`` has the wrong shape.
        """
        self._check_states(states)
        if out is None:
            out = np.empty(states.batch_size, np.int64)
        elif not isinstance(out, np.ndarray) or out.shape != (states.batch_size,) or out.dtype != np.int64:
            raise InvalidValueError(f"out must be an int64 array of {states.batch_size} entries")
        _heuristic_all(states.data, self.players, states.current_player, out)
        return out

    def _observe(self, states: TooManyBatchState, seats: I64, out: npt.NDArray[Any]) -> None:
        _observe(states.data, seats, out, self.players, self._offsets, self._depth)

    def decode(self, states: TooManyBatchState, index: int) -> GameState:
        """Game ``index`` of the batch as a :class:`~cheekymonkey.toomany.GameState`, checked by its constructor.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch.
        """
        index = self._check_index(states, index)
        return _state_of(states, index, self.ruleset, GameState)

    def put(self, states: TooManyBatchState, index: int, state: GameState, *, steps: int = 0, turns: int = 1) -> None:
        """Set game ``index`` of the batch to ``state``, a decision of a game with this engine's seats and rules.

        The game then goes on from there; ``steps`` and ``turns`` are its counters for the limits (a fresh
        count by default). For tests, and to play batched games on from chosen positions.

        Raises:
            InvalidValueError: If ``index`` is not a game of the batch, or ``state`` is not a decision of a game
                with this engine's seats and rules.
        """
        index = self._check_index(states, index)
        if not isinstance(state, GameState) or state.players != self.players or state.ruleset != self.ruleset:
            raise InvalidValueError(f"expected a {self.players}-seat state under this engine's rules, got {state!r}")
        if TOO_MANY_MONKEYS.to_move(state) is None:
            raise InvalidValueError(f"only a decision can be put in a batch, not a state in phase {state.phase.name}")
        for name, count in (("steps", steps), ("turns", turns)):
            if not is_whole_number(count) or count < 0:
                raise InvalidValueError(f"{name} must be a whole number, got {count!r}")
        _put(states, index, state)
        states.steps[index] = steps
        states.turns[index] = turns
        states.terminated[index] = False
        states.truncated[index] = False
        states.no_decision[index] = False
        states.started[index] = False
        states.rewards[index] = 0
        states.outcome_count[index] = 0
        states.current_player[index] = state.seat
        states.legal_action_mask[index] = self.encoding.action_mask(state)

    def outcome_action(self, outcome: int) -> Reveal:
        """``Reveal`` of the card with outcome index ``outcome`` (``card - 1``, as the encoding numbers it)."""
        return REVEALS[outcome]


def _state_of(states: TooManyBatchState, index: int, ruleset: Ruleset, build: Callable[..., GameState]) -> GameState:
    """Game ``index`` as a GameState made by ``build``: the checking constructor, or the unchecked one (tests)."""
    row = states.data[index].tolist()
    n = states.players
    rows_at = _SIZES + 2 * n
    pile_at = rows_at + _P * n
    discard_at = pile_at + 2 * _K
    slots = _SLOTS
    hand = row[_HAND]
    return build(
        ruleset,
        row[_ROUND],
        row[_FIRST],
        row[_SEAT],
        _PHASES[row[_PHASE]],
        tuple(
            [tuple([slots[v] for v in row[rows_at + _P * s : rows_at + _P * s + row[_SIZES + s]]]) for s in range(n)]
        ),
        CARDS[hand - 1] if hand else None,
        tuple([CARDS[card - 1] for card in row[discard_at : discard_at + row[_DISCARD_LEN]]]),
        row[_PILE_SIZE],
        tuple(row[pile_at : pile_at + _K]) if row[_RESHUFFLED] else None,
        tuple(row[pile_at + _K : pile_at + 2 * _K]),
        tuple([bool(flag) for flag in row[_SIZES + n : _SIZES + 2 * n]]),
    )


_PHASES: Final = tuple(Phase)


def _slot(value: int) -> Slot:
    if value == 0:
        return None
    if value > 0:
        return CARDS[value - 1]
    return face_down(CARDS[-value - 1])


_SLOTS: Final[dict[int, Slot]] = {value: _slot(value) for value in range(-_WILD, _WILD + 1)}


def _put(states: TooManyBatchState, index: int, state: GameState) -> None:
    # A scalar state's fields written into game index's row.
    n = states.players
    row = states.data[index]
    row[_PHASE] = int(state.phase)
    row[_SEAT] = state.seat
    row[_ROUND] = state.round
    row[_FIRST] = state.round_first
    row[_HAND] = 0 if state.hand is None else int(state.hand)
    row[_PILE_SIZE] = state.pile_size
    row[_RESHUFFLED] = 0 if state.pile is None else 1
    row[_DISCARD_LEN] = len(state.discard)
    rows_at = _SIZES + 2 * n
    pile_at = rows_at + _P * n
    for s, cells in enumerate(state.rows):
        row[_SIZES + s] = len(cells)
        row[_SIZES + n + s] = 1 if state.skips[s] else 0
        for p in range(_P):
            slot = cells[p] if p < len(cells) else None
            row[rows_at + _P * s + p] = 0 if slot is None else int(slot) if isinstance(slot, Card) else -int(slot.card)
    row[pile_at : pile_at + _K] = state.pile if state.pile is not None else (0,) * _K
    row[pile_at + _K : pile_at + 2 * _K] = state.unseen
    row[pile_at + 2 * _K : pile_at + 2 * _K + len(state.discard)] = [int(card) for card in state.discard]
