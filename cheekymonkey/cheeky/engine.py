"""The engine: ``apply``, ``legal_actions``, the chance functions and the bust odds, all pure.

This module is the hot path. States are built with the unchecked constructor, tuples are shared
between a state and the next, and each action is checked against its own rule only, so that a
legal move costs little and an illegal one still raises :class:`IllegalActionError`.
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Iterable, Iterator
from fractions import Fraction
from itertools import compress
from typing import Final

from cheekymonkey._compiled import COMPILED, entry_points
from cheekymonkey._values import count_sum as _size
from cheekymonkey._values import pick_from_counts as _pick_from_counts
from cheekymonkey.cheeky.actions import (
    CLAIMS,
    DRAW,
    HERD,
    PLACES,
    REVEALS,
    STOP,
    SWAPS,
    Action,
    Claim,
    Draw,
    Herd,
    Place,
    Reveal,
    Stop,
    Swap,
)
from cheekymonkey.cheeky.rules import ANIMALS, Animal
from cheekymonkey.cheeky.state import GameState, Phase, all_one_animal, make_state
from cheekymonkey.cheeky.state import trusted_state as _make
from cheekymonkey.errors import IllegalActionError, InvalidStateError, NotAChanceNodeError

__all__ = [
    "apply",
    "apply_all",
    "begins_turn",
    "bust_probability",
    "chance_outcomes",
    "claim_all",
    "current_player",
    "illegal_reason",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "resolve_chance",
    "sample_chance",
    "stop_in_order",
]

_CHANCE: Final = Phase.CHANCE
_DECIDE: Final = Phase.DECIDE
_PLACING: Final = Phase.PLACING
_OVER: Final = Phase.OVER
_MONKEY: Final = Animal.MONKEY
# A bag with no token left: comparing a bag with it is cheaper than calling any(bag).
_EMPTY_BAG: Final = (0,) * len(ANIMALS)


# The engine builds every state it derives through _make, unchecked: each follows from a checked state by a
# legal action (see make_state). Compiled, _make is trusted_state, the native constructor without its
# checks, called directly; in pure Python the name is rebound just below to make_state, which fills the
# slots directly, cheaper there. Compiled calls are bound when the module is compiled, so the rebinding
# does not reach them (cheekymonkey._compiled). A test holds the two to one result.
if not COMPILED:
    globals()["_make"] = make_state


def _illegal(state: object, action: object, reason: str) -> IllegalActionError:
    return IllegalActionError(state, action, reason)


def _wrong_phase(state: GameState, action: object) -> IllegalActionError:
    if state.phase is _CHANCE:
        why = "R5: a draw is being resolved: the next action is the chance outcome, a Reveal"
    elif state.phase is _PLACING:
        why = "R9: you are stopping: put the tokens in front of you on your stack"
    elif state.phase is _OVER:
        why = "R15: the game is over"
    else:
        why = "R8: the draw has been revealed: claim, swap, draw again, stop or secure a herd"
    return _illegal(state, action, why)


def _end_turn(state: GameState, bag: tuple[int, ...], stacks: tuple[tuple[Animal, ...], ...]) -> GameState:
    # R3: play goes up the seat numbers; R4, E1: the next turn opens at a chance node, its compulsory draw.
    seat = state.seat + 1
    if seat == len(stacks):
        seat = 0
    if bag != _EMPTY_BAG:
        return _make(state.ruleset, seat, _CHANCE, bag, stacks, (), None, False)
    # R15: the bag is empty and nothing is in front of anybody.
    return _make(state.ruleset, seat, _OVER, bag, stacks, (), None, False)


def _with_stack(
    stacks: tuple[tuple[Animal, ...], ...], seat: int, stack: tuple[Animal, ...]
) -> tuple[tuple[Animal, ...], ...]:
    # A list round trip is cheaper than concatenating two slices around the new stack.
    changed = list(stacks)
    changed[seat] = stack
    return tuple(changed)


def _apply_draw(state: GameState, action: Draw) -> GameState:
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, action)
    if state.bag == _EMPTY_BAG:
        raise _illegal(state, action, "R8: the bag is empty, so you cannot draw")
    # R7: claims not taken before this decision are lost.
    return _make(state.ruleset, state.seat, _CHANCE, state.bag, state.stacks, state.front, None, False)


def _apply_reveal(state: GameState, action: Reveal) -> GameState:
    if state.phase is not _CHANCE:
        raise _illegal(state, action, "R5: not a chance node: a Reveal only resolves a draw")
    animal = action.animal
    if not state.bag[animal]:
        raise _illegal(state, action, f"R5: no {animal.label} is left in the bag")
    return _reveal(state, animal, animal)


def _reveal(state: GameState, animal: Animal, index: int) -> GameState:
    # The drawn token shows ``animal``, also given as the int ``index``: compiled, an Animal is a Python
    # object to mypyc, and indexing with a plain int is native; in pure Python the two are one object.
    front = state.front
    counts = list(state.bag)
    if animal in front:
        # R6: a duplicate busts; every token in front and the drawn one go back into the bag.
        # R14: that includes a token taken by a swap; the opponent keeps the monkey.
        for token in front:
            at: int = token
            counts[at] += 1
        return _end_turn(state, tuple(counts), state.stacks)
    counts[index] -= 1
    # R11: a monkey that did not bust may be swapped, if the rules have the swap. R13: after a swap no
    # monkey is in front, so a later monkey does not bust and opens claims and the swap again.
    ruleset = state.ruleset
    swap_open = animal is _MONKEY and ruleset.swap
    # Concatenation, not (*front, animal): it builds the tuple directly, at about half the cost.
    front = front + (animal,)  # noqa: RUF005
    return _make(ruleset, state.seat, _DECIDE, tuple(counts), state.stacks, front, animal, swap_open)


def _opponent_top(state: GameState, action: Claim | Swap, rule: str) -> tuple[int, tuple[Animal, ...]]:
    seat = action.seat
    # E5: a seat the game does not have is refused like any other illegal target.
    stacks = state.stacks
    if seat == state.seat:
        raise _illegal(state, action, f"{rule}: you cannot take from your own stack")
    if seat >= len(stacks):
        raise _illegal(state, action, f"R3: there is no seat {seat}; this game's seats are 0 to {len(stacks) - 1}")
    stack = stacks[seat]
    if not stack:
        raise _illegal(state, action, f"{rule}: seat {seat}'s stack is empty")
    return seat, stack


def _apply_claim(state: GameState, action: Claim) -> GameState:
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, action)
    claimable = state.claimable
    if claimable is None:
        raise _illegal(state, action, "R7, R12: nothing can be claimed now (a swap opens no claims)")
    seat, stack = _opponent_top(state, action, "R7")
    if stack[-1] is not claimable:
        raise _illegal(state, action, f"R7: seat {seat}'s top token is not a {claimable.label}, the animal just drawn")
    # R7: the claimed token goes in front; the next one down may be claimed in turn (claims chain).
    # R11: claiming gives up the swap.
    stacks = _with_stack(state.stacks, seat, stack[:-1])
    front = state.front + (claimable,)  # noqa: RUF005 (concatenation is cheaper than unpacking)
    return _make(state.ruleset, state.seat, _DECIDE, state.bag, stacks, front, claimable, False)


def _apply_swap(state: GameState, action: Swap) -> GameState:
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, action)
    if not state.swap_open:
        raise _illegal(state, action, "R11, R12: a swap is open only right after drawing a monkey, before any claim")
    seat, stack = _opponent_top(state, action, "R12")
    taken = stack[-1]
    if taken is _MONKEY:
        raise _illegal(state, action, f"R12: seat {seat}'s top is a monkey; swapping it would change nothing")
    # R12: the monkey goes on top of the opponent's stack, their top comes in front, and no claims open.
    stacks = _with_stack(state.stacks, seat, (*stack[:-1], _MONKEY))
    front = (*state.front[:-1], taken)
    return _make(state.ruleset, state.seat, _DECIDE, state.bag, stacks, front, None, False)


def _apply_stop(state: GameState, action: Stop) -> GameState:
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, action)
    front = state.front
    if all_one_animal(front):
        # R9, E2: with one animal in front every order is the same, so the tokens go on at once.
        seat = state.seat
        return _end_turn(state, state.bag, _with_stack(state.stacks, seat, state.stacks[seat] + front))
    return _make(state.ruleset, state.seat, _PLACING, state.bag, state.stacks, front, None, False)


def _apply_place(state: GameState, action: Place) -> GameState:
    if state.phase is not _PLACING:
        raise _wrong_phase(state, action)
    animal = action.animal
    front = state.front
    try:
        at = front.index(animal)
    except ValueError:
        raise _illegal(state, action, f"R9: no {animal.label} is in front of you to put on your stack") from None
    rest = front[:at] + front[at + 1 :]
    stack = state.stacks[state.seat] + (animal,)
    if all_one_animal(rest):
        # R9, E2: the rest are all one animal, so their order is no choice.
        return _end_turn(state, state.bag, _with_stack(state.stacks, state.seat, stack + rest))
    stacks = _with_stack(state.stacks, state.seat, stack)
    return _make(state.ruleset, state.seat, _PLACING, state.bag, stacks, rest, None, False)


def _apply_herd(state: GameState, action: Herd) -> GameState:
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, action)
    front = state.front
    if not all_one_animal(front):
        raise _illegal(state, action, "R10: a herd needs every token in front of you to show the same animal")
    # R10: the herd goes to the bottom of the stack, and the turn ends.
    seat = state.seat
    return _end_turn(state, state.bag, _with_stack(state.stacks, seat, front + state.stacks[seat]))


def apply(state: GameState, action: Action) -> GameState:
    """Return the state after ``action``; ``state`` itself is never changed.

    Args:
        state: The state to act on; anything but a :class:`~cheekymonkey.GameState` is refused (E9).
        action: A player's move, or a chance outcome (:class:`Reveal`) at a chance node; anything but an
            :data:`~cheekymonkey.cheeky.actions.Action` is refused (E9).

    Returns:
        The next state.

    Raises:
        IllegalActionError: If the rules do not allow ``action`` now, or ``state`` or ``action`` is not
            one at all; its ``reason`` names the rule.

    >>> from cheekymonkey import new_game, Reveal, Animal
    >>> state = apply(new_game(2), Reveal(Animal.SEAL))
    >>> state.front
    (Animal.SEAL,)
    """
    kind = action.__class__
    if state.__class__ is GameState:
        # Dispatch on the exact class, most frequent first (a playout is about 35% Reveal, 20% Draw,
        # 20% Place, 13% Stop, 10% Claim): identity tests beat a dict lookup and a second call.
        if kind is Reveal:
            return _apply_reveal(state, action)  # type: ignore[arg-type]
        if kind is Draw:
            return _apply_draw(state, action)  # type: ignore[arg-type]
        if kind is Place:
            return _apply_place(state, action)  # type: ignore[arg-type]
        if kind is Stop:
            return _apply_stop(state, action)  # type: ignore[arg-type]
        if kind is Claim:
            return _apply_claim(state, action)  # type: ignore[arg-type]
        if kind is Swap:
            return _apply_swap(state, action)  # type: ignore[arg-type]
        if kind is Herd:
            return _apply_herd(state, action)  # type: ignore[arg-type]
    raise _not_applicable(state, action)


def _not_applicable(state: object, action: object) -> IllegalActionError:
    # E9: a value that is not an action, or not a state, gets the typed error, carrying what was given.
    if action.__class__ not in _ACTION_KINDS:
        return _illegal(state, action, f"E9: {action!r} is not an action")
    return _illegal(state, action, f"E9: {_not_ours(state)}")


def _not_a_state(state: object, action: object) -> IllegalActionError:
    return _illegal(state, action, f"E9: {_not_ours(state)}")


_GAMES_BY_PACKAGE: Final = {"cheekymonkey.toomany": "Too Many Monkeys", "cheekymonkey.cheeky": "Cheeky Monkey"}


def _not_ours(value: object) -> str:
    # Only on the failure branch: a state of another game is named by its game, in a few words, never dumped
    # whole (it runs to hundreds of characters); anything else is shown short.
    kind = value.__class__
    game = _GAMES_BY_PACKAGE.get(kind.__module__.rpartition(".")[0])
    if kind.__name__ == "GameState" and game is not None:
        return f"this is a {game} GameState, not a Cheeky Monkey one: play it with the {game} engine"
    return f"{reprlib.repr(value)} is not a GameState"


def _no_state(value: object) -> InvalidStateError:
    # E9: a question asked of something that is not a state gets the typed error, never an AttributeError from
    # inside. Shown short, as the value may be huge.
    said = _not_ours(value)
    if said.endswith(" is not a GameState"):
        said = f"{reprlib.repr(value)} is not a Cheeky Monkey GameState"
    return InvalidStateError(f"E9: {said}")


_ACTION_TYPES: Final = (Draw, Reveal, Claim, Swap, Stop, Place, Herd)
_ACTION_KINDS: Final = frozenset(_ACTION_TYPES)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the rules allow in ``state``, and nothing else, in a fixed order (E3).

    At a chance node: one :class:`Reveal` per animal left in the bag, in animal order. While
    deciding: :class:`Draw` (unless the bag is empty), :class:`Stop`, :class:`Herd` (if every token in
    front shows one animal), then :class:`Claim` and :class:`Swap` by seat number. While placing:
    one :class:`Place` per animal in front, in animal order. At the end: nothing.

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9).

    >>> from cheekymonkey import new_game
    >>> legal_actions(new_game(2))[:2]
    (Reveal(Animal.ELEPHANT), Reveal(Animal.SEAL))
    """
    # E9 at no cost to a state: a value with no phase, or without a field its branch reads (a table view has no
    # bag), raises inside and gets the typed error; what reaches the last branches has its class checked.
    try:
        phase = state.phase
        if phase is _DECIDE:
            front = state.front
            # Draw (unless the bag is empty, R8), Stop, and Herd if every token in front shows one animal (R10).
            head = _HEADS[state.bag != _EMPTY_BAG][all_one_animal(front)]
            claimable = state.claimable
            if claimable is None:
                return head  # no claims (R7, R12), and so no swap either: a swap is open only with a monkey to claim
            me = state.seat
            stacks = state.stacks
            more: list[Action] = []
            # R7: claim any opponent's top that shows the animal just drawn, by seat number. A plain loop
            # with its own counter: a comprehension costs a frame of its own and enumerate a tuple per
            # seat, and this runs after every draw.
            seat = 0
            for stack in stacks:
                if stack and stack[-1] is claimable and seat != me:
                    more.append(CLAIMS[seat])
                seat += 1  # noqa: SIM113 (see above)
            if state.swap_open:
                # R12: swap with any opponent whose stack has a top that is not a monkey.
                seat = 0
                for stack in stacks:
                    if stack and stack[-1] is not _MONKEY and seat != me:
                        more.append(SWAPS[seat])
                    seat += 1  # noqa: SIM113 (as for claims)
            return head + tuple(more) if more else head
        if phase is _CHANCE:
            # R5: one outcome per animal with a token in the bag.
            return tuple(compress(REVEALS, state.bag))
    except Exception:
        if state.__class__ is GameState:
            raise  # an error of the engine's own, shown as it is
        raise _no_state(state) from None
    if state.__class__ is not GameState:
        raise _no_state(state)  # another game's state, or a view: its phase is none of the above
    if phase is _PLACING:
        # R9: one Place per animal in front.
        front = state.front
        return tuple([PLACES[a] for a in ANIMALS if a in front])
    return ()


# The deciding phase's fixed actions, by [bag not empty][all one animal in front].
_HEADS: Final[tuple[tuple[tuple[Action, ...], ...], ...]] = (
    ((STOP,), (STOP, HERD)),
    ((DRAW, STOP), (DRAW, STOP, HERD)),
)


# The questions below check the state's class first (E9): reading the phase alone, another game's state would
# get an answer, wrong, where it should get the typed error.


def is_chance_node(state: GameState) -> bool:
    """Whether the next action is a chance outcome (a draw being resolved).

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9), as every question below.
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    return state.phase is _CHANCE


def is_terminal(state: GameState) -> bool:
    """Whether the game is over: the bag is empty and all tokens are in stacks (R15)."""
    if state.__class__ is not GameState:
        raise _no_state(state)
    return state.phase is _OVER


def current_player(state: GameState) -> int | None:
    """The seat that acts next, or None at a chance node or after the end."""
    if state.__class__ is not GameState:
        raise _no_state(state)
    phase = state.phase
    if phase is _CHANCE or phase is _OVER:
        return None
    return state.seat


def begins_turn(state: GameState) -> bool:
    """Whether ``state`` is the first of a turn: its compulsory first draw is pending, nothing in front yet (R4).

    A turn ends when the next one begins (or the game ends, R15); counting these states counts the turns.

    >>> from cheekymonkey import Animal, Reveal, new_game
    >>> begins_turn(new_game(2)), begins_turn(apply(new_game(2), Reveal(Animal.SEAL)))
    (True, False)
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    return state.phase is _CHANCE and not state.front


def chance_outcomes(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
    """The outcomes of the pending draw with their exact probabilities (R5), summing to 1.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9).

    >>> from cheekymonkey import new_game
    >>> chance_outcomes(new_game(2))[0]
    (Reveal(Animal.ELEPHANT), Fraction(3, 52))
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    if state.phase is not _CHANCE:
        raise NotAChanceNodeError(f"no draw is pending in phase {state.phase.name}")
    bag = state.bag
    total = sum(bag)
    return tuple((REVEALS[a], Fraction(bag[a], total)) for a in ANIMALS if bag[a])


def sample_chance(state: GameState, rng: random.Random) -> Reveal:
    """Draw the pending token at random with ``rng``: each token in the bag equally likely (R5).

    Uses integer weights only (no fractions), so it is cheap enough for simulations: the pick is
    ``rng.randrange(n)`` over the n tokens in the bag, counted in animal order. For a plain
    ``random.Random`` it is computed from ``rng.getrandbits`` directly, with the same result.
    :func:`resolve_chance` draws and applies the token in one call.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9).
        InvalidValueError: If ``rng`` has no ``randrange``, or its ``randrange(n)`` gives anything but an
            integer from 0 to n - 1 (E9).
    """
    return REVEALS[_pick(state, rng)]


def resolve_chance(state: GameState, rng: random.Random) -> GameState:
    """Draw the pending token at random with ``rng`` and return the state after it (R5, R6).

    The same as ``apply(state, sample_chance(state, rng))``, the same token from the same ``rng``, in
    one call: the simulator's step at a chance node.

    Raises:
        NotAChanceNodeError: If ``state`` is not a chance node.
        InvalidStateError, InvalidValueError: As :func:`sample_chance` (E9).

    >>> import random
    >>> from cheekymonkey import new_game
    >>> resolve_chance(new_game(2), random.Random(1)).front
    (Animal.HIPPO,)
    """
    index = _pick(state, rng)
    return _reveal(state, ANIMALS[index], index)


def _pick(state: GameState, rng: random.Random) -> int:
    # The animal of a token drawn at random from the bag (R5), for sample_chance and resolve_chance.
    try:
        # E9 at no cost to a state: what has no phase or no bag (a table view) raises here, and gets the typed error.
        phase = state.phase
        bag = state.bag
    except Exception:
        raise _no_state(state) from None
    if phase is not _CHANCE:
        if state.__class__ is not GameState:
            raise _no_state(state)
        raise NotAChanceNodeError(f"no draw is pending in phase {phase.name}")
    size = _size(bag)
    if size <= 0:  # pragma: no cover - a checked chance node always has a token in the bag
        raise NotAChanceNodeError("no draw is possible: the bag is empty")
    # The pick counts tokens in animal order: it lands on each animal as often as it has tokens (R5).
    return _pick_from_counts(bag, size, rng, "E9")


def apply_all(state: GameState, actions: Iterable[Action]) -> GameState:
    """Apply ``actions`` in turn, all or nothing.

    Raises:
        IllegalActionError: For the first action that is illegal where it falls; the error's
            ``state`` is the state it was applied to. Since states are values, ``state`` is unchanged. Also
            if ``actions`` cannot be iterated (E9).
    """
    for action in _each(state, actions):
        state = apply(state, action)
    return state


def _each(state: object, actions: Iterable[Action]) -> Iterator[Action]:
    # E9: a state that is not one, or actions that cannot be iterated, get the typed error, carrying what was
    # given, even when there are no actions to apply.
    if state.__class__ is not GameState:
        raise _not_a_state(state, actions)
    try:
        return iter(actions)
    except TypeError:
        raise _illegal(
            state, actions, f"E9: the actions must be an iterable of actions, got {reprlib.repr(actions)}"
        ) from None


def illegal_reason(state: GameState, action: Action) -> str | None:
    """Why the rules refuse ``action`` in ``state``, or None if they allow it.

    The reason is the one :func:`apply` gives in its :class:`IllegalActionError`, naming the rule first, in
    the player's words: a front end that refuses a move says it (the notation's
    :class:`~cheekymonkey.ActionTextError` does). It is worked out only when asked, by trying the action, so
    :func:`apply` and :func:`legal_actions` pay nothing for it.

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9).

    >>> from cheekymonkey import Animal, Claim, Reveal, Stop, apply_all, new_game
    >>> state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.LION)])
    >>> illegal_reason(state, Claim(2)), illegal_reason(state, Claim(0))
    ("R7: seat 2's stack is empty", None)
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    try:
        apply(state, action)
    except IllegalActionError as error:
        return error.reason
    return None


def claim_all(state: GameState) -> GameState:
    """Claim every token that can be claimed now, chains included, and return the state after (R7).

    The same state as applying the first :class:`Claim` of :func:`legal_actions` again and again until
    none is left: seat by seat in seat order, each seat's run of the animal just drawn taken whole, top
    first. If nothing can be claimed (no opponent's top shows the animal, or a swap was taken, R12),
    ``state`` itself is returned, and a monkey's swap stays open (R11). Claiming anything gives up the swap.

    Raises:
        IllegalActionError: If the player to move is not deciding (a draw is pending, the player is
            placing, or the game is over), or ``state`` is not a state.

    >>> from cheekymonkey import new_game, Reveal, Draw, Animal
    >>> s = apply_all(new_game(2), [Reveal(Animal.LION), Draw(), Reveal(Animal.SEAL)])
    >>> s = apply_all(stop_in_order(s, [Animal.LION, Animal.SEAL]), [Reveal(Animal.SEAL)])
    >>> claim_all(s).front, claim_all(s).stacks
    ((Animal.SEAL, Animal.SEAL), ((Animal.LION,), ()))
    """
    if state.__class__ is not GameState:
        raise _not_a_state(state, "claim_all")  # E9, for a caller that passed something else
    if state.phase is not _DECIDE:
        raise _wrong_phase(state, "claim_all")
    claimable = state.claimable
    if claimable is None:
        return state  # nothing drawn to claim with, or a swap was taken (R7, R12)
    me = state.seat
    stacks = state.stacks
    changed: list[tuple[Animal, ...]] | None = None
    taken = 0
    seat = 0
    for stack in stacks:
        if seat != me and stack and stack[-1] is claimable:
            # R7: the token below a claimed one is claimable in turn when it shows the same animal.
            end = len(stack) - 1
            while end and stack[end - 1] is claimable:
                end -= 1
            if changed is None:
                changed = list(stacks)
            changed[seat] = stack[:end]
            taken += len(stack) - end
        seat += 1  # noqa: SIM113 (enumerate would build a tuple per seat)
    if changed is None:
        return state
    # R11: a claim gives up the swap; the claimed tokens come in front in the order they were taken.
    front = state.front + (claimable,) * taken
    return _make(state.ruleset, me, _DECIDE, state.bag, tuple(changed), front, claimable, False)


def stop_in_order(state: GameState, order: Iterable[Animal]) -> GameState:
    """Stop and put the tokens in front on the stack in ``order``, bottom first, all or nothing (R9).

    ``order`` lists every token in front, each once, the last one ending on top. It works from
    the deciding phase (it stops first) or from the middle of placing.

    Raises:
        IllegalActionError: If the player cannot stop now, ``order`` is not exactly the tokens in
            front, or ``state`` is not a state (E9).

    >>> from cheekymonkey import new_game, Reveal, Draw, Animal
    >>> s = apply_all(new_game(2), [Reveal(Animal.SEAL), Draw(), Reveal(Animal.LION)])
    >>> stop_in_order(s, [Animal.LION, Animal.SEAL]).stacks[0]
    (Animal.LION, Animal.SEAL)
    """
    tokens = _stop_order(state, order)
    phase = state.phase
    if phase is not _DECIDE and phase is not _PLACING:
        raise _wrong_phase(state, STOP)
    front = state.front
    if tokens != front and sorted(tokens) != sorted(front):
        raise _illegal(state, tokens, f"R9: the order must list exactly the tokens in front, {front!r}")
    # R9: the tokens go on the stack in the order given, bottom first, and the turn ends. This is the
    # state that Stop and one Place per token reach, built once instead of once per step.
    seat = state.seat
    stacks = state.stacks
    return _end_turn(state, state.bag, _with_stack(stacks, seat, stacks[seat] + tokens))


def _stop_order(state: object, order: Iterable[Animal]) -> tuple[Animal, ...]:
    """``order`` as a tuple of animals, once ``state`` is a state; else the typed error (E9, R9)."""
    try:
        tokens = tuple(order)
    except TypeError:
        # E9: wrong input gets a typed error, carrying what was given.
        raise _illegal(state, order, f"R9: the order must be a sequence of animals, got {order!r}") from None
    if state.__class__ is not GameState:
        raise _not_a_state(state, tokens)
    for animal in tokens:
        # An Animal member, not an int that equals one: the stack must hold the enum members.
        if animal.__class__ is not Animal:
            raise _illegal(state, tokens, "R9: the order must be a sequence of animals")
    return tokens


def bust_probability(state: GameState) -> float:
    """The chance that drawing now busts the player to move (R5, R6): the share of the bag that matches the front.

    Args:
        state: A state whose player is deciding (or any state: the front and bag are read as they are).

    Returns:
        A probability from 0 to 1; 0 if the bag is empty (no draw is possible then).

    >>> from cheekymonkey import new_game, apply, Reveal, Animal
    >>> bust_probability(apply(new_game(2), Reveal(Animal.ELEPHANT)))  # 2 elephants left of 51 tokens
    0.0392156862745098

    Raises:
        InvalidStateError: If ``state`` is not a :class:`~cheekymonkey.GameState` (E9).
    """
    if state.__class__ is not GameState:
        raise _no_state(state)
    bag = state.bag
    total = _size(bag)
    if not total:
        return 0.0
    # R6: each animal in front busts once per token of it in the bag; a bit per animal marks those counted.
    busting = 0
    seen = 0
    for token in state.front:
        at: int = token  # compiled, indexing and shifting with an int is native; an Animal is an object there
        bit = 1 << at
        if not seen & bit:
            seen |= bit
            busting += bag[at]
    return busting / total


# --- the compiled build's entry points (cheekymonkey._compiled) ------------------------------------------
# Compiled, a parameter typed GameState refuses anything else with a bare TypeError before the first line
# runs; callers from Python get these twins instead, which check the types and raise as the functions do.


def _apply_checked(state: object, action: object) -> GameState:
    if isinstance(state, GameState) and isinstance(action, _ACTION_TYPES):
        return apply(state, action)
    raise _not_applicable(state, action)


def _claim_all_checked(state: object) -> GameState:
    if isinstance(state, GameState):
        return claim_all(state)
    raise _not_a_state(state, "claim_all")


def _stop_in_order_checked(state: object, order: Iterable[Animal]) -> GameState:
    if isinstance(state, GameState):
        return stop_in_order(state, order)
    _stop_order(state, order)  # raises the error stop_in_order raises
    raise AssertionError("unreachable: the order check refuses anything but a state")  # pragma: no cover


def _apply_all_checked(state: object, actions: Iterable[Action]) -> GameState:
    if isinstance(state, GameState):
        return apply_all(state, actions)
    raise _not_a_state(state, actions)


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


def _begins_turn_checked(state: object) -> bool:
    if isinstance(state, GameState):
        return begins_turn(state)
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


def _bust_probability_checked(state: object) -> float:
    if isinstance(state, GameState):
        return bust_probability(state)
    raise _no_state(state)


def _illegal_reason_checked(state: object, action: Action) -> str | None:
    if isinstance(state, GameState):
        return illegal_reason(state, action)
    raise _no_state(state)


_TWINS: Final = {
    "apply": _apply_checked,
    "apply_all": _apply_all_checked,
    "begins_turn": _begins_turn_checked,
    "bust_probability": _bust_probability_checked,
    "chance_outcomes": _chance_outcomes_checked,
    "claim_all": _claim_all_checked,
    "current_player": _current_player_checked,
    "illegal_reason": _illegal_reason_checked,
    "is_chance_node": _is_chance_node_checked,
    "is_terminal": _is_terminal_checked,
    "legal_actions": _legal_actions_checked,
    "resolve_chance": _resolve_chance_checked,
    "sample_chance": _sample_chance_checked,
    "stop_in_order": _stop_in_order_checked,
}
"""Each public function taking a state, and its twin typed ``object`` that a caller from Python meets compiled."""

entry_points(globals(), _TWINS)
