"""The ``cheekymonkey`` command: watch, play, simulate, replay and verify games from a terminal."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol

__all__ = ["main"]

# Each sub-command lives in its own module with ``add_arguments(parser)`` and ``run(args) -> int``.
# The first is the default, run when no sub-command is given.
COMMANDS: tuple[tuple[str, str], ...] = (("watch", "watch a narrated game between bots (the default)"),)


class _Command(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _module(name: str) -> _Command:
    module: _Command = importlib.import_module(f"cheekymonkey.cli.{name}")
    return module


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the whole command, sub-commands included."""
    parser = argparse.ArgumentParser(
        prog="cheekymonkey",
        description="Cheeky Monkey, the push-your-luck game by Reiner Knizia, in your terminal.",
    )
    default, _ = COMMANDS[0]
    _module(default).add_arguments(parser)
    parser.set_defaults(command=default)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, help_text in COMMANDS:
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        _module(name).add_arguments(sub)
        sub.set_defaults(command=name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (``sys.argv[1:]`` if None); return the exit status."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    return _module(args.command).run(args)
