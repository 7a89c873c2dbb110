"""Options shared by several sub-commands: the one place each is defined, so it means the same everywhere.

``play`` and ``watch`` (the default commands at a terminal and in a pipe) take exactly the same table
options, :func:`add_table_options`, so ``cheekymonkey --record game.json`` works wherever it runs.

Everything here speaks to the game through :class:`~cheekymonkey.game.Game` (:func:`game_from`): the seat
counts, variants and bots a command accepts are the game's own. What argparse cannot check without the game
(the seat count a variant allows, a bot's name) is checked by the command before anything is played, and
refused with :class:`OptionError`: one line and status 2, as argparse does. Every output file is checked by
:func:`output_path` while the options are read, so a bad path is refused before any work is done.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from cheekymonkey.base import bot_aliases
from cheekymonkey.errors import CheekyMonkeyError
from cheekymonkey.games import DEFAULT_GAME, GAME_NAMES, AnyGame, game_named
from cheekymonkey.names import check_names

__all__ = [
    "DEFAULT_DELAY",
    "MAX_SEED",
    "OptionError",
    "add_bots_option",
    "add_game_option",
    "add_game_options",
    "add_table_options",
    "add_variant_option",
    "bot_list",
    "bot_names_type",
    "bots_for_seats",
    "bots_from",
    "check_bots",
    "check_output_file",
    "delay_type",
    "each_game",
    "game_from",
    "names_type",
    "number_type",
    "output_path",
    "pause",
    "pays_stakes",
    "players_from",
    "plural",
    "positive_int",
    "ruleset_from",
    "seat_names",
    "seat_type",
    "seed_from",
    "seed_type",
]

DEFAULT_DELAY = 0.4
"""Seconds between bots' moves at a terminal (``--delay``); there is no delay in a pipe."""

DEFAULT_PLAYERS = 3
"""The seats most games start from (:meth:`~cheekymonkey.Game.default_seats`' own default): ``--players``
defaults to each game's :meth:`~cheekymonkey.Game.default_seats`, not to this."""

MAX_SEED = 2**53 - 1
"""The largest seed in size: a record keeps its seed, and a JSON document holds whole numbers up to this exactly."""


_ASCII_INTEGER: Final = re.compile(r"[-+]?[0-9]{1,20}")
"""A whole number as an option gives it: ASCII digits, a sign first if any (a seed's 2**53 has 16 digits)."""

_ASCII_NUMBER: Final = re.compile(
    r"[-+]?(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][-+]?[0-9]{1,4})?|[-+]?(?:inf|infinity|nan)", re.I
)
"""A number as an option gives it, in ASCII: digits, a point, an exponent (the words inf and nan are refused later)."""


class OptionError(CheekyMonkeyError, ValueError):
    """An option that does not fit the game (a seat count, a variant, a bot, names); the command exits with 2."""


def number_type(
    kind: type[int] | type[float], low: float, high: float = math.inf, *, what: str = "a number", above: bool = False
) -> Callable[[str], Any]:
    """An argparse type for a number of ``kind`` from ``low`` (or above it, with ``above``) to ``high``, finite.

    The one parser behind every numeric option (seats, games, seconds, a port...): a word, ``nan`` or
    ``inf`` is refused with a message that says what to give.

    >>> number_type(int, 0, 65535, what="a port")("80")
    80
    """
    unit = "whole number" if kind is int else "number"

    def parse(text: str) -> Any:
        try:
            # ASCII only: int() and float() would take superscript, fullwidth or Arabic-Indic digits too.
            if not _ASCII_NUMBER.fullmatch(text.strip()):
                raise ValueError(text)
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {what} (a {unit})") from None
        fits = (value > low if above else value >= low) and value <= high and math.isfinite(value)
        if not fits:
            if math.isinf(high):
                span = f"more than {low:g}" if above else f"{low:g} or more"
            else:
                span = f"more than {low:g}, up to {high:g}" if above else f"{low:g} to {high:g}"
            raise argparse.ArgumentTypeError(f"{text[:40]} is not {what}: give {span}")
        return value

    parse.__name__ = what.removeprefix("a ").removeprefix("an ").replace(" ", "_")
    return parse


positive_int = number_type(int, 1, what="a count")
"""Parse a whole number of 1 or more for argparse."""

seat_type = number_type(int, 0, what="a seat")
"""Parse a seat for argparse: a whole number of 0 or more (``replay --seat``; the record says how many seats)."""

delay_type = number_type(float, 0, 10, what="a number of seconds")
"""Parse ``--delay`` for argparse: seconds, 0 to 10."""


def names_type(text: str) -> tuple[str, ...]:
    """Parse ``--names`` for argparse: names separated by commas, none of them empty."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r}: a name is empty; separate names with commas, e.g. Ann,Bob")
    return names


def seed_type(text: str) -> int:
    """Parse a seed for argparse: an integer that a game record can hold (at most 2**53 - 1 in size)."""
    if not _ASCII_INTEGER.fullmatch(text.strip()):  # int() would take other digits (fullwidth, Arabic-Indic)
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an integer (digits 0-9, a sign first if any)")
    seed = int(text)
    if abs(seed) > MAX_SEED:
        # A record keeps the seed, and documents hold integers up to MAX_SEED: no unloadable record.
        raise argparse.ArgumentTypeError(f"{text[:40]} is too large: a seed is at most 2**53 - 1 in size")
    return seed


def bot_names_type(text: str) -> tuple[str, ...]:
    """Parse ``--bots`` for argparse: bot names separated by commas, none of them empty (the game checks them)."""
    names = tuple(name.strip().lower() for name in text.split(","))
    if not any(names):
        raise argparse.ArgumentTypeError("no bot names given")
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r}: a bot name is empty; separate names with commas")
    return names


def check_output_file(path: Path) -> None:
    """Check that a file can be written at ``path``: its folder exists and takes new files, it is no folder.

    The one check behind every output file of every command (:func:`output_path`, and the record files
    named by the commands themselves). Whether an existing file may be replaced is the command's own choice.

    Raises:
        OptionError: Saying why the file cannot be written.
    """
    text = str(path)
    if not text.strip():
        raise OptionError("an empty path: name a file")
    if path.is_dir():
        raise OptionError(f"{text!r} is a folder: name a file in it")
    folder = path.parent
    if not folder.exists():
        raise OptionError(f"cannot write {text!r}: there is no folder {str(folder)!r}")
    if not folder.is_dir():
        raise OptionError(f"cannot write {text!r}: {str(folder)!r} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"cannot write {text!r}: the folder {str(folder)!r} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise OptionError(f"cannot write {text!r}: the file is read-only")


def output_path(text: str) -> Path:
    """Parse an output file's path for argparse, checked (:func:`check_output_file`) before any work is done.

    Every command's output file options use this type, and only they.
    """
    path = Path(text)
    try:
        check_output_file(path)
    except OptionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return path


def each_game(describe: Callable[[AnyGame], str]) -> str:
    """``describe`` of every game, for an option's help: ``"cheeky-monkey: ...; too-many-monkeys: ..."``."""
    return "; ".join(f"{name}: {describe(game_named(name))}" for name in GAME_NAMES)


def bot_list(game: AnyGame) -> str:
    """The game's bot names for a help, an alias with the bot it names: ``"..., learned, strongest (expectimax)"``."""
    aliases = bot_aliases(game)
    return ", ".join(f"{name} ({aliases[name]})" if name in aliases else name for name in game.bot_names())


def _seats(game: AnyGame) -> str:
    low, high = game.seat_range()
    return f"{low} to {high}, default {game.default_seats()}"


def add_game_option(parser: argparse.ArgumentParser, *, what: str = "the game to play") -> None:
    """Add ``--game``: one of :data:`~cheekymonkey.games.GAME_NAMES`, the default game if not given."""
    parser.add_argument("--game", choices=GAME_NAMES, default=DEFAULT_GAME, help=f"{what} (default {DEFAULT_GAME})")


def add_variant_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--variant``: one of the game's preset rule sets (checked by :func:`ruleset_from`)."""
    parser.add_argument(
        "--variant",
        default=None,
        help="rule set, one of the game's (default: its standard rules): "
        + each_game(lambda game: ", ".join(game.preset_names())),
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--game``, ``--players``, ``--seed`` and ``--variant``."""
    add_game_option(parser)
    parser.add_argument(
        "--players",
        type=positive_int,
        default=None,
        help=f"seats (default: the game's usual number): {each_game(_seats)}",
    )
    parser.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        help="seed for a repeatable game (default: a random seed, shown and recorded)",
    )
    add_variant_option(parser)


def add_bots_option(
    parser: argparse.ArgumentParser,
    *,
    who: str,
    default: tuple[str, ...] = ("heuristic",),
    read: Callable[[str], Any] = bot_names_type,
    more: str = "",
) -> None:
    """Add ``--bots``: bot kinds, comma-separated, repeated round the table; ``who`` says whom they play.

    Without the option, :func:`bots_from` gives ``default``, kept to the bots the game has. ``read`` reads the
    option's text (bot names by default); ``more`` ends its help with what else it takes.
    """
    parser.set_defaults(default_bots=default)
    parser.add_argument(
        "--bots",
        type=read,
        default=None,
        help=f"{who}, comma-separated, repeated round the table (default {','.join(default)}, those the game has, "
        "else its first bot), the game's own: " + each_game(bot_list) + more,
    )


def bots_from(game: AnyGame, args: argparse.Namespace) -> tuple[str, ...]:
    """The bot kinds of ``--bots``, checked; without it, the command's default kept to the game's bots.

    A game with none of the default bots gets its first bot, so every game plays with the options left out.

    Raises:
        OptionError: If ``--bots`` names a bot the game does not have.
    """
    given: tuple[str, ...] | None = args.bots
    if given is not None:
        check_bots(game, given)
        return given
    known = game.bot_names()
    kept = tuple(name for name in args.default_bots if name in known) or known[:1]
    _check_buildable(game, kept)
    return kept


def add_table_options(parser: argparse.ArgumentParser, *, bots_who: str, record_default: str) -> None:
    """Add the options of a game at the table, the same for ``play`` and ``watch``.

    ``--game``, ``--players``, ``--seed``, ``--variant``, ``--bots``, ``--names``, ``--delay``, ``--record``,
    ``--no-record`` and ``--overwrite``; ``bots_who`` says whom the bots are and ``record_default`` what
    happens without ``--record``.
    """
    add_game_options(parser)
    add_bots_option(parser, who=bots_who)
    parser.add_argument(
        "--names",
        type=names_type,
        default=None,
        help="the players' names in seat order, comma-separated (seat 0 first); unnamed seats keep their default",
    )
    parser.add_argument(
        "--delay",
        type=delay_type,
        default=DEFAULT_DELAY,
        help=f"seconds between bots' moves at a terminal, so you can follow them (default {DEFAULT_DELAY}; "
        "never in a pipe)",
    )
    parser.add_argument(
        "--record", type=output_path, default=None, help=f"where to save the game record ({record_default})"
    )
    parser.add_argument("--no-record", action="store_true", help="do not save a record of the game")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the --record file if it exists (by default it is refused)"
    )


def pays_stakes(game: AnyGame, players: int, ruleset: Any) -> bool:
    """Whether ``game`` pays stakes of its own at ``players`` seats (chips, say), not the outcome's 1 to the winners.

    The tables of ``simulate`` and ``league`` then show each bot's mean return beside its win rate.
    """
    from cheekymonkey.outcome import Stakes

    return bool(game.stakes(players, ruleset) != Stakes.of_outcome())


def game_from(args: argparse.Namespace) -> AnyGame:
    """The game named by ``--game`` (the default game for commands without the option)."""
    return game_named(getattr(args, "game", None) or DEFAULT_GAME)


def ruleset_from(game: AnyGame, args: argparse.Namespace) -> Any:
    """The game's preset named by ``--variant`` (its standard rules without it).

    Raises:
        OptionError: If the game has no such preset.
    """
    name: str | None = args.variant
    if name is not None and name not in game.preset_names():
        raise OptionError(f"no variant {name!r} of {game.title}; the variants are {', '.join(game.preset_names())}")
    return game.ruleset(name)


def plural(count: int, noun: str) -> str:
    """A count with its noun in the right number: ``"1 player"``, ``"3 players"``.

    >>> plural(1, "player"), plural(2, "game")
    ('1 player', '2 games')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def players_from(game: AnyGame, ruleset: Any, given: int | None) -> int:
    """The seat count: ``given``, or the game's usual number (:meth:`~cheekymonkey.Game.default_seats`).

    Raises:
        OptionError: If the rule set cannot seat ``given`` players.
    """
    low, high = game.seat_range(ruleset)
    if given is None:
        return game.default_seats(ruleset)
    if not low <= given <= high:
        raise OptionError(f"{plural(given, 'player')}: {game.title} ({_rules_name(ruleset)}) takes {low} to {high}")
    return given


def _rules_name(ruleset: Any) -> str:
    """A rule set's name for messages: its ``name`` if it has one."""
    name = getattr(ruleset, "name", None)
    return f"{name} rules" if isinstance(name, str) else "these rules"


def check_bots(game: AnyGame, names: Sequence[str]) -> None:
    """Refuse bot names the game does not know, and bots that cannot play here (an optional extra missing).

    Each bot is built once, before anything is played: a bot of any game whose building raises an
    :class:`ImportError` (itself, or as the cause of the game's own error) is refused in one line naming what
    to install, as every command refuses a missing extra.

    Raises:
        OptionError: Naming the bot and the game's bots, or the bot and the package and extra it needs.
    """
    known = game.bot_names()
    for name in names:
        if name not in known:
            raise OptionError(f"no bot named {name!r}; the bots are {', '.join(known)}")
    _check_buildable(game, names)


def _check_buildable(game: AnyGame, names: Sequence[str]) -> None:
    for name in dict.fromkeys(names):
        try:
            game.bot_named(name)
        except Exception as error:
            chain = _import_chain(error)
            if not chain:
                raise  # not a missing package: a bug, shown as such
            raise OptionError(f"the {name} bot cannot play here: {_missing_line(chain)}") from None


def _import_chain(error: BaseException) -> list[ImportError]:
    """The ImportErrors ``error`` is, was raised from or was raised while handling, outermost first."""
    chain: list[ImportError] = []
    seen: BaseException | None = error
    for _ in range(20):  # a chain of causes is short; a cycle is cut
        if seen is None:
            break
        if isinstance(seen, ImportError):
            chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def _missing_line(chain: list[ImportError]) -> str:
    """What is missing and how to install it, in words, on one line."""
    from cheekymonkey.cli.extras import EXTRAS, install_hint

    named = next((error.name.split(".")[0] for error in chain if error.name), None)
    if named in EXTRAS:
        return f"{named} is not installed; it comes with the {EXTRAS[named]} extra: {install_hint(EXTRAS[named])}"
    message = " ".join(str(chain[0]).split())
    if named is None:
        return message  # the bot's own words, which say what to install
    return f"{named} is not installed; install the package that provides it (pip install {named}) ({message})"


def bots_for_seats(names: Sequence[str], seats: int) -> list[str]:
    """One bot name per seat: a single name fills every seat; otherwise the names repeat in turn."""
    return [names[i % len(names)] for i in range(seats)]


def seed_from(args: argparse.Namespace) -> int:
    """The seed of the game: ``--seed``, or a fresh random one, so the game can be recorded and played again."""
    given: int | None = args.seed
    return secrets.randbelow(1_000_000_000) if given is None else given


def seat_names(args: argparse.Namespace, defaults: Sequence[str]) -> list[str]:
    """The seat names: ``--names`` in seat order, the defaults for seats it leaves out.

    Raises:
        OptionError: If ``--names`` gives more names than there are seats, or names that
            :func:`~cheekymonkey.names.check_names` refuses ("you", look-alikes).
    """
    given: tuple[str, ...] = args.names or ()
    if len(given) > len(defaults):
        raise OptionError(
            f"{plural(len(given), 'name')} for {plural(len(defaults), 'seat')}: give at most one name per seat"
        )
    names = [*given, *defaults[len(given) :]]
    try:
        check_names(names)
    except CheekyMonkeyError as error:
        raise OptionError(str(error)) from None
    return names


def pause(seconds: float) -> None:
    """Wait ``seconds`` if standard output is a terminal (a person is watching); never in a pipe."""
    if seconds > 0 and math.isfinite(seconds) and sys.stdout.isatty():
        time.sleep(seconds)
