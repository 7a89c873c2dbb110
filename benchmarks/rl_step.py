"""What a step costs through the rl adapters: against PettingZoo's own classic environments, and over the bare engine.

Every loop plays uniformly random legal moves (a random choice among the mask's ones, as PettingZoo's
``performance_benchmark`` does) and counts player decisions; draws are resolved inside each loop and are
not counted as steps. The loops run in alternating rounds in one process, timed by CPU time
(``time.process_time``), and the figure quoted for each is the median over rounds of microseconds per step.

Needs the rl extra, and pygame for PettingZoo's classic environments:
``pip install -e '.[rl]' pygame && python benchmarks/rl_step.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from pettingzoo.classic import connect_four_v3, tictactoe_v3

from cheekymonkey import apply, is_chance_node, is_terminal, legal_actions, new_game, sample_chance
from cheekymonkey.cheeky.encoding import ActionCodec, observe
from cheekymonkey.rl.gymnasium_env import SoloEnv
from cheekymonkey.rl.openspiel_game import load
from cheekymonkey.rl.pettingzoo_env import GameEnv


def aec_loop(make: Callable[[], object], steps: int, seed: int) -> int:
    """Step a PettingZoo AEC environment ``steps`` times with random legal actions; return the steps taken."""
    env = make()
    rng = random.Random(seed)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    done = 0
    while done < steps:
        for agent in env.agent_iter():  # type: ignore[attr-defined]
            observation, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
                done += 1
            env.step(action)  # type: ignore[attr-defined]
            if agent is None:  # pragma: no cover
                break
        env.reset()  # type: ignore[attr-defined]
    return done


def engine_loop(players: int, steps: int, seed: int, *, with_encoding: bool) -> int:
    """The same play on the bare engine: legal_actions, a random choice, apply, sample_chance.

    With ``with_encoding``, each decision also builds the mask and the full observation of the player
    to move, as the adapter does, with the pure encoders (no numpy).
    """
    rng = random.Random(seed)
    codec = ActionCodec(players)
    done = 0
    while done < steps:
        state = new_game(players)
        while not is_terminal(state):
            if is_chance_node(state):
                state = apply(state, sample_chance(state, rng))
                continue
            if with_encoding:
                observe(state, state.seat)
                mask = codec.action_mask(state)
                action = codec.decode_at(state, rng.choice([i for i, legal in enumerate(mask) if legal]))
            else:
                action = rng.choice(legal_actions(state))
            state = apply(state, action)
            done += 1
    return done


def solo_loop(players: int, steps: int, seed: int) -> int:
    """The learner's decisions in the Gymnasium environment (random opponents, so the bots cost little)."""
    env = SoloEnv(players=players, opponents=["random"] * (players - 1))
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    done = 0
    while done < steps:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        _, _, terminated, truncated, info = env.step(action)
        done += 1
        if terminated or truncated:
            _, info = env.reset()
    return done


def openspiel_loop(players: int, steps: int, seed: int) -> int:
    """The same play through the OpenSpiel game: legal_actions, chance_outcomes, apply_action."""
    game = load(players=players)
    rng = random.Random(seed)
    done = 0
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                done += 1
            state.apply_action(action)
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=3000, help="player decisions per loop per round")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    n = args.players
    loops: dict[str, Callable[[int], int]] = {
        "cheekymonkey engine, bare": lambda s: engine_loop(n, args.steps, s, with_encoding=False),
        "cheekymonkey engine + pure mask and full observation": lambda s: engine_loop(
            n, args.steps, s, with_encoding=True
        ),
        "cheekymonkey PettingZoo AEC, full observation": lambda s: aec_loop(lambda: GameEnv(players=n), args.steps, s),
        "cheekymonkey PettingZoo AEC, table observation": lambda s: aec_loop(
            lambda: GameEnv(players=n, observation="table"), args.steps, s
        ),
        "cheekymonkey Gymnasium, full observation": lambda s: solo_loop(n, args.steps, s),
        "cheekymonkey OpenSpiel game (pyspiel)": lambda s: openspiel_loop(n, args.steps, s),
        "PettingZoo tictactoe_v3": lambda s: aec_loop(tictactoe_v3.env, args.steps, s),
        "PettingZoo connect_four_v3": lambda s: aec_loop(connect_four_v3.env, args.steps, s),
    }
    per_step: dict[str, list[float]] = {name: [] for name in loops}
    names = list(loops)
    for round_number in range(args.rounds):
        order = names if round_number % 2 == 0 else names[::-1]
        for name in order:
            start = time.process_time()
            steps = loops[name](round_number)
            per_step[name].append((time.process_time() - start) / steps * 1e6)
    print(f"{n} seats, {args.rounds} rounds of {args.steps} decisions, CPU microseconds per decision (median, min-max)")
    for name in names:
        values = per_step[name]
        print(f"{name:55s} {statistics.median(values):8.1f}   ({min(values):.1f}-{max(values):.1f})")
    print(f"pyspiel {pyspiel.__file__}")


if __name__ == "__main__":
    main()
