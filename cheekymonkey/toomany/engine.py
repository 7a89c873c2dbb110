"""The engine: ``apply``, ``legal_actions`` and chance, all pure.

This module is the hot path. States are built with the unchecked constructor, tuples are shared between a
state and the next, and each action is checked against its own rule only. One call plays everything the
rules decide by themselves (TM18): a chain of cards placed, a wild with one place to go, a turn's end, the
turns skipped after it, a reshuffle, a won round and the deal of the next; it stops at the next decision or
draw of chance. With a list to write to (:func:`apply_with_events`), it also says what it did.

>>> from cheekymonkey.toomany import Card, new_game
>>> state = apply(new_game(2), Reveal(Card.THREE))
>>> state.rows[0], state.phase
((None, None, Card.THREE, None, None, None), Phase.TURN_UP)
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Iterable
from fractions import Fraction
from itertools import compress
from typing import Final

from cheekymonkey._compiled import COMPILED, entry_points
from cheekymonkey._values import count_sum as _size
from cheekymonkey._values import pick_from_counts as _pick_from_counts
from cheekymonkey.errors import (
    IllegalActionError,
    InvalidStateError,
    NotAChanceNodeError,
)
from cheekymonkey.toomany.actions import (
    ACTION_KINDS,
    DECLINE,
    DRAW,
    GIVE_SKIPS,
    PLACE_WILDS,
    RACCOON_TAKES,
    REVEALS,
    TAKE_BONUS,
    TAKE_DISCARD,
    TURN_DOWNS,
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
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, Slot, face_down
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
from cheekymonkey.toomany.state import GameState, Phase, fresh_row, make_state, raccoon_choices
from cheekymonkey.toomany.state import trusted_state as _make

__all__ = [
    "apply",
    "apply_all",
    "apply_with_events",
    "chance_outcomes",
    "chance_pool",
    "current_player",
    "illegal_reason",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "resolve_chance",
    "sample_chance",
]

Rows = tuple[tuple[Slot, ...], ...]
Log = list[Event] | None

_START: Final = Phase.START
_DRAW: Final = Phase.DRAW
_CHOSEN_DRAW: Final = Phase.CHOSEN_DRAW
_TURN_UP: Final = Phase.TURN_UP
_WILD_PHASE: Final = Phase.WILD
_BONUS: Final = Phase.BONUS
_RACCOON_PHASE: Final = Phase.RACCOON
_DISTURB: Final = Phase.DISTURB
_SKIP_PHASE: Final = Phase.SKIP
_OVER: Final = Phase.OVER

_WILD: Final = Card.WILD
_SKIP: Final = Card.SKIP
_RACCOON: Final = Card.RACCOON
_DND: Final = Card.DO_NOT_DISTURB
_HIGHEST: Final = MAX_NUMBER
# The reasons a card is discarded, read once: an enum class's attribute lookup costs about ten times a global's.
_TOO_HIGH: Final = Reason.TOO_HIGH
_DUPLICATE: Final = Reason.DUPLICATE
_NO_TARGET: Final = Reason.NO_TARGET
_ENDS_TURN: Final = Reason.ENDS_TURN

# The engine builds every state it derives through _make, unchecked: each follows from a checked state by a
# legal action. Compiled, _make is trusted_state, the native constructor without checks; in pure Python the
# name is rebound just below to make_state, which fills the slots of a look-alike class, cheaper there.
# Compiled calls are bound when the module is compiled, so the rebinding does not reach them.
if not COMPILED:
    globals()["_make"] = make_state


def _illegal(state: object, action: object, reason: str) -> IllegalActionError:
    # TME8: every refusal is an IllegalActionError whose reason begins with the clause broken.
    return IllegalActionError(state, action, reason)


def _with_slot(row: tuple[Slot, ...], index: int, slot: Slot) -> tuple[Slot, ...]:
    changed = list(row)
    changed[index] = slot
    return tuple(changed)


def _with_row(rows: Rows, seat: int, row: tuple[Slot, ...]) -> Rows:
    changed = list(rows)
    changed[seat] = row
    return tuple(changed)


def _with_skip(skips: tuple[bool, ...], seat: int, waiting: bool) -> tuple[bool, ...]:
    changed = list(skips)
    changed[seat] = waiting
    return tuple(changed)


def _complete(row: tuple[Slot, ...]) -> bool:
    # TM21: every position face up (a Card; None and FaceDown are face down). Most rows still hold a card never
    # seen, which the C-level search finds first; then a loop, not all(): no generator.
    if None in row:
        return False
    for slot in row:  # noqa: SIM110
        if slot.__class__ is not Card:
            return False
    return True


def _counts(cards: tuple[Card, ...]) -> tuple[int, ...]:
    counts = [0] * len(CARDS)
    for card in cards:
        counts[card - 1] += 1
    return tuple(counts)


def _play(
    s: GameState,
    rows: Rows,
    card: Card,
    discard: tuple[Card, ...],
    pile_size: int,
    pile: tuple[int, ...] | None,
    unseen: tuple[int, ...],
    skips: tuple[bool, ...],
    log: Log,
) -> GameState:
    """Play ``card``, now in the hand of the seat to move, and what follows, until a decision, chance or the end.

    ``s`` gives the fields that do not change within a turn (rule set, round, seat); the others are passed
    as they are now. The card in hand is public and played at once (TM10).
    """
    seat = s.seat
    row = rows[seat]
    while True:
        # Compiled, a Card is an object and this int is native: comparing and indexing with it costs nothing.
        # In pure Python it is the same object, under a second name.
        number: int = card
        if number <= _HIGHEST:
            if number > len(row):
                reason = _TOO_HIGH  # TM9
                break
            at = number - 1
            slot = row[at]
            if slot is card:
                reason = _DUPLICATE  # TM9: face-up numbers lie at their own positions only
                break
            if slot is _WILD:
                # TM12: the bonus is a choice, so it is asked.
                return _make(
                    s.ruleset, s.round, s.round_first, seat, _BONUS, rows, card, discard, pile_size, pile, unseen, skips
                )
            # TM7: the number goes face up at its position; the face-down card there comes into hand. (The
            # list round trips are _with_slot and _with_row inlined: this is the engine's busiest line.)
            changed = list(row)
            changed[at] = card
            row = tuple(changed)
            table = list(rows)
            table[seat] = row
            rows = tuple(table)
            if log is not None:
                log.append(TurnedUp(seat, card, int(card)))
            if slot is None:
                if None not in row and _complete(row):
                    return _won(s, rows, None, discard, pile_size, pile, unseen, skips, log)
                # TM19: a card never seen gets its face from chance.
                return _make(
                    s.ruleset,
                    s.round,
                    s.round_first,
                    seat,
                    _TURN_UP,
                    rows,
                    None,
                    discard,
                    pile_size,
                    pile,
                    unseen,
                    skips,
                )
            # TM15, TM19: a card turned down by a Do Not Disturb is known; it comes up without chance.
            card = slot.card  # type: ignore[union-attr]
            if log is not None:
                log.append(Uncovered(seat, card))
            if _complete(row):
                return _won(s, rows, card, discard, pile_size, pile, unseen, skips, log)
            continue  # TM8: the chain goes on with the card now in hand
        if card is _WILD:
            # TM11: a wild goes on a face-down position, and there is always one (else the round was won). A
            # loop, not a comprehension: it stops at the second face-down position, and makes no list.
            at = -1
            index = 0
            for slot in row:
                if slot.__class__ is not Card:
                    if at >= 0:
                        return _make(
                            s.ruleset, s.round, s.round_first, seat, _WILD_PHASE, rows, card, discard, pile_size,
                            pile, unseen, skips,
                        )  # fmt: skip
                    at = index
                index += 1  # noqa: SIM113 (enumerate builds a tuple per position)
            # TM18: one place only, so the engine puts it there; that was the last face-down card (TM21).
            slot = row[at]
            rows = _with_row(rows, seat, _with_slot(row, at, card))
            known = None if slot is None else slot.card  # type: ignore[union-attr]
            if log is not None:
                log.append(WildPlaced(seat, at + 1))
                if known is not None:
                    log.append(Uncovered(seat, known))
            return _won(s, rows, known, discard, pile_size, pile, unseen, skips, log)
        if card is _RACCOON:
            # TM14: the raccoon goes onto the discard pile first, then the player looks through the rest.
            discard = discard + (card,)  # noqa: RUF005 (concatenation builds the tuple directly)
            if log is not None:
                log.append(Discarded(seat, card, Reason.PLAYED))
            if raccoon_choices(row, discard[:-1]):
                return _make(
                    s.ruleset, s.round, s.round_first, seat, _RACCOON_PHASE, rows, None, discard, pile_size, pile,
                    unseen, skips,
                )  # fmt: skip
            if log is not None:
                log.append(RaccoonTook(seat, None))
            return _end_turn(s, rows, discard, pile_size, pile, unseen, skips, log)
        if card is _DND:
            # TM15: a choice if any opponent shows a face-up card; with none, no effect (TM18).
            if _face_up_elsewhere(rows, seat):
                return _make(
                    s.ruleset,
                    s.round,
                    s.round_first,
                    seat,
                    _DISTURB,
                    rows,
                    card,
                    discard,
                    pile_size,
                    pile,
                    unseen,
                    skips,
                )
            reason = _NO_TARGET
        elif card is _SKIP:
            # TM16, TM17: a choice if any opponent has no Skip waiting; else no effect (TM18).
            # The mover never has a Skip waiting (it would have been skipped), so a second False is an opponent's.
            if skips.count(False) > 1:
                return _make(
                    s.ruleset, s.round, s.round_first, seat, _SKIP_PHASE, rows, card, discard, pile_size, pile, unseen,
                    skips,
                )  # fmt: skip
            reason = _NO_TARGET
        else:
            reason = _ENDS_TURN  # TM13: a giraffe or an elephant
        break
    # TM9, TM13, TM15, TM16: the card goes face up onto the discard pile, and the turn ends.
    if log is not None:
        log.append(Discarded(seat, card, reason))
    return _end_turn(s, rows, discard + (card,), pile_size, pile, unseen, skips, log)  # noqa: RUF005


def _face_up_elsewhere(rows: Rows, seat: int) -> bool:
    other = 0
    for row in rows:
        if other != seat:
            for slot in row:
                if slot.__class__ is Card:
                    return True
        other += 1  # noqa: SIM113 (enumerate builds a tuple per row)
    return False


def _end_turn(
    s: GameState,
    rows: Rows,
    discard: tuple[Card, ...],
    pile_size: int,
    pile: tuple[int, ...] | None,
    unseen: tuple[int, ...],
    skips: tuple[bool, ...],
    log: Log,
) -> GameState:
    """End the turn of ``s.seat``: pass to the left, skip the turns of seats with a Skip waiting, open the next."""
    players = len(rows)
    seat = s.seat + 1  # TM5: play passes to the left, seat numbers increasing, wrapping round
    if seat == players:
        seat = 0
    # TM16: a seat with a Skip waiting does nothing this turn; its Skip goes onto the discard pile. The seat
    # that just played has none (only opponents give Skips), so this stops.
    while skips[seat]:
        skips = _with_skip(skips, seat, False)
        discard = discard + (_SKIP,)  # noqa: RUF005
        if log is not None:
            log.append(Skipped(seat))
        seat += 1
        if seat == players:
            seat = 0
    if discard:
        # TM6: the turn offers a choice when the discard top is a number not face up in the player's row (a
        # number too high for the row included: 001 allows it, where TM6's ruling would not).
        top = discard[-1]
        number: int = top  # native when compiled, as in _play
        row = rows[seat]
        if number <= _HIGHEST and (number > len(row) or row[number - 1] is not top):
            return _make(
                s.ruleset, s.round, s.round_first, seat, _START, rows, None, discard, pile_size, pile, unseen, skips
            )
    # TM18: drawing from the pile is the only way to begin, so the engine draws.
    if pile_size == 0:
        pile, pile_size, discard = _reshuffle(discard, log)
    return _make(s.ruleset, s.round, s.round_first, seat, _DRAW, rows, None, discard, pile_size, pile, unseen, skips)


def _reshuffle(discard: tuple[Card, ...], log: Log) -> tuple[tuple[int, ...], int, tuple[Card, ...]]:
    # TM20: the whole discard pile becomes the draw pile; its cards are known, their order is not (TM19).
    if log is not None:
        log.append(Reshuffled(len(discard)))
    return _counts(discard), len(discard), ()


def _won(
    s: GameState,
    rows: Rows,
    hand: Card | None,
    discard: tuple[Card, ...],
    pile_size: int,
    pile: tuple[int, ...] | None,
    unseen: tuple[int, ...],
    skips: tuple[bool, ...],
    log: Log,
) -> GameState:
    """The seat to move has turned its last card face up (TM21): the game is won, or the next round is dealt.

    ``hand`` is the card just picked up, if known; it is not played (TM21). One picked up unseen stays in
    the pool of cards never seen.
    """
    seat = s.seat
    ruleset = s.ruleset
    if len(rows[seat]) == 1:
        # TM23: completing a one-card row, by any legal means, wins the game.
        if log is not None:
            log.append(GameWon(seat))
        return _make(ruleset, s.round, s.round_first, seat, _OVER, rows, hand, discard, pile_size, pile, unseen, skips)
    # TM22: all the cards are shuffled and new rows dealt, the winner's one card shorter; TM5: the next round
    # begins with the seat to the left of this round's first. Skips waiting are cancelled by the shuffle.
    players = len(rows)
    sizes = [len(row) for row in rows]
    sizes[seat] -= 1
    first = s.round_first + 1
    if first == players:
        first = 0
    if log is not None:
        log.append(RoundWon(seat, s.round))
        log.append(RoundStarted(s.round + 1, first, tuple(sizes)))
    # The discard pile is empty, so the new round begins with a draw (TM6, TM18).
    return _make(
        ruleset,
        s.round + 1,
        first,
        first,
        _DRAW,
        tuple([fresh_row(size) for size in sizes]),
        None,
        (),
        ruleset.total_cards - sum(sizes),
        None,
        ruleset.counts,
        (False,) * players,
    )


# -- the actions -------------------------------------------------------------------------------------------


def _wrong_phase(state: GameState, action: object) -> IllegalActionError:
    # The refusal path only: what the phase asks for, in the player's words, after the card the action needs
    # when the player does not hold it ("you hold no Skip").
    rule, words = _PHASE_HINTS[state.phase]
    missing = _NOT_HELD.get(action.__class__) if state.phase in _CHOICES else None
    if missing is not None:
        return _illegal(state, action, f"{rule}: {missing}; {words}")
    return _illegal(state, action, f"{rule}: {words}")


_PHASE_HINTS: Final = {
    Phase.START: ("TM6", "your turn begins with a draw from the pile or the discard top"),
    Phase.DRAW: ("TM6, TM18", "the turn began with a draw from the pile, and the card drawn is revealed next"),
    Phase.CHOSEN_DRAW: ("TM6", "a card was drawn from the pile, and it is revealed next"),
    Phase.TURN_UP: ("TM7, TM19", "the card picked up from the row is revealed next"),
    Phase.WILD: ("TM11", "the wild in your hand must be placed first, on a face-down position of your row"),
    Phase.BONUS: ("TM12", "first take the wild bonus or decline it"),
    Phase.RACCOON: ("TM14", "first choose the number the raccoon takes from the discard pile, or none"),
    Phase.DISTURB: ("TM15", "first choose the opponent's card the Do Not Disturb turns down, or none"),
    Phase.SKIP: ("TM16", "first choose the opponent who gets the Skip, or nobody"),
    Phase.OVER: ("TM23", "the game is over"),
}
"""What each phase asks for, as (the rules, the words): the reason an action of another phase is refused."""

_CHOICES: Final = frozenset({Phase.START, Phase.WILD, Phase.BONUS, Phase.RACCOON, Phase.DISTURB, Phase.SKIP})
_NOT_HELD: Final[dict[type, str]] = {
    PlaceWild: "you hold no wild to place",
    TakeBonus: "no wild bonus is offered",
    RaccoonTake: "no raccoon is being played",
    TurnDown: "you hold no Do Not Disturb",
    GiveSkip: "you hold no Skip",
}
"""Why an action that plays a card cannot be played outside its phase: the card is not in hand."""


def _apply_reveal(s: GameState, action: Reveal, log: Log) -> GameState:
    # Chance's outcome, checked against its pool (TM19, TM20), then played. The engine's most frequent action:
    # one function, no call between the check and the play.
    card = action.card
    value: int = card  # native when compiled, as in _play
    index = value - 1
    phase = s.phase
    if phase is _TURN_UP:
        unseen = s.unseen
        if not unseen[index]:
            raise _illegal(s, action, f"TM19: no {card.label} is left among the cards never seen")
        counts = list(unseen)
        counts[index] -= 1
        if log is not None:
            log.append(Uncovered(s.seat, card))
        return _play(s, s.rows, card, s.discard, s.pile_size, s.pile, tuple(counts), s.skips, log)
    if phase is not _DRAW and phase is not _CHOSEN_DRAW:
        raise _illegal(s, action, f"TM19: no card is being revealed now; {_PHASE_HINTS[phase][1]}")
    pile = s.pile
    unseen = s.unseen
    if pile is None:
        # TM19: before the round's first reshuffle the draw pile is part of the pool never seen.
        if not unseen[index]:
            raise _illegal(s, action, f"TM19: no {card.label} is left among the cards never seen")
        counts = list(unseen)
        counts[index] -= 1
        unseen = tuple(counts)
    else:
        # TM20: after a reshuffle the draw pile holds the cards discarded before it.
        if not pile[index]:
            raise _illegal(s, action, f"TM20: the draw pile holds no {card.label}")
        counts = list(pile)
        counts[index] -= 1
        pile = tuple(counts)
    if log is not None:
        log.append(Drew(s.seat, card))
    return _play(s, s.rows, card, s.discard, s.pile_size - 1, pile, unseen, s.skips, log)


def _apply_draw(s: GameState, action: Draw, log: Log) -> GameState:
    if s.phase is not _START:
        raise _wrong_phase(s, action)
    pile = s.pile
    pile_size = s.pile_size
    discard = s.discard
    if pile_size == 0:
        # TM20: drawing from the empty pile reshuffles the whole discard pile, its top included.
        pile, pile_size, discard = _reshuffle(discard, log)
    return _make(s.ruleset, s.round, s.round_first, s.seat, _CHOSEN_DRAW, s.rows, None, discard, pile_size, pile,
                 s.unseen, s.skips)  # fmt: skip


def _apply_take_discard(s: GameState, action: TakeDiscard, log: Log) -> GameState:
    if s.phase is not _START:
        if s.phase is _DRAW:
            raise _illegal(s, action, _why_no_take(s))
        raise _wrong_phase(s, action)
    discard = s.discard
    card = discard[-1]
    if log is not None:
        log.append(TookDiscard(s.seat, card))
    return _play(s, s.rows, card, discard[:-1], s.pile_size, s.pile, s.unseen, s.skips, log)


def _why_no_take(s: GameState) -> str:
    # Why the turn began with a draw: the discard top could not be taken (TM6 and its ruling).
    if not s.discard:
        return "TM6: the discard pile is empty, so the turn began with a draw"
    top = s.discard[-1]
    if not top.is_number:
        return f"TM6: the discard top is a {top.label}: special cards are never taken from the discard pile"
    return f"TM6: the discard top, a {top.label}, already shows at position {top.label} of the row"


def _apply_place_wild(s: GameState, action: PlaceWild, log: Log) -> GameState:
    if s.phase is not _WILD_PHASE:
        raise _wrong_phase(s, action)
    seat = s.seat
    row = s.rows[seat]
    position = action.position
    if position > len(row):
        raise _illegal(s, action, f"TM11: your row has positions 1 to {len(row)}")
    slot = row[position - 1]
    if slot.__class__ is Card:
        raise _illegal(s, action, f"TM11: position {position} is face up; a wild goes on a face-down position")
    rows = _with_row(s.rows, seat, _with_slot(row, position - 1, _WILD))
    if log is not None:
        log.append(WildPlaced(seat, position))
    # Not the last face-down position: with one, the engine placed the wild itself (TM18).
    if slot is None:
        return _make(s.ruleset, s.round, s.round_first, seat, _TURN_UP, rows, None, s.discard, s.pile_size, s.pile,
                     s.unseen, s.skips)  # fmt: skip
    card = slot.card  # type: ignore[union-attr]
    if log is not None:
        log.append(Uncovered(seat, card))
    return _play(s, rows, card, s.discard, s.pile_size, s.pile, s.unseen, s.skips, log)


def _apply_take_bonus(s: GameState, action: TakeBonus, log: Log) -> GameState:
    if s.phase is not _BONUS:
        raise _wrong_phase(s, action)
    seat = s.seat
    card: Card = s.hand  # type: ignore[assignment]
    # TM12: the number takes the wild's place, and the wild comes back into hand to be placed again (TM11).
    row = _with_slot(s.rows[seat], card - 1, card)
    rows = _with_row(s.rows, seat, row)
    if log is not None:
        log.append(BonusTaken(seat, card))
    # The swap leaves the face-down positions as they were, at least one (else the round was won): the wild
    # goes on one of them.
    return _play(s, rows, _WILD, s.discard, s.pile_size, s.pile, s.unseen, s.skips, log)


def _apply_decline(s: GameState, action: Decline, log: Log) -> GameState:
    phase = s.phase
    discard = s.discard
    if phase is _RACCOON_PHASE:
        # TM14: the raccoon takes nothing, and the turn ends.
        if log is not None:
            log.append(RaccoonTook(s.seat, None))
        return _end_turn(s, s.rows, discard, s.pile_size, s.pile, s.unseen, s.skips, log)
    if phase is _BONUS or phase is _DISTURB or phase is _SKIP_PHASE:
        # TM12: the number declined is discarded; TM15, TM16: the card is discarded with no effect.
        card: Card = s.hand  # type: ignore[assignment]
        if log is not None:
            log.append(Discarded(s.seat, card, Reason.DECLINED))
        return _end_turn(s, s.rows, discard + (card,), s.pile_size, s.pile, s.unseen, s.skips, log)  # noqa: RUF005
    raise _illegal(s, action, f"TM18: nothing is offered to decline now; {_PHASE_HINTS[phase][1]}")


def _apply_raccoon_take(s: GameState, action: RaccoonTake, log: Log) -> GameState:
    if s.phase is not _RACCOON_PHASE:
        raise _wrong_phase(s, action)
    seat = s.seat
    card = action.card
    row = s.rows[seat]
    if card > len(row):
        raise _illegal(s, action, f"TM14: a {card.label} is too high for your row of {len(row)}")
    if row[card - 1].__class__ is Card:
        raise _illegal(
            s, action, f"TM14: position {card.label} of your row is face up; the raccoon takes only for a face-down one"
        )
    discard = s.discard
    at = len(discard) - 2  # below the raccoon on top
    while at >= 0 and discard[at] is not card:
        at -= 1
    if at < 0:
        raise _illegal(s, action, f"TM14: there is no {card.label} in the discard pile below the raccoon")
    # TME3: the one nearest the top is taken; the others keep their order (TM14).
    if log is not None:
        log.append(RaccoonTook(seat, card))
    rest = discard[:at] + discard[at + 1 :]
    return _play(s, s.rows, card, rest, s.pile_size, s.pile, s.unseen, s.skips, log)


def _opponent(s: GameState, action: TurnDown | GiveSkip, rule: str, what: str) -> int:
    target = action.seat
    if target == s.seat:
        raise _illegal(s, action, f"{rule}: {what} goes to an opponent, not to yourself")
    if target >= len(s.rows):
        raise _illegal(s, action, f"TM2: there is no seat {target}; this game's seats are 0 to {len(s.rows) - 1}")
    return target


def _apply_turn_down(s: GameState, action: TurnDown, log: Log) -> GameState:
    if s.phase is not _DISTURB:
        raise _wrong_phase(s, action)
    target = _opponent(s, action, "TM15", "the Do Not Disturb's effect")
    row = s.rows[target]
    position = action.position
    if position > len(row):
        raise _illegal(s, action, f"TM15: seat {target}'s row has positions 1 to {len(row)}")
    card = row[position - 1]
    if card.__class__ is not Card:
        raise _illegal(s, action, f"TM15: seat {target}'s position {position} is face down already")
    turned: Card = card
    # TM15: the card is turned face down in its place, and everybody knows what it is.
    rows = _with_row(s.rows, target, _with_slot(row, position - 1, face_down(turned)))
    if log is not None:
        log.append(TurnedDown(s.seat, target, position, turned))
        log.append(Discarded(s.seat, _DND, Reason.PLAYED))
    return _end_turn(s, rows, s.discard + (_DND,), s.pile_size, s.pile, s.unseen, s.skips, log)  # noqa: RUF005


def _apply_give_skip(s: GameState, action: GiveSkip, log: Log) -> GameState:
    if s.phase is not _SKIP_PHASE:
        raise _wrong_phase(s, action)
    target = _opponent(s, action, "TM16", "the Skip")
    if s.skips[target]:
        raise _illegal(s, action, f"TM17: seat {target} already has a Skip waiting")
    if log is not None:
        log.append(SkipGiven(s.seat, target))
    # TM16: giving the Skip away ends the turn.
    return _end_turn(s, s.rows, s.discard, s.pile_size, s.pile, s.unseen, _with_skip(s.skips, target, True), log)


def _apply(state: object, action: object, log: Log) -> GameState:
    # Both typed object: compiled, a declared type would be enforced on entry with a bare TypeError, where an
    # IllegalActionError is promised. Dispatch on the exact class, most frequent first.
    kind = action.__class__
    if state.__class__ is GameState:
        if kind is Reveal:
            return _apply_reveal(state, action, log)  # type: ignore[arg-type]
        if kind is Draw:
            return _apply_draw(state, action, log)  # type: ignore[arg-type]
        if kind is TakeDiscard:
            return _apply_take_discard(state, action, log)  # type: ignore[arg-type]
        if kind is PlaceWild:
            return _apply_place_wild(state, action, log)  # type: ignore[arg-type]
        if kind is Decline:
            return _apply_decline(state, action, log)  # type: ignore[arg-type]
        if kind is TakeBonus:
            return _apply_take_bonus(state, action, log)  # type: ignore[arg-type]
        if kind is RaccoonTake:
            return _apply_raccoon_take(state, action, log)  # type: ignore[arg-type]
        if kind is TurnDown:
            return _apply_turn_down(state, action, log)  # type: ignore[arg-type]
        if kind is GiveSkip:
            return _apply_give_skip(state, action, log)  # type: ignore[arg-type]
    raise _not_applicable(state, action)


def _not_applicable(state: object, action: object) -> IllegalActionError:
    if action.__class__ not in ACTION_KINDS:
        return _illegal(state, action, f"{action!r} is not an action of Too Many Monkeys")
    return _illegal(state, action, _not_ours(state))


_GAMES_BY_PACKAGE: Final = {"cheekymonkey.toomany": "Too Many Monkeys", "cheekymonkey.cheeky": "Cheeky Monkey"}


def _not_ours(value: object) -> str:
    # Only on the failure branch: a state of another game is named by its game, in a few words, never dumped
    # whole (it runs to hundreds of characters); anything else is shown short.
    kind = value.__class__
    game = _GAMES_BY_PACKAGE.get(kind.__module__.rpartition(".")[0])
    if kind.__name__ == "GameState" and game is not None:
        return f"this is a {game} GameState, not a Too Many Monkeys one: play it with the {game} engine"
    return f"{reprlib.repr(value)} is not a Too Many Monkeys GameState"


def _no_state(value: object) -> InvalidStateError:
    # TME8: a question asked of something that is not a state gets the typed error, never an AttributeError from
    # inside. Shown short, as the value may be huge.
    return InvalidStateError(f"TME8: {_not_ours(value)}")


def apply(state: object, action: object) -> GameState:
    """Return the state after ``action``, with every move the rules then make by themselves (TM18).

    ``state`` itself is never changed (TME9). The result is the next state where a player decides, chance
    acts, or the game is over. The engine counts no turns and sets no limit on them (TM26): a driver that
    needs one keeps it, and reports a game cut off as truncated.

    Args:
        state: The state to act on, a :class:`~cheekymonkey.toomany.GameState`.
        action: A player's decision, or chance's :class:`~cheekymonkey.toomany.Reveal` at a chance node.

    Returns:
        The next state.

    Raises:
        IllegalActionError: If the rules do not allow ``action`` now, or it is not an action at all; its
            ``reason`` names the rule, for example ``"TM17: seat 2 already has a Skip waiting"`` (TME8).

    >>> from cheekymonkey.toomany import Card, new_game
    >>> apply(new_game(2), Reveal(Card.WILD)).phase
    Phase.WILD
    """
    # _apply's dispatch, without its event log: apply is called more than anything else in the engine, and
    # one call less is a tenth of a reveal's cost in pure Python.
    kind = action.__class__
    if state.__class__ is GameState:
        if kind is Reveal:
            return _apply_reveal(state, action, None)  # type: ignore[arg-type]
        if kind is Draw:
            return _apply_draw(state, action, None)  # type: ignore[arg-type]
        if kind is TakeDiscard:
            return _apply_take_discard(state, action, None)  # type: ignore[arg-type]
        if kind is PlaceWild:
            return _apply_place_wild(state, action, None)  # type: ignore[arg-type]
        if kind is Decline:
            return _apply_decline(state, action, None)  # type: ignore[arg-type]
        if kind is TakeBonus:
            return _apply_take_bonus(state, action, None)  # type: ignore[arg-type]
        if kind is RaccoonTake:
            return _apply_raccoon_take(state, action, None)  # type: ignore[arg-type]
        if kind is TurnDown:
            return _apply_turn_down(state, action, None)  # type: ignore[arg-type]
        if kind is GiveSkip:
            return _apply_give_skip(state, action, None)  # type: ignore[arg-type]
    raise _not_applicable(state, action)


def apply_with_events(state: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, and also say what happened, every step in order.

    A :class:`~cheekymonkey.toomany.Draw` says only :class:`~cheekymonkey.toomany.Reshuffled`, if the pile
    was empty: the card is not known until chance's :class:`~cheekymonkey.toomany.Reveal`, which says
    :class:`~cheekymonkey.toomany.Drew`.

    Raises:
        IllegalActionError: As :func:`apply` does.
    """
    log: list[Event] = []
    after = _apply(state, action, log)
    return after, tuple(log)


def apply_all(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply ``actions`` in turn.

    Raises:
        IllegalActionError: For the first action that is illegal where it falls (its ``state`` is where).
    """
    return _apply_all_checked(state, actions)


def _apply_all_checked(state: object, actions: Iterable[object]) -> GameState:
    # apply_all on a state typed object: compiled, a GameState parameter would refuse anything else with a
    # bare TypeError, where an IllegalActionError is promised; the compiled twin comes here. TME8: a state that
    # is not one, or actions that cannot be iterated, are refused even when there is no action to apply.
    if state.__class__ is not GameState:
        raise _illegal(state, actions, _not_ours(state))
    try:
        steps = iter(actions)
    except TypeError:
        raise _illegal(
            state, actions, f"TME8: the actions must be an iterable of actions, got {reprlib.repr(actions)}"
        ) from None
    for action in steps:
        state = _apply(state, action, None)
    return state


def illegal_reason(state: GameState, action: Action) -> str | None:
    """Why the rules refuse ``action`` in ``state``, or None if they allow it.

    The reason is the one :func:`apply` gives in its :class:`~cheekymonkey.IllegalActionError`, naming the
    clause first (TME8), in the player's words: a front end that refuses a move says it (the notation's
    :class:`~cheekymonkey.ActionTextError` does). It is worked out only when asked, by trying the action, so
    :func:`apply` and :func:`legal_actions` pay nothing for it.

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.toomany.GameState` (TME8).

    >>> from cheekymonkey.toomany import Card, Draw, GiveSkip, Reveal, apply_all, new_game
    >>> state = apply_all(new_game(3), [Reveal(Card.SKIP), GiveSkip(2), Reveal(Card.SKIP)])
    >>> illegal_reason(state, GiveSkip(2)), illegal_reason(state, GiveSkip(0))
    ('TM17: seat 2 already has a Skip waiting', None)
    >>> illegal_reason(apply_all(new_game(2), [Reveal(Card.WILD)]), Draw())
    'TM11: the wild in your hand must be placed first, on a face-down position of your row'
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    try:
        _apply(state, action, None)
    except IllegalActionError as error:
        return error.reason
    return None


# -- what may be done ---------------------------------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the rules allow in ``state``, and nothing else, in a fixed order.

    At a chance node: one :class:`~cheekymonkey.toomany.Reveal` per kind of card that can come, in card order.
    At the turn's start: Draw, then TakeDiscard. Placing a wild: one PlaceWild per face-down position, left
    to right. The bonus: TakeBonus, then Decline. The raccoon: one RaccoonTake per number it can take,
    ascending, then Decline. The Do Not Disturb: one TurnDown per face-up card of each opponent, by seat then
    position, then Decline. The Skip: one GiveSkip per opponent without one waiting, by seat, then Decline.
    At the end: nothing. A choice the rules leave no alternative to is never asked (TM18). This order is the
    engine's own ruling (TME2).

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.toomany.GameState` (TME8).

    >>> from cheekymonkey.toomany import new_game
    >>> legal_actions(new_game(2))[:3]
    (Reveal(Card.ONE), Reveal(Card.TWO), Reveal(Card.THREE))
    """
    # TME8 at no cost to a state: the turn's start, the most frequent decision, comes first, with the class
    # checked in place of the three phases it skips; anything else with no phase or no seat (a table view has
    # none) raises inside and gets the typed error; and the end, where another game's state arrives, checks the
    # class again.
    try:
        phase = state.phase
        if phase is _START and state.__class__ is GameState:
            return _START_ACTIONS
        seat = state.seat
    except Exception:
        raise _no_state(state) from None
    if phase is _TURN_UP:
        return tuple(compress(REVEALS, state.unseen))
    if phase is _DRAW or phase is _CHOSEN_DRAW:
        pile = state.pile
        return tuple(compress(REVEALS, state.unseen if pile is None else pile))
    if phase is _WILD_PHASE:
        row = state.rows[seat]
        return tuple([PLACE_WILDS[index] for index in range(len(row)) if row[index].__class__ is not Card])
    if phase is _BONUS:
        return _BONUS_ACTIONS
    if phase is _RACCOON_PHASE:
        choices = raccoon_choices(state.rows[seat], state.discard[:-1])
        return (*[RACCOON_TAKES[card - 1] for card in choices], DECLINE)
    if phase is _DISTURB:
        targets: list[Action] = []
        other = 0
        for row in state.rows:
            if other != seat:
                downs = TURN_DOWNS[other]
                targets.extend([downs[index] for index in range(len(row)) if row[index].__class__ is Card])
            other += 1  # noqa: SIM113 (enumerate builds a tuple per row)
        targets.append(DECLINE)
        return tuple(targets)
    if phase is _SKIP_PHASE:
        skips = state.skips
        return (*[GIVE_SKIPS[other] for other in range(len(skips)) if other != seat and not skips[other]], DECLINE)
    if state.__class__ is not GameState:
        raise _no_state(state)  # another game's state: its phase is none of the above
    return ()


_START_ACTIONS: Final[tuple[Action, ...]] = (DRAW, TAKE_DISCARD)
_BONUS_ACTIONS: Final[tuple[Action, ...]] = (TAKE_BONUS, DECLINE)


# The questions below check the state's class first (TME8): reading the phase alone, another game's state would
# get an answer, wrong, where it should get the typed error.


def is_chance_node(state: GameState) -> bool:
    """Whether chance acts next: a card drawn or picked up is being revealed (TM19).

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.toomany.GameState` (TME8), as every
            question below.
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    phase = state.phase
    return phase is _DRAW or phase is _CHOSEN_DRAW or phase is _TURN_UP


def is_terminal(state: GameState) -> bool:
    """Whether the game is over: a seat completed a one-card row (TM23)."""
    if state.__class__ is not GameState:
        raise _no_state(state)
    return state.phase is _OVER


def current_player(state: GameState) -> int | None:
    """The seat that decides next, or None at a chance node or after the end."""
    if state.__class__ is not GameState:
        raise _no_state(state)
    phase = state.phase
    if phase is _DRAW or phase is _CHOSEN_DRAW or phase is _TURN_UP or phase is _OVER:
        return None
    return state.seat


def chance_pool(state: GameState) -> tuple[int, ...]:
    """The cards chance draws from now, one count per Card (TM19, TM20; chance as an action, TME10).

    A card drawn from the pile comes from the pile's known cards after a reshuffle, and before it from the
    pool of cards never seen (the draw pile and the unseen row cards are one pool then). A card picked up
    from the row comes from the pool of cards never seen.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.toomany.GameState` (TME8).
    """
    if state.__class__ is not GameState:
        raise _no_state(state)  # TME8; a table view too, which has the pool (nothing is hidden, TM19)
    phase = state.phase
    if phase is _TURN_UP:
        return state.unseen
    if phase is _DRAW or phase is _CHOSEN_DRAW:
        pile = state.pile
        return state.unseen if pile is None else pile
    raise NotAChanceNodeError(f"no card is being revealed in phase {phase.name}")


def chance_outcomes(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
    """The cards chance can reveal now, each with its exact probability: each card of the pool equally likely (TME10).

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.

    >>> from cheekymonkey.toomany import new_game
    >>> chance_outcomes(new_game(2))[6]
    (Reveal(Card.WILD), Fraction(4, 55))
    """
    pool = chance_pool(state)
    total = sum(pool)
    return tuple((REVEALS[index], Fraction(count, total)) for index, count in enumerate(pool) if count)


def sample_chance(state: GameState, rng: random.Random) -> Reveal:
    """Chance's outcome drawn with ``rng``, each card of the pool equally likely.

    The pick is ``rng.randrange(n)`` over the pool's n cards counted in card order (TME10), so a seed gives
    the same game on every machine.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.toomany.GameState` (TME8).
        InvalidValueError: If ``rng`` has no ``randrange``, or its ``randrange(n)`` gives anything but an
            integer from 0 to n - 1 (TME8).
    """
    # chance_pool inline: one call less per draw.
    if state.__class__ is not GameState:
        raise _no_state(state)  # TME8, as chance_pool
    phase = state.phase
    if phase is _TURN_UP:
        pool = state.unseen
    elif phase is _DRAW or phase is _CHOSEN_DRAW:
        pile = state.pile
        pool = state.unseen if pile is None else pile
    else:
        raise NotAChanceNodeError(f"no card is being revealed in phase {phase.name}")
    return REVEALS[_pick(pool, rng)]


def resolve_chance(state: GameState, rng: random.Random) -> GameState:
    """Draw chance's outcome with ``rng`` and return the state after it: ``apply(state, sample_chance(state, rng))``.

    The same card from the same ``rng`` as :func:`sample_chance`, in one call: a simulation's step at a
    chance node.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError, InvalidValueError: As :func:`sample_chance` (TME8).
    """
    return _apply_reveal(state, REVEALS[_pick(chance_pool(state), rng)], None)


def _pick(pool: tuple[int, ...], rng: random.Random) -> int:
    # Each card of the pool equally likely, counted in card order (TME10); _size is compiled a loop on native
    # ints, in pure Python the builtin sum.
    return _pick_from_counts(pool, _size(pool), rng, "TME8")


# --- the compiled build's entry points (cheekymonkey._compiled) ------------------------------------------
# apply and apply_with_events take object already. Compiled, a GameState parameter refuses anything else with a
# bare TypeError before the first line runs, where the typed error is promised (TME8): a caller from Python gets
# these twins, typed object, which check the class and call the typed function natively.


def _legal_actions_checked(state: object) -> tuple[Action, ...]:
    if isinstance(state, GameState):
        return legal_actions(state)
    raise _no_state(state)


def _is_chance_node_checked(state: object) -> bool:
    if isinstance(state, GameState):
        return is_chance_node(state)
    raise _no_state(state)


def _is_terminal_checked(state: object) -> bool:
    if isinstance(state, GameState):
        return is_terminal(state)
    raise _no_state(state)


def _current_player_checked(state: object) -> int | None:
    if isinstance(state, GameState):
        return current_player(state)
    raise _no_state(state)


def _chance_pool_checked(state: object) -> tuple[int, ...]:
    if isinstance(state, GameState):
        return chance_pool(state)
    raise _no_state(state)


def _chance_outcomes_checked(state: object) -> tuple[tuple[Reveal, Fraction], ...]:
    if isinstance(state, GameState):
        return chance_outcomes(state)
    raise _no_state(state)


def _sample_chance_checked(state: object, rng: random.Random) -> Reveal:
    if isinstance(state, GameState):
        return sample_chance(state, rng)
    raise _no_state(state)


def _resolve_chance_checked(state: object, rng: random.Random) -> GameState:
    if isinstance(state, GameState):
        return resolve_chance(state, rng)
    raise _no_state(state)


def _illegal_reason_checked(state: object, action: Action) -> str | None:
    if isinstance(state, GameState):
        return illegal_reason(state, action)
    raise _no_state(state)


_TWINS: Final = {
    "apply_all": _apply_all_checked,
    "chance_outcomes": _chance_outcomes_checked,
    "chance_pool": _chance_pool_checked,
    "current_player": _current_player_checked,
    "illegal_reason": _illegal_reason_checked,
    "is_chance_node": _is_chance_node_checked,
    "is_terminal": _is_terminal_checked,
    "legal_actions": _legal_actions_checked,
    "resolve_chance": _resolve_chance_checked,
    "sample_chance": _sample_chance_checked,
}
"""Each public function taking a state typed GameState, and its twin typed ``object``, met compiled."""

entry_points(globals(), _TWINS)
