"""How long a bot takes to decide: every decision of seeded games, timed one by one.

Plays ``--games`` seeded games (seeds 0, 1, ...) with ``--seats`` copies of the bot, one per seat,
standard rules, and times every call of ``choose`` (deciding and placing alike), in the order the game
makes them, so the bot's memo is as warm as in real play. Prints the count, the median, the 90th, 95th
and 99th percentiles and the maximum, in milliseconds, over every decision and over the *real choices* alone
(a deciding state with two or more legal actions: no placing, no lone Stop), for each garbage-collector
setting asked for:

- ``on``: the cyclic collector runs as usual, so a bot gets it as it ships (the expectimax and search
  bots pause it during their searches themselves, with ``cheekymonkey.cheeky.bots.paused_gc``);
- ``frozen``: ``gc.freeze()`` after setting up, so the collector skips everything made before the games;
- ``off``: the collector is disabled around each decision, and enabled between decisions.

With the package installed (``pip install -e .``), from the repository root::

    python benchmarks/bot_latency.py                      # expectimax, 6 seats, 20 games, every GC setting
    python benchmarks/bot_latency.py --bot mcts --seats 2 --games 5 --gc on
    python benchmarks/bot_latency.py --game too-many-monkeys --bot expectimax --seats 3 --gc on
    python benchmarks/bot_latency.py --bot mcts --set iterations=400 --seats 6 --games 3 --gc on

``--set NAME=NUMBER`` (repeatable) builds the bot's class with that keyword instead of its defaults, to time
a setting before it is registered: ``--bot mcts --set iterations=400`` times ``MCTSBot(iterations=400)``.

Too Many Monkeys (``--game too-many-monkeys``) asks a player only real choices (the engine makes every
forced move itself, TM18), so there every decision is a real choice; its games are played by the engine's
own loop, chance drawn from ``random.Random(seed)``.

The clock is this process's CPU time by default (``--clock cpu``), which other work on a shared machine
disturbs far less than elapsed time (``--clock wall``). The machine's load average is printed too.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import cheekymonkey.toomany as too_many
from cheekymonkey import Action, GameState, Phase, legal_actions, play_game
from cheekymonkey._compiled import COMPILED
from cheekymonkey.cheeky.bots import ALIASES, BOTS, bot_named
from cheekymonkey.toomany.bots import ALIASES as TOO_MANY_ALIASES


def _percentile(ordered: list[float], fraction: float) -> float:
    # The nearest-rank percentile: the smallest sample with at least this fraction at or below it.
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def _settings(pairs: list[str]) -> dict[str, int | float]:
    """``["iterations=400"]`` as ``{"iterations": 400}``; a value that is not a number is refused."""
    settings: dict[str, int | float] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.isidentifier():
            raise SystemExit(f"--set takes NAME=NUMBER, got {pair!r}")
        try:
            settings[name] = int(value)
        except ValueError:
            try:
                settings[name] = float(value)
            except ValueError:
                raise SystemExit(f"--set {name} takes a number, got {value!r}") from None
    return settings


def _builder(named: Callable[[str], Any], bot_name: str, settings: dict[str, int | float]) -> Callable[[], Any]:
    """A function that builds the bot: by its name, or, with settings, its class with those keywords."""
    if not settings:
        return lambda: named(bot_name)
    kind = type(named(bot_name))
    try:
        kind(**settings)
    except (TypeError, ValueError) as error:  # the library's InvalidValueError is a ValueError
        raise SystemExit(f"{kind.__name__} does not take {settings}: {error}") from None
    return lambda: kind(**settings)


def measure(
    bot_name: str,
    seats: int,
    games: int,
    gc_mode: str,
    clock: Callable[[], int],
    settings: dict[str, int | float] | None = None,
) -> tuple[list[float], list[float]]:
    """Play the games and return every decision's time in milliseconds, and the real choices' times."""
    times: list[float] = []
    choices: list[float] = []
    build = _builder(bot_named, bot_name, settings or {})

    class Timed:
        def __init__(self) -> None:
            self.bot = build()

        def choose(self, state: GameState, rng: object) -> Action:
            disable = gc_mode == "off"
            if disable:
                gc.disable()
            start = clock()
            action = self.bot.choose(state, rng)  # type: ignore[arg-type]
            elapsed = clock() - start
            if disable:
                gc.enable()
            times.append(elapsed / 1e6)
            if state.phase is Phase.DECIDE and len(legal_actions(state)) > 1:
                choices.append(elapsed / 1e6)
            return action

    gc.collect()
    if gc_mode == "frozen":
        gc.freeze()
    try:
        for seed in range(games):
            play_game([Timed() for _ in range(seats)], seed=seed)
    finally:
        if gc_mode == "frozen":
            gc.unfreeze()
    return times, choices


def measure_too_many(
    bot_name: str,
    seats: int,
    games: int,
    gc_mode: str,
    clock: Callable[[], int],
    settings: dict[str, int | float] | None = None,
) -> tuple[list[float], list[float]]:
    """As :func:`measure`, for Too Many Monkeys: every decision is a real choice, so both lists are the same."""
    times: list[float] = []
    build = _builder(too_many.bot_named, bot_name, settings or {})
    gc.collect()
    if gc_mode == "frozen":
        gc.freeze()
    try:
        for seed in range(games):
            bots: list[Any] = [build() for _ in range(seats)]
            rng = random.Random(seed)
            state = too_many.new_game(seats)
            while not too_many.is_terminal(state):
                if too_many.is_chance_node(state):
                    state = too_many.resolve_chance(state, rng)
                    continue
                if gc_mode == "off":
                    gc.disable()
                start = clock()
                action = bots[state.seat].choose(state, rng)
                times.append((clock() - start) / 1e6)
                if gc_mode == "off":
                    gc.enable()
                state = too_many.apply(state, action)
    finally:
        if gc_mode == "frozen":
            gc.unfreeze()
    return times, times


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print one line per GC setting."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", choices=("cheeky-monkey", "too-many-monkeys"), default="cheeky-monkey", help="the game"
    )
    parser.add_argument(
        "--bot",
        choices=sorted({*BOTS, *too_many.BOTS, *ALIASES, *TOO_MANY_ALIASES}),
        default="expectimax",
        help="the bot (default expectimax); strongest: the game's best bot, the one its registry's alias names",
    )
    parser.add_argument("--seats", type=int, default=6, help="seats, every one this bot (default 6)")
    parser.add_argument("--games", type=int, default=20, help="seeded games, seeds 0 and up (default 20)")
    parser.add_argument("--gc", choices=("on", "frozen", "off", "all"), default="all", help="collector setting")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=NUMBER", help="a keyword for the bot's class"
    )
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU time or elapsed time")
    args = parser.parse_args(argv)
    settings = _settings(args.set)
    _builder(too_many.bot_named if args.game == "too-many-monkeys" else bot_named, args.bot, settings)  # refuse early
    clock = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns
    modes = ("on", "frozen", "off") if args.gc == "all" else (args.gc,)
    build = "compiled" if COMPILED else "pure"
    aliases = TOO_MANY_ALIASES if args.game == "too-many-monkeys" else ALIASES
    named = f"{args.bot} ({aliases[args.bot]})" if args.bot in aliases else args.bot
    if settings:
        named += " with " + ", ".join(f"{key}={value}" for key, value in settings.items())
    print(
        f"{args.game}: {named}, {args.seats} seats, {args.games} games, {build} build, "
        f"Python {sys.version.split()[0]}, {args.clock} clock, load {os.getloadavg()[0]:.2f}"
    )
    for mode in modes:
        measured = measure_too_many if args.game == "too-many-monkeys" else measure
        every, choices = measured(args.bot, args.seats, args.games, mode, clock, settings)
        for label, times in (("all", every), ("choices", choices)):
            ordered = sorted(times)
            print(
                f"gc {mode:6} {label:7}: {len(ordered):5} decisions, median {statistics.median(ordered):.3f} ms, "
                f"p90 {_percentile(ordered, 0.90):.3f} ms, p95 {_percentile(ordered, 0.95):.3f} ms, "
                f"p99 {_percentile(ordered, 0.99):.3f} ms, "
                f"max {ordered[-1]:.3f} ms"
            )
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
