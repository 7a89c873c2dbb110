"""The optional extras the commands need: which extra brings which package, and the one line said when one is missing.

Kept apart from :mod:`cheekymonkey.cli` so that the command modules read it without importing the parser.
"""

from __future__ import annotations

__all__ = ["EXTRAS", "extra_for", "install_hint", "missing_extra_line"]


EXTRAS: dict[str, str] = {
    "rich": "cli",
    "cattrs": "cli",
    "z3": "verify",
    "uvicorn": "web",
    "starlette": "web",
    "distributed": "dask",
    "dask": "dask",
    "ray": "ray",
    "matplotlib": "plot",
    "numpy": "rl",
    "torch": "train",
    "numba": "batched",
}
"""The extra that brings each optional package the commands import (the top-level module's name)."""


def install_hint(extra: str) -> str:
    """How to install an extra, both from the package index and from a clone of the repository."""
    return f"pip install 'cheekymonkey[{extra}]' (or, in a clone of the repository: pip install '.[{extra}]')"


def extra_for(error: ImportError, default: str = "cli") -> str:
    """The extra that brings the package an :class:`ImportError` says is missing (``default`` if unknown)."""
    name = (error.name or "").split(".")[0]
    return EXTRAS.get(name, default)


def missing_extra_line(command: str, error: ImportError, default: str = "cli") -> str:
    """The one line a command prints when an optional package is missing: what, and the extra to install."""
    extra = extra_for(error, default)
    what = f"{error.name} is not installed" if error.name else str(error)
    return f"cheekymonkey {command}: {what}; it comes with the {extra} extra: {install_hint(extra)}"
