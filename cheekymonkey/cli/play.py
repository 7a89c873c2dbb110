"""``cheekymonkey play``: you against bots in the terminal, with a record of the game saved as it goes.

A thin layer over a :class:`~cheekymonkey.Table`: you sit in seat 0 and bots in the others; the table resolves
chance and plays the bots (:meth:`~cheekymonkey.Table.steps`, paced by ``--delay`` at a terminal), and plays
what you type (:meth:`~cheekymonkey.Table.play_text`, in the game's notation: for Cheeky Monkey ``d`` draws,
``s`` stops, ``h`` secures a herd, ``c 2`` claims from seat 2, ``w 1`` swaps with seat 1, and while stacking a
letter or a name puts that animal down next). ``?`` shows the help. The game also reads its answers from a
pipe or a file: when standard input runs out before the end, it says so and exits with status 1 (130 after
Ctrl-C). A game played to the end, or quit with ``q``, exits with status 0.

The record is saved as the game goes (see :mod:`cheekymonkey.cli.record_file`): its file is claimed
before the first move (status 2, and no game, if it cannot be written or exists already without
``--overwrite``), and saved after every move, so even a killed game keeps every move but the one in
progress. If a save fails during the game, the game goes on, the error goes to standard error, and the
exit status is 3 unless a later save succeeds.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from cheekymonkey.cli.options import add_table_options
from cheekymonkey.cli.table_run import TableRun, seat_table
from cheekymonkey.errors import CheekyMonkeyError

__all__ = ["LIST_MOST", "PERSON", "PROMPT", "WIDTH", "add_arguments", "choice_lines", "help_text", "run"]

PERSON = "Player"
"""Seat 0's name unless ``--names`` gives one; the narration calls that seat "you" whatever its name."""

PROMPT = "Your move (? for help): "
"""The prompt's last line, after the choices: what a person answers."""

LIST_MOST = 10
"""The most choices listed one a line; more are shown by their texts on a few lines, their words behind ``?``."""

_TABLE = ("t", "table")
_QUIT = ("q", "quit")


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


WIDTH = 80
"""The widest line the choices and the game's summary take, even at a wider terminal."""


def _width(run: TableRun) -> int:
    return min(run.console.width, WIDTH)


def _listed(run: TableRun) -> list[str]:
    """Every choice one a line, its text then its words, as wide as the terminal allows (80 columns at most)."""
    # The texts shown are the notation's own (action_text), so what is shown is what parse_actions reads.
    game, state = run.game, run.table.state
    entries = [(game.action_text(a, state), game.action_words(a, state, run.names)) for a in game.legal_actions(state)]
    key = max(len(text) for text, _ in entries)
    lines: list[str] = []
    for text, words in entries:
        lines += textwrap.wrap(f"  {text:<{key}}  {words}", _width(run), subsequent_indent=" " * (key + 4))
    return lines


def choice_lines(run: TableRun) -> list[str]:
    """The lines shown above the prompt: the choices, then why any the player may look for are left out.

    Up to :data:`LIST_MOST` choices are listed one a line with their words; more (a Do Not Disturb's targets at
    a full table) are shown by their texts alone, a few lines of them, never one cut in two; ``?`` lists them
    with their words. No line is wider than the terminal, nor than 80 columns.
    """
    game, state, width = run.game, run.table.state, _width(run)
    legal = game.legal_actions(state)
    if len(legal) <= LIST_MOST:
        lines = _listed(run)
    else:
        texts = [game.action_text(action, state) for action in legal]
        lines = _joined("  Choose one of ", [f"{text}," for text in texts[:-1]] + [f"{texts[-1]}."], width)
        lines.append("  (? lists them with what each does.)")
    for note in game.choice_notes(state, run.names):
        lines += textwrap.wrap(note, width, initial_indent="  ", subsequent_indent="  ")
    return lines


def _joined(lead: str, items: list[str], width: int) -> list[str]:
    # Items on as few lines as fit, broken only between items.
    lines = [lead.rstrip()]
    for item in items:
        if len(lines[-1]) + 1 + len(item) > width:
            lines.append("   ")
        lines[-1] += f" {item}"
    return lines


def help_text(run: TableRun) -> str:
    """The help: the game's notation, what may be typed at any time, then every choice now with its words.

    The choices come last, so that a long list of them (a Do Not Disturb's targets at a full table) is what
    stays on the screen, just above the prompt.
    """
    # The command's letters are listed only where they are not the game's moves now.
    moves = {key: _is_move(run, key) for key in ("t", "q")}
    lines = [run.game.action_help(), "Any time:"]
    lines.append(f"  {'table' if moves['t'] else 't, table':<15}show the table again")
    lines.append(f"  {'?, help':<15}this help")
    lines.append(f"  {'quit' if moves['q'] else 'q, quit':<15}give up the game (the record so far is still saved)")
    for key, word in (("t", "table"), ("q", "quit")):
        if moves[key]:
            lines.append(f"  ({key} alone is a move now; type {word} in full for the command)")
    lines += ["Your choices now:", *_listed(run)]
    return "\n".join(lines)


def _is_move(run: TableRun, text: str) -> bool:
    """Whether the game reads ``text`` as a move now."""
    try:
        run.game.parse_actions(text, run.table.state)
    except CheekyMonkeyError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    """Play a game against bots, reading answers from standard input; return the exit status."""
    from cheekymonkey.cli.narrate import stdin_is_terminal

    session = seat_table(args, "play", person=PERSON)
    table, game, names, console = session.table, session.game, session.names, session.console
    session.save()
    given = "" if args.seed is not None else ", chosen at random"
    you = "you" if args.names is None else f"{names[0]} (you)"
    console.print(f"{session.header(args)}: {you} against {', '.join(names[1:])} (seed {table.seed}{given}).")
    for line in textwrap.wrap(game.summary, min(console.width, WIDTH)):
        console.print(line)
    console.print("Type ? for help. You are seat 0 and go first.")
    echo = not stdin_is_terminal()

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
    shown: object = None
    listed: object = None
    try:
        while True:
            session.advance()  # chance and the bots, until you decide or the game is finished
            if table.finished:
                break
            if shown is not table.state:
                session.narrator.board(table.state)
                shown = table.state
            # The choices once under each board; after help or a refusal, the prompt alone.
            if listed is not shown:
                for line in choice_lines(session):
                    console.print(line)
                listed = shown
            answer = ask(PROMPT)
            command = answer.strip().lower()
            if command in ("?", "help"):
                console.print(help_text(session))
                continue
            # The words are always the command's; a letter is the game's move where it is one (the prompt shows it).
            if command in ("table", "quit") or (command in (*_TABLE, *_QUIT) and not _is_move(session, answer)):
                if command in _QUIT:
                    raise _Quit
                session.narrator.board(table.state)
                listed = None
                continue
            try:
                steps = table.play_text_as(0, answer)  # your seat's own decisions only: never a draw's outcome
            except CheekyMonkeyError as error:
                console.print(f"{answer.strip()!r}: {getattr(error, 'reason', error)}. Type ? for help.")
                continue
            session.played(steps)
    except _EndOfInput:
        print("cheekymonkey play: no more input: the game is left unfinished.", file=sys.stderr)
        status = 1
    except _Quit:
        console.print("You quit the game.")
        session.quit_by = 0  # the record says so, and its replay
    except KeyboardInterrupt:
        console.print()
        print("cheekymonkey play: interrupted: the game is left unfinished.", file=sys.stderr)
        status = 130  # the shell's convention for a program stopped by Ctrl-C
    return session.finish(status)
