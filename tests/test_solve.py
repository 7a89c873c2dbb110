"""The exact solver (:mod:`cheekymonkey.solve`): held to Neller and Presser's Pig, to brute force, and to bad input.

- Pig to 100 at 2 seats: the first player wins 0.5306 of games under optimal play (T. Neller and C. Presser,
  "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1), 2004).
- Pig to 10 and to 25: every decision's value equals that of the textbook recurrence (win probability of the
  player to move with scores i, j and turn total k), solved here by plain Gauss-Seidel sweeps over a dict,
  without the protocol, the components or numpy.
- A small Cheeky Monkey and a small Too Many Monkeys: every state's values equal those of a plain Gauss-Seidel
  value iteration over the states found by a search of its own (pure Python, through the protocol).
- Where a seat can keep play going for ever, the value depends on what endless play is worth (the solver's
  ``endless``): counted a loss and a win for each seat, the two values bound it; where they meet, the game
  has one value whatever the convention (and whatever the order of the iteration).
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections import deque
from collections.abc import Hashable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cheekymonkey import CHEEKY_MONKEY, Animal, Ruleset
from cheekymonkey.errors import InvalidGameError, InvalidValueError
from cheekymonkey.games import game_named
from cheekymonkey.solve import Solution, evaluate, play_against, solve
from cheekymonkey.toomany import Ruleset as TooManyRuleset

PIG_FOLDER = Path(__file__).resolve().parents[1] / "examples" / "pig"

E, S, M = Animal.ELEPHANT, Animal.SEAL, Animal.MONKEY


@pytest.fixture(scope="module")
def pig() -> Iterator[ModuleType]:
    """Pig, imported from its folder as the "Add a game" how-to does (no install needed)."""
    added = str(PIG_FOLDER) not in sys.path
    if added:
        sys.path.insert(0, str(PIG_FOLDER))
    yield importlib.import_module("cheekymonkey_pig")
    if added:
        sys.path.remove(str(PIG_FOLDER))


def pig_position(state: Any) -> Hashable:
    """Pig's state without its count of moves: with the horizon out of reach, the future does not depend on it."""
    return (state.scores, state.turn_total, state.seat, state.rolling)


def solve_pig(pig: ModuleType, target: int) -> Solution[Any, Any]:
    rules = pig.Rules(winscore=target, horizon=10**9)
    return solve(pig.PIG, 2, rules, position=pig_position)


def pig_recurrence(target: int, faces: int = 6) -> dict[tuple[int, int, int], float]:
    """P(i, j, k): the win probability of the player to move, i banked, the other j, k this turn; optimal play.

    Hold: 1 - P(j, i + k, 0) (a win outright at the target); roll: a 1 gives 1 - P(j, i, 0), a face f > 1
    gives P(i, j, k + f); once i + k reaches the target only holding is allowed, and it wins.
    """
    p = {(i, j, k): 0.0 for i in range(target) for j in range(target) for k in range(target - i + faces)}
    while True:
        change = 0.0
        for (i, j, k), old in p.items():
            if i + k >= target:
                new = 1.0
            else:
                hold = 1.0 - p[(j, i + k, 0)]
                roll = (1.0 - p[(j, i, 0)] + sum(p[(i, j, k + f)] for f in range(2, faces + 1))) / faces
                new = max(hold, roll)
            change = max(change, abs(new - old))
            p[(i, j, k)] = new
        if change < 1e-14:
            return p


@pytest.mark.slow
def test_pig_to_100_first_player_wins_neller_and_presser_0_5306(pig: ModuleType) -> None:
    solution = solve_pig(pig, 100)
    first, second = solution.value(solution.root)
    assert first == pytest.approx(0.5306, abs=1e-4)
    assert first + second == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("target", [10, 25])
def test_pig_solution_equals_the_textbook_recurrence_at_every_decision(pig: ModuleType, target: int) -> None:
    solution = solve_pig(pig, target)
    expected = pig_recurrence(target)
    rules = pig.Rules(winscore=target, horizon=10**9)
    checked = 0
    for (i, j, k), value in expected.items():
        for seat in (0, 1):
            scores = (i, j) if seat == 0 else (j, i)
            state = pig.PigState(rules, scores, k, seat, False, 0)
            try:
                values = solution.value(state)
            except InvalidValueError:
                continue  # not reachable from the start (a turn total no roll sequence gives)
            assert values[seat] == pytest.approx(value, abs=1e-9), (i, j, k, seat)
            assert values[1 - seat] == pytest.approx(1.0 - value, abs=1e-9)
            checked += 1
    assert checked > target * target  # most positions are reachable: the comparison covers them
    assert solution.value(solution.root)[0] == pytest.approx(expected[(0, 0, 0)], abs=1e-12)


def brute_force(game: Any, root: Any, seats: int) -> dict[Any, list[float]]:
    """Every state reachable from ``root`` and its values: Gauss-Seidel sweeps over a dict, no components, no numpy.

    Two seats, each maximising its own win probability against the other; a play that never ends is a draw.
    """
    states: dict[Any, list[float]] = {root: [0.0] * seats}
    queue = deque([root])
    while queue:
        state = queue.popleft()
        actions = () if game.is_terminal(state) else game.legal_actions(state)
        for action in actions:
            successor = game.apply(state, action)
            if successor not in states:
                states[successor] = [0.0] * seats
                queue.append(successor)
    share = 1.0 / seats
    values = {s: list(game.outcome(s).returns) if game.is_terminal(s) else [share] * seats for s in states}
    for column in range(seats):
        # Start from the draw everywhere but the end, and sweep until nothing moves.
        for s in states:
            if not game.is_terminal(s):
                values[s][column] = share
        while True:
            change = 0.0
            for s in states:
                if game.is_terminal(s):
                    continue
                if game.is_chance_node(s):
                    new = sum(float(p) * values[game.apply(s, a)][column] for a, p in game.chance_outcomes(s))
                else:
                    options = [values[game.apply(s, a)][column] for a in game.legal_actions(s)]
                    new = max(options) if game.to_move(s) == column else min(options)
                change = max(change, abs(new - values[s][column]))
                values[s][column] = new
            if change < 1e-13:
                break
    return values


SMALL_CHEEKY = Ruleset.custom({E: 2, M: 2}, swap=True, max_players=2)
SMALL_TOO_MANY = TooManyRuleset.custom(
    {1: 2, "wild": 1, "raccoon": 1, "dnd": 1, "skip": 1, "giraffe": 1}, row_size=1, max_players=2
)
DND_TOO_MANY = TooManyRuleset.custom({1: 2, 2: 2, "wild": 1, "dnd": 1, "giraffe": 1}, row_size=2, max_players=2)
"""The Too Many Monkeys rule set the bot page solves: Do Not Disturb and rows of 2."""


@pytest.mark.parametrize(
    ("game_name", "ruleset", "states"),
    [("cheeky-monkey", SMALL_CHEEKY, 474), ("too-many-monkeys", SMALL_TOO_MANY, 358)],
    ids=["cheeky-monkey", "too-many-monkeys"],
)
def test_small_rule_sets_equal_brute_force_at_every_state(game_name: str, ruleset: Any, states: int) -> None:
    game = game_named(game_name)
    solution = solve(game, 2, ruleset)
    expected = brute_force(game, solution.root, 2)
    assert solution.states == len(expected) == states
    for state, values in expected.items():
        assert solution.value(state) == pytest.approx(tuple(values), abs=1e-9)


def endless_bounds(game: Any, ruleset: Any, players: int = 2) -> tuple[float, float]:
    """Seat 0's value with a play that never ends counted a loss, and counted a win, for each seat."""
    low = solve(game, players, ruleset, endless=(0.0,) * players)
    high = solve(game, players, ruleset, endless=(1.0,) * players)
    return low.value(low.root)[0], high.value(high.root)[0]


def test_too_many_monkeys_with_do_not_disturb_has_one_value_whatever_endless_play_is_worth() -> None:
    # The value is the same whether a play that never ends is a loss, a draw or a win for each seat: no seat
    # gains by keeping play going, and the value is the game's, whatever order value iteration takes.
    game = game_named("too-many-monkeys")
    solution = solve(game, 2, DND_TOO_MANY)
    assert solution.states == 11632
    low, high = endless_bounds(game, DND_TOO_MANY)
    first = solution.value(solution.root)[0]
    assert low == pytest.approx(first, abs=1e-9)
    assert high == pytest.approx(first, abs=1e-9)
    assert first == pytest.approx(0.564687, abs=1e-6)


def test_cheeky_monkey_two_seats_lets_the_trailing_player_force_endless_play() -> None:
    # Claims then a bust put tokens back in the bag (R6, R22): whoever is behind can send the game back, so
    # the value depends on what endless play is worth: a half each with it a draw, a quarter or three
    # quarters for seat 0 with it a loss or a win for each seat.
    drawn = solve(CHEEKY_MONKEY, 2, SMALL_CHEEKY)
    assert drawn.value(drawn.root) == pytest.approx((0.5, 0.5), abs=1e-9)
    assert endless_bounds(CHEEKY_MONKEY, SMALL_CHEEKY) == pytest.approx((0.25, 0.75), abs=1e-9)


def test_a_game_that_cannot_loop_is_exact_in_one_sweep_per_level() -> None:
    ruleset = Ruleset.custom({E: 1, M: 1}, swap=True, max_players=2)
    solution = solve(CHEEKY_MONKEY, 2, ruleset)
    assert solution.value(solution.root) == (1.0, 0.0)  # the first player takes both tokens or the tile
    assert solution.states == 18


def test_the_solution_plays_as_a_bot_and_its_choices_are_optimal() -> None:
    game = game_named("too-many-monkeys")
    solution = solve(game, 2, DND_TOO_MANY)
    optimal = play_against(solution, solution, 0, 50, seed=3)
    assert optimal.optimal_share == 1.0
    assert optimal.choices > 0
    assert evaluate(solution, {0: solution}) == pytest.approx(solution.value(solution.root), abs=1e-9)
    # A random player at seat 0 does worse than optimal, and chooses optimally only sometimes.
    played = play_against(solution, game.bot_named("random"), 0, 400, seed=3)
    assert played.payoff < solution.value(solution.root)[0]
    assert 0.0 < played.optimal_share < 1.0


def test_a_deterministic_bot_is_evaluated_alike_whatever_the_seed() -> None:
    solution = solve(CHEEKY_MONKEY, 2, SMALL_CHEEKY)
    bot = CHEEKY_MONKEY.bot_named("heuristic")
    assert evaluate(solution, {1: bot}, seed=1) == evaluate(solution, {1: bot}, seed=2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tolerance": 0.0}, "tolerance must be a positive float"),
        ({"tolerance": "small"}, "tolerance must be a positive float"),
        ({"max_states": 0}, "max_states must be a positive integer"),
        ({"max_states": 100}, "more than 100 states are reachable"),
        ({"endless": (0.5,)}, "endless must give one payoff per seat"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidValueError, match=message):
        solve(CHEEKY_MONKEY, 2, SMALL_CHEEKY, **kwargs)


def test_states_outside_the_solution_and_bad_seats_are_refused() -> None:
    solution = solve(CHEEKY_MONKEY, 2, SMALL_CHEEKY)
    with pytest.raises(InvalidValueError, match="not reachable"):
        solution.value(CHEEKY_MONKEY.new_game(2))
    with pytest.raises(InvalidValueError, match="only a state where a seat decides"):
        solution.action_values(solution.root)
    with pytest.raises(InvalidValueError, match="the seats are 0 to 1"):
        evaluate(solution, {2: CHEEKY_MONKEY.bot_named("heuristic")})
    with pytest.raises(InvalidValueError, match="the seats are 0 to 1"):
        play_against(solution, CHEEKY_MONKEY.bot_named("heuristic"), -1, 1, seed=0)
    with pytest.raises(InvalidValueError, match="games must be a positive integer"):
        play_against(solution, CHEEKY_MONKEY.bot_named("heuristic"), 0, 0, seed=0)
    with pytest.raises(InvalidGameError):
        solve(CHEEKY_MONKEY, 7, SMALL_CHEEKY)


# -- each bot against optimal play, as the bot pages publish it ------------------------------------------------

BOT_CHEEKY = Ruleset.custom({E: 2, S: 2, M: 2}, swap=True, max_players=2)
"""The Cheeky Monkey rule set the bot page solves: elephants, seals and monkeys, two of each, the swap on."""

EXACT_BOTS = ("heuristic", "expectimax", "learned")
"""The bots whose choice is a function of the state: :func:`evaluate` gives their win rate exactly."""

# (game, bot) -> (exact win rate at seat 0 and 1 against optimal play or None, seeded games per seat,
#                 the seeded win rate's range at seat 0 and 1, the optimal share's range at seat 0 and 1)
PUBLISHED: dict[tuple[str, str], tuple[tuple[float, float] | None, int, tuple[float, float], tuple[float, float]]] = {
    ("cheeky-monkey", "random"): (None, 400, (0.105, 0.0963), (0.5981, 0.5959)),
    ("cheeky-monkey", "heuristic"): ((0.1977, 0.1977), 400, (0.205, 0.225), (0.6219, 0.614)),
    ("cheeky-monkey", "expectimax"): ((0.3273, 0.3273), 400, (0.3075, 0.36), (0.6568, 0.6612)),
    ("cheeky-monkey", "learned"): ((0.1977, 0.1977), 400, (0.205, 0.225), (0.6219, 0.614)),
    ("too-many-monkeys", "random"): (None, 400, (0.4875, 0.34), (0.6854, 0.6787)),
    ("too-many-monkeys", "heuristic"): ((0.5634, 0.4353), 400, (0.5925, 0.4375), (0.9699, 1.0)),
    ("too-many-monkeys", "expectimax"): ((0.5638, 0.4353), 400, (0.5975, 0.4475), (0.9734, 1.0)),
}


@functools.cache
def bot_page_solution(game_name: str) -> Solution[Any, Any]:
    return solve(game_named(game_name), 2, BOT_CHEEKY if game_name == "cheeky-monkey" else DND_TOO_MANY)


def test_the_bot_pages_rule_sets_solved() -> None:
    cheeky = bot_page_solution("cheeky-monkey")
    assert cheeky.states == 16444
    assert cheeky.value(cheeky.root) == pytest.approx((0.5, 0.5), abs=1e-9)
    assert endless_bounds(CHEEKY_MONKEY, BOT_CHEEKY) == pytest.approx((0.4144, 0.5856), abs=5e-5)
    too_many = bot_page_solution("too-many-monkeys")
    assert too_many.value(too_many.root) == pytest.approx((0.5647, 0.4353), abs=5e-5)


@pytest.mark.parametrize(("game_name", "bot"), sorted(PUBLISHED))
def test_each_bot_against_optimal_play_as_published(game_name: str, bot: str) -> None:
    exact, games, rates, shares = PUBLISHED[(game_name, bot)]
    game = game_named(game_name)
    solution = bot_page_solution(game_name)
    for seat in (0, 1):
        if exact is not None:
            assert evaluate(solution, {seat: game.bot_named(bot)})[seat] == pytest.approx(exact[seat], abs=5e-5)
        played = play_against(solution, game.bot_named(bot), seat, games, seed=2026 + seat)
        assert played.payoff == pytest.approx(rates[seat], abs=5e-5)
        assert played.optimal_share == pytest.approx(shares[seat], abs=5e-5)
        # The optimum is the most a seat can be sure of: no bot's exact win rate against it is above it.
        if exact is not None:
            assert exact[seat] <= solution.value(solution.root)[seat] + 1e-9


SEARCH_PUBLISHED = {"mcts": [(0.3325, 0.6631), (0.36, 0.6612)], "mcts400": [(0.3475, 0.6715), (0.3375, 0.6652)]}
"""Each search bot at seat 0 and 1: its win rate and optimal share over 400 seeded games each (seeds 2026, 2027)."""


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(SEARCH_PUBLISHED))
def test_the_search_bots_against_optimal_play_as_published(bot: str) -> None:
    """``mcts`` and ``mcts400`` over 400 seeded games a seat (seeds 2026, 2027): win rate, optimal share."""
    solution = bot_page_solution("cheeky-monkey")
    figures = []
    for seat in (0, 1):
        played = play_against(solution, CHEEKY_MONKEY.bot_named(bot), seat, 400, seed=2026 + seat)
        figures.append((played.payoff, round(played.optimal_share, 4)))
    assert figures == SEARCH_PUBLISHED[bot]
