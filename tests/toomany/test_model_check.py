"""An exhaustive model check of small rule sets: every reachable state, every invariant, the end, every turn's end.

For each small rule set below, every state reachable from :func:`new_game` is visited breadth first,
following every legal action and every chance outcome. States are values with nothing hidden in them (the
lazy deal, TM19, is their canonical form: two deals that differ only in cards nobody has turned up are one
state), so a dictionary of the states seen memoises the search. Then:

- every state keeps every invariant (:func:`tests.toomany.invariants.check_state_invariants`: all the cards
  accounted for, every face-up number k at position k, at most one Skip waiting per seat, never both piles
  empty at a draw, the checking constructors accept the state and its views); every legal action applies the
  same way twice and with events; every other action is refused, citing a clause, changing nothing;
- from every state the end is reachable (TME5): working backwards from the finished states, no state is left;
- in every state the turn under way ends within a bounded number of actions (TME6): the actions inside a turn
  form no cycle, and the most any state needs is at most the bound :func:`turn_bounds` proves for its rows
  (3 for rows of 1, 5 for rows of 2); every step inside a turn is a step of the proof's
  :class:`~cheekymonkey.toomany.verify.TurnModel`, so that proof covers the engine.

The sweep below goes further on the stall: for 123 deck shapes (2 seats, rows of 1 and 2, 0 to 3 copies of
each number, 0 to 2 wilds, three sets of special cards) it checks the lighter invariants and the end, and
shows that a round can stall exactly when the rule set's check (TME5) refuses the deck.

Figures on this machine (2 cores shared with other work, Python 3.11), one core: the three quick cases,
1,454 states, about 1 s; the three slow ones, 23,235 states, about 22 s; the sweep, 508,450 states, about
20 s. The state counts are pinned by the tests.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable

import attrs
import pytest

from cheekymonkey.toomany import (
    Card,
    FaceDown,
    GameState,
    Phase,
    Ruleset,
    TurnedUp,
    WildPlaced,
    apply,
    apply_with_events,
    is_terminal,
    legal_actions,
    new_game,
    outcome,
)
from cheekymonkey.toomany.rules import stall_numbers
from cheekymonkey.toomany.verify import TurnModel, TurnPoint, turn_bounds
from tests.state_graphs import can_reach
from tests.toomany.helpers import unchecked_ruleset
from tests.toomany.invariants import cards_held, check_illegal_actions, check_state_invariants, check_transition


@attrs.frozen
class Graph:
    """Every state reachable from a start, and for each the states its legal actions lead to."""

    states: list[GameState]
    """The states, the start first, in the order the search found them."""
    successors: list[list[int]]
    """For each state, the index of the state each legal action leads to, in legal action order."""


def explore(start: GameState, visit: Callable[[GameState], None] = lambda state: None) -> Graph:
    """Visit every state reachable from ``start`` breadth first, calling ``visit`` on each once."""
    index = {start: 0}
    states = [start]
    successors: list[list[int]] = []
    queue = deque([start])
    while queue:
        state = queue.popleft()
        visit(state)
        targets = []
        for action in legal_actions(state):
            after = apply(state, action)
            target = index.get(after)
            if target is None:
                target = index[after] = len(states)
                states.append(after)
                queue.append(after)
            targets.append(target)
        successors.append(targets)
    return Graph(states, successors)


def can_reach_end(graph: Graph) -> list[bool]:
    """For each state, whether some path reaches a finished game (working backwards from the finished states)."""
    return can_reach(graph.successors, [is_terminal(state) for state in graph.states])


def begins_turn(state: GameState) -> bool:
    """Whether ``state`` is a turn's first moment (its choice of pile, or its only draw), or the end."""
    return state.phase in (Phase.START, Phase.DRAW, Phase.OVER)


def turn_lengths(graph: Graph) -> list[int]:
    """For each state, the most actions until the turn under way ends; 0 once the game is over.

    Raises:
        AssertionError: If the actions inside a turn form a cycle (a turn that could go on for ever).
    """
    lengths: list[int | None] = [None] * len(graph.states)
    for root in range(len(graph.states)):
        # Depth first, without recursion: (state, next successor to look at).
        stack = [(root, 0)]
        open_ = {root}
        while stack:
            node, at = stack[-1]
            targets = graph.successors[node]
            if lengths[node] is not None:
                stack.pop()
                open_.discard(node)
                continue
            if at < len(targets):
                stack[-1] = (node, at + 1)
                target = targets[at]
                if not begins_turn(graph.states[target]) and lengths[target] is None:
                    assert target not in open_, f"a turn can go on for ever through {graph.states[target]!r}"
                    open_.add(target)
                    stack.append((target, 0))
                continue
            most = 0
            for target in targets:
                after = 0 if begins_turn(graph.states[target]) else lengths[target]
                assert after is not None
                most = max(most, 1 + after)
            lengths[node] = most
            stack.pop()
            open_.discard(node)
    return [0 if length is None else length for length in lengths]


def check_turn_model(state: GameState) -> None:
    """Every legal action of ``state`` is a step the proof's turn model allows, turning up as many positions."""
    model = TurnModel(len(state.rows[state.seat]))
    allowed = {(step.after, step.turned_up) for step in model.steps(TurnPoint.of(state))}
    for action in legal_actions(state):
        after, events = apply_with_events(state, action)
        turned = sum(isinstance(event, TurnedUp | WildPlaced) for event in events)
        point = None if begins_turn(after) else TurnPoint.of(after)
        assert (point, turned) in allowed, (state, action, point, turned)


def check_light_invariants(state: GameState) -> None:
    """The invariants of the sweep, cheaply checked: cards, positions, Skips, piles, and a move or the end.

    Every card in one place, every number at its own position, at most one Skip waiting per seat and none for
    the mover, a card to draw at every draw, and a legal action unless the game is over.
    """
    assert cards_held(state) == list(state.ruleset.counts)
    for row in state.rows:
        for position, slot in enumerate(row, start=1):
            card = slot.card if isinstance(slot, FaceDown) else slot
            assert card is None or card is Card.WILD or card == position
    assert all(waiting.__class__ is bool for waiting in state.skips)
    assert not state.skips[state.seat]
    if state.phase in (Phase.START, Phase.DRAW, Phase.CHOSEN_DRAW):
        assert state.pile_size + len(state.discard) >= 1
    assert is_terminal(state) or legal_actions(state)


@attrs.frozen
class Case:
    """A small rule set to explore with every check."""

    name: str
    """The test id."""
    counts: dict[str | int, int]
    """The deck."""
    row_size: int
    """The first round's row."""
    players: int
    """The seats."""
    states: int
    """How many states are reachable: found by this check, pinned so that a change in the engine shows."""

    def ruleset(self) -> Ruleset:
        """The rule set, built through the checks (every case passes them)."""
        return Ruleset.custom(self.counts, row_size=self.row_size, max_players=self.players, name=self.name)


QUICK = (
    Case(
        "every special card, rows of 1", {1: 2, "wild": 1, "raccoon": 1, "dnd": 1, "skip": 1, "giraffe": 1}, 1, 2, 358
    ),
    Case("the bonus, rows of 2", {1: 2, 2: 2, "wild": 1, "giraffe": 1}, 2, 2, 731),
    Case("three seats, two Skips", {1: 4, "wild": 1, "skip": 2, "dnd": 1, "giraffe": 1}, 1, 3, 365),
)
SLOW = (
    Case("the raccoon, rows of 2", {1: 2, 2: 2, "wild": 1, "raccoon": 1, "giraffe": 1}, 2, 2, 3418),
    Case("the Skip, rows of 2", {1: 3, 2: 2, "wild": 1, "skip": 1, "elephant": 1}, 2, 2, 8185),
    Case("Do Not Disturb, rows of 2", {1: 2, 2: 2, "wild": 1, "dnd": 1, "giraffe": 1}, 2, 2, 11632),
)


def check_case(case: Case) -> None:
    """Explore the case with every check; the end reachable from each state, each turn within the proved bound."""
    kinds: set[str] = set()

    def visit(state: GameState) -> None:
        legal = check_state_invariants(state)
        check_illegal_actions(state, legal)
        for action in legal:
            check_transition(state, action)
            kinds.add(type(action).__name__)
        if not is_terminal(state):
            check_turn_model(state)

    graph = explore(new_game(case.players, ruleset=case.ruleset()), visit)
    assert len(graph.states) == case.states
    stuck = [state for state, ok in zip(graph.states, can_reach_end(graph), strict=True) if not ok]
    assert not stuck, f"{len(stuck)} states cannot reach the end, for example {stuck[0]!r}"
    finished = [state for state in graph.states if is_terminal(state)]
    assert {outcome(state).winners for state in finished} == {(seat,) for seat in range(case.players)}
    lengths = turn_lengths(graph)
    assert 0 < max(lengths) <= turn_bounds(case.row_size).most_steps
    assert kinds >= {"Reveal", "Decline"}


@pytest.mark.parametrize("case", QUICK, ids=[case.name for case in QUICK])
def test_small_games_keep_every_invariant_reach_the_end_and_end_every_turn(case: Case) -> None:
    """TME5, TME6, TM1, TM7, TM17, TM25: every reachable state of a small game checked, the end always reachable."""
    check_case(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[case.name for case in SLOW])
def test_larger_games_keep_every_invariant_reach_the_end_and_end_every_turn(case: Case) -> None:
    """TME5, TME6: the raccoon, the Skip and Do Not Disturb with rows of 2, every reachable state checked."""
    check_case(case)


def test_the_longest_turns_of_a_small_game_reach_the_proved_bound() -> None:
    """TME6: rows of 2, the bonus deck: some state needs exactly the 5 actions the turn model proves at most."""
    case = QUICK[1]
    graph = explore(new_game(case.players, ruleset=case.ruleset()))
    lengths = turn_lengths(graph)
    assert max(lengths) == turn_bounds(2).most_steps == 5
    assert all(length <= 5 for length in lengths)


def test_a_deck_the_check_refuses_really_stalls() -> None:
    """TME5: stage one's deck, a single 1 and no wild, with rows of 1: some reachable states never end."""
    ruleset = unchecked_ruleset({1: 1, "giraffe": 3}, row_size=1)
    graph = explore(new_game(2, ruleset=ruleset))
    reached = can_reach_end(graph)
    stuck = [state for state, ok in zip(graph.states, reached, strict=True) if not ok]
    assert stuck
    assert any(reached)
    # In every stuck state the round is past its reshuffle, and the 1 lies face down in a row, unseen.
    for state in stuck:
        assert state.pile is not None
        assert state.unseen[0] == 1
    assert stall_numbers(ruleset.counts, 1, 2) == (1,)


# -- the sweep of deck shapes ------------------------------------------------------------------------------

FILLERS: tuple[dict[str | int, int], ...] = ({"giraffe": 1}, {"giraffe": 1, "dnd": 1}, {"raccoon": 1, "skip": 1})
"""The special cards beside the numbers and wilds: one that only ends turns; one that turns cards down; the
raccoon and the Skip."""


def shapes(row_size: int) -> list[dict[str | int, int]]:
    """Every deck of the sweep for rows of ``row_size``: 0 to 3 copies of each number, 0 to 2 wilds, a filler.

    Decks that cannot complete a row at all, or leave nothing to draw, are left out (the rule set refuses
    them for reasons of their own, TM25 and TME4).
    """
    found = []
    for copies in itertools.product(range(4), repeat=row_size):
        for wilds, filler in itertools.product(range(3), FILLERS):
            deck: dict[str | int, int] = dict(enumerate(copies, start=1))
            deck |= {"wild": wilds, **filler}
            total = sum(deck.values())
            if sum(count == 0 for count in copies) > wilds or total <= 2 * row_size + min(filler.get("skip", 0), 1):
                continue
            found.append(deck)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("row_size", [1, 2])
def test_a_round_can_stall_exactly_when_the_rule_set_refuses_the_deck(row_size: int) -> None:
    """TME4, TME5: over every deck shape of the sweep, the end is unreachable from some state iff the check fails."""
    bound = turn_bounds(row_size).most_steps
    decks = shapes(row_size)
    refused = states = 0
    for deck in decks:
        ruleset = unchecked_ruleset(deck, row_size=row_size)
        graph = explore(new_game(2, ruleset=ruleset), check_light_invariants)
        states += len(graph.states)
        stalls = not all(can_reach_end(graph))
        assert stalls == bool(stall_numbers(ruleset.counts, row_size, 2)), deck
        assert max(turn_lengths(graph)) <= bound, deck
        if stalls:
            refused += 1
            with pytest.raises(ValueError, match="TME5"):
                Ruleset.custom(deck, row_size=row_size, max_players=2)
        else:
            Ruleset.custom(deck, row_size=row_size, max_players=2)
    assert (len(decks), refused, states) == {1: (29, 11, 386), 2: (94, 55, 508064)}[row_size]


def find_cycle(graph: Graph) -> list[int]:
    """A cycle of states reachable from the start, as indices, its first state repeated at its end; [] if none."""
    colour = [0] * len(graph.states)  # 0 not seen, 1 on the path, 2 done
    for root in range(len(graph.states)):
        if colour[root]:
            continue
        path = [root]
        stack = [(root, 0)]
        colour[root] = 1
        while stack:
            node, at = stack[-1]
            if at == len(graph.successors[node]):
                stack.pop()
                path.pop()
                colour[node] = 2
                continue
            stack[-1] = (node, at + 1)
            target = graph.successors[node][at]
            if colour[target] == 1:
                return [*path[path.index(target) :], target]
            if colour[target] == 0:
                colour[target] = 1
                path.append(target)
                stack.append((target, 0))
    return []


def test_no_rule_bounds_a_games_length_and_the_engine_plays_on() -> None:
    """TM26: the reachable states of a small game hold a cycle; played a thousand times round, the game goes on."""
    case = QUICK[1]
    graph = explore(new_game(case.players, ruleset=case.ruleset()))
    cycle = find_cycle(graph)
    assert len(cycle) > 2
    actions = []
    for source, target in itertools.pairwise(cycle):
        state = graph.states[source]
        actions.append(next(action for action in legal_actions(state) if apply(state, action) == graph.states[target]))
    state = graph.states[cycle[0]]
    for _ in range(1000):
        for action in actions:
            state = apply(state, action)
    assert state == graph.states[cycle[0]]
    assert not is_terminal(state)
