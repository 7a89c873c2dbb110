"""``cheekymonkey play``: you against bots in the terminal, with a record of the game saved as it goes.

A thin layer over a :class:`~cheekymonkey.Table`: you sit in seat 0 and bots in the others; the table resolves
chance and plays the bots (:meth:`~cheekymonkey.Table.steps`, paced by ``--delay`` at a terminal), and plays
what you type (:meth:`~cheekymonkey.Table.play_text`, in the game's notation: for Cheeky Monkey ``d`` draws,
``s`` stops, ``h`` secures a herd, ``c 2`` claims from seat 2, ``w 1`` swaps with seat 1, and while stacking a
letter or a name puts that animal down next). ``?`` shows the help, ``? R7`` the rule R7 in words, ``v``
the table again, ``q`` quits (at a terminal, once you confirm): these keys are no game's moves, so every key
has one meaning at every prompt (:func:`prompt_keys`). At a terminal, what was typed while the bots played is
discarded before each prompt, and Too Many Monkeys waits for Enter at the start and after each round, with
the winning row drawn. The game also reads its answers from a
pipe or a file: when standard input runs out before the end, it says so and exits with status 1 (130 after
Ctrl-C). A game played to the end, or quit with ``q``, exits with status 0.

The record is saved as the game goes (see :mod:`cheekymonkey.cli.record_file`): its file is claimed
before the first move (status 2, and no game, if it cannot be written or exists already without
``--overwrite``), and saved after every move, so even a killed game keeps every move but the one in
progress. If a save fails during the game, the game goes on, the error goes to standard error, and the
exit status is 3 unless a later save succeeds. That record is the machine's, to resume or replay the game, not a
screen: it holds the seed and every card dealt. The screen shows seat 0's information only: each event as the
game's :meth:`~cheekymonkey.Game.event_for` shows it to seat 0, the board as seat 0 sees it, and no seed until the
game is over (played out or quit), where it is shown with the result and ``--seed`` plays the game again.
"""

from __future__ import annotations

import argparse
import re
import sys
import termios
import textwrap
from collections.abc import Sequence
from typing import Any

from cheekymonkey.cli.options import add_table_options
from cheekymonkey.cli.table_run import TableRun, seat_table
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.games import AnyGame
from cheekymonkey.refusals import refusal_text, rules_of

__all__ = [
    "COMMANDS",
    "LIST_MOST",
    "PERSON",
    "PROMPT",
    "WIDTH",
    "add_arguments",
    "choice_lines",
    "discard_typeahead",
    "help_text",
    "prompt_keys",
    "refusal_text",
    "rules_of",
    "run",
]

PERSON = "Player"
"""Seat 0's name unless ``--names`` gives one; the narration calls that seat "you" whatever its name."""

PROMPT = "Your move (? for help): "
"""The prompt's last line, after the choices: what a person answers."""

LIST_MOST = 10
"""The most choices listed one a line; more are shown by their texts on a few lines, their words behind ``?``."""

COMMANDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("v", "view", "table"), "show the table again"),
    (("?", "help"), "this help; ? and a rule's number shows the rule"),
    (("q", "quit"), "give up the game (the record so far is still saved)"),
)
"""What may be typed at any prompt besides a move: the keys, then what they do. No key is a move of either game
at any prompt (``tests/test_prompt_keys.py`` checks every prompt of seeded games), so each has one meaning."""

_VIEW, _HELP, _QUIT = (keys for keys, _ in COMMANDS)


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
    """The lines above the prompt: the game's hint (the page's too), the choices, why any looked for are not.

    Up to :data:`LIST_MOST` choices are listed one a line with their words; more (a Do Not Disturb's targets at
    a full table) are shown by their texts alone, a few lines of them, never one cut in two; ``?`` lists them
    with their words. No line is wider than the terminal, nor than 80 columns.
    """
    game, state, width = run.game, run.table.state, _width(run)
    legal = game.legal_actions(state)
    lines_hint = game.facts(state, run.game.turn_of(state)).get("hint", "")
    hinted = textwrap.wrap(lines_hint, width) if isinstance(lines_hint, str) else []
    if len(legal) <= LIST_MOST:
        lines = _listed(run)
    else:
        texts = [game.action_text(action, state) for action in legal]
        lines = _joined("  Choose one of ", [f"{text}," for text in texts[:-1]] + [f"{texts[-1]}."], width)
        lines.append("  (? lists them with what each does.)")
    for note in game.choice_notes(state, run.names):
        lines += textwrap.wrap(refusal_text(run.game, note), width, initial_indent="  ", subsequent_indent="  ")
    return hinted + lines


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
    lines = [run.game.action_help(), "Any time:"]
    for keys, meaning in COMMANDS:
        lines.append(f"  {', '.join(keys):<15}{meaning}")
    lines += ["Your choices now:", *_listed(run)]
    return "\n".join(lines)


def prompt_keys(
    game: AnyGame,
    state: Any,
    names: Sequence[str],
    commands: Sequence[tuple[tuple[str, ...], str]] = COMMANDS,
) -> dict[str, str]:
    """Every key a player may type at the prompt in ``state``, with its one meaning: the moves, then the commands.

    A move's key is its notation (``d``, ``w 4``); a command's keys are those of ``commands`` (the prompt's own
    :data:`COMMANDS` unless given).

    Raises:
        ValueError: If a key would mean two things (a command's key that the game reads as a move now).
    """
    keys: dict[str, str] = {}
    for action in game.legal_actions(state):
        keys[game.action_text(action, state)] = game.action_words(action, state, names)
    for words, meaning in commands:
        for key in words:
            if key in keys or _reads_as_move(game, state, key):
                raise ValueError(f"{key!r} is both a move and the command to {meaning}")
            keys[key] = meaning
    return keys


def _rule_numbers(text: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"\b(?:TME|TM|R|E)\d+\b", text)))


def discard_typeahead() -> None:
    """At a terminal, forget what was typed before the prompt (while the bots played): it was not an answer to it."""
    try:
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (AttributeError, ValueError, OSError, termios.error):
        pass  # not a terminal that can be flushed: nothing typed ahead to forget


def _reads_as_move(game: AnyGame, state: Any, text: str) -> bool:
    """Whether the game reads ``text`` as a move in ``state``."""
    try:
        game.parse_actions(text, state)
    except CheekyMonkeyError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    """Play a game against bots, reading answers from standard input; return the exit status."""
    from cheekymonkey.cli.narrate import stdin_is_terminal

    session = seat_table(args, "play", person=PERSON)
    table, game, names, console = session.table, session.game, session.names, session.console
    session.save()
    # No seed before the end: it predicts every draw (the other hands, the cards to come). It is shown with the
    # result, where it plays the game again; the record saved for resuming holds it (the machine's, not a screen).
    session.seed_at_end = True
    you = "you" if args.names is None else f"{names[0]} (you)"
    console.print(f"{session.header(args)}: {you} against {', '.join(names[1:])}.")
    for line in textwrap.wrap(game.summary, min(console.width, WIDTH)):
        console.print(line)
    console.print("Type ? for help. You are seat 0 and go first.")
    terminal = stdin_is_terminal()
    echo = not terminal

    def ask(prompt: str) -> str:
        discard_typeahead()  # what was typed while the bots played is no answer to this prompt
        console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            console.print()
            raise _EndOfInput
        if echo:
            console.print(line.rstrip("\n"))
        return line

    def wait(what: str) -> None:
        # At a terminal only: a person reads what is on the screen, then goes on (a pipe's answers are moves).
        if terminal:
            ask(f"Press Enter {what}. ")

    if terminal:
        # Moves made for you (a card turned up, the chain it starts) would scroll the introduction away.
        wait("to begin")
    session.on_round_end = lambda number: wait(f"for round {number}")

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
            if command in _HELP:
                console.print(help_text(session))
                continue
            if command.startswith("?") or command.startswith("help "):
                _show_rule(session, command.removeprefix("help").removeprefix("?").strip())
                continue
            # The commands' keys are no game's moves (prompt_keys), so a key here is always the command.
            if command in _QUIT:
                if terminal and ask(
                    "Quit the game? Type y to quit, anything else to play on: "
                ).strip().lower() not in (
                    "y",
                    "yes",
                ):
                    continue
                raise _Quit
            if command in _VIEW:
                session.narrator.board(table.state)
                listed = None
                continue
            try:
                steps = table.play_text_as(0, answer)  # your seat's own decisions only: never a draw's outcome
            except CheekyMonkeyError as error:
                reason = str(getattr(error, "reason", error))
                said = "An empty line is no move" if not command else repr(answer.strip())
                message = f"{said}: {refusal_text(game, reason)}."
                rules = _rule_numbers(reason)
                if rules:
                    message += f" Type ? {rules[0]} to read the rule, or ? for help."
                else:
                    message += " Type ? for help."
                console.print(message)
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


def _show_rule(run: TableRun, number: str) -> None:
    """``? R7``: the rule in words, or what rules there are."""
    rules = rules_of(run.game)
    text = None if rules is None else rules.rule_text(number)
    if text is not None:
        for line in textwrap.wrap(str(text), _width(run)):
            run.console.print(line)
        return
    known = "" if rules is None else f" (this game's are {', '.join(list(rules.RULES)[:3])}, ...)"
    run.console.print(f"There is no rule {number!r}{known}. Type ? for help.")
