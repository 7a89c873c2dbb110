"""Text for actions both ways: parse_action / parse_actions read what a player types, action_text writes it."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given

from cheekymonkey import (
    ANIMALS,
    ActionTextError,
    Animal,
    Claim,
    Draw,
    GameState,
    Herd,
    IllegalActionError,
    Phase,
    Place,
    RandomBot,
    Reveal,
    Ruleset,
    Stop,
    Swap,
    action_text,
    apply,
    apply_all,
    legal_actions,
    new_game,
    parse_action,
    parse_actions,
    play_game,
)
from tests.strategies import reachable_states


def _deciding() -> GameState:
    # Seats 0 and 1 show a Seal; seat 2 has just drawn a Seal, so it may claim from either.
    state = apply_all(new_game(3), [Reveal(Animal.SEAL), Stop(), Reveal(Animal.SEAL), Stop()])
    return apply_all(state, [Reveal(Animal.SEAL)])


def _placing() -> GameState:
    state = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION), Draw()])
    return apply_all(state, [Reveal(Animal.MONKEY), Stop()])


def _refusal(text: str, state: GameState) -> ActionTextError:
    with pytest.raises(ActionTextError) as caught:
        parse_actions(text, state)
    return caught.value


def test_short_and_long_answers_while_deciding_become_the_actions_they_name() -> None:
    """d, s, h, c SEAT (or cSEAT, claim SEAT), in any case and with spaces around."""
    state = _deciding()
    assert parse_action("d", state) == Draw()
    assert parse_action(" STOP ", state) == Stop()
    assert parse_action("h", state) == Herd()
    assert parse_action("herd", state) == Herd()
    assert parse_action("c 1", state) == Claim(1)
    assert parse_action("c0", state) == Claim(0)
    assert parse_action("Claim 1", state) == Claim(1)
    assert parse_actions("d", state) == (Draw(),)


def test_a_refused_answer_says_why_and_lists_what_would_have_been_valid() -> None:
    """Each refusal is an ActionTextError with a reason for the player and the texts valid now."""
    state = _deciding()
    valid = ("d", "s", "h", "c 0", "c 1")
    cases = {
        "c": "say which seat to claim from: 0, 1",
        "c 2": "you cannot take from your own stack (R7); you can claim from 0, 1",
        "c x": "'x' is not a seat number; you can claim from 0, 1",
        "w": "a swap is open only right after drawing a monkey, before any claim (R11, R12)",
        "fly": "that is not a move",
        "d 3": "'d' takes nothing after it",
        "": "say what to do",
    }
    for text, reason in cases.items():
        error = _refusal(text, state)
        assert (error.text, error.reason, error.valid) == (text, reason, valid)
        assert str(error) == f"{text!r}: {reason} (valid now: d, s, h, c 0, c 1)"
        assert isinstance(error, ValueError)


def test_draw_and_herd_are_refused_naming_their_rules_when_not_allowed() -> None:
    """R8: no draw from an empty bag; R10: no herd with two animals in front."""
    two_animals = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION)])
    assert _refusal("h", two_animals).reason.endswith("(R10)")
    ruleset = Ruleset.custom({Animal.SEAL: 1, Animal.LION: 1})
    empty_bag = apply_all(new_game(2, ruleset=ruleset), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION)])
    assert empty_bag.bag_size == 0
    assert _refusal("d", empty_bag).reason == "the bag is empty, so you cannot draw (R8)"


def test_while_stacking_letters_and_names_put_down_one_or_several_tokens() -> None:
    """Letters, names or their starts, several at once bottom first; the last kind left goes on by itself (R9)."""
    state = _placing()
    assert parse_action("s", state) == Place(Animal.SEAL)
    assert parse_action("lion", state) == Place(Animal.LION)
    assert parse_action("place monkey", state) == Place(Animal.MONKEY)
    assert parse_actions("ls", state) == (Place(Animal.LION), Place(Animal.SEAL))
    assert parse_actions("mon, se", state) == (Place(Animal.MONKEY), Place(Animal.SEAL))
    assert parse_actions("lsm", state) == (Place(Animal.LION), Place(Animal.SEAL))  # the Monkey goes on by itself
    after = apply_all(state, parse_actions("lsm", state))
    assert after.stacks[0][-3:] == (Animal.LION, Animal.SEAL, Animal.MONKEY)
    front = "in front of you: Seal, Lion, Monkey"
    assert _refusal("e", state).reason == f"no Elephant is in front of you to put on your stack (R9); {front}"
    assert _refusal("ss", state).reason == f"you name more than there are: only 1 Seal is in front of you (R9); {front}"
    assert _refusal("x", state).reason.startswith("'x' is not an animal; the animals are e (elephant), s (seal)")
    assert _refusal("x", state).valid == ("s", "l", "m")
    with pytest.raises(ActionTextError, match="several tokens"):
        parse_action("ls", state)


def test_a_swap_is_read_with_or_without_its_seat() -> None:
    """R12: w alone when one seat can be swapped with; w SEAT, wSEAT and swap SEAT always."""
    state = apply_all(new_game(2), [Reveal(Animal.LION), Stop(), Reveal(Animal.MONKEY)])
    assert parse_action("w", state) == Swap(0)
    assert parse_action("w0", state) == Swap(0)
    assert parse_action("swap 0", state) == Swap(0)


def test_at_a_chance_node_the_text_names_the_token_drawn_and_at_the_end_nothing_is_valid() -> None:
    """A reveal is read by letter or name; an animal not left in the bag, or any text after the end, is refused."""
    start = new_game(2)
    assert parse_action("l", start) == Reveal(Animal.LION)
    assert parse_action("reveal giraffe", start) == Reveal(Animal.GIRAFFE)
    no_lion = new_game(2, ruleset=Ruleset.little_children())
    assert _refusal("lion", no_lion).reason == "no Lion is left in the bag (R5)"
    over = play_game([RandomBot(), RandomBot()], seed=1).state
    assert over.phase is Phase.OVER
    error = _refusal("d", over)
    assert error.valid == ()
    assert "the game is over" in error.reason


def test_action_text_reads_back_to_the_same_action_for_every_legal_action_of_many_games() -> None:
    """parse_action(action_text(a, s), s) == a, short and long, for every legal action in 30 seeded games' states."""
    rng = random.Random(14)
    checked = 0
    for _ in range(30):
        state = new_game(rng.randint(2, 6))
        while state.phase is not Phase.OVER:
            legal = legal_actions(state)
            for action in legal:
                for long in (False, True):
                    text = action_text(action, state, long=long)
                    assert parse_action(text, state) == action, (text, state)
                    assert parse_action(text.upper(), state) == action
                    checked += 1
            state = apply(state, legal[rng.randrange(len(legal))])
    assert checked > 10_000


@given(reachable_states())
def test_in_any_reachable_state_every_legal_action_reads_back_from_its_text(state: GameState) -> None:
    """Property: in any reachable state, under any rule set, each legal action's text (short or long) reads back."""
    for action in legal_actions(state):
        assert parse_action(action_text(action, state), state) == action
        assert parse_actions(action_text(action, state, long=True), state) == (action,)


def test_action_text_refuses_an_action_not_allowed_in_the_state() -> None:
    """Like python-chess's san, text is written only for a legal action: anything else is an IllegalActionError."""
    with pytest.raises(IllegalActionError):
        action_text(Draw(), new_game(2))  # a chance node: no player's action is allowed
    deciding = _deciding()
    assert action_text(Claim(1), deciding) == "c 1"
    with pytest.raises(IllegalActionError):
        action_text(Claim(2), deciding)  # seat 2 is the one deciding: no claim from itself


def test_every_animal_has_its_own_letter_so_a_letter_names_one_animal() -> None:
    """The notation's letters e s h g p k l m are the animals' first letters, all different."""
    letters = [animal.name[0].lower() for animal in ANIMALS]
    assert letters == list("eshgpklm")
    start = new_game(2)
    assert [action_text(Reveal(a), start) for a in ANIMALS] == letters


def test_an_action_text_error_pickles_with_its_fields() -> None:
    """Errors cross process boundaries: a pickled ActionTextError keeps text, reason and valid texts."""
    error = _refusal("c 2", _deciding())
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.text, copy.reason, copy.valid, str(copy)) == (error.text, error.reason, error.valid, str(error))


def test_text_that_is_not_a_string_is_refused() -> None:
    """A value that is not text (a number, None) is refused with ActionTextError, not a crash."""
    for value in (3, None):
        with pytest.raises(ActionTextError, match="is not text"):
            parse_action(value, _deciding())  # type: ignore[arg-type]
