"""Sphinx configuration for the tajmahal documentation.

Built with ``make docs`` (HTML into ``docs/_build/html``) and, in the test
suite, with ``sphinx-build -W`` (warnings are errors) and the doctest builder.
Nothing here needs the network: intersphinx is not used.
"""

from __future__ import annotations

import datetime
import doctest
import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(DOCS / "_ext"))
# Tutorial 2's bot package; a reader installs it with `pip install -e yourbot`.
sys.path.insert(0, str(DOCS / "tutorials" / "yourbot" / "src"))

import tajmahal  # noqa: E402

project = "tajmahal"
author = "The tajmahal developers"
# the year of the build (SOURCE_DATE_EPOCH's, for a reproducible build, else today's)
built = datetime.datetime.fromtimestamp(
    int(os.environ.get("SOURCE_DATE_EPOCH") or datetime.datetime.now().timestamp()), datetime.UTC
)
copyright = f"{built.year}, The tajmahal developers"
release = tajmahal.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "tajmahal_docs",
    "tajmahal_notebook",  # the quick-start notebook, run as the pages are built
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# -- MyST
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- cross-references: every reference must resolve (with -W, a broken one fails the build)
nitpicky = True
nitpick_ignore_regex = [
    # the standard library, attrs and pluggy are not documented here (no intersphinx: offline)
    ("py:class", r"(argparse|pathlib|os|random|collections\.abc|typing|enum)\..*"),
    ("py:class", r"(pluggy|attr|attrs)\..*"),
    ("py:class", r"(Path|PathLike|Random|Sequence|Iterable|Iterator|Mapping|Callable|Hashable|Any)"),
    ("py:class", r"(TypeAlias|ClassVar|Protocol|Enum|NoneType|Exception|ValueError)"),
    ("py:class", r"(str|int|float|bool|bytes|object|dict|list|tuple|set|frozenset|type)"),
    # internal helper types that appear in annotations
    ("py:class", r"tajmahal\.rules\.frozenmap\.FrozenMap"),
    ("py:class", r"FrozenMap.*"),
    ("py:class", r"tajmahal\.rules\.(state|views|viewparts)\.(Kinds|Seats|Palaces)"),
    ("py:class", r"(Kinds|Seats|Palaces|E)"),
    ("py:class", r"tajmahal\.rules\.(roads|snapshot)\.(C|S)"),
    ("py:class", r"(tajmahal\.referee\.(seats|seat_threads)\.)?_Job"),  # a bot call, as MatchTimer runs it
    # the adapters' frameworks (numpy, Gymnasium, PettingZoo, OpenSpiel) and their aliases
    ("py:class", r"(numpy|np|npt|gymnasium|pettingzoo|pyspiel)\..*"),
    ("py:class", r"(Array|Mask|Observation|Steps|SupportsFloat|NDArray|AECEnv|Env)(\[.*)?"),
    # tajmahal.web: Starlette and the standard library's async pieces
    ("py:class", r"(starlette|asyncio|concurrent|psycopg)\..*"),
    ("py:class", r"(Starlette|Executor|Table|Workers|PathLike\[str\])"),
    ("py:class", r"(logging\.)?(Filter|LogRecord)"),
    ("py:class",
     r"(tajmahal\.web\.(server|guard)\.)?(ASGIApp|Scope|Receive|Send|Message|MutableMapping|Awaitable|T)"),
    ("py:class", r"tajmahal\.web\.workers\.T"),  # a TypeVar: what a worker's call returns
    ("py:class", r"(multiprocessing\.connection\.)?Connection"),  # a worker's pipes
]

# -- autodoc: the docstrings are the reference text
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
autoclass_content = "class"
# Keep per-object entries out of the navigation: the sections are the table of contents.
toc_object_entries = False
python_use_unqualified_type_names = True

# -- doctest: every ```{doctest} block of every page runs in `make test`, with no hidden
# setup: a page's blocks, pasted in order into a fresh interpreter, run as printed
# (each page imports what it uses; tests/test_docs.py checks that no setup creeps back).
# Exception messages are part of what the pages show, so they are compared too.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
# Docstring examples (shown in the API reference) are run by tests/test_docs.py in
# their own module's namespace, as their authors wrote them.
doctest_test_doctest_blocks = ""

# -- HTML
html_theme = "furo"
html_title = f"tajmahal {release}"
html_static_path: list[str] = []
html_theme_options = {"navigation_with_keys": True}
pygments_style = "friendly"
pygments_dark_style = "monokai"

# Pages written by other people that may not exist yet; a toctree entry for a
# missing one is dropped (see _ext/tajmahal_docs.py, optional_pages).
optional_pages = ["performance"]
