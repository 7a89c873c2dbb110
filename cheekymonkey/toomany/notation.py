"""Text for actions, both ways: what a player types (``d``, ``w 4``, ``x 1 3``) and what a front end shows.

:func:`parse_action` reads an action typed in a state and :func:`action_text` writes one; a chat or terminal
front end needs no parser of its own. The notation (case and spaces do not matter):

- ``d`` draws from the pile (``draw``); ``t`` takes the discard top (``take``);
- ``w 4`` puts the wild on position 4 (``wild 4``, or just ``4`` while placing a wild);
- ``b`` takes the wild bonus (``bonus``, ``yes``);
- ``r 3`` lets the raccoon take a 3 (``raccoon 3``, or just ``3`` while the raccoon chooses);
- ``x 1 4`` turns down the card at seat 1's position 4 (``down 1 4``, ``x 1.4``; ``x 1`` if seat 1 shows
  one face-up card, ``x`` if only one card can be turned down);
- ``s 2`` gives the Skip to seat 2 (``skip 2``, or just ``2`` while giving the Skip; ``s`` if only one
  seat can take it);
- ``n`` declines the bonus, the raccoon, the Do Not Disturb or the Skip (``no``, ``none``, ``decline``);
- at a chance node, the card revealed: ``1`` to ``6``, ``w`` (wild), ``s`` (Skip), ``e`` (elephant), ``g``
  (giraffe), ``r`` (raccoon), ``d`` (Do Not Disturb), or its name (``reveal giraffe``).

A letter names the same kind of action in every phase where a player decides; at a chance node it names a
card (``s`` is the Skip card there). A number alone is read in the phase's own way. :func:`parse_actions`
reads several actions separated by ``,`` or ``;``.

>>> from cheekymonkey.toomany import Card, GiveSkip, Reveal, apply_all, new_game
>>> state = apply_all(new_game(2), [Reveal(Card.WILD)])
>>> parse_action("w 4", state), action_text(PlaceWild(4), state, long=True)
(PlaceWild(4), 'wild 4')

A text that names an action the rules do not allow now is refused with the engine's own reason
(:func:`~cheekymonkey.toomany.illegal_reason`), its rule in brackets, then what may be chosen instead:

>>> parse_action("d", state)
Traceback (most recent call last):
...
cheekymonkey.errors.ActionTextError: 'd': the wild in your hand must be placed first, ... of your row (TM11) ...
>>> skipping = apply_all(new_game(3), [Reveal(Card.SKIP), GiveSkip(2), Reveal(Card.SKIP)])
>>> parse_action("s 2", skipping)
Traceback (most recent call last):
...
cheekymonkey.errors.ActionTextError: 's 2': seat 2 already has a Skip waiting (TM17); the Skip can go to seat 0 ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cheekymonkey.errors import ActionTextError, IllegalActionError, InvalidValueError
from cheekymonkey.names import ascii_number
from cheekymonkey.toomany.actions import (
    DECLINE,
    DRAW,
    TAKE_BONUS,
    TAKE_DISCARD,
    Action,
    Draw,
    GiveSkip,
    PlaceWild,
    RaccoonTake,
    Reveal,
    TakeBonus,
    TakeDiscard,
    TurnDown,
)
from cheekymonkey.toomany.board import or_list
from cheekymonkey.toomany.cards import MAX_NUMBER, Card
from cheekymonkey.toomany.engine import apply, illegal_reason, is_chance_node, legal_actions
from cheekymonkey.toomany.state import GameState, Phase

__all__ = ["ActionTextError", "action_text", "parse_action", "parse_actions"]

_DECLINE_WORDS: Final = frozenset({"n", "no", "none", "decline", "pass", "nothing", "nobody"})
_SIMPLE: Final[dict[str, Action]] = {
    "d": DRAW,
    "draw": DRAW,
    "t": TAKE_DISCARD,
    "take": TAKE_DISCARD,
    "b": TAKE_BONUS,
    "bonus": TAKE_BONUS,
    "yes": TAKE_BONUS,
    "y": TAKE_BONUS,
}


def action_text(action: Action, state: GameState, *, long: bool = False) -> str:
    """The text for ``action`` in ``state``, which :func:`parse_action` reads back to the same action.

    Args:
        action: An action allowed in ``state`` (one of ``legal_actions(state)``).
        state: The state it is played in.
        long: Words instead of letters: ``"wild 4"``, ``"skip 2"`` rather than ``"w 4"``, ``"s 2"``.

    Returns:
        The text; for every legal action, ``parse_action(action_text(a, state), state) == a``.

    Raises:
        IllegalActionError: If the action is not allowed in ``state`` (text is only written for a legal one).

    >>> from cheekymonkey.toomany import Card, new_game
    >>> action_text(Reveal(Card.GIRAFFE), new_game(2)), action_text(Reveal(Card.SIX), new_game(2), long=True)
    ('g', 'reveal 6')
    """
    if action not in legal_actions(state):
        raise IllegalActionError(state, action, f"it is not allowed now, so it has no text (phase {state.phase})")
    if isinstance(action, Reveal):
        return f"reveal {action.card.label.lower()}" if long else action.card.code.lower()
    if isinstance(action, PlaceWild):
        return f"{'wild' if long else 'w'} {action.position}"
    if isinstance(action, RaccoonTake):
        return f"{'raccoon' if long else 'r'} {action.card.number}"
    if isinstance(action, TurnDown):
        return f"{'down' if long else 'x'} {action.seat} {action.position}"
    if isinstance(action, GiveSkip):
        return f"{'skip' if long else 's'} {action.seat}"
    if isinstance(action, Draw):
        return "draw" if long else "d"
    if isinstance(action, TakeDiscard):
        return "take" if long else "t"
    if isinstance(action, TakeBonus):
        return "bonus" if long else "b"
    return "decline" if long else "n"


def _valid(state: GameState) -> tuple[str, ...]:
    return tuple(action_text(action, state) for action in legal_actions(state))


def _fail(text: str, reason: str, state: GameState) -> ActionTextError:
    return ActionTextError(text, reason, _valid(state))


def _refuse(text: str, state: GameState, action: Action, instead: str = "") -> ActionTextError:
    # The refusal path: the engine says why it refuses the action the text names (illegal_reason), so the
    # player reads the rule's own reason, never a generic one.
    reason = illegal_reason(state, action)
    assert reason is not None, f"{action!r} is refused only when the rules refuse it"
    return ActionTextError.refused(text, action, reason, _valid(state), instead)


def _checked(text: str, state: GameState, legal: tuple[Action, ...], action: Action) -> Action:
    if action in legal:
        return action
    raise _refuse(text, state, action)


def _numbers(text: str, words: list[str], state: GameState, what: str) -> list[int]:
    numbers = []
    for word in words:
        number = ascii_number(word)  # digits 0-9 only: a superscript or circled digit is no number here
        if number is None:
            raise _fail(text, f"{word[:20]!r} is not a {what}", state)
        numbers.append(number)
    return numbers


def parse_action(text: str, state: GameState) -> Action:
    """Read one action typed in ``state``, in the notation of this module's description.

    A letter names its action whatever the phase (``s 1`` always gives a Skip), so text that names an action
    the rules do not allow now is refused with the engine's own reason (:func:`illegal_reason`): ``s 1``
    while seat 1 has a Skip waiting says so (TM17), ``d`` with a wild in hand says the wild must be placed
    first (TM11). A number alone is read in the phase's own way (a position while placing a wild).

    Args:
        text: What the player typed (case and surrounding spaces do not matter).
        state: The state they typed it in; its phase decides how the text is read.

    Returns:
        The one action the text names, legal in ``state``.

    Raises:
        ActionTextError: If the text names no action, an action the rules do not allow now (saying why, and
            carrying the action as its ``action``), or more than one; its ``valid`` lists the texts that would
            have been valid.

    >>> from cheekymonkey.toomany import new_game
    >>> parse_action("giraffe", new_game(2))
    Reveal(Card.GIRAFFE)
    """
    if not isinstance(text, str):
        raise _fail(repr(text), f"{text!r} is not text", state)
    phase = state.phase
    if phase is Phase.OVER:
        raise ActionTextError(text, "the game is over: no action is allowed (TM23)", ())
    words = text.strip().lower().replace(".", " ").split()
    if not words:
        raise _fail(text, "say what to do", state)
    legal = legal_actions(state)
    if is_chance_node(state):
        if words[0] == "reveal":
            words = words[1:]
        try:
            card = Card.parse(" ".join(words))
        except InvalidValueError:
            raise _fail(text, "name the card revealed", state) from None
        return _checked(text, state, legal, Reveal(card))
    head, rest = words[0], words[1:]
    if head in _DECLINE_WORDS and not rest:
        return _checked(text, state, legal, DECLINE)
    simple = _SIMPLE.get(head)
    if simple is not None and not rest:
        return _checked(text, state, legal, simple)
    kind = _PREFIXES.get(head)
    if head == "take" and phase is Phase.RACCOON:
        kind = RaccoonTake  # "take 3": the raccoon's pick; "take" alone takes the discard top
    if kind is None:
        kind = _NUMBERS_ALONE.get(phase) if all(ascii_number(word) is not None for word in words) else None
        if kind is None:
            raise _fail(text, "that is not a move", state)
        rest = words
    if issubclass(kind, TurnDown):
        return _turn_down(text, state, legal, rest)
    return _choose(text, state, legal, kind, rest)


_PREFIXES: Final[dict[str, type[PlaceWild | RaccoonTake | TurnDown | GiveSkip]]] = {
    **dict.fromkeys(("w", "wild", "place"), PlaceWild),
    **dict.fromkeys(("r", "raccoon"), RaccoonTake),
    **dict.fromkeys(("x", "down", "turn"), TurnDown),
    **dict.fromkeys(("s", "skip", "give"), GiveSkip),
}
"""The words that name a kind of action, whatever the phase (an action of another phase is refused, saying why)."""

_NUMBERS_ALONE: Final[dict[Phase, type[PlaceWild | RaccoonTake | TurnDown | GiveSkip]]] = {
    Phase.WILD: PlaceWild,
    Phase.RACCOON: RaccoonTake,
    Phase.DISTURB: TurnDown,
    Phase.SKIP: GiveSkip,
}
"""What numbers alone name in each phase that reads them: ``4`` while placing a wild is ``w 4``."""

_WHAT: Final = {PlaceWild: "position", RaccoonTake: "number", GiveSkip: "seat"}


def _offer(kind: type[PlaceWild | RaccoonTake | GiveSkip], options: Sequence[Action]) -> str:
    shown = or_list([str(_field(option)) for option in options])
    if kind is PlaceWild:
        return f"the wild can go on {shown}"
    if kind is RaccoonTake:
        return f"the raccoon can take {shown}"
    return f"the Skip can go to seat {shown}"


def _build(kind: type[PlaceWild | RaccoonTake | GiveSkip], number: int) -> Action:
    """The action of ``kind`` for ``number``; raises InvalidValueError (saying why) when there is none."""
    if kind is RaccoonTake:
        if not 1 <= number <= MAX_NUMBER:
            raise InvalidValueError(f"there is no number {number}: the numbers are 1 to {MAX_NUMBER} (TM1)")
        return RaccoonTake(Card(number))
    return kind(number)


def _choose(
    text: str,
    state: GameState,
    legal: tuple[Action, ...],
    kind: type[PlaceWild | RaccoonTake | GiveSkip],
    rest: list[str],
) -> Action:
    options = [action for action in legal if isinstance(action, kind)]
    what = _WHAT[kind]
    if not options and not rest:
        # Not this phase's kind of action: the engine's reason is the same for any position, number or seat.
        reason = illegal_reason(state, _build(kind, 1))
        assert reason is not None
        raise ActionTextError.refused(text, None, reason, _valid(state))
    if not rest:
        if len(options) == 1:
            return options[0]
        raise _fail(text, f"say which {what}: {_offer(kind, options)}", state)
    if len(rest) != 1:
        offer = f": {_offer(kind, options)}" if options else ""
        raise _fail(text, f"give one {what}{offer}", state)
    (number,) = _numbers(text, rest, state, what)
    try:
        action = _build(kind, number)
    except InvalidValueError as error:
        raise _fail(text, f"{error}; {_offer(kind, options)}" if options else str(error), state) from None
    if action in legal:
        return action
    raise _refuse(text, state, action, _offer(kind, options) if options else "")


def _field(action: Action) -> int:
    if isinstance(action, PlaceWild):
        return action.position
    if isinstance(action, RaccoonTake):
        return action.card.value
    assert isinstance(action, GiveSkip)
    return action.seat


def _turn_down(text: str, state: GameState, legal: tuple[Action, ...], rest: list[str]) -> Action:
    options = [action for action in legal if isinstance(action, TurnDown)]
    shown = or_list([f"{option.seat} {option.position}" for option in options])
    offer = f"the cards you can turn down: {shown}" if options else ""
    if len(rest) > 2:
        raise _fail(text, f"give a seat and a position: {offer}" if offer else "give a seat and a position", state)
    numbers = _numbers(text, rest, state, "seat or position")
    if len(numbers) == 2:
        try:
            action = TurnDown(*numbers)
        except InvalidValueError as error:
            raise _fail(text, f"{error}; {offer}" if offer else str(error), state) from None
        if action in legal:
            return action
        raise _refuse(text, state, action, offer)
    matches = [option for option in options if [option.seat, option.position][: len(numbers)] == numbers]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise _fail(text, f"say which card: {or_list([f'{m.seat} {m.position}' for m in matches])}", state)
    # No card there: the engine's reason for the seat named (yourself, a seat the game has not, no Do Not
    # Disturb in hand), or a seat that shows no face-up card.
    seat = numbers[0] if numbers else (state.seat + 1) % len(state.rows)
    reason = illegal_reason(state, TurnDown(seat, 1))
    if options and seat != state.seat and seat < len(state.rows):
        reason = f"TM15: seat {seat} shows no face-up card to turn down"
    assert reason is not None
    raise ActionTextError.refused(text, None, reason, _valid(state), offer)


def parse_actions(text: str, state: GameState) -> tuple[Action, ...]:
    """Read one action or several separated by ``,`` or ``;``, each read in the state the ones before it lead to.

    Args:
        text: What the player typed.
        state: The state they typed it in.

    Returns:
        The actions, in order; each is legal where it falls.

    Raises:
        ActionTextError: If a part names no action allowed where it falls; the error's text is that part.

    >>> from cheekymonkey.toomany import new_game
    >>> parse_actions("3; 5", new_game(2))
    (Reveal(Card.THREE), Reveal(Card.FIVE))
    """
    if not isinstance(text, str):
        raise _fail(repr(text), f"{text!r} is not text", state)
    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if not parts:
        raise _fail(text, "say what to do", state)
    actions: list[Action] = []
    for part in parts:
        action = parse_action(part, state)
        actions.append(action)
        state = apply(state, action)
    return tuple(actions)
