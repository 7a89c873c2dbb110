"""Both games side by side: the cost of one engine call of Cheeky Monkey and of Too Many Monkeys, in one run.

Each game is played whole, through its public API, by the same loop: at a chance node the engine samples
the outcome (``sample_chance``) and it is applied (``apply``); where a player decides, ``legal_actions``
lists the choices, one is picked uniformly with the loop's ``random.Random``, and it is applied. So every
step of either game is two engine calls, and **an engine call** is one call of ``apply``,
``legal_actions`` or ``sample_chance``. The loop asks ``is_terminal`` and ``is_chance_node`` at every step
too; those are not counted as calls (both games ask them alike).

Two figures per game, from the same rounds:

- **whole games**: the loop's CPU time over the engine calls it made, the loop's own work included;
- **engine calls alone**: the calls the round's games made, recorded and then replayed in tight loops
  (each kind of call in its own loop), their CPU time over their number. The two games' replays alternate
  ``--repeats`` times (default 5) and each kind of call keeps its fastest: a replay lasts milliseconds, and
  one busy moment of the machine would otherwise decide it. The garbage collector is paused for the replays
  (not for the whole games), since the recordings it would scan are the benchmark's, not the calls'.

The rounds alternate between the games, the order turned every round, so a change in the machine's load
falls on both alike; the figures are medians over the rounds, and the ratio (Too Many Monkeys over Cheeky
Monkey) is the median of the rounds' ratios. Run it on the compiled build with
``benchmarks/compiled.sh engines``::

    python benchmarks/engines.py [--rounds 9] [--players 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from types import ModuleType
from typing import Any

import cheekymonkey
import cheekymonkey.toomany
from cheekymonkey._compiled import COMPILED

GAMES: dict[str, ModuleType] = {"Cheeky Monkey": cheekymonkey, "Too Many Monkeys": cheekymonkey.toomany}
"""Each game's public API: both offer new_game, apply, legal_actions, sample_chance and the two questions."""


class Recording:
    """The engine calls some whole games made: the applies, the states listed and the states sampled."""

    def __init__(self) -> None:
        self.applied: list[tuple[Any, Any]] = []
        self.listed: list[Any] = []
        self.sampled: list[Any] = []

    @property
    def calls(self) -> int:
        """How many engine calls were made."""
        return len(self.applied) + len(self.listed) + len(self.sampled)


def play(api: ModuleType, players: int, rng: random.Random) -> int:
    """Play one whole game with uniform choices; return the engine calls it made."""
    new_game, apply, legal_actions = api.new_game, api.apply, api.legal_actions
    sample_chance, is_chance_node, is_terminal = api.sample_chance, api.is_chance_node, api.is_terminal
    randrange = rng.randrange
    state = new_game(players)
    steps = 0
    while not is_terminal(state):
        if is_chance_node(state):
            state = apply(state, sample_chance(state, rng))
        else:
            actions = legal_actions(state)
            state = apply(state, actions[randrange(len(actions))])
        steps += 1
    return 2 * steps


def record(api: ModuleType, players: int, rng: random.Random, games: int) -> Recording:
    """The engine calls of ``games`` whole games played as :func:`play` plays them (the same choices)."""
    recording = Recording()
    randrange = rng.randrange
    for _ in range(games):
        state = api.new_game(players)
        while not api.is_terminal(state):
            if api.is_chance_node(state):
                recording.sampled.append(state)
                action = api.sample_chance(state, rng)
            else:
                recording.listed.append(state)
                actions = api.legal_actions(state)
                action = actions[randrange(len(actions))]
            recording.applied.append((state, action))
            state = api.apply(state, action)
    return recording


KINDS = ("apply", "legal_actions", "sample_chance")
"""The engine calls, in the order the replay times them."""


def replay(api: ModuleType, recording: Recording, rng: random.Random) -> dict[str, float]:
    """The CPU time, in seconds, of making every call of ``recording`` again, each kind in a tight loop."""
    apply, legal_actions, sample_chance = api.apply, api.legal_actions, api.sample_chance
    start = time.process_time()
    for state, action in recording.applied:
        apply(state, action)
    listed = time.process_time()
    for state in recording.listed:
        legal_actions(state)
    sampled = time.process_time()
    for state in recording.sampled:
        sample_chance(state, rng)
    end = time.process_time()
    return dict(zip(KINDS, (listed - start, sampled - listed, end - sampled), strict=True))


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def run(rounds: int, players: int, calls: int, seed: int, repeats: int = 5) -> dict[str, float]:
    """Time both games round after round; print every round and the medians; return the two median ratios."""
    print(f"== one engine call, both games, {players} seats, uniform choices: {rounds} rounds, {repeats} replays")
    print(f"   engine: {os.path.dirname(cheekymonkey.__file__)} ({'compiled' if COMPILED else 'pure Python'})")
    print(f"   Python {sys.version.split()[0]}; load average before: {_load()}")
    names = list(GAMES)
    # Games per round, so that each game makes about ``calls`` engine calls a round.
    per_game = {name: play(GAMES[name], players, random.Random(seed)) for name in names}
    sizes = {name: max(1, round(calls / per_game[name])) for name in names}
    whole: dict[str, list[float]] = {name: [] for name in names}
    alone: dict[str, list[float]] = {name: [] for name in names}
    by_kind: dict[str, dict[str, list[float]]] = {name: {kind: [] for kind in KINDS} for name in names}
    made: dict[str, int] = dict.fromkeys(names, 0)
    for index in range(rounds):
        gc.collect()
        order = names[index % 2 :] + names[: index % 2]
        recordings: dict[str, Recording] = {}
        for name in order:
            api = GAMES[name]
            rng = random.Random(seed + 1000 * index)
            start = time.process_time()
            count = sum(play(api, players, rng) for _ in range(sizes[name]))
            whole[name].append((time.process_time() - start) / count * 1e9)
            made[name] += count
            recordings[name] = record(api, players, random.Random(seed + 1000 * index), sizes[name])
        # The calls alone: the two games' replays alternate, and each kind keeps its fastest replay.
        # The collector is paused for them: the recordings hold some hundred thousand objects, which a
        # collection set off by the calls' garbage would scan, at a cost that is not the calls'.
        best = {name: dict.fromkeys(KINDS, float("inf")) for name in names}
        gc.disable()
        try:
            for _ in range(repeats):
                for name in order:
                    for kind, seconds in replay(GAMES[name], recordings[name], random.Random(seed)).items():
                        best[name][kind] = min(best[name][kind], seconds)
        finally:
            gc.enable()
        for name in names:
            recording = recordings[name]
            alone[name].append(sum(best[name].values()) / recording.calls * 1e9)
            numbers = (len(recording.applied), len(recording.listed), len(recording.sampled))
            for kind, number in zip(KINDS, numbers, strict=True):
                by_kind[name][kind].append(best[name][kind] / number * 1e9)
        first, second = names
        print(
            f"   round {index + 1}: whole games {whole[first][-1]:5.0f} / {whole[second][-1]:5.0f} ns a call "
            f"(ratio {whole[second][-1] / whole[first][-1]:.2f});  calls alone {alone[first][-1]:5.0f} / "
            f"{alone[second][-1]:5.0f} ns (ratio {alone[second][-1] / alone[first][-1]:.2f})"
        )
    ratios: dict[str, float] = {}
    for label, figures in (("whole games", whole), ("engine calls alone", alone)):
        ours, theirs = (figures[name] for name in names)
        ratio = statistics.median(b / a for a, b in zip(ours, theirs, strict=True))
        ratios[label] = ratio
        print(
            f"   {label}: {names[0]} {statistics.median(ours):.0f} ns a call, {names[1]} "
            f"{statistics.median(theirs):.0f} ns a call (medians); ratio {ratio:.2f} (median of the rounds')"
        )
    for kind in KINDS:
        ours, theirs = (by_kind[name][kind] for name in names)
        ratio = statistics.median(b / a for a, b in zip(ours, theirs, strict=True))
        print(
            f"   {kind} alone: {names[0]} {statistics.median(ours):.0f} ns, {names[1]} "
            f"{statistics.median(theirs):.0f} ns (medians); ratio {ratio:.2f} (median of the rounds')"
        )
    for name in names:
        print(f"   {name}: {made[name] / rounds / sizes[name]:.0f} engine calls a game, {sizes[name]} games a round")
    print(f"   load average after: {_load()}")
    return ratios


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds (default 9)")
    parser.add_argument("--players", type=int, default=3, help="seats in both games (default 3)")
    parser.add_argument("--calls", type=int, default=20_000, help="engine calls per game per round (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--repeats", type=int, default=5, help="replays of the calls alone, fastest kept (default 5)")
    args = parser.parse_args(argv)
    run(args.rounds, args.players, args.calls, args.seed, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
