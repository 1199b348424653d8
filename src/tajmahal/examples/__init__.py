"""Example bot programs that come with the library (docs/protocol.md).

Neither imports tajmahal: each speaks the bot protocol on its standard input and output.

- ``palace_lover.py``: Python, standard library only. Run it as
  ``python3 -m tajmahal.examples.palace_lover`` (``tajmahal match
  "cmd:python3 -m tajmahal.examples.palace_lover" greedy random``).
- ``random_bot.js``: Node.js, no packages. ``python -m tajmahal.examples`` prints each
  example's path and the command that seats it.
- ``arena_bot.js``: Node.js, no packages: a random bot that plays in a server's arena over
  the network (``node arena_bot.js http://localhost:8000 bot.token 3``; docs/protocol.md).

>>> from tajmahal.examples import example_path
>>> example_path("random_bot.js").name
'random_bot.js'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["EXAMPLES", "example_path"]

#: each example program, with the player spec that seats it (PATH: its file)
EXAMPLES = {
    "palace_lover.py": "cmd:python3 -m tajmahal.examples.palace_lover",
    "random_bot.js": "cmd:node PATH",
}


def example_path(name: str) -> Path:
    """The file of the example ``name`` (a key of ``EXAMPLES``), as installed."""
    if name not in EXAMPLES:
        raise KeyError(f"no example {name!r}; there are: {', '.join(EXAMPLES)}")
    return Path(__file__).with_name(name)
