"""The peer figure: the cost of one action here, beside OpenSpiel's C++ ``pig`` played through ``pyspiel``.

Both play uniformly random games the same way, a Python loop over the library's own calls: at a chance
node the library samples the outcome, otherwise the loop picks one of the legal actions with
``random.Random.choice`` and applies it. The figure is CPU time per action applied, chance outcomes
included, timed alternately in one process round after round. ``pig`` (2 players, to 100 points, a
six-sided die) is a game of similar size whose rules OpenSpiel implements in C++; it shows what a
compiled engine costs when every call still crosses from Python.

Needs ``pip install open_spiel`` (not a dependency of this project)::

    python benchmarks/peer.py [--rounds 9] [--games 200]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cheekymonkey
from cheekymonkey import Phase, apply, legal_actions, new_game, resolve_chance

_OVER = Phase.OVER
_CHANCE = Phase.CHANCE


def play_cheekymonkey(games: int, rng: random.Random) -> int:
    """Play ``games`` random 3-player games; return how many actions were applied."""
    actions = 0
    choice = rng.choice
    for _ in range(games):
        state = new_game(3)
        while state.phase is not _OVER:
            state = resolve_chance(state, rng) if state.phase is _CHANCE else apply(state, choice(legal_actions(state)))
            actions += 1
    return actions


def play_pig(game: Any, games: int, rng: random.Random) -> int:
    """Play ``games`` random games of pyspiel's ``pig``; return how many actions were applied."""
    actions = 0
    choice = rng.choice
    uniform = rng.random
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # Sample the chance outcome from its probabilities, as sample_chance does for a draw.
                outcomes = state.chance_outcomes()
                pick = uniform()
                chosen = outcomes[-1][0]
                for outcome, probability in outcomes:
                    pick -= probability
                    if pick < 0:
                        chosen = outcome
                        break
                state.apply_action(chosen)
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def main(argv: list[str] | None = None) -> int:
    """Time both alternately and print microseconds per action; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds (default 9)")
    parser.add_argument("--games", type=int, default=200, help="games per library per round (default 200)")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit("this benchmark needs OpenSpiel: pip install open_spiel") from None
    game = pyspiel.load_game("pig")
    engine = sys.modules["cheekymonkey.cheeky.engine"]
    compiled = not str(engine.__file__).endswith(".py")
    print(f"== microseconds of CPU time per action, random games, {args.rounds} rounds of {args.games} games each")
    print(f"   cheekymonkey: {Path(cheekymonkey.__file__).parent} ({'compiled' if compiled else 'pure Python'})")
    print(f"   OpenSpiel: pyspiel {getattr(pyspiel, '__version__', '?')}, game {game}")
    print(f"   load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    ours: list[float] = []
    theirs: list[float] = []
    rng_ours, rng_theirs = random.Random(1), random.Random(2)
    play_cheekymonkey(5, random.Random(0))
    play_pig(game, 5, random.Random(0))
    for i in range(args.rounds):
        gc.collect()
        for which in ("ours", "theirs") if i % 2 == 0 else ("theirs", "ours"):
            start = time.process_time()
            if which == "ours":
                count = play_cheekymonkey(args.games, rng_ours)
                ours.append((time.process_time() - start) * 1e6 / count)
            else:
                count = play_pig(game, args.games, rng_theirs)
                theirs.append((time.process_time() - start) * 1e6 / count)
        print(f"   round {i + 1:2}: cheekymonkey {ours[-1]:.2f} us/action   pyspiel pig {theirs[-1]:.2f} us/action")
    print(
        f"   median: cheekymonkey {statistics.median(ours):.2f} us/action, "
        f"pyspiel pig {statistics.median(theirs):.2f} us/action"
    )
    print(f"   load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
