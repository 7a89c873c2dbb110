"""Seat names people can tell apart: every front end checks its seats' names here."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final

from cheekymonkey._confusables import skeleton
from cheekymonkey.errors import InvalidValueError

__all__ = ["check_names", "name_key"]


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

    A name must be text with a letter or a digit and no control, format or unassigned characters; it must
    not read as "you" (every reader's own seat is "you"); and no two names may look alike (:func:`name_key`:
    case, spacing, punctuation and look-alike letters do not tell names apart). Every front end checks its
    seats' names here.

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
                f"the name {name!r} has a control, format or unassigned character (a line break, a tab...)"
            )
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
