"""A hypothesis state machine that plays whole games through the public API and checks every step."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cheekymonkey import (
    GameState,
    apply,
    chance_outcomes,
    is_chance_node,
    is_terminal,
    legal_actions,
    score,
)
from cheekymonkey.cheeky.actions import STOP
from tests.invariants import (
    all_candidate_actions,
    check_illegal_actions,
    check_legal_set,
    check_state_invariants,
    check_transition,
)
from tests.strategies import games, reachable_states


class WholeGames(RuleBasedStateMachine):
    """Plays games under random rule sets, choosing among the legal actions and the chance outcomes.

    After every step: tokens are conserved per animal and no count is negative; the state is exactly
    one of chance node, player to move, or over; it is over exactly when the bag and the front are
    empty; the legal actions are those the rules allow and each applies, deterministically, doing what
    its rule says; every other action raises :class:`IllegalActionError` and changes nothing; chance
    probabilities are exact and sum to 1.
    """

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.finished_games = 0

    @initialize(start=st.one_of(games(), reachable_states(max_steps=60)))
    def start(self, start: GameState) -> None:
        """Begin at a new game, or at a state some random play reached."""
        self.state = start

    def _current(self) -> GameState:
        assert self.state is not None
        return self.state

    def _step(self, action_index: int) -> None:
        state = self._current()
        legal = legal_actions(state)
        action = legal[action_index % len(legal)]
        after = apply(state, action)
        check_transition(state, action, after)
        self.state = after

    @precondition(lambda self: self.state is not None and is_chance_node(self.state))
    @rule(outcome=st.integers(0, 7))
    def reveal(self, outcome: int) -> None:
        """Resolve the pending draw with any animal left in the bag (every outcome, likely or not)."""
        self._step(outcome)

    @precondition(
        lambda self: self.state is not None and bool(legal_actions(self.state)) and not is_chance_node(self.state)
    )
    @rule(choice=st.integers(0, 40))
    def act(self, choice: int) -> None:
        """Take any legal action of the player to move."""
        self._step(choice)

    @precondition(lambda self: self.state is not None and STOP in legal_actions(self.state))
    @rule()
    def stop(self) -> None:
        """Stop (R9), so that games reach their end within the step budget (R22)."""
        after = apply(self._current(), STOP)
        check_transition(self._current(), STOP, after)
        self.state = after

    @precondition(lambda self: self.state is not None and is_terminal(self.state))
    @rule(start=games())
    def next_game(self, start: GameState) -> None:
        """After the end, score the game and start another."""
        sheet = score(self._current())
        assert sum(s.tokens for s in sheet.seats) == self._current().ruleset.total_tokens
        self.finished_games += 1
        self.state = start

    @invariant()
    def every_invariant_holds(self) -> None:
        """The state's invariants, its legal set, and that the rest of the actions are refused."""
        if self.state is None:
            return
        state = self.state
        legal = check_state_invariants(state)
        check_legal_set(state, legal)
        check_illegal_actions(state, legal, all_candidate_actions(state))
        for action in legal:
            assert apply(state, action) == apply(state, action)  # apply is deterministic and total on legal moves
        if is_chance_node(state):
            assert sum(p for _, p in chance_outcomes(state)) == 1


WholeGames.TestCase.settings = settings(WholeGames.TestCase.settings, stateful_step_count=60)
# Slow: whole games step by step (300 of them under the ci profile).
TestWholeGames = pytest.mark.slow(WholeGames.TestCase)
TestWholeGames.__doc__ = "Whole games, step by step: every invariant after every action (R1-R15, R22)."
