"""Example bot programs that come with the library (docs/protocol.md).

Neither imports tajmahal: each speaks the bot protocol on its standard input and output.

- ``palace_lover.py``: Python, standard library only. Run it as
  ``python3 -m tajmahal.examples.palace_lover`` (``tajmahal match
  "cmd:python3 -m tajmahal.examples.palace_lover" greedy random``).
- ``random_bot.js``: Node.js, no packages. ``python -m tajmahal.examples`` prints each
  example's path and the commands that seat and check it, with the absolute path of the
  Python that runs it (:func:`suggested_spec`), so that they work without the virtual
  environment first on ``PATH``.

>>> from tajmahal.examples import example_path
>>> example_path("random_bot.js").name
'random_bot.js'
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

__all__ = ["EXAMPLES", "example_path", "suggested_spec"]

#: each example program, with the player spec that seats it (PATH: its file; python3: the
#: Python where tajmahal is installed, see :func:`suggested_spec`)
EXAMPLES = {
    "palace_lover.py": "cmd:python3 -m tajmahal.examples.palace_lover",
    "random_bot.js": "cmd:node PATH",
}


def example_path(name: str) -> Path:
    """The file of the example ``name`` (a key of ``EXAMPLES``), as installed."""
    if name not in EXAMPLES:
        raise KeyError(f"no example {name!r}; there are: {', '.join(EXAMPLES)}")
    return Path(__file__).with_name(name)


def suggested_spec(name: str, python: str | None = None) -> str:
    """The player spec that seats the example ``name`` from this installation.

    ``python3`` becomes ``python`` (default: the running interpreter's absolute path,
    quoted for the shell-like split of ``cmd:`` specs) and ``PATH`` the example's file.

    >>> suggested_spec('palace_lover.py', python='/opt/venv/bin/python')
    'cmd:/opt/venv/bin/python -m tajmahal.examples.palace_lover'
    >>> suggested_spec('random_bot.js').startswith('cmd:node /')
    True
    """
    spec = EXAMPLES[str(example_path(name).name)]
    interpreter = shlex.quote(python if python is not None else sys.executable)
    spec = spec.replace("cmd:python3 ", f"cmd:{interpreter} ", 1)
    return spec.replace("PATH", shlex.quote(str(example_path(name))))
