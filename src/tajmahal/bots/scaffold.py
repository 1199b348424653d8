"""``tajmahal new-bot NAME``: a bot plugin package to start from, ready to publish.

:func:`scaffold_bot` writes a package that a bot author can test, type-check, lint,
install and upload as it is: ``pyproject.toml`` with the entry point (group
``"tajmahal"``), a typed bot class with a docstring, tests that use
:mod:`tajmahal.testing`, a README with the five commands from scaffold to a
tournament, and a GitHub Actions workflow. :func:`check_bot_name` says what is wrong
with a name before anything is written.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from pathlib import Path

from tajmahal import __version__
from tajmahal.bots.registry import BUILTIN_PLUGIN, Registry, default_registry
from tajmahal.rules.errors import TajMahalError

__all__ = ["ScaffoldError", "check_bot_name", "class_name", "scaffold_bot"]

NAME_RULE = re.compile(r"[a-z][a-z0-9_]*")


class ScaffoldError(TajMahalError, ValueError):
    """A bot name or a folder that ``new-bot`` cannot use; nothing was written."""


def check_bot_name(name: str, registry: Registry | None = None) -> None:
    """Raise :class:`ScaffoldError` unless ``name`` can be the bot's name and its module's.

    A name is a lowercase Python identifier (it names the bot, the package's module and
    the entry point), not a keyword, no other installed bot's name, and no module that
    is importable already (the standard library's, or an installed package's).

    >>> check_bot_name('mybot')
    >>> check_bot_name('my-bot')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.scaffold.ScaffoldError: bot name 'my-bot' is not a Python identifier...
    >>> check_bot_name('greedy')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.scaffold.ScaffoldError: bot name 'greedy' is taken: tajmahal's built-in bot ...
    """
    shown = repr(name)[:80]
    if not name.isidentifier():
        raise ScaffoldError(
            f"bot name {shown} is not a Python identifier: it names the bot and its module "
            "(lowercase letters, digits and '_', starting with a letter; e.g. 'my_bot')"
        )
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise ScaffoldError(f"bot name {shown} is a Python keyword: pick another name")
    if not NAME_RULE.fullmatch(name):
        raise ScaffoldError(
            f"bot name {shown} must be lowercase letters, digits and '_', starting with a "
            f"letter (bot names are lowercase): e.g. {name.lower().lstrip('_0123456789')!r}"
        )
    infos = (registry if registry is not None else default_registry()).bot_infos()
    taken = infos.get(name)
    if taken is not None:
        whose = ("tajmahal's built-in bot" if taken.plugin == BUILTIN_PLUGIN
                 else f"the bot of the installed package {taken.origin}")  # fmt: skip
        raise ScaffoldError(f"bot name {shown} is taken: {whose} {taken.bot_class.__name__}")
    if name in sys.stdlib_module_names or name == "tajmahal":
        raise ScaffoldError(
            f"bot name {shown} is a module of Python's standard library (or tajmahal's): "
            "the bot's module would hide it; pick another name"
        )
    found = importlib.util.find_spec(name)
    if found is not None:
        where = found.origin or ", ".join(found.submodule_search_locations or ()) or "?"
        raise ScaffoldError(
            f"bot name {shown}: a module of that name is importable already ({where}); "
            "the bot's module would clash with it: pick another name"
        )


def class_name(name: str) -> str:
    """The bot's class name for the bot name ``name``.

    >>> class_name('mybot'), class_name('cautious'), class_name('deep_thought')
    ('Mybot', 'CautiousBot', 'DeepThoughtBot')
    """
    words = "".join(word[:1].upper() + word[1:] for word in name.split("_") if word)
    return words if words.lower().endswith("bot") else f"{words}Bot"


def scaffold_bot(name: str, folder: str | Path | None = None) -> list[Path]:
    """Write the package of the bot ``name`` into ``folder`` (default ``./NAME``).

    :returns: the files written, in the order written.
    :raises ScaffoldError: a bad name (:func:`check_bot_name`), or a ``folder`` that
        exists and is not an empty folder; nothing is written then.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / 'mybot'
    >>> [str(path.relative_to(folder)) for path in scaffold_bot('mybot', folder)]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['pyproject.toml', 'README.md', '.gitignore', 'src/mybot/__init__.py',
     'src/mybot/py.typed', 'tests/test_mybot.py', '.github/workflows/tests.yml']
    >>> scaffold_bot('mybot', folder)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.scaffold.ScaffoldError: .../mybot is not empty: new-bot writes only into ...
    """
    check_bot_name(name)
    root = Path(folder) if folder is not None else Path(name)
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"{root} exists and is not a folder: new-bot writes a new package")
    if root.is_dir() and any(root.iterdir()):
        raise ScaffoldError(
            f"{root} is not empty: new-bot writes only into a new or empty folder "
            "(nothing was written)"
        )
    values = {
        "name": name,
        "dist": f"tajmahal-{name.replace('_', '-')}",
        "cls": class_name(name),
        "version": __version__,
    }
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        ".gitignore": GITIGNORE,
        f"src/{name}/__init__.py": MODULE,
        f"src/{name}/py.typed": "",
        f"tests/test_{name}.py": TESTS,
        ".github/workflows/tests.yml": WORKFLOW,
    }
    written = []
    for relative, template in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(template, values), encoding="utf-8")
        written.append(path)
    return written


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``{{key}}`` replaced (braces of TOML, YAML and Python stay)."""
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], template)


PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.18"]
build-backend = "hatchling.build"

[project]
name = "{{dist}}"
version = "0.1.0"
description = "{{cls}}: a bot for tajmahal (Reiner Knizia's Taj Mahal)"
readme = "README.md"
requires-python = ">=3.11"
# choose a licence before publishing, e.g. license = "MIT" and a LICENSE file
dependencies = ["tajmahal>={{version}}"]

[project.optional-dependencies]
dev = ["pytest>=7.4", "ruff>=0.4", "mypy>=1.8"]

# tajmahal finds the bot through this entry point (group "tajmahal"): once the package is
# installed, `tajmahal bots` lists it and every player spec can name it
[project.entry-points.tajmahal]
{{name}} = "{{name}}"

[tool.hatch.build.targets.wheel]
packages = ["src/{{name}}"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra --strict-markers"

[tool.mypy]
strict = true
files = ["src", "tests"]
mypy_path = "src"

[tool.ruff]
line-length = 100
target-version = "py311"
src = ["src", "tests"]

[tool.ruff.lint]
select = ["E", "F", "W", "I", "UP", "B", "SIM", "RUF"]
"""

README = """\
# {{dist}}

`{{name}}`, a bot for [tajmahal](https://tajmahal.readthedocs.io/), the rules engine
and referee for Reiner Knizia's *Taj Mahal*, published as a tajmahal plugin.

## From scaffold to a tournament

```sh
tajmahal new-bot {{name}}                          # 1. this package (done)
pip install -e './{{name}}[dev]'                   # 2. install it, with its test tools
pytest {{name}}                                    # 3. its tests (check-bot's checks among them)
tajmahal check-bot {{name}}                        # 4. the protocol and rules checks, one line each
tajmahal tournament {{name}} greedy random --games 6   # 5. against the built-in bots
```

`ruff check .` and `mypy` (strict, from `pyproject.toml`) pass as generated; the
workflow in `.github/workflows/tests.yml` runs all three on every push.

## Where things are

- `src/{{name}}/__init__.py`: the bot, `{{cls}}`: its `name`, a constructor that takes
  `seed` (take all randomness from it: a match then replays exactly) and
  `choose(view, legal_moves)`, which returns one of `legal_moves`. The first line of its
  docstring is what `tajmahal bots` shows. The function `tajmahal_bots`, marked
  `@tajmahal.hookimpl`, tells tajmahal which bots the package offers.
- `pyproject.toml`: the entry point that makes tajmahal find the module:

  ```toml
  [project.entry-points.tajmahal]
  {{name}} = "{{name}}"
  ```

- `tests/test_{{name}}.py`: tajmahal finds the bot, it plays whole matches, and it
  passes `tajmahal.testing.check_bot` (the checks of `tajmahal check-bot`).

The bot tutorial (https://tajmahal.readthedocs.io/en/latest/tutorials/bot.html) shows
what a bot sees and can do; `tajmahal plugins` lists the installed plugins.

## Publishing

`python -m build` writes the sdist and the wheel into `dist/`; `twine upload dist/*`
publishes them. Pick a licence first (`pyproject.toml`).
"""

GITIGNORE = """\
__pycache__/
*.egg-info/
.venv/
build/
dist/
.mypy_cache/
.pytest_cache/
.ruff_cache/
"""

MODULE = '''\
"""{{cls}}: a bot for tajmahal (Reiner Knizia's Taj Mahal), published as a plugin.

The entry point ``{{name}} = "{{name}}"`` (group ``"tajmahal"``) in ``pyproject.toml``
names this module; tajmahal calls its ``tajmahal_bots()`` hook to learn which bots it
offers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

import tajmahal as tm

__all__ = ["{{cls}}", "tajmahal_bots"]

#: cards on the table this visit after which the bot withdraws
ENOUGH = 3


class {{cls}}:
    """Plays its card with the most symbols; withdraws once it has three cards down.

    A starting point: change :meth:`choose`. ``tajmahal bots`` shows this first line.
    """

    name: ClassVar[str] = "{{name}}"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)  # all randomness from the seed: matches replay exactly

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        """One of ``legal_moves`` (never empty), for the seat ``view.seat``.

        ``view`` is what this seat may know: everything public and its own hand.
        """
        if view.phase is not tm.Phase.PLAY:
            return self.rng.choice(list(legal_moves))  # palaces and supply cards: any will do
        plays = [move for move in legal_moves if isinstance(move, tm.PlayCards)]
        withdraw = [move for move in legal_moves if isinstance(move, tm.Withdraw)]
        if withdraw and (not plays or len(view.table[view.seat]) >= ENOUGH):
            return withdraw[0]
        if not plays:
            return legal_moves[0]
        return max(plays, key=lambda move: len(move.colored.symbols) + (move.extra is not None))


@tm.hookimpl
def tajmahal_bots() -> Iterable[type[tm.Bot]]:
    """The bots of this plugin."""
    return [{{cls}}]
'''

TESTS = '''\
"""{{cls}}: tajmahal finds it, it plays whole matches, and it passes check-bot's checks."""

from __future__ import annotations

import tajmahal as tm
from tajmahal.testing import check_bot

from {{name}} import {{cls}}


def test_tajmahal_finds_the_bot_through_its_entry_point() -> None:
    assert tm.bots.available()["{{name}}"] is {{cls}}


def test_it_plays_a_whole_match_without_faults() -> None:
    result = tm.play_match([{{cls}}(seed=1), "greedy", "random"], seed=1)
    assert result.faults == ()
    assert len(result.scores) == 3


def test_the_same_seed_gives_the_same_game() -> None:
    first = tm.play_match(["{{name}}", "random", "random", "greedy"], seed=5)
    again = tm.play_match(["{{name}}", "random", "random", "greedy"], seed=5)
    assert first.record == again.record


def test_it_passes_the_check_bot_checks() -> None:
    report = check_bot("{{name}}")  # the checks of `tajmahal check-bot {{name}}`
    assert report.passed, report
'''

WORKFLOW = """\
# Lint, type-check and test the bot on every push and pull request.
name: tests

on:
  push:
  pull_request:

jobs:
  tests:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        python-version: ["3.11", "3.12", "3.13"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      # tajmahal comes from the package index; to test against another copy, install it
      # first (a wheel's path or a git URL): pip then keeps that one
      - run: python -m pip install -e '.[dev]'
      - run: ruff check .
      - run: mypy
      - run: pytest
"""
