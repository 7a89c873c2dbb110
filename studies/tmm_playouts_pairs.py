"""Measure the Too Many Monkeys search with aimed playouts against the plain search, game by game.

The plain search (``ExpectimaxBot()``) is deterministic, and the candidate (``ExpectimaxBot(playouts=N)``)
draws only from the bots' random stream, which a seeded game keeps apart from chance's. So on the same seed,
the game with the candidate in one seat is the game of plain searches alone up to the candidate's first
choice that differs, and both games draw the same cards until then. This script plays both games of each
seed and compares the candidate's seat's result in them: the games the playouts do not change count the
same in both, so the gain is measured with less noise than two separate runs of ``simulate`` give.

Seats rotate as in ``simulate`` (game ``i``, seed ``seed + i``, has every bot moved ``i`` seats round the
table), so the candidate's result here is the one ``simulate([ExpectimaxBot(playouts=N), "expectimax",
...], ...)`` gives for the same games. With the package installed, from the repository root::

    python studies/tmm_playouts_pairs.py --seats 6 --games 600 --seed 0 --workers 2

A shared win counts as a fraction (``1/k`` for each of ``k`` winners).
"""

from __future__ import annotations

import argparse
import os

from paired import play_pairs

from cheekymonkey import play_game
from cheekymonkey.toomany import TOO_MANY_MONKEYS
from cheekymonkey.toomany.bots import ExpectimaxBot


def _share(winners: tuple[int, ...], seat: int) -> float:
    return 1 / len(winners) if seat in winners else 0.0


def play_pair(seed: int, game: int, seats: int, playouts: int) -> tuple[float, float]:
    """The candidate's seat's result in the game of plain searches of ``seed``, then with the candidate in it."""
    me = (-game) % seats  # as in simulate: seat s holds line (s + game) % seats, and the candidate is line 0
    plain = play_game([ExpectimaxBot() for _ in range(seats)], game=TOO_MANY_MONKEYS, seed=seed)
    bots = [ExpectimaxBot() for _ in range(seats)]
    bots[me] = ExpectimaxBot(playouts=playouts)
    played = play_game(bots, game=TOO_MANY_MONKEYS, seed=seed)
    return _share(plain.outcome.winners, me), _share(played.outcome.winners, me)


def _pair(job: tuple[int, int, int, int]) -> tuple[float, float]:
    return play_pair(*job)


def main() -> None:
    """Play the pairs and print both win rates, the gain and its standard error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6, help="seats (default 6)")
    parser.add_argument("--games", type=int, default=600, help="games (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED + i (default 0)")
    parser.add_argument("--playouts", type=int, default=150, help="playouts per option (default 150)")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes (default 1); the pairs are the same with any number"
    )
    args = parser.parse_args()
    jobs = [(args.seed + game, game, args.seats, args.playouts) for game in range(args.games)]
    pairs = play_pairs(_pair, jobs, args.workers)
    n = pairs.games
    print(
        f"ExpectimaxBot(playouts={args.playouts}), {args.seats} seats, seeds {args.seed}-{args.seed + n - 1}: "
        f"candidate {pairs.after / n:.1%}, the plain search in the same seat {pairs.before / n:.1%}, "
        f"gain {pairs.gain * 100:+.1f} +- {pairs.error * 100:.1f} points (standard error), "
        f"{pairs.changed:.1%} of games changed, CPU {pairs.cpu:.0f} s, clock {pairs.clock:.0f} s, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print(f"candidate's wins {pairs.after:g} of {n}; the plain search in the same seat {pairs.before:g}")


if __name__ == "__main__":
    main()
