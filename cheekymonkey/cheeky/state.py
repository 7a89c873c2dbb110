"""The game state: one frozen value holding the bag, the stacks and the turn in progress.

This module is :class:`GameState`'s one home: the class, :class:`Phase`, every check of a state's
invariants, attrs' table of its fields, the engine's unchecked constructor (:data:`make_state`) and
:func:`new_game`.

:class:`GameState` is a plain class with its frozen, validated, value behaviour written by hand, so that
the optional compiled build (:mod:`cheekymonkey._compiled`) compiles it to a native class: reading a field
is one load, building a state one allocation. It stays compatible with attrs' introspection
(``attrs.fields``, ``attrs.evolve``, cattrs) through the field table below. The checks take each field as
``object``: compiled code would convert a value to a declared type (or refuse it with a bare
``TypeError``) before it could be checked, and a wrong type must raise
:class:`~cheekymonkey.InvalidStateError` in both builds.

``print(state)`` draws the table as text. The drawing is display code (:mod:`cheekymonkey.cheeky.board`), which
this module never imports: the package joins the two when it is imported (:func:`show_states_with`).
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from typing import Any, ClassVar, Final, NoReturn, cast

import attrs
from attrs.exceptions import FrozenInstanceError

from cheekymonkey._compiled import COMPILED, entry_points
from cheekymonkey._values import ValueEnum, attrs_view, count_sum
from cheekymonkey.checks import is_whole_number
from cheekymonkey.cheeky.rules import ANIMALS, Animal, Ruleset
from cheekymonkey.errors import InvalidGameError, InvalidStateError

__all__ = ["GameState", "Phase", "new_game"]


class Phase(ValueEnum):
    """Where in a turn the game is. Together with the other fields it says who acts next."""

    CHANCE = 0
    """A draw is being resolved: the next action is a :class:`~cheekymonkey.Reveal` (R5)."""
    DECIDE = 1
    """The player claims, swaps, draws again, stops or secures a herd (R7-R12)."""
    PLACING = 2
    """The player is putting the tokens in front onto the stack, one at a time (R9)."""
    OVER = 3
    """The game has ended (R15)."""


# How str(state) and str(view) draw the table: set by the package (cheekymonkey/__init__.py) to the text
# board of cheekymonkey.cheeky.board, which is display code and so never imported by this module. Empty, a state's
# str is its repr.
_DRAW: Final[list[Callable[[Any], str]]] = []


def show_states_with(draw: Callable[[Any], str]) -> None:
    """Draw states, table views and score sheets with ``draw`` in ``str()`` and ``print()``.

    The package passes the text board for states and views, and the score sheet's text for sheets.

    Args:
        draw: A function of a :class:`GameState`, a :class:`~cheekymonkey.TableView` or a
            :class:`~cheekymonkey.ScoreSheet` to text.
    """
    _DRAW[:] = [draw]


def drawn(value: object) -> str:
    """``value`` (a state, a table view or a score sheet) drawn as text, by what :func:`show_states_with` was given."""
    return _DRAW[0](value) if _DRAW else repr(value)


class GameState:
    """Everything about a game at one moment, as an immutable, hashable, picklable value (E10).

    States are made by :func:`new_game` and :func:`~cheekymonkey.apply`; building one directly (for example
    when loading a saved game) checks every invariant and raises :class:`~cheekymonkey.InvalidStateError`
    if one is broken, a field of the wrong type included.

    Args:
        ruleset: The rules, a :class:`~cheekymonkey.Ruleset`.
        seat: The seat whose turn it is, an ``int``.
        phase: Where in the turn the game is, a :class:`Phase`.
        bag: How many tokens of each animal are in the bag, a tuple of ``int``.
        stacks: Each seat's stack, bottom to top, a tuple of tuples of :class:`~cheekymonkey.Animal`.
        front: The tokens in front of the player to move, a tuple of :class:`~cheekymonkey.Animal`.
        claimable: The animal that may still be claimed, or None.
        swap_open: Whether the monkey just drawn may still be swapped, a ``bool``.

    Raises:
        InvalidStateError: If a field has the wrong type or an invariant is broken (E8).
    """

    # Slots in the pure-Python package; mypyc ignores them and lays the fields out as a C struct.
    __slots__ = ("bag", "claimable", "front", "phase", "ruleset", "seat", "stacks", "swap_open")

    ruleset: Ruleset
    """The rules this game is played under."""
    seat: int
    """The seat whose turn it is (after the end, the seat that would have been next)."""
    phase: Phase
    """Where in the turn the game is."""
    bag: tuple[int, ...]
    """How many tokens of each animal are in the bag, indexed by :class:`~cheekymonkey.Animal`."""
    stacks: tuple[tuple[Animal, ...], ...]
    """Each seat's stack, bottom to top: only the last token is visible at the table (R9)."""
    front: tuple[Animal, ...]
    """The tokens in front of the current player, in the order they came (drawn, claimed, swapped)."""
    claimable: Animal | None
    """The animal that may still be claimed from stack tops (R7), or None (no draw yet, or a swap)."""
    swap_open: bool
    """Whether the monkey just drawn may still be swapped (R11): no claim taken yet."""

    __match_args__: ClassVar = ("ruleset", "seat", "phase", "bag", "stacks", "front", "claimable", "swap_open")
    # attrs' view of the fields (attrs.fields, attrs.evolve, attrs.asdict, cattrs): set below the class.
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def __init__(
        self,
        ruleset: object,
        seat: object,
        phase: object,
        bag: object,
        stacks: object,
        front: object,
        claimable: object = None,
        swap_open: object = False,
        *,
        _trusted: bool = False,
    ) -> None:
        # Typed object, each field checked here (see the module's description). _trusted: the engine's
        # unchecked construction in the compiled build, for a state that follows from a checked state by a
        # legal action (see make_state). Not for other callers.
        if not _trusted:
            # Every field before it is stored: the compiled class would refuse a wrong type with a bare
            # TypeError (or store a bool seat as an int).
            check_fields(ruleset, seat, phase, bag, stacks, front, claimable, swap_open)
        # object.__setattr__: this class's own __setattr__ refuses every assignment (compiled, mypyc turns
        # these calls into plain stores).
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "bag", bag)
        object.__setattr__(self, "stacks", stacks)
        object.__setattr__(self, "front", front)
        object.__setattr__(self, "claimable", claimable)
        object.__setattr__(self, "swap_open", swap_open)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        that: GameState = other
        return (
            self.seat == that.seat
            and self.phase == that.phase
            and self.front == that.front
            and self.bag == that.bag
            and self.stacks == that.stacks
            and self.claimable == that.claimable
            and self.swap_open == that.swap_open
            and (self.ruleset is that.ruleset or self.ruleset == that.ruleset)
        )

    def __hash__(self) -> int:
        return hash(
            (self.ruleset, self.seat, self.phase, self.bag, self.stacks, self.front, self.claimable, self.swap_open)
        )

    def __repr__(self) -> str:
        return (
            f"GameState(ruleset={self.ruleset!r}, seat={self.seat!r}, phase={self.phase!r}, bag={self.bag!r},"
            f" stacks={self.stacks!r}, front={self.front!r}, claimable={self.claimable!r},"
            f" swap_open={self.swap_open!r})"
        )

    def __str__(self) -> str:
        # print(state) shows the table as text; repr stays the call that builds the state.
        return drawn(self)

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        # Pickling and copying rebuild the state through the checking constructor: a tampered pickle is refused.
        return (
            GameState,
            (self.ruleset, self.seat, self.phase, self.bag, self.stacks, self.front, self.claimable, self.swap_open),
        )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.stacks)

    @property
    def bag_size(self) -> int:
        """How many tokens are in the bag."""
        return count_sum(self.bag)


# attrs' view of GameState's fields, so that attrs.fields, attrs.evolve, attrs.asdict and cattrs treat it as
# the attrs class it describes.
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


# --- the invariants --------------------------------------------------------------------------------------


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


def all_one_animal(tokens: tuple[Animal, ...]) -> bool:
    """Whether the tokens (one or more) all show the same animal: a herd (R10), and stacked at once (R9, E2).

    A front of one animal may be secured as a herd at the bottom of the stack (R10); a stop stacks it at
    once, as every placing order is the same (R9, E2), and so does the last Place once the rest is one animal.

    >>> all_one_animal((Animal.SEAL, Animal.SEAL)), all_one_animal((Animal.SEAL, Animal.LION))
    (True, False)
    """
    return tokens.count(tokens[0]) == len(tokens)


def check_fields(
    ruleset: object,
    seat: object,
    phase: object,
    bag: object,
    stacks: object,
    front: object,
    claimable: object,
    swap_open: object,
) -> None:
    """Check every invariant of the state these fields make; raise :class:`~cheekymonkey.InvalidStateError` (E8).

    Each field is checked for its type first, then the tokens are counted (the bag, the front and the stacks
    hold exactly the rule set's tokens) and the turn in progress is checked (:func:`check_turn`).
    """
    if not isinstance(ruleset, Ruleset):
        raise _fail(f"ruleset must be a Ruleset, got {ruleset!r}")
    if not isinstance(stacks, tuple):
        raise _fail(f"stacks must be a tuple of stacks, got {stacks!r}")
    players = len(stacks)
    if not ruleset.allows_players(players):
        raise _fail(f"{players} stacks, but the rule set allows {ruleset.min_players} to {ruleset.max_players} players")
    if not is_whole_number(seat) or not 0 <= seat < players:
        raise _fail(f"seat {seat!r} is not one of the {players} seats")
    if not isinstance(bag, tuple) or len(bag) != len(ANIMALS):
        raise _fail(f"bag must be a tuple of {len(ANIMALS)} counts, got {bag!r}")
    for animal, count in zip(ANIMALS, bag, strict=True):
        if not is_whole_number(count) or count < 0:
            raise _fail(f"the bag's count of {animal.label} is {count!r}, not a count")
    held = list(bag)
    for i, stack in enumerate(stacks):
        for token in _check_tokens(f"seat {i}'s stack", stack):
            held[token] += 1
    tokens = _check_tokens("front", front)
    for token in tokens:
        held[token] += 1
    for animal in ANIMALS:
        # Token conservation: the bag, the front and the stacks hold exactly the rule set's tokens.
        if held[animal] != ruleset.counts[animal]:
            raise _fail(
                f"{held[animal]} {animal.label} tokens in the game, but the rule set has {ruleset.counts[animal]}"
            )
    check_turn(ruleset, phase, any(bag), tokens, claimable, swap_open)


def check_state(state: object) -> None:
    """Check every invariant of a state; raise :class:`~cheekymonkey.InvalidStateError` if one fails (E8).

    Args:
        state: A :class:`GameState`, or any object with its fields; one that lacks a field is not a state at
            all, and is refused the same way (E9).
    """
    values: list[object] = []
    for name in GameState.__match_args__:
        try:
            values.append(getattr(state, name))
        except AttributeError:
            raise _fail(f"E9: {reprlib.repr(state)} is not a Cheeky Monkey GameState: it has no {name}") from None
    check_fields(*values)


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
        if not front or all_one_animal(front):
            raise _fail("placing needs two or more different animals in front; fewer are stacked at once")
    elif front or bag_full:
        raise _fail("the game is over only when the bag and the front are empty (R15)")
    # (Deciding and placing need tokens in front, and a pending draw a token in the bag, so a game with the
    # bag and the front empty is over: R15 holds without a check of its own.)


def _tokens(front: tuple[Animal, ...]) -> str:
    return "(" + ", ".join(a.label for a in front) + ")"


# --- building states without the checks -----------------------------------------------------------------


def trusted_state(
    ruleset: Ruleset,
    seat: int,
    phase: Phase,
    bag: tuple[int, ...],
    stacks: tuple[tuple[Animal, ...], ...],
    front: tuple[Animal, ...],
    claimable: Animal | None,
    swap_open: bool,
) -> GameState:
    """A state built without its checks, for one derived from a checked state by a legal action.

    Compiled, this is one allocation and eight stores, and :data:`make_state` is this. In pure Python,
    filling the slots directly is cheaper, and :data:`make_state` does that.
    """
    return GameState(ruleset, seat, phase, bag, stacks, front, claimable, swap_open, _trusted=True)


def _unfrozen() -> Callable[..., GameState]:
    """The pure-Python :data:`make_state`: a class with GameState's slots whose instances become GameStates.

    Its ``__init__`` fills the slots with plain assignments (the interpreter's fastest way to store into an
    object) and then makes the object a :class:`GameState` by assigning ``__class__``, which Python allows
    between classes with the same slots. The result is an ordinary GameState, frozen like any other;
    building one this way costs about 270 ns, against 450 ns through the slot descriptors. The class is
    made here, at run time, only in pure Python: compiled, GameState is native and has no slots to share.
    """

    def fill(
        self: Any,
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
        self.__class__ = GameState

    # The same slots as GameState's, in the same order: __class__ assignment needs the same layout.
    slots = ("bag", "claimable", "front", "phase", "ruleset", "seat", "stacks", "swap_open")
    return cast(Callable[..., GameState], type("_Unfrozen", (), {"__slots__": slots, "__init__": fill}))


make_state: Final[Callable[..., GameState]] = trusted_state if COMPILED else _unfrozen()
"""Build a state without checking it: the engine's fast path, for states it derived itself.

The engine only builds states that follow from a checked state by a legal action, so the invariants hold
by construction; the property tests and the model check confirm it. Pure Python: a class sharing
GameState's slots; compiled: the native constructor without its checks.
"""


# --- a new game ------------------------------------------------------------------------------------------

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
        InvalidGameError: If ``players`` or ``first_player`` is out of range or not an integer, or
            ``ruleset`` is not a :class:`~cheekymonkey.Ruleset`.

    >>> state = new_game(3)
    >>> state.phase, state.seat, state.bag_size
    (Phase.CHANCE, 0, 52)
    """
    return _set_up(players, ruleset, first_player)


def _set_up(players: object, ruleset: object, first_player: object) -> GameState:
    # new_game's checks, on arguments typed object: compiled, a native int parameter would refuse a wrong
    # type with a bare TypeError first, so the compiled build's twin of new_game comes here directly.
    if ruleset is None:
        ruleset = _STANDARD
    elif not isinstance(ruleset, Ruleset):
        raise InvalidGameError(f"ruleset must be a Ruleset, got {ruleset!r}")
    if not is_whole_number(players):
        raise InvalidGameError(f"players must be an integer, got {players!r}")
    if not ruleset.allows_players(players):
        raise InvalidGameError(
            f"{players} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players} (R3)"
        )
    if not is_whole_number(first_player) or not 0 <= first_player < players:
        raise InvalidGameError(f"first_player {first_player!r} is not one of seats 0 to {players - 1}")
    return make_state(ruleset, first_player, Phase.CHANCE, ruleset.counts, ((),) * players, (), None, False)


def _new_game_checked(players: object, *, ruleset: object = None, first_player: object = 0) -> GameState:
    # new_game for callers from Python in the compiled build (cheekymonkey._compiled).
    return _set_up(players, ruleset, first_player)


entry_points(globals(), {"new_game": _new_game_checked})
