"""Rule data: the deck, the seat range and the first round's row size, checked when a rule set is made.

>>> Ruleset.standard().total_cards, Ruleset.standard().row_size, Ruleset.short().row_size
(55, 6, 4)
>>> Ruleset.custom({1: 2, 2: 2, "wild": 1, "giraffe": 2}, row_size=2, max_players=2).total_cards
7
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from cheekymonkey.checks import whole_number
from cheekymonkey.errors import InvalidRulesetError, InvalidValueError
from cheekymonkey.names import check_text
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card

__all__ = ["MAX_COUNT", "MAX_PLAYERS", "STANDARD_COUNTS", "Ruleset"]

MAX_PLAYERS: Final = 6
"""The most seats any rule set may have (TM2: the box says 2 to 6)."""

MAX_COUNT: Final = 2**48
"""The most cards of one kind a deck may hold (TME4). Twelve such counts, and the rounds, stay below ``2**53 - 1``,
the largest integer a JSON document keeps exact, so every count, pile size and round a game under any rule set
can make is saved and loaded back (:data:`cheekymonkey.serialization.MAX_INTEGER`)."""

STANDARD_COUNTS: Final[tuple[int, ...]] = (6, 6, 6, 6, 6, 6, 4, 4, 3, 3, 3, 2)
"""TM1's deck, one count per :class:`~cheekymonkey.toomany.Card` in order: six of each number 1 to 6, four wild
monkeys, four Skips, three elephants, three giraffes, three raccoons and two Do Not Disturb, 55 cards."""

SHORT_ROW: Final = 4
"""The first round's row in the short game (TM24): 001 suggests 4 or 5; 4 is the shorter game of the two
(see :meth:`Ruleset.short`)."""


def stall_numbers(counts: Sequence[int], row_size: int, seats: int) -> tuple[int, ...]:
    """The positions whose cards could all be stuck in the rows, stalling a round for ever (TME5); () if none.

    A round stalls when, for some set N of positions, every copy of the numbers in N and every wild lie in
    the rows where nobody can turn them up. ``seats`` rows hold at most ``seats`` cards at each position, so
    no round can stall when, for every non-empty N within the row, the copies of N's numbers and the wilds
    together outnumber ``seats * len(N)``. The worst N holds every number with fewer than ``seats`` copies
    (or, if there is none, the number with the fewest); this returns it when it fails, ascending.

    >>> stall_numbers((6, 6, 6, 6, 6, 6, 4, 4, 3, 3, 3, 2), 6, 6)
    ()
    >>> stall_numbers((1, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0), 2, 2)
    (1,)
    """
    wilds = counts[Card.WILD - 1]
    numbers = range(1, row_size + 1)
    scarce = [k for k in numbers if counts[k - 1] < seats]
    worst = scarce or [min(numbers, key=lambda k: counts[k - 1])]
    if sum(counts[k - 1] for k in worst) + wilds > seats * len(worst):
        return ()
    return tuple(worst)


@attrs.frozen(slots=True)
class Ruleset:
    """Frozen rule data: the deck, the seat range, and the row every seat is dealt in the first round.

    Build one from a preset (:meth:`standard`, :meth:`short`), from :meth:`custom`, or directly. Every way
    checks it and raises :class:`~cheekymonkey.InvalidRulesetError` naming the problem if it cannot be played
    (TME4): a deck that cannot fill a row, that could leave a player nothing to draw (TM25), or whose rounds
    could stall for ever, every card some positions need stuck face down in the rows (TME5).
    """

    counts: tuple[int, ...]
    """How many cards of each kind the deck holds, one count per :class:`~cheekymonkey.toomany.Card` in order."""
    row_size: int = 6
    """How many cards every seat is dealt in the first round (TM24: 1 to 6; 6 in the standard game)."""
    min_players: int = 2
    """The fewest seats a game under this rule set may have (TM2)."""
    max_players: int = MAX_PLAYERS
    """The most seats a game under this rule set may have (TM2)."""
    name: str = "custom"
    """A name for people: the preset's name, or ``"custom"``; at most 64 characters, none a control or
    bidirectional one (:func:`cheekymonkey.names.check_text`)."""

    def __attrs_post_init__(self) -> None:
        counts = self.counts
        if not isinstance(counts, tuple) or len(counts) != len(CARDS):
            raise InvalidRulesetError(f"counts must be a tuple of {len(CARDS)} counts, one per card, got {counts!r}")
        for card, count in zip(CARDS, counts, strict=True):
            if whole_number(count, f"the count of {card.label}", error=InvalidRulesetError) < 0:
                raise InvalidRulesetError(f"the count of {card.label} is {count}: a count below 0 is impossible")
            if count > MAX_COUNT:
                raise InvalidRulesetError(
                    f"the count of {card.label} is {count}: at most {MAX_COUNT} (2**48), so that every pile "
                    "a game makes can be saved"
                )
        row = whole_number(self.row_size, "row_size", error=InvalidRulesetError)
        if not 1 <= row <= MAX_NUMBER:
            raise InvalidRulesetError(f"row_size is {row}: a row has 1 to {MAX_NUMBER} cards (TM24)")
        low = whole_number(self.min_players, "min_players", error=InvalidRulesetError)
        high = whole_number(self.max_players, "max_players", error=InvalidRulesetError)
        if low < 2:
            raise InvalidRulesetError(f"min_players is {low}: a game needs at least 2 players (TM2)")
        if high < low:
            raise InvalidRulesetError(f"max_players {high} is below min_players {low}")
        if high > MAX_PLAYERS:
            raise InvalidRulesetError(f"max_players {high} is above the supported {MAX_PLAYERS} (TM2)")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidRulesetError(f"name must be a non-empty string, got {self.name!r}")
        # Shown to every player, at their terminals too: no control or bidirectional character, 64 at most.
        check_text(self.name, "a rule set's name", error=InvalidRulesetError)
        # TM11, TM21: a row is complete when each position p shows p or a wild; a position whose number is
        # not in the deck needs a wild of its own, or no row could ever be completed.
        missing = [p for p in range(1, row + 1) if counts[p - 1] == 0]
        wilds = counts[Card.WILD - 1]
        if len(missing) > wilds:
            shown = ", ".join(map(str, missing))
            raise InvalidRulesetError(
                f"no row of {row} can be completed: the deck has no {shown} and {wilds} wild(s) to stand in"
            )
        # TM25: at a draw, the rows hold at most max_players * row_size cards, the Skips waiting at most one
        # per opponent, and the hand nothing; one card at least must be left for the draw or discard pile.
        held = high * row + min(counts[Card.SKIP - 1], high - 1)
        if sum(counts) <= held:
            raise InvalidRulesetError(
                f"{sum(counts)} cards are too few (TM25): {high} rows of {row} and up to "
                f"{held - high * row} Skip(s) waiting leave nothing to draw; the deck needs {held + 1} or more"
            )
        # TME4, TME5: no round can stall. A round stalls when every copy of the numbers some set N of
        # positions needs, and every wild, lies in the rows where nobody can turn it up; the rows hold at
        # most max_players cards at each position of N, so more cards than that rule the stall out.
        stall = stall_numbers(counts, row, high)
        if stall:
            shown = ", ".join(map(str, stall))
            where = f"position{'s' if len(stall) > 1 else ''} {shown}"
            copies = sum(counts[k - 1] for k in stall)
            raise InvalidRulesetError(
                f"a round could stall for ever (TME5): {high} rows can hold every card numbered {shown} "
                f"({copies}) and every wild ({wilds}) at {where} of the rows, out of everybody's reach; "
                f"these cards must number more than {high * len(stall)} (add copies or wilds, or allow fewer seats)"
            )

    @property
    def total_cards(self) -> int:
        """How many cards the deck holds (55 in the standard game)."""
        return sum(self.counts)

    def count(self, card: Card) -> int:
        """How many cards of kind ``card`` the deck holds."""
        return self.counts[card - 1]

    @classmethod
    def standard(cls) -> Ruleset:
        """The standard game: TM1's 55 cards, rows of 6 in the first round, 2 to 6 players."""
        return _STANDARD

    @classmethod
    def short(cls) -> Ruleset:
        """The short game (TM24): the standard deck, rows of 4 in the first round.

        001 suggests 4 or 5. With 4, the winner needs four round wins rather than six, and every round is
        shorter: 200 seeded games of two random players take 0.64 of the standard game's turns, where rows
        of 5 take 0.81 (``tests/toomany/test_rules_setup.py`` holds the figures to their range).
        """
        return _SHORT

    @classmethod
    def custom(
        cls,
        counts: Mapping[Any, int] | None = None,
        *,
        row_size: int = 6,
        min_players: int = 2,
        max_players: int = MAX_PLAYERS,
        name: str = "custom",
    ) -> Ruleset:
        """Build a rule set from the deck's cards and counts, checked like every rule set.

        Args:
            counts: Each kind of card in the deck and its count; kinds not given are not in the deck. A card
                is given as :meth:`Card.parse <cheekymonkey.toomany.Card.parse>` takes it: the Card, a number
                1 to 6, or a name, mixed as you like (``{1: 2, "wild": 1}``). None: TM1's standard deck.
            row_size: The first round's row (TM24).
            min_players: The fewest seats.
            max_players: The most seats.
            name: A name for people.

        Raises:
            InvalidRulesetError: If the rule set cannot be played, or an argument has the wrong type.
        """
        if counts is None:
            per_card = list(STANDARD_COUNTS)
        elif not isinstance(counts, Mapping):
            raise InvalidRulesetError(f"counts must be a mapping of cards to counts, got {counts!r}")
        else:
            per_card = [0] * len(CARDS)
            for key, count in counts.items():
                try:
                    card = Card.parse(key)
                except InvalidValueError as error:
                    raise InvalidRulesetError(str(error)) from None
                per_card[card - 1] = count
        return cls(tuple(per_card), row_size, min_players, max_players, name)

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The preset called ``name``, one of :meth:`preset_names`.

        Raises:
            InvalidRulesetError: If there is no preset of that name.
        """
        factory = _PRESETS.get(name) if isinstance(name, str) else None
        if factory is None:
            raise InvalidRulesetError(f"no preset named {name!r}; the presets are {', '.join(_PRESETS)}")
        return factory()

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """The names :meth:`preset` takes, the standard game first."""
        return tuple(_PRESETS)


# Rule sets are values: every game of the standard or the short rules shares one, built and checked once.
_STANDARD: Final = Ruleset(STANDARD_COUNTS, 6, name="standard")
_SHORT: Final = Ruleset(STANDARD_COUNTS, SHORT_ROW, name="short")

_PRESETS: Final[dict[str, Callable[[], Ruleset]]] = {"standard": Ruleset.standard, "short": Ruleset.short}
