"""The command line's narration in good English: articles and plurals over every animal and every count."""

from __future__ import annotations

import pytest

from cheekymonkey import ANIMALS, Animal
from cheekymonkey.cli.narrate import a, count, describe_event, format_sheet
from cheekymonkey.events import Busted, Claimed, Drew, HerdSecured, Swapped
from cheekymonkey.rules import Ruleset
from cheekymonkey.scoring import score_counts

NAMES = ["Ann", "Bob"]
AN = {Animal.ELEPHANT}  # the only animal whose name starts with a vowel sound


@pytest.mark.parametrize("animal", ANIMALS)
def test_draws_and_claims_take_a_or_an_by_the_animal(animal: Animal) -> None:
    """'draws an Elephant', 'draws a Seal'; the same for a bust and a claim."""
    article = "an" if animal in AN else "a"
    assert describe_event(Drew(0, animal), NAMES) == f"Ann draws {article} {animal.label}."
    assert describe_event(Claimed(1, 0, animal), NAMES) == f"Bob claims {article} {animal.label} from Ann."
    assert describe_event(Drew(0, animal), ["You", "Bob"]) == f"You draw {article} {animal.label}."
    busted = describe_event(Busted(0, animal, (animal,)), NAMES)
    assert busted.startswith(f"Ann draws {article} {animal.label}: bust!")


@pytest.mark.parametrize("animal", ANIMALS)
@pytest.mark.parametrize("size", range(1, 11))
def test_a_herd_names_its_size_with_the_animal_in_the_right_number(animal: Animal, size: int) -> None:
    """'a herd of 1 Kangaroo', 'a herd of 2 Kangaroos', for every animal and size up to 10."""
    noun = animal.label if size == 1 else animal.label + "s"
    line = describe_event(HerdSecured(1, (animal,) * size), NAMES)
    assert line == f"Bob secures a herd of {size} {noun} at the bottom of the stack."


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
    assert describe_event(Swapped(1, 0, Animal.ELEPHANT), ["You", "Bob"]) == "Bob swaps the monkey for your Elephant."


def test_the_plain_text_sheet_uses_full_names_and_drops_the_bonus_without_tiles() -> None:
    """Full animal names and a legend for the star; no bonus column (or star) without bonus tiles (R19)."""
    counts = [(3, 0, 0, 0, 0, 0, 0, 1), (0, 5, 0, 0, 0, 0, 0, 0)]
    with_tiles = format_sheet(score_counts(counts, Ruleset.standard()), Ruleset.standard(), NAMES)
    assert with_tiles.splitlines()[0].split() == [*(a.label for a in ANIMALS), "tokens", "bonus", "total"]
    assert "3*" in with_tiles
    assert "* took that animal's bonus tile (R16)" in with_tiles
    younger = format_sheet(score_counts(counts, Ruleset.younger()), Ruleset.younger(), NAMES)
    assert younger.splitlines()[0].split() == [*(a.label for a in ANIMALS), "total"]
    assert "*" not in younger
    assert "Winner: Bob." in younger
