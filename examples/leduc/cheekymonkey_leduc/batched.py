"""Leduc poker, many hands at once: a batched engine compiled with numba (cheekymonkey's ``batched`` extra).

:class:`BatchedLeduc` plays ``B`` hands of one seat count and rule set side by side, with the API of
:class:`~cheekymonkey.batched.BatchedGame` (Pgx's shape: ``init``, ``step``, ``observation``). Each hand is
exactly the scalar engine's (:mod:`cheekymonkey_leduc.game`, rules L1-L8): any :class:`~cheekymonkey_leduc.Rules`
at 2 to 10 seats; :meth:`~BatchedLeduc.decode` turns a hand back into a :class:`~cheekymonkey_leduc.LeducState`;
the action indices and both observations (``"view"`` and ``"information"``) are the game's encoding's
(:mod:`cheekymonkey_leduc.encoding`); every card is dealt from the cards left, each with exactly the probability
of :meth:`~cheekymonkey_leduc.Leduc.chance_outcomes` (L3, L6); the rewards at the end are
:meth:`~cheekymonkey_leduc.Leduc.returns`, the chips won; the limits are the :class:`~cheekymonkey.table.Table`'s.
``tests/test_batched.py`` replays batched hands step by step through the scalar engine and compares them.

The library finds the engine through this distribution's entry point ``leduc`` in the group
``cheekymonkey.batched`` (``examples/leduc/pyproject.toml``): ``cheekymonkey.batched.engine_class("leduc")``.

>>> from cheekymonkey.batched import random_legal_actions, seed_streams
>>> engine = BatchedLeduc(2)
>>> states = engine.init(4, seed=7)
>>> states.legal_action_mask.shape, engine.observation(states).shape
((4, 3), (4, 34))
>>> player = seed_streams(8, 4)
>>> for _ in range(20):
...     states = engine.step(states, random_legal_actions(states.legal_action_mask, player))
>>> len(engine.decode(states, 0).cards)
2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from cheekymonkey.batched import BatchedGame, BatchState, draw_below, past_limits
from cheekymonkey.errors import InvalidValueError

from cheekymonkey_leduc.actions import Action, Deal
from cheekymonkey_leduc.game import LEDUC
from cheekymonkey_leduc.rules import MAX_PLAYERS, Rules, deck
from cheekymonkey_leduc.state import LeducState

__all__ = ["BatchedLeduc", "LeducBatchState"]

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
B8 = npt.NDArray[np.bool_]
F32 = npt.NDArray[np.float32]

F = TypeVar("F", bound=Callable[..., Any])


def _jit(function: F) -> F:
    # cheekymonkey.batched.jit caches only the library's own modules on disk; this plug-in's module caches its
    # own compiled code the same way where numba can write a cache (else it compiles in every process).
    options: dict[str, Any] = {"nogil": True}
    try:
        return cast(F, numba.njit(cache=True, **options)(function))
    except RuntimeError:  # numba found no folder it may write its cache into
        return cast(F, numba.njit(**options)(function))


# -- the layout of a hand's row in LeducBatchState.data --------------------------------------------------------
# One int32 row per hand: the fixed fields, then each seat's card (-1 none), chips and folded flag, then each
# round's decisions (0 fold, 1 call, 2 raise) in ``slots`` entries, of which the round's length are played.

_SEAT: Final = 0  # the seat to act, -1 while chance deals and at the end
_ROUND: Final = 1  # 1 or 2
_RAISES: Final = 2  # raises this round
_CALLS: Final = 3  # calls since the round's last raise
_OVER: Final = 4  # 1 once the hand is over
_PUBLIC: Final = 5  # the public card, -1 before it is dealt
_FIRST: Final = 6  # the seat that acts first in each round
_DEALT: Final = 7  # private cards dealt so far
_LENGTH: Final = 8  # then 9: the decisions made in round 1, in round 2
_IN: Final = 10  # seats still in (not folded)
_STAKE: Final = 11  # the most chips any seat has in the pot
_USED: Final = 12  # the cards dealt, one bit per card
_CARDS: Final = 13  # then n cards, n chips, n folded flags, 2 slots decisions

# The observation's fields, in the order the kernel reads their offsets (-1: not in this kind).
_FIELDS: Final = ("card", "public", "chips", "folded", "turn", "round", "raises", "shown", "place", "betting")


# -- the batch: deals, decisions, limits, auto-reset ----------------------------------------------------------


@_jit
def _play_all(
    data: I32,
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
    ante: int,
    raise_1: int,
    raise_2: int,
    max_raises: int,
    slots: int,
    max_turns: int,
    max_steps: int,
) -> int:
    """Step every hand, or with ``start`` deal every one anew; the first hand whose action is illegal, or -1.

    One loop over the hands with every rule written inline (no helper is handed an array: numba counts the
    references to each array passed, which would cost more than a hand's whole step).
    """
    size = data.shape[0]
    chips_at = _CARDS + n
    folded_at = _CARDS + 2 * n
    betting_at = _CARDS + 3 * n
    cards = 2 * (n + 1)
    if not start:
        for i in range(size):
            if not (terminated[i] or truncated[i] or no_decision[i]):
                action = actions[i]
                if action < 0 or action > 2 or not mask[i, action]:
                    return i
    for i in range(size):
        drawn[i] = 0
        for s in range(n):
            rewards[i, s] = 0.0
        row = data[i]
        if no_decision[i] and not start:
            # The second beat of a hand cut off before its first decision: nothing is played, its end reported.
            no_decision[i] = False
            started[i] = False
            if row[_OVER]:
                terminated[i] = True  # pragma: no cover - a hand never ends before a decision (L7)
            else:
                truncated[i] = True
            continue
        fresh = start or terminated[i] or truncated[i]
        cut = False
        if fresh:
            # A new hand from the hand's own stream: every seat's ante in the pot, no card dealt (L2).
            terminated[i] = False
            truncated[i] = False
            no_decision[i] = False
            started[i] = True
            row[_SEAT] = -1
            row[_ROUND] = 1
            row[_RAISES] = 0
            row[_CALLS] = 0
            row[_OVER] = 0
            row[_PUBLIC] = -1
            row[_FIRST] = 0
            row[_DEALT] = 0
            row[_LENGTH] = 0
            row[_LENGTH + 1] = 0
            row[_IN] = n
            row[_STAKE] = ante
            row[_USED] = 0
            for s in range(n):
                row[_CARDS + s] = -1
                row[chips_at + s] = ante
                row[folded_at + s] = 0
            turns[i] = 0
            steps[i] = 0
        else:
            started[i] = False
            # A decision (L4-L7): the action is legal, checked above.
            action = actions[i]
            seat = row[_SEAT]
            rnd = row[_ROUND]
            raises = row[_RAISES]
            calls = row[_CALLS]
            if action == 0:  # fold
                row[folded_at + seat] = 1
                row[_IN] -= 1
            elif action == 1:  # call: match the bet
                row[chips_at + seat] = row[_STAKE]
                calls += 1
            else:  # raise: match the bet and add the round's raise
                stake = row[_STAKE] + (raise_1 if rnd == 1 else raise_2)
                row[chips_at + seat] = stake
                row[_STAKE] = stake
                raises += 1
                calls = 0
            length = row[_LENGTH + rnd - 1]
            row[betting_at + (rnd - 1) * slots + length] = action
            row[_LENGTH + rnd - 1] = length + 1
            still_in = row[_IN]
            row[_RAISES] = raises
            row[_CALLS] = calls
            if still_in == 1:  # L7: the last seat in takes the pot
                row[_SEAT] = -1
                row[_OVER] = 1
            elif calls == (still_in if raises == 0 else still_in - 1):  # L6: the round is over
                row[_SEAT] = -1
                if rnd == 2:
                    row[_OVER] = 1
                else:
                    row[_ROUND] = 2
                    row[_RAISES] = 0
                    row[_CALLS] = 0
            else:  # L4: the next seat still in
                nxt = seat
                while True:
                    nxt += 1
                    if nxt == n:
                        nxt = 0
                    if row[folded_at + nxt] == 0:
                        break
                row[_SEAT] = nxt
            steps[i] += 1
            if row[_SEAT] >= 0:
                turns[i] += 1
            cut = row[_OVER] == 0 and past_limits(turns[i], steps[i], max_turns, max_steps)
        # Chance deals while no seat is to act and the hand goes on: the private cards, seat 0 first (L3),
        # then the public card after the first round (L6), each from the cards left, ascending, equally likely.
        while not cut and row[_SEAT] < 0 and row[_OVER] == 0:
            dealt = row[_DEALT]
            left = cards - dealt - (1 if row[_PUBLIC] >= 0 else 0)
            rng[i], pick = draw_below(rng[i], left)
            used = row[_USED]
            card = 0
            while True:
                if (used >> card) & 1 == 0:
                    if pick == 0:
                        break
                    pick -= 1
                card += 1
            row[_USED] = used | (1 << card)
            outcomes[i, drawn[i]] = card
            drawn[i] += 1
            if dealt < n:
                row[_CARDS + dealt] = card
                row[_DEALT] = dealt + 1
                if dealt + 1 == n:
                    row[_SEAT] = row[_FIRST]
            else:
                row[_PUBLIC] = card
                nxt = row[_FIRST]
                while row[folded_at + nxt] != 0:
                    nxt += 1
                    if nxt == n:
                        nxt = 0
                row[_SEAT] = nxt
            steps[i] += 1
            if row[_SEAT] >= 0:
                turns[i] += 1
            cut = past_limits(turns[i], steps[i], max_turns, max_steps)
        over = row[_OVER] != 0
        if over or cut:
            current[i] = -1
            mask[i, 0] = False
            mask[i, 1] = False
            mask[i, 2] = False
            if fresh:
                no_decision[i] = True
            elif over:
                terminated[i] = True
                # L7, L8: the pot shared by the best hands still in (a pair with the public card first, then
                # the rank); each seat's return is its share less its chips, as Leduc.returns computes it.
                best = -1
                if row[_IN] > 1:
                    public_rank = row[_PUBLIC] // 2
                    for s in range(n):
                        if row[folded_at + s] == 0:
                            rank = row[_CARDS + s] // 2
                            value = rank + (100 if rank == public_rank else 0)
                            best = max(best, value)
                pot = 0
                winners = 0
                for s in range(n):
                    pot += row[chips_at + s]
                    if row[folded_at + s] == 0:
                        rank = row[_CARDS + s] // 2
                        value = rank + (100 if rank == row[_PUBLIC] // 2 else 0)
                        if best < 0 or value == best:
                            winners += 1
                share = pot / winners
                for s in range(n):
                    won = 0.0
                    if row[folded_at + s] == 0:
                        rank = row[_CARDS + s] // 2
                        value = rank + (100 if rank == row[_PUBLIC] // 2 else 0)
                        if best < 0 or value == best:
                            won = share
                    rewards[i, s] = won - row[chips_at + s]
            else:
                truncated[i] = True
        else:
            seat = row[_SEAT]
            current[i] = seat
            mask[i, 0] = row[chips_at + seat] < row[_STAKE]  # L5: fold only when facing a bet
            mask[i, 1] = True
            mask[i, 2] = row[_RAISES] < max_raises  # L4
    return -1


# -- observations: LeducEncoding.observe, for every hand -------------------------------------------------------


@_jit
def _observe(data: I32, viewers: I64, out: Any, n: int, slots: int, offsets: I64) -> None:
    (card_at, public_at, chips_at, folded_at, turn_at, round_at, raises_at, shown_at, place_at, betting_at) = (
        offsets[0], offsets[1], offsets[2], offsets[3], offsets[4], offsets[5], offsets[6], offsets[7], offsets[8],
        offsets[9],
    )  # fmt: skip
    view = chips_at >= 0
    cards = 2 * (n + 1)
    chips_col = _CARDS + n
    folded_col = _CARDS + 2 * n
    betting_col = _CARDS + 3 * n
    for i in range(data.shape[0]):
        row = data[i]
        for e in range(out.shape[1]):
            out[i, e] = 0
        viewer = viewers[i]
        first = 0
        if viewer >= 0:
            first = viewer
            mine = row[_CARDS + viewer]
            if mine >= 0:
                out[i, card_at + mine] = 1
            out[i, place_at + (viewer - row[_FIRST] + n) % n] = 1
        if row[_PUBLIC] >= 0:
            out[i, public_at + row[_PUBLIC]] = 1
        if row[_OVER] != 0 and row[_IN] > 1:  # L8: a showdown turns up the hands still in
            for k in range(n):
                other = (first + k) % n
                card = row[_CARDS + other]
                if card >= 0 and row[folded_col + other] == 0:
                    out[i, shown_at + k * cards + card] = 1
        if view:
            for k in range(n):
                other = (first + k) % n
                out[i, chips_at + k] = row[chips_col + other]
                out[i, folded_at + k] = row[folded_col + other]
            if row[_SEAT] >= 0:
                out[i, turn_at + (row[_SEAT] - first + n) % n] = 1
            out[i, round_at] = row[_ROUND]
            out[i, raises_at] = row[_RAISES]
        else:
            for r in range(2):
                for step in range(row[_LENGTH + r]):
                    out[i, betting_at + (r * slots + step) * 3 + row[betting_col + r * slots + step]] = 1


class LeducBatchState(BatchState):
    """``B`` hands of Leduc poker: :class:`~cheekymonkey.batched.BatchState`'s arrays and the game's own.

    The hand's fields are :class:`~cheekymonkey_leduc.LeducState`'s, held in :attr:`data`, one row per hand; the
    properties below are views of it, batch first (``n`` seats).
    """

    FIELDS: ClassVar[tuple[str, ...]] = (*BatchState.FIELDS, "data")

    data: I32
    """B x (13 + 3 n + 2 slots) int32: each hand's fields in one row (the views below name them)."""

    @property
    def players(self) -> int:
        """The number of seats of every hand."""
        return int(self.rewards.shape[1])

    @property
    def seat(self) -> I32:
        """The seat to act, -1 while chance deals and at the end."""
        return self.data[:, _SEAT]

    @property
    def round(self) -> I32:
        """The betting round, 1 or 2."""
        return self.data[:, _ROUND]

    @property
    def public(self) -> I32:
        """The public card's index, -1 before it is dealt."""
        return self.data[:, _PUBLIC]

    @property
    def cards(self) -> I32:
        """B x n: each seat's private card, -1 before it is dealt."""
        return self.data[:, _CARDS : _CARDS + self.players]

    @property
    def chips(self) -> I32:
        """B x n: each seat's chips in the pot."""
        n = self.players
        return self.data[:, _CARDS + n : _CARDS + 2 * n]

    @property
    def folded(self) -> I32:
        """B x n: 1 where the seat has folded."""
        n = self.players
        return self.data[:, _CARDS + 2 * n : _CARDS + 3 * n]


class BatchedLeduc(BatchedGame[LeducBatchState, LeducState, Action]):
    """``B`` hands of Leduc poker at once, each exactly the scalar engine's (see the module's description).

    Args:
        players: The number of seats of every hand, 2 to 10 (L1).
        ruleset: The rules: a :class:`~cheekymonkey_leduc.Rules`, a preset's name, or None for the standard game.
        max_turns: Truncate a hand when a turn (a decision) past this many would begin (None: no limit).
        max_steps: Truncate a hand when this many actions, the deals included, have been played.
        observation: ``"view"`` (the default) or ``"information"``: the kind
            :meth:`~cheekymonkey.batched.BatchedGame.observation` gives.

    Raises:
        InvalidValueError: If an argument is out of range or of the wrong kind.
        InvalidRulesetError: If ``ruleset`` names no preset.
        InvalidGameError: If ``ruleset`` is not a rule set of Leduc poker.
    """

    max_outcomes: ClassVar[int] = MAX_PLAYERS
    """The most cards one step deals in one hand: every private card of a new hand, at ten seats."""

    def __init__(
        self,
        players: int,
        ruleset: Rules | str | None = None,
        *,
        max_turns: int | None = None,
        max_steps: int | None = None,
        observation: str | None = None,
    ) -> None:
        super().__init__(LEDUC, players, ruleset, max_turns=max_turns, max_steps=max_steps, observation=observation)
        rules: Rules = self.ruleset
        if rules.most_in() * players > np.iinfo(np.int32).max:
            raise InvalidValueError(
                f"{players} seats of up to {rules.most_in()} chips: the batched engine holds chips in 32 bits"
            )
        self._slots: Final = (rules.max_raises + 1) * players
        offsets = dict.fromkeys(_FIELDS, -1)
        offsets.update({field.name: field.offset for field in self.encoding.observation_fields})
        self._offsets: Final = np.array([offsets[name] for name in _FIELDS], np.int64)

    def _state_class(self) -> type[LeducBatchState]:
        return LeducBatchState

    def _allocate(self, batch_size: int) -> LeducBatchState:
        width = _CARDS + 3 * self.players + 2 * self._slots
        return LeducBatchState({**self._common(batch_size), "data": np.zeros((batch_size, width), np.int32)})

    def _start(self, states: LeducBatchState) -> None:
        self._play(states, np.zeros(states.batch_size, np.int64), start=True)

    def _advance(self, states: LeducBatchState, actions: I64) -> int:
        return self._play(states, actions, start=False)

    def _play(self, states: LeducBatchState, actions: I64, *, start: bool) -> int:
        rules: Rules = self.ruleset
        bad = _play_all(
            states.data, states.rng, states.steps, states.turns, states.current_player, states.legal_action_mask,
            states.rewards, states.terminated, states.truncated, states.started, states.outcomes,
            states.outcome_count, states.no_decision, actions, start, self.players, rules.ante, rules.raises[0],
            rules.raises[1], rules.max_raises, self._slots, self._turn_limit, self._step_limit,
        )  # fmt: skip
        return int(bad)

    def _observe(self, states: LeducBatchState, seats: I64, out: npt.NDArray[Any]) -> None:
        _observe(states.data, seats, out, self.players, self._slots, self._offsets)

    def decode(self, states: LeducBatchState, index: int) -> LeducState:
        """Hand ``index`` of the batch as a :class:`~cheekymonkey_leduc.LeducState`.

        Raises:
            InvalidValueError: If ``index`` is not a hand of the batch.
        """
        index = self._check_index(states, index)
        row = states.data[index].tolist()
        n = self.players
        slots = self._slots
        betting_at = _CARDS + 3 * n
        rounds = tuple(tuple(row[betting_at + r * slots : betting_at + r * slots + row[_LENGTH + r]]) for r in range(2))
        return LeducState(
            self.ruleset,
            row[_FIRST],
            tuple(None if card < 0 else card for card in row[_CARDS : _CARDS + n]),
            None if row[_PUBLIC] < 0 else row[_PUBLIC],
            row[_ROUND],
            (rounds[0], rounds[1]),
            tuple(row[_CARDS + n : _CARDS + 2 * n]),
            tuple(bool(flag) for flag in row[_CARDS + 2 * n : _CARDS + 3 * n]),
            None if row[_SEAT] < 0 else row[_SEAT],
            row[_RAISES],
            row[_CALLS],
            bool(row[_OVER]),
        )

    def outcome_action(self, outcome: int) -> Deal:
        """``Deal`` of the card with index ``outcome`` (the card's index, as the encoding numbers it)."""
        return Deal(outcome)

    @property
    def num_cards(self) -> int:
        """The cards of the deck (L1)."""
        return len(deck(self.players))
