"""Misuse errors checked whole, field by field, and the edges of Ruleset (what the mutation run found unchecked).

Each misuse error is checked whole: its ``state``, its ``action``, its ``reason`` word for word, and its
message, so a mutant that empties a field, swaps two of them or rewords the reason is caught.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    Claim,
    Draw,
    ExpectimaxBot,
    GameState,
    Herd,
    HeuristicBot,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    InvalidStateError,
    InvalidValueError,
    NotAChanceNodeError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    apply_all,
    chance_outcomes,
    current_player,
    new_game,
    play_game,
    sample_chance,
    score_counts,
    stop_in_order,
    view,
)

E, S, L, M = Animal.ELEPHANT, Animal.SEAL, Animal.LION, Animal.MONKEY
# Called through Any: these tests pass what the types forbid, as a careless caller would.
_apply: Any = apply
_stop: Any = stop_in_order
DECIDING = apply_all(new_game(2), [Reveal(E), Draw(), Reveal(S)])  # seat 0 has an Elephant and a Seal in front


def _caught(call: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        call()
    return caught.value


# --- 13. every field of a misuse error ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "state", "action", "reason"),
    [
        pytest.param(lambda: _stop("x", []), "x", (), "E9: 'x' is not a GameState", id="stop_in_order-non-state"),
        pytest.param(lambda: _apply(DECIDING, "x"), DECIDING, "x", "E9: 'x' is not an action", id="apply-non-action"),
        pytest.param(lambda: _apply("x", Draw()), "x", Draw(), "E9: 'x' is not a GameState", id="apply-non-state"),
        pytest.param(
            lambda: _stop(DECIDING, [0, 1]),
            DECIDING,
            (0, 1),
            "R9: the order must be a sequence of animals",
            id="order-of-numbers",
        ),
        pytest.param(
            lambda: _stop(DECIDING, None),
            DECIDING,
            None,
            "R9: the order must be a sequence of animals, got None",
            id="order-none",
        ),
        pytest.param(
            lambda: stop_in_order(DECIDING, [S, S]),
            DECIDING,
            (S, S),
            "R9: the order must list exactly the tokens in front, (Animal.ELEPHANT, Animal.SEAL)",
            id="order-mismatched",
        ),
        pytest.param(
            lambda: stop_in_order(DECIDING, [E]),
            DECIDING,
            (E,),
            "R9: the order must list exactly the tokens in front, (Animal.ELEPHANT, Animal.SEAL)",
            id="order-short",
        ),
        pytest.param(
            lambda: stop_in_order(new_game(2), []),
            new_game(2),
            Stop(),
            "R5: a draw is being resolved: the next action is the chance outcome, a Reveal",
            id="stop-at-a-chance-node",
        ),
    ],
)
def test_a_misuse_error_carries_the_state_the_action_and_the_reason(
    call: Any, state: object, action: object, reason: str
) -> None:
    """The error's .state, .action and .reason are exactly what was given and why, and the message shows them."""
    error = _caught(call)
    assert error.state == state
    assert type(error.state) is type(state)
    assert error.action == action
    assert type(error.action) is type(action)
    assert error.reason == reason
    assert str(error) == f"illegal action {action!r}: {reason}"
    assert error.args == (str(error),)


def test_a_misuse_error_keeps_the_very_state_given() -> None:
    """The state in the error is the caller's own object, unchanged."""
    error = _caught(lambda: stop_in_order(DECIDING, [L, S]))
    assert error.state is DECIDING
    assert error.action == (L, S)


# --- 14. Ruleset edges -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", Ruleset.preset_names())
def test_every_preset_is_named_after_itself(name: str) -> None:
    """Ruleset.preset(n).name == n for every preset name."""
    assert Ruleset.preset(name).name == name


@pytest.mark.parametrize("animal", ANIMALS, ids=[a.name for a in ANIMALS])
def test_an_animal_with_a_single_token_still_needs_a_bonus_value_of_1_or_more(animal: Animal) -> None:
    """The boundary at a count of 1: a value of 0 for an animal in play is refused, 1 is accepted."""
    with pytest.raises(InvalidRulesetError, match=f"{animal.label} is in play, so its bonus value must be 1 or more"):
        Ruleset.custom({animal: 1}, bonus_values={animal: 0})
    assert Ruleset.custom({animal: 1}, bonus_values={animal: 1}).bonus_values[animal] == 1


def test_a_single_monkey_turns_the_swap_on_by_default() -> None:
    """With one monkey in play the swap is on unless turned off; without monkeys it is off."""
    assert Ruleset.custom({M: 1}).swap is True
    assert Ruleset.custom({M: 1}, swap=False).swap is False
    assert Ruleset.custom({S: 1}).swap is False


def test_custom_has_the_documented_defaults() -> None:
    """Custom's defaults: 2 to 6 players, bonus tiles on, the name "custom"."""
    ruleset = Ruleset.custom({S: 2, L: 3})
    assert ruleset.min_players == 2
    assert ruleset.max_players == 6
    assert ruleset.bonus_tiles is True
    assert ruleset.name == "custom"
    assert ruleset.counts == (0, 2, 0, 0, 0, 0, 3, 0)
    # The default tile values are not pinned here (R2 sets them); only that animals out of play have none.
    assert all(ruleset.bonus_values[a] == 0 for a in ANIMALS if a not in (S, L))
    assert all(ruleset.bonus_values[a] >= 1 for a in (S, L))


def test_the_preset_names_are_the_four_presets_in_order() -> None:
    """Preset_names lists every preset, in the order the CLI shows them."""
    assert Ruleset.preset_names() == ("standard", "younger", "little-children", "little-children-no-kangaroo")


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        pytest.param(
            lambda: Ruleset.custom({S: 2}, swap=True),
            "a swap without a monkey: the swap needs monkeys in play",
            id="swap-without-monkey",
        ),
        pytest.param(
            lambda: Ruleset.preset("chess"),
            "no preset named 'chess'; the presets are standard, younger, little-children, little-children-no-kangaroo",
            id="unknown-preset",
        ),
        pytest.param(
            lambda: Ruleset.custom({S: 1}, bonus_values={S: 0}),
            "Seal is in play, so its bonus value must be 1 or more",
            id="value-zero",
        ),
        pytest.param(
            lambda: Ruleset.custom({}), "no animals: at least one animal needs a count of 1 or more", id="empty"
        ),
    ],
)
def test_a_ruleset_error_says_exactly_what_is_wrong(build: Any, reason: str) -> None:
    """The whole reason, word for word (a match= on part of it lets a reworded message through)."""
    with pytest.raises(InvalidRulesetError) as caught:
        build()
    assert caught.value.reason == reason
    assert str(caught.value) == reason


# --- survivors of the mutation run: whole reasons, word for word ---------------------------------------

TURN_RULES = Ruleset.custom({E: 2, S: 2, M: 2})
OVER: GameState = play_game([RandomBot(), RandomBot()], seed=1).state


def _turn_state(
    phase: Phase, front: tuple[Animal, ...], claimable: Animal | None, swap_open: bool, *, bag: bool
) -> Any:
    """Build (and so check) a 2-seat state of TURN_RULES with this turn; seat 1's stack takes what is left."""
    bag_counts = [0] * len(ANIMALS)
    if bag:
        bag_counts[S] = 1
    left = [TURN_RULES.counts[a] - front.count(a) - bag_counts[a] for a in ANIMALS]
    stack = tuple(a for a in ANIMALS for _ in range(left[a]))
    return GameState(TURN_RULES, 0, phase, tuple(bag_counts), ((), stack), front, claimable, swap_open)


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        pytest.param((Phase.CHANCE, (), None, False, False), "a draw is pending but the bag is empty", id="chance"),
        pytest.param(
            (Phase.DECIDE, (), None, False, True),
            "deciding with no token in front: every decision follows a draw",
            id="decide-empty",
        ),
        pytest.param(
            (Phase.DECIDE, (E,), M, False, True),
            "claims follow Monkey, but no Monkey is in front",
            id="claimable-not-in-front",
        ),
        pytest.param(
            (Phase.DECIDE, (E, S), E, False, True),
            "R7: claims follow the animal drawn last, and Elephant was not: "
            "the front (Elephant, Seal) would have bust or ends with another animal",
            id="r7",
        ),
        pytest.param(
            (Phase.DECIDE, (M, E), None, False, True),
            "R12: no claims are open only after a swap, which leaves no monkey in front",
            id="r12",
        ),
        pytest.param(
            (Phase.DECIDE, (E,), E, True, True),
            "a swap is open only right after a monkey was drawn under rules with the swap",
            id="swap-without-monkey",
        ),
        pytest.param(
            (Phase.DECIDE, (E, M), M, False, True),
            "R11: a monkey was just drawn and none claimed, so the swap must be open",
            id="r11",
        ),
        pytest.param(
            (Phase.PLACING, (E, E), None, False, True),
            "placing needs two or more different animals in front; fewer are stacked at once",
            id="placing",
        ),
        pytest.param(
            (Phase.OVER, (E,), None, False, False),
            "the game is over only when the bag and the front are empty (R15)",
            id="over",
        ),
        pytest.param(
            (Phase.CHANCE, (E,), E, False, True),
            "claims and swaps are open only while deciding, not in phase CHANCE",
            id="claims-at-chance",
        ),
    ],
)
def test_each_broken_turn_is_refused_with_its_whole_reason(turn: Any, reason: str) -> None:
    """Every check of the turn raises InvalidStateError with exactly its reason."""
    phase, front, claimable, swap_open, bag = turn
    with pytest.raises(InvalidStateError) as caught:
        _turn_state(phase, front, claimable, swap_open, bag=bag)
    assert caught.value.reason == reason
    assert str(caught.value) == reason


def _swapped() -> Any:
    # Seat 0 stacked a Seal; seat 1 drew a Monkey and swapped it for the Seal: no claims are open.
    return apply_all(new_game(2), [Reveal(S), Stop(), Reveal(M), Swap(0)])


@pytest.mark.parametrize(
    ("state", "action", "reason"),
    [
        pytest.param(
            lambda: apply_all(new_game(2), [Reveal(E), Draw(), Reveal(S), Stop()]),
            Draw(),
            "R9: you are stopping: put the tokens in front of you on your stack",
            id="placing",
        ),
        pytest.param(
            lambda: DECIDING,
            Place(L),
            "R8: the draw has been revealed: claim, swap, draw again, stop or secure a herd",
            id="decide",
        ),
        pytest.param(lambda: DECIDING, Reveal(L), "R5: not a chance node: a Reveal only resolves a draw", id="reveal"),
        pytest.param(_swapped, Claim(0), "R7, R12: nothing can be claimed now (a swap opens no claims)", id="claim"),
        pytest.param(
            lambda: DECIDING,
            Swap(1),
            "R11, R12: a swap is open only right after drawing a monkey, before any claim",
            id="swap",
        ),
        pytest.param(
            lambda: DECIDING, Herd(), "R10: a herd needs every token in front of you to show the same animal", id="herd"
        ),
        pytest.param(lambda: OVER, Draw(), "R15: the game is over", id="over"),
    ],
)
def test_each_illegal_action_gives_its_whole_reason(state: Any, action: Any, reason: str) -> None:
    """The reason of each refusal, word for word."""
    error = _caught(lambda: apply(state(), action))
    assert error.reason == reason
    assert error.action == action


def test_the_chance_functions_name_the_phase_when_no_draw_is_pending() -> None:
    """Chance_outcomes and sample_chance refuse a decision with a message naming its phase."""
    for call in (lambda: chance_outcomes(DECIDING), lambda: sample_chance(DECIDING, random.Random(1))):
        with pytest.raises(NotAChanceNodeError) as caught:
            call()
        assert str(caught.value) == "no draw is pending in phase DECIDE"


def test_current_player_is_the_seat_only_while_deciding_or_placing() -> None:
    """None at a chance node and after the end, the seat otherwise."""
    assert current_player(new_game(2, first_player=1)) is None
    assert current_player(DECIDING) == 0
    placing = apply(DECIDING, Stop())
    assert placing.phase is Phase.PLACING
    assert current_player(placing) == 0
    assert current_player(OVER) is None


def test_stop_in_order_keeps_a_non_iterable_order_as_given() -> None:
    """The error carries the very object passed as the order."""
    error = _caught(lambda: _stop(DECIDING, 5))
    assert error.action == 5
    assert error.reason == "R9: the order must be a sequence of animals, got 5"


def test_score_counts_of_no_seats_says_so_exactly() -> None:
    """The whole reason."""
    with pytest.raises(InvalidStateError) as caught:
        score_counts([], Ruleset.standard())
    assert caught.value.reason == "there are no seats to score"


@pytest.mark.parametrize("bot", [HeuristicBot, RandomBot, ExpectimaxBot])
def test_a_bot_class_instead_of_an_instance_is_refused_saying_what_to_pass(bot: type) -> None:
    """play_game([HeuristicBot, ...]) names the class and asks for an instance, before any move."""
    with pytest.raises(InvalidGameError, match=rf"seat 1's bot is the class {bot.__name__}.*pass an instance"):
        play_game([RandomBot(), bot])  # type: ignore[list-item]
    with pytest.raises(InvalidGameError, match="has no choose"):
        play_game([RandomBot(), "heuristic"])  # type: ignore[list-item]


def test_seat_errors_quote_the_seats_the_game_has() -> None:
    """A claim, swap, view or first player outside the game names this game's seats, not 0 to 15."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.MONKEY)])
    for action in (Claim(3), Swap(7), Claim(40)):
        with pytest.raises(ValueError, match=r"this game's seats are 0 to 2"):
            apply(state, action)
    with pytest.raises(InvalidValueError, match="one of the 3 seats"):
        view(state, 5)
    with pytest.raises(InvalidGameError, match="seats 0 to 2"):
        new_game(3, first_player=3)
