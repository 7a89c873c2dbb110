"""Helpers for Too Many Monkeys' rule tests: rows written as text, states built through the checked constructor.

A row is written as the board shows it, position 1 first: ``"1 ? (3) W ? ?"`` is a face-up 1, a card
nobody has seen, a 3 turned down by a Do Not Disturb, a face-up wild and two more unseen cards. Every state
a test starts from is built by :func:`make`, through ``GameState``'s public, validating constructor, so a
test never starts from a state play could not reach. Chance is never sampled here: a test applies
``Reveal(card)`` itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import attrs

from cheekymonkey.toomany import (
    CARDS,
    Action,
    Card,
    Event,
    FaceDown,
    GameState,
    Phase,
    Reveal,
    Ruleset,
    Slot,
    apply,
    apply_with_events,
    face_down,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
    parse_action,
    resolve_chance,
)
from cheekymonkey.toomany.state import usable_discard

STANDARD = Ruleset.standard()
"""The standard rule set."""

TINY = Ruleset.custom({1: 2, 2: 2, 3: 1, "wild": 1, "giraffe": 3}, row_size=2, max_players=2, name="tiny")
"""A tiny deck where the piles run out: 2 seats, rows of 2, nine cards."""

TM1_COUNTS = {
    Card.ONE: 6,
    Card.TWO: 6,
    Card.THREE: 6,
    Card.FOUR: 6,
    Card.FIVE: 6,
    Card.SIX: 6,
    Card.WILD: 4,
    Card.SKIP: 4,
    Card.ELEPHANT: 3,
    Card.GIRAFFE: 3,
    Card.RACCOON: 3,
    Card.DO_NOT_DISTURB: 2,
}
"""TM1's deck written out from the rules (not read from the engine)."""


def unchecked_ruleset(counts: Mapping[str | int, int], row_size: int, *, max_players: int = 2) -> Ruleset:
    """A rule set built without :class:`Ruleset`'s checks, for a deck the checks refuse as one that can stall.

    Only for tests about something else than a game's end (the lazy deal's distribution), or about the stall
    itself: play under such a deck is correct move by move, but some rounds can never end (TME5).
    """
    per_card = [0] * len(CARDS)
    for key, count in counts.items():
        per_card[Card.parse(key) - 1] = count
    ruleset: Ruleset = object.__new__(Ruleset)
    values = (tuple(per_card), row_size, 2, max_players, "unchecked")
    for name, value in zip(attrs.fields_dict(Ruleset), values, strict=True):
        object.__setattr__(ruleset, name, value)
    return ruleset


def slot(text: str) -> Slot:
    """One row position from its text: ``?``, ``3``, ``W``, ``(3)`` or ``(W)``."""
    if text == "?":
        return None
    if text.startswith("(") and text.endswith(")"):
        return face_down(Card.parse(text[1:-1]))
    return Card.parse(text)


def row(text: str) -> tuple[Slot, ...]:
    """A row from its text, positions separated by spaces: ``"1 ? (3) W"``."""
    return tuple(slot(part) for part in text.split())


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their codes separated by spaces, ``"3 G 5"``; the empty text is no card."""
    return tuple(Card.parse(part) for part in text.split())


def counts(held: Sequence[Card]) -> tuple[int, ...]:
    """The per-kind counts of some cards."""
    result = [0] * len(CARDS)
    for card in held:
        result[card - 1] += 1
    return tuple(result)


def make(
    rows: Sequence[str],
    *,
    seat: int = 0,
    phase: Phase | None = None,
    hand: Card | None = None,
    discard: str = "",
    pile: str | None = None,
    pile_size: int | None = None,
    skips: Sequence[int] = (),
    round_first: int = 0,
    ruleset: Ruleset = STANDARD,
) -> GameState:
    """Build a state through the public, validating constructor, deriving what follows from the rest.

    Args:
        rows: Each seat's row as text (see :func:`row`); their number is the number of players.
        seat: The seat to move.
        phase: The phase; by default the start of a turn as the engine would open it (START if the discard
            top can be taken, else DRAW).
        hand: The card in hand.
        discard: The discard pile's codes, bottom first.
        pile: After a reshuffle, the draw pile's codes (any order); None before a reshuffle.
        pile_size: The draw pile's size before a reshuffle; by default every card not on the table.
        skips: The seats with a Skip waiting.
        round_first: The seat that began the round.
        ruleset: The rules.
    """
    table = tuple(row(text) for text in rows)
    thrown = cards(discard)
    if phase is None:
        phase = Phase.START if thrown and usable_discard(thrown[-1], table[seat]) else Phase.DRAW
    waiting = tuple(other in skips for other in range(len(table)))
    visible: list[Card] = [*thrown, *([hand] if hand is not None else []), *([Card.SKIP] * len(skips))]
    for seat_row in table:
        for position in seat_row:
            if isinstance(position, FaceDown):
                visible.append(position.card)
            elif position is not None:
                visible.append(position)
    pile_counts = None if pile is None else counts(cards(pile))
    remaining = [
        total - seen - (0 if pile_counts is None else in_pile)
        for total, seen, in_pile in zip(ruleset.counts, counts(visible), pile_counts or counts(()), strict=True)
    ]
    if pile_counts is not None:
        size = sum(pile_counts)
    elif pile_size is not None:
        size = pile_size
    else:
        hidden = sum(position is None for seat_row in table for position in seat_row)
        picked = 1 if phase is Phase.TURN_UP or (phase is Phase.OVER and hand is None) else 0
        size = sum(remaining) - hidden - picked
    won = sum(ruleset.row_size - len(seat_row) for seat_row in table)
    return GameState(
        ruleset,
        won + 1,
        round_first,
        seat,
        phase,
        table,
        hand,
        thrown,
        size,
        pile_counts,
        tuple(remaining),
        waiting,
    )


def random_game(seed: int, players: int, ruleset: Ruleset | None = None) -> Iterator[GameState]:
    """Every state of a whole game, the last one over: chance from ``random.Random(seed)``, choices uniform from it."""
    rng = random.Random(seed)
    state = new_game(players, ruleset=ruleset)
    yield state
    while not is_terminal(state):
        if is_chance_node(state):
            state = resolve_chance(state, rng)
        else:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        yield state


class Stacked:
    """A game played on a stacked deck: each time chance acts, it reveals the deck's next card, in order.

    The deck is written as card codes separated by spaces (``"3 5 1 G"``), the players' decisions in the
    notation, separated by commas (``"w 4, b"``). :meth:`play` makes the decisions one by one; before each,
    and after the last, chance takes cards from the deck for as long as it acts. Every action goes through
    :func:`~cheekymonkey.toomany.apply_with_events`, and every event is kept, in order.

    >>> game = Stacked(new_game(2), "3 5 1 G").play()
    >>> game.row(0), game.discard, game.state.seat
    ('1 ? 3 ? 5 ?', 'G', 1)
    """

    def __init__(self, start: GameState, deck: str = "") -> None:
        self.state = start
        self.deck = list(cards(deck))
        self.events: list[Event] = []

    def stack(self, deck: str) -> Stacked:
        """Put more cards under the deck."""
        self.deck.extend(cards(deck))
        return self

    def play(self, choices: str = "") -> Stacked:
        """Make each decision of ``choices`` where it falls, chance revealing the deck's cards around them.

        Raises:
            AssertionError: If a decision is due where none is left, or a choice is made at a chance node.
            ActionTextError: If a choice names no legal action.
        """
        self._deal()
        for part in (part.strip() for part in choices.split(",") if part.strip()):
            assert not is_chance_node(self.state), f"the deck ran out before {part!r}: {self.state}"
            self._apply(parse_action(part, self.state))
            self._deal()
        return self

    def _deal(self) -> None:
        while self.deck and is_chance_node(self.state):
            self._apply(Reveal(self.deck.pop(0)))

    def _apply(self, action: Action) -> None:
        self.state, events = apply_with_events(self.state, action)
        self.events.extend(events)

    def row(self, seat: int) -> str:
        """Seat ``seat``'s row as the helpers write it: ``"1 ? (3) W"``."""
        return " ".join("?" if slot is None else f"({slot.card.code})" if isinstance(slot, FaceDown) else slot.code
                        for slot in self.state.rows[seat])  # fmt: skip

    @property
    def discard(self) -> str:
        """The discard pile's codes, bottom first."""
        return " ".join(card.code for card in self.state.discard)

    def kinds(self) -> list[str]:
        """The kinds of event so far, in order: ``["Drew", "TurnedUp", ...]``."""
        return [type(event).__name__ for event in self.events]
