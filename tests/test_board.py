"""The text board and the words for values: what ``print(state)``, ``print(view)`` and an f-string show."""

from __future__ import annotations

from cheekymonkey import (
    ANIMALS,
    Animal,
    Claim,
    Draw,
    GameState,
    Phase,
    RandomBot,
    Reveal,
    Stop,
    apply_all,
    board_text,
    new_game,
    play_game,
    view,
)
from cheekymonkey.cheeky.scoring import Decision
from cheekymonkey.cheeky.verify import Status


def _mid_game() -> GameState:
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL), Draw()])
    return apply_all(state, [Reveal(Animal.LION)])


def test_print_of_a_state_shows_the_board_and_repr_stays_the_value() -> None:
    """A state prints as the board (heights, tops, front, bag, turn, phase); repr is unchanged."""
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
    """After a monkey, the board names the seats open to a swap (R12); claims name theirs (R7)."""
    state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.SEAL), Stop(), Reveal(Animal.MONKEY)])
    assert str(state).splitlines()[-1] == "to move: seat 2 (decide); may swap the monkey with seats 0, 1"
    claim = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.LION), Stop(), Reveal(Animal.LION)])
    assert str(claim).splitlines()[-1] == "to move: seat 2 (decide); may claim a Lion from seats 0, 1"
    claimed = apply_all(claim, [Claim(0), Claim(1)])
    assert str(claimed).splitlines()[-1] == "to move: seat 2 (decide)"


def test_the_board_of_every_state_of_a_game_matches_the_state() -> None:
    """For every state of seeded games, each seat's line shows its height and top, and the bag its size."""
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
    """A client holding only a TableView prints the same board (the table shows the same to everybody)."""
    state = _mid_game()
    assert str(view(state, 0)) == board_text(view(state, None)) == str(state)


def test_animals_phases_and_decisions_print_as_words() -> None:
    """Animals, phases and decisions print as names, not numbers, in str and in f-strings."""
    assert [str(a) for a in ANIMALS] == ["Elephant", "Seal", "Hippo", "Giraffe", "Panda", "Kangaroo", "Lion", "Monkey"]
    assert f"{Animal.LION}" == "Lion"
    assert f"{Animal.LION:>6}|" == "  Lion|"
    assert [str(p) for p in Phase] == ["chance", "decide", "placing", "over"]
    assert f"{Phase.DECIDE}" == "decide"
    assert [str(d) for d in Decision] == ["score", "tie-break", "shared"]
    assert [str(s) for s in Status] == ["proved", "refuted", "not applicable"]
    assert int(Animal.LION) == 6  # still the index of every per-animal tuple
    assert repr(Animal.LION) == "Animal.LION"
