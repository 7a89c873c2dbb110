"""Sphinx configuration for the cheekymonkey documentation.

Build with ``python -m sphinx -W -b html docs docs/_build/html`` (the ``docs`` extra installs what it needs).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))

from cheekymonkey_docs import fallback_inventories  # noqa: E402

import cheekymonkey  # noqa: E402 (after the path set-up above)

project = "cheekymonkey"
author = "The cheekymonkey engineers"
copyright = "2026, the cheekymonkey engineers"
release = cheekymonkey.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "sphinx.ext.graphviz",  # the architecture page's diagram; needs Graphviz's dot (.ci/system-deps installs it)
    "myst_parser",
    "cheekymonkey_docs",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "conftest.py", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# Broken cross-references are errors (with -W): every type named in a signature or docstring resolves.
nitpicky = True
# The rl adapters' signatures name numpy, Gymnasium, PettingZoo and OpenSpiel types, whose docs are not linked.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|npt|gymnasium|pettingzoo|pyspiel|open_spiel)(\..*)?"),
    # The type variables of the generic Game protocol, its parts and the Table (a game's state, action, rule set,
    # view, event).
    (
        r"py:class",
        r"(cheekymonkey\.(game|base|table|record|encoding|documents|outcome|testing\._checks|solve)\.)?[SARVE](_co|_contra)?",
    ),
    # The batched engines' base class: its state class, the game's state and action, and jit's function.
    (r"py:class", r"cheekymonkey\.batched\.(StateT|S|A|F)"),
]

# MyST: ::: fences for admonitions, and anchors on headings so pages can link to sections.
myst_enable_extensions = ["colon_fence", "deflist"]


class _QuietMystConfig(logging.Filter):
    """Leaves out of the build log the line where MyST prints its whole configuration (no setting turns it off)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "myst v" not in str(record.msg)


logging.getLogger("sphinx.myst_parser.sphinx_ext.main").addFilter(_QuietMystConfig())
myst_heading_anchors = 3

# autodoc and napoleon: Google-style docstrings, types in the description, members in source order.
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_typehints_description_target = "all"
autodoc_member_order = "bysource"
autodoc_class_signature = "mixed"
# Bases are shown where they say something (errors, enums, DocumentError), not "Bases: object" everywhere.
autodoc_default_options = {"members": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_attr_annotations = True

# intersphinx: Python and attrs. Online, the published inventories are used; offline (CI sandboxes),
# cheekymonkey_docs writes a small fallback inventory of the names these docs link to, with the same
# URLs, so the build neither fails nor loses the links.
_FALLBACK = fallback_inventories()
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (None, _FALLBACK["python"])),
    "attrs": ("https://www.attrs.org/en/stable", (None, _FALLBACK["attrs"])),
}
intersphinx_timeout = 5
# cheekymonkey.web.create_app returns a Starlette application, and cheekymonkey.web.server.uvicorn_config a
# uvicorn configuration; neither project publishes a Sphinx inventory.
# A game's DocumentCodec holds the cattrs converter of its documents; these docs load no inventory of cattrs.
nitpick_ignore = [
    ("py:class", "starlette.applications.Starlette"),
    ("py:class", "uvicorn.config.Config"),
    ("py:class", "Config"),  # the same, as uvicorn's own Server signature names it (cheekymonkey.web.server.Server)
    ("py:class", "uvicorn.server.Server"),
    ("py:class", "cattrs.converters.Converter"),
    # What the generic documents need of their game (its name and record), a private protocol.
    ("py:class", "_Game"),
    # The offline fallback inventory of Python's names has no collections.abc.Hashable (a state's key).
    ("py:class", "collections.abc.Hashable"),
]

# Diagrams as SVG, so they scale and their text can be selected.
graphviz_output_format = "svg"

html_theme = "furo"
html_title = f"cheekymonkey {release}"
html_static_path: list[str] = []

# cheekymonkey_docs: where the rules and the public modules are.
cheekymonkey_rules = str(ROOT / "specs" / "rules.md")
cheekymonkey_root = str(ROOT)
