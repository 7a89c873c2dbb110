"""*Too Many Monkeys*, many games at once: a batched engine compiled with numba (the ``batched`` extra).

:class:`BatchedTooManyMonkeys` plays ``B`` games side by side, held as arrays with the batch first
(:class:`TooManyBatch`), in Pgx's shape: :meth:`~BatchedTooManyMonkeys.init` deals them,
:meth:`~BatchedTooManyMonkeys.step` applies one decision per game and resolves chance inside, and the
batch holds the seat to move, the legal-action masks, the rewards and the flags. Every game is exactly the
scalar engine's (:mod:`cheekymonkey.toomany.engine`): the same rules, the same states
(:meth:`~BatchedTooManyMonkeys.decode` turns one back into a :class:`~cheekymonkey.toomany.GameState`), the
same action indices and observation
vectors as the game's encoding (:mod:`cheekymonkey.toomany.encoding`), and each chance outcome drawn with
the scalar engine's exact probability. ``tests/toomany/test_batched.py`` replays batched games through the
scalar engine step by step to show it.

- **Actions** are the encoding's indices, seen from the mover (``encoding.num_actions`` of them); a game
  that is finished ignores its action.
- **Chance** is resolved inside :meth:`~BatchedTooManyMonkeys.step`, from a generator held per game
  (SplitMix64, seeded from ``init``'s seed and the game's index): each card of the pool the scalar engine
  draws from (:func:`~cheekymonkey.toomany.chance_pool`) is picked by an integer drawn uniformly below the
  pool's size by rejection, so each outcome has exactly its count over the size. The outcomes a step drew
  are in :attr:`TooManyBatch.chance` (outcome indices, ``card - 1``), so a game can be replayed.
- **Limits** are the :class:`~cheekymonkey.table.Table`'s (:func:`~cheekymonkey.table.past_limits`):
  ``max_turns`` and ``max_steps``, a step limit counting chance outcomes too.
- **Rewards** are 0 until a game ends by its rules, then the outcome's returns: 1 for the winner, 0 for the
  others (TME1). A truncated game pays nothing.
- **Auto-reset.** The step that ends a game reports its rewards and flags, and the batch keeps the finished
  state (decodable, observable); the next step ignores that game's action and deals a new game from the
  game's own stream. A game that ends before its first decision (cut off by a tiny limit, or won with no
  choice ever offered) is reported as finished on the step that deals it, with its rewards (zero if
  truncated) and an all-False mask, and the step after deals the next one.

The arrays are updated in place: :meth:`~BatchedTooManyMonkeys.step` returns the batch it was given. Copy an
array to keep it past the next step.

>>> engine = BatchedTooManyMonkeys(3)
>>> batch = engine.init(4, seed=7)
>>> batch.legal_action_mask.shape, engine.observation(batch).shape
((4, 30), (4, 803))
>>> actions = engine.random_actions(batch)
>>> batch = engine.step(batch, actions)
>>> engine.decode(batch, 0).players
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

try:
    import numba
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - the extra is installed wherever the tests run
    raise ImportError(
        "cheekymonkey.toomany.batched needs numpy and numba: pip install 'cheekymonkey[batched]'"
    ) from error

from cheekymonkey.errors import IllegalActionError, InvalidValueError
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, Slot, face_down
from cheekymonkey.toomany.encoding import TooManyEncoding, encoding
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["SPECTATOR", "BatchedTooManyMonkeys", "TooManyBatch"]

SPECTATOR: Final = -1
"""The seat of a spectator in :meth:`BatchedTooManyMonkeys.observation`: the encoding's seat None."""

F = TypeVar("F", bound=Callable[..., Any])

I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
B8 = npt.NDArray[np.bool_]
F32 = npt.NDArray[np.float32]


def _compiled(function: F) -> F:
    """``function`` compiled by numba, its machine code cached beside the module (or numba's user cache).

    Where no cache directory is writable, it is compiled afresh in each process instead.
    """
    try:
        return cast(F, numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:  # pragma: no cover - numba finds no writable cache directory
        return cast(F, numba.njit(nogil=True)(function))


# -- the layout of a game's row in TooManyBatch.data -----------------------------------------------------------
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


def _width(players: int, total: int) -> int:
    return _SIZES + 8 * players + 2 * _K + total


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
_DECLINE: Final = 15
_TAKE_BONUS: Final = 8

# SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a Weyl sequence of odd step through every 64-bit value,
# each passed through a mixing function that is a bijection; so over its period every output appears once.
_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)
_MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
_MIX2: Final = np.uint64(0x94D049BB133111EB)
_S30: Final = np.uint64(30)
_S27: Final = np.uint64(27)
_S31: Final = np.uint64(31)
_ONE: Final = np.uint64(1)


@_compiled
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_compiled
def _next_word(rng: U64, i: int) -> np.uint64:
    state = rng[i] + _GAMMA
    rng[i] = state
    return _mix(state)


@_compiled
def _bits_for(total: int) -> int:
    # How many bits hold every integer below total (total >= 1): the bit length of total - 1, at least 1.
    bits = 1
    while (1 << bits) < total:
        bits += 1
    return bits


@_compiled
def _accepts(value: int, total: int) -> bool:
    return value < total


@_compiled
def _below(rng: U64, i: int, total: int) -> int:
    """An integer uniform in [0, total): the top bits of a word, drawn again until below ``total``."""
    shift = np.uint64(64 - _bits_for(total))
    while True:
        value = int(_next_word(rng, i) >> shift)
        if _accepts(value, total):
            return value


@_compiled
def _seed_streams(rng: U64, bot_rng: U64, seed: np.uint64) -> None:
    base = _mix(seed)
    other = _mix(base ^ _GAMMA)
    for i in range(rng.shape[0]):
        index = np.uint64(i)
        rng[i] = _mix(base + index * _GAMMA)
        bot_rng[i] = _mix(other + index * _GAMMA + _ONE)


# -- the rules, one game at a time (cheekymonkey.toomany.engine, on a row of ints) ----------------------------


@_compiled
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


@_compiled
def _complete(data: I16, i: int, at: int, size: int) -> bool:
    # TM21: every position face up. (Loops, not all() or any() of a generator: numba compiles loops best.)
    for p in range(size):  # noqa: SIM110
        if data[i, at + p] <= 0:
            return False
    return True


@_compiled
def _push(data: I16, i: int, n: int, card: int) -> None:
    length = data[i, _DISCARD_LEN]
    data[i, _SIZES + 8 * n + 2 * _K + length] = card
    data[i, _DISCARD_LEN] = length + 1


@_compiled
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


@_compiled
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


@_compiled
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


@_compiled
def _face_up_elsewhere(data: I16, i: int, n: int, seat: int) -> bool:
    rows = _SIZES + 2 * n
    for other in range(n):
        if other != seat:
            for p in range(data[i, _SIZES + other]):
                if data[i, rows + _P * other + p] > 0:
                    return True
    return False


@_compiled
def _raccoon_can_take(data: I16, i: int, n: int, seat: int, k: int) -> bool:
    # TM14: k no greater than the row, its position face down, and a k in the pile below the raccoon.
    if k > data[i, _SIZES + seat] or data[i, _SIZES + 2 * n + _P * seat + k - 1] > 0:
        return False
    discard = _SIZES + 8 * n + 2 * _K
    for d in range(data[i, _DISCARD_LEN] - 1):  # noqa: SIM110
        if data[i, discard + d] == k:
            return True
    return False


@_compiled
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


@_compiled
def _pool(data: I16, i: int, n: int) -> int:
    # chance_pool: where in the row the counts chance draws from begin (TM19, TM20).
    pile = _SIZES + 8 * n
    if data[i, _PHASE] == _TURN_UP or data[i, _RESHUFFLED] == 0:
        return pile + _K
    return pile


@_compiled
def _pool_size(data: I16, i: int, at: int) -> int:
    size = 0
    for k in range(_K):
        size += data[i, at + k]
    return size


@_compiled
def _card_at(data: I16, i: int, at: int, pick: int) -> int:
    # The card of the pool's pick-th card, the pool counted in card order (as sample_chance counts it).
    for k in range(_K):
        pick -= data[i, at + k]
        if pick < 0:
            return k + 1
    return 0  # unreachable: pick is below the pool's size


@_compiled
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


@_compiled
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


@_compiled
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


# -- the batch: steps, limits, chance, auto-reset --------------------------------------------------------------


@_compiled
def _counted(data: I16, i: int, turns: I64, steps: I64, truncated: B8, max_turns: int, max_steps: int) -> None:
    # The Table's count after each action, chance's included, and its one truncation rule (past_limits).
    steps[i] += 1
    phase = data[i, _PHASE]
    if phase == _START or phase == _DRAW:  # noqa: SIM109 (begins_turn; two compares, no tuple)
        turns[i] += 1
    if phase != _OVER and ((max_turns > 0 and turns[i] > max_turns) or (max_steps > 0 and steps[i] >= max_steps)):
        truncated[i] = True


@_compiled
def _settle(
    data: I16,
    rng: U64,
    i: int,
    n: int,
    total: int,
    counts: I64,
    turns: I64,
    steps: I64,
    truncated: B8,
    chance: npt.NDArray[np.int8],
    drawn: I32,
    max_turns: int,
    max_steps: int,
) -> bool:
    """Resolve chance until a decision, the end or the limit; False if the log of outcomes filled first."""
    while not truncated[i]:
        phase = data[i, _PHASE]
        if phase != _DRAW and phase != _CHOSEN_DRAW and phase != _TURN_UP:
            return True
        if drawn[i] == chance.shape[1]:
            return False
        at = _pool(data, i, n)
        card = _card_at(data, i, at, _below(rng, i, _pool_size(data, i, at)))
        chance[i, drawn[i]] = card - 1
        drawn[i] += 1
        _reveal(data, i, n, total, counts, card)
        _counted(data, i, turns, steps, truncated, max_turns, max_steps)
    return True


@_compiled
def _finish(data: I16, i: int, n: int, terminated: B8, truncated: B8, rewards: F32, mask: B8) -> None:
    if data[i, _PHASE] == _OVER:
        terminated[i] = True
        rewards[i, data[i, _SEAT]] = 1.0  # TME1: 1 for the winner, 0 for the others
    if terminated[i] or truncated[i]:
        for a in range(mask.shape[1]):
            mask[i, a] = False
    else:
        _legal(data, i, n, mask)


@_compiled
def _deal(data: I16, i: int, n: int, total: int, row_size: int, counts: I64, turns: I64, steps: I64) -> None:
    # A Table's new game: one turn begun (the first draw), no action played; no limit is past yet.
    _new_game(data, i, n, total, row_size, counts)
    turns[i] = 1
    steps[i] = 0


@_compiled
def _step(
    data: I16,
    rng: U64,
    turns: I64,
    steps: I64,
    terminated: B8,
    truncated: B8,
    rewards: F32,
    mask: B8,
    chance: npt.NDArray[np.int8],
    drawn: I32,
    pending: B8,
    actions: I64,
    reset_all: bool,
    n: int,
    total: int,
    row_size: int,
    counts: I64,
    max_turns: int,
    max_steps: int,
) -> tuple[int, int]:
    """One step of every game; (the first game whose action is illegal, or -1; how many games wait on the log)."""
    size = data.shape[0]
    if not reset_all:
        for i in range(size):
            if not (terminated[i] or truncated[i]):
                action = actions[i]
                if action < 0 or action >= mask.shape[1] or not mask[i, action]:
                    return i, 0
    waiting = 0
    for i in range(size):
        drawn[i] = 0
        for s in range(n):
            rewards[i, s] = 0.0
        if reset_all or terminated[i] or truncated[i]:
            terminated[i] = False
            truncated[i] = False
            _deal(data, i, n, total, row_size, counts, turns, steps)
        else:
            _decide(data, i, n, total, counts, actions[i])
            _counted(data, i, turns, steps, truncated, max_turns, max_steps)
        if _settle(data, rng, i, n, total, counts, turns, steps, truncated, chance, drawn, max_turns, max_steps):
            pending[i] = False
            _finish(data, i, n, terminated, truncated, rewards, mask)
        else:
            pending[i] = True
            waiting += 1
    return -1, waiting


@_compiled
def _resume(
    data: I16,
    rng: U64,
    turns: I64,
    steps: I64,
    terminated: B8,
    truncated: B8,
    rewards: F32,
    mask: B8,
    chance: npt.NDArray[np.int8],
    drawn: I32,
    pending: B8,
    n: int,
    total: int,
    counts: I64,
    max_turns: int,
    max_steps: int,
) -> int:
    waiting = 0
    for i in range(data.shape[0]):
        if pending[i]:
            if _settle(data, rng, i, n, total, counts, turns, steps, truncated, chance, drawn, max_turns, max_steps):
                pending[i] = False
                _finish(data, i, n, terminated, truncated, rewards, mask)
            else:
                waiting += 1
    return waiting


@_compiled
def _random_actions(mask: B8, rng: U64, out: I64) -> None:
    # A legal action index uniformly for each game (0 for a finished one, whose action is ignored).
    for i in range(mask.shape[0]):
        legal = 0
        for a in range(mask.shape[1]):
            if mask[i, a]:
                legal += 1
        out[i] = 0
        if legal:
            pick = _below(rng, i, legal)
            for a in range(mask.shape[1]):
                if mask[i, a]:
                    if pick == 0:
                        out[i] = a
                        break
                    pick -= 1


# -- observations: TooManyEncoding.observe, for every game ----------------------------------------------------


@_compiled
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


class TooManyBatch:
    """``B`` games of *Too Many Monkeys* as arrays, the batch first; :class:`BatchedTooManyMonkeys` makes them.

    :meth:`BatchedTooManyMonkeys.step` updates every array in place. The arrays a learner reads are
    :attr:`current_player`, :attr:`legal_action_mask`, :attr:`rewards`, :attr:`terminated` and
    :attr:`truncated`; the game's fields are views of :attr:`data` (:attr:`phase`, :attr:`rows`, ...), and
    :meth:`BatchedTooManyMonkeys.decode` builds a game's :class:`~cheekymonkey.toomany.GameState`.
    """

    __slots__ = (
        "_pending",
        "bot_rng",
        "chance",
        "chance_count",
        "data",
        "legal_action_mask",
        "players",
        "rewards",
        "rng",
        "steps",
        "terminated",
        "truncated",
        "turns",
    )

    def __init__(self, size: int, players: int, total: int, num_actions: int) -> None:
        self.players: Final = players
        """The number of seats of every game."""
        self.data: I16 = np.zeros((size, _width(players, total)), dtype=np.int16)
        """Every game's fields, one row of int16 per game (the views below name them)."""
        self.rng: U64 = np.zeros(size, dtype=np.uint64)
        """Each game's chance stream: the state of its SplitMix64 generator."""
        self.bot_rng: U64 = np.zeros(size, dtype=np.uint64)
        """Each game's stream for :meth:`BatchedTooManyMonkeys.random_actions`, apart from chance's."""
        self.turns: I64 = np.zeros(size, dtype=np.int64)
        """The turns begun in each game, as a :class:`~cheekymonkey.table.Table` counts them."""
        self.steps: I64 = np.zeros(size, dtype=np.int64)
        """The actions played in each game, chance outcomes included, as a Table counts them."""
        self.terminated: B8 = np.zeros(size, dtype=np.bool_)
        """Whether each game ended by its rules (at this step, or before its first decision)."""
        self.truncated: B8 = np.zeros(size, dtype=np.bool_)
        """Whether each game was cut off at the limits (it then pays nothing)."""
        self.rewards: F32 = np.zeros((size, players), dtype=np.float32)
        """Each seat's reward at this step: the outcome's returns at the end by the rules, else 0."""
        self.legal_action_mask: B8 = np.zeros((size, num_actions), dtype=np.bool_)
        """Which action indices are legal for the mover of each game (all False for a finished game)."""
        self.chance: npt.NDArray[np.int8] = np.zeros((size, 32), dtype=np.int8)
        """The chance outcomes (``card - 1``) each game drew at the last step, in order: the first
        :attr:`chance_count` of its row. It grows when a step draws more."""
        self.chance_count: I32 = np.zeros(size, dtype=np.int32)
        """How many chance outcomes each game drew at the last step."""
        self._pending: B8 = np.zeros(size, dtype=np.bool_)

    @property
    def size(self) -> int:
        """The number of games, ``B``."""
        return int(self.data.shape[0])

    @property
    def current_player(self) -> I16:
        """The seat to move in each game; for a finished game, the winner or the seat whose turn was cut off."""
        return self.data[:, _SEAT]

    @property
    def phase(self) -> I16:
        """Each game's :class:`~cheekymonkey.toomany.Phase`, as its value."""
        return self.data[:, _PHASE]

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
        """1 where the draw pile holds known cards after a reshuffle this round, else 0."""
        return self.data[:, _RESHUFFLED]

    @property
    def discard_size(self) -> I16:
        """The discard pile's size."""
        return self.data[:, _DISCARD_LEN]

    @property
    def row_sizes(self) -> I16:
        """``[B, n]``: each seat's row size."""
        return self.data[:, _SIZES : _SIZES + self.players]

    @property
    def skips(self) -> I16:
        """``[B, n]``: 1 where a Skip waits in front of the seat."""
        n = self.players
        return self.data[:, _SIZES + n : _SIZES + 2 * n]

    @property
    def rows(self) -> I16:
        """``[B, n, 6]``: each position, 0 never seen, ``c`` the face-up Card ``c``, ``-c`` FaceDown(``c``)."""
        n = self.players
        return self.data[:, _SIZES + 2 * n : _SIZES + 8 * n].reshape(self.size, n, _P)

    @property
    def pile(self) -> I16:
        """``[B, 12]``: after a reshuffle, the draw pile's cards by kind (meaningless where not reshuffled)."""
        at = _SIZES + 8 * self.players
        return self.data[:, at : at + _K]

    @property
    def unseen(self) -> I16:
        """``[B, 12]``: the cards never seen this round, by kind."""
        at = _SIZES + 8 * self.players + _K
        return self.data[:, at : at + _K]

    @property
    def discard(self) -> I16:
        """``[B, T]``: the discard pile bottom first, its first :attr:`discard_size` entries (Card values)."""
        return self.data[:, _SIZES + 8 * self.players + 2 * _K :]

    def __repr__(self) -> str:
        return f"<TooManyBatch of {self.size} games, {self.players} seats>"


class BatchedTooManyMonkeys:
    """*Too Many Monkeys* for ``players`` seats under ``ruleset``, ``B`` games at a time (see the module's docs).

    Args:
        players: The number of seats, within the rule set's range (2 to 6).
        ruleset: The rules (a :class:`~cheekymonkey.toomany.Ruleset`); the standard game if omitted.
        max_turns: Truncate a game when a turn past this many would begin (None: no limit).
        max_steps: Truncate a game when this many actions, chance outcomes included, have been played.
        observation: The observation kind, ``"full"`` (the default) or ``"table"``.

    Raises:
        InvalidValueError: If an argument does not fit.
    """

    __slots__ = ("_counts", "_limits", "_offsets", "encoding", "max_steps", "max_turns", "players", "ruleset")

    def __init__(
        self,
        players: int,
        ruleset: Ruleset | None = None,
        *,
        max_turns: int | None = None,
        max_steps: int | None = None,
        observation: str | None = None,
    ) -> None:
        from cheekymonkey.rl.episodes import check_limits

        self.encoding: Final[TooManyEncoding] = encoding(players, ruleset, observation)
        """The game's encoding these games are played through: its indices and observation vectors."""
        self.players: Final = players
        """The number of seats."""
        self.ruleset: Final = self.encoding.ruleset
        """The rules."""
        self.max_turns, self.max_steps = check_limits(max_turns, max_steps)
        if self.ruleset.total_cards > np.iinfo(np.int16).max:
            raise InvalidValueError(
                f"a deck of {self.ruleset.total_cards} cards: the batched engine holds counts in 16 bits, "
                f"{np.iinfo(np.int16).max} cards at most"
            )
        self._counts: Final = np.array(self.ruleset.counts, dtype=np.int64)
        self._limits: Final = (self.max_turns or 0, self.max_steps or 0)
        offsets = [self.encoding.field(name).offset for name in _FIELDS]
        offsets.append(self.encoding.field("discard").offset if self.encoding.kind == "full" else 0)
        self._offsets: Final = np.array(offsets, dtype=np.int64)

    @property
    def num_actions(self) -> int:
        """How many action indices there are (the encoding's)."""
        return self.encoding.num_actions

    @property
    def observation_size(self) -> int:
        """How many entries an observation has (the encoding's)."""
        return self.encoding.observation_size

    def init(self, batch_size: int, seed: int) -> TooManyBatch:
        """Deal ``batch_size`` new games, each with its own streams from ``seed`` and its index.

        Chance is resolved up to each game's first decision (see the module's docs for a game that ends first).

        Raises:
            InvalidValueError: If ``batch_size`` is not a positive integer or ``seed`` not an integer.
        """
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InvalidValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidValueError(f"seed must be an integer, got {seed!r}")
        states = TooManyBatch(batch_size, self.players, self.ruleset.total_cards, self.num_actions)
        _seed_streams(states.rng, states.bot_rng, np.uint64(seed % (1 << 64)))
        self._run(states, np.zeros(batch_size, dtype=np.int64), reset_all=True)
        return states

    def step(self, states: TooManyBatch, actions: npt.ArrayLike) -> TooManyBatch:
        """Play each game's action, resolve chance up to the next decision, and return ``states``, updated.

        A finished game ignores its action and is dealt anew (auto-reset). ``actions`` are the encoding's
        indices, seen from each game's mover.

        Raises:
            InvalidValueError: If ``states`` is not this engine's or ``actions`` is not one integer per game.
            IllegalActionError: If a game's action is not legal; its ``state`` is that game's state and its
                ``action`` the index. No game is changed.
        """
        self._check(states)
        given = np.asarray(actions)
        if given.shape != (states.size,) or given.dtype.kind not in "iu":
            raise InvalidValueError(
                f"actions must be {states.size} integers, one per game, got an array of shape {given.shape} "
                f"and type {given.dtype}"
            )
        self._run(states, given.astype(np.int64, copy=False), reset_all=False)
        return states

    def _run(self, states: TooManyBatch, actions: I64, *, reset_all: bool) -> None:
        n = self.players
        total = self.ruleset.total_cards
        max_turns, max_steps = self._limits
        illegal, waiting = _step(
            states.data, states.rng, states.turns, states.steps, states.terminated, states.truncated,
            states.rewards, states.legal_action_mask, states.chance, states.chance_count, states._pending, actions,
            reset_all, n, total, self.ruleset.row_size, self._counts, max_turns, max_steps,
        )  # fmt: skip
        if illegal >= 0:
            index = int(actions[illegal])
            state = self.decode(states, illegal)
            named = self.encoding.action_name(index) if 0 <= index < self.num_actions else "out of range"
            raise IllegalActionError(
                state,
                index,
                f"game {illegal}: action index {index} ({named}) is not legal now; the legal indices are "
                f"{np.flatnonzero(states.legal_action_mask[illegal]).tolist()}",
            )
        while waiting:
            # A step drew more outcomes than the log holds: double it and go on from where each game stopped.
            grown = np.zeros((states.size, 2 * states.chance.shape[1]), dtype=np.int8)
            grown[:, : states.chance.shape[1]] = states.chance
            states.chance = grown
            waiting = _resume(
                states.data, states.rng, states.turns, states.steps, states.terminated, states.truncated,
                states.rewards, states.legal_action_mask, states.chance, states.chance_count, states._pending,
                n, total, self._counts, max_turns, max_steps,
            )  # fmt: skip

    def _check(self, states: object) -> None:
        if (
            not isinstance(states, TooManyBatch)
            or states.players != self.players
            or states.data.shape[1] != _width(self.players, self.ruleset.total_cards)
        ):
            raise InvalidValueError(f"expected a TooManyBatch of this engine's games, got {states!r}")

    def random_actions(self, states: TooManyBatch) -> I64:
        """A legal action index for each game, uniformly among its legal ones, from the game's own stream.

        A finished game gets 0, which :meth:`step` ignores.

        Raises:
            InvalidValueError: If ``states`` is not this engine's.
        """
        self._check(states)
        out = np.empty(states.size, dtype=np.int64)
        _random_actions(states.legal_action_mask, states.bot_rng, out)
        return out

    def observation(
        self, states: TooManyBatch, seat: int | npt.ArrayLike | None = None, *, dtype: npt.DTypeLike = np.float32
    ) -> npt.NDArray[Any]:
        """``[B, observation_size]``: what ``seat`` observes of each game, the encoding's ``observe`` exactly.

        Args:
            states: The games.
            seat: None for each game's :attr:`~TooManyBatch.current_player`; a seat for every game; or one
                seat per game. :data:`SPECTATOR` (-1) observes as the encoding's seat None.
            dtype: The array's type (float32 by default; any numeric type that holds the counts).

        Raises:
            InvalidValueError: If ``states`` is not this engine's or a seat is not one of the game's.
        """
        self._check(states)
        if seat is None:
            viewers = states.current_player.astype(np.int64)
        else:
            given = np.asarray(seat)
            if given.dtype.kind not in "iu" or given.ndim > 1 or (given.ndim == 1 and given.shape[0] != states.size):
                raise InvalidValueError(f"seat must be None, a seat, or one seat per game, got {seat!r}")
            viewers = np.broadcast_to(given, (states.size,)).astype(np.int64)
            if ((viewers < SPECTATOR) | (viewers >= self.players)).any():
                raise InvalidValueError(f"a seat is one of 0 to {self.players - 1} (or SPECTATOR), got {seat!r}")
        out = np.empty((states.size, self.observation_size), dtype=dtype)
        depth = self.ruleset.total_cards - self.players if self.encoding.kind == "full" else 0
        _observe(states.data, viewers, out, self.players, self._offsets, depth)
        return out

    def decode(self, states: TooManyBatch, index: int) -> GameState:
        """Game ``index`` as a scalar :class:`~cheekymonkey.toomany.GameState` (built with its checks).

        Raises:
            InvalidValueError: If ``states`` is not this engine's or ``index`` is not one of its games.
        """
        self._check(states)
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < states.size:
            raise InvalidValueError(f"index must be one of the games 0 to {states.size - 1}, got {index!r}")
        return _state_of(states, int(index), self.ruleset, GameState)

    def __repr__(self) -> str:
        return f"BatchedTooManyMonkeys({self.players}, {self.ruleset.name!r} rules, {self.encoding.kind!r} observation)"


def _state_of(states: TooManyBatch, index: int, ruleset: Ruleset, build: Callable[..., GameState]) -> GameState:
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


def _put(states: TooManyBatch, index: int, state: GameState) -> None:
    """Write a scalar ``state`` into game ``index`` (its fields only: no flags, counts or mask): for tests."""
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
