"""An enum of another kind is never taken for an animal or a seat number by an action's constructor."""

from __future__ import annotations

import enum

import pytest

from cheekymonkey import ANIMALS, Animal, Claim, InvalidValueError, Phase, Place, Reveal, Swap
from cheekymonkey.cheeky.scoring import Decision
from cheekymonkey.table import Waiting


class _Colour(enum.IntEnum):
    RED = 0
    BLUE = 1


FOREIGN = [*Phase, *Decision, *Waiting, *_Colour]
"""Members of every other enum the library has, and of an integer enum of a user's, the number 0 among them."""


@pytest.mark.parametrize("member", FOREIGN, ids=repr)
@pytest.mark.parametrize("action", [Reveal, Place])
def test_an_animal_field_refuses_an_enum_of_another_kind(action: type[Reveal | Place], member: enum.Enum) -> None:
    """Place(Phase.DECIDE) and Reveal(Phase.OVER) raise InvalidValueError (a ValueError) instead of a Seal."""
    with pytest.raises(InvalidValueError, match="is not an Animal") as raised:
        action(member)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("member", [*ANIMALS, *FOREIGN], ids=repr)
@pytest.mark.parametrize("action", [Claim, Swap])
def test_a_seat_field_refuses_any_enum(action: type[Claim | Swap], member: enum.Enum) -> None:
    """Claim(Animal.SEAL) is not a claim from seat 1: every enum, an Animal included, is refused."""
    with pytest.raises(InvalidValueError, match="is not a seat number"):
        action(member)


@pytest.mark.parametrize("animal", ANIMALS)
def test_animals_their_numbers_and_names_stay_accepted(animal: Animal) -> None:
    """The accepted forms are unchanged: an Animal, its number and its name in any case; seats as integers."""
    for action in (Reveal, Place):
        assert action(animal) == action(int(animal)) == action(animal.name.lower()) == action(animal.label)
        assert action(animal).animal is animal
    assert Claim(int(animal)).seat == int(animal)
    assert type(Swap(int(animal)).seat) is int
