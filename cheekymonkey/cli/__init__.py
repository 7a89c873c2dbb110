"""The ``cheekymonkey`` command: watch, play, simulate, replay and verify games from a terminal, or serve them."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol

__all__ = ["COMMANDS", "build_parser", "default_command", "main"]

# Each sub-command lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``.
# With no sub-command, ``default_command()`` picks one: play at a terminal, watch otherwise.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("play", "play a game against bots in the terminal (the default at a terminal)"),
    ("watch", "watch a narrated game between bots (the default when input is not a terminal)"),
    ("simulate", "play many seeded games between bots and compare their win rates"),
    ("replay", "step through a saved game record, narrated"),
    ("verify", "prove a rule set's scoring rules with z3 and print the report"),
    ("serve", "serve the web front end: play in a browser (needs the web extra)"),
)

_DEFAULT_HELP = """\
With no command, cheekymonkey runs 'play' when standard input is a terminal, and 'watch' otherwise
(in a pipe, a script or CI it shows a whole narrated game between bots and exits 0). Options given
without a command go to that default command, e.g. 'cheekymonkey --seed 7'.
"""


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
    parser = argparse.ArgumentParser(
        prog="cheekymonkey",
        description="Cheeky Monkey, the push-your-luck game by Reiner Knizia, in your terminal.",
        epilog=_DEFAULT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for name, help_text in COMMANDS:
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        _module(name).add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (``sys.argv[1:]`` if None); return the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    names = {name for name, _ in COMMANDS}
    if not arguments or (arguments[0] not in names and arguments[0] not in ("-h", "--help")):
        arguments.insert(0, default_command())
    try:
        parser = build_parser()
    except ImportError as error:
        # The command needs the cli extra (rich, cattrs); the library itself needs only attrs.
        print(f"cheekymonkey: {error}; install the command line with: pip install 'cheekymonkey[cli]'", file=sys.stderr)
        return 2
    args = parser.parse_args(arguments)
    return _module(args.command).run(args)
