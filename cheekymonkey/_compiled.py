"""The optional compiled build, in one place: which modules it compiles, and what differs when it runs.

- **What is compiled**: the modules listed under ``[tool.hatch.build.targets.wheel.hooks.mypyc] include`` in
  ``pyproject.toml``, this one among them, and nothing else. ``benchmarks/compiled.sh`` builds the wheel with
  ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``, reads that list and checks that every module on it is an extension
  module before it runs the tests or the benchmarks against the wheel.
- **Whether this process runs it**: :data:`COMPILED`. A compiled module is an extension (``.so``), not a
  ``.py`` file, and the whole list is compiled or none of it, so this one module answers for all of them
  (a test holds every module on the list to the same answer, in both builds).
- **What differs**: each difference is keyed on :data:`COMPILED`, in the module it concerns:

  - :func:`cheekymonkey.cheeky.state.make_state`, the engine's unchecked constructor: the native constructor
    compiled, a cheaper way to fill the slots in pure Python;
  - :func:`cheekymonkey._values.count_sum`: a loop on native ints compiled, the builtin ``sum`` in pure Python;
  - the actions' methods (:class:`cheekymonkey._values.BaseAction`): the base's own, native, compiled; written
    for each action class when it is made, in pure Python;
  - the public functions whose parameters name a compiled class (:func:`~cheekymonkey.apply`,
    :func:`~cheekymonkey.claim_all`, :func:`~cheekymonkey.stop_in_order`, :func:`~cheekymonkey.new_game`).
    Their signatures say :class:`~cheekymonkey.GameState` and :data:`~cheekymonkey.cheeky.actions.Action`, for
    readers and for mypy. Compiled, such a signature is enforced on entry with a bare ``TypeError``, where
    the library promises its own errors for a wrong type (E9); so there, a caller from Python gets a twin
    typed ``object`` that checks the types itself and calls the typed function natively
    (:func:`entry_points`). Compiled callers call the typed function directly, as before.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["COMPILED", "entry_points"]

COMPILED: Final = not __file__.endswith((".py", ".pyc"))
"""Whether this process runs the compiled build (mypyc): this module is then an extension module."""


def entry_points(namespace: dict[str, Any], twins: dict[str, Any]) -> None:
    """In the compiled build, bind each public name in ``namespace`` (a module's globals) to its twin.

    Args:
        namespace: The module's ``globals()``.
        twins: Each public name, and the function typed ``object`` that checks its arguments and calls it.

    Compiled calls inside the package are bound when the modules are compiled, so they still reach the
    typed functions directly; only a caller from Python (``from cheekymonkey import apply``) meets the
    twin. In pure Python nothing changes: the typed function checks the types itself, at no extra call.
    """
    if COMPILED:
        namespace.update(twins)
