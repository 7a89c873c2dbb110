"""Register the package's Gymnasium environments the moment Gymnasium is imported, without importing them.

Gymnasium 1.0 dropped the plugin system through which a package's environments were registered on
install (its entry points). So the wheel installs this file as a top-level module,
``_cheekymonkey_gymnasium``, and a one-line ``cheekymonkey-gymnasium.pth`` that calls :func:`install` when
Python starts. That adds one import hook, which waits for the first ``import gymnasium`` and then registers
every environment in the package's ``cheekymonkey.gymnasium`` entry points (``pyproject.toml``), by its
id and import path only: ``gymnasium.make("cheekymonkey/Solo-v0")`` then works in any program, and the
adapter is imported only when an environment is made.

Python's start-up pays for this module alone, which imports nothing but ``sys`` (the package is not
imported); the rest is imported when Gymnasium is.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: importing typing would cost every Python start-up about 10 ms
if TYPE_CHECKING:
    import importlib.machinery
    import types
    from collections.abc import Sequence

GROUP = "cheekymonkey.gymnasium"
"""The entry-point group that lists the environments: id = ``module:attribute`` of the environment class."""

VECTOR_GROUP = "cheekymonkey.gymnasium.vector"
"""The entry-point group of the environments' vector forms (``gymnasium.make_vec``): id = ``module:attribute``."""


def register_all(gymnasium: types.ModuleType) -> list[str]:
    """Register with ``gymnasium`` every environment of :data:`GROUP` it does not know yet; return their ids."""
    from importlib.metadata import entry_points

    vectors = {entry.name: entry.value for entry in entry_points(group=VECTOR_GROUP)}
    registered = []
    for entry in entry_points(group=GROUP):
        if entry.name not in gymnasium.registry:
            gymnasium.register(id=entry.name, entry_point=entry.value, vector_entry_point=vectors.get(entry.name))
            registered.append(entry.name)
    return registered


class _Finder:
    """A meta path finder that finds nothing itself.

    At the first import of Gymnasium it wraps the real loader's ``exec_module`` with the registration, then
    leaves ``sys.meta_path``.
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        import importlib.util

        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            # Gymnasium keeps its own loader (resources and all); only this one call of it is wrapped.
            loader = spec.loader
            load = loader.exec_module

            def exec_module(module: types.ModuleType) -> None:
                load(module)
                import contextlib

                with contextlib.suppress(Exception):  # a broken hook must never break an import of Gymnasium
                    register_all(module)

            loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Register the environments now if Gymnasium is imported already, else when it is."""
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        register_all(gymnasium)
    elif not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
