"""The position value the expectimax bot plays by: an estimate of a seat's chance to win the game.

A race model, read off what every seat sees (TM19). Each seat still needs the positions of its row that
are not face up. A card makes progress when it is a number whose position does not show it, or a wild;
the share ``q`` of such cards among the cards not seen is the chance that the next card continues the
chain, so a turn makes about ``q / (1 - q)`` progress, and a row needs about ``need (1 - q) / q`` turns.
Each seat's finishing time adds the part of a round it waits for its turn and a turn for a Skip waiting;
a usable discard top is one step of progress for the seat about to take it. The seats' chances to win
the round are a softmax of their finishing times. A round won shortens the winner's row by one (TM22)
and a one-card row completed wins the game (TM23); the game is valued the same way, a softmax of the
rounds each seat still has to win (its row size).

>>> from cheekymonkey.toomany import new_game
>>> round(position_value(new_game(2), 0), 3), round(position_value(new_game(2), 1), 3)
(0.506, 0.494)
"""

from __future__ import annotations

import functools
import math
from typing import Final

from cheekymonkey.toomany.cards import Card, face_down
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["ROUND_SPREAD", "game_values", "position_value"]

ROUND_SPREAD: Final = 7.0
"""How many turns of a seat's finishing time make a factor ``e`` in its chance to win the round."""

_OVER: Final = Phase.OVER
_START: Final = Phase.START
_WILD_INDEX: Final = Card.WILD - 1
_DOWN_WILD: Final = face_down(Card.WILD)
_LEAST_HELP: Final = 0.5
_FEWEST_TURNS: Final = 0.1
_FRESH_ROWS: Final = tuple((None,) * size for size in range(7))


def _turns_needed(row: tuple[object, ...], counts: list[int], total: int, head_start: int) -> float:
    """About how many more turns ``row`` needs, ``head_start`` steps already made, drawing from ``counts``.

    A turn ends on the first card that makes no progress, so the turns are the cards that fail: with ``j``
    positions still needed, a card helps with chance ``u / total`` (``u`` the cards that help: about ``j``
    positions' worth of numbers, the numbers of the row's wilds, and the wilds), and fails ``(total - u) / u``
    times per step on average. A wild turned down by a Do Not Disturb is a step still needed that no number
    of its own helps with: the cards that bring it back up (the number of its position, or another wild)
    helped already while it lay face up.
    """
    steps = -head_start
    positions = 0
    numbers = 0
    fixed = counts[_WILD_INDEX]
    index = 0
    for slot in row:
        if slot.__class__ is not Card:
            steps += 1
            if slot is _DOWN_WILD:
                # TM15, TM12: the number of its position brings the wild back into hand, and the chain goes
                # on with it, as the bonus did while it lay face up.
                fixed += counts[index]
            else:
                positions += 1
                numbers += counts[index]
        elif slot is Card.WILD:
            fixed += counts[index]  # TM12: the bonus puts the number there and places the wild again
        index += 1  # noqa: SIM113 (enumerate builds a tuple per position)
    if steps <= 0:
        return 0.0
    per_position = numbers / positions if positions else 0.0
    turns = 0.0
    for left in range(1, steps + 1):
        helping = (left if left < positions else positions) * per_position + fixed
        if helping < _LEAST_HELP:
            helping = _LEAST_HELP
        turns += (total - helping) / helping if total > helping else _FEWEST_TURNS
    return turns


def _shorter(sizes: tuple[int, ...], winner: int) -> tuple[int, ...]:
    """The row sizes after ``winner`` wins the round (TM22)."""
    changed = list(sizes)
    changed[winner] -= 1
    return tuple(changed)


def _chances(finishes: list[float]) -> list[float]:
    """Each seat's chance to win the round from its finishing time: a softmax, :data:`ROUND_SPREAD` turns wide."""
    least = min(finishes)
    weights = [math.exp((least - finish) / ROUND_SPREAD) for finish in finishes]
    total = sum(weights)
    return [weight / total for weight in weights]


@functools.lru_cache(maxsize=100_000)
def game_values(counts: tuple[int, ...], sizes: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to win the game at the start of a round with rows of ``sizes``, under deck ``counts``.

    Each seat's chance to win the round is estimated from a fresh deal (no card seen, every seat's turn
    about as near); a round won shortens the winner's row (TM22), and a one-card row completed wins the
    game (TM23). Seats with rows of one size are alike, so the race is run once for each set of sizes, in
    order, and its values handed back in the seats' order; both are cached.
    """
    ordered = tuple(sorted(sizes))
    by_size = dict(zip(ordered, _ordered_game_values(counts, ordered), strict=True))
    return tuple(by_size[size] for size in sizes)


@functools.lru_cache(maxsize=10_000)
def _ordered_game_values(counts: tuple[int, ...], sizes: tuple[int, ...]) -> tuple[float, ...]:
    """:func:`game_values` for ``sizes`` in order, smallest first."""
    total = sum(counts)
    fresh = [_turns_needed(_FRESH_ROWS[size], list(counts), total, 0) for size in sizes]
    values = [0.0] * len(sizes)
    for winner, chance in enumerate(_chances(fresh)):
        if sizes[winner] == 1:
            values[winner] += chance
            continue
        after = game_values(counts, _shorter(sizes, winner))
        for seat, value in enumerate(after):
            values[seat] += chance * value
    return tuple(values)


def position_value(state: GameState, seat: int) -> float:
    """An estimate of ``seat``'s chance to win the game from ``state``, between 0 and 1.

    The seats' estimates add up to 1. A finished game is worth 1 to its winner and 0 to the others.

    Args:
        state: Any state of a game.
        seat: The seat whose chance is estimated.
    """
    phase = state.phase
    if phase is _OVER:
        return 1.0 if state.seat == seat else 0.0
    rows = state.rows
    players = len(rows)
    counts = list(state.unseen)
    pile = state.pile
    if pile is not None:
        for index in range(len(counts)):
            counts[index] += pile[index]
    total = sum(counts)
    mover = state.seat
    skips = state.skips
    top = state.discard[-1] if phase is _START else None
    finishes: list[float] = []
    for other in range(players):
        row = rows[other]
        wait = ((other - mover) % players) / players
        if skips[other]:
            wait += 1.0
        # TM6: a discard top the mover can take is a step made.
        taken = 1 if other == mover and top is not None and top <= len(row) and row[top - 1] is not top else 0
        finishes.append(wait + _turns_needed(row, counts, total, taken))
    deck = state.ruleset.counts
    sizes = tuple(len(row) for row in rows)
    value = 0.0
    for winner, chance in enumerate(_chances(finishes)):
        size = sizes[winner]
        if size == 1:
            if winner == seat:
                value += chance  # TM23: the game is won
        else:
            value += chance * game_values(deck, _shorter(sizes, winner))[seat]
    return value
