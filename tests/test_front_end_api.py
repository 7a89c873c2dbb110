"""What a front end builds on: a text board, words for values, one rule for animals, clear misuse errors, and more.

The more: a view that carries the score sheet at the end.
"""

from __future__ import annotations

import random

import attrs
import pytest

from cheekymonkey import (
    ANIMALS,
    Animal,
    Claim,
    Draw,
    ExpectimaxBot,
    GameState,
    HeuristicBot,
    InvalidGameError,
    InvalidRulesetError,
    InvalidValueError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    apply,
    apply_all,
    board_text,
    legal_actions,
    new_game,
    play_game,
    score,
    view,
)
from cheekymonkey.scoring import Decision
from cheekymonkey.serialization import dump_view, load_view
from cheekymonkey.verify import Status


def _mid_game() -> GameState:
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL), Draw()])
    return apply_all(state, [Reveal(Animal.LION)])


def test_print_of_a_state_shows_the_board_and_repr_stays_the_value() -> None:
    """Item 1: str(state) is the board (heights, tops, front, bag, turn, phase); repr is unchanged."""
    state = _mid_game()
    assert str(state) == board_text(state)
    assert str(state).splitlines() == [
        "seat  stack  top",
        "   0      1  Lion",
        ">  1      0  -",
        "   2      0  -",
        "front: Seal, Lion",
        "bag: 49 tokens",
        "to move: seat 1 (decide); may claim a Lion from seat 0",
    ]
    assert repr(state).startswith("GameState(ruleset=Ruleset(")
    assert "stacks=((Animal.LION,), (), ())" in repr(state)


def test_the_board_says_whom_the_player_may_claim_from_or_swap_with() -> None:
    """Item 1: after a monkey, the board names the seats open to a swap (R12); claims name theirs (R7)."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL), Stop(), Reveal(Animal.MONKEY)])
    assert str(state).splitlines()[-1] == "to move: seat 2 (decide); may swap the monkey with seats 0, 1"
    claim = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.LION), Stop(), Reveal(Animal.LION)])
    assert str(claim).splitlines()[-1] == "to move: seat 2 (decide); may claim a Lion from seats 0, 1"
    claimed = apply_all(claim, [Claim(0), Claim(1)])
    assert str(claimed).splitlines()[-1] == "to move: seat 2 (decide)"


def test_the_board_of_every_state_of_a_game_matches_the_state() -> None:
    """Item 1: for every state of seeded games, each seat's line shows its height and top, and the bag its size."""
    for seed in range(5):
        game = play_game([RandomBot(), RandomBot(), RandomBot()], seed=seed)
        for state in game.record.states():
            lines = str(state).splitlines()
            for seat, stack in enumerate(state.stacks):
                marker = ">" if seat == state.seat and state.phase is not Phase.OVER else " "
                top = stack[-1].label if stack else "-"
                assert lines[1 + seat].split() == [*marker.split(), str(seat), str(len(stack)), top]
            assert f"bag: {state.bag_size} token" in lines[-2] or f"bag: {state.bag_size} token" in lines[-3]
            assert (state.phase is Phase.OVER) == (lines[-1] == "game over: every token is stacked (R15)")


def test_a_view_prints_the_same_board_as_its_state() -> None:
    """Item 1: a client holding only a TableView prints the same board (the table shows the same to everybody)."""
    state = _mid_game()
    assert str(view(state, 0)) == board_text(view(state, None)) == str(state)


def test_animals_phases_and_decisions_print_as_words() -> None:
    """Item 3: str and f-strings give names, not numbers, for every enum a front end formats."""
    assert [str(a) for a in ANIMALS] == ["Elephant", "Seal", "Hippo", "Giraffe", "Panda", "Kangaroo", "Lion", "Monkey"]
    assert f"{Animal.LION}" == "Lion"
    assert f"{Animal.LION:>6}|" == "  Lion|"
    assert [str(p) for p in Phase] == ["chance", "decide", "placing", "over"]
    assert f"{Phase.DECIDE}" == "decide"
    assert [str(d) for d in Decision] == ["score", "tie-break", "shared"]
    assert [str(s) for s in Status] == ["proved", "refuted", "not applicable"]
    assert int(Animal.LION) == 6  # still the index of every per-animal tuple
    assert repr(Animal.LION) == "Animal.LION"


@pytest.mark.parametrize("given", [Animal.GIRAFFE, 3, "giraffe", "Giraffe", "GIRAFFE"])
def test_every_action_and_constructor_takes_an_animal_by_member_number_or_name(given: object) -> None:
    """Item 4: one rule: an Animal, its number 0-7, or its name in any case, for actions and Ruleset.custom."""
    assert Animal.parse(given) is Animal.GIRAFFE
    assert Reveal(given).animal is Animal.GIRAFFE
    assert Place(given).animal is Animal.GIRAFFE
    ruleset = Ruleset.custom({given: 2, "seal": 3}, bonus_values={given: 5, Animal.SEAL: 4})  # type: ignore[arg-type]
    assert ruleset.counts[Animal.GIRAFFE] == 2
    assert ruleset.bonus_values[Animal.GIRAFFE] == 5


@pytest.mark.parametrize("bad", ["G", "giraffes", 8, -1, True, 3.0, None])
def test_anything_else_is_refused_the_same_way_everywhere(bad: object) -> None:
    """Item 4: what the rule does not take is refused by every constructor, naming what would do."""
    for build in (Animal.parse, Reveal, Place):
        with pytest.raises(InvalidValueError, match="give an Animal, its number 0 to 7, or a name"):
            build(bad)
    with pytest.raises(InvalidRulesetError, match="is not an Animal"):
        Ruleset.custom({bad: 2})  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", [HeuristicBot, RandomBot, ExpectimaxBot])
def test_a_bot_class_instead_of_an_instance_is_refused_saying_what_to_pass(bot: type) -> None:
    """Item 5: play_game([HeuristicBot, ...]) names the class and asks for an instance, before any move."""
    with pytest.raises(InvalidGameError, match=rf"seat 1's bot is the class {bot.__name__}.*pass an instance"):
        play_game([RandomBot(), bot])  # type: ignore[list-item]
    with pytest.raises(InvalidGameError, match="has no choose"):
        play_game([RandomBot(), "heuristic"])  # type: ignore[list-item]


def test_seat_errors_quote_the_seats_the_game_has() -> None:
    """Item 5: a claim, swap, view or first player outside the game names this game's seats, not 0 to 15."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.MONKEY)])
    for action in (Claim(3), Swap(7), Claim(40)):
        with pytest.raises(ValueError, match=r"this game's seats are 0 to 2"):
            apply(state, action)
    with pytest.raises(InvalidValueError, match="one of the 3 seats"):
        view(state, 5)
    with pytest.raises(InvalidGameError, match="seats 0 to 2"):
        new_game(3, first_player=3)


def test_a_view_at_the_end_carries_the_score_sheet_and_before_it_none() -> None:
    """Item 6: every seat's view (and a spectator's) of a finished game has the sheet; mid-game views have none."""
    game = play_game([RandomBot(), RandomBot()], seed=11)
    for seat in (0, 1, None):
        final = view(game.state, seat)
        assert final.sheet == score(game.state)
        assert load_view(dump_view(final)) == final
    rng = random.Random(3)
    state = new_game(2)
    while state.phase is not Phase.OVER:
        assert view(state, 0).sheet is None
        state = apply(state, rng.choice(legal_actions(state)))


def test_a_view_whose_sheet_does_not_fit_is_refused() -> None:
    """Item 6: a sheet before the end, none at the end, or one that disagrees with the stacks is an invalid view."""
    game = play_game([RandomBot(), RandomBot()], seed=11)
    final = view(game.state, 0)
    other = play_game([RandomBot(), RandomBot()], seed=12)
    with pytest.raises(InvalidValueError, match="exactly when the game is over"):
        attrs.evolve(view(new_game(2), 0), sheet=final.sheet)
    with pytest.raises(InvalidValueError, match="exactly when the game is over"):
        attrs.evolve(final, sheet=None)
    with pytest.raises(InvalidValueError, match="not the stack heights"):
        attrs.evolve(final, sheet=other.score)
