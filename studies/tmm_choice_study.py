"""What each choice of one kind is worth in Too Many Monkeys, valued by playing the game out many times.

Heuristic bots play seeded two-seat games. At every decision of the kind studied (``--decision``: the Do
Not Disturb's target, where to put a wild, draw or take the discard, and so on) with two answers or more,
each legal action is applied and the game played out to its end ``--rollouts`` times by heuristic bots;
the action's value is the share of those games the deciding seat wins. Every action of a decision is
played out on the same random streams, so the differences between them are not blurred by luck. The
script reports:

- how much the heuristic's choice and the search's (:class:`~cheekymonkey.toomany.ExpectimaxBot`) fall
  short of the best action found, summed over the decisions (both sums are inflated alike by the luck of
  the play-outs, since the best action found is the luckiest; their difference is not);
- for the Do Not Disturb, where the opponent shows both a wild and a number, how much turning down the
  wild is worth over the best number.

The games are seeded, so a run gives the same figures on every build; the compiled one is about four
times faster::

    python studies/tmm_choice_study.py --decision disturb --games 300 --rollouts 1000
    benchmarks/compiled.sh study --decision wild --games 150 --rollouts 1000
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

from cheekymonkey._compiled import COMPILED
from cheekymonkey.toomany import Action, Card, ExpectimaxBot, HeuristicBot, Phase, TurnDown, new_game
from cheekymonkey.toomany.engine import apply, is_chance_node, legal_actions, resolve_chance
from cheekymonkey.toomany.state import GameState

_HEURISTIC: Final = HeuristicBot()


def _winner(state: GameState, rng: random.Random) -> int:
    """Play ``state`` out with heuristic bots in every seat; the seat that wins."""
    while state.phase is not Phase.OVER:
        chance = is_chance_node(state)
        state = resolve_chance(state, rng) if chance else apply(state, _HEURISTIC.choose(state, rng))
    return state.seat


def _game(seed: int, rollouts: int, phase: Phase) -> list[tuple[float, float, float | None]]:
    """One seeded game's decisions in ``phase`` with a choice, each valued by play-outs.

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
        if state.phase is phase and len(actions) > 1:
            me = state.seat
            decision = len(found)
            values = {}
            for action in actions:
                after = apply(state, action)
                won = sum(_winner(after, random.Random(f"{seed}/{decision}/{run}")) == me for run in range(rollouts))
                values[action] = won / rollouts
            best = max(values.values())
            edge = _wild_edge(state, values) if phase is Phase.DISTURB else None
            found.append((best - values[chosen], best - values[search.choose(state, rng)], edge))
        state = apply(state, chosen)
    return found


def _standard_error(values: list[float]) -> float:
    """The standard error of the mean of ``values`` (two or more)."""
    return statistics.stdev(values) / math.sqrt(len(values))


def _wild_edge(state: GameState, values: dict[Action, float]) -> float | None:
    """How much more turning down the opponent's best wild is worth than its best number, if it shows both."""
    opponent = 1 - state.seat
    row = state.rows[opponent]
    wilds = [values[TurnDown(opponent, at + 1)] for at, slot in enumerate(row) if slot is Card.WILD]
    numbers = [
        values[TurnDown(opponent, at + 1)]
        for at, slot in enumerate(row)
        if slot.__class__ is Card and slot is not Card.WILD
    ]
    return max(wilds) - max(numbers) if wilds and numbers else None


# The decisions a player makes, by the name --decision takes.
DECISIONS: Final = {
    "start": Phase.START,
    "wild": Phase.WILD,
    "bonus": Phase.BONUS,
    "raccoon": Phase.RACCOON,
    "disturb": Phase.DISTURB,
    "skip": Phase.SKIP,
}


def main(argv: list[str] | None = None) -> int:
    """Run the study and print its figures; see ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--decision", choices=list(DECISIONS), default="disturb", help="the kind (default disturb)")
    parser.add_argument("--games", type=int, default=300, help="games between heuristic bots (default 300)")
    parser.add_argument("--rollouts", type=int, default=1000, help="play-outs per action (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    build = "compiled" if COMPILED else "pure Python"
    phase = DECISIONS[args.decision]
    print(
        f"== {args.decision}: {args.games} games from seed {args.seed}, {args.rollouts} play-outs per action, {build}"
    )
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        games = pool.map(_game, seeds, [args.rollouts] * args.games, [phase] * args.games)
        decisions = [entry for game in games for entry in game]
    heuristic = sum(entry[0] for entry in decisions)
    search = sum(entry[1] for entry in decisions)
    edges = [entry[2] for entry in decisions if entry[2] is not None]
    print(f"   {len(decisions)} decisions with a choice")
    print(f"   short of the best action found, summed: heuristic {heuristic:.2f}, search {search:.2f} games")
    gains = [entry[0] - entry[1] for entry in decisions]  # the search's choice over the heuristic's, each
    error = _standard_error(gains) * len(gains) if len(gains) > 1 else 0.0
    print(
        f"   so the search's choices win about {100 * (heuristic - search) / (2 * args.games):.2f} points more "
        f"of a seat's games than the heuristic's (standard error {100 * error / (2 * args.games):.2f})"
    )
    if len(edges) > 1:
        print(
            f"   a wild and a number to turn down: {len(edges)} decisions; the wild is worth "
            f"{100 * sum(edges) / len(edges):+.2f} points more (standard error {100 * _standard_error(edges):.2f})"
        )
    print(f"   {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
