"""Narration in plain words: events as sentences, actions as choices, and the result, for every front end.

A ``viewer`` seat reads as "You", and the verbs agree: "You draw a 3." rather than "Ann draws a 3.".

>>> from cheekymonkey.toomany import Card, Drew, TurnedUp
>>> describe_event(Drew(0, Card.THREE), ["Ann", "Bob"]), describe_event(TurnedUp(1, Card.THREE, 3), ["Ann", "Bob"], 1)
('Ann draws a 3.', 'You put the 3 face up at position 3 and pick up the card there.')
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from cheekymonkey.text_table import Cell, Column, TextTable
from cheekymonkey.toomany.actions import (
    TAKE_DISCARD,
    Action,
    Decline,
    Draw,
    GiveSkip,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TurnDown,
)
from cheekymonkey.toomany.cards import Card, face_down
from cheekymonkey.toomany.engine import legal_actions
from cheekymonkey.toomany.events import (
    BonusTaken,
    Discarded,
    Drew,
    Event,
    GameWon,
    RaccoonTook,
    Reason,
    Reshuffled,
    RoundStarted,
    RoundWon,
    SkipGiven,
    Skipped,
    TookDiscard,
    TurnedDown,
    TurnedUp,
    Uncovered,
    WildPlaced,
)
from cheekymonkey.toomany.results import outcome
from cheekymonkey.toomany.state import GameState, Phase, trusted_state

__all__ = [
    "RESULTS_NOTE",
    "SUMMARY",
    "action_words",
    "card_words",
    "choice_notes",
    "describe_event",
    "hint",
    "result_table",
    "result_text",
    "round_won_state",
]

_YOU = "You"

SUMMARY = (
    "Each player has a row of face-down cards, position 1 at the left. A number goes face up at its own "
    "position, and the card lying there comes into your hand, to be played in turn. Turn your whole row face up "
    "to win the round: the next round deals you a row one card shorter. The first to turn up a row of one card "
    "wins the game."
)
"""What the game is about and how it is won, for a new player (TM3, TM7, TM21-TM23)."""

RESULTS_NOTE = (
    "Too Many Monkeys is mostly luck: the turns are long chains of cards nobody chose, and few choices change "
    "a game. Even the search bot wins only 50.24% of 500,000 games against the heuristic bot head to head; the "
    "choice study on the bot page (The Too Many Monkeys bot ladder) finds that only the Do Not Disturb's target "
    "tells them apart."
)
"""What a reader of the bots' win rates should know (the figures of docs/explanation/bots-too-many-monkeys.md)."""


def card_words(card: Card) -> str:
    """A card with its article: ``"a 3"``, ``"a wild"``, ``"an elephant"``."""
    label = card.label
    return f"{'an' if label[0].lower() in 'aeiou' else 'a'} {label}"


def _names(names: Sequence[str], viewer: int | None) -> list[str]:
    return [_YOU if seat == viewer else name for seat, name in enumerate(names)]


def _says(name: str, verb: str) -> str:
    # "Ann draws", "You draw": the verb is given in its third-person form.
    if name != _YOU:
        return f"{name} {verb}"
    plain = {"has": "have", "does": "do", "wins": "win"}.get(verb)
    if plain is None:
        plain = verb[:-2] if verb.endswith(("shes", "ches", "sses")) else verb[:-1]
    return f"{name} {plain}"


def _object(name: str) -> str:
    return "you" if name == _YOU else name


def _their(name: str) -> str:
    return "your" if name == _YOU else f"{name}'s"


_REASONS: dict[Reason, str] = {
    Reason.DUPLICATE: "already face up in the row",
    Reason.TOO_HIGH: "too high for the row",
    Reason.ENDS_TURN: "the turn is over",
    Reason.DECLINED: "declined",
    Reason.NO_TARGET: "nobody to play it on",
}


def describe_event(event: Event, names: Sequence[str], viewer: int | None = None) -> str:
    """One sentence for an event; ``names`` names the seats, and ``viewer``'s seat reads as "You".

    >>> from cheekymonkey.toomany import Card, Discarded, Reason
    >>> describe_event(Discarded(0, Card.FIVE, Reason.TOO_HIGH), ["Ann", "Bob"], viewer=0)
    'You discard the 5: too high for the row.'
    """
    who = _names(names, viewer)
    if isinstance(event, Drew):
        return f"{_says(who[event.seat], 'draws')} {card_words(event.card)}."
    if isinstance(event, TookDiscard):
        return f"{_says(who[event.seat], 'takes')} the {event.card.label} from the discard pile."
    if isinstance(event, TurnedUp):
        puts = _says(who[event.seat], "puts")
        picks = "picks" if who[event.seat] != _YOU else "pick"
        return f"{puts} the {event.card.label} face up at position {event.position} and {picks} up the card there."
    if isinstance(event, WildPlaced):
        puts = _says(who[event.seat], "puts")
        picks = "picks" if who[event.seat] != _YOU else "pick"
        return f"{puts} the wild face up at position {event.position} and {picks} up the card there."
    if isinstance(event, BonusTaken):
        takes = _says(who[event.seat], "takes")
        return f"{takes} the bonus: the {event.card.label} replaces the wild at position {event.card.number}."
    if isinstance(event, Uncovered):
        return f"The card picked up is {card_words(event.card)}."
    if isinstance(event, RaccoonTook):
        if event.card is None:
            return f"The raccoon takes nothing, and {_their(who[event.seat])} turn is over."
        return f"{_their(who[event.seat]).capitalize()} raccoon takes the {event.card.label} from the discard pile."
    if isinstance(event, TurnedDown):
        turns = _says(who[event.seat], "turns")
        return f"{turns} {_their(who[event.target])} {event.card.label} at position {event.position} face down."
    if isinstance(event, SkipGiven):
        return f"{_says(who[event.seat], 'gives')} {_object(who[event.target])} a Skip."
    if isinstance(event, Skipped):
        return f"{_their(who[event.seat]).capitalize()} turn is skipped."
    if isinstance(event, Discarded):
        discards = _says(who[event.seat], "discards")
        if event.reason is Reason.PLAYED:
            return f"{discards} the {event.card.label}."
        if event.reason is Reason.DECLINED:
            declined = "declining the wild bonus" if event.card.is_number else "unused"
            return f"{discards} the {event.card.label}, {declined}."
        return f"{discards} the {event.card.label}: {_REASONS[event.reason]}."
    if isinstance(event, Reshuffled):
        cards = f"{event.cards} card{'' if event.cards == 1 else 's'}"
        return f"The discard pile is shuffled into a new draw pile of {cards}."
    if isinstance(event, RoundWon):
        row = _their(who[event.seat])
        return f"{_says(who[event.seat], 'wins')} round {event.round}, so {row} row is one card shorter from now on!"
    if isinstance(event, RoundStarted):
        if viewer is None:
            sizes = ", ".join(str(size) for size in event.row_sizes)
            return f"Round {event.round} is dealt, rows of {sizes} cards; {_object(who[event.first_seat])} to begin."
        size = event.row_sizes[viewer]
        yours = f"your row has {size} card{'' if size == 1 else 's'}"
        return f"Round {event.round} is dealt: {yours}; {_object(who[event.first_seat])} to begin."
    if isinstance(event, GameWon):
        wins = "win" if who[event.seat] == _YOU else "wins"
        return f"{_says(who[event.seat], 'completes')} a row of one card and {wins} the game!"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def action_words(action: Action, state: GameState, names: Sequence[str]) -> str:
    """A legal ``action`` in words, for a person choosing it; ``names`` names the seats.

    >>> from cheekymonkey.toomany import GiveSkip, new_game
    >>> action_words(GiveSkip(1), new_game(2), ["Ann", "Bob"])
    'give the Skip to Bob'
    """
    if isinstance(action, Reveal):
        return f"reveal {card_words(action.card)}"
    if isinstance(action, Draw):
        return "draw from the pile"
    if isinstance(action, TakeDiscard):
        top = state.discard[-1]
        row = state.rows[state.seat]
        if top > len(row):  # 001 allows it (TM6): the card is only discarded again
            return f"take the {top.label} from the discard pile (too high for your row: the turn ends)"
        if row[top - 1] is Card.WILD:
            return f"take the {top.label} from the discard pile (for the bonus with your wild)"
        return f"take the {top.label} from the discard pile"
    if isinstance(action, PlaceWild):
        return f"put the wild at position {action.position}"
    if isinstance(action, TakeBonus):
        hand = state.hand
        label = hand.label if hand is not None else "number"
        return f"take the bonus: the {label} for your wild at position {label}, the wild back in hand"
    if isinstance(action, RaccoonTake):
        return f"let the raccoon take the {action.card.label}"
    if isinstance(action, TurnDown):
        card = state.rows[action.seat][action.position - 1]
        label = card.label if isinstance(card, Card) else "card"
        return f"turn down {names[action.seat]}'s {label} at position {action.position}"
    if isinstance(action, GiveSkip):
        return f"give the Skip to {names[action.seat]}"
    assert isinstance(action, Decline)
    if state.phase is Phase.BONUS and state.hand is not None:
        return f"decline the bonus: discard the {state.hand.label}, and the turn ends"
    declined = {
        Phase.RACCOON: "take nothing, and the turn ends",
        Phase.DISTURB: "turn nothing down",
        Phase.SKIP: "give the Skip to nobody",
    }
    return declined.get(state.phase, "decline")


def round_won_state(before: GameState, events: Sequence[Event]) -> GameState | None:
    """The table as it stood the moment a round was won, for drawing; None if ``events`` win no round.

    The state after the winning move is already the next round's deal (TM22), so the winning row is never in a
    state of its own: this is ``before`` with the rows changed as ``events`` change them, up to the win, and
    nobody to move.

    >>> from cheekymonkey.toomany import RoundWon, new_game
    >>> round_won_state(new_game(2), []) is None
    True
    """
    rows = [list(row) for row in before.rows]
    for event in events:
        if isinstance(event, TurnedUp):
            rows[event.seat][event.position - 1] = event.card
        elif isinstance(event, WildPlaced):
            rows[event.seat][event.position - 1] = Card.WILD
        elif isinstance(event, BonusTaken):
            rows[event.seat][event.card - 1] = event.card
        elif isinstance(event, TurnedDown):
            rows[event.target][event.position - 1] = face_down(event.card)
        elif isinstance(event, RoundWon):
            return trusted_state(
                before.ruleset,
                before.round,
                before.round_first,
                event.seat,
                Phase.OVER,
                tuple(tuple(row) for row in rows),
                None,
                before.discard,
                before.pile_size,
                before.pile,
                before.unseen,
                before.skips,
            )
    return None


def hint(state: GameState) -> str:
    """What the player to move may do now, in one sentence, as every front end shows it; "" when nobody decides.

    The moves it names are told in :func:`action_words`' own words, so the page's hint and the terminal's
    choices say the same: a discard too high for the row is said to end the turn.

    >>> from cheekymonkey.toomany import Card, Reveal, apply_all, new_game
    >>> hint(apply_all(new_game(2), [Reveal(Card.WILD)]))
    'You hold a wild: put it on one of your face-down positions.'
    """
    phase = state.phase
    if phase is Phase.START:
        if TAKE_DISCARD not in legal_actions(state):
            return "Draw from the pile."
        return f"Draw from the pile, or {action_words(TAKE_DISCARD, state, ())}."
    if phase is Phase.WILD:
        return "You hold a wild: put it on one of your face-down positions."
    if phase is Phase.BONUS and state.hand is not None:
        label = state.hand.label
        return (
            f"Your wild sits at position {label}: take it back for the {label} and place it again, "
            "or decline and end your turn."
        )
    if phase is Phase.RACCOON:
        return (
            "The raccoon looks through the discard pile: take a number whose place in your row is face down, "
            "or take nothing and end your turn."
        )
    if phase is Phase.DISTURB:
        return (
            "Do Not Disturb: turn one of your opponents' face-up cards face down (everyone remembers it), "
            "or turn nothing down."
        )
    if phase is Phase.SKIP:
        return "Skip: give it to an opponent without one, whose next turn is skipped, or to nobody."
    return ""


def choice_notes(state: GameState, names: Sequence[str]) -> tuple[str, ...]:
    """Why seats are left out of the choice in ``state``, one sentence each, with the rule; often none.

    A Skip cannot go to a seat with one waiting (TM17), and a Do Not Disturb has nothing to turn down in a row
    with no card face up (TM15).

    >>> from cheekymonkey.toomany import Card, GiveSkip, Reveal, apply_all, new_game
    >>> state = apply_all(new_game(3), [Reveal(Card.SKIP), GiveSkip(2), Reveal(Card.SKIP)])
    >>> choice_notes(state, ["Ann", "Bob", "Cy"])
    ('No Skip for Cy: one is waiting for them already, and a seat holds one at a time (TM17).',)
    """
    others = [seat for seat in range(len(state.rows)) if seat != state.seat]
    if state.phase is Phase.SKIP:
        waiting = [names[seat] for seat in others if state.skips[seat]]
        if len(waiting) == 1:
            return (
                f"No Skip for {waiting[0]}: one is waiting for them already, and a seat holds one at a time (TM17).",
            )
        if waiting:
            return (
                f"No Skip for {_and(waiting)}: one is waiting for each already, and a seat holds one at a time (TM17).",
            )
    if state.phase is Phase.DISTURB:
        bare = [names[seat] for seat in others if not any(isinstance(slot, Card) for slot in state.rows[seat])]
        if len(bare) == 1:
            return (f"Nothing of {bare[0]}'s to turn down: no card of their row is face up (TM15).",)
        if bare:
            return (f"Nothing to turn down in the rows of {_and(bare)}: none has a card face up (TM15).",)
    return ()


def _and(names: Sequence[str]) -> str:
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _rounds_won(state: GameState, seat: int, winner: int) -> int:
    # A round won takes a card from the winner's next row (TM22); the game's winner won the last round too.
    return state.ruleset.row_size - len(state.rows[seat]) + (seat == winner)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def result_text(state: GameState, names: Sequence[str]) -> str:
    """The result of a finished game in plain text, at most 80 columns wide: the winner, then the others' rounds.

    Each of the others is placed by the cards of their last row, fewer first (TME1), with the rounds they won
    (each took a card from their row, TM22).

    Raises:
        GameNotOverError: If the game is not over.
    """
    result = outcome(state)
    winner = result.winners[0]
    won = _plural(_rounds_won(state, winner, winner), "round")
    lines = [f"Winner: {names[winner]} ({won} won; the last, round {state.round}, with a row of one card)."]
    order = sorted(range(len(names)), key=lambda seat: (result.ranks[seat], seat))
    for seat in order:
        if seat != winner:
            rounds = _plural(_rounds_won(state, seat, winner), "round")
            last = _plural(len(state.rows[seat]), "card")
            lines.append(f"{result.ranks[seat]}. {names[seat]}: {rounds} won; {last} in the last row")
    return "\n".join(part for line in lines for part in textwrap.wrap(line, 80, subsequent_indent="   "))


def result_table(state: GameState, names: Sequence[str]) -> TextTable:
    """The result of a finished game as cells: each seat's place, the rounds it won, and the size of its last row.

    A note under the table says what the columns mean: each round won takes a card from the winner's row
    (TM22), and the others are placed by the cards of their last row, fewer first (TME1).

    Raises:
        GameNotOverError: If the game is not over.
    """
    result = outcome(state)
    winner = result.winners[0]
    order = sorted(range(len(names)), key=lambda seat: (result.ranks[seat], seat))
    columns = (
        Column(Cell("place"), right=True),
        Column(Cell("player")),
        Column(Cell("rounds won"), "won", right=True),
        Column(Cell("last row"), "row", right=True),
    )
    rows = tuple(
        (
            Cell(str(result.ranks[seat])),
            Cell(names[seat]),
            Cell(str(_rounds_won(state, seat, winner))),
            Cell(str(len(state.rows[seat]))),
        )
        for seat in order
    )
    first = state.ruleset.row_size
    notes = (
        f"Winner: {names[winner]}, the first to turn up a row of one card, in round {state.round}.",
        f"Last row: the cards in the player's row in the last round. Rows begin with {_plural(first, 'card')}, and "
        "each round won takes one away; the others are placed by their last row, the shorter first.",
    )
    return TextTable(columns, rows, title="Result", notes=notes)
