"""The choice of tool for the batched engines: one Cheeky Monkey step written with numpy, numba and JAX.

Each version keeps B games of the standard game as arrays (one per field, the batch first, the layout of
:class:`cheekymonkey.cheeky.batched.CheekyBatchState`) and has one step: the decision of every game (its
action index, as :class:`~cheekymonkey.cheeky.encoding.ActionCodec` numbers it), chance resolved up to the
next decision, the end of the game with its returns (R16-R19), the legal-action mask, and a new game where the last one
ended. The versions:

- **numpy**: masked array operations over the whole batch, one operation per rule and field;
- **numba**: the library's own engine (:class:`~cheekymonkey.cheeky.batched.BatchedCheekyMonkey`), a compiled
  loop over the games, one game at a time;
- **JAX**: the step of one game written with ``jnp.where`` over every branch, ``jax.jit(jax.vmap(...))``
  over the batch (needs ``pip install jax``; skipped with a note without it).

Before it times anything the script checks each version against the scalar engine: it plays B = 64 games
for a few hundred steps with random legal actions, replays every game through
:func:`~cheekymonkey.apply` with the same actions and the chance outcomes the version drew, and compares the
states, masks and rewards. Then it times the versions in alternating rounds at B = 1,024 (``--batch``), each
step's random legal actions drawn inside the timed loop (numpy: one array operation; numba: the library's
``random_legal_actions``; JAX: a categorical draw inside the same ``jit``), by the process's CPU time, and
prints the median round's decision steps per second.

    python studies/batched_choice.py [--batch 1024 --players 3 --rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cheekymonkey import CHEEKY_MONKEY, Animal, GameState, Phase, Reveal, Ruleset, apply
from cheekymonkey.batched import random_legal_actions, seed_streams
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey

STANDARD = Ruleset.standard()
COUNTS = np.array(STANDARD.counts, np.int64)
VALUES = np.array(STANDARD.bonus_values, np.int64)
TOTAL = int(COUNTS.sum())
MONKEY = int(Animal.MONKEY)
CHANCE, DECIDE, PLACING, OVER = 0, 1, 2, 3


# --- numpy: masked operations over the batch ---------------------------------------------------------------


class NumpyGames:
    """B standard games as numpy arrays, stepped by masked whole-batch operations."""

    def __init__(self, players: int, batch: int, seed: int) -> None:
        self.n, self.batch = players, batch
        self.width = 11 + 2 * players
        self.rng = np.random.default_rng(seed)
        self.idx = np.arange(batch)
        self.seat = np.zeros(batch, np.int64)
        self.phase = np.zeros(batch, np.int64)
        self.bag = np.zeros((batch, 8), np.int64)
        self.bag_size = np.zeros(batch, np.int64)
        self.heights = np.zeros((batch, players), np.int64)
        self.stacks = np.zeros((batch, players, TOTAL), np.int64)
        self.front = np.zeros((batch, TOTAL), np.int64)
        self.front_len = np.zeros(batch, np.int64)
        self.front_counts = np.zeros((batch, 8), np.int64)
        self.claimable = np.full(batch, -1, np.int64)
        self.swap_open = np.zeros(batch, np.bool_)
        self.mask = np.zeros((batch, self.width), np.bool_)
        self.terminated = np.zeros(batch, np.bool_)
        self.rewards = np.zeros((batch, players), np.float32)
        self.outcomes = np.zeros((batch, 2), np.int64)
        self.outcome_count = np.zeros(batch, np.int64)
        self.started = np.zeros(batch, np.bool_)
        self._new_games(np.ones(batch, np.bool_))
        self._settle(np.zeros(batch, np.bool_))

    def _new_games(self, rows: np.ndarray) -> None:
        self.seat[rows] = 0
        self.phase[rows] = CHANCE
        self.bag[rows] = COUNTS
        self.bag_size[rows] = TOTAL
        self.heights[rows] = 0
        self.front_len[rows] = 0
        self.front_counts[rows] = 0
        self.claimable[rows] = -1
        self.swap_open[rows] = False

    def _push(self, rows: np.ndarray, start: np.ndarray) -> None:
        # The front from ``start`` on goes onto the top of the mover's stack, in its order.
        if not rows.any():
            return
        r = np.flatnonzero(rows)
        me = self.seat[r]
        positions = np.arange(TOTAL)[None, :]
        take = (positions >= start[r, None]) & (positions < self.front_len[r, None])
        where_r, where_i = np.nonzero(take)
        at = self.heights[r, me][where_r] + where_i - start[r][where_r]
        self.stacks[r[where_r], me[where_r], at] = self.front[r[where_r], where_i]
        self.heights[r, me] += self.front_len[r] - start[r]

    def step(self, actions: np.ndarray) -> None:
        """Play one action index in every game, resolve chance, score the ends, and build the masks."""
        n = self.n
        finished = self.terminated.copy()
        self.rewards[:] = 0
        self.outcome_count[:] = 0
        self.started[:] = finished
        self.terminated[:] = False
        self._new_games(finished)
        live = ~finished
        me = self.seat
        kinds = (self.front_counts > 0).sum(axis=1)
        ending = np.zeros(self.batch, np.bool_)
        draw = live & (actions == 0)
        stop = live & (actions == 1)
        herd = live & (actions == 2)
        claim = live & (actions >= 3) & (actions < 3 + n)
        swap = live & (actions >= 3 + n) & (actions < 3 + 2 * n)
        place = live & (actions >= 3 + 2 * n)
        # Draw (R7: unclaimed claims are lost).
        self.phase[draw] = CHANCE
        # Stop: one animal stacks at once (R9, E2); more enter placing.
        one = stop & (kinds == 1)
        self._push(one, np.zeros(self.batch, np.int64))
        ending |= one
        self.phase[stop & ~one] = PLACING
        # Herd (R10): the front under the stack.
        if herd.any():
            r = np.flatnonzero(herd)
            m = me[r]
            size = self.front_len[r]
            positions = np.arange(TOTAL)[None, :]
            below_front = positions < size[:, None]
            old = self.stacks[r, m]
            shifted = np.take_along_axis(old, np.clip(positions - size[:, None], 0, TOTAL - 1), axis=1)
            self.stacks[r, m] = np.where(below_front, self.front[r], shifted)
            self.heights[r, m] += size
            ending |= herd
        # Claim (R7).
        if claim.any():
            r = np.flatnonzero(claim)
            target = (me[r] + actions[r] - 3) % n
            self.heights[r, target] -= 1
            animal = self.claimable[r]
            self.front[r, self.front_len[r]] = animal
            self.front_len[r] += 1
            self.front_counts[r, animal] += 1
        # Swap (R12).
        if swap.any():
            r = np.flatnonzero(swap)
            target = (me[r] + actions[r] - 3 - n) % n
            top = self.heights[r, target] - 1
            taken = self.stacks[r, target, top]
            self.stacks[r, target, top] = MONKEY
            self.front[r, self.front_len[r] - 1] = taken
            self.front_counts[r, MONKEY] -= 1
            self.front_counts[r, taken] += 1
            self.claimable[r] = -1
        self.claimable[draw | stop] = -1
        self.swap_open[draw | stop | claim | swap] = False
        # Place (R9): the first token of the animal goes on the stack; a rest of one animal follows (E2).
        if place.any():
            r = np.flatnonzero(place)
            animal = actions[r] - 3 - 2 * n
            positions = np.arange(TOTAL)[None, :]
            hit = (self.front[r] == animal[:, None]) & (positions < self.front_len[r, None])
            at = hit.argmax(axis=1)
            shifted = np.take_along_axis(self.front[r], np.clip(positions + 1, 0, TOTAL - 1), axis=1)
            self.front[r] = np.where(positions < at[:, None], self.front[r], shifted)
            self.front_len[r] -= 1
            self.front_counts[r, animal] -= 1
            m = me[r]
            self.stacks[r, m, self.heights[r, m]] = animal
            self.heights[r, m] += 1
            rest_one = np.zeros(self.batch, np.bool_)
            rest_one[r] = (self.front_counts[r] > 0).sum(axis=1) == 1
            self._push(rest_one, np.zeros(self.batch, np.int64))
            ending |= rest_one
        self._settle(ending)

    def _settle(self, ending: np.ndarray) -> None:
        n = self.n
        for _ in range(3):
            # R3, E1, R15: the turn ends; the next opens at a chance node, or the game is over.
            if ending.any():
                self.seat[ending] = (self.seat[ending] + 1) % n
                self.front_len[ending] = 0
                self.front_counts[ending] = 0
                self.claimable[ending] = -1
                self.swap_open[ending] = False
                self.phase[ending] = np.where(self.bag_size[ending] > 0, CHANCE, OVER)
            chance = self.phase == CHANCE
            if not chance.any():
                break
            # R5: a token drawn from the bag, each equally likely.
            r = np.flatnonzero(chance)
            pick = self.rng.integers(0, self.bag_size[r])
            animal = (np.cumsum(self.bag[r], axis=1) <= pick[:, None]).sum(axis=1)
            self.outcomes[r, self.outcome_count[r]] = animal
            self.outcome_count[r] += 1
            bust = self.front_counts[r, animal] > 0
            ending = np.zeros(self.batch, np.bool_)
            b = r[bust]
            self.bag[b] += self.front_counts[b]
            self.bag_size[b] += self.front_len[b]
            ending[b] = True
            k, a = r[~bust], animal[~bust]
            self.bag[k, a] -= 1
            self.bag_size[k] -= 1
            self.front[k, self.front_len[k]] = a
            self.front_len[k] += 1
            self.front_counts[k, a] += 1
            self.claimable[k] = a
            self.swap_open[k] = a == MONKEY
            self.phase[k] = DECIDE
        over = self.phase == OVER
        if over.any():
            self.terminated |= over
            self._score(np.flatnonzero(over))
        self._mask()

    def _score(self, r: np.ndarray) -> None:
        heights = self.heights[r]
        positions = np.arange(TOTAL)
        held = positions[None, None, :] < heights[:, :, None]
        rows = ((self.stacks[r][..., None] == np.arange(8)) & held[..., None]).sum(axis=2)  # (R, n, 8)
        most = rows.max(axis=1)
        holders = (rows == most[:, None, :]).sum(axis=1)
        sole = (holders == 1) & (most > 0)  # R16
        holds = (rows == most[:, None, :]) & sole[:, None, :]
        totals = heights + (holds * VALUES).sum(axis=2)
        best = np.where(holds, VALUES, -1).max(axis=2)
        top = totals.max(axis=1)
        tied = totals == top[:, None]
        highest = np.where(tied, best, -1).max(axis=1)
        single = tied.sum(axis=1) == 1
        winners = tied & (single[:, None] | (best == highest[:, None]))  # R18, R19
        self.rewards[r] = winners / winners.sum(axis=1, keepdims=True)

    def _mask(self) -> None:
        n = self.n
        mask = self.mask
        mask[:] = False
        live = ~self.terminated
        decide = live & (self.phase == DECIDE)
        placing = live & (self.phase == PLACING)
        kinds = (self.front_counts > 0).sum(axis=1)
        mask[:, 0] = decide & (self.bag_size > 0)
        mask[:, 1] = decide
        mask[:, 2] = decide & (kinds == 1)
        at = np.clip(self.heights - 1, 0, TOTAL - 1)
        tops = np.where(self.heights > 0, np.take_along_axis(self.stacks, at[:, :, None], axis=2)[:, :, 0], -1)
        for offset in range(1, n):
            other = (self.seat + offset) % n
            top = tops[self.idx, other]
            mask[:, 3 + offset] = decide & (self.claimable >= 0) & (top == self.claimable)
            mask[:, 3 + n + offset] = decide & self.swap_open & (top >= 0) & (top != MONKEY)
        mask[:, 3 + 2 * n :] = placing[:, None] & (self.front_counts > 0)

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game (0 where none is legal)."""
        noise = self.rng.random(self.mask.shape)
        return np.where(self.mask, noise, -1.0).argmax(axis=1)

    def scalar(self, i: int) -> GameState:
        """Game ``i`` as the scalar engine's state."""
        stacks = tuple(tuple(Animal(int(a)) for a in self.stacks[i, s, : self.heights[i, s]]) for s in range(self.n))
        front = tuple(Animal(int(a)) for a in self.front[i, : self.front_len[i]])
        claimable = int(self.claimable[i])
        phase = OVER if self.terminated[i] else int(self.phase[i])
        return GameState(
            STANDARD,
            int(self.seat[i]),
            Phase(phase),
            tuple(int(c) for c in self.bag[i]),
            stacks,
            front,
            None if claimable < 0 else Animal(claimable),
            bool(self.swap_open[i]),
        )


# --- JAX: one game's step, vmapped -------------------------------------------------------------------------


def jax_games(players: int, batch: int, seed: int) -> tuple[Any, Callable[..., Any], Callable[..., Any]]:
    """The JAX version: (the first states, jit(vmap(step)), jit(vmap(act and step))), or raise ImportError."""
    import jax
    import jax.numpy as jnp

    n = players
    width = 11 + 2 * n
    counts = jnp.array(COUNTS, jnp.int32)
    values = jnp.array(VALUES, jnp.int32)
    positions = jnp.arange(TOTAL)
    animals = jnp.arange(8)

    def new_game(key: Any) -> dict[str, Any]:
        return {
            "key": key,
            "seat": jnp.int32(0),
            "phase": jnp.int32(CHANCE),
            "bag": counts,
            "bag_size": jnp.int32(TOTAL),
            "heights": jnp.zeros(n, jnp.int32),
            "stacks": jnp.zeros((n, TOTAL), jnp.int32),
            "front": jnp.zeros(TOTAL, jnp.int32),
            "front_len": jnp.int32(0),
            "front_counts": jnp.zeros(8, jnp.int32),
            "claimable": jnp.int32(-1),
            "swap_open": jnp.bool_(False),
            "mask": jnp.zeros(width, jnp.bool_),
            "terminated": jnp.bool_(False),
            "rewards": jnp.zeros(n, jnp.float32),
            "outcomes": jnp.zeros(2, jnp.int32),
            "outcome_count": jnp.int32(0),
        }

    def push(stack: Any, height: Any, tokens: Any, count: Any) -> tuple[Any, Any]:
        # tokens[:count] go on top of stack[:height].
        source = jnp.clip(positions - height, 0, TOTAL - 1)
        placed = (positions >= height) & (positions < height + count)
        return jnp.where(placed, tokens[source], stack), height + count

    def end_turn(s: dict[str, Any], ending: Any) -> dict[str, Any]:
        following = (s["seat"] + 1) % n
        return {
            **s,
            "seat": jnp.where(ending, following, s["seat"]),
            "front_len": jnp.where(ending, 0, s["front_len"]),
            "front_counts": jnp.where(ending, 0, s["front_counts"]),
            "claimable": jnp.where(ending, -1, s["claimable"]),
            "swap_open": jnp.where(ending, False, s["swap_open"]),
            "phase": jnp.where(ending, jnp.where(s["bag_size"] > 0, CHANCE, OVER), s["phase"]),
        }

    def draw(s: dict[str, Any]) -> dict[str, Any]:
        chance = s["phase"] == CHANCE
        key, sub = jax.random.split(s["key"])
        pick = jax.random.randint(sub, (), 0, jnp.maximum(s["bag_size"], 1))
        animal = jnp.sum(jnp.cumsum(s["bag"]) <= pick).astype(jnp.int32)
        bust = s["front_counts"][animal] > 0
        grow = chance & ~bust
        size = s["front_len"]
        s = {
            **s,
            "key": key,
            "outcomes": jnp.where(chance, s["outcomes"].at[s["outcome_count"]].set(animal), s["outcomes"]),
            "outcome_count": s["outcome_count"] + chance,
            "bag": jnp.where(chance & bust, s["bag"] + s["front_counts"], s["bag"] - grow * (animals == animal)),
            "bag_size": jnp.where(chance & bust, s["bag_size"] + size, s["bag_size"] - grow),
            "front": jnp.where(grow, s["front"].at[size].set(animal), s["front"]),
            "front_len": size + grow,
            "front_counts": s["front_counts"] + grow * (animals == animal),
            "claimable": jnp.where(grow, animal, s["claimable"]),
            "swap_open": jnp.where(grow, animal == MONKEY, s["swap_open"]),
            "phase": jnp.where(grow, DECIDE, s["phase"]),
        }
        return end_turn(s, chance & bust)

    def score(s: dict[str, Any]) -> Any:
        held = positions[None, :] < s["heights"][:, None]
        rows = ((s["stacks"][..., None] == animals) & held[..., None]).sum(axis=1)  # (n, 8)
        most = rows.max(axis=0)
        sole = ((rows == most).sum(axis=0) == 1) & (most > 0)
        holds = (rows == most) & sole
        totals = s["heights"] + (holds * values).sum(axis=1)
        best = jnp.where(holds, values, -1).max(axis=1)
        tied = totals == totals.max()
        highest = jnp.where(tied, best, -1).max()
        winners = tied & ((tied.sum() == 1) | (best == highest))
        return (winners / winners.sum()).astype(jnp.float32)

    def settle(s: dict[str, Any]) -> dict[str, Any]:
        s = draw(draw(s))  # at most two draws a step: the one asked for and, after a bust, the next turn's first
        over = s["phase"] == OVER
        decide = s["phase"] == DECIDE
        placing = s["phase"] == PLACING
        kinds = (s["front_counts"] > 0).sum()
        tops = jnp.where(s["heights"] > 0, s["stacks"][jnp.arange(n), jnp.clip(s["heights"] - 1, 0, TOTAL - 1)], -1)
        offsets = jnp.arange(n)
        other = tops[(s["seat"] + offsets) % n]
        claims = decide & (offsets > 0) & (s["claimable"] >= 0) & (other == s["claimable"])
        swaps = decide & (offsets > 0) & s["swap_open"] & (other >= 0) & (other != MONKEY)
        head = jnp.array([True, True, True]) & jnp.stack([decide & (s["bag_size"] > 0), decide, decide & (kinds == 1)])
        mask = jnp.concatenate([head, claims, swaps, placing & (s["front_counts"] > 0)])
        return {
            **s,
            "mask": mask & ~over,
            "terminated": over,
            "rewards": jnp.where(over, score(s), 0.0),
        }

    def step(s: dict[str, Any], action: Any) -> dict[str, Any]:
        reset = s["terminated"]
        s = {**s, "outcome_count": jnp.int32(0), "terminated": jnp.bool_(False)}
        fresh = new_game(s["key"])
        s = jax.tree_util.tree_map(lambda a, b: jnp.where(reset, a, b), fresh, s)
        live = ~reset
        me = s["seat"]
        size = s["front_len"]
        kinds = (s["front_counts"] > 0).sum()
        stack, height = s["stacks"][me], s["heights"][me]
        is_draw = live & (action == 0)
        is_stop = live & (action == 1)
        is_herd = live & (action == 2)
        is_claim = live & (action >= 3) & (action < 3 + n)
        is_swap = live & (action >= 3 + n) & (action < 3 + 2 * n)
        is_place = live & (action >= 3 + 2 * n)
        # Stop with one animal (R9, E2), herd (R10), place (R9).
        one = is_stop & (kinds == 1)
        stopped, stopped_height = push(stack, height, s["front"], size)
        herded = jnp.where(positions < size, s["front"], stack[jnp.clip(positions - size, 0, TOTAL - 1)])
        animal = action - 3 - 2 * n
        at = jnp.argmax((s["front"] == animal) & (positions < size))
        rest = jnp.where(positions < at, s["front"], s["front"][jnp.clip(positions + 1, 0, TOTAL - 1)])
        rest_counts = s["front_counts"] - (animals == animal)
        rest_one = is_place & ((rest_counts > 0).sum() == 1)
        placed, placed_height = push(stack, height, jnp.full(TOTAL, animal), 1)
        placed_all, placed_all_height = push(placed, placed_height, rest, size - 1)
        new_stack = jnp.where(
            one,
            stopped,
            jnp.where(is_herd, herded, jnp.where(rest_one, placed_all, jnp.where(is_place, placed, stack))),
        )
        new_height = jnp.where(
            one,
            stopped_height,
            jnp.where(
                is_herd,
                height + size,
                jnp.where(rest_one, placed_all_height, jnp.where(is_place, placed_height, height)),
            ),
        )
        stacks = s["stacks"].at[me].set(new_stack)
        heights = s["heights"].at[me].set(new_height)
        # Claim (R7) and swap (R12): another seat's stack.
        target = jnp.where(is_claim, (me + action - 3) % n, (me + action - 3 - n) % n)
        top = heights[target] - 1
        taken = stacks[target, jnp.clip(top, 0, TOTAL - 1)]
        heights = jnp.where(is_claim, heights.at[target].add(-1), heights)
        stacks = jnp.where(is_swap, stacks.at[target, jnp.clip(top, 0, TOTAL - 1)].set(MONKEY), stacks)
        front = jnp.where(is_claim, s["front"].at[size].set(s["claimable"]), s["front"])
        front = jnp.where(is_swap, front.at[size - 1].set(taken), front)
        front = jnp.where(is_place, rest, front)
        counts_now = s["front_counts"] + is_claim * (animals == s["claimable"])
        counts_now = counts_now + is_swap * ((animals == taken).astype(jnp.int32) - (animals == MONKEY))
        counts_now = jnp.where(is_place, rest_counts, counts_now)
        s = {
            **s,
            "stacks": stacks,
            "heights": heights,
            "front": front,
            "front_len": size + is_claim - is_place,
            "front_counts": counts_now,
            "phase": jnp.where(is_draw, CHANCE, jnp.where(is_stop & ~one, PLACING, s["phase"])),
            "claimable": jnp.where(is_draw | is_stop | is_swap, -1, s["claimable"]),
            "swap_open": jnp.where(is_draw | is_stop | is_claim | is_swap, False, s["swap_open"]),
        }
        s = end_turn(s, one | is_herd | rest_one)
        return settle(s)

    keys = jax.random.split(jax.random.PRNGKey(seed), batch)
    first = jax.jit(jax.vmap(lambda k: settle(new_game(k))))(keys)
    stepper = jax.jit(jax.vmap(step))

    def act_and_step(s: dict[str, Any], key: Any) -> tuple[dict[str, Any], Any]:
        key, sub = jax.random.split(key)
        logits = jnp.where(s["mask"], 0.0, -jnp.inf)
        logits = jnp.where(s["mask"].any(axis=1, keepdims=True), logits, 0.0)
        actions = jax.random.categorical(sub, logits, axis=1)
        return jax.vmap(step)(s, actions), key

    return first, stepper, jax.jit(act_and_step)


def _jax_scalar(s: dict[str, Any], i: int, players: int) -> GameState:
    get = {name: np.asarray(value[i]) for name, value in s.items() if name != "key"}
    stacks = tuple(
        tuple(Animal(int(a)) for a in get["stacks"][seat, : get["heights"][seat]]) for seat in range(players)
    )
    front = tuple(Animal(int(a)) for a in get["front"][: get["front_len"]])
    claimable = int(get["claimable"])
    return GameState(
        STANDARD,
        int(get["seat"]),
        Phase(int(get["phase"])),
        tuple(int(c) for c in get["bag"]),
        stacks,
        front,
        None if claimable < 0 else Animal(claimable),
        bool(get["swap_open"]),
    )


# --- the check against the scalar engine -----------------------------------------------------------------


def check(players: int, steps: int) -> list[str]:
    """Each version's games replayed through the scalar engine: the versions checked, or AssertionError."""
    encoding = CHEEKY_MONKEY.encoding(players)
    batch = 64
    checked = []

    def replay(
        before: list[GameState], actions: np.ndarray, after: list[GameState], drawn: list[list[int]], fresh: list[bool]
    ) -> None:
        for i in range(batch):
            if fresh[i]:
                state = GameState(STANDARD, 0, Phase.CHANCE, STANDARD.counts, ((),) * players, (), None, False)
            else:
                state = apply(before[i], encoding.decode(int(actions[i]), before[i]))
            for animal in drawn[i]:
                state = apply(state, Reveal(Animal(animal)))
            assert state == after[i], (i, state, after[i])

    games = NumpyGames(players, batch, 1)
    for _ in range(steps):
        before = [games.scalar(i) for i in range(batch)]
        for i, state in enumerate(before):
            if not games.terminated[i]:
                assert tuple(games.mask[i].tolist()) == encoding.action_mask(state)
        actions = games.random_actions()
        games.step(actions)
        drawn = [games.outcomes[i, : games.outcome_count[i]].tolist() for i in range(batch)]
        replay(before, actions, [games.scalar(i) for i in range(batch)], drawn, games.started.tolist())
    checked.append("numpy")
    try:
        import jax
    except ImportError:
        return checked
    states, stepper, _ = jax_games(players, batch, 1)
    rng = np.random.default_rng(2)
    for _ in range(steps):
        before = [_jax_scalar(states, i, players) for i in range(batch)]
        mask = np.asarray(states["mask"])
        ended = np.asarray(states["terminated"])
        for i, state in enumerate(before):
            if not ended[i]:
                assert tuple(mask[i].tolist()) == encoding.action_mask(state)
        noise = np.where(mask, rng.random(mask.shape), -1.0)
        actions = noise.argmax(axis=1)
        states = stepper(states, jax.numpy.asarray(actions))
        over = np.asarray(states["terminated"])
        after = [_jax_scalar(states, i, players) for i in range(batch)]
        counts = np.asarray(states["outcome_count"])
        drawn = [np.asarray(states["outcomes"])[i, : counts[i]].tolist() for i in range(batch)]
        replay(before, actions, after, drawn, ended.tolist())
        for i in np.flatnonzero(over):
            assert abs(float(np.asarray(states["rewards"])[i].sum()) - 1.0) < 1e-6
    checked.append("jax")
    return checked


# --- the timing ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200, help="steps per round for each version")
    parser.add_argument("--check-steps", type=int, default=300)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    print(f"checked against the scalar engine: {check(args.players, args.check_steps)}")
    batch, players = args.batch, args.players

    engine = BatchedCheekyMonkey(players)
    numba_states = engine.init(batch, seed=1)
    policy = seed_streams(2, batch)
    moves = np.zeros(batch, np.int64)
    games = NumpyGames(players, batch, 1)

    def numba_round() -> int:
        decisions = 0
        for _ in range(args.steps):
            decisions += batch - int((numba_states.terminated | numba_states.truncated).sum())
            engine.step(numba_states, random_legal_actions(numba_states.legal_action_mask, policy, moves))
        return decisions

    def numpy_round() -> int:
        decisions = 0
        for _ in range(args.steps):
            decisions += batch - int(games.terminated.sum())
            games.step(games.random_actions())
        return decisions

    rounds: dict[str, Callable[[], int]] = {"numba": numba_round, "numpy": numpy_round}
    start = time.process_time()
    numba_round()
    print(f"numba: first round (the compiled code loaded or compiled) {time.process_time() - start:.2f} s")
    try:
        import jax
    except ImportError:
        print("JAX: not installed (pip install jax), skipped")
    else:
        first, _, act_and_step = jax_games(players, batch, 1)
        holder = {"states": first, "key": jax.random.PRNGKey(3)}
        start = time.process_time()
        states, _ = act_and_step(holder["states"], holder["key"])
        jax.block_until_ready(states)
        print(f"JAX: jit of the step {time.process_time() - start:.2f} s, jax {jax.__version__}")

        def jax_round() -> int:
            states, key = holder["states"], holder["key"]
            decisions = 0
            ended = []
            for _ in range(args.steps):
                ended.append(states["terminated"])
                states, key = act_and_step(states, key)
            jax.block_until_ready(states)
            holder["states"], holder["key"] = states, key
            decisions = batch * args.steps - int(sum(np.asarray(e).sum() for e in ended))
            return decisions

        rounds["jax"] = jax_round
    rates: dict[str, list[float]] = {name: [] for name in rounds}
    for number in range(args.rounds):
        order = list(rounds) if number % 2 == 0 else list(reversed(rounds))
        for name in order:
            start = time.process_time()
            decisions = rounds[name]()
            rates[name].append(decisions / (time.process_time() - start))
        print(f"round {number + 1}: " + ", ".join(f"{name} {rates[name][-1]:,.0f}" for name in rounds))
    print(f"\nB = {batch}, {players} seats, standard rules: decision steps per second of CPU, median of {args.rounds}")
    for name in rounds:
        print(f"  {name:6} {statistics.median(rates[name]):>14,.0f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
