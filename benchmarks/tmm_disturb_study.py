"""What each Do Not Disturb choice is worth in Too Many Monkeys, valued by playing the game out many times.

Heuristic bots play seeded two-seat games. At every Do Not Disturb decision with two answers or more, each
legal action is applied and the game played out to its end ``--rollouts`` times by heuristic bots; the
action's value is the share of those games the deciding seat wins. Every action of a decision is played
out on the same random streams, so the differences between them are not blurred by luck. The script
reports:

- how much the heuristic's choice and the search's (:class:`~cheekymonkey.toomany.ExpectimaxBot`) fall
  short of the best action found, summed over the decisions;
- where the opponent shows both a wild and a number, how much turning down the wild is worth over the
  best number.

The games are seeded, so a run gives the same figures on every build; the compiled one is about four
times faster::

    python benchmarks/tmm_disturb_study.py --games 300 --rollouts 1000
    benchmarks/compiled.sh study --games 300 --rollouts 1000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

from cheekymonkey._compiled import COMPILED
from cheekymonkey.toomany import Card, ExpectimaxBot, HeuristicBot, Phase, TurnDown, new_game
from cheekymonkey.toomany.engine import apply, is_chance_node, legal_actions, resolve_chance
from cheekymonkey.toomany.state import GameState

_HEURISTIC: Final = HeuristicBot()


def _winner(state: GameState, rng: random.Random) -> int:
    """Play ``state`` out with heuristic bots in every seat; the seat that wins."""
    while state.phase is not Phase.OVER:
        chance = is_chance_node(state)
        state = resolve_chance(state, rng) if chance else apply(state, _HEURISTIC.choose(state, rng))
    return state.seat


def _game(seed: int, rollouts: int) -> list[tuple[float, float, float | None]]:
    """One seeded game's Do Not Disturb decisions with a choice, each valued by play-outs.

    For each: how far the heuristic's and the search's choices fall short of the best action found, and
    the wild's edge over the best number where both could be turned down (else ``None``).
    """
    rng = random.Random(seed)
    search = ExpectimaxBot()
    state = new_game(2)
    found: list[tuple[float, float, float | None]] = []
    while state.phase is not Phase.OVER:
        if is_chance_node(state):
            state = resolve_chance(state, rng)
            continue
        chosen = _HEURISTIC.choose(state, rng)
        actions = legal_actions(state)
        if state.phase is Phase.DISTURB and len(actions) > 1:
            me = state.seat
            decision = len(found)
            values = {}
            for action in actions:
                after = apply(state, action)
                won = sum(_winner(after, random.Random(f"{seed}/{decision}/{run}")) == me for run in range(rollouts))
                values[action] = won / rollouts
            best = max(values.values())
            opponent = 1 - me
            row = state.rows[opponent]
            wilds = [values[TurnDown(opponent, at + 1)] for at, slot in enumerate(row) if slot is Card.WILD]
            numbers = [
                values[TurnDown(opponent, at + 1)]
                for at, slot in enumerate(row)
                if slot.__class__ is Card and slot is not Card.WILD
            ]
            edge = max(wilds) - max(numbers) if wilds and numbers else None
            found.append((best - values[chosen], best - values[search.choose(state, rng)], edge))
        state = apply(state, chosen)
    return found


def main(argv: list[str] | None = None) -> int:
    """Run the study and print its figures; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300, help="games between heuristic bots (default 300)")
    parser.add_argument("--rollouts", type=int, default=1000, help="play-outs per action (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    build = "compiled" if COMPILED else "pure Python"
    print(f"== {args.games} games from seed {args.seed}, {args.rollouts} play-outs per action, {build}")
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        decisions = [entry for game in pool.map(_game, seeds, [args.rollouts] * args.games) for entry in game]
    heuristic = sum(entry[0] for entry in decisions)
    search = sum(entry[1] for entry in decisions)
    edges = [entry[2] for entry in decisions if entry[2] is not None]
    print(f"   {len(decisions)} Do Not Disturb decisions with a choice")
    print(f"   short of the best action found, summed: heuristic {heuristic:.2f}, search {search:.2f} games")
    print(
        f"   so the search's choices win about {100 * (heuristic - search) / (2 * args.games):.2f} points more "
        "of a seat's games than the heuristic's"
    )
    if len(edges) > 1:
        mean = sum(edges) / len(edges)
        spread = math.sqrt(sum((edge - mean) ** 2 for edge in edges) / (len(edges) - 1) / len(edges))
        print(
            f"   a wild and a number to turn down: {len(edges)} decisions; the wild is worth "
            f"{100 * mean:+.2f} points more (standard error {100 * spread:.2f})"
        )
    print(f"   {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
