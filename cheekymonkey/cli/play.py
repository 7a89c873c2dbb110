"""``cheekymonkey play``: you against bots in the terminal, with a record of the game saved at the end.

Answers are short: ``d`` draws, ``s`` stops, ``h`` secures a herd, ``c 2`` claims from seat 2, ``w 1``
swaps with seat 1, and while stacking a letter (or a name) picks the animal to put down next: the
notation of :func:`cheekymonkey.parse_actions`, which reads them. ``?`` shows the help. The game also
reads its answers from a pipe or a file: when standard input runs out before the end, it says so and
exits with status 1 (130 after Ctrl-C). A game played to the end, or quit with ``q``, exits with status 0.

The record is saved as the game goes (see :mod:`cheekymonkey.cli.record_file`): its file is claimed
before the first move (status 2, and no game, if it cannot be written or exists already without
``--overwrite``), and saved after every move, so even a killed game keeps every move but the one in
progress. If a save fails during the game, the game goes on, the error goes to standard error, and the
exit status is 3 unless a later save succeeds.
"""

from __future__ import annotations

import argparse
import sys

import attrs

from cheekymonkey.actions import DRAW, STOP, Action, Claim, Herd, Place, Swap
from cheekymonkey.bots import bot_named
from cheekymonkey.cli.narrate import (
    a,
    describe_event,
    make_console,
    sheet_table,
    stdin_is_terminal,
    table_of,
)
from cheekymonkey.cli.options import add_table_options, bots_for_seats, pause, ruleset_from, seat_names, seed_from
from cheekymonkey.cli.record_file import RecordFile, RecordFileError, default_record_path
from cheekymonkey.engine import legal_actions, sample_chance
from cheekymonkey.events import apply_with_events
from cheekymonkey.notation import ActionTextError, action_text, parse_actions
from cheekymonkey.play import rngs_for
from cheekymonkey.records import GameRecord
from cheekymonkey.scoring import score
from cheekymonkey.state import GameState, Phase, new_game

__all__ = ["add_arguments", "run"]

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
    add_table_options(parser, bots_who="your opponents", record_default="default: a new file in this directory")
    parser.epilog = (
        "Answers may come from a pipe or a file, one per line. The record is saved after every move. Exit status: "
        "0 for a finished or quit game, 1 if the input ends before the game does, 2 for a bad option or a record "
        "file that cannot be written or exists already (nothing is played), 3 if the record could not be saved, "
        "130 after Ctrl-C."
    )


def _choices(state: GameState, names: list[str]) -> str:
    # The letters shown are the notation's own (action_text), so what is shown is what parse_actions reads.
    if state.phase is Phase.PLACING:
        places = [p for p in legal_actions(state) if isinstance(p, Place)]
        letters = ", ".join(f"{action_text(p, state)}={p.animal.label}" for p in places)
        return f"Put which token down next ({letters})? "
    parts = []
    for action in legal_actions(state):
        text = action_text(action, state)
        if action is DRAW:
            parts.append(f"{text}=draw")
        elif action is STOP:
            parts.append(f"{text}=stop")
        elif isinstance(action, Herd):
            parts.append(f"{text}=herd")
        elif isinstance(action, Claim):
            parts.append(f"{text}=claim from {names[action.seat]}")
        elif isinstance(action, Swap):
            top = state.stacks[action.seat][-1].label
            parts.append(f"{text}=swap with {names[action.seat]} for {a(top)}")
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
        # The names, bot kinds and seed stay as given; only the actions grow.
        record = attrs.evolve(self.record, actions=tuple(actions))
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
    try:
        # The record keeps the name given for you; the narration says "You" (second person).
        recorded_names = seat_names(args, ["You", *(f"{kind.capitalize()} {s}" for s, kind in enumerate(kinds, 1))])
    except ValueError as error:
        print(f"cheekymonkey play: {error}", file=sys.stderr)
        return 2
    names = ["You", *recorded_names[1:]]
    echo = not stdin_is_terminal()
    state = new_game(players, ruleset=ruleset, first_player=0)
    seed = seed_from(args)
    chance_rng, bot_rng = rngs_for(seed)
    actions: list[Action] = []
    # The record's file is claimed before the first move, so a bad path loses no game (exit status 2).
    file: RecordFile | None = None
    if not args.no_record:
        try:
            file = RecordFile(args.record or default_record_path(), overwrite=args.overwrite)
        except RecordFileError as error:
            print(f"cheekymonkey play: {error}", file=sys.stderr)
            return 2
    saver = _Saver(file, GameRecord(ruleset, players, 0, (), seed, tuple(recorded_names), ("human", *kinds)))
    saver.save(actions)
    given = "" if args.seed is not None else ", chosen at random"
    you = "you" if recorded_names[0] == "You" else f"{recorded_names[0]} (you)"
    console.print(f"Cheeky Monkey, {ruleset.name} rules: {you} against {', '.join(names[1:])} (seed {seed}{given}).")
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
                pause(args)  # at a terminal, a moment to follow the bots (--delay)
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
                try:
                    pending = list(parse_actions(answer, state))
                except ActionTextError as error:
                    console.print(f"{answer.strip()!r}: {error.reason}. Type ? for help.")
                    continue
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
