"""Text people read: seat names they can tell apart, and free text that cannot act on a terminal.

Every front end checks its seats' names here (:func:`check_names`), and every free text a document, a record or
a peer can carry (a rule set's name, a record's names and bots) is checked by :func:`check_text`; numbers typed
by people are read by :func:`ascii_number`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from cheekymonkey._confusables import skeleton
from cheekymonkey.errors import CheekyMonkeyError, InvalidValueError

__all__ = [
    "FREE_TEXT_PATTERN",
    "MAX_DIGITS",
    "MAX_LABEL_LENGTH",
    "MAX_TEXT_LENGTH",
    "ascii_number",
    "check_names",
    "check_text",
    "name_key",
    "text_problem",
]

MAX_TEXT_LENGTH: Final = 64
"""The most characters a name people give may have: a rule set's name, a seat's name (:func:`check_names`)."""

MAX_LABEL_LENGTH: Final = 256
"""The most characters a seat's label may have at a table and in a record, its name or its bot's kind.

A program may label a seat with a bot object's ``repr`` (a simulation does), longer than a name a person gives.
"""

_BIDI_CONTROLS: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters that reorder text around them: marks, embeddings, overrides and isolates (Unicode's UAX #9)."""

_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Controls (C0, DEL and C1: escape sequences, bells, line breaks), lone surrogates, line and paragraph separators."""

FREE_TEXT_PATTERN: Final = (
    r"^(?![\s\S]*[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff])"
)
"""The characters :func:`text_problem` refuses, as a JSON Schema ``pattern``: none of them anywhere in the text."""


def text_problem(text: object, limit: int = MAX_TEXT_LENGTH) -> str | None:
    r"""What makes ``text`` unfit to be shown to people, or None if it is fit.

    Free text is shown to other people, at their terminals too: it must be a string of 1 to ``limit``
    characters, not only spaces, with no control character (C0, DEL or C1: an escape sequence, a bell, a
    line break), no bidirectional control (which reorders the text around it: U+061C, U+200E, U+200F,
    U+202A to U+202E, U+2066 to U+2069), no lone surrogate and no line or paragraph separator.

    >>> text_problem("Monkeys, fast") is None
    True
    >>> print(text_problem("evil\x1b]0;title\x07"))
    it holds the control character U+001B ('\x1b'), which can act on a terminal
    """
    if not isinstance(text, str):
        return f"it must be text, got {type(text).__name__}"
    if not text.strip():
        return "it is empty or only spaces"
    if len(text) > limit:
        return f"it has {len(text)} characters, over the limit of {limit}"
    for ch in text:
        if ch in _BIDI_CONTROLS:
            return f"it holds the bidirectional control U+{ord(ch):04X}, which reorders the text shown around it"
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return f"it holds the control character U+{ord(ch):04X} ({ch!r}), which can act on a terminal"
    return None


def check_text(
    text: object, what: str, *, limit: int = MAX_TEXT_LENGTH, error: type[CheekyMonkeyError] = InvalidValueError
) -> str:
    r"""Refuse free text that could act on a terminal or flood a screen; return it as it is if it is fit.

    The one check of every free text a document, a record or a peer can carry (:func:`text_problem` says
    what it refuses): a rule set's name, a record's seat names and bots, a seat's name.

    Args:
        text: The text.
        what: What it is, for the message (``"a rule set's name"``).
        limit: The most characters it may have.
        error: The error to raise, the caller's own (:class:`~cheekymonkey.errors.InvalidRulesetError`...).

    Raises:
        InvalidValueError: (or ``error``) Naming what the text is and what is wrong with it, the text quoted
            safely and briefly.

    >>> check_text("Ann", "a seat's name")
    'Ann'
    >>> check_text("Ann\u202eeve", "a seat's name")
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidValueError: a seat's name 'Ann\u202eeve' is refused: it holds the bidirectional ...
    """
    problem = text_problem(text, limit)
    if problem is not None:
        raise error(f"{what} {_quoted(text)} is refused: {problem}")
    assert isinstance(text, str)
    return text


def _quoted(text: object) -> str:
    # repr escapes every control and format character; a long text is cut, so a message stays one short line.
    shown = repr(text[:40] + "..." if isinstance(text, str) and len(text) > 40 else text)
    return shown if len(shown) <= 100 else shown[:97] + "..."


MAX_DIGITS: Final = 9
"""The most digits a number typed by a person may have (a seat, a position, a count read from text)."""

_DIGITS: Final = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")


def ascii_number(word: str) -> int | None:
    r"""The number ``word`` writes in ASCII digits 0-9 (at most :data:`MAX_DIGITS` of them), or None.

    Other digits (superscript, circled, Arabic-Indic, fullwidth), signs, spaces and underscores are
    not a number here, though ``str.isdigit`` or ``int`` may take them: every reader of a seat or a number
    typed by a person reads it with this, and refuses a None as it refuses any other word.

    >>> ascii_number("12"), ascii_number("\u00b2"), ascii_number("\uff13"), ascii_number("+1")
    (12, None, None, None)
    """
    return int(word) if _DIGITS.fullmatch(word) else None


# Letters that look like others (Cyrillic and Greek look-alikes of Latin letters, digits like letters) are
# read as the letter they look like when names are compared; so are runs that read as one letter.
_LOOK_ALIKES: Final = str.maketrans(
    # Cyrillic and Greek letters that look like Latin ones (written as escapes: they look alike here too).
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u0501\u04bb\u04cf"
    "\u04af\u051b\u051d\u0261\u03bf\u03b1\u03b5\u03b9\u03ba\u03bd\u03c1\u03c4\u03c5\u03c7"
    "01i|5$@",
    "aeopcyxljsdhlyqwgoaelkvptuxolllssa",
)
_RUNS: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_YOU: Final = frozenset({"you", "your", "yours"})


def name_key(name: str) -> str:
    r"""What a name looks like, to tell names apart: case, width, spacing, punctuation and look-alikes folded.

    Two seat names with the same key would be mistaken for each other, so :func:`check_names` refuses them.

    >>> name_key("  ANN ") == name_key("ann") == name_key("\uff21\uff4e\uff4e")  # wide letters
    True
    >>> name_key("\u0410nn") == name_key("Ann")  # a Cyrillic A first
    True
    >>> name_key("Y0U!") == name_key("you")
    True
    >>> name_key("\u028f\u1d0f\u1d1c") == name_key("you")  # small capitals, listed among Unicode's confusables
    True
    """
    # Unicode's confusables (UTS #39) before and after case folding (a Greek capital Beta, a Cyrillic small a).
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    folded = unicodedata.normalize("NFKC", folded).casefold().translate(_LOOK_ALIKES)
    kept = "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LN")
    for run, letter in _RUNS:
        kept = kept.replace(run, letter)
    return kept


def check_names(names: Sequence[str]) -> None:
    """Refuse seat names people could not tell apart or would misread.

    A name must be text of at most :data:`MAX_TEXT_LENGTH` characters with a letter or a digit and no
    control, format or unassigned characters (:func:`check_text` and more); it must not read as "you" (every
    reader's own seat is "you"); and no two names may look alike (:func:`name_key`: case, spacing,
    punctuation and look-alike letters do not tell names apart). Every front end checks its seats' names here.

    Raises:
        InvalidValueError: Naming the name and the problem.

    >>> check_names(["Ann", "Bea"])
    >>> check_names(["Ann", "ANN"])
    Traceback (most recent call last):
    ...
    cheekymonkey.errors.InvalidValueError: the names 'Ann' and 'ANN' look alike: give each seat a name of its own
    """
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            raise InvalidValueError(f"a seat's name must be text, got {type(name).__name__}")
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            raise InvalidValueError(
                f"the name {_quoted(name)} has a control, format or unassigned character (a line break, a tab...)"
            )
        check_text(name, "a seat's name")  # the bound on length, and every check of free text
        key = name_key(name)
        if not key:
            raise InvalidValueError(f"a seat's name needs a letter or a digit, got {name!r}")
        if key in _YOU:
            raise InvalidValueError(f"{name!r} cannot be a seat's name: every player reads their own seat as 'you'")
        if key in seen:
            raise InvalidValueError(
                f"the names {seen[key]!r} and {name!r} look alike: give each seat a name of its own"
            )
        seen[key] = name
