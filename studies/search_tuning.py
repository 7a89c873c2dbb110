"""Measure a setting of the search bot against expectimax bots, game by game against all-expectimax games.

Until the search bot first searches it plays exactly as the expectimax bot, and the expectimax bot is
deterministic. So on the same seed, a game of the search bot against expectimax bots is the game of
expectimax bots alone up to the search bot's first search. This script plays the all-expectimax game
of each seed, replays it up to that first search, plays on from there with the search bot, and compares
the two results game by game. The games that the search does not change count the same in both, so the
gain is measured with less noise than two separate runs of ``cheekymonkey simulate`` give (over 600
games at 3 seats, a standard error of 1.6 points instead of about 2.7).

Seats rotate as in ``simulate`` (game ``i``, seed ``seed + i``, has every bot moved ``i`` seats round
the table), so the search bot's win rate here is the one ``simulate --bots
mcts,expectimax,...`` gives for the same games and settings. With the package installed, from the
repository root::

    python studies/search_tuning.py --games 600                   # the bot as shipped, 3 seats
    python studies/search_tuning.py --games 600 --endgame 24      # search from 24 tokens
    python studies/search_tuning.py --games 600 --iterations 2000

Use tuning seeds (the default, from 0): the ladder's evaluations use fresh ones.
"""

from __future__ import annotations

import argparse
import os

from paired import play_pairs

from cheekymonkey import Bot, GameState, Phase, apply, new_game, play_game, score
from cheekymonkey.cheeky.bots import ExpectimaxBot
from cheekymonkey.cheeky.bots.search import MCTSBot
from cheekymonkey.cheeky.engine import sample_chance
from cheekymonkey.play import rngs_for


def _share(state: GameState, seat: int) -> float:
    winners = score(state).winners
    return 1 / len(winners) if seat in winners else 0.0


def play_pair(seed: int, game: int, seats: int, bot: MCTSBot) -> tuple[float, float]:
    """The search bot's seat's result in the all-expectimax game of ``seed`` and in the game with the search bot."""
    me = (-game) % seats  # as in simulate: seat s holds line (s + game) % seats, and the search bot is line 0
    baseline = play_game([ExpectimaxBot() for _ in range(seats)], seed=seed)
    chance_rng, bot_rng = rngs_for(seed)
    state = new_game(seats)
    actions = baseline.record.actions
    played = 0
    # Replay the baseline, drawing from the same chance stream, up to the search bot's first search.
    while state.phase is not Phase.OVER:
        if state.phase is not Phase.CHANCE and state.seat == me and bot._searches(state):
            break
        action = actions[played]
        if state.phase is Phase.CHANCE:
            drawn = sample_chance(state, chance_rng)
            assert drawn == action, "the replay left the baseline game"
        state = apply(state, action)
        played += 1
    bots: list[Bot] = [ExpectimaxBot() for _ in range(seats)]
    bots[me] = bot
    while state.phase is not Phase.OVER:
        if state.phase is Phase.CHANCE:
            state = apply(state, sample_chance(state, chance_rng))
        else:
            state = apply(state, bots[state.seat].choose(state, bot_rng))
    return _share(baseline.state, me), _share(state, me)


def _pair(job: tuple[int, int, int, int, int]) -> tuple[float, float]:
    seed, game, seats, iterations, endgame = job
    return play_pair(seed, game, seats, MCTSBot(iterations=iterations, endgame=endgame))


def main() -> None:
    """Play the pairs and print the win rates, the gain and its standard error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=3, help="seats (default 3)")
    parser.add_argument("--games", type=int, default=600, help="games (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i (default 0)")
    parser.add_argument("--endgame", type=int, default=16, help="search with at most this many tokens out")
    parser.add_argument("--iterations", type=int, default=1000, help="playouts per search (default 1000)")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes (default 1); the pairs are the same with any number"
    )
    args = parser.parse_args()
    bot = MCTSBot(iterations=args.iterations, endgame=args.endgame)
    jobs = [(args.seed + game, game, args.seats, args.iterations, args.endgame) for game in range(args.games)]
    pairs = play_pairs(_pair, jobs, args.workers)
    n = pairs.games
    print(
        f"{bot!r}, {args.seats} seats, seeds {args.seed}-{args.seed + n - 1}: search bot {pairs.after / n:.1%}, "
        f"the same seat with expectimax {pairs.before / n:.1%}, gain {pairs.gain * 100:+.1f} +- "
        f"{pairs.error * 100:.1f} points (standard error), {pairs.changed:.1%} of games changed, "
        f"CPU {pairs.cpu:.0f} s, clock {pairs.clock:.0f} s, load {os.getloadavg()[0]:.2f}"
    )
    print(f"search bot's wins {pairs.after:g} of {n}; expectimax in the same seat {pairs.before:g}")


if __name__ == "__main__":
    main()
