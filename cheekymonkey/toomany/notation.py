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

The phase says which action a letter names: at a chance node ``s`` is the Skip card, when giving a Skip
it is the seat. :func:`parse_actions` reads several actions separated by ``,`` or ``;``.

>>> from cheekymonkey.toomany import Card, Reveal, apply_all, new_game
>>> state = apply_all(new_game(2), [Reveal(Card.WILD)])
>>> parse_action("w 4", state), action_text(PlaceWild(4), state, long=True)
(PlaceWild(4), 'wild 4')
>>> parse_action("w 9", state)
Traceback (most recent call last):
...
cheekymonkey.errors.ActionTextError: 'w 9': there is no face-down position 9; the wild can go on 1, 2, 3, ...
"""

from __future__ import annotations

from typing import Final

from cheekymonkey.errors import ActionTextError, IllegalActionError, InvalidValueError
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
from cheekymonkey.toomany.cards import Card
from cheekymonkey.toomany.engine import apply, is_chance_node, legal_actions
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
_PREFIXES: Final[dict[Phase, frozenset[str]]] = {
    Phase.WILD: frozenset({"w", "wild", "place"}),
    Phase.RACCOON: frozenset({"r", "raccoon", "take"}),
    Phase.DISTURB: frozenset({"x", "down", "turn"}),
    Phase.SKIP: frozenset({"s", "skip", "give"}),
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


def _numbers(text: str, words: list[str], state: GameState, what: str) -> list[int]:
    numbers = []
    for word in words:
        if not word.isdigit():
            raise _fail(text, f"{word!r} is not a {what}", state)
        numbers.append(int(word))
    return numbers


def parse_action(text: str, state: GameState) -> Action:
    """Read one action typed in ``state``, in the notation of this module's description.

    Args:
        text: What the player typed (case and surrounding spaces do not matter).
        state: The state they typed it in; its phase decides how the text is read.

    Returns:
        The one action the text names, legal in ``state``.

    Raises:
        ActionTextError: If the text names no action, an action the rules do not allow now (saying why), or
            more than one; its ``valid`` lists the texts that would have been valid.

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
        reveal = Reveal(card)
        if reveal not in legal:
            raise _fail(text, f"no {card.label} can be revealed now: none is left where this card comes from", state)
        return reveal
    head = words[0]
    if head in _DECLINE_WORDS and len(words) == 1:
        if DECLINE not in legal:
            raise _fail(text, "nothing is offered to decline now", state)
        return DECLINE
    simple = _SIMPLE.get(head)
    if simple is not None and len(words) == 1:
        if simple not in legal:
            raise _fail(text, f"{head!r} is not allowed now", state)
        return simple
    prefixes = _PREFIXES.get(phase)
    if prefixes is None:
        raise _fail(text, "that is not an action allowed now", state)
    rest = words[1:] if head in prefixes else words
    if phase is Phase.WILD:
        return _choose(text, state, legal, PlaceWild, rest, "position", "the wild can go on")
    if phase is Phase.RACCOON:
        return _choose(text, state, legal, RaccoonTake, rest, "number", "the raccoon can take")
    if phase is Phase.SKIP:
        return _choose(text, state, legal, GiveSkip, rest, "seat", "the Skip can go to seat")
    return _turn_down(text, state, legal, rest)


def _choose(
    text: str,
    state: GameState,
    legal: tuple[Action, ...],
    kind: type[PlaceWild | RaccoonTake | GiveSkip],
    rest: list[str],
    what: str,
    offer: str,
) -> Action:
    options = [action for action in legal if isinstance(action, kind)]
    shown = [str(_field(option)) for option in options]
    if not rest:
        if len(options) == 1:
            return options[0]
        raise _fail(text, f"say which {what}: {offer} {or_list(shown)}", state)
    if len(rest) != 1:
        raise _fail(text, f"give one {what}: {offer} {or_list(shown)}", state)
    (number,) = _numbers(text, rest, state, what)
    for option in options:
        if _field(option) == number:
            return option
    where = "face-down position" if kind is PlaceWild else what
    raise _fail(text, f"there is no {where} {number}; {offer} {or_list(shown)}", state)


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
    if len(rest) > 2:
        raise _fail(text, f"give a seat and a position: one of {shown}", state)
    numbers = _numbers(text, rest, state, "seat or position")
    matches = [option for option in options if [option.seat, option.position][: len(numbers)] == numbers]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise _fail(text, f"no face-up card of an opponent is there; the cards you can turn down: {shown}", state)
    raise _fail(text, f"say which card: {shown}", state)


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
