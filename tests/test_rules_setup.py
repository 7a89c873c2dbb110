"""Components and set-up: R1 tokens, R2 bonus values, R3 players and seat order, R4 the start, seat cap."""

from __future__ import annotations

import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    Draw,
    GameState,
    Herd,
    IllegalActionError,
    InvalidGameError,
    InvalidRulesetError,
    Phase,
    Reveal,
    Ruleset,
    Stop,
    current_player,
    is_chance_node,
    legal_actions,
    new_game,
)
from cheekymonkey.cheeky.actions import Action
from cheekymonkey.cheeky.rules import MAX_PLAYERS
from tests.helpers import STANDARD_COUNTS, E, G, H, K, L, M, P, S, draws, make, play


def test_standard_game_has_52_tokens_of_8_animals() -> None:
    """R1: the standard rule set has 8 animals and 52 tokens, with the named default counts."""
    standard = Ruleset.standard()
    assert standard.animals == (E, S, H, G, P, K, L, M)
    assert standard.counts == (3, 4, 5, 6, 7, 8, 9, 10)
    assert standard.total_tokens == 52
    assert {animal.label: standard.counts[animal] for animal in ANIMALS} == {
        "Elephant": 3,
        "Seal": 4,
        "Hippo": 5,
        "Giraffe": 6,
        "Panda": 7,
        "Kangaroo": 8,
        "Lion": 9,
        "Monkey": 10,
    }


def test_standard_counts_run_from_3_to_10_all_different() -> None:
    """R1: the counts are exactly 3..10, each once."""
    assert sorted(Ruleset.standard().counts) == list(range(3, 11))
    assert len(set(Ruleset.standard().counts)) == 8


def test_animals_are_numbered_by_their_standard_count() -> None:
    """R1: an animal's number orders it by count: Elephant (3 tokens) is 0, Monkey (10 tokens) is 7."""
    assert [int(a) for a in ANIMALS] == list(range(8))
    assert [Ruleset.standard().counts[a] for a in ANIMALS] == [a + 3 for a in range(8)]


def test_standard_bonus_values_are_the_token_counts() -> None:
    """R2: one tile per animal, worth its animal's token count: Elephant 3 up to Monkey 10, all different."""
    standard = Ruleset.standard()
    assert standard.bonus_values == (3, 4, 5, 6, 7, 8, 9, 10)
    assert standard.bonus_values[Animal.ELEPHANT] == 3
    assert standard.bonus_values[Animal.MONKEY] == 10
    assert standard.bonus_values == STANDARD_COUNTS
    assert len(set(standard.bonus_values)) == 8
    assert standard.bonus_tiles is True


def test_custom_rule_set_gives_each_tile_its_animals_count_by_default() -> None:
    """E6: a custom rule set without values makes each tile worth its animal's count in that rule set."""
    assert Ruleset.custom({Animal.ELEPHANT: 4}).bonus_values == (4, 0, 0, 0, 0, 0, 0, 0)
    ruleset = Ruleset.custom({Animal.ELEPHANT: 7, Animal.LION: 2, Animal.MONKEY: 5})
    assert ruleset.counts == (7, 0, 0, 0, 0, 0, 2, 5)
    assert ruleset.bonus_values == (7, 0, 0, 0, 0, 0, 2, 5)


def test_custom_rule_set_keeps_explicit_bonus_values_as_given() -> None:
    """E6: values given explicitly are kept, even where they differ from the counts."""
    ruleset = Ruleset.custom({Animal.ELEPHANT: 4, Animal.SEAL: 2}, bonus_values={Animal.ELEPHANT: 1, Animal.SEAL: 9})
    assert ruleset.bonus_values == (1, 9, 0, 0, 0, 0, 0, 0)


def test_variants_carry_the_count_values_of_their_animals() -> None:
    """R2, E6: the presets without tiles still carry each animal's count as its value (0 for an animal out)."""
    assert Ruleset.younger().bonus_values == STANDARD_COUNTS
    assert Ruleset.little_children().bonus_values == (3, 4, 5, 6, 7, 8, 0, 10)
    assert Ruleset.little_children(without_kangaroo=True).bonus_values == (3, 4, 5, 6, 7, 0, 0, 10)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_new_game_accepts_2_to_6_players(players: int) -> None:
    """R3: the standard game seats 2 to 6 players, each with an empty stack."""
    state = new_game(players)
    assert state == make(((),) * players)
    assert state.players == players


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 16])
def test_new_game_refuses_player_counts_outside_2_to_6(players: int) -> None:
    """R3: fewer than 2 or more than 6 players is refused with InvalidGameError."""
    with pytest.raises(InvalidGameError, match=rf"{players} players"):
        new_game(players)


@pytest.mark.parametrize(("players", "first"), [(2, 0), (2, 1), (4, 3), (6, 5), (6, 2)])
def test_any_seat_may_start(players: int, first: int) -> None:
    """R3: any seat may take the first turn; the game opens on that seat's draw."""
    state = new_game(players, first_player=first)
    assert state == make(((),) * players, seat=first)


@pytest.mark.parametrize("first", [-1, 3, True, "0", 1.0])
def test_first_player_must_be_a_seat(first: object) -> None:
    """R3: a first player that is not one of the seats is refused with InvalidGameError."""
    with pytest.raises(InvalidGameError, match="first_player"):
        new_game(3, first_player=first)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "first"), [(2, 0), (3, 1), (4, 3), (6, 4)])
def test_play_goes_up_the_seat_numbers_and_wraps(players: int, first: int) -> None:
    """R3: turns pass to the next seat number, from the last seat back to seat 0."""
    state = new_game(players, first_player=first)
    seats = []
    # Each turn: one forced draw of a fresh animal, then stop; the bag never runs out here.
    for turn in range(players + 2):
        seats.append(state.seat)
        state = play(state, Reveal(ANIMALS[turn % 8]), Stop())
    assert seats == [(first + turn) % players for turn in range(players + 2)]
    assert state.phase is Phase.CHANCE


def test_new_game_puts_every_token_in_the_bag_and_stacks_empty() -> None:
    """R4: at the start all 52 tokens are in the bag, nothing is in front, and every stack is empty."""
    state = new_game(4)
    assert state.bag == STANDARD_COUNTS
    assert state.bag_size == 52
    assert state.stacks == ((), (), (), ())
    assert state.front == ()
    assert state.claimable is None
    assert state.swap_open is False


def test_game_opens_on_the_first_players_compulsory_draw() -> None:
    """R4, E1: the first turn opens at a chance node, so its draw is compulsory: no Draw action is needed."""
    state = new_game(3, first_player=2)
    assert is_chance_node(state)
    assert state.phase is Phase.CHANCE
    assert current_player(state) is None
    assert legal_actions(state) == tuple(Reveal(a) for a in ANIMALS)
    with pytest.raises(IllegalActionError):
        play(state, Draw())


@pytest.mark.parametrize(
    ("ending", "stacks"),
    [
        pytest.param((Stop(),), ((S,), ()), id="stop"),
        pytest.param((Herd(),), ((S,), ()), id="herd"),
        pytest.param((Draw(), Reveal(S)), ((), ()), id="bust"),
    ],
)
def test_every_turn_opens_at_a_chance_node(ending: tuple[Action, ...], stacks: tuple[tuple[Animal, ...], ...]) -> None:
    """E1: however a turn ends (stop, herd or bust), the next player's turn opens on its compulsory draw."""
    state = play(new_game(2), *draws(S), *ending)
    assert state == make(stacks, seat=1)
    assert state.phase is Phase.CHANCE
    assert current_player(state) is None
    assert legal_actions(state) == tuple(Reveal(a) for a in ANIMALS)
    with pytest.raises(IllegalActionError, match="R5: a draw is being resolved"):
        play(state, Draw())


def test_seats_are_capped_at_16() -> None:
    """E4: no rule set may allow more than 16 seats; 16 itself is allowed."""
    assert MAX_PLAYERS == 16
    big = Ruleset.custom({Animal.ELEPHANT: 40}, min_players=2, max_players=16)
    assert new_game(16, ruleset=big).players == 16
    with pytest.raises(InvalidRulesetError, match="above the supported 16"):
        Ruleset.custom({Animal.ELEPHANT: 40}, max_players=17)


def test_sixteen_seat_game_wraps_from_seat_15_to_seat_0() -> None:
    """E4, R3: in the biggest game the last seat's turn passes to seat 0."""
    big = Ruleset.custom({Animal.ELEPHANT: 40}, min_players=16, max_players=16)
    state = make(((),) * 16, seat=15, ruleset=big)
    after = play(state, Reveal(E), Stop())
    assert after == make(((),) * 15 + ((E,),), seat=0, ruleset=big)
    assert isinstance(after, GameState)
