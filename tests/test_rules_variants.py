"""Variants and custom rules: R19 younger players, R20 little children, R21 and E7 custom rule sets."""

from __future__ import annotations

from typing import Any

import pytest

from cheekymonkey import (
    Animal,
    Claim,
    Decision,
    Draw,
    Herd,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    Phase,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    legal_actions,
    new_game,
    play_game,
    score_counts,
    score_stacks,
)
from tests.helpers import E, G, H, K, L, M, P, S, make, play

# --- R19: younger players -----------------------------------------------------------------------------


def test_younger_rules_have_every_animal_and_no_bonus_tiles() -> None:
    """R19: the younger-players game keeps the standard tokens and the swap but takes no bonus tiles."""
    younger = Ruleset.younger()
    assert younger.counts == (3, 4, 5, 6, 7, 8, 9, 10)
    assert younger.bonus_tiles is False
    assert younger.swap is True
    assert Ruleset.preset("younger") == younger


def test_younger_tallest_stack_wins_and_majorities_give_nothing() -> None:
    """R19: with no tiles the score is the stack's height, so the tallest stack wins."""
    sheet = score_stacks([(E, E, E), (M, M, M, M)], Ruleset.younger())
    assert sheet.tile_holders == (None,) * 8
    assert sheet.totals == (3, 4)
    assert [s.tiles for s in sheet.seats] == [(), ()]
    assert (sheet.winners, sheet.decided_by) == ((1,), Decision.SCORE)


def test_younger_equal_tallest_stacks_share_the_win() -> None:
    """R19: equal tallest stacks share the win, whatever their animals."""
    sheet = score_stacks([(E, E, S), (M, M, M), (H,)], Ruleset.younger())
    assert sheet.totals == (3, 3, 1)
    assert (sheet.winners, sheet.decided_by) == ((0, 1), Decision.SHARED)


# --- R20: little children -----------------------------------------------------------------------------


def test_little_children_rules_drop_the_lion_the_swap_and_the_tiles() -> None:
    """R20: little children play younger rules without the 9-count Lion and without the swap."""
    ruleset = Ruleset.little_children()
    assert ruleset.counts == (3, 4, 5, 6, 7, 8, 0, 10)
    assert ruleset.animals == (E, S, H, G, P, K, M)
    assert ruleset.total_tokens == 43
    assert (ruleset.bonus_tiles, ruleset.swap) == (False, False)
    assert Ruleset.preset("little-children") == ruleset


def test_little_children_may_also_drop_the_kangaroo() -> None:
    """R20: the option also takes out the 8-count Kangaroo."""
    ruleset = Ruleset.little_children(without_kangaroo=True)
    assert ruleset.counts == (3, 4, 5, 6, 7, 0, 0, 10)
    assert ruleset.total_tokens == 35
    assert (ruleset.bonus_tiles, ruleset.swap) == (False, False)
    assert Ruleset.preset("little-children-no-kangaroo") == ruleset


def test_little_children_game_has_no_lion_in_the_bag() -> None:
    """R20: a Lion can never be drawn."""
    state = new_game(3, ruleset=Ruleset.little_children())
    assert state.bag == (3, 4, 5, 6, 7, 8, 0, 10)
    assert Reveal(L) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="no Lion"):
        play(state, Reveal(L))


def test_little_children_monkey_is_an_ordinary_animal() -> None:
    """R20: without the swap a drawn monkey offers only the ordinary monkey claims."""
    ruleset = Ruleset.little_children()
    start = make(((), (M,), (H,)), ruleset=ruleset)
    state = play(start, Reveal(M))
    assert state == make(((), (M,), (H,)), (M,), claimable=M, swap_open=False, ruleset=ruleset)
    assert legal_actions(state) == (Draw(), Stop(), Herd(), Claim(1))
    with pytest.raises(IllegalActionError, match="R11, R12"):
        play(state, Swap(2))
    # A second monkey still busts, as any duplicate does.
    assert play(state, Draw(), Reveal(M)) == make(((), (M,), (H,)), seat=1, ruleset=ruleset)


@pytest.mark.parametrize("name", Ruleset.preset_names())
def test_every_preset_plays_to_the_end(name: str) -> None:
    """R19-R21: every preset plays whole games to the end with all its tokens stacked."""
    ruleset = Ruleset.preset(name)
    for seed in range(5):
        game = play_game([RandomBot(), RandomBot(), RandomBot()], ruleset=ruleset, seed=seed)
        assert game.state.phase is Phase.OVER
        assert sum(len(stack) for stack in game.state.stacks) == ruleset.total_tokens


# --- R21: custom rule sets ----------------------------------------------------------------------------


def test_custom_switches_combine_freely() -> None:
    """R21: animals, counts, tiles, values, swap and seats combine into one playable rule set."""
    ruleset = Ruleset.custom(
        {Animal.SEAL: 2, Animal.MONKEY: 3},
        bonus_values={Animal.SEAL: 4, Animal.MONKEY: 4},
        bonus_tiles=True,
        swap=False,
        min_players=3,
        max_players=8,
        name="tiny",
    )
    assert ruleset == Ruleset((0, 2, 0, 0, 0, 0, 0, 3), (0, 4, 0, 0, 0, 0, 0, 4), True, False, 3, 8, "tiny")
    state = new_game(8, ruleset=ruleset)
    assert state == make(((),) * 8, ruleset=ruleset)
    game = play_game([RandomBot()] * 8, ruleset=ruleset, seed=3)
    assert sum(len(stack) for stack in game.state.stacks) == 5


def test_custom_swap_defaults_to_whether_monkeys_are_in_play() -> None:
    """R21: without an explicit swap switch, the swap is on exactly when monkeys are in play."""
    assert Ruleset.custom({Animal.SEAL: 2, Animal.MONKEY: 3}).swap is True
    assert Ruleset.custom({Animal.SEAL: 2}).swap is False


def test_custom_game_refuses_seat_counts_outside_its_range() -> None:
    """R21, R3: a custom player range is enforced by new_game."""
    ruleset = Ruleset.custom({Animal.SEAL: 2}, min_players=3, max_players=4)
    assert new_game(3, ruleset=ruleset).players == 3
    with pytest.raises(InvalidGameError, match="allow 3 to 4"):
        new_game(2, ruleset=ruleset)


def test_custom_bonus_values_score_as_given() -> None:
    """R21, R17: a custom tile value is what the majority scores."""
    ruleset = Ruleset.custom({Animal.HIPPO: 3, Animal.PANDA: 3}, bonus_values={Animal.HIPPO: 20, Animal.PANDA: 1})
    sheet = score_counts([(0, 0, 2, 0, 1, 0, 0, 0), (0, 0, 1, 0, 2, 0, 0, 0)], ruleset)
    assert sheet.totals == (23, 4)


def test_custom_game_without_tiles_scores_height_only() -> None:
    """R21, R19: with tiles off a custom game scores height only."""
    ruleset = Ruleset.custom({Animal.GIRAFFE: 3}, bonus_tiles=False)
    assert score_counts([(0, 0, 0, 2, 0, 0, 0, 0), (0, 0, 0, 1, 0, 0, 0, 0)], ruleset).totals == (2, 1)


def test_preset_of_an_unknown_name_is_refused() -> None:
    """R21: asking for a preset that does not exist names the presets there are."""
    with pytest.raises(InvalidRulesetError, match="no preset named 'chess'; the presets are standard"):
        Ruleset.preset("chess")


_EIGHT_ZEROS = (0,) * 8


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"counts": [3] * 8}, "counts must be a tuple of 8", id="counts-not-tuple"),
        pytest.param({"counts": (3,) * 7}, "counts must be a tuple of 8", id="counts-short"),
        pytest.param({"counts": (3,) * 7 + (1.5,)}, "counts for Monkey must be an integer", id="count-float"),
        pytest.param({"counts": (3,) * 7 + (True,)}, "counts for Monkey must be an integer", id="count-bool"),
        pytest.param({"counts": (3,) * 7 + (-1,)}, "counts for Monkey is -1", id="count-negative"),
        pytest.param({"bonus_values": (1,) * 9}, "bonus values must be a tuple of 8", id="values-long"),
        pytest.param({"bonus_values": (1,) * 7 + (-2,)}, "bonus values for Monkey is -2", id="value-negative"),
        pytest.param({"counts": _EIGHT_ZEROS, "bonus_values": _EIGHT_ZEROS}, "no animals", id="no-animals"),
        pytest.param({"counts": (0,) + (3,) * 7}, "Elephant is not in play but has bonus value 1", id="value-unused"),
        pytest.param({"bonus_values": (0,) + (1,) * 7}, "Elephant is in play, so its bonus value", id="value-zero"),
        pytest.param({"bonus_tiles": 1}, "bonus_tiles must be True or False", id="tiles-not-bool"),
        pytest.param({"swap": "yes"}, "swap must be True or False", id="swap-not-bool"),
        pytest.param(
            {"counts": (3,) * 7 + (0,), "bonus_values": (1,) * 7 + (0,)}, "a swap without a monkey", id="swap-no-monkey"
        ),
        pytest.param({"min_players": 2.0}, "min_players must be an integer", id="min-float"),
        pytest.param({"max_players": True}, "max_players must be an integer", id="max-bool"),
        pytest.param({"min_players": 1}, "a game needs at least 2 players", id="min-below-2"),
        pytest.param({"min_players": 5, "max_players": 4}, "max_players 4 is below min_players 5", id="max-below-min"),
        pytest.param({"max_players": 17}, "above the supported 16", id="max-above-16"),
        pytest.param({"name": ""}, "name must be a non-empty string", id="name-empty"),
        pytest.param({"name": 7}, "name must be a non-empty string", id="name-not-str"),
    ],
)
def test_ruleset_constructor_refuses_each_impossible_rule_set(kwargs: dict[str, Any], message: str) -> None:
    """R21, E7: each check the constructor makes raises InvalidRulesetError naming the problem."""
    fields: dict[str, Any] = {"counts": (3,) * 8, "bonus_values": (1,) * 8}
    fields.update(kwargs)
    with pytest.raises(InvalidRulesetError, match=message):
        Ruleset(**fields)
    # The same fields minus the fault build: the error is due to the fault alone.
    assert Ruleset((3,) * 8, (1,) * 8).total_tokens == 24


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        pytest.param(([(Animal.SEAL, 2)],), {}, "counts must be a mapping", id="counts-not-mapping"),
        pytest.param(({"seals": 2},), {}, "'seals' is not an Animal", id="key-not-animal"),
        pytest.param(({Animal.SEAL: 0},), {}, "the count of Seal is 0: a count below 1", id="count-zero"),
        pytest.param(({Animal.SEAL: True},), {}, "the count of Seal is True", id="count-bool"),
        pytest.param(({Animal.SEAL: "2"},), {}, "the count of Seal is '2'", id="count-str"),
        pytest.param(({},), {}, "no animals", id="empty"),
        pytest.param(({Animal.SEAL: 2},), {"bonus_values": [4]}, "bonus_values must be a mapping", id="values-list"),
        pytest.param(({Animal.SEAL: 2},), {"bonus_values": {8: 4}}, "8 is not an Animal", id="value-key"),
        pytest.param(({Animal.SEAL: 2},), {"bonus_values": {}}, "Seal is in play, so its bonus", id="value-missing"),
        pytest.param(
            ({Animal.SEAL: 2},), {"bonus_values": {Animal.SEAL: 1, Animal.LION: 2}}, "Lion is not in play", id="extra"
        ),
        pytest.param(({Animal.SEAL: 2},), {"swap": True}, "a swap without a monkey", id="swap-no-monkey"),
        pytest.param(({Animal.SEAL: 2},), {"min_players": 1}, "at least 2 players", id="one-player"),
        pytest.param(({Animal.SEAL: 2},), {"max_players": 20}, "above the supported 16", id="twenty-seats"),
    ],
)
def test_custom_refuses_each_impossible_rule_set(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    """R21, E7: Ruleset.custom refuses each impossible rule set with InvalidRulesetError naming the problem."""
    with pytest.raises(InvalidRulesetError, match=message):
        Ruleset.custom(*args, **kwargs)


def test_invalid_ruleset_error_is_a_value_error_with_a_reason() -> None:
    """R21: the error is a ValueError and carries the reason in words."""
    with pytest.raises(ValueError, match="no animals") as caught:
        Ruleset.custom({})
    assert isinstance(caught.value, InvalidRulesetError)
    assert caught.value.reason.startswith("no animals")


def test_custom_game_follows_the_ordinary_turn_rules() -> None:
    """R21: a custom set with two animals runs the ordinary turn rules: claims, busts, stopping in order."""
    ruleset = Ruleset.custom({Animal.GIRAFFE: 2, Animal.KANGAROO: 2})
    assert ruleset.animals == (G, K)
    state = play(make(((), (G,)), ruleset=ruleset), Reveal(G), Claim(1))
    assert state == make(((), ()), (G, G), claimable=G, ruleset=ruleset)
    assert play(state, Draw(), Reveal(K), Draw(), Reveal(K)) == make(((), ()), seat=1, ruleset=ruleset)
    placing = play(state, Draw(), Reveal(K), Stop())
    assert placing == make(((), ()), (G, G, K), phase=Phase.PLACING, ruleset=ruleset)
