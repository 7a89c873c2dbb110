"""A hypothesis state machine that plays whole games through the public API and checks every step.

After every step: all the cards are accounted for (rows, piles, hand, Skips waiting, the pool never seen),
every face-up number k lies at position k, no seat has more than one Skip waiting, no draw finds both piles
empty, and the state and the views pass the checking constructors; every legal action applies the same way
twice, and every other action is refused with a clause and changes nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cheekymonkey.toomany import (
    CARDS,
    TOO_MANY_MONKEYS,
    GameState,
    Ruleset,
    chance_pool,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    outcome,
    resolve_chance,
    sample_chance,
)
from tests.toomany.helpers import TINY
from tests.toomany.invariants import check_illegal_actions, check_state_invariants, check_transition

RULESETS = (
    Ruleset.custom(row_size=1),
    Ruleset.custom(row_size=2),
    Ruleset.short(),
    Ruleset.standard(),
    Ruleset.custom({1: 3, 2: 3, "wild": 1, "skip": 2, "raccoon": 2, "dnd": 1, "giraffe": 1}, row_size=2, max_players=3),
    TINY,
)
"""Rule sets whose games end within a run (rows of 1 and 2), longer ones, and small decks that reshuffle often."""


class WholeGames(RuleBasedStateMachine):
    """Plays games of 2 to 6 seats, any legal choice and any chance outcome, and a new game after each end."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.legal: tuple[object, ...] = ()
        self.games = 0

    def _set(self, state: GameState) -> None:
        self.state = state
        self.legal = check_state_invariants(state)

    def _current(self) -> GameState:
        assert self.state is not None
        return self.state

    @initialize(ruleset=st.sampled_from(RULESETS), players=st.integers(2, 6), first=st.integers(0, 5))
    def start(self, ruleset: Ruleset, players: int, first: int) -> None:
        """Begin a game under one of the rule sets, with any number of seats it allows and any first seat."""
        players = max(ruleset.min_players, min(players, ruleset.max_players))
        self._set(new_game(players, ruleset=ruleset, first_player=first % players))

    @precondition(lambda self: self.state is not None and is_chance_node(self.state))
    @rule(pick=st.integers(0, 10**6))
    def reveal(self, pick: int) -> None:
        """Chance reveals a card of the pool, each card equally likely under the pick (and every one reachable)."""
        state = self._current()
        pool = [card for card, count in zip(CARDS, chance_pool(state), strict=True) for _ in range(count)]
        card = pool[pick % len(pool)]
        legal = legal_actions(state)
        action = next(reveal for reveal in legal if reveal.card is card)  # type: ignore[union-attr]
        self._set(check_transition(state, action))

    @precondition(lambda self: self.state is not None and not is_chance_node(self.state) and bool(self.legal))
    @rule(choice=st.integers(0, 40))
    def act(self, choice: int) -> None:
        """The player to move takes any legal action."""
        state = self._current()
        legal = legal_actions(state)
        self._set(check_transition(state, legal[choice % len(legal)]))

    @precondition(lambda self: self.state is not None and not is_chance_node(self.state) and bool(self.legal))
    @rule()
    def refuse(self) -> None:
        """Every action not legal now is refused, citing a clause, and changes nothing."""
        state = self._current()
        check_illegal_actions(state, legal_actions(state))

    @precondition(lambda self: self.state is not None and is_terminal(self.state))
    @rule()
    def next_game(self) -> None:
        """A finished game has one winner, ranked first; then a new game of the same table begins."""
        state = self._current()
        result = outcome(state)
        assert result.winners == (state.seat,)
        assert result.ranks[state.seat] == 1
        self.games += 1
        self._set(new_game(state.players, ruleset=state.ruleset))

    @invariant()
    def a_turn_counts_once(self) -> None:
        """A state begins a turn only at the turn's choice of pile or at its only draw."""
        if self.state is not None and TOO_MANY_MONKEYS.begins_turn(self.state):
            assert self.state.hand is None
            assert not is_terminal(self.state)


TestWholeGames = WholeGames.TestCase
TestWholeGames.settings = settings(TestWholeGames.settings, stateful_step_count=100)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_whole_standard_games_keep_every_invariant(players: int) -> None:
    """Two whole standard games per seat count, every state checked and every transition repeated."""
    for seed in range(2):
        rng = random.Random(seed * 10 + players)
        state = new_game(players)
        legal = check_state_invariants(state)
        while not is_terminal(state):
            if is_chance_node(state):
                # Chance as the rules weigh it; resolve_chance is apply of sample_chance, from the same stream.
                twin = random.Random()
                twin.setstate(rng.getstate())
                after = resolve_chance(state, rng)
                assert after == check_transition(state, sample_chance(state, twin))
            else:
                after = check_transition(state, legal[rng.randrange(len(legal))])
            state = after
            legal = check_state_invariants(state)
        assert outcome(state).winners == (state.seat,)
