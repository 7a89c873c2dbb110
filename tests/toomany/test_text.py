"""Text: the printed board, the action notation both ways, narration of events and words for actions."""

from __future__ import annotations

import pytest

from cheekymonkey.errors import ActionTextError, IllegalActionError
from cheekymonkey.toomany import (
    TOO_MANY_MONKEYS,
    BonusTaken,
    Card,
    Decline,
    Discarded,
    Draw,
    Drew,
    GameState,
    GameWon,
    GiveSkip,
    Phase,
    PlaceWild,
    RaccoonTake,
    RaccoonTook,
    Reason,
    Reshuffled,
    Reveal,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TakeBonus,
    TakeDiscard,
    TookDiscard,
    TurnDown,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
    action_text,
    action_words,
    apply,
    apply_all,
    board_text,
    describe_event,
    legal_actions,
    new_game,
    parse_action,
    parse_actions,
    result_text,
    view,
)
from cheekymonkey.toomany.narration import choice_notes, result_table
from tests.toomany.helpers import TINY, make, random_game

NAMES = ["Ann", "Bob", "Cy"]


def test_print_of_a_state_draws_the_table() -> None:
    """Rows with face-up, turned-down and unseen cards, the Skips waiting, the piles, and what happens next."""
    state = make(["1 ? (3) W ? ?", "? 2 ? ? ?", "? ? ? ? ? ?"], skips=(2,), discard="G 5 R", round_first=1)
    assert str(state) == board_text(state) == str(view(state, 1))
    assert str(state).splitlines() == [
        "round 2, begun by seat 1",
        ">  0   1  ? (3) W  ?  ?",
        "   1   ?  2  ?  ?  ?",
        "   2   ?  ?  ?  ?  ?  ?   Skip waiting",
        "draw pile: 34 cards",
        "discard pile: G 5 R (top last)",
        "to move: seat 0 (draw): the card drawn from the pile is revealed next",
    ]
    assert repr(state).startswith("GameState(ruleset=Ruleset(")


def test_the_board_shows_a_reshuffled_pile_and_the_hand() -> None:
    """After a reshuffle the pile's cards are public (TM19, TM20); the card in hand is too (TM10)."""
    state = apply(make(["? ?", "? ?"], discard="G G G 2 1", ruleset=TINY), Draw())
    assert str(state).splitlines()[3:5] == ["draw pile: 5 cards (reshuffled: 1 2 G G G)", "discard pile: empty"]
    assert "hand: wild" in str(apply(new_game(2), Reveal(Card.WILD))).splitlines()


@pytest.mark.parametrize(
    ("state", "line"),
    [
        (make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3"), "draw from the pile, or take the 3 from the discard pile"),
        (apply(new_game(2), Reveal(Card.TWO)), "the card picked up from the row is revealed next"),
        (apply(new_game(2), Reveal(Card.WILD)), "put the wild on a face-down position: 1, 2, 3, 4, 5 or 6"),
        (
            apply(make(["? ? W ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.THREE)),
            "take the wild bonus with the 3 at position 3",
        ),
        (
            apply(apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="4 2"), Draw()), Reveal(Card.RACCOON)),
            "the raccoon may take a 2 or 4 from the discard pile, or nothing",
        ),
        (
            apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB)),
            "turn down a face-up card of seat 1, or none",
        ),
        (apply(new_game(3), Reveal(Card.SKIP)), "give the Skip to seat 1 or 2, or to nobody"),
        (apply(make(["?", "? ?"]), Reveal(Card.ONE)), "game over: seat 0 turned its last card face up and won (TM23)"),
    ],
)
def test_the_board_says_what_happens_next_in_every_phase(state: object, line: str) -> None:
    """The last line names the decision pending, the chance to come, or the winner."""
    last = str(state).splitlines()[-1]
    assert last.startswith("to move: seat") or last.startswith("game over")
    assert line in last


def _sample_states() -> list[GameState]:
    games = ((3, 2, None), (4, 3, None), (5, 2, TINY))
    return [state for seed, players, ruleset in games for state in random_game(seed, players, ruleset)]


def test_every_legal_action_has_short_and_long_text_that_parses_back() -> None:
    """action_text and parse_action are inverse over every state of three seeded games, in both forms."""
    kinds = set()
    for state in _sample_states():
        for action in legal_actions(state):
            for long in (False, True):
                text = action_text(action, state, long=long)
                assert parse_action(text, state) == action
                assert parse_action(f"  {text.upper()} ", state) == action
            kinds.add(type(action))
    assert kinds == {Draw, TakeDiscard, Reveal, PlaceWild, TakeBonus, Decline, RaccoonTake, TurnDown, GiveSkip}


@pytest.mark.parametrize(
    ("state", "text", "action"),
    [
        (apply(new_game(2), Reveal(Card.WILD)), "4", PlaceWild(4)),
        (apply(new_game(2), Reveal(Card.WILD)), "place 4", PlaceWild(4)),
        (apply(new_game(3), Reveal(Card.SKIP)), "2", GiveSkip(2)),
        (apply(new_game(2), Reveal(Card.SKIP)), "s", GiveSkip(1)),
        (apply(make(["? ? ? ? ? ?", "1 ? 3 ? ? ?"]), Reveal(Card.DO_NOT_DISTURB)), "x 1.3", TurnDown(1, 3)),
        (apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB)), "x", TurnDown(1, 1)),
        (apply(make(["? ? W ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.THREE)), "yes", TakeBonus()),
        (apply(make(["? ? W ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.THREE)), "no", Decline()),
        (new_game(2), "reveal do not disturb", Reveal(Card.DO_NOT_DISTURB)),
        (new_game(2), "d", Reveal(Card.DO_NOT_DISTURB)),
        (
            apply(apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="2"), Draw()), Reveal(Card.RACCOON)),
            "r",
            RaccoonTake(2),
        ),
    ],
)
def test_the_notation_reads_its_shortcuts_in_context(state: object, text: str, action: object) -> None:
    """Bare numbers in a choice of position, seat or number; a bare letter when one choice is left."""
    assert parse_action(text, state) == action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("state", "text", "reason"),
    [
        (
            apply(new_game(2), Reveal(Card.WILD)),
            "w 9",
            r"your row has positions 1 to 6 \(TM11\); the wild can go on 1, ",
        ),
        (apply(new_game(3), Reveal(Card.SKIP)), "s", "say which seat: the Skip can go to seat 1 or 2"),
        (
            apply(new_game(3), Reveal(Card.SKIP)),
            "s 0",
            r"the Skip goes to an opponent, not to yourself \(TM16\); the Skip",
        ),
        (apply(new_game(3), Reveal(Card.SKIP)), "s 3", r"there is no seat 3; this game's seats are 0 to 2 \(TM2\)"),
        (new_game(2), "joker", "name the card revealed"),
        (apply(new_game(2), Reveal(Card.TWO)), "t", "name the card revealed"),
        (apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB)), "x 1 2", "position 2 is face down"),
        (
            apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB)),
            "x 1",
            "seat 1 shows no",
        ),
        (apply(new_game(2), Reveal(Card.WILD)), "n", r"nothing is offered to decline now; the wild in your hand"),
        (apply(new_game(2), Reveal(Card.WILD)), "d", r"the wild in your hand must be placed first, on a face-down"),
        (apply(new_game(2), Reveal(Card.WILD)), "s 1", r"you hold no Skip; the wild in your hand must be placed"),
        (make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3"), "b", r"no wild bonus is offered; your turn begins with"),
        (make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3"), "w 2", r"you hold no wild to place; your turn begins with"),
        (make(["? ? ? ? ? ?", "? ? ? ? ? ?"], discard="3"), "3", "that is not a move"),
        (apply(make(["?", "? ?"]), Reveal(Card.ONE)), "d", "the game is over"),
    ],
)
def test_text_that_names_no_legal_action_says_why_and_what_is_valid(state: object, text: str, reason: str) -> None:
    """ActionTextError (a ValueError) with the reason and every valid text."""
    with pytest.raises(ActionTextError, match=reason) as caught:
        parse_action(text, state)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    assert caught.value.valid == tuple(action_text(a, state) for a in legal_actions(state))  # type: ignore[arg-type]


def test_several_actions_are_read_one_after_the_other() -> None:
    """parse_actions reads each part in the state the parts before it lead to; a bad part is an error."""
    assert parse_actions("w; 4", new_game(2)) == (Reveal(Card.WILD), PlaceWild(4))
    with pytest.raises(ActionTextError, match="'9'"):
        parse_actions("w, 9", new_game(2))
    with pytest.raises(IllegalActionError, match="not allowed now"):
        action_text(Draw(), new_game(2))


@pytest.mark.parametrize(
    ("event", "viewer", "line"),
    [
        (Drew(0, Card.THREE), None, "Ann draws a 3."),
        (Drew(0, Card.ELEPHANT), 0, "You draw an elephant."),
        (TookDiscard(1, Card.FOUR), None, "Bob takes the 4 from the discard pile."),
        (TurnedUp(0, Card.THREE, 3), 0, "You put the 3 face up at position 3 and pick up the card there."),
        (WildPlaced(2, 5), None, "Cy puts the wild face up at position 5 and picks up the card there."),
        (BonusTaken(0, Card.TWO), None, "Ann takes the bonus: the 2 replaces the wild at position 2."),
        (Uncovered(0, Card.SKIP), None, "The card picked up is a Skip."),
        (RaccoonTook(1, Card.FIVE), 1, "Your raccoon takes the 5 from the discard pile."),
        (RaccoonTook(1, None), None, "The raccoon takes nothing, and Bob's turn is over."),
        (TurnedDown(0, 1, 4, Card.FOUR), 1, "Ann turns your 4 at position 4 face down."),
        (SkipGiven(0, 2), 2, "Ann gives you a Skip."),
        (Skipped(2), None, "Cy's turn is skipped."),
        (Discarded(0, Card.FIVE, Reason.TOO_HIGH), 0, "You discard the 5: too high for the row."),
        (Discarded(1, Card.SKIP, Reason.NO_TARGET), None, "Bob discards the Skip: nobody to play it on."),
        (Discarded(1, Card.RACCOON, Reason.PLAYED), None, "Bob discards the raccoon."),
        (Reshuffled(12), None, "The discard pile is shuffled into a new draw pile of 12 cards."),
        (Reshuffled(1), None, "The discard pile is shuffled into a new draw pile of 1 card."),
        (RoundWon(2, 3), 2, "You win round 3, so your row is one card shorter from now on!"),
        (RoundWon(1, 3), 2, "Bob wins round 3, so Bob's row is one card shorter from now on!"),
        (RoundStarted(4, 0, (3, 4, 2)), 0, "Round 4 is dealt: your row has 3 cards; you to begin."),
        (RoundStarted(4, 1, (1, 4, 2)), 0, "Round 4 is dealt: your row has 1 card; Bob to begin."),
        (RoundStarted(4, 1, (3, 4, 2)), None, "Round 4 is dealt, rows of 3, 4, 2 cards; Bob to begin."),
        (GameWon(1), None, "Bob completes a row of one card and wins the game!"),
        (GameWon(0), 0, "You complete a row of one card and win the game!"),
    ],
)
def test_every_event_is_narrated_in_plain_words(event: object, viewer: int | None, line: str) -> None:
    """describe_event (and the binding's event_text): the viewer's seat reads as "You", verbs agreeing."""
    assert describe_event(event, NAMES, viewer) == line  # type: ignore[arg-type]
    assert TOO_MANY_MONKEYS.event_text(event, NAMES, viewer) == line  # type: ignore[arg-type]


def test_every_action_has_words_for_a_person_choosing_it() -> None:
    """action_words over the actions of the sample games: never empty, seats by name."""
    words = set()
    for state in _sample_states()[:400]:
        for action in legal_actions(state):
            text = action_words(action, state, NAMES)
            assert text
            words.add(text.split()[0])
    assert {"reveal", "draw", "take", "put", "give", "turn", "let", "decline"} <= words
    state = apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    assert action_words(TurnDown(1, 1), state, NAMES) == "turn down Bob's 1 at position 1"
    assert action_words(Decline(), state, NAMES) == "turn nothing down"


def test_the_result_names_the_winner_then_the_others_by_rank_within_80_columns() -> None:
    """The outcome in words: the winner, then each other seat with the rounds it won and its last row's cards."""
    state = apply(make(["? ? ?", "?", "? ?"], seat=1), Reveal(Card.ONE))
    text = result_text(state, NAMES)
    assert text.splitlines() == [
        "Winner: Bob (6 rounds won; the last, round 13, with a row of one card).",
        "2. Cy: 4 rounds won; 2 cards in the last row",
        "3. Ann: 3 rounds won; 3 cards in the last row",
    ]
    assert max(len(line) for line in text.splitlines()) <= 80
    assert state.phase is Phase.OVER
    long_names = ["Ann", "A Player With A Name Long Enough To Need Two Lines Of Text", "Cy"]
    assert max(len(line) for line in result_text(state, long_names).splitlines()) <= 80


def test_the_result_table_shows_rounds_won_and_says_what_the_last_row_is() -> None:
    """The table at the end: place, player, rounds won (each took a card from the row, TM22), and the last row."""
    state = apply(make(["? ? ?", "?", "? ?"], seat=1), Reveal(Card.ONE))
    table = result_table(state, NAMES)
    assert [column.header.text for column in table.columns] == ["place", "player", "rounds won", "last row"]
    assert [[cell.text for cell in row] for row in table.rows] == [
        ["1", "Bob", "6", "1"],
        ["2", "Cy", "4", "2"],
        ["3", "Ann", "3", "3"],
    ]
    notes = " ".join(table.notes)
    assert "Winner: Bob, the first to turn up a row of one card, in round 13." in notes
    assert "Last row: the cards in the player's row in the last round." in notes
    assert "Rows begin with 6 cards, and each round won takes one away" in notes
    assert max(len(line) for line in table.text(80).splitlines()) <= 80


def test_the_choice_notes_say_why_a_seat_is_left_out_of_a_skip_or_a_do_not_disturb() -> None:
    """A seat with a Skip waiting cannot get another (TM17); a row with no card face up has nothing to turn down."""
    skipping = apply_all(new_game(3), [Reveal(Card.SKIP), GiveSkip(2), Reveal(Card.SKIP)])
    assert legal_actions(skipping) == (GiveSkip(0), Decline())
    assert choice_notes(skipping, NAMES) == (
        "No Skip for Cy: one is waiting for them already, and a seat holds one at a time (TM17).",
    )
    assert TOO_MANY_MONKEYS.choice_notes(skipping, NAMES) == choice_notes(skipping, NAMES)
    disturbing = apply(make(["? ? ? ? ? ?", "1 ? ? ? ? ?", "? ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    assert choice_notes(disturbing, NAMES) == ("Nothing of Cy's to turn down: no card of their row is face up (TM15).",)
    assert choice_notes(apply(new_game(2), Reveal(Card.WILD)), NAMES) == ()
    four = apply(make(["? ? ? ? ? ?", "? ? ? ? ? ?", "? ? ? ? ? ?", "1 ? ? ? ? ?"]), Reveal(Card.DO_NOT_DISTURB))
    assert choice_notes(four, [*NAMES, "Di"]) == (
        "Nothing to turn down in the rows of Bob and Cy: none has a card face up (TM15).",
    )
