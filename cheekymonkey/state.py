"""The game state: one frozen value holding the bag, the stacks and the turn in progress."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final, cast

import attrs

from cheekymonkey import _gamestate
from cheekymonkey._gamestate import GameState, attrs_view, trusted_state
from cheekymonkey.errors import InvalidGameError, InvalidStateError
from cheekymonkey.rules import ANIMALS, Animal, Ruleset

__all__ = ["GameState", "Phase", "new_game"]


class Phase(enum.IntEnum):
    """Where in a turn the game is. Together with the other fields it says who acts next."""

    CHANCE = 0
    """A draw is being resolved: the next action is a :class:`~cheekymonkey.Reveal` (R5)."""
    DECIDE = 1
    """The player claims, swaps, draws again, stops or secures a herd (R7-R12)."""
    PLACING = 2
    """The player is putting the tokens in front onto the stack, one at a time (R9)."""
    OVER = 3
    """The game has ended (R15)."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    def __bool__(self) -> bool:
        # A phase is a value, never "nothing": Phase.CHANCE is the number 0, but `if phase:` must not skip it.
        return True

    def __str__(self) -> str:
        # A word, the same as in JSON documents: str(Phase.DECIDE) == "decide".
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _fail(reason: str) -> InvalidStateError:
    return InvalidStateError(reason)


def _check_tokens(where: str, tokens: object) -> tuple[Animal, ...]:
    if not isinstance(tokens, tuple):
        raise _fail(f"{where} must be a tuple of animals, got {tokens!r}")
    for token in tokens:
        # Identity with the enum members is what the engine relies on.
        if not isinstance(token, Animal):
            raise _fail(f"{where} holds {token!r}, which is not an Animal")
    return tokens


def check_state(state: GameState) -> None:
    """Check every invariant of a state; raise :class:`~cheekymonkey.InvalidStateError` if one fails (E8)."""
    ruleset = state.ruleset
    if not isinstance(ruleset, Ruleset):
        raise _fail(f"ruleset must be a Ruleset, got {ruleset!r}")
    if not isinstance(state.stacks, tuple):
        raise _fail(f"stacks must be a tuple of stacks, got {state.stacks!r}")
    players = len(state.stacks)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise _fail(f"{players} stacks, but the rule set allows {ruleset.min_players} to {ruleset.max_players} players")
    if isinstance(state.seat, bool) or not isinstance(state.seat, int) or not 0 <= state.seat < players:
        raise _fail(f"seat {state.seat!r} is not one of the {players} seats")
    bag = state.bag
    if not isinstance(bag, tuple) or len(bag) != len(ANIMALS):
        raise _fail(f"bag must be a tuple of {len(ANIMALS)} counts, got {bag!r}")
    for animal, count in zip(ANIMALS, bag, strict=True):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _fail(f"the bag's count of {animal.label} is {count!r}, not a count")
    held = list(bag)
    for i, stack in enumerate(state.stacks):
        for token in _check_tokens(f"seat {i}'s stack", stack):
            held[token] += 1
    front = _check_tokens("front", state.front)
    for token in front:
        held[token] += 1
    for animal in ANIMALS:
        # Token conservation: the bag, the front and the stacks hold exactly the rule set's tokens.
        if held[animal] != ruleset.counts[animal]:
            raise _fail(
                f"{held[animal]} {animal.label} tokens in the game, but the rule set has {ruleset.counts[animal]}"
            )
    check_turn(ruleset, state.phase, any(bag), front, state.claimable, state.swap_open)


def check_turn(
    ruleset: Ruleset, phase: object, bag_full: bool, front: tuple[Animal, ...], claimable: object, swap_open: object
) -> None:
    """Check the turn in progress: the phase, the front, the claims and the swap (E8).

    The part of :func:`check_state` that a table view can check too: it sees the front, whether the bag
    is empty, the claimable animal and the swap, but not the stacks below their tops.

    Raises:
        InvalidStateError: If the turn could not have come about by play.
    """
    if not isinstance(phase, Phase):
        raise _fail(f"phase must be a Phase, got {phase!r}")
    if claimable is not None and not isinstance(claimable, Animal):
        raise _fail(f"claimable must be an Animal or None, got {claimable!r}")
    if not isinstance(swap_open, bool):
        raise _fail(f"swap_open must be True or False, got {swap_open!r}")
    if phase is not Phase.DECIDE and (claimable is not None or swap_open):
        raise _fail(f"claims and swaps are open only while deciding, not in phase {phase.name}")
    if phase is Phase.CHANCE:
        if not bag_full:
            raise _fail("a draw is pending but the bag is empty")
    elif phase is Phase.DECIDE:
        if not front:
            raise _fail("deciding with no token in front: every decision follows a draw")
        if claimable is not None:
            if claimable not in front:
                raise _fail(f"claims follow {claimable.label}, but no {claimable.label} is in front")
            # R7, R6: the animal drawn last did not bust, so none was in front before it; after it come only
            # the tokens claimed from it. So it ends the front, and nothing else follows its first copy.
            first = front.index(claimable)
            if front.count(claimable) != len(front) - first:
                raise _fail(
                    f"R7: claims follow the animal drawn last, and {claimable.label} was not: "
                    f"the front {_tokens(front)} would have bust or ends with another animal"
                )
        elif not ruleset.swap or Animal.MONKEY in front:
            # R12: a decision with no claims open comes only after a swap (R7: every draw opens claims of
            # its animal). The swap took the monkey just drawn away, and a monkey kept from before would
            # have made that one bust (R6), so no monkey is in front.
            raise _fail("R12: no claims are open only after a swap, which leaves no monkey in front")
        # R11: the monkey just drawn may be swapped until a monkey is claimed (a claim adds a second one).
        swappable = ruleset.swap and claimable is Animal.MONKEY and front.count(Animal.MONKEY) == 1
        if swap_open and not swappable:
            raise _fail("a swap is open only right after a monkey was drawn under rules with the swap")
        if swappable and not swap_open:
            raise _fail("R11: a monkey was just drawn and none claimed, so the swap must be open")
        # (That monkey is then last in front: the R7 check above puts the claimable animal last.)
    elif phase is Phase.PLACING:
        if len(set(front)) < 2:
            raise _fail("placing needs two or more different animals in front; fewer are stacked at once")
    elif front or bag_full:
        raise _fail("the game is over only when the bag and the front are empty (R15)")
    # (Deciding and placing need tokens in front, and a pending draw a token in the bag, so a game with the
    # bag and the front empty is over: R15 holds without a check of its own.)


def _tokens(front: tuple[Animal, ...]) -> str:
    return "(" + ", ".join(a.label for a in front) + ")"


# attrs' view of GameState's fields, so that attrs.fields, attrs.evolve, attrs.asdict and cattrs treat it as
# the attrs class it used to be. GameState is a plain class so that mypyc compiles it natively (see
# cheekymonkey._gamestate); the table is made here, where Phase is defined.
attrs_view(
    GameState,
    [
        ("ruleset", Ruleset, attrs.NOTHING),
        ("seat", int, attrs.NOTHING),
        ("phase", Phase, attrs.NOTHING),
        ("bag", tuple[int, ...], attrs.NOTHING),
        ("stacks", tuple[tuple[Animal, ...], ...], attrs.NOTHING),
        ("front", tuple[Animal, ...], attrs.NOTHING),
        ("claimable", Animal | None, None),
        ("swap_open", bool, False),
    ],
)


class _Unfrozen:
    """A state being built by the pure-Python engine: GameState's slots, but assignable.

    Its ``__init__`` fills the slots with plain assignments (the interpreter's fastest way to store into
    an object) and then makes the object a :class:`GameState` by assigning ``__class__``, which Python
    allows between classes with the same slots. The result is an ordinary GameState, frozen like any
    other; building one this way costs about 270 ns, against 450 ns through the slot descriptors.
    Compiled, GameState is a native class and ``make_state`` is the native constructor instead.
    """

    # The same slots as GameState's, in the same order: __class__ assignment needs the same layout.
    __slots__ = ("bag", "claimable", "front", "phase", "ruleset", "seat", "stacks", "swap_open")

    def __init__(
        self,
        ruleset: Ruleset,
        seat: int,
        phase: Phase,
        bag: tuple[int, ...],
        stacks: tuple[tuple[Animal, ...], ...],
        front: tuple[Animal, ...],
        claimable: Animal | None,
        swap_open: bool,
    ) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.phase = phase
        self.bag = bag
        self.stacks = stacks
        self.front = front
        self.claimable = claimable
        self.swap_open = swap_open
        self.__class__ = GameState  # type: ignore[assignment]


# Whether GameState is the native class of the compiled build: it cannot be made by object.__new__ then.
_NATIVE: Final = not str(_gamestate.__file__).endswith((".py", ".pyc"))
make_state: Final[Callable[..., GameState]] = trusted_state if _NATIVE else cast(Callable[..., GameState], _Unfrozen)
"""Build a state without checking it: the engine's fast path, for states it derived itself.

The engine only builds states that follow from a checked state by a legal action, so the invariants hold
by construction; the property tests and the model check confirm it. Pure Python: :class:`_Unfrozen`;
compiled: the native constructor without its checks.
"""


# Rule sets are frozen values, so every game that asks for the standard rules can share one, and
# skip building and checking it again (a simulator starts millions of games).
_STANDARD: Final = Ruleset.standard()


def new_game(players: int, *, ruleset: Ruleset | None = None, first_player: int = 0) -> GameState:
    """Set up a game: every token in the bag, every stack empty, the first draw pending (R4).

    Args:
        players: The number of seats, within the rule set's range (2 to 6 in the standard game, R3).
        ruleset: The rules; the standard game if omitted.
        first_player: The seat that starts (R3: any seat may); play then goes up the seat numbers.

    Returns:
        The starting state, a chance node: the first player's compulsory first draw.

    Raises:
        InvalidGameError: If ``players`` or ``first_player`` is out of range or not an integer.

    >>> state = new_game(3)
    >>> state.phase, state.seat, state.bag_size
    (Phase.CHANCE, 0, 52)
    """
    if ruleset is None:
        ruleset = _STANDARD
    elif not isinstance(ruleset, Ruleset):
        raise InvalidGameError(f"ruleset must be a Ruleset, got {ruleset!r}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidGameError(f"players must be an integer, got {players!r}")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidGameError(
            f"{players} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players} (R3)"
        )
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < players:
        raise InvalidGameError(f"first_player {first_player!r} is not one of seats 0 to {players - 1}")
    return make_state(ruleset, first_player, Phase.CHANCE, ruleset.counts, ((),) * players, (), None, False)
