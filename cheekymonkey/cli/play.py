"""``cheekymonkey play``: you against bots in the terminal, with a record of the game saved at the end.

Answers are short: ``d`` draws, ``s`` stops, ``h`` secures a herd, ``c 2`` claims from seat 2, ``w 1``
swaps with seat 1, and while stacking a letter (or a name) picks the animal to put down next. ``?``
shows the help. The game also reads its answers from a pipe or a file: when standard input runs out
before the end, it says so, saves the record of the game so far, and exits with status 1 (130 after
Ctrl-C, also saving the record). A game played to the end, or quit with ``q``, exits with status 0.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

from cheekymonkey.actions import DRAW, HERD, PLACES, STOP, Action, Claim, Herd, Place, Swap
from cheekymonkey.bots import bot_named
from cheekymonkey.cli.narrate import (
    describe_event,
    make_console,
    sheet_table,
    stdin_is_terminal,
    table_of,
    tokens,
)
from cheekymonkey.cli.options import add_bots_option, add_game_options, bots_for_seats, ruleset_from
from cheekymonkey.engine import legal_actions, sample_chance
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import rngs_for
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import ANIMALS, Animal
from cheekymonkey.scoring import score
from cheekymonkey.serialization import dump_record
from cheekymonkey.state import GameState, Phase, new_game

__all__ = ["add_arguments", "parse_answer", "run"]

HELP = """\
While deciding:
  d, draw        draw another token (the odds of a bust are shown above)
  s, stop        stop: put the tokens in front of you on your stack (you choose the order)
  h, herd        secure a herd: all tokens in front show one animal; they go under your stack
  c SEAT         claim the top token of SEAT's stack (just c if only one seat can be claimed from)
  w SEAT         swap the monkey you just drew with SEAT's top token (just w if only one seat)
While stacking (the last token you put down ends on top, where others can claim it):
  e s h g p k l m, or a name   put that animal down next; several at once, bottom first: "s l" or "sl"
Any time:
  t, table       show the table again
  ?, help        this help
  q, quit        give up the game (the record so far is still saved)"""


class _Quit(Exception):
    """The player asked to quit."""


class _EndOfInput(Exception):
    """Standard input ran out before the game ended."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    add_game_options(parser)
    add_bots_option(parser, who="your opponents")
    parser.add_argument("--record", type=Path, default=None, help="where to save the game record (default: a new file)")
    parser.add_argument("--no-record", action="store_true", help="do not save a record of the game")
    parser.epilog = (
        "Answers may come from a pipe or a file, one per line. If the input ends before the game does, the "
        "game stops, the record so far is saved, and the exit status is 1; a finished or quit game exits with 0."
    )


def _animal_words(word: str, allowed: tuple[Animal, ...]) -> list[Animal] | str:
    # Every animal has its own first letter, so any prefix of a name picks one animal.
    matches = [a for a in ANIMALS if a.name.lower().startswith(word)]
    if len(matches) == 1:
        return matches
    if word.isalpha() and all(any(a.name.lower()[0] == letter for a in ANIMALS) for letter in word):
        return [next(a for a in ANIMALS if a.name.lower()[0] == letter) for letter in word]
    return f"{word!r} is not an animal; in front of you: {tokens(allowed)}"


def _seat_answer(kind: type[Claim] | type[Swap], rest: str, legal: tuple[Action, ...]) -> Action | str:
    options = [a for a in legal if isinstance(a, kind)]
    verb = "claim from" if kind is Claim else "swap with"
    if not options:
        return f"there is nobody to {verb} now"
    if not rest:
        if len(options) == 1:
            return options[0]
        return f"say which seat to {verb}: {', '.join(str(a.seat) for a in options)}"
    if not rest.isdigit():
        return f"{rest!r} is not a seat number"
    for action in options:
        if action.seat == int(rest):
            return action
    return f"you cannot {verb} seat {rest}; you can {verb} {', '.join(str(a.seat) for a in options)}"


def parse_answer(text: str, state: GameState) -> list[Action] | str:
    """Turn a typed answer into the actions it asks for, or a message saying why it cannot be done.

    Args:
        text: What the player typed (``"d"``, ``"c 2"``, ``"sl"``, ...); commands like help are handled elsewhere.
        state: The state the player is deciding or stacking in.

    Returns:
        The actions to apply in order (several only when stacking several tokens at once), or an
        explanation for the player.
    """
    answer = text.strip().lower()
    legal = legal_actions(state)
    if not answer:
        return "type an answer, or ? for help"
    if state.phase is Phase.PLACING:
        chosen: list[Animal] = []
        for word in answer.replace(",", " ").split():
            found = _animal_words(word, state.front)
            if isinstance(found, str):
                return found
            chosen.extend(found)
        remaining = list(state.front)
        for animal in chosen:
            if animal not in remaining:
                return f"no {animal.label} left in front of you; in front of you: {tokens(state.front)}"
            remaining.remove(animal)
        return [PLACES[a] for a in chosen]
    word, _, rest = answer.partition(" ")
    rest = rest.strip()
    if word[0] in "cw" and word[1:].isdigit():
        word, rest = word[0], word[1:]
    if word in ("d", "draw"):
        return [DRAW] if DRAW in legal else "the bag is empty: you cannot draw (R8)"
    if word in ("s", "stop"):
        return [STOP]
    if word in ("h", "herd"):
        return [HERD] if HERD in legal else "a herd needs every token in front of you to show one animal (R10)"
    if word in ("c", "claim"):
        found_claim = _seat_answer(Claim, rest, legal)
        return found_claim if isinstance(found_claim, str) else [found_claim]
    if word in ("w", "swap"):
        found_swap = _seat_answer(Swap, rest, legal)
        return found_swap if isinstance(found_swap, str) else [found_swap]
    return f"{text.strip()!r} is not an answer; type ? for help"


def _choices(state: GameState, names: list[str]) -> str:
    if state.phase is Phase.PLACING:
        letters = ", ".join(f"{a.name.lower()[0]}={a.label}" for a in ANIMALS if a in state.front)
        return f"Put which token down next ({letters})? "
    parts = []
    for action in legal_actions(state):
        if action is DRAW:
            parts.append("d=draw")
        elif action is STOP:
            parts.append("s=stop")
        elif isinstance(action, Herd):
            parts.append("h=herd")
        elif isinstance(action, Claim):
            parts.append(f"c {action.seat}=claim from {names[action.seat]}")
        elif isinstance(action, Swap):
            top = state.stacks[action.seat][-1].label
            parts.append(f"w {action.seat}=swap with {names[action.seat]} for a {top}")
    return f"{', '.join(parts)}, ?=help: "


def _default_record_path() -> Path:
    stamp = datetime.datetime.now(tz=datetime.UTC).strftime("%Y%m%d-%H%M%S")
    return Path(f"cheekymonkey-{stamp}.json")


def run(args: argparse.Namespace) -> int:
    """Play a game against bots, reading answers from standard input; return the exit status."""
    console = make_console()
    ruleset = ruleset_from(args)
    players: int = args.players
    human = 0
    kinds = bots_for_seats(args.bots, players - 1)
    bots = {seat: bot_named(kind) for seat, kind in enumerate(kinds, start=1)}
    names = ["You", *(f"{kind.capitalize()} {seat}" for seat, kind in enumerate(kinds, start=1))]
    echo = not stdin_is_terminal()
    state = new_game(players, ruleset=ruleset, first_player=0)
    chance_rng, bot_rng = rngs_for(args.seed)
    actions: list[Action] = []
    seed = "random" if args.seed is None else args.seed
    console.print(f"Cheeky Monkey, {ruleset.name} rules: you against {', '.join(names[1:])} (seed {seed}).")
    console.print("Type ? for help. You are seat 0 and go first.")

    def ask(prompt: str) -> str:
        console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise _EndOfInput
        if echo:
            console.print(line.rstrip("\n"))
        return line

    status = 0
    shown: GameState | None = None
    try:
        while state.phase is not Phase.OVER:
            pending: list[Action]
            if state.phase is Phase.CHANCE:
                pending = [sample_chance(state, chance_rng)]
            elif state.seat != human:
                pending = [bots[state.seat].choose(state, bot_rng)]
            else:
                if shown is not state:
                    console.print(table_of(state, names))
                    shown = state
                answer = ask(_choices(state, names))
                command = answer.strip().lower()
                if command in ("?", "help"):
                    console.print(HELP)
                    continue
                if command in ("t", "table"):
                    console.print(table_of(state, names))
                    continue
                if command in ("q", "quit"):
                    raise _Quit
                parsed = parse_answer(answer, state)
                if isinstance(parsed, str):
                    console.print(parsed)
                    continue
                pending = parsed
            for action in pending:
                if state.phase is not Phase.PLACING and isinstance(action, Place):
                    break  # the rest went on by themselves (R9)
                state, events = apply_with_events(state, action)
                actions.append(action)
                for event in events:
                    console.print(describe_event(event, names))
    except _EndOfInput:
        console.print("No more input: the game is left unfinished.")
        status = 1
    except _Quit:
        console.print("You quit the game.")
    except KeyboardInterrupt:
        console.print()
        console.print("Interrupted: the game is left unfinished.")
        status = 130  # the shell's convention for a program stopped by Ctrl-C
    record = GameRecord(ruleset, players, 0, tuple(actions), args.seed)
    if state.phase is Phase.OVER:
        console.print()
        console.print(sheet_table(score(state), ruleset, names))
    if not args.no_record:
        path: Path = args.record if args.record is not None else _default_record_path()
        try:
            path.write_text(dump_record(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            console.print(f"Could not save the record to {str(path)!r}: {error}")
            return 1
        console.print(f"Record saved to {path}; replay it with: cheekymonkey replay {path}")
    return status
