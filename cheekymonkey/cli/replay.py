"""``cheekymonkey replay FILE``: step through a saved game record, narrated turn by turn, or jump to a round or turn.

The record is checked as it is loaded (a record that does not replay is refused, naming the step), then its actions
are played again at a :class:`~cheekymonkey.Table` seated as the record says, and each step's events are narrated.
At a terminal it steps: after each turn it shows the table and waits for Enter; there ``r N`` jumps to round N
(offered only where the record has more than one), ``t N`` to turn N, ``e`` to the end, and ``q`` stops; at the
end, ``r N`` and ``t N`` go back. ``--to round:N`` (or ``turn:N``, ``end``) starts there, the turns before it
played without a word. ``--no-step`` prints the whole game at once, and ``--step`` waits even when the answers come
from a pipe (at the end of standard input it plays the rest without waiting). In a pipe it prints the whole game.
It shows what a spectator is shown: each event as the game's :meth:`~cheekymonkey.Game.event_for` shows it to
nobody in particular, the spectator's board, and at the end the hands as the rules reveal them; ``--seat N``
follows seat N's information instead (its events, its view). The seed, which predicts every hidden draw, is
named in the first line, or for a game with private information only once the game is over (played out or
quit), as ``watch`` shows it. A record that ends before the game does says whether its player quit there, or
the record was cut short. A seat's record of a game with private information (what a web table gives each seat
at the end) holds no deal and is refused, saying so. Exit status: 0 after a replay, 2 if the file cannot be
read or is not a valid record, or ``--to`` names a round or turn the record does not reach.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Final

from cheekymonkey.cli.options import OptionError, game_from, names_type, seat_names, seat_type
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.games import GAME_NAMES, AnyGame, game_of_document
from cheekymonkey.table import Seat, Table

__all__ = ["END_PROMPT", "STEP_PROMPT", "add_arguments", "run", "step_prompt"]

# One run of spaces around an optional colon (no two runs in a row to backtrack between), ASCII digits only.
_WHERE: Final = re.compile(r"(round|turn|r|t)\s*(?::\s*)?([0-9]{1,9})|(end|e)")
"""Where to jump: ``round:4``, ``turn:120`` (also ``round 4``, ``r 4``, ``t120``), or ``end``."""

STEP_PROMPT: Final = "e: the end; q: stop: "
"""How the step prompt ends; it begins with what this record offers (:func:`step_prompt`)."""

END_PROMPT: Final = "End of the record. r N or t N: go back; Enter or q: stop: "
"""The prompt at the end of a stepped replay (``t N`` alone where the game has one round)."""


def step_prompt(rounds: int, turns: int) -> str:
    """The step prompt for a record of ``rounds`` rounds and ``turns`` turns: only the jumps it has."""
    jumps = f"r N: round N (1-{rounds}); " if rounds > 1 else ""
    return f"Enter: next turn; {jumps}t N: turn N (1-{turns}); {STEP_PROMPT}"


def _where(text: str, *, at_prompt: bool = False, rounds: bool = True) -> tuple[str, int]:
    """``("round", 4)``, ``("turn", 120)`` or ``("end", 0)`` for what ``--to`` or the step prompt names.

    Raises:
        argparse.ArgumentTypeError: If the text names no round, turn or end; the error gives the syntax of
            where it was typed (``round:N, turn:N or end`` for ``--to``, ``r N, t N or e`` at the prompt).
    """
    match = _WHERE.fullmatch(text.strip().lower())
    if match is None:
        syntax = ("type r N, t N or e" if rounds else "type t N or e") if at_prompt else "give round:N, turn:N or end"
        raise argparse.ArgumentTypeError(f"{text!r} is not a place in the game: {syntax}")
    if match.group(3):
        return "end", 0
    kind = {"r": "round", "t": "turn"}.get(match.group(1), match.group(1))
    number = int(match.group(2))
    if number < 1:
        counted = "rounds and turns are counted from 1"
        raise argparse.ArgumentTypeError(counted if at_prompt else f"{text!r}: {counted}")
    return kind, number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("file", type=Path, help="a game record saved by 'cheekymonkey play' (or any record document)")
    parser.add_argument(
        "--game", choices=GAME_NAMES, default=None, help="the record's game (default: the one its format names)"
    )
    parser.add_argument(
        "--step",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="wait for Enter after each turn (default: at a terminal; --no-step prints the whole game at once)",
    )
    parser.add_argument(
        "--to",
        metavar="WHERE",
        type=_where,
        default=None,
        help="begin at the start of a round or turn, or at the end: round:N, turn:N or end (the turns before it "
        "are played without a word; at the step prompt, r N, t N and e jump too)",
    )
    parser.add_argument(
        "--names",
        type=names_type,
        default=None,
        help="seat names, comma-separated, in seat order (default: the names in the record, else Seat 0, Seat 1, ...)",
    )
    parser.add_argument(
        "--seat",
        type=seat_type,
        default=None,
        metavar="N",
        help="follow seat N's information (seats from 0): the events and the board as that seat saw them "
        "(default: as a spectator sees them)",
    )


class _Places:
    """Where each turn and round of a record begins: the number of its actions played before it."""

    def __init__(self, game: AnyGame, start: Any, actions: tuple[Any, ...]) -> None:
        self.total = len(actions)
        self.turns: list[int] = []
        self.rounds: dict[int, int] = {}
        state = start
        for played in range(len(actions) + 1):
            if game.begins_turn(state):
                self.turns.append(played)
                self.rounds.setdefault(game.round_of(state), played)
            if played < len(actions):
                state = game.apply(state, actions[played])

    def find(self, where: tuple[str, int]) -> int:
        """The number of actions played before ``where`` begins.

        Raises:
            OptionError: If the record does not reach it.
        """
        kind, number = where
        if kind == "end":
            return self.total
        if kind == "turn":
            if number > len(self.turns):
                raise OptionError(f"there is no turn {number}: the record has turns 1 to {len(self.turns)}")
            return self.turns[number - 1]
        if number not in self.rounds:
            last = max(self.rounds, default=1)
            rounds = "only round 1" if last == 1 else f"rounds 1 to {last}"
            raise OptionError(f"there is no round {number}: the record has {rounds}")
        return self.rounds[number]


def run(args: argparse.Namespace) -> int:
    """Narrate the record in ``args.file``; return the exit status."""
    from cheekymonkey.cli.narrate import Narrator, make_console, stdin_is_terminal

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OptionError(f"cannot read {str(args.file)!r}: {error}") from None
    try:
        # The record's own format names its game, unless --game says which it must be.
        game = game_from(args) if args.game is not None else game_of_document(text)
        record = game.documents().loads(text, "record")
    except CheekyMonkeyError as error:
        if _kind_of(text) == "seat-record":
            raise OptionError(
                f"{args.file} is one seat's record of a game with hidden cards, as a web table gives it: what "
                "that seat was shown, without the deal, so it cannot be replayed (only a whole game's record can: "
                "'cheekymonkey play' and 'watch' save one)"
            ) from None
        # A record file copied or saved in part: the loader's text is the file.
        message = str(error).replace("the text is cut short", "the file is cut short")
        raise OptionError(f"{args.file}: {message}") from None
    if args.seat is not None and args.seat >= record.players:
        raise OptionError(f"there is no seat {args.seat}: the record has seats 0 to {record.players - 1}")
    names = seat_names(args, list(record.names) or [f"Seat {seat}" for seat in range(record.players)])
    kinds = record.bots or ("human",) * record.players
    # The seats as the record has them, without bots: a replay plays the record's actions, and nobody else.
    seats = [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)]
    table: Table[Any, Any, Any, Any, Any] = Table(
        game, seats, ruleset=record.ruleset, first_player=record.first_player, seed=record.seed
    )
    actions = tuple(record.actions)
    places = _Places(game, table.state, actions)
    target = None if args.to is None else places.find(args.to)  # a place the record lacks: exit 2, nothing shown
    console = make_console()
    # A record without a seed (a game dealt at a web table) says nothing of one, rather than "seed none". The
    # seed predicts every hidden draw: for a game with private information it comes at the end, as in watch.
    seed_at_end = game.private_information and record.seed is not None
    seed = "" if record.seed is None or seed_at_end else f", seed {record.seed}"
    rules = getattr(record.ruleset, "name", "custom")
    console.print(
        f"Replaying a {record.players}-player game of {game.title}, {rules} rules{seed}: "
        f"{len(actions)} action{'' if len(actions) == 1 else 's'}."
    )
    if record.bots:
        # Who played: the names and what sat in each seat, as the record keeps them.
        console.print("Players: " + ", ".join(f"{n} ({kind})" for n, kind in zip(names, kinds, strict=True)) + ".")
    else:
        console.print("Players: " + ", ".join(names) + ".")
    if args.seat is not None:
        console.print(f"Following {names[args.seat]} (seat {args.seat}): what that seat was shown, and no more.")
    narrator = Narrator(console, game, names, args.seat)
    waiting = args.step if args.step is not None else stdin_is_terminal() and sys.stdout.isatty()
    rounds = len(places.rounds) > 1
    played = 0  # the actions played at the table (Table.actions copies them all)

    def heading() -> None:
        if table.finished or not game.begins_turn(table.state) or played == len(actions):
            return
        where = f"Round {game.round_of(table.state)}, turn {table.turns}" if rounds else f"Turn {table.turns}"
        console.print(f"-- {where}: {_whose(names, game.turn_of(table.state))} --")

    def jump(to: int) -> None:
        # Silently: the actions between are played, or taken back, without a word.
        nonlocal played
        if to < played:
            table.undo(played - to)
        for action in actions[played:to]:
            table.play(action)
        skipped, played = abs(to - played), to
        place = "the end" if played == len(actions) else f"turn {table.turns}"
        if rounds and played < len(actions):
            place = f"round {game.round_of(table.state)}, {place}"
        console.print(f"Jumped to {place} ({skipped} action{'' if skipped == 1 else 's'} played without a word).")

    prompt = step_prompt(len(places.rounds), len(places.turns))

    def go(command: str) -> bool:
        # A jump typed at a prompt; its errors in the prompt's own syntax. Whether it jumped.
        try:
            where = _where(command, at_prompt=True, rounds=rounds)
            if where[0] == "round" and not rounds:
                raise OptionError(f"this game has one round: t N jumps to turn N (1-{len(places.turns)})")
            jump(places.find(where))
        except (argparse.ArgumentTypeError, OptionError) as error:
            console.print(f"{command!r}: {error}.")
            return False
        return True

    if target is not None:
        jump(target)
        if waiting and target < len(actions):
            narrator.board(table.state)
    heading()
    while True:
        while played < len(actions):
            narrator.step(table.play(actions[played]))
            played += 1
            if table.finished or not game.begins_turn(table.state):
                continue
            shown = False
            while waiting and played < len(actions):
                if not shown:
                    narrator.board(table.state)
                    shown = True
                console.print(prompt, end="")
                answer = sys.stdin.readline()
                if not answer:
                    waiting = False  # no more input: play the rest straight through
                    console.print()
                    break
                command = answer.strip().lower()
                if not command:
                    break
                if command in ("q", "quit"):
                    console.print("Stopped.")
                    return 0
                if go(command):
                    shown = False
            heading()
        narrator.flush()
        if table.over:
            narrator.result(table.state)
        elif record.quit_by is not None:
            console.print(f"{names[record.quit_by]} quit the game here; the record ends with it.")
            narrator.board(table.state)
        else:
            console.print("The record ends before the game does: it was cut short (nobody quit).")
            narrator.board(table.state)
        if seed_at_end and (table.over or record.quit_by is not None):
            console.print(f"Seed {record.seed}: --seed {record.seed} deals this game again.", soft_wrap=True)
        # Stepping, the end is not the way out: r N or t N goes back, and the replay goes on from there.
        while waiting and played == len(actions):
            console.print(END_PROMPT if rounds else END_PROMPT.replace("r N or t N", "t N"), end="")
            answer = sys.stdin.readline()
            command = answer.strip().lower()
            if not answer or command in ("", "q", "quit"):
                if not answer:
                    console.print()
                return 0
            go(command)
        if played == len(actions):
            return 0
        narrator.board(table.state)
        heading()


def _kind_of(text: str) -> object:
    """The ``kind`` a JSON document names, None where the text is no JSON object."""
    try:
        document = json.loads(text)
    except ValueError:
        return None
    return document.get("kind") if isinstance(document, dict) else None


def _whose(names: list[str], seat: int | None) -> str:
    return "nobody" if seat is None else names[seat]
