"""Small helpers for the rule tests: build exact states through the checked constructor, force draws.

Every state a test starts from is built by :func:`make`, which goes through ``GameState``'s public,
validating constructor, so a test can never start from a state the engine could not be in. Chance is
never sampled here: a test applies ``Reveal(animal)`` itself, so every draw is forced.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence

from cheekymonkey import ANIMALS, Animal, GameState, Phase, Ruleset, apply
from cheekymonkey.cheeky.actions import Action, Draw, Reveal

# One letter per animal, so that a stack reads like the table: (S, E, M) is a Seal under an Elephant
# under a Monkey.
E = Animal.ELEPHANT
S = Animal.SEAL
H = Animal.HIPPO
G = Animal.GIRAFFE
P = Animal.PANDA
K = Animal.KANGAROO
L = Animal.LION
M = Animal.MONKEY

STANDARD = Ruleset.standard()
"""The standard rule set, shared by the tests."""

STANDARD_COUNTS = (3, 4, 5, 6, 7, 8, 9, 10)
"""R1's token counts, Elephant to Monkey, written out (not read from the engine)."""

BUILT_IN_GAMES: tuple[str, ...] = ("cheeky-monkey", "too-many-monkeys")
"""The games this library ships: the tests that range over every installed game hold them to all they offer."""


def held_outside_bag(stacks: Sequence[Sequence[Animal]], front: Sequence[Animal]) -> list[int]:
    """How many tokens of each animal the stacks and the front hold together."""
    held = [0] * len(ANIMALS)
    for stack in stacks:
        for token in stack:
            held[token] += 1
    for token in front:
        held[token] += 1
    return held


def make(
    stacks: Sequence[Sequence[Animal]] = ((), ()),
    front: Sequence[Animal] = (),
    *,
    seat: int = 0,
    phase: Phase | None = None,
    claimable: Animal | None = None,
    swap_open: bool = False,
    ruleset: Ruleset = STANDARD,
    bag: Sequence[int] | None = None,
) -> GameState:
    """Build a state through the public, validating constructor.

    Args:
        stacks: Each seat's stack, bottom to top; their number is the number of players.
        front: The tokens in front of the seat to move, in the order they came.
        seat: The seat to move.
        phase: The phase; by default DECIDE with tokens in front, else CHANCE, or OVER once the bag
            is empty.
        claimable: The animal claims may follow.
        swap_open: Whether the swap is open.
        ruleset: The rules; standard by default.
        bag: The bag's counts; by default every token not in a stack or in front (conservation).

    Returns:
        The state, checked by ``GameState``'s constructor.
    """
    if bag is None:
        held = held_outside_bag(stacks, front)
        bag = [count - held[animal] for animal, count in zip(ANIMALS, ruleset.counts, strict=True)]
    if phase is None:
        phase = Phase.DECIDE if front else (Phase.CHANCE if any(bag) else Phase.OVER)
    return GameState(
        ruleset=ruleset,
        seat=seat,
        phase=phase,
        bag=tuple(bag),
        stacks=tuple(tuple(stack) for stack in stacks),
        front=tuple(front),
        claimable=claimable,
        swap_open=swap_open,
    )


def play(state: GameState, *actions: Action) -> GameState:
    """Apply ``actions`` one at a time and return the last state."""
    for action in actions:
        state = apply(state, action)
    return state


def draws(*animals: Animal) -> tuple[Action, ...]:
    """The actions of a turn's draws from its opening chance node: reveal, then draw and reveal again."""
    actions: list[Action] = []
    for i, animal in enumerate(animals):
        if i:
            actions.append(Draw())
        actions.append(Reveal(animal))
    return tuple(actions)


def frozen(state: GameState) -> bytes:
    """A pickled copy of ``state``, to prove later that nothing changed it."""
    return pickle.dumps(state)


def same_as(state: GameState, snapshot: bytes) -> bool:
    """Whether ``state`` still equals the state ``snapshot`` was taken of, field by field."""
    before = pickle.loads(snapshot)
    assert isinstance(before, GameState)
    return state == before and pickle.dumps(state) == snapshot
