"""Text for actions, both ways: what a player types (``d``, ``c 2``, ``ls``) and what a front end shows.

python-chess reads a move with ``board.parse_san("Nf3")`` and writes one with ``board.san(move)``;
here :func:`parse_action` reads an action in a state and :func:`action_text` writes one, so a chat or
terminal front end does not need a parser of its own. The notation:

- ``d`` draws (also ``draw``), ``s`` stops (``stop``), ``h`` secures a herd (``herd``);
- ``c 2`` claims from seat 2 (also ``c2``, ``claim 2``; just ``c`` when only one seat can be claimed
  from); ``w 1`` swaps with seat 1 (``w1``, ``swap 1``; just ``w`` when only one seat can be swapped with);
- while stacking, ``l`` puts a Lion down (also ``lion``, ``place lion``, or any start of the name, ``li``);
- at a chance node, ``l`` is the draw of a Lion (also ``lion``, ``reveal lion``).

Each animal has its own first letter (``e s h g p k l m``: Elephant, Seal, Hippo, Giraffe, Panda,
Kangaroo, Lion, Monkey). The phase says whether ``s`` stops (deciding) or puts a Seal down (placing).
Case and spaces around the text do not matter.

>>> from cheekymonkey import Animal, Reveal, Stop, apply_all, new_game
>>> state = apply_all(new_game(3), [Reveal(Animal.LION), Stop(), Reveal(Animal.LION)])
>>> parse_action("c 0", state)
Claim(0)
>>> action_text(parse_action("claim", state), state), action_text(Stop(), state, long=True)
('c 0', 'stop')
>>> parse_action("c 2", state)
Traceback (most recent call last):
...
cheekymonkey.errors.ActionTextError: 'c 2': seat 2's stack is empty (R7); you can claim from 0 (valid now: ...)

A text that names an action the rules do not allow now is refused, as there, with the engine's own reason
(:func:`~cheekymonkey.illegal_reason`), its rule in brackets, then what may be chosen instead.

While stacking, one answer may put several tokens down, bottom first (:func:`parse_actions`).
"""

from __future__ import annotations

from typing import Final

from cheekymonkey.cheeky.actions import DRAW, HERD, STOP, Action, Claim, Draw, Place, Reveal, Stop, Swap
from cheekymonkey.cheeky.engine import illegal_reason, legal_actions
from cheekymonkey.cheeky.rules import ANIMALS, Animal
from cheekymonkey.cheeky.state import GameState, Phase, all_one_animal
from cheekymonkey.errors import ActionTextError, IllegalActionError
from cheekymonkey.names import ascii_number

__all__ = ["ActionTextError", "action_text", "parse_action", "parse_actions"]

_LETTER: Final = {a: a.name[0].lower() for a in ANIMALS}
_BY_LETTER: Final = {letter: a for a, letter in _LETTER.items()}
# Every animal has its own first letter, so one letter names one animal (tests check it stays so).

_SIMPLE: Final[dict[str, Action]] = {"d": DRAW, "draw": DRAW, "s": STOP, "stop": STOP, "h": HERD, "herd": HERD}
_SEAT_WORDS: Final[dict[str, type[Claim | Swap]]] = {"c": Claim, "claim": Claim, "w": Swap, "swap": Swap}


def action_text(action: Action, state: GameState, *, long: bool = False) -> str:
    """The text for ``action`` in ``state``, which :func:`parse_action` reads back to the same action.

    Args:
        action: An action allowed in ``state`` (one of ``legal_actions(state)``).
        state: The state it is played in.
        long: Words instead of letters: ``"claim 2"``, ``"place lion"`` rather than ``"c 2"``, ``"l"``.

    Returns:
        The text; for every legal action, ``parse_action(action_text(a, state), state) == a``.

    Raises:
        IllegalActionError: If the action is not allowed in ``state`` (like python-chess's ``san``, the
            text is only written for a legal move).

    >>> from cheekymonkey import Animal, Place, Reveal, new_game
    >>> action_text(Reveal(Animal.LION), new_game(2)), action_text(Reveal("lion"), new_game(2), long=True)
    ('l', 'reveal lion')
    """
    if action not in legal_actions(state):
        raise IllegalActionError(state, action, f"it is not allowed now, so it has no text (phase {state.phase})")
    if isinstance(action, Claim | Swap):
        word = ("claim" if long else "c") if isinstance(action, Claim) else ("swap" if long else "w")
        return f"{word} {action.seat}"
    if isinstance(action, Place | Reveal):
        if not long:
            return _LETTER[action.animal]
        return f"{'place' if isinstance(action, Place) else 'reveal'} {action.animal.name.lower()}"
    if isinstance(action, Draw):
        return "draw" if long else "d"
    if isinstance(action, Stop):
        return "stop" if long else "s"
    return "herd" if long else "h"


def _valid(state: GameState) -> tuple[str, ...]:
    return tuple(action_text(a, state) for a in legal_actions(state))


def _refuse(text: str, state: GameState, action: Action, instead: str = "", *, named: bool = True) -> ActionTextError:
    # The refusal path: the engine says why it refuses the action (illegal_reason), so the player reads the
    # rule's own reason, never a generic one. ``named``: the text names this very action (else it stands
    # for a kind of action refused whatever its seat).
    reason = illegal_reason(state, action)
    assert reason is not None, f"{action!r} is refused only when the rules refuse it"
    return ActionTextError.refused(text, action if named else None, reason, _valid(state), instead)


def _animals(text: str, words: list[str], state: GameState) -> list[Animal]:
    """The animals named by ``words``: names or their starts, or runs of first letters (``ls``)."""
    chosen: list[Animal] = []
    for word in words:
        starts = [a for a in ANIMALS if a.name.lower().startswith(word)]
        if len(starts) == 1:
            chosen.append(starts[0])
        elif word.isalpha() and all(letter in _BY_LETTER for letter in word):
            chosen.extend(_BY_LETTER[letter] for letter in word)
        else:
            names = ", ".join(f"{_LETTER[a]} ({a.name.lower()})" for a in ANIMALS)
            wrong = [letter for letter in word if letter not in _BY_LETTER]
            if word.isalpha() and len(word) > 1 and len(wrong) < len(word):
                # A run of letters with one (or a few) amiss: name the letters at fault, not the whole run.
                letters = " and ".join(repr(letter) for letter in dict.fromkeys(wrong))
                its = "is not an animal's letter" if len(set(wrong)) == 1 else "are not animals' letters"
                reason = f"{letters} in {word!r} {its}; the animals are {names}"
            else:
                reason = f"{word!r} is not an animal; the animals are {names}"
            raise ActionTextError(text, reason, _valid(state))
    return chosen


def parse_actions(text: str, state: GameState) -> tuple[Action, ...]:
    """Read text that may name several actions: while stacking, ``"ls"`` (or ``"lion seal"``) puts a Lion, then a Seal.

    Otherwise it reads exactly what :func:`parse_action` reads, as a one-action tuple. Tokens named
    after the turn has ended by itself (the last animals left in front go on without a choice, R9) are
    left out, so ``"lsm"`` with a Seal, a Lion and a Monkey in front gives two actions.

    Args:
        text: What the player typed.
        state: The state they typed it in.

    Returns:
        The actions, in the order to apply them; each is legal where it falls.

    Raises:
        ActionTextError: If the text names no action allowed now; its ``valid`` lists what is.

    >>> from cheekymonkey import Animal, Draw, Reveal, Stop, apply_all, new_game
    >>> state = apply_all(new_game(2), [Reveal("seal"), Draw(), Reveal("lion"), Draw(), Reveal("monkey"), Stop()])
    >>> parse_actions("ls", state)
    (Place(Animal.LION), Place(Animal.SEAL))
    """
    if not isinstance(text, str) or state.phase is not Phase.PLACING:
        return (parse_action(text, state),)
    words = text.strip().lower().replace(",", " ").split()
    if words and words[0] == "place":
        words = words[1:]
    if not words:
        raise ActionTextError(
            text,
            "say which animal to put on your stack next: its letter or its name, or several letters at once, "
            "bottom first",
            _valid(state),
        )
    other = _other_move(text, words, state)
    if other is not None:
        raise _refuse(text, state, other)  # a move of the deciding phase, while stacking (R9)
    chosen = _animals(text, words, state)
    remaining = list(state.front)
    for animal in chosen:
        if animal not in remaining:
            front = ", ".join(a.label for a in state.front)
            if animal not in state.front:
                raise _refuse(text, state, Place(animal), f"in front of you: {front}")
            many = state.front.count(animal)
            tokens = f"{many} {animal.label} is" if many == 1 else f"{many} {animal.label}s are"
            reason = f"R9: you name more than there are: only {tokens} in front of you"
            raise ActionTextError.refused(text, None, reason, _valid(state), f"in front of you: {front}")
        remaining.remove(animal)
    actions: list[Action] = []
    left = list(state.front)
    for animal in chosen:
        if all_one_animal(tuple(left)):
            break  # R9: what is left goes on by itself, in the only order there is
        actions.append(Place(animal))
        left.remove(animal)
    return tuple(actions)


def _other_move(text: str, words: list[str], state: GameState) -> Action | None:
    """The move of the deciding phase that ``words`` name while stacking (``d``, ``stop``, ``c 2``), or None.

    ``s`` and ``h`` are a Seal and a Hippo while stacking; the words in full (``stop``, ``herd``) are the moves.
    """
    head = words[0]
    if head[:1] in ("c", "w") and ascii_number(head[1:]) is not None and len(words) == 1:
        head, words = head[0], [head[0], head[1:]]
    if head in _SEAT_WORDS:
        seat = ascii_number(words[1]) if len(words) == 2 else None
        if seat is not None:
            return _SEAT_WORDS[head](seat)
        return _SEAT_WORDS[head]((state.seat + 1) % len(state.stacks))
    if len(words) == 1 and head in _STACKING_MOVES:
        return _STACKING_MOVES[head]
    return None


_STACKING_MOVES: Final[dict[str, Action]] = {"d": DRAW, "draw": DRAW, "stop": STOP, "herd": HERD}
"""The deciding phase's moves by the words that cannot name an animal while stacking."""


def _seat_action(text: str, kind: type[Claim | Swap], rest: str, state: GameState) -> Action:
    options = [a for a in legal_actions(state) if isinstance(a, kind)]
    verb = "claim from" if kind is Claim else "swap with"
    seats = ", ".join(str(a.seat) for a in options)
    instead = f"you can {verb} {seats}" if options else ""
    if not rest:
        if len(options) == 1:
            return options[0]
        if options:
            raise ActionTextError(text, f"say which seat to {verb}: {seats}", _valid(state))
        raise _nobody(text, kind, state)
    seat = ascii_number(rest)  # digits 0-9 only: a superscript or circled digit is no seat number
    if seat is None:
        raise ActionTextError(
            text, f"{rest[:20]!r} is not a seat number; {instead or f'there is nobody to {verb} now'}", _valid(state)
        )
    action = kind(seat)
    if action in options:
        return action
    raise _refuse(text, state, action, instead)


def _nobody(text: str, kind: type[Claim | Swap], state: GameState) -> ActionTextError:
    """Why no seat can be claimed from (or swapped with): the engine's one reason for every seat, or the tops."""
    others = [seat for seat in range(len(state.stacks)) if seat != state.seat]
    reasons = {illegal_reason(state, kind(seat)) for seat in others}
    if len(reasons) == 1:
        (reason,) = reasons
    elif kind is Claim:
        assert state.claimable is not None  # else every seat has the one reason of R7, R12
        reason = f"R7: no opponent's top token is a {state.claimable.label}, the animal just drawn"
    else:
        reason = "R12: every opponent's stack is empty or has a monkey on top"
    assert reason is not None
    return ActionTextError.refused(text, None, reason, _valid(state))


def parse_action(text: str, state: GameState) -> Action:
    """Read one action typed in ``state``: ``d``, ``s``, ``h``, ``c 2``, ``w 1``, or an animal while stacking.

    The notation is in the module's description above; :func:`action_text` writes it. A text that names an
    action the rules do not allow now is refused with the engine's own reason (:func:`illegal_reason`):
    ``c 2`` when seat 2's top is not the animal just drawn says so (R7), ``d`` while stacking says the
    tokens go on the stack first (R9).

    Args:
        text: What the player typed (case and surrounding spaces do not matter).
        state: The state they typed it in; the phase decides how the text is read.

    Returns:
        The one action the text names, legal in ``state``.

    Raises:
        ActionTextError: If the text names no action, an action the rules do not allow now (saying
            why, R7-R12, and carrying the action as its ``action``), or more than one; its ``valid``
            lists the texts that would have been valid.

    >>> from cheekymonkey import new_game
    >>> parse_action("lion", new_game(2))
    Reveal(Animal.LION)
    """
    if not isinstance(text, str):
        raise ActionTextError(repr(text), f"{text!r} is not text", _valid(state))
    answer = text.strip().lower()
    phase = state.phase
    if phase is Phase.OVER:
        raise ActionTextError(text, "the game is over: no action is allowed (R15)", ())
    if phase is Phase.PLACING:
        actions = parse_actions(text, state)
        if len(actions) != 1:
            raise ActionTextError(text, "that is several tokens; name one (parse_actions reads several)", _valid(state))
        return actions[0]
    if phase is Phase.CHANCE:
        words = answer.split()
        if words and words[0] == "reveal":
            words = words[1:]
        if len(words) != 1:
            raise ActionTextError(text, "a draw reveals one animal: name it", _valid(state))
        named = _animals(text, words, state)
        if len(named) != 1:
            raise ActionTextError(text, "a draw reveals one animal: name one", _valid(state))
        reveal = Reveal(named[0])
        if reveal not in legal_actions(state):
            raise _refuse(text, state, reveal)
        return reveal
    if not answer:
        raise ActionTextError(text, "say what to do", _valid(state))
    word, _, rest = answer.partition(" ")
    rest = rest.strip()
    if word[:1] in ("c", "w") and ascii_number(word[1:]) is not None:
        word, rest = word[0], word[1:]
    seat_kind = _SEAT_WORDS.get(word)
    if seat_kind is not None:
        return _seat_action(text, seat_kind, rest, state)
    action = _SIMPLE.get(word)
    if action is None:
        # An animal named while deciding: tokens go on the stack only after a stop (R8, R9).
        words = answer.replace(",", " ").removeprefix("place ").split()
        try:
            named = _animals(text, words, state) if words else []
        except ActionTextError:
            named = []
        if named:
            raise _refuse(text, state, Place(named[0]))
        raise ActionTextError(text, "that is not a move", _valid(state))
    if rest:
        raise ActionTextError(text, f"{word!r} takes nothing after it", _valid(state))
    if action not in legal_actions(state):
        raise _refuse(text, state, action)
    return action
