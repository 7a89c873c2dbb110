"""The ``cheekymonkey`` command: watch, play, simulate, replay and verify games from a terminal, or serve them."""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn, Protocol

from cheekymonkey.cli.extras import EXTRAS, extra_for, install_hint, missing_extra_line

__all__ = ["COMMANDS", "EXTRAS", "build_parser", "default_command", "extra_for", "install_hint", "main"]

# Each sub-command lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``.
# With no sub-command, ``default_command()`` picks one: play at a terminal, watch otherwise.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("play", "play a game against bots in the terminal (the default at a terminal)"),
    ("watch", "watch a narrated game between bots (the default when input is not a terminal)"),
    ("simulate", "play many seeded games between bots and compare their win rates"),
    ("replay", "step through a saved game record, narrated"),
    ("verify", "prove a rule set's scoring rules with z3 and print the report"),
    ("serve", "serve the web front end: play in a browser (needs the web extra)"),
    ("league", "rank every bot of a game by head-to-head games: ratings with intervals"),
    ("train", "train a game's network from the batched engine into a weights file, then evaluate it"),
)

_DEFAULT_HELP = """\
With no command, cheekymonkey runs 'play' when standard input is a terminal, and 'watch' otherwise
(in a pipe, a script or CI it shows a whole narrated game between bots and exits 0). Options given
without a command go to that default command, e.g. 'cheekymonkey --seed 7'; play and watch take the
same options, so they work either way.

Every command needs the cli extra; verify also needs the verify extra (z3):
  pip install 'cheekymonkey[cli,verify]'   or, in a clone of the repository:   pip install '.[cli,verify]'
"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors say where to look: a close option name, or the command's --help."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments:"):
            unknown = [word.split("=")[0] for word in message.split(":", 1)[1].split() if word.startswith("-")]
            known = [option for option in self._option_string_actions if option.startswith("--")]
            hints = []
            for word in unknown:
                close = difflib.get_close_matches(word, known, n=1)
                if close:
                    hints.append(f"did you mean {close[0]}?")
            hints.append(f"'{self.prog} --help' lists the options")
            message = f"{message} ({'; '.join(hints)})"
        super().error(message)


class _Command(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _module(name: str) -> _Command:
    module: _Command = importlib.import_module(f"cheekymonkey.cli.{name}")
    return module


def default_command() -> str:
    """The sub-command run when none is given: ``play`` at a terminal, ``watch`` otherwise."""
    try:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return "play" if interactive else "watch"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the whole command, sub-commands included."""
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    from cheekymonkey import __version__
    from cheekymonkey.games import GAME_NAMES, game_named

    titles = [game_named(name).title for name in GAME_NAMES]
    parser = _Parser(
        prog="cheekymonkey",
        description=f"{', '.join(titles[:-1])} and {titles[-1]} in your terminal: play against bots, watch,\n"
        "simulate and replay games, or serve them to browsers. --game picks the game.",
        epilog=_DEFAULT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"cheekymonkey {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    commands: dict[str, argparse.ArgumentParser] = {}
    for name, help_text in COMMANDS:
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        _module(name).add_arguments(sub)
        commands[name] = sub
    return parser, commands


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (``sys.argv[1:]`` if None); return the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    names = [name for name, _ in COMMANDS]
    if arguments and not arguments[0].startswith("-") and arguments[0] not in names:
        # No command takes a positional argument first, so this is a command name mistyped.
        close = difflib.get_close_matches(arguments[0], names, n=1)
        guess = f" (did you mean {close[0]}?)" if close else ""
        print(
            f"cheekymonkey: unknown command {arguments[0]!r}{guess}; the commands are {', '.join(names)}",
            file=sys.stderr,
        )
        return 2
    if arguments == ["--version"]:
        # Answered before the parser is built, so it works without the cli extra too.
        from cheekymonkey import __version__

        print(f"cheekymonkey {__version__}")
        return 0
    if not arguments or arguments[0] not in (*names, "-h", "--help", "--version"):
        arguments.insert(0, default_command())
    # The parser needs nothing beyond the library itself (attrs), so --help works after a bare install; the
    # commands import their optional packages when they run, and a missing one is named with its extra.
    parser, commands = _build()
    args, extra = parser.parse_known_args(arguments)
    if extra:
        # Reported by the command's own parser, which knows its options and can suggest the one meant.
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    from cheekymonkey.cli.options import OptionError

    try:
        return _module(args.command).run(args)
    except OptionError as error:
        # An option that only the game can check (a seat count, a bot, a variant): one line, status 2.
        print(f"cheekymonkey {args.command}: {error}", file=sys.stderr)
        return 2
    except ImportError as error:
        print(missing_extra_line(args.command, error), file=sys.stderr)
        return 2
