"""Rule data: the animals, and the rule sets that say which are in play and how a game scores."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

import attrs

from cheekymonkey._values import ValueEnum
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidRulesetError, InvalidValueError
from cheekymonkey.names import check_text

__all__ = ["ANIMALS", "MAX_COUNT", "MAX_PLAYERS", "Animal", "Ruleset"]


class Animal(ValueEnum):
    """The eight animals, numbered by their standard token count (R1).

    An animal is identified by its role and count; the name is the default English one from the
    rules summary (editions name the 8-count and 9-count animals differently).
    """

    ELEPHANT = 0
    SEAL = 1
    HIPPO = 2
    GIRAFFE = 3
    PANDA = 4
    KANGAROO = 5
    LION = 6
    MONKEY = 7

    def __str__(self) -> str:
        # A front end formatting a message shows the word, not the number: str(Animal.LION) == "Lion".
        return self.name.capitalize()

    @property
    def label(self) -> str:
        """The animal's display name, for example ``"Elephant"`` (the same as ``str(animal)``)."""
        return self.name.capitalize()

    @property
    def plural(self) -> str:
        """The display name for several tokens, for example ``"Elephants"``."""
        return self.name.capitalize() + "s"

    @classmethod
    def parse(cls, value: object) -> Animal:
        """The animal ``value`` stands for: an :class:`Animal`, its number 0-7, or its name in any case.

        This is the one rule for every place that takes an animal (the actions, :meth:`Ruleset.custom`).

        Raises:
            InvalidValueError: If ``value`` is none of these (``True``, ``8``, ``"E"``, ``1.0``...).

        >>> Animal.parse("lion"), Animal.parse("Giraffe"), Animal.parse(7), Animal.parse(Animal.SEAL)
        (Animal.LION, Animal.GIRAFFE, Animal.MONKEY, Animal.SEAL)
        """
        if isinstance(value, cls):
            return value
        if is_whole_number(value) and 0 <= value < len(_MEMBERS):
            return _MEMBERS[value]
        if isinstance(value, str):
            found = _BY_NAME.get(value.strip().lower())
            if found is not None:
                return found
        names = ", ".join(a.name.lower() for a in _MEMBERS)
        raise InvalidValueError(f"{value!r} is not an Animal: give an Animal, its number 0 to 7, or a name ({names})")


ANIMALS: Final[tuple[Animal, ...]] = tuple(Animal)
"""All eight animals, in their fixed order (the order of every per-animal tuple)."""

_MEMBERS: Final = ANIMALS
_BY_NAME: Final = {a.name.lower(): a for a in ANIMALS}

MAX_PLAYERS: Final = 16
"""The most seats any rule set may allow (ruling E4: the box says 2-6; custom sets may go further)."""

MAX_COUNT: Final = 2**48
"""The largest count or bonus value a rule set may give an animal (E7). Sixteen such numbers (eight counts, eight
values) and the seats stay below ``2**53 - 1``, the largest integer a JSON document keeps exact, so every count,
size and score a game under any rule set can make is saved and loaded back
(:data:`cheekymonkey.serialization.MAX_INTEGER`)."""

_STANDARD_COUNTS: Final = (3, 4, 5, 6, 7, 8, 9, 10)  # R1
# R2: the number on a tile is how many tokens of its animal are in the game, and it is the tile's value:
# Elephant 3 up to Monkey 10 (000: "cuántas fichas del animal ilustrado hay en el juego").
_STANDARD_VALUES: Final = _STANDARD_COUNTS


def _check_per_animal(name: str, values: object) -> tuple[int, ...]:
    if not isinstance(values, tuple) or len(values) != len(ANIMALS):
        raise InvalidRulesetError(f"{name} must be a tuple of {len(ANIMALS)} integers, one per animal, got {values!r}")
    for animal, value in zip(ANIMALS, values, strict=True):
        if not is_whole_number(value):
            raise InvalidRulesetError(f"{name} for {animal.label} must be an integer, got {value!r}")
        if value < 0:
            raise InvalidRulesetError(f"{name} for {animal.label} is {value}: a count below 0 is impossible")
        if value > MAX_COUNT:
            raise InvalidRulesetError(
                f"{name} for {animal.label} is {value}: at most {MAX_COUNT} (2**48), so that every count and "
                "score a game makes can be saved"
            )
    return values


@attrs.frozen(slots=True)
class Ruleset:
    """Frozen rule data: the animals in play, their counts and bonus values, and the switches (R21).

    Build one from a preset (:meth:`standard`, :meth:`younger`, :meth:`little_children`), from
    :meth:`custom`, or directly. Every way checks the rule set and raises
    :class:`~cheekymonkey.InvalidRulesetError` naming the problem if it cannot be played.

    >>> Ruleset.standard().total_tokens
    52
    >>> Ruleset.custom({Animal.ELEPHANT: 2, Animal.MONKEY: 3}).animals
    (Animal.ELEPHANT, Animal.MONKEY)
    """

    counts: tuple[int, ...]
    """Tokens of each animal, indexed by :class:`Animal`; 0 means the animal is not in play."""
    bonus_values: tuple[int, ...]
    """Each animal's bonus tile value, indexed by :class:`Animal`; 0 for an animal not in play."""
    bonus_tiles: bool = True
    """Whether majorities earn bonus tiles (R16); off in the younger-players variants (R19)."""
    swap: bool = True
    """Whether a drawn monkey may be swapped (R11-R14); off in the little-children variant (R20)."""
    min_players: int = 2
    """The fewest seats a game under this rule set may have (R3)."""
    max_players: int = 6
    """The most seats a game under this rule set may have (R3)."""
    name: str = "custom"
    """A name for people: the preset's name, or ``"custom"``; at most 64 characters, none a control or
    bidirectional one (:func:`cheekymonkey.names.check_text`)."""

    def __attrs_post_init__(self) -> None:
        # R21, E7: every impossible rule set is refused here, when it is made.
        counts = _check_per_animal("counts", self.counts)
        values = _check_per_animal("bonus values", self.bonus_values)
        if not any(counts):
            raise InvalidRulesetError("no animals: at least one animal needs a count of 1 or more")
        for animal in ANIMALS:
            if counts[animal] == 0 and values[animal] != 0:
                raise InvalidRulesetError(f"{animal.label} is not in play but has bonus value {values[animal]}")
            if counts[animal] > 0 and values[animal] < 1:
                raise InvalidRulesetError(f"{animal.label} is in play, so its bonus value must be 1 or more")
        for flag in ("bonus_tiles", "swap"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidRulesetError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        if self.swap and counts[Animal.MONKEY] == 0:
            raise InvalidRulesetError("a swap without a monkey: the swap needs monkeys in play")
        for bound in ("min_players", "max_players"):
            value = getattr(self, bound)
            if not is_whole_number(value):
                raise InvalidRulesetError(f"{bound} must be an integer, got {value!r}")
        if self.min_players < 2:
            raise InvalidRulesetError(f"min_players is {self.min_players}: a game needs at least 2 players")
        if self.max_players < self.min_players:
            raise InvalidRulesetError(f"max_players {self.max_players} is below min_players {self.min_players}")
        if self.max_players > MAX_PLAYERS:
            raise InvalidRulesetError(f"max_players {self.max_players} is above the supported {MAX_PLAYERS}")
        if not isinstance(self.name, str) or not self.name:
            raise InvalidRulesetError(f"name must be a non-empty string, got {self.name!r}")
        # Shown to every player, at their terminals too: no control or bidirectional character, 64 at most.
        check_text(self.name, "a rule set's name", error=InvalidRulesetError)

    @property
    def animals(self) -> tuple[Animal, ...]:
        """The animals in play, in :class:`Animal` order."""
        return tuple(a for a in ANIMALS if self.counts[a])

    @property
    def total_tokens(self) -> int:
        """How many tokens the game has (52 in the standard game)."""
        return sum(self.counts)

    def allows_players(self, players: int) -> bool:
        """Whether a game under this rule set may have ``players`` seats (R3: 2 to 6 in the standard game).

        The one seat-count check: every place that takes a number of seats asks it.

        >>> Ruleset.standard().allows_players(6), Ruleset.standard().allows_players(7)
        (True, False)
        """
        return self.min_players <= players <= self.max_players

    @classmethod
    def standard(cls) -> Ruleset:
        """The standard game: 52 tokens of eight animals, bonus tiles, the swap, 2-6 players."""
        return cls(_STANDARD_COUNTS, _STANDARD_VALUES, name="standard")

    @classmethod
    def younger(cls) -> Ruleset:
        """Younger players (R19): no bonus tiles; the tallest stack wins."""
        return cls(_STANDARD_COUNTS, _STANDARD_VALUES, bonus_tiles=False, name="younger")

    @classmethod
    def little_children(cls, *, without_kangaroo: bool = False) -> Ruleset:
        """Little children (R20): younger-players rules without the Lion and without the swap.

        Args:
            without_kangaroo: Also take out the 8-count animal (the Kangaroo), as the rules allow.
        """
        removed = {Animal.LION, Animal.KANGAROO} if without_kangaroo else {Animal.LION}
        counts = tuple(0 if a in removed else c for a, c in zip(ANIMALS, _STANDARD_COUNTS, strict=True))
        values = tuple(0 if a in removed else v for a, v in zip(ANIMALS, _STANDARD_VALUES, strict=True))
        name = "little-children-no-kangaroo" if without_kangaroo else "little-children"
        return cls(counts, values, bonus_tiles=False, swap=False, name=name)

    @classmethod
    def custom(
        cls,
        counts: Mapping[Animal, int] | Mapping[str, int] | Mapping[int, int],
        *,
        bonus_values: Mapping[Animal, int] | Mapping[str, int] | Mapping[int, int] | None = None,
        bonus_tiles: bool = True,
        swap: bool | None = None,
        min_players: int = 2,
        max_players: int = 6,
        name: str = "custom",
    ) -> Ruleset:
        """Build a rule set from a mapping of the animals in play to their counts (R21).

        Args:
            counts: Each animal in play and its token count (1 or more). An animal is given as
                :meth:`Animal.parse` takes it: the Animal, its number or its name.
            bonus_values: Bonus tile values by animal; defaults to each animal's count in this
                rule set, as a tile shows how many tokens of its animal are in the game (E6).
            bonus_tiles: Whether majorities earn bonus tiles.
            swap: Whether a drawn monkey may be swapped; defaults to whether monkeys are in play.
            min_players: The fewest seats.
            max_players: The most seats.
            name: A name for people.

        Raises:
            InvalidRulesetError: If the rule set cannot be played, or an argument has the wrong type.
        """
        if not isinstance(counts, Mapping):
            raise InvalidRulesetError(f"counts must be a mapping of animals to counts, got {counts!r}")
        per_animal = [0] * len(ANIMALS)
        for key, count in counts.items():
            animal = _animal_key(key)
            if not is_whole_number(count) or count < 1:
                raise InvalidRulesetError(f"the count of {animal.label} is {count!r}: a count below 1 is impossible")
            per_animal[animal] = count
        if bonus_values is None:
            # E6 (after R2): each tile shows, and is worth, its animal's count in this rule set.
            values = list(per_animal)
        else:
            if not isinstance(bonus_values, Mapping):
                raise InvalidRulesetError(f"bonus_values must be a mapping of animals to values, got {bonus_values!r}")
            values = [0] * len(ANIMALS)
            for key, value in bonus_values.items():
                values[_animal_key(key)] = value
        if swap is None:
            swap = per_animal[Animal.MONKEY] > 0
        return cls(
            tuple(per_animal),
            tuple(values),
            bonus_tiles=bonus_tiles,
            swap=swap,
            min_players=min_players,
            max_players=max_players,
            name=name,
        )

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The preset called ``name``: one of :meth:`preset_names`.

        Raises:
            InvalidRulesetError: If there is no preset of that name.
        """
        factory = _PRESETS.get(name)
        if factory is None:
            raise InvalidRulesetError(f"no preset named {name!r}; the presets are {', '.join(_PRESETS)}")
        return factory()

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """The names :meth:`preset` accepts."""
        return tuple(_PRESETS)


def _animal_key(key: object) -> Animal:
    # The one rule for animals (Animal.parse), reported as a rule set problem.
    try:
        return Animal.parse(key)
    except InvalidValueError as error:
        raise InvalidRulesetError(str(error)) from None


def _little_children_no_kangaroo() -> Ruleset:
    return Ruleset.little_children(without_kangaroo=True)


_PRESETS: Final[dict[str, Callable[[], Ruleset]]] = {
    "standard": Ruleset.standard,
    "younger": Ruleset.younger,
    "little-children": Ruleset.little_children,
    "little-children-no-kangaroo": _little_children_no_kangaroo,
}
