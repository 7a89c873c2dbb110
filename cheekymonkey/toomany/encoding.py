"""*Too Many Monkeys* for learning: action indices, chance outcome indices, masks and observation vectors.

This is the game's :class:`~cheekymonkey.encoding.Encoding`, which
:meth:`TOO_MANY_MONKEYS.encoding <cheekymonkey.toomany.TooManyMonkeys.encoding>` returns and every RL adapter
(:mod:`cheekymonkey.rl`) plays through. It is pure Python: masks are tuples of bools, observations tuples of
whole numbers. **Everything is seen from one seat**, as in *Cheeky Monkey*'s encodings: an action that names
a seat names it by its place after the player to move, and an observation lists the viewer's own seat
first, then the others in turn order (to the left, TM5), so one policy can play every seat.

**Actions.** For ``n`` seats, ``16 + 7 (n - 1)`` indices; those that name no seat are the same for every
seat count:

==========================  ============================================================  =============
index                       action                                                        count
==========================  ============================================================  =============
``0``                       :class:`~cheekymonkey.toomany.Draw` (TM6)                      1
``1``                       :class:`~cheekymonkey.toomany.TakeDiscard` (TM6)               1
``1 + p``                   ``PlaceWild(p)``, the wild on position ``p`` (TM11)            6
``8``                       :class:`~cheekymonkey.toomany.TakeBonus` (TM12)                1
``8 + k``                   ``RaccoonTake(k)``, the raccoon takes a ``k`` (TM14)           6
``15``                      :class:`~cheekymonkey.toomany.Decline` (TM12, TM14-TM16)       1
``9 + 6 o + p``             ``TurnDown``: position ``p`` of the seat ``o`` after (TM15)    ``6 (n - 1)``
``9 + 6 n + o``             ``GiveSkip`` to the seat ``o`` after the mover (TM16)          ``n - 1``
==========================  ============================================================  =============

Positions ``p`` and numbers ``k`` run from 1 to 6 and offsets ``o`` from 1 to ``n - 1`` (the mover's own
seat has no index: nothing is ever done to it). A position past a row's end keeps its index and is
simply never legal. Chance has an index space of its own, as in OpenSpiel: ``Reveal(card)`` is
``card - 1``, one index per :class:`~cheekymonkey.toomany.Card` (12). Which space an index belongs to
follows from the state: at a chance node an outcome, otherwise an action of the player to move.

**Observations.** Every seat sees the same table (TM19): the engine deals lazily, so a face-down card
nobody has seen has no identity anywhere, and the state holds nothing a seat cannot see. Two kinds:

- ``"full"`` (the default) is the whole state, seen from the viewer's seat: a player with perfect recall
  knows all of it (the discard pile is public in order, TM4), so it is a Markov state and the game is one
  of perfect information, with chance.
- ``"table"`` is the same but for the order of the discard pile below its top: its counts and top card
  only. The order matters only when several turns in a row take from the discard pile; the vector is
  from under a fifth (2 seats) to a third (6 seats) of the full one's size.

The fields, in order, for ``n`` seats under a rule set of ``T`` cards dealt in rows of ``r`` at first
(``[n, 6, 5]`` is ``n`` rows of 6 positions of 5 entries, row-major; every entry is a whole number from 0 to its bound;
``c`` is the largest count of one card in the deck):

==================  ===============  ===========  ==========================================================
field               shape            bound        meaning
==================  ===============  ===========  ==========================================================
``viewer``          ``[n]``          1            one-hot of the seat observing: entry 0 (all 0 for a spectator)
``to_move``         ``[n]``          1            one-hot of the seat whose turn it is (after the end, the winner)
``phase``           ``[10]``         1            one-hot of the :class:`~cheekymonkey.toomany.Phase`, start to over
``round``           ``[1]``          ``R``        the round, from 1; ``R = n (r - 1) + 1``, the most a game has
``round_first``     ``[n]``          1            one-hot of the seat that began the round (TM5)
``row_sizes``       ``[n]``          ``r``        each seat's row size this round (TM22)
``rows``            ``[n, 6, 5]``    1            each position of each row, one-hot: face-up number, face-up
                                                  wild, number turned down, wild turned down (both known, TM15),
                                                  never seen; all 0 past the row's end
``hand``            ``[12]``         1            one-hot of the card in hand (TM10), all 0 for none
``pile_size``       ``[1]``          ``T``        cards in the draw pile
``reshuffled``      ``[1]``          1            1 once the discard pile has been shuffled into the draw pile
                                                  this round (TM20)
``pile``            ``[12]``         ``c``        after a reshuffle, the draw pile's cards by kind (known, in
                                                  unknown order); all 0 before
``unseen``          ``[12]``         ``c``        the cards nobody has seen this round, by kind: the pool
                                                  chance deals from (TM19)
``discard_size``    ``[1]``          ``T``        cards in the discard pile
``discard_top``     ``[12]``         1            one-hot of the discard pile's top card, all 0 when empty
``discard_counts``  ``[12]``         ``c``        the discard pile's cards by kind
``skips``           ``[n]``          1            1 for each seat with a Skip waiting (TM16, TM17)
==================  ===============  ===========  ==========================================================

The full observation goes on with:

==================  ===============  ===========  ==========================================================
``discard``         ``[T - n, 12]``  1            the discard pile card by card from the top down, one-hot;
                                                  0 past the bottom (the rows hold ``n`` cards at least)
==================  ===============  ===========  ==========================================================

Every field with a row per seat (``to_move``, ``round_first``, ``row_sizes``, ``rows``, ``skips``) lists
the viewer's own seat first. A spectator (seat None) sits nowhere: its ``viewer`` field is all 0 and its
rows start at seat 0. The ``unseen`` field follows from the others (the deck less every card on the
table), as *Cheeky Monkey*'s bag does; it is there so a learner need not work it out.

Each observation's text (:meth:`TooManyEncoding.observation_text`) is written from the vector alone and
shows exactly what it shows: two observations have the same text when, and only when, they are the same
vector, and the text does not grow with the length of a game.

**Points** (:meth:`TooManyEncoding.points`, the measure of a lead that margin shaping uses): the game counts
no points, so a seat's points are minus the cards it still has to turn up to win the game: the face-down
positions of its row now, and ``1 + 2 + ... + (s - 1)`` for the rows of the rounds after this one, ``s``
being its row size. Every seat starts with the same (-21 with rows of 6), turning a card up gains 1,
winning a round gains the last card, while the others lose whatever they had turned up (TM22); the winner of
the game ends with 0. Fewer points never rank a seat above one with more: a seat with a smaller row needs
fewer cards whatever it has turned up, so the points refine the outcome's ranking (by row size) and agree
with it.

>>> from cheekymonkey.toomany import Card, GiveSkip, Reveal, apply, new_game
>>> encoding = TooManyEncoding(3)
>>> encoding.num_actions, encoding.num_outcomes, encoding.observation_size
(30, 12, 803)
>>> [round(TooManyEncoding(n, observation="table").observation_size / TooManyEncoding(n).observation_size, 2)
...  for n in (2, 6)]
[0.18, 0.33]
>>> state = apply(new_game(3), Reveal(Card.SKIP))
>>> [encoding.action_name(index) for index in encoding.legal_indices(state)]
['Decline()', 'GiveSkip(+1)', 'GiveSkip(+2)']
>>> encoding.decode(encoding.legal_indices(state)[2], state)
GiveSkip(2)
>>> state = apply(apply(state, GiveSkip(2)), Reveal(Card.FOUR))
>>> print(TooManyEncoding(3, observation="table").observation_text(state, 1))
viewer: a player, counted as +0, the others in turn order from there
to move: +0
phase: turn_up
round: 1, begun by +2
row +0: ? ? ? 4 ? ?
row +1: ? ? ? ? ? ?, a Skip waiting
row +2: ? ? ? ? ? ?
hand: nothing
draw pile: 35 cards, not reshuffled
never seen: 1 x6, 2 x6, 3 x6, 4 x5, 5 x6, 6 x6, wild x4, Skip x3, elephant x3, giraffe x3, raccoon x3, Do Not Disturb x2
discard pile: empty
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, SupportsIndex

from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import ObservationField, as_index, lay_out
from cheekymonkey.errors import InvalidValueError
from cheekymonkey.toomany.actions import (
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
    GiveSkip,
    Reveal,
    TurnDown,
)
from cheekymonkey.toomany.cards import CARDS, MAX_NUMBER, Card, FaceDown
from cheekymonkey.toomany.engine import chance_pool, is_chance_node, legal_actions
from cheekymonkey.toomany.rules import Ruleset
from cheekymonkey.toomany.state import GameState, Phase

__all__ = [
    "DECLINE_INDEX",
    "DEFAULT_OBSERVATION",
    "DRAW_INDEX",
    "NUM_OUTCOMES",
    "OBSERVATION_KINDS",
    "SLOT_KINDS",
    "TAKE_BONUS_INDEX",
    "TAKE_DISCARD_INDEX",
    "TooManyEncoding",
    "encoding",
    "num_actions",
]

DRAW_INDEX: Final = 0
"""The index of :class:`~cheekymonkey.toomany.Draw`, whatever the seat count."""
TAKE_DISCARD_INDEX: Final = 1
"""The index of :class:`~cheekymonkey.toomany.TakeDiscard`, whatever the seat count."""
TAKE_BONUS_INDEX: Final = 8
"""The index of :class:`~cheekymonkey.toomany.TakeBonus`, whatever the seat count."""
DECLINE_INDEX: Final = 15
"""The index of :class:`~cheekymonkey.toomany.Decline`, whatever the seat count."""
NUM_OUTCOMES: Final = len(CARDS)
"""How many chance outcome indices there are: one ``Reveal`` per kind of card (12)."""

OBSERVATION_KINDS: Final[tuple[str, ...]] = ("full", "table")
"""The kinds of observation, the default first."""
DEFAULT_OBSERVATION: Final = "full"
"""What agents observe unless told otherwise: the whole state, which every seat sees (TM19)."""

SLOT_KINDS: Final[tuple[str, ...]] = (
    "face-up number",
    "face-up wild",
    "number turned down",
    "wild turned down",
    "never seen",
)
"""What the five entries of a position in the ``rows`` field stand for, in order."""

_POSITIONS: Final = MAX_NUMBER  # positions 1 to 6 in every rule set (TM24)
_K: Final = len(CARDS)
_SLOT: Final = len(SLOT_KINDS)
_FIXED: Final = 16  # Draw, TakeDiscard, six PlaceWild, TakeBonus, six RaccoonTake, Decline
_PHASES: Final = tuple(Phase)
# Each slot's entry in the 5 of its position: a Card face up (a number or the wild), a FaceDown, or None.
_NEVER_SEEN: Final = 4


def num_actions(players: int) -> int:
    """How many action indices a game of ``players`` seats has: ``16 + 7 (players - 1)``.

    >>> num_actions(2), num_actions(6)
    (23, 51)
    """
    return _FIXED + (_POSITIONS + 1) * (players - 1)


def _slot_entry(slot: object) -> int:
    if slot is None:
        return _NEVER_SEEN
    if slot.__class__ is FaceDown:
        return 3 if slot.card is Card.WILD else 2
    return 1 if slot is Card.WILD else 0


def _card_text(counts: Sequence[int]) -> str:
    named = [CARDS[k].label + (f" x{c}" if c > 1 else "") for k, c in enumerate(counts) if c]
    return ", ".join(named) or "nothing"


_SLOT_TEXT: Final = ("{p}", "W", "({p})", "(W)", "?")


class TooManyEncoding:
    """The action indices and one kind of observation of *Too Many Monkeys* for ``players`` seats.

    Build one with :meth:`TOO_MANY_MONKEYS.encoding <cheekymonkey.toomany.TooManyMonkeys.encoding>` (or
    :func:`encoding`, which keeps one per seat count, rule set and kind); the module's docs lay out the
    indices and fields.

    Args:
        players: The number of seats, within the rule set's range.
        ruleset: The rules (the standard game if omitted).
        observation: ``"full"`` (the default) or ``"table"``.

    Raises:
        InvalidValueError: If the seat count, rule set or observation kind does not fit.
    """

    __slots__ = (
        "_actions",
        "_bounds",
        "_fields",
        "_indices",
        "_offsets",
        "_size",
        "kind",
        "players",
        "ruleset",
    )

    def __init__(self, players: int, ruleset: Ruleset | None = None, observation: str | None = None) -> None:
        if ruleset is None:
            ruleset = Ruleset.standard()
        elif not isinstance(ruleset, Ruleset):
            raise InvalidValueError(f"ruleset must be a Too Many Monkeys Ruleset, got {ruleset!r}")
        if not is_whole_number(players):
            raise InvalidValueError(f"players must be an integer, got {players!r}")
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise InvalidValueError(
                f"{players} seats: the {ruleset.name} rules allow {ruleset.min_players} to {ruleset.max_players} (TM2)"
            )
        kind = DEFAULT_OBSERVATION if observation is None else observation
        if kind not in OBSERVATION_KINDS:
            raise InvalidValueError(f"no observation kind {kind!r}; the kinds are {', '.join(OBSERVATION_KINDS)}")
        self.players: Final = players
        """The number of seats."""
        self.ruleset: Final = ruleset
        """The rules."""
        self.kind: Final = kind
        """The kind of observation: ``"full"`` or ``"table"``."""
        rows: list[tuple[Action, ...]] = []
        for seat in range(players):
            others = [(seat + offset) % players for offset in range(1, players)]
            rows.append(
                (
                    DRAW,
                    TAKE_DISCARD,
                    *PLACE_WILDS,
                    TAKE_BONUS,
                    *RACCOON_TAKES,
                    DECLINE,
                    *[TURN_DOWNS[other][p] for other in others for p in range(_POSITIONS)],
                    *[GIVE_SKIPS[other] for other in others],
                )
            )
        self._actions: Final = tuple(rows)
        self._indices: Final = tuple({action: i for i, action in enumerate(row)} for row in rows)
        self._fields: Final = _fields(kind, players, ruleset)
        self._offsets: Final = {field.name: field.offset for field in self._fields}
        bounds: list[int] = []
        for field in self._fields:
            bounds += [field.bound] * field.size
        self._bounds: Final = tuple(bounds)
        self._size: Final = len(bounds)

    # -- sizes ---------------------------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """How many action indices there are: ``16 + 7 (players - 1)``."""
        return len(self._actions[0])

    @property
    def num_outcomes(self) -> int:
        """How many chance outcome indices there are: 12, one per kind of card."""
        return NUM_OUTCOMES

    @property
    def observation_size(self) -> int:
        """How many entries an observation has."""
        return self._size

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        """The largest value of each entry, in vector order (the smallest is 0)."""
        return self._bounds

    @property
    def observation_fields(self) -> tuple[ObservationField, ...]:
        """The fields, in vector order (see the module's docs)."""
        return self._fields

    def field(self, name: str) -> ObservationField:
        """The field called ``name``.

        Raises:
            InvalidValueError: If the observation has no such field.
        """
        for field in self._fields:
            if field.name == name:
                return field
        raise InvalidValueError(f"no field {name!r} in the {self.kind} observation")

    # -- actions -------------------------------------------------------------------------------------

    def _check(self, state: GameState) -> None:
        if not isinstance(state, GameState):
            raise InvalidValueError(f"expected a Too Many Monkeys GameState, got {state!r}")
        if state.players != self.players or (state.ruleset is not self.ruleset and state.ruleset != self.ruleset):
            raise InvalidValueError(
                f"a {state.players}-seat game under the {state.ruleset.name} rules does not fit an encoding for "
                f"{self.players} seats under the {self.ruleset.name} rules"
            )

    def encode(self, action: Action, state: GameState) -> int:
        """The index of ``action`` in ``state``: a ``Reveal``'s outcome index, else as the mover plays it.

        Raises:
            InvalidValueError: If ``action`` is not an action, names the mover's own seat or a seat the game
                does not have, or the state does not fit the encoding.
        """
        self._check(state)
        if action.__class__ is Reveal:
            return action.card - 1
        try:
            return self._indices[state.seat][action]
        except (KeyError, TypeError):
            pass
        if isinstance(action, TurnDown | GiveSkip):
            raise InvalidValueError(
                f"{action!r} names seat {action.seat}: seat {state.seat} acts on the other seats of {self.players}"
            )
        raise InvalidValueError(f"{action!r} is not an action of Too Many Monkeys with an index")

    def decode(self, index: SupportsIndex, state: GameState) -> Action:
        """The action with ``index`` in ``state``: a chance outcome at a chance node, else the mover's action.

        Any index in range decodes; one that is not legal where it is applied is refused by
        :func:`~cheekymonkey.toomany.apply` with the usual :class:`~cheekymonkey.IllegalActionError`.

        Raises:
            InvalidValueError: If ``index`` is not an integer of its space, or the state does not fit.
        """
        self._check(state)
        number = as_index(index)
        if is_chance_node(state):
            if not 0 <= number < NUM_OUTCOMES:
                raise InvalidValueError(f"outcome index {number} is out of range 0 to {NUM_OUTCOMES - 1}")
            return REVEALS[number]
        actions = self._actions[state.seat]
        if not 0 <= number < len(actions):
            raise InvalidValueError(f"action index {number} is out of range 0 to {len(actions) - 1}")
        return actions[number]

    def legal_indices(self, state: GameState) -> tuple[int, ...]:
        """The indices of the legal actions in ``state``, ascending: outcome indices at a chance node."""
        self._check(state)
        if is_chance_node(state):
            return tuple([index for index, count in enumerate(chance_pool(state)) if count])
        indices = self._indices[state.seat]
        # legal_actions lists opponents by absolute seat; counted from the mover, they need sorting.
        return tuple(sorted([indices[action] for action in legal_actions(state)]))

    def action_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per action index: which are legal for the player to move (all False at chance and the end)."""
        self._check(state)
        mask = [False] * self.num_actions
        if not is_chance_node(state):
            indices = self._indices[state.seat]
            for action in legal_actions(state):
                mask[indices[action]] = True
        return tuple(mask)

    def outcome_mask(self, state: GameState) -> tuple[bool, ...]:
        """One bool per outcome index: the cards chance can reveal now (all False unless at a chance node)."""
        self._check(state)
        if not is_chance_node(state):
            return (False,) * NUM_OUTCOMES
        return tuple([count > 0 for count in chance_pool(state)])

    def action_name(self, index: int, *, chance: bool = False) -> str:
        """A short name of an action index, seats counted from the mover (``"GiveSkip(+1)"``), or of an outcome.

        Raises:
            InvalidValueError: If ``index`` is out of range for its space.
        """
        number = as_index(index)
        if chance:
            if not 0 <= number < NUM_OUTCOMES:
                raise InvalidValueError(f"outcome index {number} is out of range 0 to {NUM_OUTCOMES - 1}")
            return repr(REVEALS[number])
        actions = self._actions[0]
        if not 0 <= number < len(actions):
            raise InvalidValueError(f"action index {number} is out of range 0 to {len(actions) - 1}")
        action = actions[number]
        if isinstance(action, TurnDown):
            return f"TurnDown(+{action.seat}, {action.position})"
        if isinstance(action, GiveSkip):
            return f"GiveSkip(+{action.seat})"
        return repr(action)

    # -- observations --------------------------------------------------------------------------------

    def observe(self, state: GameState, seat: int | None) -> tuple[int, ...]:
        """What ``seat`` (None: a spectator) observes of ``state``, from its own seat (see the module's docs).

        Raises:
            InvalidValueError: If the state does not fit the encoding, or ``seat`` is not one of its seats.
        """
        self._check(state)
        n = self.players
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < n):
            raise InvalidValueError(f"seat {seat!r} is not one of the {n} seats")
        first = 0 if seat is None else seat
        order = [(first + k) % n for k in range(n)]
        out: list[int] = [0] * n
        if seat is not None:
            out[0] = 1
        one_hot = [0] * n
        one_hot[(state.seat - first) % n] = 1
        out += one_hot
        phases = [0] * len(_PHASES)
        phases[state.phase] = 1
        out += phases
        out.append(state.round)
        one_hot = [0] * n
        one_hot[(state.round_first - first) % n] = 1
        out += one_hot
        rows = state.rows
        out += [len(rows[s]) for s in order]
        for s in order:
            block = [0] * (_POSITIONS * _SLOT)
            for position, slot in enumerate(rows[s]):
                block[position * _SLOT + _slot_entry(slot)] = 1
            out += block
        hand = [0] * _K
        if state.hand is not None:
            hand[state.hand - 1] = 1
        out += hand
        out.append(state.pile_size)
        pile = state.pile
        out.append(0 if pile is None else 1)
        out += (0,) * _K if pile is None else pile
        out += state.unseen
        discard = state.discard
        out.append(len(discard))
        top = [0] * _K
        if discard:
            top[discard[-1] - 1] = 1
        out += top
        counts = [0] * _K
        for card in discard:
            counts[card - 1] += 1
        out += counts
        skips = state.skips
        out += [1 if skips[s] else 0 for s in order]
        if self.kind == "full":
            depth = self.ruleset.total_cards - n
            block = [0] * (depth * _K)
            for d, card in enumerate(reversed(discard)):
                block[d * _K + card - 1] = 1
            out += block
        return tuple(out)

    def observation_text(self, state: GameState, seat: int | None) -> str:
        """What the observation of ``seat`` shows, as text: :meth:`text` of :meth:`observe`."""
        return self.text(self.observe(state, seat))

    def text(self, observation: Sequence[int]) -> str:
        """What ``observation`` (a vector of this encoding) shows, in words: every field, nothing else.

        Seats are named by their place after the viewer (``+0`` is the viewer), or by their number for a
        spectator. A row shows each position as its number or ``W`` face up, ``(3)`` or ``(W)`` turned
        down, and ``?`` never seen.

        Raises:
            InvalidValueError: If ``observation`` is not a vector of this encoding's size.
        """
        values = [int(v) for v in observation]
        if len(values) != self._size:
            raise InvalidValueError(f"a {self.kind} observation has {self._size} entries, got {len(values)}")
        offsets = self._offsets

        def part(name: str, size: int) -> list[int]:
            return values[offsets[name] : offsets[name] + size]

        def one_hot(row: Sequence[int]) -> int | None:
            return row.index(1) if 1 in row else None

        n = self.players
        seated = any(part("viewer", n))

        def seat_name(row: int | None) -> str:
            if row is None:
                return "nobody"
            return f"+{row}" if seated else f"seat {row}"

        if seated:
            lines = ["viewer: a player, counted as +0, the others in turn order from there"]
        else:
            lines = ["viewer: a spectator, seats counted from seat 0"]
        lines.append(f"to move: {seat_name(one_hot(part('to_move', n)))}")
        phase = one_hot(part("phase", len(_PHASES)))
        lines.append(f"phase: {'none' if phase is None else _PHASES[phase]}")
        lines.append(f"round: {part('round', 1)[0]}, begun by {seat_name(one_hot(part('round_first', n)))}")
        sizes = part("row_sizes", n)
        slots = part("rows", n * _POSITIONS * _SLOT)
        skips = part("skips", n)
        for row in range(n):
            shown = []
            for position in range(_POSITIONS):
                start = (row * _POSITIONS + position) * _SLOT
                entry = one_hot(slots[start : start + _SLOT])
                if entry is not None:
                    shown.append(_SLOT_TEXT[entry].format(p=position + 1))
            line = f"row {seat_name(row)}: {' '.join(shown) or 'no positions'}"
            if len(shown) != sizes[row]:
                line += f" (size {sizes[row]})"
            if skips[row]:
                line += ", a Skip waiting"
            lines.append(line)
        hand = one_hot(part("hand", _K))
        lines.append(f"hand: {'nothing' if hand is None else CARDS[hand].label}")
        pile = f"draw pile: {part('pile_size', 1)[0]} cards"
        if part("reshuffled", 1)[0]:
            pile += f", reshuffled, holding {_card_text(part('pile', _K))}"
        else:
            pile += ", not reshuffled"
            if any(part("pile", _K)):
                pile += f", holding {_card_text(part('pile', _K))}"
        lines.append(pile)
        lines.append(f"never seen: {_card_text(part('unseen', _K))}")
        size = part("discard_size", 1)[0]
        top = one_hot(part("discard_top", _K))
        counts = part("discard_counts", _K)
        if size or top is not None or any(counts):
            head = f"discard pile: {size} cards, top {'none' if top is None else CARDS[top].label}"
            lines.append(f"{head}, holding {_card_text(counts)}")
        else:
            lines.append("discard pile: empty")
        if self.kind == "full":
            depth = self.ruleset.total_cards - n
            block = part("discard", depth * _K)
            order = [CARDS[k].label for d in range(depth) for k in range(_K) if block[d * _K + k]]
            lines.append(f"discard pile from the top: {', '.join(order) or 'nothing'}")
        return "\n".join(lines)

    def points(self, state: GameState) -> tuple[float, ...]:
        """Each seat's points: minus the cards it still has to turn up to win the game (see the module's docs).

        Raises:
            InvalidValueError: If the state does not fit the encoding.
        """
        self._check(state)
        out = []
        for row in state.rows:
            size = len(row)
            down = sum(1 for slot in row if slot.__class__ is not Card)
            out.append(-float(down + size * (size - 1) // 2))
        return tuple(out)

    def __repr__(self) -> str:
        return f"TooManyEncoding({self.players}, {self.ruleset.name!r} rules, {self.kind!r} observation)"


def _fields(kind: str, players: int, ruleset: Ruleset) -> tuple[ObservationField, ...]:
    n, total, most, row = players, ruleset.total_cards, max(ruleset.counts), ruleset.row_size
    specs: list[tuple[str, tuple[int, ...], int, str]] = [
        ("viewer", (n,), 1, "one-hot of the seat observing, always entry 0 (all 0 for a spectator)"),
        ("to_move", (n,), 1, "one-hot of the seat whose turn it is (after the end, the winner), the viewer's first"),
        ("phase", (len(_PHASES),), 1, "one-hot of the phase, in Phase order: start to over"),
        ("round", (1,), n * (row - 1) + 1, "the round, from 1"),
        ("round_first", (n,), 1, "one-hot of the seat that began the round, the viewer's first"),
        ("row_sizes", (n,), row, "each seat's row size this round, the viewer's first"),
        ("rows", (n, _POSITIONS, _SLOT), 1, "each position of each row, one-hot of its SLOT_KINDS, the viewer's first"),
        ("hand", (_K,), 1, "one-hot of the card in hand, all 0 for none"),
        ("pile_size", (1,), total, "cards in the draw pile"),
        ("reshuffled", (1,), 1, "1 once the discard pile has been shuffled into the draw pile this round"),
        ("pile", (_K,), most, "after a reshuffle, the draw pile's cards by kind; all 0 before"),
        ("unseen", (_K,), most, "the cards nobody has seen this round, by kind"),
        ("discard_size", (1,), total, "cards in the discard pile"),
        ("discard_top", (_K,), 1, "one-hot of the discard pile's top card, all 0 when it is empty"),
        ("discard_counts", (_K,), most, "the discard pile's cards by kind"),
        ("skips", (n,), 1, "1 for each seat with a Skip waiting, the viewer's first"),
    ]
    if kind == "full":
        specs.append(("discard", (total - n, _K), 1, "the discard pile card by card from the top down, one-hot"))
    return lay_out(specs)


@functools.lru_cache(maxsize=64)
def _cached(players: int, ruleset: Ruleset, kind: str) -> TooManyEncoding:
    return TooManyEncoding(players, ruleset, kind)


def encoding(players: int, ruleset: Ruleset | None = None, observation: str | None = None) -> TooManyEncoding:
    """The encoding for ``players`` seats under ``ruleset`` with the ``observation`` kind, one kept per kind.

    Raises:
        InvalidValueError: If the seat count, rule set or observation kind does not fit.
    """
    if ruleset is None:
        ruleset = Ruleset.standard()
    kind = DEFAULT_OBSERVATION if observation is None else observation
    if (
        not isinstance(ruleset, Ruleset)
        or not isinstance(kind, str)
        or isinstance(players, bool)
        or not isinstance(players, int)
    ):
        return TooManyEncoding(players, ruleset, kind)  # raises, naming the problem
    return _cached(players, ruleset, kind)
