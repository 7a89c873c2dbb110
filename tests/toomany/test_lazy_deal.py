"""The proof of the lazy deal (TM19, TM20, TM22): it gives exactly the distribution of a shuffled deck.

The engine never shuffles: a card gets its face from chance when it is first drawn or turned up, from the
right pool. This test deals the other way, as people do: it enumerates every shuffle of a tiny deck, deals
the rows and the draw pile from it, and plays a fixed policy through each shuffle, the engine applying the
rules and an eager dealer written here answering every chance node with the physical card (the draw pile's
top card, or the card lying at the position just turned up). It follows every card by the events, shuffles
the discard pile in every order when the engine reshuffles, and shuffles the whole deck in every order when
a new round is dealt. Each shuffle is equally likely, so a complete sequence of what is revealed has the
probability of the shuffles that produce it. That must equal, exactly, as fractions, the product of the
lazy engine's chance probabilities along the same sequence, for every sequence; and no sequence may occur
on one side only.

The tiny decks are ones whose rounds can stall (TME5), so they are built without the rule set's checks: the
distribution of what is revealed does not depend on whether a game can always end.

The policy is a fixed function of the public table; the play ends at the end of the game, at the deal of
round 3, or after a fixed number of actions, all the same on both sides.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from cheekymonkey.toomany import (
    CARDS,
    Action,
    BonusTaken,
    Card,
    Discarded,
    Drew,
    Event,
    GameState,
    GameWon,
    Phase,
    RaccoonTook,
    Reshuffled,
    Reveal,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TookDiscard,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
    apply,
    apply_with_events,
    chance_outcomes,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_game,
)
from tests.toomany.helpers import unchecked_ruleset

LAST_ROUND = 2
"""The play stops when round 3 is dealt."""

Sequence = tuple[Card, ...]


def policy(state: GameState) -> Action:
    """A fixed choice that depends on the public table only, and varies with it (so it declines, takes, ...)."""
    legal = legal_actions(state)
    return legal[(state.round + len(state.discard) + state.pile_size + state.seat) % len(legal)]


def finished(state: GameState, steps: int, max_steps: int) -> bool:
    """Where a play stops, on both sides alike."""
    return is_terminal(state) or state.round > LAST_ROUND or steps >= max_steps


# -- the lazy engine's side -----------------------------------------------------------------------------------


Outcomes = Callable[[GameState], tuple[tuple[Reveal, Fraction], ...]]


def lazy_distribution(
    start: GameState, max_steps: int, outcomes: Outcomes = chance_outcomes
) -> dict[Sequence, Fraction]:
    """Every sequence of revealed cards with the product of the engine's chance probabilities along it."""

    @functools.cache
    def from_here(state: GameState, steps: int) -> dict[Sequence, Fraction]:
        if finished(state, steps, max_steps):
            return {(): Fraction(1)}
        if not is_chance_node(state):
            return from_here(apply(state, policy(state)), steps + 1)
        result: dict[Sequence, Fraction] = defaultdict(Fraction)
        for reveal, probability in outcomes(state):
            for rest, chance in from_here(apply(state, reveal), steps + 1).items():
                result[(reveal.card, *rest)] += probability * chance
        return dict(result)

    return from_here(start, 0)


# -- the eager dealer's side ----------------------------------------------------------------------------------


@functools.cache
def arrangements(cards: Sequence) -> tuple[Sequence, ...]:
    """Every distinct order of ``cards`` (sorted first): each is equally likely after a fair shuffle."""
    return tuple(sorted(set(itertools.permutations(sorted(cards)))))


class Table:
    """Where every physical card lies: rows (face up or down alike), draw pile (top last), discard pile, hand."""

    def __init__(
        self, rows: list[list[Card]], pile: list[Card], discard: list[Card], hand: Card | None, waiting: dict[int, Card]
    ) -> None:
        self.rows = rows
        self.pile = pile
        self.discard = discard
        self.hand = hand
        self.waiting = waiting

    def copy(self) -> Table:
        return Table(
            [list(row) for row in self.rows], list(self.pile), list(self.discard), self.hand, dict(self.waiting)
        )

    @classmethod
    def dealt(cls, order: Sequence, sizes: tuple[int, ...]) -> Table:
        """The deal from a shuffled deck: seat 0's row from the first cards, then seat 1's, the rest the pile."""
        rows, at = [], 0
        for size in sizes:
            rows.append(list(order[at : at + size]))
            at += size
        return cls(rows, list(order[at:]), [], None, {})

    def chance_card(self, state: GameState) -> Card:
        """The physical card a chance node reveals: the pile's top, or the card just picked up from the row."""
        if state.phase is Phase.TURN_UP:
            assert self.hand is not None
            return self.hand
        return self.pile[-1]


def swap_into_row(table: Table, seat: int, position: int, card: Card) -> None:
    assert table.hand is card
    row = table.rows[seat]
    row[position - 1], table.hand = card, row[position - 1]


def follow(table: Table, events: tuple[Event, ...], deck: Sequence, seen: set[str]) -> Iterator[tuple[Table, int]]:
    """Move the physical cards as ``events`` say, in order, asserting that the engine reveals the physical card.

    Each result comes with the number of equally likely shuffles it is one of (1 without a shuffle).
    """
    for index, event in enumerate(events):
        seen.add(type(event).__name__)
        if isinstance(event, Drew):
            assert table.pile.pop() is event.card
            table.hand = event.card
        elif isinstance(event, TookDiscard):
            assert table.discard.pop() is event.card
            table.hand = event.card
        elif isinstance(event, TurnedUp):
            swap_into_row(table, event.seat, event.position, event.card)
        elif isinstance(event, WildPlaced):
            swap_into_row(table, event.seat, event.position, Card.WILD)
        elif isinstance(event, BonusTaken):
            assert table.rows[event.seat][event.card - 1] is Card.WILD
            swap_into_row(table, event.seat, event.card.value, event.card)
        elif isinstance(event, Uncovered):
            assert table.hand is event.card
        elif isinstance(event, RaccoonTook):
            if event.card is not None:
                seen.add("RaccoonTook a card")
                below = [i for i in range(len(table.discard) - 1) if table.discard[i] is event.card]
                table.hand = table.discard.pop(below[-1])
        elif isinstance(event, TurnedDown):
            assert table.rows[event.target][event.position - 1] is event.card
        elif isinstance(event, SkipGiven):
            assert table.hand is Card.SKIP
            table.waiting[event.target] = table.hand
            table.hand = None
        elif isinstance(event, Skipped):
            table.discard.append(table.waiting.pop(event.seat))
        elif isinstance(event, Discarded):
            assert table.hand is event.card
            table.discard.append(event.card)
            table.hand = None
        elif isinstance(event, Reshuffled):
            # TM20: the discard pile is shuffled: every order of it, each as likely.
            orders = arrangements(tuple(table.discard))
            for order in orders:
                shuffled = table.copy()
                shuffled.pile, shuffled.discard = list(order), []
                for after, ways in follow(shuffled, events[index + 1 :], deck, seen):
                    yield after, ways * len(orders)
            return
        elif isinstance(event, RoundStarted) and event.round <= LAST_ROUND:
            # TM22: all the cards are shuffled together and new rows dealt.
            orders = arrangements(deck)
            for order in orders:
                for after, ways in follow(Table.dealt(order, event.row_sizes), events[index + 1 :], deck, seen):
                    yield after, ways * len(orders)
            return
        else:
            assert isinstance(event, RoundStarted | RoundWon | GameWon)
    yield table, 1


def eager_distribution(start: GameState, max_steps: int, seen: set[str]) -> dict[Sequence, Fraction]:
    """Every sequence of revealed cards with the probability of the shuffles that produce it."""
    ruleset = start.ruleset
    deck = tuple(card for card in CARDS for _ in range(ruleset.count(card)))
    result: dict[Sequence, Fraction] = defaultdict(Fraction)

    def play(state: GameState, table: Table, ways: int, revealed: Sequence, steps: int) -> None:
        if finished(state, steps, max_steps):
            result[revealed] += Fraction(1, ways)
            return
        action: Action
        if is_chance_node(state):
            card = table.chance_card(state)
            action = Reveal(card)
            revealed = (*revealed, card)
        else:
            action = policy(state)
        after, events = apply_with_events(state, action)
        for moved, more in follow(table.copy(), events, deck, seen):
            play(after, moved, ways * more, revealed, steps + 1)

    orders = arrangements(deck)
    for order in orders:
        play(start, Table.dealt(order, start.row_sizes), len(orders), (), 0)
    return dict(result)


def check_lazy_deal(deck: dict[str | int, int], max_steps: int) -> set[str]:
    """Compare the two distributions for ``deck`` (2 seats, rows of 2); return the kinds of event seen."""
    start = new_game(2, ruleset=unchecked_ruleset(deck, row_size=2))
    seen: set[str] = set()
    eager = eager_distribution(start, max_steps, seen)
    lazy = lazy_distribution(start, max_steps)
    assert sum(eager.values()) == 1 == sum(lazy.values())
    assert eager.keys() == lazy.keys()
    wrong = [sequence for sequence in eager if eager[sequence] != lazy[sequence]]
    assert not wrong, [(sequence, eager[sequence], lazy[sequence]) for sequence in wrong[:5]]
    return seen


def test_every_revealed_sequence_has_the_shuffled_decks_probability_with_wilds_and_do_not_disturb() -> None:
    """TM19, TM20, TM22: 1 1 2 W D; 60 deals, a reshuffle, a bonus, a card turned down and up, round 2."""
    seen = check_lazy_deal({1: 2, 2: 1, "wild": 1, "dnd": 1}, max_steps=60)
    assert {"Reshuffled", "RoundStarted", "BonusTaken", "TurnedDown", "WildPlaced", "GameWon"} <= seen


def test_every_revealed_sequence_has_the_shuffled_decks_probability_with_raccoon_and_skip() -> None:
    """TM19, TM20, TM22: 1 1 2 2 R S; 180 deals, the raccoon taking from the pile, a Skip given and served."""
    seen = check_lazy_deal({1: 2, 2: 2, "raccoon": 1, "skip": 1}, max_steps=10)
    assert {"Reshuffled", "RoundStarted", "RaccoonTook a card", "SkipGiven", "Skipped", "TookDiscard"} <= seen


@pytest.mark.slow
def test_every_revealed_sequence_has_the_shuffled_decks_probability_deeper() -> None:
    """TM19, TM20, TM22: the raccoon and Skip deck played to 16 actions (about a minute)."""
    seen = check_lazy_deal({1: 2, 2: 2, "raccoon": 1, "skip": 1}, max_steps=16)
    assert {"Reshuffled", "RoundStarted", "GameWon"} <= seen


def test_the_comparison_catches_a_wrong_chance_model() -> None:
    """The proof can fail: if each kind of card in the pool were equally likely, the shuffles would disagree."""
    start = new_game(2, ruleset=unchecked_ruleset({1: 2, 2: 1, "wild": 1, "dnd": 1}, row_size=2))

    def by_kind(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
        kinds = chance_outcomes(state)
        return tuple((reveal, Fraction(1, len(kinds))) for reveal, _ in kinds)

    eager = eager_distribution(start, 20, set())
    assert lazy_distribution(start, 20) == eager
    assert lazy_distribution(start, 20, by_kind) != eager
