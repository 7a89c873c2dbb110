"""Bad input and values: E9 illegal actions in every phase, E5 seats, wrong types, E8 checked states, E10 values."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import attrs
import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    CheekyMonkeyError,
    Claim,
    Draw,
    GameState,
    Herd,
    IllegalActionError,
    InvalidGameError,
    InvalidStateError,
    InvalidValueError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    legal_actions,
    new_game,
    play_game,
)
from cheekymonkey.cheeky.actions import Action
from tests.helpers import STANDARD, E, G, H, K, L, M, P, S, draws, frozen, held_outside_bag, make, play, same_as

ALL_BUT_ONE_SEAL = (E,) * 3 + (S,) * 3 + (H,) * 5 + (G,) * 6 + (P,) * 7 + (K,) * 8 + (L,) * 9 + (M,) * 10

STATES: dict[str, GameState] = {
    # Seat 0 to draw; no Elephant is left in the bag; seat 1 shows an Elephant.
    "chance": make(((S, E, E), (H, E), ())),
    # Seat 0 drew an Elephant, then a Seal: claims follow Seals; seat 1 shows a Hippo, seat 2 is empty.
    "decide": make(((S,), (H,), ()), (E, S), claimable=S),
    # Seat 0 drew the last Seal: the bag is empty.
    "decide-empty-bag": make((ALL_BUT_ONE_SEAL, (), ()), (S,), claimable=S),
    # Seat 0 stopped with a Seal and a Hippo in front.
    "placing": make(((), (H,), ()), (S, H), phase=Phase.PLACING),
    # Every token is stacked.
    "over": make((ALL_BUT_ONE_SEAL, (S,), ())),
}

# Every illegal (state, action) pair of interest, with the rule its reason must name.
ILLEGAL: list[tuple[str, Action, str]] = [
    ("chance", Draw(), "R5"),
    ("chance", Claim(1), "R5"),
    ("chance", Swap(1), "R5"),
    ("chance", Stop(), "R5"),
    ("chance", Place(S), "R5"),
    ("chance", Herd(), "R5"),
    ("chance", Reveal(E), "R5"),
    ("decide", Reveal(G), "R5"),
    ("decide", Place(S), "R8"),
    ("decide", Claim(0), "R7"),
    ("decide", Claim(1), "R7"),
    ("decide", Claim(2), "R7"),
    ("decide", Claim(5), "R3"),
    ("decide", Swap(1), "R11"),
    ("decide", Herd(), "R10"),
    ("decide-empty-bag", Draw(), "R8"),
    ("decide-empty-bag", Claim(1), "R7"),
    ("placing", Draw(), "R9"),
    ("placing", Reveal(E), "R5"),
    ("placing", Claim(1), "R9"),
    ("placing", Swap(1), "R9"),
    ("placing", Stop(), "R9"),
    ("placing", Herd(), "R9"),
    ("placing", Place(E), "R9"),
    ("over", Draw(), "R15"),
    ("over", Reveal(E), "R5"),
    ("over", Claim(1), "R15"),
    ("over", Swap(1), "R15"),
    ("over", Stop(), "R15"),
    ("over", Place(S), "R15"),
    ("over", Herd(), "R15"),
]


def test_illegal_table_covers_every_phase_and_every_kind_of_action() -> None:
    """E9: the table of illegal actions reaches all four phases and all seven kinds of action."""
    assert {STATES[name].phase for name, _, _ in ILLEGAL} == set(Phase)
    assert {type(action) for _, action, _ in ILLEGAL} == {Draw, Reveal, Claim, Swap, Stop, Place, Herd}
    for name in ("chance", "placing", "over"):
        assert {type(action) for n, action, _ in ILLEGAL if n == name} == {Draw, Reveal, Claim, Swap, Stop, Place, Herd}


@pytest.mark.parametrize(("name", "action", "rule"), ILLEGAL, ids=[f"{n}-{a!r}" for n, a, _ in ILLEGAL])
def test_every_illegal_action_raises_naming_its_rule_and_changes_nothing(name: str, action: Action, rule: str) -> None:
    """E9: an illegal action is not offered, raises IllegalActionError naming its rule, and changes nothing."""
    state = STATES[name]
    before = frozen(state)
    assert action not in legal_actions(state)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    error = caught.value
    assert error.state is state
    assert error.action is action
    # The rule is named before the first colon, as in "R7: ..." or "R11, R12: ...".
    named = error.reason.split(":")[0]
    assert re.fullmatch(r"R\d+(, R\d+)*", named), error.reason
    assert rule in named.split(", ")
    assert str(error) == f"illegal action {action!r}: {error.reason}"
    assert isinstance(error, ValueError)
    assert isinstance(error, CheekyMonkeyError)
    assert same_as(state, before)


@pytest.mark.parametrize("name", list(STATES))
def test_every_action_not_listed_as_legal_is_refused(name: str) -> None:
    """E9, E3: over every action that could be built for 3 seats, apply succeeds exactly on legal_actions."""
    state = STATES[name]
    candidates: list[Action] = [Draw(), Stop(), Herd()]
    candidates += [kind(a) for kind in (Reveal, Place) for a in ANIMALS]
    candidates += [kind(seat) for kind in (Claim, Swap) for seat in range(16)]
    legal = set(legal_actions(state))
    before = frozen(state)
    for action in candidates:
        if action in legal:
            apply(state, action)
        else:
            with pytest.raises(IllegalActionError):
                apply(state, action)
    assert same_as(state, before)
    assert len(legal) == len(legal_actions(state))


# --- E5: seats out of range ---------------------------------------------------------------------------


@pytest.mark.parametrize("action", [Claim(3), Claim(15), Swap(3), Swap(16), Claim(1000)])
def test_claim_or_swap_of_a_seat_beyond_the_game_is_illegal(action: Action) -> None:
    """E5: a seat number that this game does not have is an illegal action naming R3 and the game's seats."""
    state = play(make(((), (M,), (H,))), Reveal(M))
    assert state.swap_open
    with pytest.raises(IllegalActionError, match=r"R3: there is no seat \d+; this game's seats are 0 to 2"):
        apply(state, action)


@pytest.mark.parametrize("kind", [Claim, Swap])
@pytest.mark.parametrize("seat", [-1, True, False, "1", 1.0, None])
def test_claim_or_swap_of_a_non_seat_cannot_be_built(kind: type[Claim | Swap], seat: object) -> None:
    """E5: a seat that is not an integer 0 or more is refused when the action is built, with InvalidValueError."""
    with pytest.raises(InvalidValueError, match="is not a seat number"):
        kind(seat)


# --- wrong types --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [Reveal, Place])
@pytest.mark.parametrize("value", [99, 8, -1, True, "E", "ELEPHANTS", "", 1.0, None, Animal])
def test_reveal_or_place_of_a_non_animal_cannot_be_built(kind: type[Reveal | Place], value: object) -> None:
    """E9: a value that is not an Animal, its number 0..7 or its name is refused with InvalidValueError."""
    with pytest.raises(InvalidValueError, match="is not an Animal"):
        kind(value)


def test_animal_numbers_convert_to_animals() -> None:
    """E9: an action built with an animal's number holds the Animal itself."""
    assert Reveal(7) == Reveal(M)
    assert Reveal(7).animal is M
    assert Place(0).animal is E


@pytest.mark.parametrize("name", ["monkey", "Monkey", "MONKEY", " monkey "])
@pytest.mark.parametrize("kind", [Reveal, Place])
def test_animal_names_in_any_case_convert_to_animals(kind: type[Reveal | Place], name: str) -> None:
    """E9: the same rule everywhere: an action built with an animal's name holds the Animal itself."""
    assert kind(name).animal is M
    assert kind(name) == kind(M) == kind(7)


@pytest.mark.parametrize("action", ["draw", None, Draw, 3, (Draw(),)])
def test_apply_of_something_not_an_action_is_illegal(action: object) -> None:
    """E9: apply refuses a non-action with IllegalActionError, and the state is unchanged."""
    state = STATES["decide"]
    before = frozen(state)
    with pytest.raises(IllegalActionError, match="is not an action") as caught:
        apply(state, action)  # type: ignore[arg-type]  # a wrong type on purpose: E9 at run time
    assert caught.value.state is state
    assert same_as(state, before)


@pytest.mark.parametrize("state", ["state", None, attrs.asdict(STATES["decide"], recurse=False)])
def test_apply_to_something_not_a_state_is_illegal(state: object) -> None:
    """E9: apply refuses anything that is not a GameState."""
    with pytest.raises(IllegalActionError, match="is not a GameState"):
        apply(state, Draw())  # type: ignore[arg-type]  # a wrong type on purpose: E9 at run time


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        pytest.param(("3",), {}, "players must be an integer, got '3'", id="str"),
        pytest.param((True,), {}, "players must be an integer, got True", id="bool"),
        pytest.param((2.0,), {}, "players must be an integer, got 2.0", id="float"),
        pytest.param((1,), {}, "1 players", id="one"),
        pytest.param((7,), {}, "7 players", id="seven"),
        pytest.param((3,), {"ruleset": "standard"}, "ruleset must be a Ruleset", id="ruleset-str"),
        pytest.param((3,), {"first_player": 3}, "first_player 3 is not one of seats 0 to 2", id="first-3"),
    ],
)
def test_new_game_refuses_bad_arguments(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    """E9, R3: new_game refuses a bad seat count, first player or rule set with InvalidGameError."""
    with pytest.raises(InvalidGameError, match=re.escape(message)) as caught:
        new_game(*args, **kwargs)
    assert isinstance(caught.value, ValueError)


# --- E8: states built directly are checked ------------------------------------------------------------


def _fields(**over: Any) -> dict[str, Any]:
    """Fields of a valid deciding state (Elephant then Seal in front, claims on Seals), with some replaced.

    The bag is recomputed from the stacks and the front unless it is given, so only the named fault
    differs from a valid state.
    """
    fields: dict[str, Any] = {
        "ruleset": STANDARD,
        "seat": 0,
        "phase": Phase.DECIDE,
        "stacks": ((S,), (H,), ()),
        "front": (E, S),
        "claimable": S,
        "swap_open": False,
    }
    fields.update(over)
    if "bag" not in over:
        ruleset = fields["ruleset"] if isinstance(fields["ruleset"], Ruleset) else STANDARD
        try:
            held = held_outside_bag(fields["stacks"], fields["front"])
        except (TypeError, IndexError):
            held = held_outside_bag(((S,), (H,), ()), (E, S))
        fields["bag"] = tuple(c - h for c, h in zip(ruleset.counts, held, strict=True))
    return fields


def test_valid_fields_build_a_state() -> None:
    """E8: the base used by the broken cases is itself a valid state."""
    assert GameState(**_fields()) == STATES["decide"]


NO_SWAP = Ruleset((3, 4, 5, 6, 7, 8, 9, 10), (10, 9, 8, 7, 6, 5, 4, 3), bonus_tiles=True, swap=False, name="no-swap")


@pytest.mark.parametrize(
    ("over", "message"),
    [
        pytest.param(
            {"bag": (3, 4, 5, 6, 7, 8, 9, 10)}, "tokens in the game, but the rule set has", id="not-conserved"
        ),
        pytest.param({"bag": (2, 2, 4, 6, 7, 8, 9, 11)}, "11 Monkey tokens in the game", id="extra-monkey"),
        pytest.param({"ruleset": "standard"}, "ruleset must be a Ruleset", id="ruleset"),
        pytest.param({"stacks": [(S,), (H,), ()]}, "stacks must be a tuple", id="stacks-list"),
        pytest.param(
            {"stacks": ((S,), (H,), (), (), (), (), ())}, "7 stacks, but the rule set allows 2", id="7-stacks"
        ),
        pytest.param({"stacks": ((S, H),)}, "1 stacks, but the rule set allows 2", id="1-stack"),
        pytest.param({"seat": 3}, "seat 3 is not one of the 3 seats", id="seat-3"),
        pytest.param({"seat": -1}, "seat -1 is not one", id="seat-negative"),
        pytest.param({"seat": True}, "seat True is not one", id="seat-bool"),
        pytest.param({"phase": 1}, "phase must be a Phase", id="phase-int"),
        pytest.param({"bag": (2, 3, 5, 6, 7, 8, 9)}, "bag must be a tuple of 8", id="bag-short"),
        pytest.param({"bag": [2, 3, 4, 6, 7, 8, 9, 10]}, "bag must be a tuple of 8", id="bag-list"),
        pytest.param({"bag": (2, 3, 4, 6, 7, 8, 9, -1)}, "count of Monkey is -1, not a count", id="bag-negative"),
        pytest.param({"bag": (2, 3, 4, 6, 7, 8, 9, True)}, "count of Monkey is True", id="bag-bool"),
        pytest.param({"stacks": ((1,), (H,), ())}, "seat 0's stack holds 1, which is not an Animal", id="int-token"),
        pytest.param({"front": [E, S]}, "front must be a tuple", id="front-list"),
        pytest.param({"claimable": "S"}, "claimable must be an Animal or None", id="claimable-str"),
        pytest.param({"swap_open": 1}, "swap_open must be True or False", id="swap-open-int"),
        pytest.param({"phase": Phase.CHANCE}, "open only while deciding, not in phase CHANCE", id="claims-at-chance"),
        pytest.param(
            {"phase": Phase.PLACING, "claimable": None, "swap_open": True},
            "open only while deciding, not in phase PLACING",
            id="swap-while-placing",
        ),
        pytest.param({"front": (), "claimable": None}, "deciding with no token in front", id="decide-empty-front"),
        pytest.param({"claimable": H}, "claims follow Hippo, but no Hippo is in front", id="claimable-not-in-front"),
        pytest.param({"swap_open": True}, "a swap is open only right after a monkey", id="swap-without-monkey"),
        pytest.param(
            {"front": (M,), "claimable": M, "swap_open": True, "ruleset": NO_SWAP},
            "a swap is open only right after a monkey was drawn under rules with the swap",
            id="swap-under-no-swap-rules",
        ),
        pytest.param(
            {"front": (M, M), "claimable": M, "swap_open": True},
            "a swap is open only right after a monkey",
            id="swap-after-a-monkey-claim",
        ),
        pytest.param(
            {"front": (M, E), "claimable": M, "swap_open": True},
            "R7: claims follow the animal drawn last, and Monkey was not",
            id="swap-monkey-not-last",
        ),
        pytest.param(
            {"phase": Phase.PLACING, "front": (S, S), "claimable": None},
            "placing needs two or more different animals",
            id="placing-one-animal",
        ),
        pytest.param(
            {"phase": Phase.OVER, "front": (), "claimable": None}, "the game is over only when the bag", id="over-early"
        ),
        pytest.param(
            {"phase": Phase.CHANCE, "stacks": (ALL_BUT_ONE_SEAL, (S,), ()), "front": (), "claimable": None},
            "a draw is pending but the bag is empty",
            id="chance-empty-bag",
        ),
        pytest.param(
            {"phase": Phase.DECIDE, "stacks": (ALL_BUT_ONE_SEAL, (S,), ()), "front": (), "claimable": None},
            "deciding with no token in front",
            id="decide-after-the-end",
        ),
    ],
)
def test_state_constructor_refuses_a_broken_invariant(over: dict[str, Any], message: str) -> None:
    """E8: building a GameState directly checks every invariant and raises InvalidStateError naming it."""
    with pytest.raises(InvalidStateError, match=re.escape(message)) as caught:
        GameState(**_fields(**over))
    assert isinstance(caught.value, ValueError)
    assert message in caught.value.reason


# --- E10: states are values ---------------------------------------------------------------------------


def test_equal_states_built_apart_are_equal_and_hash_alike() -> None:
    """E10: the same position reached by play and built by make is one value: equal, same hash, one set entry."""
    played = play(new_game(3), *draws(E, S))
    built = make(((), (), ()), (E, S), claimable=S)
    assert played == built
    assert played is not built
    assert hash(played) == hash(built)
    assert len({played, built, play(new_game(3), *draws(S, E))}) == 2


@pytest.mark.parametrize("name", list(STATES))
def test_states_pickle_and_copy_round_trip(name: str) -> None:
    """E10: a state survives pickling and deep copying as an equal value with the same hash and moves."""
    state = STATES[name]
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert again == state
        assert hash(again) == hash(state)
        assert legal_actions(again) == legal_actions(state)


def test_states_cannot_be_assigned_to() -> None:
    """E10: a state is frozen: assigning a field raises."""
    state = new_game(2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.seat = 1
    assert state.seat == 0


def test_actions_and_rule_sets_are_hashable_values_whose_repr_builds_them() -> None:
    """E10: actions hash, compare by value and pickle; their repr is the call that builds them."""
    namespace: dict[str, object] = {"Draw": Draw, "Stop": Stop, "Herd": Herd, "Reveal": Reveal, "Place": Place}
    namespace |= {"Claim": Claim, "Swap": Swap, "Animal": type(E)}
    actions: list[Action] = [Draw(), Stop(), Herd(), Reveal(M), Place(S), Claim(3), Swap(15)]
    for action in actions:
        assert eval(repr(action), namespace) == action
        assert pickle.loads(pickle.dumps(action)) == action
        assert hash(action) == hash(type(action)(*attrs.astuple(action)))
    for ruleset in (Ruleset.standard(), Ruleset.little_children(without_kangaroo=True)):
        assert pickle.loads(pickle.dumps(ruleset)) == ruleset
        assert hash(ruleset) == hash(pickle.loads(pickle.dumps(ruleset)))


def test_apply_never_changes_the_state_it_is_given() -> None:
    """E10: over whole random games, every state is byte-for-byte the same after apply as before."""
    checked = 0

    def check(state: GameState, action: Action) -> None:
        nonlocal checked
        before = pickle.dumps(state)
        after = apply(state, action)
        assert pickle.dumps(state) == before
        assert after is not state
        checked += 1

    for seed in range(6):
        play_game([RandomBot()] * (2 + seed % 3), seed=seed, on_action=check)
    assert checked > 500
