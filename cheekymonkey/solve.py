"""Exact solutions of small games, over the :class:`~cheekymonkey.game.Game` protocol: the value of optimal play.

:func:`solve` visits every state reachable from a game's start (breadth first, following every legal action and
every chance outcome), then computes each seat's value under optimal play: the expected payoff (by default the
:class:`~cheekymonkey.Outcome`'s returns, a seat's probability of winning with a shared win split) when the
seat to move always takes the action best for itself, and chance gives its outcomes with their exact
probabilities. At two seats in a constant-sum game that is the minimax value; at more seats each seat maximises
its own value (max-n), ties going to the first legal action.

Games may return to a state they have left (in a dice race where a bad roll ends the turn, the scores are as
they were a turn ago), so the values are found by value iteration: the state graph is cut into its strongly connected
components, and the components are solved from the end backwards, each by repeated sweeps until no value moves
by more than the tolerance (a component without a cycle needs one sweep, and its values are exact up to
rounding). A ``position`` function may merge states whose futures are the same (a count of moves, kept
for a horizon the game never reaches), so that the graph is finite and small.

:func:`evaluate` gives the exact values when some seats follow given deterministic bots and the others play
optimally, and :func:`play_against` plays seeded games of a bot against optimal play, counting how often the
bot's choice is an optimal one.

The arrays need numpy (the ``rl`` or ``batched`` extra).

>>> from cheekymonkey import CHEEKY_MONKEY, Animal, Ruleset
>>> ruleset = Ruleset.custom({Animal.ELEPHANT: 1, Animal.MONKEY: 1}, max_players=2)
>>> solution = solve(CHEEKY_MONKEY, 2, ruleset)
>>> solution.states, solution.value(solution.root)
(18, (1.0, 0.0))
"""

from __future__ import annotations

import random
from array import array
from collections import deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover - numpy comes with the rl and batched extras
    raise ImportError("cheekymonkey.solve needs numpy: pip install 'cheekymonkey[rl]'") from error

from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.game import Game, GameBot

__all__ = ["DEFAULT_MAX_STATES", "DEFAULT_TOLERANCE", "PlayedAgainst", "Solution", "evaluate", "play_against", "solve"]

S = TypeVar("S")
A = TypeVar("A")

DEFAULT_TOLERANCE: Final = 1e-12
"""Value iteration stops in a component once a sweep moves no value by more than this."""
DEFAULT_MAX_STATES: Final = 10_000_000
"""The most states :func:`solve` visits before it gives up with :class:`~cheekymonkey.errors.InvalidValueError`."""
_MAX_SWEEPS: Final = 1_000_000

_TERMINAL: Final = 0
_CHANCE: Final = 1
_DECISION: Final = 2

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class _Graph:
    """Every state reachable from a start, as arrays: what each is, who moves, and where each edge leads."""

    __slots__ = ("child", "index", "kind", "mover", "payoff", "prob", "start")

    def __init__(
        self,
        index: dict[Hashable, int],
        kind: Ints,
        mover: Ints,
        start: Ints,
        child: Ints,
        prob: Floats,
        payoff: Floats,
    ) -> None:
        self.index = index
        self.kind = kind
        self.mover = mover
        self.start = start
        self.child = child
        self.prob = prob
        self.payoff = payoff


def _explore(
    game: Game[S, A, Any, Any, Any],
    root: S,
    position: Callable[[S], Hashable],
    payoff: Callable[[S], Sequence[float]],
    follow: Callable[[S], Sequence[A]],
    max_states: int,
) -> _Graph:
    """Visit every state reachable from ``root``: ``follow``'s actions at decisions, every outcome at chance."""
    players = game.players(root)
    index: dict[Hashable, int] = {position(root): 0}
    queue: deque[S] = deque([root])
    kind = array("q")
    mover = array("q")
    start = array("q", [0])
    child = array("q")
    prob = array("d")
    payoffs: list[tuple[int, Sequence[float]]] = []
    node = 0
    while queue:
        state = queue.popleft()
        successors: list[tuple[S, float]]
        if game.is_terminal(state):
            kind.append(_TERMINAL)
            mover.append(-1)
            payoffs.append((node, payoff(state)))
            successors = []
        elif game.is_chance_node(state):
            kind.append(_CHANCE)
            mover.append(-1)
            successors = [(game.apply(state, action), float(p)) for action, p in game.chance_outcomes(state)]
        else:
            seat = game.to_move(state)
            assert seat is not None
            kind.append(_DECISION)
            mover.append(seat)
            successors = [(game.apply(state, action), 1.0) for action in follow(state)]
        for successor, p in successors:
            key = position(successor)
            found = index.get(key)
            if found is None:
                found = len(index)
                if found >= max_states:
                    raise InvalidValueError(
                        f"more than {max_states:,} states are reachable: too many to solve (raise max_states)"
                    )
                index[key] = found
                queue.append(successor)
            child.append(found)
            prob.append(p)
        start.append(len(child))
        node += 1
    table = np.zeros((node, players), dtype=np.float64)
    for at, values in payoffs:
        if len(values) != players:
            raise InvalidValueError(f"the payoff gave {len(values)} values for {players} seats")
        table[at] = values
    return _Graph(
        index,
        np.asarray(kind, dtype=np.int64),
        np.asarray(mover, dtype=np.int64),
        np.asarray(start, dtype=np.int64),
        np.asarray(child, dtype=np.int64),
        np.asarray(prob, dtype=np.float64),
        table,
    )


def _levels(start: Sequence[int], child: Sequence[int]) -> tuple[list[int], list[bool]]:
    """Each node's level (its component's: 0 for components with no way out, else 1 + the highest below it).

    Also whether each level holds a cycle (a component of several nodes, or a node leading to itself). The
    components come from Tarjan's algorithm, written without recursion; it finds a component only after every
    component reachable from it, so levels are known as components are found.
    """
    n = len(start) - 1
    order = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    comp_level: list[int] = []
    cyclic: dict[int, bool] = {}
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if order[root] != -1:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, start[root])]
        while work:
            v, edge = work[-1]
            if edge < start[v + 1]:
                work[-1] = (v, edge + 1)
                w = child[edge]
                if order[w] == -1:
                    order[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, start[w]))
                elif on_stack[w] and order[w] < low[v]:
                    low[v] = order[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] != order[v]:
                continue
            this = len(comp_level)
            members = []
            while True:
                w = stack.pop()
                on_stack[w] = False
                comp[w] = this
                members.append(w)
                if w == v:
                    break
            level = 0
            loop = len(members) > 1
            for m in members:
                for edge in range(start[m], start[m + 1]):
                    other = comp[child[edge]]
                    if other == this:
                        loop = True
                    elif comp_level[other] + 1 > level:
                        level = comp_level[other] + 1
            comp_level.append(level)
            cyclic[level] = cyclic.get(level, False) or loop
    levels = [comp_level[c] for c in comp]
    return levels, [cyclic.get(level, False) for level in range(max(comp_level, default=-1) + 1)]


def _gather(start: Ints, nodes: Ints) -> tuple[Ints, Ints, Ints]:
    """The edges of ``nodes`` in order, the offset where each node's edges begin, and how many each has."""
    low = start[nodes]
    counts = start[nodes + 1] - low
    offsets = np.cumsum(counts) - counts
    edges = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(offsets, counts) + np.repeat(low, counts)
    return edges, offsets, counts


def _values(graph: _Graph, tolerance: float, opposed: bool, endless: Floats) -> tuple[Floats, int]:
    """Every node's values under optimal play of the edges given, level by level; and the sweeps made in all.

    ``opposed``: two seats whose interests are opposed (a constant-sum game), so each column is the value of
    a seat that maximises it against a seat that minimises it (minimax); else each seat maximises its own
    (max-n). A play that never ends pays ``endless``: iteration starts from it everywhere but at the end, so
    the values after n sweeps are those of play cut off after n steps, ``endless`` paid if it has not ended.
    """
    levels, cyclic = _levels(graph.start.tolist(), graph.child.tolist())
    terminal = graph.kind == _TERMINAL
    values = np.where(terminal[:, None], graph.payoff - endless, 0.0)
    level_of = np.asarray(levels, dtype=np.int64)
    by_level = np.argsort(level_of, kind="stable")
    bounds = np.searchsorted(level_of[by_level], np.arange(len(cyclic) + 1))
    columns = range(values.shape[1]) if opposed else (None,)
    sweeps = 0
    for level, loop in enumerate(cyclic):
        nodes = by_level[bounds[level] : bounds[level + 1]]
        chance = nodes[graph.kind[nodes] == _CHANCE]
        decision = nodes[graph.kind[nodes] == _DECISION]
        c_edges, c_offsets, _ = _gather(graph.start, chance)
        c_child = graph.child[c_edges]
        c_prob = graph.prob[c_edges][:, None]
        d_edges, d_offsets, d_counts = _gather(graph.start, decision)
        d_child = graph.child[d_edges]
        d_seat = np.repeat(graph.mover[decision], d_counts)
        d_order = np.arange(len(d_edges), dtype=np.int64)
        for column in columns:
            cols = slice(None) if column is None else slice(column, column + 1)
            sign = None if column is None else np.where(d_seat == column, 1.0, -1.0)
            for _ in range(_MAX_SWEEPS):
                sweeps += 1
                # One synchronous (Jacobi) sweep: every new value from the last sweep's, so that after n sweeps
                # the values are exactly those of play cut off n steps on (where a game has several fixed
                # points, this picks the limit of those, whatever order the states are in).
                change = 0.0
                if len(chance):
                    new_chance = np.add.reduceat(c_prob * values[c_child, cols], c_offsets, axis=0)
                    change = float(np.abs(new_chance - values[chance, cols]).max())
                if len(decision):
                    gain = values[d_child, d_seat] if sign is None else sign * values[d_child, column]
                    best = np.repeat(np.maximum.reduceat(gain, d_offsets), d_counts)
                    first = np.minimum.reduceat(np.where(gain >= best, d_order, len(d_order)), d_offsets)
                    new_decision = values[d_child[first], cols]
                    change = max(change, float(np.abs(new_decision - values[decision, cols]).max()))
                    values[decision, cols] = new_decision
                if len(chance):
                    values[chance, cols] = new_chance
                if not loop or change <= tolerance:
                    break
            else:  # pragma: no cover - a game whose values never settle
                raise InvalidValueError(f"value iteration did not settle within {_MAX_SWEEPS:,} sweeps")
    return values + endless, sweeps


def _identity(state: Any) -> Hashable:
    return state  # type: ignore[no-any-return]


class Solution(Generic[S, A]):
    """A solved game: each reachable state's values under optimal play, and the optimal actions from them.

    It is a bot too (:meth:`choose`): the optimal player, which takes the first optimal legal action.
    """

    __slots__ = ("_index", "_position", "endless", "game", "payoff", "root", "sweeps", "tolerance", "values")

    def __init__(
        self,
        game: Game[S, A, Any, Any, Any],
        root: S,
        position: Callable[[S], Hashable],
        index: dict[Hashable, int],
        values: npt.NDArray[np.float64],
        sweeps: int,
        tolerance: float,
        payoff: Callable[[S], Sequence[float]],
        endless: tuple[float, ...],
    ) -> None:
        self.game = game
        """The game solved."""
        self.root = root
        """The state the solution starts from (the game's start unless :func:`solve` was given one)."""
        self._position = position
        self._index = index
        self.values = values
        """Each state's values, one row per state and one column per seat."""
        self.sweeps = sweeps
        """How many sweeps of value iteration the solution took, over every component."""
        self.tolerance = tolerance
        """The largest change of a value in the last sweep of each component with a cycle."""
        self.payoff = payoff
        """Each seat's payoff in a finished state."""
        self.endless = endless
        """What a play that never ends pays each seat."""

    @property
    def states(self) -> int:
        """How many states (positions) are reachable from the root."""
        return len(self._index)

    def _row(self, state: S) -> int:
        row = self._index.get(self._position(state))
        if row is None:
            raise InvalidValueError("the state is not reachable from the solved game's start")
        return row

    def value(self, state: S) -> tuple[float, ...]:
        """Each seat's value in ``state`` under optimal play (its win probability, by default).

        Raises:
            InvalidValueError: If ``state`` is not reachable from :attr:`root`.
        """
        return tuple(float(v) for v in self.values[self._row(state)])

    def action_values(self, state: S) -> tuple[tuple[A, float], ...]:
        """Each legal action in a decision state, with the value it leaves the seat to move under optimal play.

        Raises:
            InvalidValueError: If ``state`` is not a decision, or not reachable from :attr:`root`.
        """
        game = self.game
        seat = game.to_move(state)
        if seat is None:
            raise InvalidValueError("only a state where a seat decides has actions to weigh")
        self._row(state)
        return tuple(
            (action, float(self.values[self._row(game.apply(state, action)), seat]))
            for action in game.legal_actions(state)
        )

    def optimal_actions(self, state: S, slack: float = 1e-9) -> tuple[A, ...]:
        """The legal actions whose value is within ``slack`` of the best, in the game's order."""
        weighed = self.action_values(state)
        best = max(value for _, value in weighed)
        return tuple(action for action, value in weighed if value >= best - slack)

    def choose(self, state: S, rng: random.Random) -> A:
        """The first optimal action: the solution plays as a bot."""
        return self.optimal_actions(state, 0.0)[0]


def solve(
    game: Game[S, A, Any, Any, Any],
    players: int,
    ruleset: Any = None,
    *,
    root: S | None = None,
    position: Callable[[S], Hashable] | None = None,
    payoff: Callable[[S], Sequence[float]] | None = None,
    endless: Sequence[float] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    max_states: int = DEFAULT_MAX_STATES,
) -> Solution[S, A]:
    """Solve a game exactly: every state reachable from its start, and each seat's value under optimal play.

    Args:
        game: The game.
        players: The seats.
        ruleset: The rule set (None: the standard game).
        root: The state to start from (None: ``game.new_game(players, ruleset)``).
        position: What of a state optimal play depends on (None: the whole state); states with equal positions
            are one state of the solution, so it must merge only states whose futures are the same.
        payoff: Each seat's payoff in a finished state (None: ``game.outcome(state).returns``, the win
            probability with a shared win split). With the default at two seats, each seat's value is its
            minimax value (the other seat plays against it); otherwise each seat maximises its own payoff.
        endless: What a play that never ends pays each seat (None: with the default payoff, a draw shared by
            every seat, ``1/players`` each, as a game stopped undecided is scored; else 0 each). Some games
            let a seat keep play going for ever (in Cheeky Monkey a player can claim and bust again and again,
            R22), and then the values depend on it.
        tolerance: Value iteration stops in a component with a cycle once a sweep moves no value by more.
        max_states: The most states to visit.

    Raises:
        InvalidValueError: If more than ``max_states`` states are reachable, or an argument is out of range.
        InvalidGameError: If the game refuses the seats or the rule set.
    """
    if not isinstance(tolerance, float) or not tolerance > 0:
        raise InvalidValueError(f"tolerance must be a positive float, got {tolerance!r}")
    if not is_whole_number(max_states) or max_states < 1:
        raise InvalidValueError(f"max_states must be a positive integer, got {max_states!r}")
    start = game.new_game(players, ruleset) if root is None else root
    key = _identity if position is None else position
    pay = payoff if payoff is not None else _outcome_returns(game)
    seats = game.players(start)
    if endless is None:
        endless = (0.0,) * seats if payoff is not None else (1.0 / seats,) * seats
    if len(endless) != seats:
        raise InvalidValueError(f"endless must give one payoff per seat, {seats}, got {endless!r}")
    graph = _explore(game, start, key, pay, game.legal_actions, max_states)
    opposed = seats == 2 and payoff is None
    values, sweeps = _values(graph, tolerance, opposed, np.asarray(endless, dtype=np.float64))
    return Solution(game, start, key, graph.index, values, sweeps, tolerance, pay, tuple(map(float, endless)))


def _outcome_returns(game: Game[S, A, Any, Any, Any]) -> Callable[[S], Sequence[float]]:
    def returns(state: S) -> Sequence[float]:
        return game.outcome(state).returns

    return returns


def evaluate(
    solution: Solution[S, A],
    bots: Mapping[int, GameBot[S, A]],
    *,
    seed: int = 0,
    max_states: int = DEFAULT_MAX_STATES,
) -> tuple[float, ...]:
    """Each seat's exact value when the seats in ``bots`` follow their bots and the others play optimally.

    Each bot is asked once per state it meets, with a ``random.Random(seed)`` of its own: the figure is exact
    for a bot whose choice is a function of the state (one that ignores its random numbers).

    Raises:
        InvalidValueError: If a seat is not one of the game's, or too many states are reachable.
    """
    game = solution.game
    players = game.players(solution.root)
    for seat in bots:
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise InvalidValueError(f"the seats are 0 to {players - 1}, got {seat!r}")

    def follow(state: S) -> Sequence[A]:
        seat = game.to_move(state)
        bot = bots.get(seat) if seat is not None else None
        if bot is None:
            return (solution.choose(state, random.Random(seed)),)
        return (bot.choose(state, random.Random(seed)),)

    graph = _explore(game, solution.root, solution._position, solution.payoff, follow, max_states)
    values, _ = _values(graph, solution.tolerance, False, np.asarray(solution.endless, dtype=np.float64))
    return tuple(float(v) for v in values[0])


class PlayedAgainst:
    """What :func:`play_against` found: the bot's mean payoff, and how many of its choices were optimal."""

    __slots__ = ("choices", "games", "optimal_choices", "payoff")

    def __init__(self, games: int, payoff: float, choices: int, optimal_choices: int) -> None:
        self.games = games
        """The games played."""
        self.payoff = payoff
        """The bot's mean payoff (its win rate, by default) over the games."""
        self.choices = choices
        """How many choices the bot made (decisions with one legal action left out)."""
        self.optimal_choices = optimal_choices
        """How many of them were optimal."""

    @property
    def optimal_share(self) -> float:
        """The share of the bot's choices that were optimal (1.0 if it had none to make)."""
        return self.optimal_choices / self.choices if self.choices else 1.0


def play_against(
    solution: Solution[S, A],
    bot: GameBot[S, A],
    seat: int,
    games: int,
    seed: int,
    *,
    max_actions: int = 100_000,
) -> PlayedAgainst:
    """Play ``games`` seeded games from the solution's root, ``bot`` at ``seat`` and optimal play at the others.

    Counts the bot's mean payoff and, at each of its decisions with more than one legal action, whether its
    choice is an optimal one (within ``1e-9`` of the best value).

    Raises:
        InvalidValueError: If ``seat`` is not a seat, ``games`` is not positive, or a game passes ``max_actions``.
    """
    game = solution.game
    players = game.players(solution.root)
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise InvalidValueError(f"the seats are 0 to {players - 1}, got {seat!r}")
    if not is_whole_number(games) or games < 1:
        raise InvalidValueError(f"games must be a positive integer, got {games!r}")
    rng = random.Random(seed)
    total = 0.0
    choices = optimal = 0
    for _ in range(games):
        state = solution.root
        for _ in range(max_actions):
            if game.is_terminal(state):
                break
            if game.is_chance_node(state):
                action = game.sample_chance(state, rng)
            elif game.to_move(state) == seat:
                action = bot.choose(state, rng)
                if len(game.legal_actions(state)) > 1:
                    choices += 1
                    optimal += action in solution.optimal_actions(state)
            else:
                action = solution.choose(state, rng)
            state = game.apply(state, action)
        else:
            raise InvalidValueError(f"a game passed {max_actions:,} actions")
        total += float(solution.payoff(state)[seat])
    return PlayedAgainst(games, total / games, choices, optimal)
