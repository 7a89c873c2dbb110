"""The speed benchmark: the yardstick's policy played through the public API, against the yardstick.

The yardstick (``shared/bench/reference_playout.py`` beside the repository or beside a folder above it, or
``--reference PATH``) plays the standard game in one mutable function with no checks. This script plays the
*same policy* through ``new_game``, ``legal_actions``, ``apply``, ``stop_in_order`` and ``sample_chance``,
every rule and legality check in force, and times the two alternately in one process, round after round, so
that both see the same machine load. It prints both rates, their ratio per round and the median ratio, and
checks that the two mean total scores per game agree (they play one policy, so they must, up to sampling
noise).

With the package installed (``pip install -e .``), see ``benchmarks/README.md``::

    python benchmarks/playout.py               # ratio rounds, then per-call costs, memory, seats
    python benchmarks/playout.py --only ratio  # just the ratio
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib.util
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import attrs

import cheekymonkey
from cheekymonkey import (
    Animal,
    Claim,
    Draw,
    GameState,
    Phase,
    Place,
    Ruleset,
    Stop,
    Swap,
    apply,
    chance_outcomes,
    claim_all,
    legal_actions,
    new_game,
    resolve_chance,
    sample_chance,
    score,
    stop_in_order,
)
from cheekymonkey.cheeky.bots import bust_probability


def _find_yardstick() -> Path:
    """The yardstick in ``shared/bench`` beside the repository or beside a folder above it.

    CI clones the repository with ``shared`` beside the clone; a git worktree may sit one or more folders
    deeper (``work/wt/<name>`` beside ``work/shared``), so every folder above the repository is tried, the
    nearest first. If none has it, the path beside the repository (for the error message).
    """
    repository = Path(__file__).resolve().parents[1]
    for folder in repository.parents:
        candidate = folder / "shared" / "bench" / "reference_playout.py"
        if candidate.is_file():
            return candidate
    return repository.parent / "shared" / "bench" / "reference_playout.py"


DEFAULT_REFERENCE = _find_yardstick()
DEFAULT_FAST = DEFAULT_REFERENCE.with_name("fast_playout.py")

_OVER = Phase.OVER
_CHANCE = Phase.CHANCE
_DECIDE = Phase.DECIDE
_PLACING = Phase.PLACING
_MONKEY = Animal.MONKEY
_EMPTY_BAG = (0,) * len(Animal)
_DRAW = Draw()
_STOP = Stop()
_PLACES = tuple(Place(a) for a in Animal)


def load_reference(path: Path, name: str = "reference_playout", option: str = "--reference") -> ModuleType:
    """Import a yardstick script from ``path`` without copying it."""
    if not path.is_file():
        raise SystemExit(f"no yardstick at {str(path)!r}: pass its path with {option}")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the yardstick from {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def api_play(
    players: int,
    rng: random.Random,
    ruleset: Ruleset | None = None,
    stepwise: bool = False,
    separate_draw: bool = False,
    claim_each: bool = False,
) -> list[int]:
    """Play one game of the yardstick's policy through the public API; return the seats' total scores.

    Chance is resolved by the library's own sampler with ``rng``, in one call (``resolve_chance``), or
    with ``separate_draw`` as ``apply(state, sample_chance(state, rng))``: the same draws either way. The
    policy draws from the same ``rng``. Every decision is made from the state, ``legal_actions`` (the
    swaps) and ``bust_probability``; every move goes through a checked engine call. The claims go through
    ``claim_all``, or with ``claim_each`` one ``Claim`` at a time from ``legal_actions``. A stop goes
    through ``stop_in_order``, or with ``stepwise`` through ``Stop`` and one ``Place`` per token.
    """
    state = new_game(players, ruleset=ruleset)
    while state.phase is not _OVER:
        # The turn's draws: a chance node is resolved by the library's sampler (R5).
        state = apply(state, sample_chance(state, rng)) if separate_draw else resolve_chance(state, rng)
        if state.phase is not _DECIDE:
            continue  # a bust (R6): the next turn, or the end
        # 1. A monkey that did not bust: swap with probability 1/2 with a uniformly chosen opponent
        #    whose top is not a monkey (exactly the legal swaps); otherwise claim every claimable.
        swaps = [a for a in legal_actions(state) if a.__class__ is Swap] if state.front[-1] is _MONKEY else None
        if swaps and rng.random() < 0.5:
            state = apply(state, rng.choice(swaps))
        elif claim_each:
            # Take the first legal claim until none is left (R7: the next token down may show the same
            # animal, so claims chain): the state claim_all returns, one Claim at a time.
            while True:
                for action in legal_actions(state):
                    if action.__class__ is Claim:
                        break
                else:
                    break
                state = apply(state, action)
        else:
            state = claim_all(state)
        # 2. Stop on 3+ animals in front, an empty bag, half the bag busting, or with probability 1/4.
        front = state.front
        if len(set(front)) >= 3 or state.bag == _EMPTY_BAG or bust_probability(state) >= 0.5 or rng.random() < 0.25:
            # Stacked in the order they came in front (R9).
            if stepwise:
                state = apply(state, _STOP)
                for animal in front:
                    if state.phase is not _PLACING:
                        break  # the rest were all one animal and went on by themselves
                    state = apply(state, _PLACES[animal])
            else:
                state = stop_in_order(state, front)
        else:
            state = apply(state, _DRAW)
        # 3. Never a herd.
    return list(score(state).totals)


_CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _rate(
    play: Callable[[int, random.Random], list[int]],
    games: int,
    players: int,
    rng: random.Random,
    clock: Callable[[], float] = time.process_time,
) -> tuple[float, list[int]]:
    """Games per second of ``play`` over ``games`` games, and each game's total score."""
    start = clock()
    totals = [sum(play(players, rng)) for _ in range(games)]
    return games / (clock() - start), totals


def _mean_and_error(values: list[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, statistics.stdev(values) / math.sqrt(len(values))


def run_ratio(
    reference: ModuleType,
    rounds: int,
    games: int,
    players: int,
    seed: int,
    clock: str = "cpu",
    stepwise: bool = False,
    fast: ModuleType | None = None,
    separate_draw: bool = False,
    claim_each: bool = False,
) -> float:
    """Time the playouts in turn, round after round; print each round and the median ratios; return the first.

    The API playout is timed against the yardstick and, if given, the fast yardstick, in one process,
    the order rotated every round so that a drift in machine load falls on all alike.
    """
    print(f"== games per second, {players} players, standard rules: {rounds} rounds of {games} games each")
    print(f"   stopping with: {'Stop and one Place per token' if stepwise else 'stop_in_order'}")
    print(f"   drawing with: {'apply(state, sample_chance(state, rng))' if separate_draw else 'resolve_chance'}")
    print(f"   claiming with: {'one Claim at a time from legal_actions' if claim_each else 'claim_all'}")
    play = functools.partial(api_play, stepwise=stepwise, separate_draw=separate_draw, claim_each=claim_each)
    print(f"   engine: {Path(cheekymonkey.__file__).parent} ({'compiled' if _compiled() else 'pure Python'})")
    print(f"   clock: {clock} ({'this process only' if clock == 'cpu' else 'elapsed time'})")
    print(f"   load average before: {_load()}")
    timer = _CLOCKS[clock]
    players_of: dict[str, Callable[[int, random.Random], list[int]]] = {"api": play, "yardstick": reference.play}
    if fast is not None:
        players_of["fast"] = fast.play
    rngs = {name: random.Random(seed + i) for i, name in enumerate(players_of)}
    # One warm-up game each, so imports and first-call costs stay out of the rounds.
    for function in players_of.values():
        function(players, random.Random(0))
    rates: dict[str, list[float]] = {name: [] for name in players_of}
    totals: dict[str, list[int]] = {name: [] for name in players_of}
    names = list(players_of)
    for i in range(rounds):
        gc.collect()
        # Rotate which goes first, so a drift in machine load falls on all alike.
        for name in names[i % len(names) :] + names[: i % len(names)]:
            rate, game_totals = _rate(players_of[name], games, players, rngs[name], timer)
            rates[name].append(rate)
            totals[name] += game_totals
        line = f"   round {i + 1:2}: api {rates['api'][-1]:6.0f} games/s   yardstick {rates['yardstick'][-1]:6.0f}"
        line += f"   ratio {rates['api'][-1] / rates['yardstick'][-1]:.3f}"
        if fast is not None:
            line += f"   fast {rates['fast'][-1]:6.0f}   ratio to fast {rates['api'][-1] / rates['fast'][-1]:.3f}"
        print(line)
    medians = {}
    for name in names[1:]:
        ratios = [a / r for a, r in zip(rates["api"], rates[name], strict=True)]
        medians[name] = statistics.median(ratios)
        print(
            f"   median ratio to the {'fast yardstick' if name == 'fast' else 'yardstick'}: {medians[name]:.3f}"
            f"  (min {min(ratios):.3f}, max {max(ratios):.3f})"
        )
    *_, calls = _recorded(players, 100, seed, claim_each=claim_each)
    api_rate = statistics.median(rates["api"])
    print(
        f"   api: {api_rate:.0f} games/s (median round), {calls / 100:.1f} engine calls a game: "
        f"{1e6 / (api_rate * calls / 100):.2f} us per engine call, the policy's own work included"
    )
    api_mean, api_err = _mean_and_error(totals["api"])
    for name in names[1:]:
        mean, err = _mean_and_error(totals[name])
        z = (api_mean - mean) / math.hypot(api_err, err)
        print(
            f"   mean total score per game: api {api_mean:.2f} +- {api_err:.2f}, {name} {mean:.2f} +- {err:.2f}"
            f"  (z = {z:+.2f}: {'agree' if abs(z) < 3 else 'DISAGREE'})"
        )
    print(f"   load average after: {_load()}")
    return medians["yardstick"]


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def _compiled() -> bool:
    engine = sys.modules["cheekymonkey.cheeky.engine"]
    return not str(engine.__file__).endswith(".py")


def _per_call(func: Callable[[], object], calls: int) -> float:
    """CPU time of one call in nanoseconds: the fastest of seven batches of ``calls`` calls.

    The fastest batch is the one least disturbed by other work on the machine, as with ``timeit``.
    """
    times = []
    for _ in range(7):
        start = time.process_time_ns()
        for _ in range(calls):
            func()
        times.append((time.process_time_ns() - start) / calls)
    return min(times)


Calls = list[tuple[GameState, Any]]


def _recorded(
    players: int, games: int, seed: int, claim_each: bool = False
) -> tuple[Calls, Calls, list[GameState], int]:
    """What the API playout does over ``games`` games: its ``apply``, ``stop_in_order`` and ``claim_all`` calls.

    Returns the ``apply`` calls, the ``stop_in_order`` calls, the states ``claim_all`` was called on that
    had something to claim, and the number of engine calls. Each stop is also expanded into the Stop and
    Place steps that reach the same state, and each claim_all into its Claims; those are added to the
    ``apply`` calls, so that every kind of action has cases to time.
    """
    applied: list[tuple[GameState, Any]] = []
    stops: list[tuple[GameState, Any]] = []
    claimed: list[GameState] = []
    claim_calls = 0

    def recording_apply(state: GameState, action: Any) -> GameState:
        applied.append((state, action))
        return cheekymonkey.apply(state, action)

    def recording_stop(state: GameState, order: Any) -> GameState:
        stops.append((state, tuple(order)))
        return cheekymonkey.stop_in_order(state, order)

    def recording_claim_all(state: GameState) -> GameState:
        nonlocal claim_calls
        claim_calls += 1
        after = cheekymonkey.claim_all(state)
        if after is not state:
            claimed.append(state)
        return after

    names = {"apply": recording_apply, "stop_in_order": recording_stop, "claim_all": recording_claim_all}
    module = globals()
    saved = {name: module[name] for name in names}
    module.update(names)
    try:
        rng = random.Random(seed)
        for _ in range(games):
            # separate_draw: so that each draw is recorded as an apply(Reveal).
            api_play(players, rng, separate_draw=True, claim_each=claim_each)
    finally:
        module.update(saved)
    calls = len(applied) + len(stops) + claim_calls
    for state in claimed:
        while True:
            claim = next((a for a in legal_actions(state) if a.__class__ is Claim), None)
            if claim is None:
                break
            applied.append((state, claim))
            state = apply(state, claim)
    for state, order in stops:
        step = apply(state, _STOP)
        applied.append((state, _STOP))
        for animal in order:
            if step.phase is not _PLACING:
                break
            applied.append((step, _PLACES[animal]))
            step = apply(step, _PLACES[animal])
    return applied, stops, claimed, calls


def run_costs(players: int, seed: int) -> None:
    """Print the median cost of ``apply`` per action kind, of ``legal_actions`` per phase, and more."""
    games = 200
    print(f"== cost per call in nanoseconds ({players} players; states from {games} recorded API playouts)")
    print("   (each: the median over up to 60 recorded cases of the fastest of 7 batches of 200 calls)")
    applied, stops, claimed, calls = _recorded(players, games, seed)
    by_kind: dict[str, list[tuple[GameState, Any]]] = {}
    for state, action in applied:
        by_kind.setdefault(type(action).__name__, []).append((state, action))
    print(
        f"   per game: {calls / games:.1f} engine calls (apply, claim_all and stop_in_order), "
        f"{len(applied) / games:.1f} actions if every stop went by Stop and Place"
    )
    for kind in ("Reveal", "Draw", "Claim", "Swap", "Stop", "Place", "Herd"):
        cases = by_kind.get(kind, [])
        if cases:
            costs = [_per_call(lambda s=s, a=a: apply(s, a), 200) for s, a in cases[:60]]  # type: ignore[misc]
            print(
                f"   apply {kind:<7}            {statistics.median(costs):6.0f}   ({len(cases) / games:4.1f} per game)"
            )
    costs = [_per_call(lambda s=s, o=o: stop_in_order(s, o), 200) for s, o in stops[:60]]  # type: ignore[misc]
    print(f"   stop_in_order            {statistics.median(costs):6.0f}   ({len(stops) / games:4.1f} per game)")
    costs = [_per_call(lambda s=s: claim_all(s), 200) for s in claimed[:60]]  # type: ignore[misc]
    print(f"   claim_all (a claim)      {statistics.median(costs):6.0f}   ({len(claimed) / games:4.1f} per game)")
    decided = [s for s, a in applied if s.phase is _DECIDE and s.claimable is not None][:60]
    costs = [_per_call(lambda s=s: bust_probability(s), 200) for s in decided]  # type: ignore[misc]
    print(f"   bust_probability         {statistics.median(costs):6.0f}")
    states: dict[Phase, list[GameState]] = {}
    for state, _ in applied:
        states.setdefault(state.phase, []).append(state)
    for phase in (_CHANCE, _DECIDE, _PLACING):
        sample = states.get(phase, [])[:60]
        if sample:
            costs = [_per_call(lambda s=s: legal_actions(s), 200) for s in sample]  # type: ignore[misc]
            print(f"   legal_actions at {phase.name:<8} {statistics.median(costs):6.0f}")
    chance = states[_CHANCE][:60]
    rng = random.Random(seed)
    costs = [_per_call(lambda s=s: sample_chance(s, rng), 200) for s in chance]  # type: ignore[misc]
    print(f"   sample_chance            {statistics.median(costs):6.0f}")
    costs = [_per_call(lambda s=s: resolve_chance(s, rng), 200) for s in chance]  # type: ignore[misc]
    print(f"   resolve_chance           {statistics.median(costs):6.0f}   (sample_chance and apply in one call)")
    costs = [_per_call(lambda s=s: chance_outcomes(s), 200) for s in chance]  # type: ignore[misc]
    print(f"   chance_outcomes          {statistics.median(costs):6.0f}   (exact Fractions; not used by the playout)")
    finals = [after for after in (stop_in_order(s, o) for s, o in stops) if after.phase is _OVER][:60]
    costs = [_per_call(lambda s=s: score(s), 50) for s in finals]  # type: ignore[misc]
    print(f"   score (a finished game)  {statistics.median(costs):6.0f}   (once per game)")
    costs = [_per_call(lambda: new_game(players), 200)]
    print(f"   new_game                 {statistics.median(costs):6.0f}")
    costs = [_per_call(lambda: _empty_call(), 200)]
    print(f"   (an empty Python call    {statistics.median(costs):6.0f}, included in each figure above)")


def _empty_call() -> None:
    return None


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """The bytes ``obj`` holds, following tuples, slots and attrs fields; shared objects count once.

    Enum members and small ints are shared with the whole process; they are counted once too, as
    anything else reachable is.
    """
    if seen is None:
        seen = set()
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, tuple | list | set | frozenset):
        size += sum(deep_size(item, seen) for item in obj)
    # Slotted attrs classes list their fields in __slots__; the compiled (native) classes may not, but
    # carry attrs' view of their fields.
    slots = getattr(type(obj), "__slots__", ()) or (
        [f.name for f in attrs.fields(cast(Any, type(obj)))] if attrs.has(type(obj)) else ()
    )
    for name in slots:
        if hasattr(obj, name) and name != "__weakref__":
            size += deep_size(getattr(obj, name), seen)
    return size


def run_memory(players: int, seed: int) -> None:
    """Print the deep size of a state in the middle of a game, and what the state after it adds."""
    print("== memory of a mid-game state (deep size: tuples, slots and fields followed; shared objects once)")
    # One Claim at a time, so that every state the game passes through is an apply's or a stop's.
    applied, stops, _, calls = _recorded(players, 1, seed, claim_each=True)
    ruleset = applied[0][0].ruleset
    half = ruleset.total_tokens // 2
    state, action = next((s, a) for s, a in applied if s.phase is _DECIDE and sum(s.bag) <= half)
    total = deep_size(state)
    rules = deep_size(ruleset)
    out = sum(len(s) for s in state.stacks) + len(state.front)
    print(f"   {players} players, {out} of {ruleset.total_tokens} tokens out of the bag, phase {state.phase.name}")
    print(f"   the state: {total} bytes, of which the rule set (shared by every state of the game) {rules}")
    seen: set[int] = set()
    deep_size(state, seen)
    after = apply(state, action)
    print(f"   the state after {action!r}: {deep_size(after, seen)} bytes not shared with the one before")
    # A whole game's history (what undo keeps): states share their tuples, so each adds little.
    history = [s for s, _ in applied[: calls - len(stops)]] + [s for s, _ in stops]
    seen = set()
    kept = sum(deep_size(s, seen) for s in history)
    print(f"   every state the game passed through ({len(history)}): {kept} bytes, {kept / len(history):.0f} per state")


def run_seats(games: int, seed: int, reference: ModuleType, rounds: int = 3) -> None:
    """Print the API playout's rate and its ratio to the yardstick for 2 to 6 seats."""
    print(f"== cost by number of seats (median of {rounds} alternating rounds of {games} games each)")
    for players in range(2, 7):
        api_rates, ref_rates = [], []
        api_rng, ref_rng = random.Random(seed), random.Random(seed + 1)
        for _ in range(rounds):
            api_rates.append(_rate(api_play, games, players, api_rng)[0])
            ref_rates.append(_rate(reference.play, games, players, ref_rng)[0])
        api_rate, ref_rate = statistics.median(api_rates), statistics.median(ref_rates)
        ratio = statistics.median(a / r for a, r in zip(api_rates, ref_rates, strict=True))
        *_, calls = _recorded(players, 100, seed)
        per_call = 1e6 / (api_rate * calls / 100)
        print(
            f"   {players} seats: api {api_rate:5.0f} games/s, {calls / 100:5.1f} engine calls/game, "
            f"{per_call:4.2f} us per call (policy included); yardstick {ref_rate:5.0f} games/s; ratio {ratio:.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE, help="the yardstick script")
    parser.add_argument(
        "--fast",
        type=Path,
        default=DEFAULT_FAST,
        help="the fast yardstick script, timed in the same rounds if it exists (default: beside the yardstick)",
    )
    parser.add_argument(
        "--separate-draw",
        action="store_true",
        help="draw with apply(state, sample_chance(state, rng)) instead of resolve_chance",
    )
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (default 15)")
    parser.add_argument(
        "--clock",
        choices=sorted(_CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time, robust on a shared machine (default); wall: elapsed time",
    )
    parser.add_argument("--games", type=int, default=200, help="games per playout per round (default 200)")
    parser.add_argument("--players", type=int, default=3, help="seats (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument(
        "--stepwise", action="store_true", help="stop with Stop and one Place per token, not stop_in_order"
    )
    parser.add_argument(
        "--claim-each", action="store_true", help="claim with one Claim at a time from legal_actions, not claim_all"
    )
    parser.add_argument(
        "--only", choices=("ratio", "costs", "memory", "seats"), action="append", help="run only these parts"
    )
    args = parser.parse_args(argv)
    parts = args.only or ["ratio", "costs", "memory", "seats"]
    # Only the ratio and the seats compare with the yardstick: the costs and the memory run without it.
    reference = load_reference(args.reference) if "ratio" in parts or "seats" in parts else None
    if reference is not None and "ratio" in parts:
        fast = load_reference(args.fast, "fast_playout", "--fast") if args.fast.is_file() else None
        if fast is None:
            print(f"(no fast yardstick at {str(args.fast)!r}: only the ratio to the yardstick is measured)")
        run_ratio(
            reference,
            args.rounds,
            args.games,
            args.players,
            args.seed,
            args.clock,
            args.stepwise,
            fast,
            args.separate_draw,
            args.claim_each,
        )
    if "costs" in parts:
        run_costs(args.players, args.seed)
    if "memory" in parts:
        run_memory(args.players, args.seed)
    if reference is not None and "seats" in parts:
        run_seats(args.games, args.seed, reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
