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

from cheekymonkey._compiled import COMPILED
from cheekymonkey.errors import CheekyMonkeyError, IllegalActionError, InvalidStateError, InvalidValueError
from cheekymonkey.toomany import (
    CARDS,
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
    Ruleset,
    TakeBonus,
    TakeDiscard,
    TurnDown,
    apply,
    face_down,
    new_game,
)
from cheekymonkey.toomany import state as toomany_state
from cheekymonkey.toomany.state import make_state, trusted_state
from tests.toomany.helpers import STANDARD, TINY, make, random_game, row

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


# --- what the module tells attrs, and the engine's unchecked build (run again here: at import, out of reach) ---


def test_attrs_sees_the_states_twelve_fields_with_their_types() -> None:
    """TME9: attrs, and so cattrs and the documents, see GameState's fields by name and type, in order.

    The description is made when the module is imported; it is made again here, so that what it says is checked.
    """
    toomany_state._describe()
    fields = attrs.fields(GameState)
    assert [field.name for field in fields] == list(FIELDS)
    assert {field.name: field.type for field in fields} == {
        "ruleset": Ruleset,
        "round": int,
        "round_first": int,
        "seat": int,
        "phase": Phase,
        "rows": tuple[tuple[Card | FaceDown | None, ...], ...],
        "hand": Card | None,
        "discard": tuple[Card, ...],
        "pile_size": int,
        "pile": tuple[int, ...] | None,
        "unseen": tuple[int, ...],
        "skips": tuple[bool, ...],
    }
    assert all(field.default is attrs.NOTHING for field in fields)
    assert attrs.resolve_types(GameState) is GameState
    assert attrs.fields(GameState) == fields


def _with_a_pile() -> GameState:
    """A state of the tiny game after a reshuffle, with a card turned down and a discard pile."""
    return make(["? (2)", "W ?"], discard="3 1", pile="1 G G", ruleset=TINY)


def _filled() -> list[GameState]:
    """States between them holding something in every field: a reshuffled pile, a card in hand, a Skip waiting."""
    played = list(random_game(4, 3))
    with_hand = next(state for state in played if state.hand is not None)
    with_skip = next(state for state in played if any(state.skips))
    return [_with_a_pile(), with_hand, with_skip]


def test_the_engines_unchecked_builds_keep_every_field_as_given() -> None:
    """TME9: the engine's unchecked builds give a GameState of the very values given, equal to the checked build.

    They are trusted_state and make_state's pure-Python class (made when the module is imported, made again here).
    """
    builds: tuple[Any, ...] = (toomany_state.make_state, trusted_state)
    if not COMPILED:  # compiled, make_state is trusted_state itself, and the pure-Python class is not used
        builds += (toomany_state._unfrozen(),)
    for state in _filled():
        values: tuple[Any, ...] = state._values()
        for build in builds:
            built = build(*values)
            assert built.__class__ is GameState
            assert built == GameState(*values) == state
            assert all(getattr(built, name) is value for name, value in zip(FIELDS, values, strict=True))


def test_each_card_reads_as_its_name_in_the_rules_and_its_code() -> None:
    """TM1: the twelve cards, as people read them (str, format, label), their codes, and numbers 1 to 6 only."""
    words = ["1", "2", "3", "4", "5", "6", "wild", "Skip", "elephant", "giraffe", "raccoon", "Do Not Disturb"]
    assert [str(card) for card in CARDS] == words
    assert [f"{card}" for card in CARDS] == words
    assert [f"{card:>3}" for card in CARDS[:7]] == ["  1", "  2", "  3", "  4", "  5", "  6", "wild"]
    assert [card.label for card in CARDS] == words
    assert [card.code for card in CARDS] == ["1", "2", "3", "4", "5", "6", "W", "S", "E", "G", "R", "D"]
    assert [card.number for card in CARDS] == [1, 2, 3, 4, 5, 6, None, None, None, None, None, None]
    assert [card.is_number for card in CARDS] == [True] * 6 + [False] * 6


def test_distinct_actions_and_face_down_cards_hash_apart() -> None:
    """TME9: values hashed by value: the twelve Reveals, the RaccoonTakes, the FaceDowns each hash differently."""
    for values in (
        [Reveal(card) for card in CARDS],
        [RaccoonTake(card) for card in CARDS[:6]],
        [FaceDown(card) for card in (*CARDS[:6], Card.WILD)],
        [PlaceWild(position) for position in range(1, 7)],
        [GiveSkip(seat) for seat in range(6)],
        [TurnDown(seat, position) for seat in range(6) for position in range(1, 7)],
        [Draw(), TakeDiscard(), TakeBonus(), Decline()],
    ):
        assert len({hash(value) for value in values}) == len(values)


def test_a_state_prints_as_the_board_it_is_given_and_as_its_repr_without_one() -> None:
    """print(state) draws with what show_states_with was given (the package gives the text board).

    The state's module alone, with no drawing given, prints the repr, the call that builds the state.
    """
    state = new_game(2)
    # The list is emptied and refilled in place: the compiled module reads its own reference to it.
    given = list(toomany_state._DRAW)
    toomany_state._DRAW.clear()
    try:
        assert str(state) == repr(state)
        toomany_state.show_states_with(lambda value: f"a table of {value.players} seats")
        assert str(state) == "a table of 2 seats"
    finally:
        toomany_state._DRAW[:] = given


def test_actions_with_fields_are_equal_only_when_every_field_is() -> None:
    """TME9: equal by value, field by field: a TurnDown of another seat or position is another action."""
    assert TurnDown(1, 2) == TurnDown(1, 2)
    assert TurnDown(1, 2) != TurnDown(1, 3)
    assert TurnDown(1, 2) != TurnDown(0, 2)
    assert GiveSkip(1) != GiveSkip(2)
    assert PlaceWild(1) != PlaceWild(2)
    assert Reveal(Card.ONE) != RaccoonTake(Card.ONE)


def test_states_that_differ_hash_apart_and_phases_format_as_their_words() -> None:
    """TME9: states are hashed by value (a state's successors hash differently); a phase is written as its word."""
    states = list(random_game(1, 3))
    assert len({hash(state) for state in states}) == len(set(states))
    assert [f"{phase}" for phase in Phase] == [phase.name.lower() for phase in Phase]
    assert f"{Phase.CHOSEN_DRAW:>12}|{Phase.OVER:<6}|" == " chosen_draw|over  |"


def test_the_engines_unchecked_build_does_no_checking() -> None:
    """TME7: trusted_state builds what the checked constructor refuses (here a draw pile three cards short).

    It trusts the engine, which derives its states from checked ones by legal actions; GameState(...) checks.
    """
    values: list[Any] = list(BASE._values())
    values[FIELDS.index("pile_size")] = 3
    assert trusted_state(*values).pile_size == 3
    with pytest.raises(InvalidStateError, match="never seen"):
        GameState(*values)


def test_every_phase_is_a_value_that_is_true_the_start_included() -> None:
    """A phase is never "nothing": Phase.START is the number 0, yet `if state.phase:` holds in every phase."""
    assert int(Phase.START) == 0
    assert all(bool(phase) is True for phase in Phase)


def test_new_games_compiled_entry_answers_as_new_game() -> None:
    """TM2, TME8: the entry a caller from Python meets compiled deals the same game and refuses the same input."""
    checked = toomany_state._new_game_checked
    for players in (2, 3, 6):
        for first in range(players):
            assert checked(players, first_player=first) == new_game(players, first_player=first)
    assert checked(2, ruleset=TINY) == new_game(2, ruleset=TINY)
    bad: list[tuple[Any, dict[str, Any]]] = [(1, {}), (7, {}), ("2", {}), (2, {"first_player": 2})]
    bad.append((2, {"ruleset": "x"}))
    for players, kwargs in bad:
        with pytest.raises(CheekyMonkeyError) as expected:
            new_game(players, **kwargs)
        with pytest.raises(type(expected.value)) as caught:
            checked(players, **kwargs)
        assert str(caught.value) == str(expected.value)


def test_a_winner_holding_a_card_that_could_not_lie_at_position_one_is_refused_saying_so() -> None:
    """TM21, TM23: the card a game's winner turned up last lay at position 1, so it is a 1 or a wild, or none.

    The state is a real game's end with its winner's hand changed (the card taken from those never seen).
    """
    over = list(random_game(4, 2))[-1]
    assert over.phase is Phase.OVER
    fields = dict(zip(FIELDS, over._values(), strict=True))
    unseen = list(over.unseen)
    unseen[Card.TWO.value - 1] -= 1
    with pytest.raises(InvalidStateError) as caught:
        GameState(**{**fields, "hand": Card.TWO, "unseen": tuple(unseen)})
    assert caught.value.reason == "the winner holds Card.TWO, which cannot have lain face down at position 1 (TM21)"


def test_two_states_are_equal_only_when_every_field_is() -> None:
    """Equality compares all twelve fields: a state with any one field changed is another state."""
    state = make(["1 ? 3 ? ? ?", "? W ? ? ? ?", "? ? ? ? ? ?"], discard="5 G")
    values = attrs.asdict(state, recurse=False)
    other_values: dict[str, object] = {
        "ruleset": Ruleset.custom({**{str(n): 6 for n in range(1, 7)}, "wild": 4, "skip": 4}, name="other"),
        "round": 2,
        "round_first": 1,
        "seat": 1,
        "phase": Phase.START,
        "rows": (row("1 ? 3 ? ? ?"), row("? W ? ? ? ?"), row("? ? ? ? ? W")),
        "hand": Card.SKIP,
        "discard": (Card.FIVE,),
        "pile_size": state.pile_size - 1,
        "pile": (0,) * 12,
        "unseen": (0,) * 12,
        "skips": (False, True, False),
    }
    assert set(other_values) == set(FIELDS)
    same = trusted_state(**values)
    assert same == state
    assert hash(same) == hash(state)
    for name, value in other_values.items():
        changed = trusted_state(**{**values, name: value})
        assert changed != state, name
        assert state != changed, name
