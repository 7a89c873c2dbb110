"""The command line's narration in good English: articles and plurals over every animal and every count."""

from __future__ import annotations

import re

import pytest

from cheekymonkey import ANIMALS, Animal, InvalidValueError, RandomBot, play_game, score
from cheekymonkey.cheeky.bots import bot_named
from cheekymonkey.cheeky.events import Busted, Claimed, Drew, Event, GameOver, HerdSecured, Stacked, Stopped, Swapped
from cheekymonkey.cheeky.narration import a, bot_title, count, describe_event, format_sheet, merge_stacking
from cheekymonkey.cheeky.rules import Ruleset
from cheekymonkey.cheeky.scoring import score_counts
from cheekymonkey.names import check_names

NAMES = ["Ann", "Bob"]
AN = {Animal.ELEPHANT}  # the only animal whose name starts with a vowel sound


@pytest.mark.parametrize("animal", ANIMALS)
def test_draws_and_claims_take_a_or_an_by_the_animal(animal: Animal) -> None:
    """'draws an Elephant', 'draws a Seal'; the same for a bust and a claim."""
    article = "an" if animal in AN else "a"
    assert describe_event(Drew(0, animal), NAMES) == f"Ann draws {article} {animal.label}."
    assert describe_event(Claimed(1, 0, animal), NAMES) == f"Bob claims {article} {animal.label} from Ann."
    assert describe_event(Drew(0, animal), NAMES, viewer=0) == f"You draw {article} {animal.label}."
    busted = describe_event(Busted(0, animal, (animal,)), NAMES)
    assert busted.startswith(f"Ann draws {article} {animal.label}: bust!")


@pytest.mark.parametrize("animal", ANIMALS)
@pytest.mark.parametrize("size", range(1, 11))
def test_a_herd_names_its_size_with_the_animal_in_the_right_number(animal: Animal, size: int) -> None:
    """'a herd of 1 Kangaroo', 'a herd of 2 Kangaroos', for every animal and size up to 10."""
    noun = animal.label if size == 1 else animal.label + "s"
    line = describe_event(HerdSecured(1, (animal,) * size), NAMES)
    assert line == f"Bob secures a herd of {size} {noun} at the bottom of their stack."


@pytest.mark.parametrize("back", range(1, 11))
def test_tokens_going_back_after_a_bust_agree_in_number(back: int) -> None:
    """'1 token goes back', '2 tokens go back'."""
    line = describe_event(Busted(0, Animal.SEAL, (Animal.SEAL,) * back), NAMES)
    expected = "1 token goes back" if back == 1 else f"{back} tokens go back"
    assert line.endswith(f"bust! {expected} into the bag.")


def test_counts_and_articles_for_any_noun() -> None:
    """The helpers behind '1 property refuted', '2 properties refuted', '1 player', 'an action'."""
    assert count(1, "property", "properties") == "1 property"
    assert count(2, "property", "properties") == "2 properties"
    assert count(0, "player") == "0 players"
    assert count(1, "player") == "1 player"
    assert a("action") == "an action"
    assert a("Lion") == "a Lion"


def test_a_swap_with_you_reads_your() -> None:
    """The human seat is 'you': 'Bob swaps the monkey for your Elephant'."""
    assert describe_event(Swapped(1, 0, Animal.ELEPHANT), NAMES, viewer=0) == "Bob swaps the monkey for your Elephant."


def test_the_plain_text_sheet_uses_full_names_and_drops_the_bonus_without_tiles() -> None:
    """Full animal names and a legend for the star; no bonus column (or star) without bonus tiles (R19)."""
    counts = [(3, 0, 0, 0, 0, 0, 0, 1), (0, 5, 0, 0, 0, 0, 0, 0)]
    with_tiles = format_sheet(score_counts(counts, Ruleset.standard()), Ruleset.standard(), NAMES, width=120)
    assert with_tiles.splitlines()[1].split() == ["player", *(a.label for a in ANIMALS), "tokens", "bonus", "total"]
    assert "3*" in with_tiles
    assert "* took the bonus tile: the most of that animal (rule R16, Bonus tiles)" in with_tiles
    younger = format_sheet(score_counts(counts, Ruleset.younger()), Ruleset.younger(), NAMES, width=120)
    assert younger.splitlines()[1].split() == ["player", *(a.label for a in ANIMALS), "total"]
    assert "*" not in younger
    assert "Winner: Bob." in younger


# --- every event, as every seat reads it --------------------------------------------------------------------

THREE = ["Ann", "Bea", "Cy"]
WORDS = re.compile(r"[A-Za-z']+")


def _events(actor: int, other: int) -> list[Event]:
    """One event of every kind: ``actor`` acts, and ``other`` is the seat it claims from or swaps with."""
    sheet = score_counts(
        [(3, 0, 0, 0, 0, 0, 0, 0), (0, 4, 0, 0, 0, 0, 0, 0), (0, 0, 5, 0, 0, 0, 0, 0)], Ruleset.standard()
    )
    return [
        Drew(actor, Animal.KANGAROO),
        Busted(actor, Animal.KANGAROO, (Animal.SEAL, Animal.KANGAROO, Animal.KANGAROO)),
        Claimed(actor, other, Animal.GIRAFFE),
        Swapped(actor, other, Animal.SEAL),
        Stopped(actor, (Animal.SEAL, Animal.LION)),
        Stacked(actor, (Animal.LION,)),
        Stacked(actor, (Animal.SEAL, Animal.MONKEY, Animal.LION)),
        HerdSecured(actor, (Animal.ELEPHANT, Animal.ELEPHANT)),
        GameOver(sheet),
    ]


CASES = [
    (event, viewer)
    for actor in range(3)
    for other in range(3)
    if other != actor
    for event in _events(actor, other)
    for viewer in (None, 0, 1, 2)
]


@pytest.mark.parametrize(("event", "viewer"), CASES, ids=[f"{type(e).__name__}-{e}-viewer{v}" for e, v in CASES])
def test_every_event_reads_right_for_every_viewer(event: Event, viewer: int | None) -> None:
    """Each seat in the event is 'you' to its own viewer and its name to the others; the grammar agrees."""
    line = describe_event(event, THREE, viewer)
    words = WORDS.findall(line)
    seats = {getattr(event, field) for field in ("seat", "from_seat", "with_seat") if hasattr(event, field)}
    assert line[0].isupper()
    assert line.endswith(".")
    for seat in seats:
        if seat == viewer:
            assert THREE[seat] not in words, line
        else:
            assert THREE[seat] in line, line
    second_person = {"You", "you", "your"} & set(words)
    assert bool(second_person) == (viewer in seats), line
    assert "you's" not in line.lower()
    assert "your's" not in line.lower()
    if words[0] == "You":
        # The verb after "You" agrees: "You draw", never "You draws".
        assert not words[1].endswith("s"), line
    elif words[0] in THREE:
        assert words[1].endswith("s"), line
    assert "bust!" in line if isinstance(event, Busted) else "bust" not in line
    if isinstance(event, HerdSecured):
        assert "a herd of 2 Elephants" in line


def test_the_words_new_players_misread_now_read_right() -> None:
    """The claims, swaps, busts and herds a first trial misread, as the seat involved and a spectator read them."""
    assert describe_event(Claimed(1, 0, Animal.GIRAFFE), THREE, 0) == "Bea claims a Giraffe from you."
    assert describe_event(Claimed(1, 0, Animal.GIRAFFE), THREE, 1) == "You claim a Giraffe from Ann."
    assert describe_event(Swapped(2, 0, Animal.SEAL), THREE, 0) == "Cy swaps the monkey for your Seal."
    assert describe_event(Swapped(2, 0, Animal.SEAL), THREE, 2) == "You swap the monkey for Ann's Seal."
    assert describe_event(Swapped(2, 0, Animal.SEAL), THREE, None) == "Cy swaps the monkey for Ann's Seal."
    bust = Busted(1, Animal.KANGAROO, (Animal.LION, Animal.KANGAROO))
    assert describe_event(bust, THREE, 1) == "You draw a Kangaroo: bust! 2 tokens go back into the bag."
    herd = HerdSecured(0, (Animal.ELEPHANT, Animal.ELEPHANT))
    assert describe_event(herd, THREE, 0) == "You secure a herd of 2 Elephants at the bottom of your stack."


def test_a_seat_is_you_by_the_viewer_only_never_by_its_name() -> None:
    """A seat named like the reader's pronoun is not read as 'you' by others; such names are refused anyway."""
    assert describe_event(Drew(0, Animal.SEAL), ["You", "Bea"], viewer=1) == "You draws a Seal."
    with pytest.raises(InvalidValueError, match="cannot be a seat's name"):
        check_names(["You", "Bea"])
    with pytest.raises(InvalidValueError, match="cannot be a seat's name"):
        check_names(["Y0U!", "Bea"])
    with pytest.raises(InvalidValueError, match="look alike"):
        check_names(["Bea", "b e-a"])
    with pytest.raises(InvalidValueError, match="format or unassigned character"):
        check_names(["Bea", "bea\u200b"])


def test_a_stop_stacked_one_token_at_a_time_reads_as_one_line() -> None:
    """Tokens put down one at a time merge into one stacking, bottom first; other events stay as they are."""
    events: list[Event] = [
        Stopped(0, (Animal.SEAL, Animal.LION, Animal.HIPPO)),
        Stacked(0, (Animal.LION,)),
        Stacked(0, (Animal.SEAL, Animal.HIPPO)),
    ]
    merged = merge_stacking(events)
    assert merged == (events[0], Stacked(0, (Animal.LION, Animal.SEAL, Animal.HIPPO)))
    assert describe_event(merged[1], THREE) == "Ann stacks Lion, Seal and Hippo, bottom to top: the Hippo on top."


def test_bots_are_named_for_people() -> None:
    """MCTS is an acronym; the other bots' kinds are capitalised words."""
    assert [bot_title(kind) for kind in ("mcts", "heuristic", "expectimax", "random")] == [
        "MCTS",
        "Heuristic",
        "Expectimax",
        "Random",
    ]


def test_a_score_sheet_prints_as_a_table_and_its_repr_stays_the_value() -> None:
    """print(score(state)) shows the sheet, seats named by number, within 80 columns; repr is the full value."""
    played = play_game([RandomBot(), RandomBot(), RandomBot()], seed=1)
    sheet = score(played.state)
    text = str(sheet)
    assert text == format_sheet(sheet, None, ["Seat 0", "Seat 1", "Seat 2"])
    assert text.startswith("Final scores\nplayer ")
    assert "Seat 2 " in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.splitlines()[-1].startswith(("Winner: Seat", "Shared win: Seat"))
    assert repr(sheet).startswith("ScoreSheet(seats=(SeatScore(seat=0, ")


def test_play_game_records_its_seats_names_and_kinds() -> None:
    """A record made by play_game names its seats after their bots (MCTS as the acronym) and keeps their kinds."""
    small = Ruleset.custom({Animal.SEAL: 2, Animal.LION: 2})
    played = play_game([RandomBot(), bot_named("mcts"), bot_named("heuristic")], seed=2, ruleset=small)
    assert played.record.names == ("Random 0", "MCTS 1", "Heuristic 2")
    assert played.record.bots == ("random", "mcts", "heuristic")
