"""Decision steps per second: the batched engines beside the scalar engines, the Gymnasium SoloEnv and Pgx.

Every row plays random legal moves and counts **decision steps**: one action chosen by a seat (the draws are
resolved inside every loop and not counted). The rows, for each game (*Cheeky Monkey*; *Too Many Monkeys*
when ``cheekymonkey.toomany.batched`` exists; Leduc poker when the plug-in ``examples/leduc`` is installed,
``cheekymonkey_leduc.batched``; a game's rows are skipped with a note otherwise):

- the batched engine (``cheekymonkey.cheeky.batched``) at B = 1, 64, 1,024 and 4,096: ``step`` with actions
  from ``random_legal_actions`` (the mask and the rewards are part of every step); at B = 1,024 also with
  each step's observation of the seat to move, of each of the game's kinds (``observation(states, out=...)``);
- the scalar engine: ``legal_actions``, a uniform choice, ``apply``, and ``apply(state, sample_chance(...))``
  at a chance node;
- the scalar Gymnasium ``SoloEnv`` against random bots, the learner choosing uniformly from
  ``action_masks()``;
- the vector environment ``SoloVectorEnv`` (``gymnasium.make_vec("cheekymonkey/Solo-v0", num_envs=1024)``)
  against random bots, the learners' actions from ``random_legal_actions`` on ``action_masks()``, its
  observation of every learner built at every step; its decision steps are the learners' and the opponents'
  (``moves_played``);
- Pgx's ``leduc_holdem`` at B = 1, 64, 1,024 and 4,096 (beside Leduc poker's batched rows), and
  ``connect_four`` at B = 1,024: ``jax.jit`` of a random legal action per game
  (``jax.random.categorical`` over the mask) and ``jax.vmap`` of Pgx's ``auto_reset(env.step, env.init)``,
  as Pgx's own benchmark does (Pgx computes the observation inside every step); skipped with a note where
  JAX or Pgx is not installed.

The rows take turns in every round (the order reversed every other round), each running for about
``--seconds`` of CPU (after a first call apart, untimed, and a calibration); the figure is the median
round's decision steps per second of the process's CPU time (and of elapsed time beside it: on a shared
machine, CPU time is disturbed far less). The first call of
the compiled code in a new process is timed apart, in a child process: once with an empty numba cache (the
compile) and once more with the cache it left (the load).

    python benchmarks/batched.py [--players 2 --rounds 5 --seconds 0.5]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cheekymonkey.batched import random_legal_actions, seed_streams
from cheekymonkey.cheeky.batched import BatchedCheekyMonkey

Work = Callable[[int], int]
"""Run ``n`` units of a row's work; return the decision steps played."""

HAVE_TMM = importlib.util.find_spec("cheekymonkey.toomany.batched") is not None
HAVE_LEDUC = (
    importlib.util.find_spec("cheekymonkey_leduc") is not None
    and importlib.util.find_spec("cheekymonkey_leduc.batched") is not None
)


def batched_row(make: Callable[[], Any], batch: int, observation: bool) -> Work:
    engine = make()
    states = engine.init(batch, seed=1)
    policy = seed_streams(2, batch)
    moves = np.zeros(batch, np.int64)
    out = np.zeros((batch, engine.observation_size), np.float32) if observation else None

    def run(n: int) -> int:
        decisions = 0
        for _ in range(n):
            decisions += batch - int(np.count_nonzero(states.terminated | states.truncated))
            engine.step(states, random_legal_actions(states.legal_action_mask, policy, moves))
            if out is not None:
                engine.observation(states, out=out)
        return decisions

    return run


def protocol_row(game: str, players: int) -> Work:
    """The scalar engine through the Game protocol (a plug-in has no module of engine functions)."""
    from cheekymonkey.games import game_named

    played = game_named(game)
    return _random_playouts(played, played.new_game, players)


def scalar_row(game: str, players: int) -> Work:
    """The built-in games' engine functions called directly; any other game through the protocol."""
    if game not in ("cheeky-monkey", "too-many-monkeys"):
        return protocol_row(game, players)
    if game == "cheeky-monkey":
        from cheekymonkey.cheeky import engine
        from cheekymonkey.cheeky.state import new_game
    else:
        from cheekymonkey.toomany import engine  # type: ignore[no-redef]
        from cheekymonkey.toomany.state import new_game  # type: ignore[assignment]
    return _random_playouts(engine, new_game, players)


def _random_playouts(engine: Any, new_game: Callable[[int], Any], players: int) -> Work:
    """Random legal moves through ``engine``'s apply, legal_actions and chance functions, one game after another."""
    rng = random.Random(1)
    holder = [new_game(players)]
    apply, legal_actions, sample_chance = engine.apply, engine.legal_actions, engine.sample_chance
    is_chance_node, is_terminal = engine.is_chance_node, engine.is_terminal

    def run(n: int) -> int:
        state = holder[0]
        decisions = 0
        while decisions < n:
            if is_terminal(state):
                state = new_game(players)
            elif is_chance_node(state):
                state = apply(state, sample_chance(state, rng))
            else:
                legal = legal_actions(state)
                state = apply(state, legal[int(rng.random() * len(legal))])
                decisions += 1
        holder[0] = state
        return decisions

    return run


def solo_row(game: str, players: int) -> Work:
    from cheekymonkey.rl.gymnasium_env import SoloEnv

    env = SoloEnv(players=players, opponents=["random"] * (players - 1), game=game, max_steps=None)
    env.reset(seed=1)
    rng = np.random.default_rng(1)

    def run(n: int) -> int:
        for _ in range(n):
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            if terminated or truncated:
                env.reset()
        return n

    return run


def vector_row(game: str, players: int, batch: int) -> Work:
    import gymnasium

    from cheekymonkey.rl.gymnasium_env import ENV_ID

    envs: Any = gymnasium.make_vec(ENV_ID, num_envs=batch, players=players, opponents="random", game=game)
    envs.reset(seed=1)
    policy = seed_streams(2, batch)
    moves = np.zeros(batch, np.int64)

    def run(n: int) -> int:
        before = envs.moves_played
        for _ in range(n):
            envs.step(random_legal_actions(envs.action_masks(), policy, moves))
        return int(envs.moves_played - before)

    return run


def pgx_row(name: str, batch: int) -> Work:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(name)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def act_and_step(state: Any, key: Any) -> tuple[Any, Any]:
        key, choose, stepping = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(choose, logits, axis=1)
        return step(state, actions, jax.random.split(stepping, batch)), key

    holder = [jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), batch)), jax.random.PRNGKey(2)]
    jax.block_until_ready(act_and_step(holder[0], holder[1]))

    def run(n: int) -> int:
        state, key = holder
        for _ in range(n):
            state, key = act_and_step(state, key)
        jax.block_until_ready(state)
        holder[:] = [state, key]
        return n * batch  # every Pgx step is a decision (chance is resolved inside)

    return run


FIRST_CALL = """
import time
start, start_cpu = time.perf_counter(), time.process_time()
from {module} import {name}
engine = {name}({players})
states = engine.init(4, seed=1)
engine.step(states, states.legal_action_mask.argmax(axis=1))
engine.observation(states)
print(time.process_time() - start_cpu, time.perf_counter() - start)
"""


def first_call(module: str, name: str, players: int) -> list[tuple[float, float]]:
    """CPU and elapsed seconds to import, compile, init, step and observe in a new process: cold, then cached.

    The first process compiles into an empty numba cache (``NUMBA_CACHE_DIR``, a scratch folder), the second
    loads what the first left there. The package's own imports are counted too.
    """
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
        code = FIRST_CALL.format(module=module, name=name, players=players)
        times = []
        for _ in range(2):
            done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
            cpu, wall = (float(x) for x in done.stdout.split()) if done.returncode == 0 else (float("nan"),) * 2
            times.append((cpu, wall))
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per row per round")
    parser.add_argument("--no-first-call", action="store_true", help="skip timing the first call in new processes")
    args = parser.parse_args()
    players = args.players
    print(f"load average before: {os.getloadavg()}")
    notes: list[str] = []
    games: list[tuple[str, str, str, Callable[[], Any], tuple[str, ...]]] = [
        (
            "Cheeky Monkey",
            "cheeky-monkey",
            "cheekymonkey.cheeky.batched:BatchedCheekyMonkey",
            lambda: BatchedCheekyMonkey(players),
            ("table", "full"),
        )
    ]
    if HAVE_TMM:
        from cheekymonkey.toomany.batched import BatchedTooManyMonkeys  # type: ignore[import-not-found]

        games.append(
            (
                "Too Many Monkeys",
                "too-many-monkeys",
                "cheekymonkey.toomany.batched:BatchedTooManyMonkeys",
                lambda: BatchedTooManyMonkeys(players),
                ("table", "full"),
            )
        )
    else:
        notes.append("Too Many Monkeys: cheekymonkey.toomany.batched is not on this branch; its rows are skipped")
    if HAVE_LEDUC:
        from cheekymonkey_leduc.batched import BatchedLeduc  # type: ignore[import-not-found]

        games.append(
            (
                "Leduc poker",
                "leduc",
                "cheekymonkey_leduc.batched:BatchedLeduc",
                lambda: BatchedLeduc(players),
                ("view", "information"),
            )
        )
    else:
        notes.append("Leduc poker: the plug-in is not installed (pip install -e examples/leduc); its rows are skipped")
    rows: dict[str, Work] = {}
    if not args.no_first_call:
        for title, _, where, _, _ in games:
            module, name = where.split(":")
            (cold, cold_wall), (warm, warm_wall) = first_call(module, name, players)
            print(
                f"{title}: import and first calls in a new process: {cold:.1f} s of CPU ({cold_wall:.1f} s elapsed)"
                f" compiling into an empty cache, {warm:.1f} s of CPU ({warm_wall:.1f} s) loading from the cache"
            )
    for title, game, _, make, kinds in games:
        for batch in (1, 64, 1024, 4096):
            rows[f"{title}, batched, B = {batch:,}"] = batched_row(make, batch, observation=False)
        for kind in kinds:

            def made(kind: str = kind, make: Callable[[], Any] = make) -> Any:
                engine = make()
                return type(engine)(players, observation=kind)

            rows[f"{title}, batched, B = 1,024, with the {kind} observation"] = batched_row(made, 1024, True)
        rows[f"{title}, scalar engine"] = scalar_row(game, players)
        rows[f"{title}, SoloEnv against random bots"] = solo_row(game, players)
        rows[f"{title}, SoloVectorEnv against random bots, N = 1,024"] = vector_row(game, players, 1024)
    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("pgx") is None:
        notes.append("Pgx: JAX or Pgx is not installed (pip install jax pgx); its rows are skipped")
    else:
        import jax
        import pgx

        notes.append(f"Pgx {pgx.__version__}, JAX {jax.__version__}")
        # leduc_holdem at every batch size where Leduc poker's batched rows are timed, else at B = 1,024 only.
        for batch in (1, 64, 1024, 4096) if HAVE_LEDUC else (1024,):
            rows[f"Pgx leduc_holdem, B = {batch:,}"] = pgx_row("leduc_holdem", batch)
        rows["Pgx connect_four, B = 1,024"] = pgx_row("connect_four", 1024)
    # Calibrate: how many units of each row's work take about --seconds of CPU. A first call apart, untimed,
    # compiles or loads whatever the row's calls need, so that no round (nor the calibration) pays for it.
    units: dict[str, int] = {}
    for label, run in rows.items():
        run(1)
        n = 1
        while True:
            start = time.process_time()
            run(n)
            spent = time.process_time() - start
            if spent >= args.seconds / 4:
                units[label] = max(1, int(n * args.seconds / spent))
                break
            n *= 4
    cpu: dict[str, list[float]] = {label: [] for label in rows}
    wall: dict[str, list[float]] = {label: [] for label in rows}
    for number in range(args.rounds):
        order = list(rows) if number % 2 == 0 else list(reversed(rows))
        for label in order:
            start, start_wall = time.process_time(), time.perf_counter()
            decisions = rows[label](units[label])
            cpu[label].append(decisions / (time.process_time() - start))
            wall[label].append(decisions / (time.perf_counter() - start_wall))
        print(f"round {number + 1} of {args.rounds} done; load average {os.getloadavg()[0]:.1f}")
    print(f"\n{players} seats, standard rules, random legal moves; median of {args.rounds} rounds\n")
    width = max(len(label) for label in rows)
    print(f"| {'row':{width}} | decision steps/s (CPU) | decision steps/s (elapsed) |")
    print(f"| {'-' * width} | ---: | ---: |")
    for label in rows:
        print(f"| {label:{width}} | {statistics.median(cpu[label]):,.0f} | {statistics.median(wall[label]):,.0f} |")
    for note in notes:
        print(f"note: {note}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
