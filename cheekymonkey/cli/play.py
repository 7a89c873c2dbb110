"""``cheekymonkey play``: you against bots in the terminal, with a record of the game saved at the end.

Answers are short: ``d`` draws, ``s`` stops, ``h`` secures a herd, ``c 2`` claims from seat 2, ``w 1``
swaps with seat 1, and while stacking a letter (or a name) picks the animal to put down next. ``?``
shows the help. The game also reads its answers from a pipe or a file: when standard input runs out
before the end, it says so and exits with status 1 (130 after Ctrl-C). A game played to the end, or quit
with ``q``, exits with status 0.

The record is saved as the game goes (see :mod:`cheekymonkey.cli.record_file`): its file is claimed
before the first move (status 2, and no game, if it cannot be written or exists already without
``--overwrite``), and saved after every move, so even a killed game keeps every move but the one in
progress. If a save fails during the game, the game goes on, the error goes to standard error, and the
exit status is 3 unless a later save succeeds.
"""

from __future__ import annotations

import argparse
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
from cheekymonkey.cli.record_file import RecordFile, RecordFileError, default_record_path
from cheekymonkey.engine import legal_actions, sample_chance
from cheekymonkey.events import apply_with_events
from cheekymonkey.play import rngs_for
from cheekymonkey.records import GameRecord
from cheekymonkey.rules import ANIMALS, Animal
from cheekymonkey.scoring import score
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
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the --record file if it exists (by default play refuses)"
    )
    parser.epilog = (
        "Answers may come from a pipe or a file, one per line. The record is saved after every move. Exit status: "
        "0 for a finished or quit game, 1 if the input ends before the game does, 2 for a bad option or a record "
        "file that cannot be written or exists already (nothing is played), 3 if the record could not be saved, "
        "130 after Ctrl-C."
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


class _Saver:
    """Saves the record after every move; a failed save is reported once on stderr and tried again next move."""

    def __init__(self, file: RecordFile | None, record: GameRecord) -> None:
        self.file = file
        self.record = record
        self.failed = False

    def save(self, actions: list[Action]) -> None:
        if self.file is None:
            return
        record = GameRecord(self.record.ruleset, self.record.players, 0, tuple(actions), self.record.seed)
        try:
            self.file.save(record)
        except RecordFileError as error:
            if not self.failed:
                print(f"cheekymonkey play: {error}", file=sys.stderr)
            self.failed = True
        else:
            self.failed = False


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
    # The record's file is claimed before the first move, so a bad path loses no game.
    file: RecordFile | None = None
    if not args.no_record:
        try:
            file = RecordFile(args.record or default_record_path(), overwrite=args.overwrite)
        except RecordFileError as error:
            print(f"cheekymonkey play: {error}", file=sys.stderr)
            return 2
    saver = _Saver(file, GameRecord(ruleset, players, 0, (), args.seed))
    saver.save(actions)
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
            saver.save(actions)  # after every move: a killed game loses at most the move in progress
    except _EndOfInput:
        print("cheekymonkey play: no more input: the game is left unfinished.", file=sys.stderr)
        status = 1
    except _Quit:
        console.print("You quit the game.")
    except KeyboardInterrupt:
        console.print()
        print("cheekymonkey play: interrupted: the game is left unfinished.", file=sys.stderr)
        status = 130  # the shell's convention for a program stopped by Ctrl-C
    if state.phase is Phase.OVER:
        console.print()
        console.print(sheet_table(score(state), ruleset, names))
    if file is not None:
        saver.save(actions)
        if saver.failed:
            return 3
        console.print(f"Record saved to {file.path}; replay it with: cheekymonkey replay {file.path}")
    return status
