"""States and values.

The checking constructor refuses what play cannot reach, and every value is frozen, equal and hashed by value,
picklable, and described to attrs and cattrs.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import attrs
import cattrs
import pytest

from cheekymonkey.errors import IllegalActionError, InvalidStateError, InvalidValueError
from cheekymonkey.toomany import (
    Card,
    Decline,
    Draw,
    FaceDown,
    GameState,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    apply,
    face_down,
    new_game,
)
from cheekymonkey.toomany.state import make_state, trusted_state
from tests.toomany.helpers import STANDARD, make, random_game, row

FIELDS = [field.name for field in attrs.fields(GameState)]


def _fields(state: GameState, **changes: Any) -> dict[str, Any]:
    values = attrs.asdict(state, recurse=False)
    values.update(changes)
    return values


BASE = make(["1 ? 3 ? ? ?", "? W ? ? ? ?"], discard="5 G")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ruleset": "standard"}, "ruleset must be a Ruleset"),
        ({"rows": ((None,) * 6,)}, "1 rows"),
        ({"round": 2}, "round 2, but the rows are 0 card"),
        ({"round": True}, "round must be an integer"),
        ({"seat": 2}, "seat 2 is not one of the 2 seats"),
        ({"phase": 3}, "phase must be a Phase"),
        ({"rows": (row("1 ? 3 ? ? ?"), row("? W ? 2 ? ?"))}, "only a wild or the number 4"),
        ({"rows": (row("1 ? 3 ? ? ?"), (None, "W", None, None, None, None))}, "not a Card, a FaceDown or None"),
        ({"rows": (row("1 ? 3 ? ? ? ?"), row("? W ? ? ? ?"))}, "7 cards"),
        ({"discard": (Card.FIVE, Card.WILD)}, "a wild is on the discard pile"),
        ({"pile_size": -1}, "below 0"),
        ({"pile": (0,) * 12}, "the draw pile holds 0 cards, but pile_size is 41"),
        ({"unseen": (6,) * 12}, "(TM1)"),
        ({"skips": (False, True)}, "TM1"),
        ({"skips": (True, False)}, "seat 0 is to move with a Skip waiting"),
        ({"skips": (0, 0)}, "booleans"),
        ({"phase": Phase.START}, "the discard top cannot be taken"),
        ({"phase": Phase.WILD, "hand": Card.WILD}, "TM1"),
    ],
)
def test_the_checking_constructor_names_the_broken_invariant(changes: dict[str, Any], message: str) -> None:
    """A state play cannot reach is refused with InvalidStateError (a ValueError) naming the invariant."""
    with pytest.raises(InvalidStateError, match=message.replace("(", r"\(").replace(")", r"\)")) as caught:
        GameState(**_fields(BASE, **changes))
    assert isinstance(caught.value, ValueError)


def test_the_pool_never_seen_must_stand_for_the_hidden_cards() -> None:
    """TM19: moving a card from the draw pile's count to a face-down one breaks the pool's size."""
    with pytest.raises(InvalidStateError, match="never seen"):
        GameState(**_fields(BASE, pile_size=BASE.pile_size - 1))


@pytest.mark.parametrize(
    ("rows", "phase", "hand", "discard", "message"),
    [
        (["1 2 3 4 5 6", "? ? ? ? ? ?"], Phase.DRAW, None, "", "seat 0's row is all face up"),
        (["1 2 3 4 5 ?", "? ? ? ? ? ?"], Phase.WILD, Card.WILD, "G", "TM11, TM18"),
        (["1 ? ? ? ? ?", "? ? ? ? ? ?"], Phase.DRAW, Card.SKIP, "G", "in phase DRAW the hand holds None"),
        (["1 ? ? ? ? ?", "? ? ? ? ? ?"], Phase.BONUS, Card.THREE, "G", "TM12"),
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], Phase.RACCOON, None, "G R", "nothing to take"),
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], Phase.DISTURB, Card.DO_NOT_DISTURB, "G", "no opponent has a face-up card"),
        (["? ? ? ? ? ?", "? ? ? ? ? ?"], Phase.DRAW, None, "1", "the discard top can be taken"),
        (["?", "? ?"], Phase.OVER, None, "G", "the game is over"),
    ],
)
def test_a_decision_the_engine_would_have_made_itself_is_refused(
    rows: list[str], phase: Phase, hand: Card | None, discard: str, message: str
) -> None:
    """TM18, TM21: a question with one answer, or a row already won, is no state of play."""
    with pytest.raises(InvalidStateError, match=message):
        make(rows, phase=phase, hand=hand, discard=discard)


def test_the_engines_states_pass_the_checking_constructor_and_the_trusted_build_is_the_same_value() -> None:
    """Every state of a seeded 4-seat game rebuilds equal through GameState(...), make_state and trusted_state."""
    for state in random_game(5, 4):
        values = tuple(getattr(state, name) for name in FIELDS)
        assert GameState(*values) == make_state(*values) == trusted_state(*values) == state


VALUES: list[Any] = [
    new_game(3),
    BASE,
    Draw(),
    TakeDiscard(),
    TakeBonus(),
    Decline(),
    Reveal(Card.RACCOON),
    PlaceWild(4),
    RaccoonTake(Card.TWO),
    TurnDown(1, 3),
    GiveSkip(2),
    FaceDown(Card.WILD),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_frozen_equal_by_value_hashable_and_survive_pickle_and_copy(value: Any) -> None:
    """States, actions and FaceDown: assigning a field raises; pickles and copies are equal with equal hashes."""
    fields = attrs.fields(type(value))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(value, fields[0].name if fields else "anything", None)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(value, fields[0].name if fields else "anything")
    for twin in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert twin == value
        assert hash(twin) == hash(value)
    assert eval(repr(value), vars(__import__("cheekymonkey.toomany", fromlist=["*"]))) == value


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_cattrs_structures_and_unstructures_every_value(value: Any) -> None:
    """Attrs' description of the hand-written classes lets cattrs round-trip them (for the JSON documents)."""
    converter = cattrs.Converter()
    converter.register_structure_hook(FaceDown | Card | None, lambda data, _: _slot(data))
    converter.register_unstructure_hook(FaceDown, lambda down: {"down": int(down.card)})
    converter.register_structure_hook(FaceDown, lambda data, _: face_down(Card(data["down"])))
    assert converter.structure(converter.unstructure(value), type(value)) == value


def _slot(data: Any) -> FaceDown | Card | None:
    if data is None:
        return None
    if isinstance(data, dict):
        return face_down(Card(data["down"]))
    return Card(data)


class _Forged:
    """Pickles as a GameState whose draw pile is three cards short of the pool it belongs to."""

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        values = list(BASE._values())
        values[FIELDS.index("pile_size")] = 3
        return (GameState, tuple(values))


def test_a_tampered_pickle_is_refused() -> None:
    """Unpickling goes through the checking constructor."""
    with pytest.raises(InvalidStateError, match="never seen"):
        pickle.loads(pickle.dumps(_Forged()))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: PlaceWild(0), "not a position"),
        (lambda: PlaceWild(True), "not a position"),
        (lambda: TurnDown(-1, 2), "not a seat number"),
        (lambda: GiveSkip("1"), "not a seat number"),
        (lambda: RaccoonTake(Card.WILD), "only numbered monkeys"),
        (lambda: Reveal("joker"), "not a card"),
        (lambda: FaceDown(Card.SKIP), "only a number or a wild"),
    ],
)
def test_actions_refuse_what_is_not_a_value_of_their_kind(build: Any, message: str) -> None:
    """An action built from a wrong value raises InvalidValueError (a ValueError) at once."""
    with pytest.raises(InvalidValueError, match=message):
        build()


@pytest.mark.parametrize("thing", [None, "draw", 3, Card.ONE, object()])
def test_apply_refuses_what_is_not_an_action_or_not_a_state(thing: object) -> None:
    """Wrong input gets IllegalActionError, never a bare TypeError."""
    with pytest.raises(IllegalActionError, match="is not an action"):
        apply(new_game(2), thing)
    with pytest.raises(IllegalActionError, match="is not a Too Many Monkeys GameState"):
        apply(thing, Draw())


def test_the_state_shares_its_tuples_with_the_state_before() -> None:
    """No deep copies: a row, the discard pile and the pool untouched by an action are the same objects after it."""
    before = make(["1 ? ? ? ? ?", "? ? ? ? ? ?"], discard="G")
    after = apply(before, Reveal(Card.THREE))
    assert after.rows[1] is before.rows[1]
    assert after.discard is before.discard
    assert after.skips is before.skips
    assert after.ruleset is before.ruleset is STANDARD
