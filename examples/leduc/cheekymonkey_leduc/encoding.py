"""Leduc poker for learning: OpenSpiel's indices (fold 0, call 1, raise 2; a card its index), two observations.

- ``"view"``: what the seat sees now: its card, the public card, the chips, who has folded, whose turn, the
  round and its raises, the hands a showdown turned up, and the seat's place after the first player.
- ``"information"``: all the seat has seen: its card, the public card, its place, every decision of both
  rounds in order, and the hands a showdown turned up (OpenSpiel's information-state tensor, in our layout).

Seats are counted from the viewer (its own first), as every encoding of the library counts them.

>>> from cheekymonkey_leduc import LEDUC, Deal, RAISE
>>> encoding = LEDUC.encoding(2)
>>> state = LEDUC.apply(LEDUC.apply(LEDUC.apply(LEDUC.new_game(2), Deal(5)), Deal(0)), RAISE)
>>> encoding.observation_text(state, 1)
'card Js; public -; chips 1 3; folded 0 0; turn 1 0; round 1; raises 1; shown - -; place 1'
>>> LEDUC.encoding(2, observation="information").observation_text(state, 0)
'card Kh; public -; place 0; round 1 r; round 2 ; shown - -'
"""

from __future__ import annotations

from typing import Final

import attrs
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import ObservationField, as_index, lay_out
from cheekymonkey.errors import InvalidValueError

from cheekymonkey_leduc.actions import BETS, Action, Deal
from cheekymonkey_leduc.game import LEDUC
from cheekymonkey_leduc.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, card_text, deck
from cheekymonkey_leduc.state import LeducState

__all__ = ["LeducEncoding"]

_KINDS: Final = ("view", "information")
_LETTERS: Final = "fcr"


@attrs.frozen
class LeducEncoding:
    """Leduc poker's action indices and one kind of observation, for ``players`` seats under ``rules``.

    Raises:
        InvalidValueError: If the seat count, the rule set or the observation kind does not fit.
    """

    players: int
    """The seats."""
    rules: Rules
    """The rule set, whose raises bound the chips."""
    kind: str = "view"
    """``"view"`` or ``"information"``."""
    observation_fields: tuple[ObservationField, ...] = attrs.field(init=False)
    """The observation's parts, in vector order."""

    def __attrs_post_init__(self) -> None:
        if not is_whole_number(self.players):
            raise InvalidValueError(f"players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidValueError(f"Leduc poker seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {self.players}")
        if not isinstance(self.rules, Rules):
            raise InvalidValueError(f"rules must be a Rules of Leduc poker, got {self.rules!r}")
        if self.kind not in _KINDS:
            raise InvalidValueError(f"Leduc poker's observation kinds are 'view' and 'information', got {self.kind!r}")
        n, cards = self.players, len(deck(self.players))
        common = [
            ("card", (cards,), 1, "the viewer's card, one-hot"),
            ("public", (cards,), 1, "the public card, one-hot"),
        ]
        shown = ("shown", (n, cards), 1, "the hands a showdown turned up, one-hot per seat from the viewer")
        place = ("place", (n,), 1, "the viewer's place after the first player, one-hot")
        if self.kind == "view":
            specs = [
                *common,
                ("chips", (n,), self.rules.most_in(), "each seat's chips in the pot, from the viewer's"),
                ("folded", (n,), 1, "which seats have folded, from the viewer's"),
                ("turn", (n,), 1, "whose turn it is, one-hot from the viewer's seat"),
                ("round", (1,), 2, "the betting round"),
                ("raises", (1,), self.rules.max_raises, "the raises made this round"),
                shown,
                place,
            ]
        else:
            slots = self.slots
            specs = [
                *common,
                place,
                ("betting", (2, slots, 3), 1, "each round's decisions in order, one-hot of fold, call, raise"),
                shown,
            ]
        object.__setattr__(self, "observation_fields", lay_out(specs))

    @property
    def slots(self) -> int:
        """The most decisions one round can hold: a sweep of the table before each raise and after the last."""
        return (self.rules.max_raises + 1) * self.players

    @property
    def num_actions(self) -> int:
        """Three: fold, call, raise."""
        return 3

    @property
    def num_outcomes(self) -> int:
        """The cards of the deck."""
        return len(deck(self.players))

    @property
    def observation_size(self) -> int:
        """The fields' sizes added up."""
        return sum(field.size for field in self.observation_fields)

    @property
    def observation_bounds(self) -> tuple[int, ...]:
        """Each entry's largest value, field by field."""
        return tuple(field.bound for field in self.observation_fields for _ in range(field.size))

    def encode(self, action: Action, state: LeducState) -> int:
        """A card's index for a deal, else 0 fold, 1 call, 2 raise.

        Raises:
            InvalidValueError: If ``action`` is none of Leduc poker's.
        """
        if isinstance(action, Deal) and action.card < self.num_outcomes:
            return action.card
        if action in BETS:
            return BETS.index(action)
        raise InvalidValueError(f"{action!r} is not an action of Leduc poker at {self.players} seats")

    def decode(self, index: int, state: LeducState) -> Action:
        """A card at a chance node, else fold (0), call (1) or raise (2).

        Raises:
            InvalidValueError: If ``index`` is not an index of its space.
        """
        index = as_index(index)
        if LEDUC.is_chance_node(state):
            if 0 <= index < self.num_outcomes:
                return Deal(index)
            raise InvalidValueError(f"a card is 0 to {self.num_outcomes - 1}, got {index}")
        if 0 <= index < 3:
            return BETS[index]
        raise InvalidValueError(f"Leduc poker's action indices are 0 (fold), 1 (call) and 2 (raise), got {index}")

    def legal_indices(self, state: LeducState) -> tuple[int, ...]:
        """The legal actions' indices, ascending."""
        return tuple(sorted(self.encode(action, state) for action in LEDUC.legal_actions(state)))

    def action_mask(self, state: LeducState) -> tuple[bool, ...]:
        """Which of fold, call and raise are legal (all False at a chance node and at the end)."""
        legal = () if LEDUC.is_chance_node(state) else self.legal_indices(state)
        return tuple(index in legal for index in range(3))

    def outcome_mask(self, state: LeducState) -> tuple[bool, ...]:
        """The cards left while a card is dealt, else none."""
        legal = self.legal_indices(state) if LEDUC.is_chance_node(state) else ()
        return tuple(index in legal for index in range(self.num_outcomes))

    def action_name(self, index: int, *, chance: bool = False) -> str:
        """``"fold"``, ``"call"``, ``"raise"``, or a card (``"Kh"``)."""
        index = as_index(index)
        if chance and 0 <= index < self.num_outcomes:
            return card_text(index)
        if not chance and 0 <= index < 3:
            return ("fold", "call", "raise")[index]
        raise InvalidValueError(f"{index} is not an {'outcome' if chance else 'action'} index of this encoding")

    def _check(self, state: LeducState) -> None:
        if len(state.cards) != self.players or state.rules != self.rules:
            raise InvalidValueError(f"the state is not of {self.players} seats under {self.rules!r}")

    def observe(self, state: LeducState, seat: int | None) -> tuple[int, ...]:
        """What ``seat`` observes, seats counted from it (from seat 0 for a spectator, who sees no card)."""
        self._check(state)
        n, cards = self.players, self.num_outcomes
        first = seat or 0
        order = [(first + step) % n for step in range(n)]
        mine = [0] * cards
        if seat is not None and state.cards[seat] is not None:
            mine[state.cards[seat] or 0] = 1
        public = [0] * cards
        if state.public is not None:
            public[state.public] = 1
        shown = [0] * (n * cards)
        if state.over and state.folded.count(False) > 1:  # L8: a showdown turns up the hands still in
            for place, other in enumerate(order):
                card = state.cards[other]
                if card is not None and not state.folded[other]:
                    shown[place * cards + card] = 1
        places = [0] * n
        if seat is not None:
            places[(seat - state.first_player) % n] = 1
        if self.kind == "view":
            turn = [0] * n
            if state.seat is not None:
                turn[(state.seat - first) % n] = 1
            return (
                *mine, *public, *(state.chips[o] for o in order), *(int(state.folded[o]) for o in order),
                *turn, state.round, state.raises, *shown, *places,
            )  # fmt: skip
        betting = [0] * (2 * self.slots * 3)
        for number, moves in enumerate(state.betting):
            for step, bet in enumerate(moves):
                betting[(number * self.slots + step) * 3 + bet] = 1
        return (*mine, *public, *places, *betting, *shown)

    def observation_text(self, state: LeducState, seat: int | None) -> str:
        """The observation in words: the cards by name, the figures from the viewer, the betting as letters."""
        values = self.observe(state, seat)
        fields = {field.name: values[field.offset : field.offset + field.size] for field in self.observation_fields}
        cards = self.num_outcomes

        def one(hot: tuple[int, ...]) -> str:
            return card_text(hot.index(1)) if 1 in hot else "-"

        shown = " ".join(one(fields["shown"][p * cards : (p + 1) * cards]) for p in range(self.players))
        place = fields["place"].index(1) if 1 in fields["place"] else "-"
        head = f"card {one(fields['card'])}; public {one(fields['public'])}"
        if self.kind == "view":
            chips = " ".join(map(str, fields["chips"]))
            folded = " ".join(map(str, fields["folded"]))
            turn = " ".join(map(str, fields["turn"]))
            return (
                f"{head}; chips {chips}; folded {folded}; turn {turn}; round {fields['round'][0]}; "
                f"raises {fields['raises'][0]}; shown {shown}; place {place}"
            )
        betting = fields["betting"]
        rounds = []
        for number in range(2):
            letters = []
            for step in range(self.slots):
                hot = betting[(number * self.slots + step) * 3 : (number * self.slots + step + 1) * 3]
                if 1 in hot:
                    letters.append(_LETTERS[hot.index(1)])
            rounds.append(f"round {number + 1} " + "".join(letters))
        return f"{head}; place {place}; {'; '.join(rounds)}; shown {shown}"

    def points(self, state: LeducState) -> tuple[float, ...]:
        """The chips won once the hand is over; before, each seat's chips in the pot, as a loss."""
        if state.over:
            return LEDUC.returns(state)
        return tuple(-float(chips) for chips in state.chips)
