"""The conformance kit: every game here passes :func:`~cheekymonkey.testing.check_game`; a planted defect fails it.

A game with one planted defect of each kind fails the kit, naming the check.

Each defective game is the dice race of :mod:`tests.minimal_game` with one member changed.
"""

from __future__ import annotations

import itertools
import json
import pickle
from collections.abc import Callable
from fractions import Fraction
from typing import Any, cast

import attrs
import pytest

from cheekymonkey.errors import IllegalActionError
from cheekymonkey.game import Capabilities
from cheekymonkey.games import game_named
from cheekymonkey.outcome import Outcome, Stakes, Utility
from cheekymonkey.record import Record, RecordLike
from cheekymonkey.testing import (
    CHECKS,
    ConformanceError,
    check_game,
    check_illegal_actions,
    check_state,
    check_transition,
)
from tests.helpers import BUILT_IN_GAMES
from tests.minimal_game import RACE, Action, Move, Race, RaceRules, RaceState, Roll
from tests.secret_games import GUESS, LeakyViewGame


@pytest.mark.parametrize("name", BUILT_IN_GAMES)
def test_every_built_in_game_passes_the_kit(name: str) -> None:
    """Both built-in games: seats, capabilities, and eight seeded games checked state by state."""
    check_game(game_named(name), seed=0)


def test_the_minimal_game_passes_the_kit_at_several_seeds() -> None:
    """The dice race, written against the base class's core alone, with its generic documents."""
    for seed in range(3):
        check_game(RACE, seed=seed, games=6)


def test_the_kit_is_deterministic_and_bounded() -> None:
    """The same seed fails at the same place; max_steps bounds the game; other seeds play other games."""

    class Late(Race):
        def returns(self, state: RaceState) -> tuple[float, ...]:
            return (2.0,) * len(state.squares)

    failures = []
    for _ in range(2):
        with pytest.raises(ConformanceError) as caught:
            check_game(Late(), seed=5)
        failures.append((caught.value.path, caught.value.players, caught.value.first_player))
    assert failures[0] == failures[1]
    with pytest.raises(ConformanceError) as other:
        check_game(Late(), seed=6)
    assert other.value.path != failures[0][0]
    check_game(Late(), seed=5, max_steps=2)  # never reaches an end: nothing to pay


# -- one planted defect of each kind --------------------------------------------------------------------


class _LopsidedDie(Race):
    def chance_outcomes(self, state: RaceState) -> tuple[tuple[Action, Fraction], ...]:
        return tuple((roll, Fraction(1, 4)) for roll, _ in super().chance_outcomes(state))


class _FloatDie(Race):
    def chance_outcomes(self, state: RaceState) -> tuple[tuple[Action, Fraction], ...]:
        return tuple((roll, 1 / 3) for roll, _ in super().chance_outcomes(state))  # type: ignore[misc]


class _DieOfOtherFaces(Race):
    def legal_actions(self, state: RaceState) -> tuple[Action, ...]:
        actions = tuple(super().legal_actions(state))
        return actions[::-1] if state.rolling else actions  # the faces listed apart from the outcomes, backwards


class _TwoKinds(Race):
    def to_move(self, state: RaceState) -> int | None:
        return None if self.is_terminal(state) else state.seat  # a seat "to move" while the die rolls too


class _MovesAtTheEnd(Race):
    def legal_actions(self, state: RaceState) -> tuple[Action, ...]:
        return tuple(super().legal_actions(state)) or (Move.STEP,)


class _AcceptsAnything(Race):
    def apply(self, state: RaceState, action: Action) -> RaceState:
        if action not in self.legal_actions(state):
            return state  # returns a state where it should refuse
        return super().apply(state, action)


class _WrongError(Race):
    def apply(self, state: RaceState, action: Action) -> RaceState:
        if action not in self.legal_actions(state):
            raise ValueError("no")
        return super().apply(state, action)


@attrs.frozen(slots=True)
class _LoggedState(RaceState):
    log: list[object] = attrs.field(factory=list, eq=False, hash=False)


class _MutatesWhenRefusing(Race):
    def new_game(self, players: int, ruleset: RaceRules | None = None, *, first_player: int = 0) -> RaceState:
        start = super().new_game(players, ruleset, first_player=first_player)
        return _LoggedState(start.rules, start.squares, start.seat, start.rolling)

    def apply(self, state: RaceState, action: Action) -> RaceState:
        if action not in self.legal_actions(state):
            assert isinstance(state, _LoggedState)
            state.log.append(action)  # writes into the state it refuses to change
            raise IllegalActionError(state, action, "not allowed now")
        after = super().apply(state, action)
        return _LoggedState(after.rules, after.squares, after.seat, after.rolling)


_TICKS = itertools.count()


class _Nondeterministic(Race):
    def apply(self, state: RaceState, action: Action) -> RaceState:
        after = super().apply(state, action)
        if action is Move.STEP and next(_TICKS) % 2:  # every other step goes two squares
            return super().apply(after, action) if not self.is_terminal(after) else after
        return after


class _Unreadable(Race):
    def action_text(self, action: Action, state: RaceState) -> str:
        return "move" if isinstance(action, Move) else super().action_text(action, state)  # one text for two


class _ReadsTheOther(Race):
    def parse_actions(self, text: str, state: RaceState) -> tuple[Action, ...]:
        found = super().parse_actions(text, state)
        return (Move.ROLL,) if found == (Move.STEP,) else found


@attrs.frozen(slots=True)
class _ClosureState(RaceState):
    hook: Callable[[], int] = attrs.field(factory=lambda: lambda: 0, eq=False, hash=False)


class _Unpicklable(Race):
    def new_game(self, players: int, ruleset: RaceRules | None = None, *, first_player: int = 0) -> RaceState:
        start = super().new_game(players, ruleset, first_player=first_player)
        return _ClosureState(start.rules, start.squares, start.seat, start.rolling)


@attrs.frozen(slots=True, eq=False)
class _ByIdentity(RaceState):
    """Equal by fields, hashed by identity: two equal states hash apart."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RaceState) and attrs.astuple(self) == attrs.astuple(other)

    def __hash__(self) -> int:
        return id(self)


class _BadHash(Race):
    def new_game(self, players: int, ruleset: RaceRules | None = None, *, first_player: int = 0) -> RaceState:
        start = super().new_game(players, ruleset, first_player=first_player)
        return _ByIdentity(start.rules, start.squares, start.seat, start.rolling)


class _OverPaid(Race):
    def returns(self, state: RaceState) -> tuple[float, ...]:
        return tuple(2.0 * r for r in super().returns(state))


class _NotConstantSum(Race):
    def outcome(self, state: RaceState) -> Outcome:
        outcome = super().outcome(state)
        return Outcome(outcome.winners, outcome.ranks, tuple(0.5 for _ in outcome.returns))

    def stakes(self, players: int, ruleset: RaceRules | None = None) -> Stakes:
        return Stakes(Utility.CONSTANT_SUM, 0.0, 1.0, 1.0)


class _TooFewReturns(Race):
    def returns(self, state: RaceState) -> tuple[float, ...]:
        return super().returns(state)[:-1]


class _CrowdedTable(Race):
    def default_seats(self, ruleset: RaceRules | None = None) -> int:
        return 5  # seat_range is 2 to 4


class _BackwardsRange(Race):
    def seat_range(self, ruleset: RaceRules | None = None) -> tuple[int, int]:
        return (4, 2)


class _ForgetfulRecord(Race):
    def record(
        self, ruleset: RaceRules, players: int, first_player: int, actions: Any, **kw: Any
    ) -> RecordLike[Any, Any]:
        return Record(self, ruleset, players, first_player, tuple(actions)[:-1])


class _ClaimsProofs(Race):
    capabilities = Capabilities(proofs=True)


class _HidesItsSchemas(Race):
    def schemas(self) -> Any:
        from importlib import resources

        return resources.files("cheekymonkey.cheeky") / "schemas"


class _ClaimsBatched(Race):
    capabilities = Capabilities(batched=True)


class _ClaimsEncodings(Race):
    capabilities = Capabilities(encodings=True)


@attrs.frozen(slots=True)
class _Pips:
    pips: int


class _LossyDocuments(Race):
    """The documents read a roll back as its pips alone."""

    def documents(self) -> Any:
        real = super().documents()

        class Lossy:
            format = real.format
            kinds = real.kinds
            to_document = staticmethod(real.to_document)
            dumps = staticmethod(real.dumps)

            def from_document(self, document: object, kind: str | None = None) -> Any:
                found = real.from_document(document, kind)
                return found.pips if isinstance(found, Roll) else found

            def loads(self, text: str | bytes, kind: str | None = None) -> Any:
                return self.from_document(json.loads(text), kind)

        return Lossy()


class _RaceEncoding:
    """The dice race for learning: step 0 and roll 1; the die's pips 1 to 3 as outcomes 0 to 2; the squares."""

    num_actions = 2
    num_outcomes = 3
    observation_fields = ()

    def __init__(self, players: int, target: int) -> None:
        self.observation_size = players
        self.observation_bounds = (target + 2,) * players

    def encode(self, action: Action, state: RaceState) -> int:
        return action.pips - 1 if isinstance(action, Roll) else 0 if action is Move.STEP else 1

    def decode(self, index: int, state: RaceState) -> Action:
        return Roll(index + 1) if state.rolling else (Move.STEP, Move.ROLL)[index]

    def legal_indices(self, state: RaceState) -> tuple[int, ...]:
        return tuple(self.encode(action, state) for action in RACE.legal_actions(state))

    def action_mask(self, state: RaceState) -> tuple[bool, ...]:
        on = () if state.rolling else self.legal_indices(state)
        return tuple(index in on for index in range(2))

    def outcome_mask(self, state: RaceState) -> tuple[bool, ...]:
        on = self.legal_indices(state) if state.rolling else ()
        return tuple(index in on for index in range(3))

    def action_name(self, index: int, *, chance: bool = False) -> str:
        return str(index)

    def observe(self, state: RaceState, seat: int | None) -> tuple[int, ...]:
        return state.squares

    def observation_text(self, state: RaceState, seat: int | None) -> str:
        return str(state.squares)

    def points(self, state: RaceState) -> tuple[float, ...]:
        return tuple(float(square) for square in state.squares)


class _EncodedRace(Race):
    capabilities = Capabilities(encodings=True)

    def observation_kinds(self) -> tuple[str, ...]:
        return ("full",)

    def encoding(self, players: int, ruleset: RaceRules | None = None, observation: str | None = None) -> Any:
        return _RaceEncoding(players, (ruleset or self.ruleset()).target)


class _BoundlessEncoding(_RaceEncoding):
    def __init__(self, players: int, target: int) -> None:
        super().__init__(players, target)
        self.observation_bounds = (target,) * players  # a square past the target is over its bound


class _MaskingTooMuch(_RaceEncoding):
    def action_mask(self, state: RaceState) -> tuple[bool, ...]:
        return (False, False) if RACE.is_terminal(state) else (True, True)  # player actions at chance too


class _BadlyBounded(_EncodedRace):
    def encoding(self, players: int, ruleset: RaceRules | None = None, observation: str | None = None) -> Any:
        return _BoundlessEncoding(players, (ruleset or self.ruleset()).target)


class _BadlyMasked(_EncodedRace):
    def encoding(self, players: int, ruleset: RaceRules | None = None, observation: str | None = None) -> Any:
        return _MaskingTooMuch(players, (ruleset or self.ruleset()).target)


def test_a_game_with_encodings_has_them_checked_and_passes() -> None:
    """The dice race with an encoding of its own: bounds, masks and indices all agree with the rules."""
    check_game(_EncodedRace(), seed=0)


PLANTED: list[tuple[str, Race, str]] = [
    ("probabilities adding up to 3/4", _LopsidedDie(), "chance-outcomes"),
    ("probabilities as floats", _FloatDie(), "chance-outcomes"),
    ("outcomes in another order than the legal actions", _DieOfOtherFaces(), "chance-outcomes"),
    ("a seat to move at a chance node", _TwoKinds(), "state-kind"),
    ("a legal action at the end", _MovesAtTheEnd(), "legal-actions"),
    ("an illegal action returning a state", _AcceptsAnything(), "illegal-actions"),
    ("an illegal action raising ValueError", _WrongError(), "illegal-actions"),
    ("an illegal action mutating the state", _MutatesWhenRefusing(), "illegal-actions"),
    ("a nondeterministic apply", _Nondeterministic(), "determinism"),
    ("one action text for two actions", _Unreadable(), "action-text"),
    ("an action text that parses as another action", _ReadsTheOther(), "action-text"),
    ("an unpicklable state", _Unpicklable(), "pickle"),
    ("equal states hashing apart", _BadHash(), "hash"),
    ("returns outside the stakes", _OverPaid(), "returns"),
    ("returns not adding up to the total", _NotConstantSum(), "returns"),
    ("one return short", _TooFewReturns(), "returns"),
    ("default seats outside the seat range", _CrowdedTable(), "seats"),
    ("a seat range fewest last", _BackwardsRange(), "seats"),
    ("a record that does not replay to the end", _ForgetfulRecord(), "record"),
    ("proofs declared but not given", _ClaimsProofs(), "capabilities"),
    ("schemas given but not declared", _HidesItsSchemas(), "capabilities"),
    ("a batched engine declared but not registered", _ClaimsBatched(), "capabilities"),
    ("encodings declared but no observation kinds", _ClaimsEncodings(), "capabilities"),
    ("documents that lose an action", _LossyDocuments(), "documents"),
    ("an observation past its bounds", _BadlyBounded(), "encoding"),
    ("an action mask on at a chance node", _BadlyMasked(), "encoding"),
]


@pytest.mark.parametrize(("game", "check"), [(game, check) for _, game, check in PLANTED], ids=[p[0] for p in PLANTED])
def test_a_planted_defect_fails_the_kit_naming_its_check(game: Race, check: str) -> None:
    """The error names the check, the game, and the way to the state where it failed."""
    with pytest.raises(ConformanceError) as caught:
        check_game(game, seed=0)
    error = caught.value
    assert error.check == check, str(error)
    assert error.game == "dice-race"
    assert f"dice-race: check {check!r} failed" in str(error)
    assert isinstance(error, AssertionError)
    if error.players is not None:  # a failure inside a game: its actions reach the state again
        state = RACE.new_game(error.players, RACE.ruleset(error.ruleset), first_player=error.first_player or 0)
        for action in error.path:
            state = RACE.apply(state, cast(Action, action))


def test_a_game_whose_view_shows_another_seats_card_fails_the_kit_naming_noninterference() -> None:
    """A game with secrets whose view is the whole state fails the last check; the honest game passes it all."""
    check_game(GUESS, seed=0)
    with pytest.raises(ConformanceError) as caught:
        check_game(LeakyViewGame(), seed=0)
    assert caught.value.check == "noninterference"
    assert "through the route 'view'" in str(caught.value)


def test_every_check_has_a_planted_defect() -> None:
    """No check of the kit goes untested: each name is the check of one defect above (noninterference's, a leak)."""
    assert {check for _, _, check in PLANTED} | {"noninterference"} == set(CHECKS)


def test_the_error_survives_pickle_and_shows_a_short_path() -> None:
    """A worker process can send the error back whole; the message shows the last actions only."""
    with pytest.raises(ConformanceError) as caught:
        check_game(_OverPaid(), seed=0)
    error = caught.value
    back = pickle.loads(pickle.dumps(error))
    assert (back.check, back.game, back.path, str(back)) == (error.check, error.game, error.path, str(error))
    if len(error.path) > 8:
        assert f"{len(error.path) - 8} earlier, then" in str(error)


def test_the_kit_s_parts_check_one_state_at_a_time() -> None:
    """check_state returns the legal actions; check_illegal_actions counts what it tried; check_transition."""
    state = RACE.new_game(2)
    assert check_state(RACE, state) == (Move.STEP, Move.ROLL)
    candidates: list[Action] = [Move.STEP, Roll(1), Roll(2)]
    assert check_illegal_actions(RACE, state, candidates) == 2
    rolling = check_transition(RACE, state, Move.ROLL)
    assert check_state(RACE, rolling) == (Roll(1), Roll(2), Roll(3))
    with pytest.raises(ConformanceError, match="'illegal-actions' failed"):
        check_illegal_actions(_AcceptsAnything(), state, [Roll(1)])
    with pytest.raises(ConformanceError, match="'chance-outcomes' failed: the probabilities add up to 3/4"):
        check_state(_LopsidedDie(), rolling)
