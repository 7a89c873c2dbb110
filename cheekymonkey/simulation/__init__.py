"""Simulation at scale: many seeded games between bots, on one core, a process pool, or a Dask or Ray cluster.

:func:`simulate` plays ``games`` games and sums them up in a :class:`Summary`: win rates with 95% Wilson
intervals, mean scores, game lengths and each bot's score distribution. Game ``i`` uses seed ``seed + i``
and moves the bots ``i`` seats round the table, so every bot sits in every seat equally often (the first
seat has an edge).

Any :class:`~cheekymonkey.game.Game` can be simulated (``game=``, a game or its name; Cheeky Monkey by
default); each game is played on a :class:`~cheekymonkey.Table`, which counts the turns by the game's own
rule. A game cut off by the run's limits (``max_actions``, ``max_turns``) is *truncated*: counted apart, never
as a result. What is counted comes from each game's :class:`~cheekymonkey.outcome.Outcome`: the winners, every
seat's place, and the final scores of a game that counts points (:attr:`Summary.scored`).

The games are cut into blocks of consecutive games. Each block is one task: it plays its games and sends
back a :class:`BlockResult`, whole-number counts only (wins in sixtieths, score and length histograms), so
what travels and what is kept stays small however many games are played. Adding whole numbers does not
depend on their order, so the summary is the same, bit for bit, whatever runs the blocks, in whatever
order, in blocks of whatever size.

One module each: ``run`` (:func:`simulate`), ``blocks`` (:class:`Block`, :func:`play_block`), ``summary``
and ``stats`` (what comes back), ``backends`` (the pools, :class:`RayExecutor`), ``errors`` and ``plot``;
``policies`` (:class:`PolicyBot`: a policy, a callable from an observation and a mask to an action index,
played wherever a bot is, or a network read from a weights file,
:func:`~cheekymonkey.simulation.load_policy`) and ``leagues`` (:func:`league`: every pair of bots
head to head, rated).

What runs the blocks:

- nothing given: this process, one block after another;
- ``workers=N``: a local pool of ``N`` processes, started again if one of its processes dies (its blocks
  are played again, and no block is counted twice);
- ``executor=``: any :class:`concurrent.futures.Executor` (a process or thread pool, Dask's
  ``Client(...).get_executor()``, :class:`RayExecutor`), or a ``distributed.Client`` itself.

>>> summary = simulate(["heuristic", "random"], 20, seed=0)
>>> summary.games, [line.name for line in summary.bots], summary.partial
(20, ['heuristic', 'random'], False)
>>> summary == simulate(["heuristic", "random"], 20, seed=0, block_size=3)
True
>>> other = simulate(["random", "random"], 20, seed=0, game="too-many-monkeys", max_turns=400)
>>> other.games + other.truncated, summary.scored, other.scored  # Too Many Monkeys counts no points
(20, True, False)
"""

from cheekymonkey.simulation.backends import RayExecutor
from cheekymonkey.simulation.blocks import WIN_UNITS, Block, BlockResult, play_block
from cheekymonkey.simulation.errors import GameFailedError, SimulationError
from cheekymonkey.simulation.leagues import League, Pairing, Standing, bradley_terry, league
from cheekymonkey.simulation.plot import plot_summary
from cheekymonkey.simulation.policies import NetworkPolicy, Policy, PolicyBot, as_bot, load_policy
from cheekymonkey.simulation.run import simulate
from cheekymonkey.simulation.stats import Histogram, wilson_interval
from cheekymonkey.simulation.summary import BotSummary, SimulationProgress, Summary

__all__ = [
    "WIN_UNITS",
    "Block",
    "BlockResult",
    "BotSummary",
    "GameFailedError",
    "Histogram",
    "League",
    "NetworkPolicy",
    "Pairing",
    "Policy",
    "PolicyBot",
    "RayExecutor",
    "SimulationError",
    "SimulationProgress",
    "Standing",
    "Summary",
    "as_bot",
    "bradley_terry",
    "league",
    "load_policy",
    "play_block",
    "plot_summary",
    "simulate",
    "wilson_interval",
]
