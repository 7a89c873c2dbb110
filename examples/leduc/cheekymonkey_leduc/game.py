"""Leduc poker's rules, written as the methods of its :class:`~cheekymonkey.base.BaseGame`.

L1. Two to ten seats; the deck has two suits of ``players + 1`` ranks (J, Q, K at two seats), a card by index.
L2. Every seat antes ``ante`` chips into the pot.
L3. Chance deals each seat one private card, seat 0 first, each card left as likely.
L4. Two betting rounds; each begins with the first seat still in at or after ``first_player``, and the turn
    passes round the table among the seats still in. A raise adds ``raises[0]`` in the first round and
    ``raises[1]`` in the second; a round allows at most ``max_raises`` raises.
L5. A seat calls (matches the bet; a check when there is nothing to match), raises while its round allows,
    or folds, only when facing a bet.
L6. A round ends when every seat still in has checked, or once every other seat still in has called the
    last raise. After the first, chance turns up the public card from the cards left.
L7. The hand ends when one seat is left (it takes the pot, and no card is shown) or after the second round.
L8. Showdown: a card paired with the public card beats any unpaired one; else the higher rank wins; equal
    hands share the pot. The hands still in are turned up; a folded hand is never shown.

These are OpenSpiel's ``leduc_poker`` (numbering included: fold 0, call 1, raise 2, a card's outcome its
index), and ``tests/test_openspiel.py`` walks every history of both. :meth:`Leduc.returns` are the chips
won, as OpenSpiel's; the :class:`~cheekymonkey.outcome.Outcome` names the seats that won chips.

**Secrets.** Each seat's card is its own (:attr:`Leduc.private_information`): the view, the information state,
the events and the resampling below show a seat its own card only, and everybody the hands still in at a
showdown.

>>> state = LEDUC.new_game(2)
>>> for card in (5, 0):
...     state = LEDUC.apply(state, Deal(card))
>>> LEDUC.to_move(state), LEDUC.legal_actions(state)
(0, (Call(), Raise()))
>>> LEDUC.view(state, 1).hands, LEDUC.information_state(state, 1)
(('?', 'Js'), 'seat 1 of 2; hands ? Js; public -; round 1: ; round 2: ')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from cheekymonkey.base import BaseGame
from cheekymonkey.checks import is_whole_number
from cheekymonkey.encoding import Encoding
from cheekymonkey.errors import GameNotOverError, IllegalActionError, InvalidGameError, NotAChanceNodeError
from cheekymonkey.game import Capabilities, GameBot
from cheekymonkey.outcome import Outcome, Stakes, Utility

from cheekymonkey_leduc.actions import BETS, CALL, FOLD, RAISE, Action, Bet, Call, Deal, Fold, Raise
from cheekymonkey_leduc.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules, card_text, deck, rank_of
from cheekymonkey_leduc.state import Dealt, LeducState, LeducView, Paid, Placed, Showdown

__all__ = ["LEDUC", "Leduc", "LeducEvent"]

LeducEvent = Dealt | Placed | Showdown | Paid
"""Every event of Leduc poker."""

_LETTERS: Final = "fcr"
_TO_CALL: Final[tuple[Bet, ...]] = (FOLD, CALL, RAISE)
_NO_BET: Final[tuple[Bet, ...]] = (CALL, RAISE)
_CAPPED: Final[tuple[Bet, ...]] = (FOLD, CALL)
_CHECK_ONLY: Final[tuple[Bet, ...]] = (CALL,)


def _next_in(folded: Sequence[bool], start: int) -> int:
    # The first seat still in at or after ``start`` (L4).
    players = len(folded)
    for step in range(players):
        seat = (start + step) % players
        if not folded[seat]:
            return seat
    raise AssertionError("unreachable: a seat is always still in")  # pragma: no cover


def hand_value(card: int, public: int) -> tuple[bool, int]:
    """L8: a card's strength with the public card: a pair first, then the rank."""
    return (rank_of(card) == rank_of(public), rank_of(card))


class Leduc(BaseGame[LeducState, Action, Rules, LeducView, LeducEvent]):
    """Leduc poker: one private card each, a public card, two rounds of betting, the best hand takes the pot.

    A pair with the public card beats any single card; else the higher card wins.
    """

    __slots__ = ()

    name = "leduc"
    title = "Leduc poker"
    private_information = True
    capabilities = Capabilities(encodings=True, batched=True)

    # -- the rule set and the seats (L1, L2) -----------------------------------------------------------

    def ruleset(self, name: str | None = None) -> Rules:
        """The preset called ``name`` (None: the standard game, OpenSpiel's)."""
        return Rules.preset("standard" if name is None else name)

    def preset_names(self) -> tuple[str, ...]:
        """``("standard",)``."""
        return tuple(PRESETS)

    def seat_range(self, ruleset: Rules | None = None) -> tuple[int, int]:
        """Two to ten seats (L1)."""
        return MIN_PLAYERS, MAX_PLAYERS

    def default_seats(self, ruleset: Rules | None = None) -> int:
        """Two: heads-up, the game as it is usually played."""
        return 2

    def new_game(self, players: int, ruleset: Rules | None = None, *, first_player: int = 0) -> LeducState:
        """Every seat's ante in the pot, no card dealt (L2).

        Raises:
            InvalidGameError: If ``players`` is not from 2 to 10, ``first_player`` is not a seat, or ``ruleset``
                is not a :class:`~cheekymonkey_leduc.Rules`.
        """
        if not is_whole_number(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidGameError(f"Leduc poker seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r} (L1)")
        if not is_whole_number(first_player) or not 0 <= first_player < players:
            raise InvalidGameError(f"first_player must be one of the seats 0 to {players - 1}, got {first_player!r}")
        if ruleset is not None and not isinstance(ruleset, Rules):
            raise InvalidGameError(f"the rule set must be a Rules of Leduc poker, got {ruleset!r}")
        rules = ruleset or Rules()
        return LeducState(
            rules, first_player, (None,) * players, None, 1, ((), ()), (rules.ante,) * players,
            (False,) * players, None, 0, 0, False,
        )  # fmt: skip

    def ruleset_of(self, state: LeducState) -> Rules:
        """``state.rules``."""
        return state.rules

    def players(self, state: LeducState) -> int:
        """One card per seat."""
        return len(state.cards)

    # -- chance (L3, L6) -------------------------------------------------------------------------------

    def is_chance_node(self, state: LeducState) -> bool:
        """Whether a card is to be dealt: a private one, or the public one after the first round."""
        return state.seat is None and not state.over

    def _left(self, state: LeducState) -> list[int]:
        used = {card for card in state.cards if card is not None}
        if state.public is not None:
            used.add(state.public)
        return [card for card in deck(len(state.cards)) if card not in used]

    def chance_outcomes(self, state: LeducState) -> tuple[tuple[Action, Fraction], ...]:
        """Every card left, each as likely (L3, L6).

        Raises:
            NotAChanceNodeError: If no card is to be dealt.
        """
        if not self.is_chance_node(state):
            raise NotAChanceNodeError("no card is to be dealt now")
        left = self._left(state)
        return tuple((Deal(card), Fraction(1, len(left))) for card in left)

    # -- the turn and the end (L4-L8) ------------------------------------------------------------------

    def to_move(self, state: LeducState) -> int | None:
        """The seat to act, None while a card is dealt and at the end."""
        return state.seat

    def is_terminal(self, state: LeducState) -> bool:
        """Whether the hand is over (L7)."""
        return state.over

    def round_of(self, state: LeducState) -> int:
        """The betting round, 1 or 2."""
        return state.round

    def legal_actions(self, state: LeducState) -> tuple[Action, ...]:
        """The cards left at a chance node; else call, raise while allowed, fold when facing a bet (L5)."""
        if state.over:
            return ()
        if state.seat is None:
            return tuple(Deal(card) for card in self._left(state))
        facing = state.chips[state.seat] < max(state.chips)
        if state.raises < state.rules.max_raises:
            return _TO_CALL if facing else _NO_BET
        return _CAPPED if facing else _CHECK_ONLY

    def apply(self, state: LeducState, action: Action) -> LeducState:
        """The state after ``action``.

        Raises:
            IllegalActionError: If the rules do not allow ``action`` now; ``state`` is unchanged, as ever.
        """
        if state.over:
            raise IllegalActionError(state, action, "L7: the hand is over")
        if state.seat is None:
            return self._deal(state, action)
        if action not in self.legal_actions(state):
            if isinstance(action, Fold):
                raise IllegalActionError(state, action, "L5: a seat folds only when facing a bet")
            if isinstance(action, Raise):
                raise IllegalActionError(state, action, f"L4: a round allows {state.rules.max_raises} raises")
            raise IllegalActionError(state, action, "L5: a seat folds, calls or raises; chance deals")
        seat = state.seat
        chips = list(state.chips)
        folded = state.folded
        raises, calls = state.raises, state.calls
        stake = max(chips)
        if isinstance(action, Fold):
            folded = (*folded[:seat], True, *folded[seat + 1 :])
        elif isinstance(action, Call):
            chips[seat] = stake
            calls += 1
        else:
            chips[seat] = stake + state.rules.raises[state.round - 1]
            raises += 1
            calls = 0
        betting = list(state.betting)
        betting[state.round - 1] = (*betting[state.round - 1], BETS.index(action))
        rounds = (betting[0], betting[1])
        still_in = folded.count(False)
        if still_in == 1:  # L7: the last seat in takes the pot
            return LeducState(state.rules, state.first_player, state.cards, state.public, state.round, rounds,
                              tuple(chips), folded, None, raises, calls, True)  # fmt: skip
        if calls == (still_in if raises == 0 else still_in - 1):  # L6: the round is over
            if state.round == 2:
                return LeducState(state.rules, state.first_player, state.cards, state.public, 2, rounds,
                                  tuple(chips), folded, None, raises, calls, True)  # fmt: skip
            return LeducState(state.rules, state.first_player, state.cards, state.public, 2, rounds,
                              tuple(chips), folded, None, 0, 0, False)  # fmt: skip
        return LeducState(state.rules, state.first_player, state.cards, state.public, state.round, rounds,
                          tuple(chips), folded, _next_in(folded, seat + 1), raises, calls, False)  # fmt: skip

    def _deal(self, state: LeducState, action: Action) -> LeducState:
        if not isinstance(action, Deal):
            raise IllegalActionError(state, action, "L3: a card is being dealt, and chance deals it")
        if action.card not in self._left(state):
            raise IllegalActionError(state, action, "L3: the card must be one still in the deck")
        if None in state.cards:  # L3: the private cards, seat 0 first
            place = state.cards.index(None)
            cards = (*state.cards[:place], action.card, *state.cards[place + 1 :])
            seat = state.first_player if None not in cards else None
            return LeducState(state.rules, state.first_player, cards, None, 1, state.betting, state.chips,
                              state.folded, seat, 0, 0, False)  # fmt: skip
        seat = _next_in(state.folded, state.first_player)  # L6: the public card, then the second round
        return LeducState(state.rules, state.first_player, state.cards, action.card, 2, state.betting, state.chips,
                          state.folded, seat, 0, 0, False)  # fmt: skip

    def _shown(self, state: LeducState) -> bool:
        # L7, L8: a hand ended with more than one seat in is a showdown.
        return state.over and state.folded.count(False) > 1

    def returns(self, state: LeducState) -> tuple[float, ...]:
        """Each seat's chips won: its share of the pot less what it put in (L7, L8); they add up to 0.

        Raises:
            GameNotOverError: If the hand is still being played.
        """
        if not state.over:
            raise GameNotOverError("a hand of Leduc poker pays only once it is over (L7)")
        in_hand = [seat for seat, out in enumerate(state.folded) if not out]
        if len(in_hand) > 1:
            public = state.public
            assert public is not None  # a showdown comes after the second round
            values = {seat: hand_value(state.cards[seat] or 0, public) for seat in in_hand}
            best = max(values.values())
            in_hand = [seat for seat in in_hand if values[seat] == best]
        share = sum(state.chips) / len(in_hand)
        return tuple((share if seat in in_hand else 0.0) - chips for seat, chips in enumerate(state.chips))

    def stakes(self, players: int, ruleset: Rules | None = None) -> Stakes:
        """Zero-sum chips: a seat loses at most all it can put in, and wins at most that from every other seat."""
        most = (ruleset or Rules()).most_in()
        return Stakes(Utility.ZERO_SUM, -float(most), float(most * (players - 1)), 0.0)

    def outcome(self, state: LeducState) -> Outcome:
        """The seats that won chips win; the others are ranked by their returns.

        Raises:
            GameNotOverError: If the hand is still being played.
        """
        returns = self.returns(state)
        best = max(returns)
        return Outcome.of_winners([seat for seat, value in enumerate(returns) if value == best], returns)

    # -- what a seat knows ------------------------------------------------------------------------------

    def _hand_seen(self, state: LeducState, seat: int, viewer: int | None) -> int | None:
        if seat == viewer or (self._shown(state) and not state.folded[seat]):
            return state.cards[seat]
        return None

    def _hands(self, state: LeducState, viewer: int | None) -> tuple[str, ...]:
        # Each seat's card as ``viewer`` sees it: "-" not dealt, "?" face down, else the card.
        return tuple(
            "-" if card is None else card_text(self._hand_seen(state, other, viewer)).replace("-", "?")
            for other, card in enumerate(state.cards)
        )

    def view(self, state: LeducState, seat: int | None) -> LeducView:
        """The viewer's own card, the public card and the betting; the hands still in at a showdown (L8)."""
        hands = self._hands(state, seat)
        betting = " / ".join("".join(_LETTERS[bet] for bet in moves) for moves in state.betting[: state.round])
        return LeducView(state.round, card_text(state.public), hands, state.chips, state.folded, betting)

    def information_state(self, state: LeducState, seat: int) -> str:
        """All ``seat`` knows: its card, which cards are dealt, the public card, each round's betting.

        The hands as the seat sees them (``"?"`` a card dealt face down, ``"-"`` none yet) tell it how far
        the deal has gone, and hold the hands a showdown turns up. Before the end this keys the histories as
        OpenSpiel's ``leduc_poker`` keys them (its own card by index, the betting by round).
        """
        hands = " ".join(self._hands(state, seat))
        rounds = "; ".join(
            f"round {n + 1}: " + "".join(_LETTERS[bet] for bet in moves) for n, moves in enumerate(state.betting)
        )
        return f"seat {seat} of {len(state.cards)}; hands {hands}; public {card_text(state.public)}; {rounds}"

    def resample(self, state: LeducState, seat: int, rng: random.Random) -> LeducState:
        """The hidden cards dealt again from the cards ``seat`` has not seen, each deal as likely.

        The betting does not depend on the cards by the rules, so every deal of the unseen cards is as likely
        as chance made it. The draws follow the seat's information only: its card, the public card, the
        hands a showdown turned up, and the seats' order.
        """
        known = {other: self._hand_seen(state, other, seat) for other in range(len(state.cards))}
        seen = {card for card in known.values() if card is not None}
        if state.public is not None:
            seen.add(state.public)
        left = [card for card in deck(len(state.cards)) if card not in seen]
        cards: list[int | None] = []
        for other, card in enumerate(state.cards):
            if card is None or known[other] is not None:
                cards.append(known[other] if card is not None else None)
            else:
                cards.append(left.pop(rng.randrange(len(left))))
        return LeducState(state.rules, state.first_player, tuple(cards), state.public, state.round, state.betting,
                          state.chips, state.folded, state.seat, state.raises, state.calls, state.over)  # fmt: skip

    def event_for(self, event: LeducEvent, viewer: int | None) -> LeducEvent | None:
        """A private card's deal shows the card to its own seat only; every other event is public."""
        if isinstance(event, Dealt) and event.seat is not None and event.seat != viewer:
            return Dealt(event.seat, None)
        return event

    # -- events and text -------------------------------------------------------------------------------

    def apply_with_events(self, state: LeducState, action: Action) -> tuple[LeducState, tuple[LeducEvent, ...]]:
        """The state after ``action``: a deal, a seat's bet, and at the end the showdown and the chips paid."""
        after = self.apply(state, action)
        events: list[LeducEvent] = []
        if isinstance(action, Deal):
            events.append(Dealt(state.cards.index(None) if None in state.cards else None, action.card))
        else:
            assert state.seat is not None
            events.append(Placed(state.seat, action, after.chips[state.seat] - state.chips[state.seat]))
        if after.over:
            if self._shown(after):
                events.append(
                    Showdown(tuple(None if out else card for card, out in zip(after.cards, after.folded, strict=True)))
                )
            events.append(Paid(self.returns(after)))
        return after, tuple(events)

    def action_text(self, action: Action, state: LeducState) -> str:
        """``fold``, ``check`` (a call of nothing), ``call``, ``raise``; a dealt card as ``Kh``."""
        if isinstance(action, Deal):
            return card_text(action.card)
        if isinstance(action, Call) and state.seat is not None and state.chips[state.seat] == max(state.chips):
            return "check"
        return ("fold", "call", "raise")[BETS.index(action)] if action in BETS else repr(action)

    def action_words(self, action: Action, state: LeducState, names: Sequence[str]) -> str:
        """What a choice does, in chips: ``"call 2"``, ``"raise by 4"``."""
        if isinstance(action, Deal) or state.seat is None:
            return self.action_text(action, state)
        owed = max(state.chips) - state.chips[state.seat]
        if isinstance(action, Raise):
            return f"raise by {state.rules.raises[state.round - 1]}" + (f" (calling {owed} first)" if owed else "")
        if isinstance(action, Call):
            return f"call {owed}" if owed else "check"
        return f"fold, giving up {state.chips[state.seat]} in the pot"

    def notation_actions(self, state: LeducState) -> Sequence[Action]:
        """Fold, call and raise whenever a seat decides, so a refused one gets its rule's reason."""
        if state.seat is None:
            return self.legal_actions(state)
        return (CALL, RAISE, FOLD) if state.chips[state.seat] == max(state.chips) else BETS

    def parse_actions(self, text: str, state: LeducState) -> tuple[Action, ...]:
        """One of ``fold``, ``check``, ``call`` or ``raise`` (``check`` and ``call`` both match the bet)."""
        if state.seat is not None and text.strip().casefold() in ("check", "call"):
            return (CALL,)
        return super().parse_actions(text, state)

    def event_text(self, event: LeducEvent, names: Sequence[str], viewer: int | None = None) -> str:
        """One line per event, as ``viewer`` sees it: another seat's card is face down (:meth:`event_for`)."""
        shown = self.event_for(event, viewer)

        def who(seat: int) -> str:
            return "You" if seat == viewer else names[seat] if seat < len(names) else f"Seat {seat}"

        if isinstance(shown, Dealt):
            if shown.seat is None:
                return f"The public card: {card_text(shown.card)}"
            if shown.card is None:
                return f"{who(shown.seat)}: dealt a card face down"
            return f"{who(shown.seat)}: dealt {card_text(shown.card)}"
        if isinstance(shown, Placed):
            verb = ("fold", "call" if shown.chips else "check", "raise")[BETS.index(shown.bet)]
            verb += "" if shown.seat == viewer else "s"  # "You raise", "Bob raises"
            return f"{who(shown.seat)} {verb}" + (f", {shown.chips} in" if shown.chips else "")
        if isinstance(shown, Showdown):
            return "Showdown: " + ", ".join(
                f"{who(seat)} {card_text(card)}" for seat, card in enumerate(shown.hands) if card is not None
            )
        if isinstance(shown, Paid):
            return "Paid: " + ", ".join(f"{who(seat)} {value:+g}" for seat, value in enumerate(shown.returns))
        return ""

    # -- bots ------------------------------------------------------------------------------------------

    def bot_names(self) -> tuple[str, ...]:
        """``("random", "heuristic")``."""
        return ("random", "heuristic")

    def bot_named(self, name: str, *, memory: int | None = None) -> GameBot[LeducState, Action]:
        """The random bot, or the :class:`~cheekymonkey_leduc.bots.HeuristicBot` (it reads only its own card).

        Raises:
            InvalidValueError: If there is no bot of that name, or ``memory`` is not a positive integer.
        """
        if name == "heuristic":
            super().bot_named("random", memory=memory)  # checks memory
            from cheekymonkey_leduc.bots import HeuristicBot

            return HeuristicBot()
        return super().bot_named(name, memory=memory)

    # -- learning --------------------------------------------------------------------------------------

    def observation_kinds(self) -> tuple[str, ...]:
        """``("view", "information")``: what a seat sees now, and all it has seen (OpenSpiel's information state)."""
        return ("view", "information")

    def encoding(
        self, players: int, ruleset: Rules | None = None, observation: str | None = None
    ) -> Encoding[LeducState, Action]:
        """:class:`~cheekymonkey_leduc.encoding.LeducEncoding`: OpenSpiel's action indices, a seat's view as numbers.

        Raises:
            InvalidValueError: If the seat count, rule set or observation kind does not fit.
        """
        from cheekymonkey_leduc.encoding import LeducEncoding

        return LeducEncoding(players, ruleset or Rules(), observation or "view")


LEDUC: Final = Leduc()
"""Leduc poker as a game of :mod:`cheekymonkey`: what the entry point ``leduc`` in ``cheekymonkey.games`` names."""
