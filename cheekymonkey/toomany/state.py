"""The game state's phases, its invariants, and a new game.

:class:`~cheekymonkey.toomany.GameState` has its one home here: the class (a plain class the optional
compiled build can make native), its checks, attrs' description of its fields, and new games.

>>> state = new_game(3)
>>> state.phase, state.seat, state.pile_size, state.row_sizes
(Phase.DRAW, 0, 37, (6, 6, 6))
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, ClassVar, Final, NoReturn, cast

import attrs
from attrs.exceptions import FrozenInstanceError

from cheekymonkey._compiled import COMPILED, entry_points
from cheekymonkey._values import ValueEnum
from cheekymonkey.checks import is_whole_number
from cheekymonkey.errors import InvalidGameError, InvalidStateError
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, FaceDown, Slot
from cheekymonkey.toomany.rules import Ruleset

__all__ = ["FIELDS", "GameState", "Phase", "check_state", "drawn", "new_game", "show_states_with", "trusted_state"]


class Phase(ValueEnum):
    """What happens next in a state: a player's decision, a draw of chance, or nothing (the end)."""

    START = 0
    """The turn begins with a choice (TM6): draw from the pile, or take the discard top."""
    DRAW = 1
    """Chance: the turn begins with a draw from the pile, the only way it can (TM6, TM18): the card is revealed."""
    CHOSEN_DRAW = 2
    """Chance: the player chose to draw from the pile, and the card is revealed."""
    TURN_UP = 3
    """Chance: the face-down card just picked up from the row, never seen before, is revealed (TM7, TM19)."""
    WILD = 4
    """The player chooses a face-down position for the wild in hand (TM11)."""
    BONUS = 5
    """The player takes the wild bonus with the number in hand, or declines it (TM12)."""
    RACCOON = 6
    """The player picks a number for the raccoon to take from the discard pile, or none (TM14)."""
    DISTURB = 7
    """The player picks an opponent's face-up card to turn down with the Do Not Disturb, or none (TM15)."""
    SKIP = 8
    """The player picks an opponent to give the Skip to, or none (TM16, TM17)."""
    OVER = 9
    """The game is won (TM23)."""


CHANCE_PHASES: Final = frozenset({Phase.DRAW, Phase.CHOSEN_DRAW, Phase.TURN_UP})
"""The phases where chance acts next."""


# How str(state) and str(view) draw the table: set by the package (cheekymonkey/toomany/__init__.py) to the
# text board of cheekymonkey.toomany.board, which is display code and so never imported by this module.
# Empty, a state's str is its repr.
_DRAW: Final[list[Callable[[Any], str]]] = []


def show_states_with(draw: Callable[[Any], str]) -> None:
    """Draw states and table views with ``draw`` in ``str()`` and ``print()``: the package passes the text board.

    Args:
        draw: A function of a :class:`GameState` or a :class:`~cheekymonkey.toomany.TableView` to text.
    """
    _DRAW[:] = [draw]


def drawn(value: object) -> str:
    """``value`` (a state or a table view) drawn as text, by what :func:`show_states_with` was given."""
    return _DRAW[0](value) if _DRAW else repr(value)


class GameState:
    """Everything the rules read at one moment of a game, as an immutable, hashable, picklable value (TME9).

    Nothing in it is hidden from any seat (TM19): a face-down card nobody has seen is ``None`` in its row,
    with no identity, and the cards nobody has seen are counted in :attr:`unseen`, the pool the engine deals
    them from when they are turned up or drawn.

    States are made by :func:`~cheekymonkey.toomany.new_game` and :func:`~cheekymonkey.toomany.apply`.
    Building one directly (a saved game, a test's position) checks every invariant and raises
    :class:`~cheekymonkey.InvalidStateError` naming the first one broken.
    """

    ruleset: Ruleset
    """The rules this game is played under."""
    round: int
    """The round being played, from 1 (TM22)."""
    round_first: int
    """The seat that began this round (TM5: each round begins one seat to the left of the last)."""
    seat: int
    """The seat whose turn it is; after the end, the winner."""
    phase: Phase
    """What happens next: the decision pending, a draw of chance, or the end."""
    rows: tuple[tuple[Slot, ...], ...]
    """Each seat's row, position 1 first: a face-up Card, a known FaceDown card, or None (never seen)."""
    hand: Card | None
    """The card in the hand of the seat to move, face up for all (TM10); None if there is none or it is not
    yet revealed."""
    discard: tuple[Card, ...]
    """The discard pile, bottom first: its last card is the top (TM4)."""
    pile_size: int
    """How many cards the draw pile holds."""
    pile: tuple[int, ...] | None
    """After a reshuffle in this round (TM20), the draw pile's cards, one count per Card; None before, when
    the draw pile is part of the pool of cards never seen (TM19)."""
    unseen: tuple[int, ...]
    """The cards never seen in this round, one count per Card: the face-down cards nobody knows, and the
    draw pile before the round's first reshuffle (TM19)."""
    skips: tuple[bool, ...]
    """For each seat, whether a Skip waits in front of it (TM16, TM17)."""

    __match_args__: ClassVar = (
        "ruleset",
        "round",
        "round_first",
        "seat",
        "phase",
        "rows",
        "hand",
        "discard",
        "pile_size",
        "pile",
        "unseen",
        "skips",
    )
    # Slots in the pure package (the fields, in constructor order); compiled, mypyc lays them out as a C struct.
    __slots__ = __match_args__
    # Set below (_describe): attrs' view of the fields.
    __attrs_attrs__: ClassVar[Any]
    __attrs_types_resolved__: ClassVar[Any]

    def __init__(
        self,
        ruleset: object,
        round: object,
        round_first: object,
        seat: object,
        phase: object,
        rows: object,
        hand: object,
        discard: object,
        pile_size: object,
        pile: object,
        unseen: object,
        skips: object,
        *,
        _trusted: bool = False,
    ) -> None:
        # Typed object: compiled, a declared type is enforced on entry with a bare TypeError; every field is
        # checked here instead, with InvalidStateError. _trusted is the engine's unchecked construction in the
        # compiled build (make_state), for a state that follows from a checked state by a legal action; it is
        # not for other callers.
        if not _trusted:
            # Not built for the engine's trusted states: a tuple a state, which compiled is the costliest step.
            values = (ruleset, round, round_first, seat, phase, rows, hand, discard, pile_size, pile, unseen, skips)
            if not _storable(values):
                # The compiled class would refuse these types with a bare TypeError before the checks run.
                _check(SimpleNamespace(**dict(zip(FIELDS, values, strict=True))))
                raise InvalidStateError(f"a field has the wrong type: {values!r}")  # pragma: no cover
        # object.__setattr__: the class's own __setattr__ refuses every assignment (compiled: plain stores).
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "round_first", round_first)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "pile_size", pile_size)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "unseen", unseen)
        object.__setattr__(self, "skips", skips)
        if not _trusted:
            _check(self)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def _values(self) -> tuple[object, ...]:
        return (
            self.ruleset,
            self.round,
            self.round_first,
            self.seat,
            self.phase,
            self.rows,
            self.hand,
            self.discard,
            self.pile_size,
            self.pile,
            self.unseen,
            self.skips,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        that: GameState = other
        return (
            self.seat == that.seat
            and self.phase == that.phase
            and self.hand == that.hand
            and self.pile_size == that.pile_size
            and self.rows == that.rows
            and self.discard == that.discard
            and self.unseen == that.unseen
            and self.pile == that.pile
            and self.skips == that.skips
            and self.round == that.round
            and self.round_first == that.round_first
            and (self.ruleset is that.ruleset or self.ruleset == that.ruleset)
        )

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(FIELDS, self._values(), strict=True))
        return f"GameState({shown})"

    def __str__(self) -> str:
        # print(state) draws the table, with the text board the package gave (show_states_with: this module
        # never imports display code); repr stays the call that builds the state.
        return drawn(self)

    def __reduce__(self) -> tuple[type[GameState], tuple[object, ...]]:
        # Unpickling and copying go through the checking constructor: a tampered pickle is refused.
        return (GameState, self._values())

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.rows)

    @property
    def row_sizes(self) -> tuple[int, ...]:
        """Each seat's row size this round (TM22: a round's winner has one card fewer in the next)."""
        return tuple(len(row) for row in self.rows)


FIELDS: tuple[str, ...] = GameState.__match_args__
"""The state's fields, in constructor order."""


def trusted_state(
    ruleset: Ruleset,
    round: int,
    round_first: int,
    seat: int,
    phase: Phase,
    rows: tuple[tuple[Slot, ...], ...],
    hand: Card | None,
    discard: tuple[Card, ...],
    pile_size: int,
    pile: tuple[int, ...] | None,
    unseen: tuple[int, ...],
    skips: tuple[bool, ...],
) -> GameState:
    """A state built without its checks, for one that follows from a checked state by a legal action.

    Compiled, this is one allocation and twelve stores, and ``make_state`` is this. In pure Python,
    filling the slots of a look-alike class is cheaper, and ``make_state`` does that instead.
    """
    return GameState(
        ruleset, round, round_first, seat, phase, rows, hand, discard, pile_size, pile, unseen, skips, _trusted=True
    )


def _storable(values: tuple[object, ...]) -> bool:
    # The fields whose declared types the compiled class enforces as it stores them (a bool is no int there),
    # given in constructor order.
    ruleset, round, round_first, seat, phase, rows, hand, discard, pile_size, pile, unseen, skips = values
    return (
        isinstance(ruleset, Ruleset)
        and round.__class__ is int
        and round_first.__class__ is int
        and seat.__class__ is int
        and isinstance(phase, Phase)
        and isinstance(rows, tuple)
        and (hand is None or isinstance(hand, Card))
        and isinstance(discard, tuple)
        and pile_size.__class__ is int
        and (pile is None or isinstance(pile, tuple))
        and isinstance(unseen, tuple)
        and isinstance(skips, tuple)
    )


def _check(state: object) -> None:
    check_state(state)


def _fail(reason: str) -> InvalidStateError:
    return InvalidStateError(reason)


def _int(name: str, value: object) -> int:
    # Exactly int: a bool (or any int subclass) is refused here, as the compiled class refuses it.
    if value.__class__ is not int:
        raise _fail(f"{name} must be an integer, got {value!r}")
    return value


def _counts(name: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, tuple) or len(value) != len(CARDS):
        raise _fail(f"{name} must be a tuple of {len(CARDS)} counts, one per card, got {value!r}")
    for card, count in zip(CARDS, value, strict=True):
        if count.__class__ is not int:
            raise _fail(f"{name}'s count of {card.label} must be an integer, got {count!r}")
        if count < 0:
            raise _fail(f"{name}'s count of {card.label} is {count}, below 0")
    return value


def is_face_up(slot: Slot) -> bool:
    """Whether a row position shows its card face up."""
    return slot.__class__ is Card


def usable_discard(top: Card, row: tuple[Slot, ...]) -> bool:
    """Whether a seat with ``row`` may take ``top`` from the discard pile (TM6, as 001 words it).

    A number that is not already face up in front of the player: its position is face down, or holds a
    face-up wild (then the bonus follows, TM12), or it is too high for the row (then it is discarded again,
    TM9). Special cards are never taken. TM6's ruling would refuse a number too high for the row; 001 does
    not, and where the two disagree this engine follows 001.
    """
    return top <= MAX_NUMBER and (top > len(row) or row[top - 1] is not top)


def raccoon_choices(row: tuple[Slot, ...], rest: tuple[Card, ...]) -> tuple[Card, ...]:
    """The numbers the raccoon may take from ``rest``, the discard pile below it, for ``row`` (TM14), ascending.

    A number k qualifies if it is no greater than the row size and position k of the row is face down
    (the ruling: a position holding a face-up wild does not).
    """
    found: list[Card] = []
    index = 0
    for slot in row:
        # A loop, not a generator: the engine asks this whenever a raccoon comes up.
        # A row has at most MAX_NUMBER positions (TM24), so CARDS[index] is the number of the position.
        if (slot is None or slot.__class__ is FaceDown) and CARDS[index] in rest:
            found.append(CARDS[index])
        index += 1  # noqa: SIM113 (enumerate builds a tuple per position)
    return tuple(found)


def check_state(state: object) -> None:
    """Check every invariant of a state; raise :class:`~cheekymonkey.InvalidStateError` at the first broken one (TME7).

    Args:
        state: A :class:`~cheekymonkey.toomany.GameState`, or any object with its fields.

    Raises:
        InvalidStateError: Naming the invariant broken (and the rule it rests on); also for an object without
            a state's fields, which is not a state at all (TME8).
    """
    values: dict[str, object] = {}
    for name in FIELDS:
        try:
            values[name] = getattr(state, name)
        except AttributeError:
            raise _fail(f"TME8: {reprlib.repr(state)} is not a Too Many Monkeys GameState: it has no {name}") from None
    get: Any = values.__getitem__
    ruleset = get("ruleset")
    if not isinstance(ruleset, Ruleset):
        raise _fail(f"ruleset must be a Ruleset, got {ruleset!r}")
    rows = get("rows")
    if not isinstance(rows, tuple) or not all(isinstance(row, tuple) for row in rows):
        raise _fail(f"rows must be a tuple of rows, each a tuple of positions, got {rows!r}")
    players = len(rows)
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise _fail(f"{players} rows, but the rule set allows {ruleset.min_players} to {ruleset.max_players} seats")
    round_number = _int("round", get("round"))
    if round_number < 1:
        raise _fail(f"round is {round_number}: rounds count from 1")
    for name in ("round_first", "seat"):
        if not 0 <= _int(name, get(name)) < players:
            raise _fail(f"{name} {get(name)!r} is not one of the {players} seats")
    seat: int = get("seat")
    phase = get("phase")
    if not isinstance(phase, Phase):
        raise _fail(f"phase must be a Phase, got {phase!r}")
    _check_rows(ruleset, rows, round_number)
    hand = get("hand")
    if hand is not None and not isinstance(hand, Card):
        raise _fail(f"hand must be a Card or None, got {hand!r}")
    discard = get("discard")
    if not isinstance(discard, tuple) or not all(isinstance(card, Card) for card in discard):
        raise _fail(f"the discard pile must be a tuple of Cards, got {discard!r}")
    if Card.WILD in discard:
        raise _fail("a wild is on the discard pile: a wild in hand is always placed, never discarded (TM11)")
    pile_size = _int("pile_size", get("pile_size"))
    if pile_size < 0:
        raise _fail(f"pile_size is {pile_size}, below 0")
    pile = get("pile")
    if pile is not None:
        if sum(_counts("the draw pile", pile)) != pile_size:
            raise _fail(f"the draw pile holds {sum(pile)} cards, but pile_size is {pile_size}")
        if pile[Card.WILD - 1]:
            raise _fail("a wild is in the reshuffled draw pile, which only holds discarded cards (TM11, TM20)")
    skips = get("skips")
    if not isinstance(skips, tuple) or len(skips) != players or not all(s.__class__ is bool for s in skips):
        raise _fail(f"skips must be a tuple of {players} booleans, one per seat, got {skips!r}")
    if skips[seat]:
        raise _fail(f"seat {seat} is to move with a Skip waiting: its turn would have been skipped (TM16)")
    unseen = _counts("unseen", get("unseen"))
    # TM1, TM19: every card of the deck is in exactly one place.
    held = list(unseen)
    for row in rows:
        for slot in row:
            if slot.__class__ is Card:
                held[slot - 1] += 1
            elif slot is not None:
                held[slot.card - 1] += 1
    for card in discard:
        held[card - 1] += 1
    if hand is not None:
        held[hand - 1] += 1
    held[Card.SKIP - 1] += sum(skips)
    if pile is not None:
        for index, count in enumerate(pile):
            held[index] += count
    for card, count in zip(CARDS, held, strict=True):
        if count != ruleset.count(card):
            raise _fail(
                f"{count} {card.label} card(s) are in the game (rows, piles, hand, Skips waiting and cards never "
                f"seen), but the deck has {ruleset.count(card)} (TM1)"
            )
    # TM19: the cards never seen are the face-down cards nobody knows, the draw pile until the round's first
    # reshuffle, and a card just picked up from the row whose face is not revealed yet.
    hidden = sum(slot is None for row in rows for slot in row)
    in_pool = 0 if pile is not None else pile_size
    picked = 1 if phase is Phase.TURN_UP or (phase is Phase.OVER and hand is None) else 0
    if sum(unseen) != hidden + in_pool + picked:
        where = f"{hidden} face-down cards nobody has seen" + (f" and {pile_size} in the draw pile" if in_pool else "")
        if picked:
            where += " and the card just picked up"
        raise _fail(f"{sum(unseen)} cards are counted as never seen, but there are {where} (TM19)")
    _check_turn(rows, seat, phase, hand, discard, pile_size, skips)


def _check_rows(ruleset: Ruleset, rows: tuple[tuple[object, ...], ...], round_number: int) -> None:
    for seat, row in enumerate(rows):
        if not 1 <= len(row) <= ruleset.row_size:
            raise _fail(f"seat {seat}'s row has {len(row)} cards; rows have 1 to {ruleset.row_size} (TM22, TM24)")
        for position, slot in enumerate(row, start=1):
            card = slot.card if isinstance(slot, FaceDown) else slot
            if card is None:
                continue
            if not isinstance(card, Card):
                raise _fail(f"seat {seat}'s position {position} holds {slot!r}: not a Card, a FaceDown or None")
            if card is not Card.WILD and card != position:
                raise _fail(
                    f"seat {seat}'s position {position} holds {slot!r}: only a wild or the number {position} can "
                    "lie there, face up or turned down (TM7, TM11, TM15)"
                )
    # TM22: each round won took one card from its winner's row.
    won = sum(ruleset.row_size - len(row) for row in rows)
    if round_number != won + 1:
        raise _fail(
            f"round {round_number}, but the rows are {won} card(s) short of {ruleset.row_size}: each round won "
            f"takes one card from its winner's row, so this is round {won + 1} (TM22)"
        )


def _check_turn(
    rows: tuple[tuple[Slot, ...], ...],
    seat: int,
    phase: Phase,
    hand: Card | None,
    discard: tuple[Card, ...],
    pile_size: int,
    skips: tuple[bool, ...],
) -> None:
    row = rows[seat]
    complete = [s for s, r in enumerate(rows) if all(slot.__class__ is Card for slot in r)]
    if phase is Phase.OVER:
        if complete != [seat] or len(row) != 1:
            raise _fail(f"the game is over, so seat {seat}, the winner, has one card face up and nobody else (TM23)")
        if hand not in (None, Card.ONE, Card.WILD):
            raise _fail(f"the winner holds {hand!r}, which cannot have lain face down at position 1 (TM21)")
        return
    if complete:
        raise _fail(f"seat {complete[0]}'s row is all face up, so that seat has won the round (TM21)")
    top_usable = bool(discard) and usable_discard(discard[-1], row)
    expected: Card | None = None
    if phase is Phase.START:
        if not top_usable:
            raise _fail(
                "the turn offers a choice of pile, but the discard top cannot be taken, so the engine draws (TM6, TM18)"
            )
    elif phase in (Phase.DRAW, Phase.CHOSEN_DRAW):
        if pile_size < 1:
            raise _fail("a draw is pending but the draw pile is empty: it is reshuffled before the draw (TM20)")
        if phase is Phase.DRAW and top_usable:
            raise _fail("the discard top can be taken, so the turn begins with a choice, not a draw (TM6, TM18)")
        if phase is Phase.CHOSEN_DRAW and discard and not top_usable:
            raise _fail("the player chose to draw, but the discard top could not be taken: there was no choice (TM18)")
    elif phase is Phase.WILD:
        expected = Card.WILD
        if sum(not is_face_up(slot) for slot in row) < 2:
            raise _fail("a wild with one face-down position to go to is placed by the engine (TM11, TM18)")
    elif phase is Phase.BONUS:
        if hand is None or not hand.is_number or hand > len(row) or row[hand - 1] is not Card.WILD:
            raise _fail(f"the bonus needs a number in hand whose position holds a face-up wild, not {hand!r} (TM12)")
        expected = hand
    elif phase is Phase.RACCOON:
        if not discard or discard[-1] is not Card.RACCOON:
            raise _fail("the raccoon's choice is made with the raccoon on top of the discard pile (TM14)")
        if not raccoon_choices(row, discard[:-1]):
            raise _fail("the raccoon has nothing to take, so the turn has ended (TM14, TM18)")
    elif phase is Phase.DISTURB:
        expected = Card.DO_NOT_DISTURB
        if not any(is_face_up(slot) for other, r in enumerate(rows) if other != seat for slot in r):
            raise _fail("no opponent has a face-up card, so the Do Not Disturb has no effect (TM15, TM18)")
    elif phase is Phase.SKIP:
        expected = Card.SKIP
        if all(skips[other] for other in range(len(rows)) if other != seat):
            raise _fail("every opponent has a Skip waiting, so the Skip has no effect (TM16, TM17, TM18)")
    if hand is not expected:
        raise _fail(f"in phase {phase.name} the hand holds {expected!r}, not {hand!r}")


def _describe() -> None:
    # attrs' view of GameState's fields, so attrs.fields, attrs.evolve, attrs.asdict and cattrs treat it as
    # the attrs class it behaves as (it is a plain class so that mypyc can compile it natively).
    types: dict[str, Any] = {
        "ruleset": Ruleset,
        "round": int,
        "round_first": int,
        "seat": int,
        "phase": Phase,
        "rows": tuple[tuple[Card | FaceDown | None, ...], ...],
        "hand": Card | None,
        "discard": tuple[Card, ...],
        "pile_size": int,
        "pile": tuple[int, ...] | None,
        "unseen": tuple[int, ...],
        "skips": tuple[bool, ...],
    }
    model = attrs.make_class("GameState", {name: attrs.field(type=types[name]) for name in FIELDS}, frozen=True)
    GameState.__attrs_attrs__ = attrs.fields(model)
    GameState.__attrs_types_resolved__ = GameState


_describe()


def _unfrozen() -> Callable[..., GameState]:
    """The pure-Python :data:`make_state`: a class with GameState's slots whose instances become GameStates.

    Its ``__init__`` fills the slots with plain assignments, the interpreter's cheapest stores, and then
    makes the object a :class:`GameState` by assigning ``__class__``, which Python allows between classes
    with the same slots. The result is an ordinary, frozen GameState. The class is made here, at run time,
    only in pure Python: compiled, GameState is native and :data:`make_state` is its constructor without
    checks instead.
    """

    def fill(
        self: Any,
        ruleset: Ruleset,
        round: int,
        round_first: int,
        seat: int,
        phase: Phase,
        rows: tuple[tuple[Slot, ...], ...],
        hand: Card | None,
        discard: tuple[Card, ...],
        pile_size: int,
        pile: tuple[int, ...] | None,
        unseen: tuple[int, ...],
        skips: tuple[bool, ...],
    ) -> None:
        self.ruleset = ruleset
        self.round = round
        self.round_first = round_first
        self.seat = seat
        self.phase = phase
        self.rows = rows
        self.hand = hand
        self.discard = discard
        self.pile_size = pile_size
        self.pile = pile
        self.unseen = unseen
        self.skips = skips
        self.__class__ = GameState

    # The same slots as GameState's: __class__ assignment needs the same layout.
    return cast(Callable[..., GameState], type("_Building", (), {"__slots__": FIELDS, "__init__": fill}))


make_state: Final[Callable[..., GameState]] = trusted_state if COMPILED else _unfrozen()
"""Build a state without checking it: the engine's fast path, for states that follow from checked ones.

The engine builds only states that follow from a checked state by a legal action, so the invariants hold
by construction; the stateful tests check every state it builds. Pure Python: a class sharing GameState's
slots; compiled: the native constructor without its checks.
"""

_FRESH_ROWS: Final = tuple((None,) * size for size in range(MAX_NUMBER + 1))


def fresh_row(size: int) -> tuple[None, ...]:
    """A newly dealt row of ``size`` face-down cards nobody has seen (TM3, TM19): one shared tuple per size."""
    return _FRESH_ROWS[size]


def new_game(players: int, *, ruleset: Ruleset | None = None, first_player: int = 0) -> GameState:
    """Set up a game: rows of face-down cards dealt, the rest the draw pile, and the first draw pending.

    Nothing is dealt yet in fact: every card is in the pool of cards never seen, and chance gives each one
    its face when it is first drawn or turned up (TM19). The discard pile is empty (TM4), so the first turn
    begins with a draw (TM6, TM18).

    Args:
        players: The number of seats, within the rule set's range (2 to 6, TM2).
        ruleset: The rules; the standard game if omitted.
        first_player: The seat that begins the first round (TM5: seat 0 unless named).

    Returns:
        The first state, a chance node: the card the first player draws.

    Raises:
        InvalidGameError: If ``players`` or ``first_player`` is out of range or not an integer.
    """
    return _set_up(players, ruleset, first_player)


def _set_up(players: object, ruleset: object, first_player: object) -> GameState:
    # new_game's checks, on arguments typed object: compiled, a native int parameter would refuse a wrong
    # type with a bare TypeError first, so the compiled build's twin of new_game comes here directly.
    if ruleset is None:
        ruleset = Ruleset.standard()
    elif not isinstance(ruleset, Ruleset):
        raise InvalidGameError(f"ruleset must be a Ruleset, got {ruleset!r}")
    if not is_whole_number(players):
        raise InvalidGameError(f"players must be an integer, got {players!r}")
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidGameError(
            f"{players} players: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players} (TM2)"
        )
    if not is_whole_number(first_player) or not 0 <= first_player < players:
        raise InvalidGameError(f"first_player {first_player!r} is not one of seats 0 to {players - 1}")
    size = ruleset.row_size
    return make_state(
        ruleset,
        1,
        first_player,
        first_player,
        Phase.DRAW,
        (fresh_row(size),) * players,
        None,
        (),
        ruleset.total_cards - players * size,
        None,
        ruleset.counts,
        (False,) * players,
    )


def _new_game_checked(players: object, *, ruleset: object = None, first_player: object = 0) -> GameState:
    # new_game for callers from Python in the compiled build (cheekymonkey._compiled).
    return _set_up(players, ruleset, first_player)


entry_points(globals(), {"new_game": _new_game_checked})
