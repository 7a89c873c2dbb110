"""A small text board for the adapters' ``ansi`` rendering (private: the adapters' own renderer)."""

from __future__ import annotations

from typing import Final

from cheekymonkey.rules import ANIMALS, Animal
from cheekymonkey.state import GameState, Phase

_LETTERS: Final = "eshgpklm"  # one letter per animal, as the command line's prompt uses


def _letters(tokens: tuple[Animal, ...]) -> str:
    return "".join(_LETTERS[token] for token in tokens) or "-"


def board_text(state: GameState) -> str:
    """The table as a few lines of text: the bag, every stack (bottom to top), the front, whose turn.

    Letters stand for the animals: e s h g p k l m (Elephant, Seal, Hippo, Giraffe, Panda, Kangaroo,
    Lion, Monkey).
    """
    bag = " ".join(f"{_LETTERS[a]}{state.bag[a]}" for a in ANIMALS if state.ruleset.counts[a])
    lines = [f"bag {state.bag_size:>2}: {bag}"]
    for seat, stack in enumerate(state.stacks):
        marker = ">" if seat == state.seat and state.phase is not Phase.OVER else " "
        lines.append(f"{marker}seat {seat} [{len(stack):>2}] {_letters(stack)}")
    if state.phase is Phase.OVER:
        lines.append("game over")
    else:
        notes = []
        if state.claimable is not None:
            notes.append(f"claims open on {_LETTERS[state.claimable]}")
        if state.swap_open:
            notes.append("swap open")
        detail = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"front: {_letters(state.front)}{detail}; {state.phase.name.lower()}")
    return "\n".join(lines)
