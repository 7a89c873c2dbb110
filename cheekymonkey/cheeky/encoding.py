"""Cheeky Monkey's encodings for learning: action indices, and observations as vectors of integers.

Both are seen from one seat, so that one policy can play every seat; the game's binding offers them as its
:class:`~cheekymonkey.encoding.Encoding` (:meth:`~cheekymonkey.cheeky.game.CheekyMonkey.encoding`).
Nothing here needs numpy: masks are tuples of bools and observations tuples of integers, so a pure-Python
agent can use them as they are.

**Action indices.** A game of ``n`` seats numbers the players' actions from 0 to ``11 + 2n - 1``, in the order
:func:`~cheekymonkey.legal_actions` lists them. **Seats are counted from the player who acts**: a claim
from, or a swap with, the seat ``k`` places after the player to move (clockwise, R3) has the same index
whichever seat that player sits in, so a policy learnt in one seat plays in every seat (as OpenSpiel's
Hanabi numbers its hints by offset):

============================  ==================================  =====================
index                         action                              count
============================  ==================================  =====================
``0``                         :class:`~cheekymonkey.Draw`         1
``1``                         :class:`~cheekymonkey.Stop`         1
``2``                         :class:`~cheekymonkey.Herd`         1
``3 + k``                     a claim from the seat ``k`` after   ``n``
``3 + n + k``                 a swap with the seat ``k`` after    ``n``
``3 + 2n + a``                ``Place(a)``, animal ``a``          8
============================  ==================================  =====================

Offset 0 is the player's own seat: its claim and swap keep their indices and are never legal. For the
player in seat 0 the offsets are the seat numbers, so seat 0's indices are the seat numbers themselves.

The chance outcomes have an index space of their own, as in OpenSpiel: ``Reveal(a)`` is index ``a``
(the :class:`~cheekymonkey.Animal`'s value, 0 to 7). Which space an index belongs to follows from the
state: at a chance node it is an outcome, otherwise an action of the player to move.

Animals not in play under a rule set keep their indices; they are simply never legal. Decoding any index
in range gives an action; if it is not legal where it is applied, :func:`~cheekymonkey.apply` raises the
usual :class:`~cheekymonkey.IllegalActionError`.


>>> from cheekymonkey import Claim, Place, Animal, new_game
>>> codec = ActionCodec(3)
>>> codec.num_actions, codec.encode(Claim(2), seat=1), codec.encode(Place(Animal.MONKEY))
(17, 4, 16)
>>> codec.decode(4, seat=1), codec.decode(4, seat=2), codec.describe(4)
(Claim(2), Claim(0), 'Claim(+1)')

**Observations.** Two kinds, for a game of ``n`` seats under a rule set of ``T`` tokens:

- **table** is built from a :class:`~cheekymonkey.TableView` alone: what anybody sitting at the table sees
  at this moment (stack heights and tops, the front, the bag's size, whose turn it is). A player who
  remembers nothing knows this much.
- **full** is the table observation followed by what the view leaves out: the bag's contents and every
  stack, token by token from the top down. It is the whole state.

**Agents get the full observation by default** (:data:`DEFAULT_OBSERVATION`). Every draw, claim, swap and
stack in *Cheeky Monkey* happens face up, so a player with perfect recall knows the whole state: the full
observation is exactly what such a player knows, and it makes the game one of perfect information (a
Markov state), which is what search and most learning algorithms assume. The table observation is for
agents meant to play like a forgetful person, or to be compared with one.

The fields, in order (``[n, 8]`` is n rows of 8, row-major; every entry is an integer from 0 to its
field's bound):

====================  ==============  ===========  ==============================================================
field                 shape           bound        meaning
====================  ==============  ===========  ==============================================================
``viewer``            ``[n]``         1            one-hot of the seat observing: entry 0 (all 0 for a spectator)
``to_move``           ``[n]``         1            one-hot of the seat whose turn it is
``phase``             ``[4]``         1            one-hot of the :class:`~cheekymonkey.Phase` (chance to over)
``bag_size``          ``[1]``         T            tokens in the bag
``stack_heights``     ``[n]``         T            tokens in each seat's stack
``stack_tops``        ``[n, 8]``      1            one-hot of each stack's top animal (a row of 0 for an empty stack)
``front``             ``[8]``         max count    tokens of each animal in front of the player to move
``claimable``         ``[8]``         1            one-hot of the animal that may be claimed now (R7), or all 0
``swap_open``         ``[1]``         1            1 while a drawn monkey may be swapped (R11)
====================  ==============  ===========  ==============================================================

The full observation goes on with:

====================  ==============  ===========  ==============================================================
``bag``               ``[8]``         max count    tokens of each animal in the bag
``stack_counts``      ``[n, 8]``      max count    tokens of each animal in each seat's stack
``stacks``            ``[n, T, 8]``   1            each stack from the top down, one-hot; 0 past the bottom
====================  ==============  ===========  ==============================================================

**Seats are counted from the viewer**: every field with a row per seat (``to_move``, ``stack_heights``,
``stack_tops``, ``stack_counts``, ``stacks``) lists the viewer's own seat first, then the seats after it in
turn order (clockwise, R3), as the action indices of :class:`~cheekymonkey.cheeky.encoding.ActionCodec` count them. The
viewer is seat 0 of its own observation, so a position looks the same from every seat, up to that
rotation, and one policy can play every seat. A spectator (seat None) sits nowhere: its ``viewer`` field
is all 0 and its rows start at seat 0. The order of the tokens in front is left out: it never matters to
the rules (the monkey open to a swap is always the last one, and ``swap_open`` says so).

Each observation has a text of its own (:meth:`~cheekymonkey.cheeky.encoding.ObservationLayout.text`), written from
the vector alone: it shows what the vector shows, no more and no less, so two observations have the same
text exactly when they are the same vector, and the text serves as a key for tabular methods.

>>> from cheekymonkey import new_game
>>> layout = observation_layout("table", 3)
>>> layout.size, [f.name for f in layout.fields][:3]
(55, ['viewer', 'to_move', 'phase'])
>>> observation_layout("full", 3).size
1335
>>> print(observation_text(new_game(2), 1, "table"))
viewer: a player, counted as +0, the others clockwise from there
to move: +1
phase: chance
bag: 52 tokens
stack +0: empty
stack +1: empty
front: nothing
claimable: nothing
swap open: no
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal, SupportsIndex, TypeAlias

import attrs

from cheekymonkey.checks import is_whole_number
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
    Place,
    Reveal,
    Swap,
)
from cheekymonkey.cheeky.engine import legal_actions
from cheekymonkey.cheeky.rules import ANIMALS, MAX_PLAYERS, Animal, Ruleset
from cheekymonkey.cheeky.state import GameState, Phase
from cheekymonkey.cheeky.views import TableView
from cheekymonkey.encoding import ObservationField, as_index, lay_out
from cheekymonkey.errors import InvalidValueError

__all__ = [
    "DEFAULT_OBSERVATION",
    "DRAW_INDEX",
    "HERD_INDEX",
    "NUM_OUTCOMES",
    "OBSERVATION_KINDS",
    "STOP_INDEX",
    "ActionCodec",
    "ObservationField",
    "ObservationKind",
    "ObservationLayout",
    "full_observation",
    "observation_layout",
    "observation_text",
    "observe",
    "table_observation",
]

DRAW_INDEX: Final = 0
"""The index of :class:`~cheekymonkey.Draw`, whatever the seat count."""
STOP_INDEX: Final = 1
"""The index of :class:`~cheekymonkey.Stop`, whatever the seat count."""
HERD_INDEX: Final = 2
"""The index of :class:`~cheekymonkey.Herd`, whatever the seat count."""
NUM_OUTCOMES: Final = len(ANIMALS)
"""How many chance outcomes there are: one ``Reveal`` per animal."""

_FIXED: Final = 3  # Draw, Stop, Herd


def _check_players(players: object) -> int:
    if not is_whole_number(players) or not 2 <= players <= MAX_PLAYERS:
        raise InvalidValueError(f"players must be an integer from 2 to {MAX_PLAYERS}, got {players!r}")
    return players


def _check_seat(seat: object, players: int) -> int:
    if not is_whole_number(seat) or not 0 <= seat < players:
        raise InvalidValueError(f"seat {seat!r} is not one of the {players} seats")
    return seat


@attrs.frozen(slots=True)
class ActionCodec:
    """The action indices of an ``players``-seat game: encode, decode, and masks of the legal actions.

    Indices count seats from the player who acts (see the module's table): ``seat`` arguments say who that
    is, and the methods that take a state use its player to move.

    Args:
        players: The number of seats, 2 to 16.

    Raises:
        InvalidValueError: If ``players`` is not an integer from 2 to 16.
    """

    players: int = attrs.field(validator=lambda _i, _a, v: _check_players(v))
    """The number of seats the indices are laid out for."""
    # For each acting seat: its actions in index order, and each action's index.
    _actions: tuple[tuple[Action, ...], ...] = attrs.field(init=False, repr=False, eq=False)
    _indices: tuple[dict[Action, int], ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        n = self.players
        rows: list[tuple[Action, ...]] = []
        for seat in range(n):
            order = [(seat + k) % n for k in range(n)]
            claims = tuple(CLAIMS[s] for s in order)
            swaps = tuple(SWAPS[s] for s in order)
            rows.append((DRAW, STOP, HERD, *claims, *swaps, *PLACES))
        object.__setattr__(self, "_actions", tuple(rows))
        object.__setattr__(self, "_indices", tuple({action: i for i, action in enumerate(row)} for row in rows))

    @property
    def num_actions(self) -> int:
        """How many player-action indices there are: ``11 + 2 * players``."""
        return len(self._actions[0])

    @property
    def num_outcomes(self) -> int:
        """How many chance-outcome indices there are: 8, one per animal."""
        return NUM_OUTCOMES

    def claim_index(self, offset: int) -> int:
        """The index of a claim from the seat ``offset`` places after the player who acts."""
        return _FIXED + offset % self.players

    def swap_index(self, offset: int) -> int:
        """The index of a swap with the seat ``offset`` places after the player who acts."""
        return _FIXED + self.players + offset % self.players

    def place_index(self, animal: int) -> int:
        """The index of ``Place(animal)``."""
        return self.encode(Place(animal))

    def encode(self, action: Action, seat: int = 0) -> int:
        """The index of ``action`` played by ``seat``: a player's action, or a ``Reveal`` in the outcome space.

        Raises:
            InvalidValueError: If ``action`` is not an action, names a seat this game does not have, or
                ``seat`` is not one of its seats.
        """
        if action.__class__ is Reveal:
            return int(action.animal)
        indices = self._indices[_check_seat(seat, self.players)]
        try:
            return indices[action]
        except (KeyError, TypeError):
            pass
        if isinstance(action, Claim | Swap):
            raise InvalidValueError(f"{action!r} names seat {action.seat}, but the game has {self.players} seats")
        raise InvalidValueError(f"{action!r} is not an action")

    def decode(self, index: SupportsIndex, seat: int = 0) -> Action:
        """The action with index ``index`` (an int, or an integer such as numpy's ``int64``) played by ``seat``.

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to ``num_actions - 1``, or ``seat`` is
                not one of the seats.
        """
        number = as_index(index)
        actions = self._actions[_check_seat(seat, self.players)]
        if not 0 <= number < len(actions):
            raise InvalidValueError(f"action index {number} is out of range 0 to {len(actions) - 1}")
        return actions[number]

    def decode_outcome(self, index: SupportsIndex) -> Reveal:
        """The chance outcome with index ``index``: ``Reveal`` of that animal.

        Raises:
            InvalidValueError: If ``index`` is not an integer from 0 to 7.
        """
        number = as_index(index)
        if not 0 <= number < NUM_OUTCOMES:
            raise InvalidValueError(f"outcome index {number} is out of range 0 to {NUM_OUTCOMES - 1}")
        return REVEALS[number]

    def decode_at(self, state: GameState, index: SupportsIndex) -> Action:
        """The action with index ``index`` in ``state``: an outcome at a chance node, else the mover's action.

        Raises:
            InvalidValueError: If ``index`` is out of range for its space, or the state's seat count differs.
        """
        self._check_state(state)
        if state.phase is Phase.CHANCE:
            return self.decode_outcome(index)
        return self.decode(index, state.seat)

    def encode_at(self, state: GameState, action: Action) -> int:
        """The index of ``action`` in ``state``: an outcome's at a chance node, else as the mover plays it.

        Raises:
            InvalidValueError: If ``action`` is not an action of this game, or the state's seat count differs.
        """
        self._check_state(state)
        return self.encode(action, state.seat)

    def _check_state(self, state: GameState) -> None:
        if state.players != self.players:
            raise InvalidValueError(f"the state has {state.players} seats, but the codec is for {self.players}")

    def legal_indices(self, state: GameState) -> tuple[int, ...]:
        """The indices of the legal actions in ``state``, ascending: outcome indices at a chance node.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        if state.phase is Phase.CHANCE:
            return tuple([a for a in range(NUM_OUTCOMES) if state.bag[a]])
        indices = self._indices[state.seat]
        # legal_actions lists actions in absolute seat order; counted from the mover, they need sorting.
        return tuple(sorted([indices[action] for action in legal_actions(state)]))

    def action_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per action index: True where that action is legal for the player to move.

        All False at a chance node and at the end, where no player acts.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        mask = [False] * self.num_actions
        if state.phase is not Phase.CHANCE:
            indices = self._indices[state.seat]
            for action in legal_actions(state):
                mask[indices[action]] = True
        return tuple(mask)

    def outcome_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per outcome index: True for each animal that may come out of the bag now.

        All False unless ``state`` is a chance node.

        Raises:
            InvalidValueError: If the state's seat count differs from the codec's.
        """
        self._check_state(state)
        if state.phase is not Phase.CHANCE:
            return (False,) * NUM_OUTCOMES
        return tuple(count > 0 for count in state.bag)

    def describe(self, index: SupportsIndex, seat: int | None = None) -> str:
        """A short name for the action with index ``index``: ``"Claim(+2)"`` counts from the player who acts.

        With ``seat``, the action that seat plays, as its ``repr``: ``"Claim(0)"``.
        """
        if seat is not None:
            return repr(self.decode(index, seat))
        number = as_index(index)
        action = self.decode(number)
        if isinstance(action, Claim | Swap):
            return f"{type(action).__name__}(+{action.seat})"
        return repr(action)


ObservationKind: TypeAlias = Literal["full", "table"]
"""The kinds of observation: ``"full"`` (the whole state) or ``"table"`` (a :class:`~cheekymonkey.TableView`)."""

OBSERVATION_KINDS: Final[tuple[ObservationKind, ...]] = ("full", "table")
"""Every kind of observation."""

DEFAULT_OBSERVATION: Final[ObservationKind] = "full"
"""What agents observe unless told otherwise: the full state, which a player with perfect recall knows."""

_A: Final = len(ANIMALS)
_STANDARD: Final = Ruleset.standard()


@attrs.frozen(slots=True)
class ObservationLayout:
    """The layout of one kind of observation for a seat count and rule set: its fields, size and bounds.

    Build one with :func:`observation_layout`.
    """

    kind: ObservationKind
    """``"full"`` or ``"table"``."""
    players: int
    """The number of seats."""
    ruleset: Ruleset
    """The rules (they set the bounds and, through the token count, the full observation's size)."""
    fields: tuple[ObservationField, ...]
    """The fields, in vector order."""

    @property
    def size(self) -> int:
        """How many entries the vector has."""
        last = self.fields[-1]
        return last.offset + last.size

    @property
    def bounds(self) -> tuple[int, ...]:
        """The largest value of each entry, in vector order (the smallest is always 0)."""
        out: list[int] = []
        for field in self.fields:
            out.extend([field.bound] * field.size)
        return tuple(out)

    def field(self, name: str) -> ObservationField:
        """The field called ``name``.

        Raises:
            InvalidValueError: If the layout has no such field.
        """
        for field in self.fields:
            if field.name == name:
                return field
        raise InvalidValueError(f"no field {name!r} in the {self.kind} observation")

    def encode(self, state: GameState, seat: int | None) -> tuple[int, ...]:
        """The observation of ``state`` by ``seat`` (None: a spectator), of this layout's kind.

        Raises:
            InvalidValueError: If the state does not fit the layout, or ``seat`` is not one of its seats.
        """
        # The rule set is usually the very object the layout was made for: compare fields only if not.
        if state.players != self.players or (state.ruleset is not self.ruleset and state.ruleset != self.ruleset):
            raise InvalidValueError(
                f"a {state.players}-seat {state.ruleset.name} game does not fit a layout for {self.players} seats "
                f"under the {self.ruleset.name} rules"
            )
        if self.kind == "full":
            return full_observation(state, seat)
        from cheekymonkey.cheeky.views import view

        return table_observation(view(state, seat))

    def text(self, observation: Sequence[int]) -> str:
        """What ``observation`` (a vector of this layout) shows, in words: every field, nothing else.

        Written from the vector alone, so equal vectors give equal texts and different vectors different
        texts. Seats are named by their place after the viewer (``+0`` is the viewer), or by their number
        for a spectator; a stack of the full observation is listed from its top down.

        Raises:
            InvalidValueError: If ``observation`` is not a vector of this layout's size.
        """
        values = [int(v) for v in observation]
        if len(values) != self.size:
            raise InvalidValueError(f"a {self.kind} observation has {self.size} entries, got {len(values)}")

        def part(name: str) -> list[int]:
            field = self.field(name)
            return values[field.offset : field.offset + field.size]

        n = self.players
        viewer = part("viewer")
        seated = any(viewer)

        def seat_name(row: int) -> str:
            return f"+{row}" if seated else f"seat {row}"

        def animals(counts: Sequence[int]) -> str:
            named = [Animal(a).label + (f" x{c}" if c > 1 else "") for a, c in enumerate(counts) if c]
            return ", ".join(named) or "nothing"

        def one_hot(row: Sequence[int]) -> int | None:
            return row.index(1) if 1 in row else None

        if seated:
            lines = ["viewer: a player, counted as +0, the others clockwise from there"]
        else:
            lines = ["viewer: a spectator, seats counted from seat 0"]
        mover = one_hot(part("to_move"))
        lines.append(f"to move: {'nobody' if mover is None else seat_name(mover)}")
        phase = one_hot(part("phase"))
        lines.append(f"phase: {'none' if phase is None else Phase(phase).name.lower()}")
        lines.append(f"bag: {part('bag_size')[0]} tokens")
        heights, tops = part("stack_heights"), part("stack_tops")
        for row in range(n):
            top = one_hot(tops[row * _A : (row + 1) * _A])
            shown = "empty" if not heights[row] else f"{heights[row]} tokens"
            if top is not None:
                shown += f", top {Animal(top).label}"
            lines.append(f"stack {seat_name(row)}: {shown}")
        lines.append(f"front: {animals(part('front'))}")
        claim = one_hot(part("claimable"))
        lines.append(f"claimable: {'nothing' if claim is None else Animal(claim).label}")
        lines.append(f"swap open: {'yes' if part('swap_open')[0] else 'no'}")
        if self.kind == "full":
            lines.append(f"bag holds: {animals(part('bag'))}")
            counts, tokens = part("stack_counts"), part("stacks")
            depth = self.ruleset.total_tokens
            for row in range(n):
                lines.append(f"stack {seat_name(row)} holds: {animals(counts[row * _A : (row + 1) * _A])}")
                block = tokens[row * depth * _A : (row + 1) * depth * _A]
                order = [Animal(a).label for d in range(depth) for a in range(_A) if block[d * _A + a]]
                lines.append(f"stack {seat_name(row)} from the top: {', '.join(order) or 'nothing'}")
        return "\n".join(lines)


def _fields(kind: ObservationKind, players: int, ruleset: Ruleset) -> tuple[ObservationField, ...]:
    n, total, most = players, ruleset.total_tokens, max(ruleset.counts)
    specs: list[tuple[str, tuple[int, ...], int, str]] = [
        ("viewer", (n,), 1, "one-hot of the seat observing, always entry 0 (all 0 for a spectator)"),
        ("to_move", (n,), 1, "one-hot of the seat whose turn it is, counted from the viewer"),
        ("phase", (len(Phase),), 1, "one-hot of the phase: chance, decide, placing, over"),
        ("bag_size", (1,), total, "tokens in the bag"),
        ("stack_heights", (n,), total, "tokens in each seat's stack, the viewer's first"),
        ("stack_tops", (n, _A), 1, "one-hot of each stack's top animal (0 for an empty stack), the viewer's first"),
        ("front", (_A,), most, "tokens of each animal in front of the player to move"),
        ("claimable", (_A,), 1, "one-hot of the animal that may be claimed now (R7)"),
        ("swap_open", (1,), 1, "1 while a drawn monkey may be swapped (R11)"),
    ]
    if kind == "full":
        specs += [
            ("bag", (_A,), most, "tokens of each animal in the bag"),
            ("stack_counts", (n, _A), most, "tokens of each animal in each seat's stack, the viewer's first"),
            ("stacks", (n, total, _A), 1, "each stack token by token from the top down, one-hot, the viewer's first"),
        ]
    return lay_out(specs)


@functools.lru_cache(maxsize=64)
def _layout(kind: ObservationKind, players: int, ruleset: Ruleset) -> ObservationLayout:
    return ObservationLayout(kind, players, ruleset, _fields(kind, players, ruleset))


def observation_layout(kind: str, players: int, ruleset: Ruleset | None = None) -> ObservationLayout:
    """The layout of the ``kind`` observation for ``players`` seats under ``ruleset`` (standard if omitted).

    Raises:
        InvalidValueError: If ``kind`` is not one of :data:`OBSERVATION_KINDS`, ``players`` is outside the
            rule set's range, or ``ruleset`` is not a :class:`~cheekymonkey.Ruleset`.
    """
    if kind not in OBSERVATION_KINDS:
        raise InvalidValueError(f"no observation kind {kind!r}; the kinds are {', '.join(OBSERVATION_KINDS)}")
    if ruleset is None:
        ruleset = _STANDARD
    elif not isinstance(ruleset, Ruleset):
        raise InvalidValueError(f"ruleset must be a Ruleset, got {ruleset!r}")
    if not is_whole_number(players):
        raise InvalidValueError(f"players must be an integer, got {players!r}")
    if not ruleset.allows_players(players):
        raise InvalidValueError(
            f"{players} seats: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players}"
        )
    return _layout("full" if kind == "full" else "table", players, ruleset)


def _table_part(
    out: list[int],
    viewer: int | None,
    to_move: int,
    phase: Phase,
    bag_size: int,
    stacks_heights: tuple[int, ...],
    tops: tuple[int | None, ...],
    front: tuple[int, ...],
    claimable: int | None,
    swap_open: bool,
) -> None:
    # Rows per seat start at the viewer's own (a spectator's at seat 0).
    n = len(stacks_heights)
    first = 0 if viewer is None else viewer
    one_hot = [0] * n
    if viewer is not None:
        one_hot[0] = 1
    out += one_hot
    one_hot = [0] * n
    one_hot[(to_move - first) % n] = 1
    out += one_hot
    phases = [0, 0, 0, 0]
    phases[phase] = 1
    out += phases
    out.append(bag_size)
    out += stacks_heights[first:]
    out += stacks_heights[:first]
    top_rows = [0] * (n * _A)
    for seat, top in enumerate(tops):
        if top is not None:
            top_rows[(seat - first) % n * _A + top] = 1
    out += top_rows
    counts = [0] * _A
    for token in front:
        counts[token] += 1
    out += counts
    claim = [0] * _A
    if claimable is not None:
        claim[claimable] = 1
    out += claim
    out.append(1 if swap_open else 0)


def table_observation(table: TableView) -> tuple[int, ...]:
    """The table observation of a :class:`~cheekymonkey.TableView`: what the view's seat sees, and nothing more.

    Seats are counted from the view's own (the viewer is entry 0 of every row per seat).

    Raises:
        InvalidValueError: If ``table`` is not a TableView.

    >>> from cheekymonkey import new_game, view
    >>> observation = table_observation(view(new_game(2), 1))
    >>> len(observation), observation[:8]
    (44, (1, 0, 0, 1, 1, 0, 0, 0))
    """
    if not isinstance(table, TableView):
        raise InvalidValueError(f"expected a TableView, got {table!r}")
    out: list[int] = []
    _table_part(
        out,
        table.viewer,
        table.to_move,
        table.phase,
        table.bag_size,
        table.stack_heights,
        table.stack_tops,
        table.front,
        table.claimable,
        table.swap_open,
    )
    return tuple(out)


# Stacks change only when a turn ends or a token is claimed or swapped, and a new state shares the
# unchanged stack tuples with the one before, so their encodings are kept by the tuple's identity. An entry
# holds its stack, so the id cannot be reused while the entry lives; the size bound keeps memory small.
_STACK_CACHE: Final[dict[tuple[int, int], tuple[tuple[Animal, ...], tuple[int, ...], tuple[int, ...]]]] = {}
_STACK_CACHE_SIZE: Final = 4096


def _stack_parts(stack: tuple[Animal, ...], total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A stack's ``stack_counts`` row and its ``stacks`` block (top down, one-hot, ``total`` rows)."""
    key = (id(stack), total)
    hit = _STACK_CACHE.get(key)
    if hit is not None and hit[0] is stack:
        return hit[1], hit[2]
    counts = [0] * _A
    tokens = [0] * (total * _A)
    for depth, token in enumerate(reversed(stack)):
        counts[token] += 1
        tokens[depth * _A + token] = 1
    if len(_STACK_CACHE) >= _STACK_CACHE_SIZE:
        _STACK_CACHE.clear()
    parts = (tuple(counts), tuple(tokens))
    _STACK_CACHE[key] = (stack, *parts)
    return parts


def full_observation(state: GameState, seat: int | None) -> tuple[int, ...]:
    """The full observation of ``state`` by ``seat`` (None: a spectator): the table fields, then the whole state.

    Its first part equals ``table_observation(view(state, seat))``; seats are counted from ``seat``'s own.

    Raises:
        InvalidValueError: If ``state`` is not a GameState or ``seat`` is not one of its seats (or None).
    """
    if not isinstance(state, GameState):
        raise InvalidValueError(f"expected a GameState, got {state!r}")
    stacks = state.stacks
    n = len(stacks)
    if seat is not None and (not is_whole_number(seat) or not 0 <= seat < n):
        raise InvalidValueError(f"seat {seat!r} is not one of the {n} seats")
    out: list[int] = []
    _table_part(
        out,
        seat,
        state.seat,
        state.phase,
        sum(state.bag),
        tuple([len(stack) for stack in stacks]),
        tuple([stack[-1] if stack else None for stack in stacks]),
        state.front,
        state.claimable,
        state.swap_open,
    )
    out += state.bag
    total = state.ruleset.total_tokens
    first = 0 if seat is None else seat
    parts = [_stack_parts(stack, total) for stack in stacks[first:] + stacks[:first]]
    for counts, _ in parts:
        out += counts
    for _, tokens in parts:
        out += tokens
    return tuple(out)


def observe(state: GameState, seat: int | None, kind: str = DEFAULT_OBSERVATION) -> tuple[int, ...]:
    """The ``kind`` observation of ``state`` by ``seat``: :func:`full_observation`, or the table one of its view.

    Raises:
        InvalidValueError: If ``kind`` is unknown or ``seat`` is not one of the state's seats.

    >>> from cheekymonkey import new_game
    >>> state = new_game(2)
    >>> observe(state, 1, "table") == observe(state, 1)[: observation_layout("table", 2).size]
    True
    """
    if kind == "full":
        return full_observation(state, seat)
    if kind == "table":
        from cheekymonkey.cheeky.views import view

        return table_observation(view(state, seat))
    raise InvalidValueError(f"no observation kind {kind!r}; the kinds are {', '.join(OBSERVATION_KINDS)}")


def observation_text(state: GameState, seat: int | None, kind: str = DEFAULT_OBSERVATION) -> str:
    """The text of the ``kind`` observation of ``state`` by ``seat``: :meth:`ObservationLayout.text` of it.

    Raises:
        InvalidValueError: If ``kind`` is unknown or ``seat`` is not one of the state's seats.
    """
    layout = observation_layout(kind, state.players, state.ruleset)
    return layout.text(layout.encode(state, seat))
