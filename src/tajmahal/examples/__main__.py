"""``python -m tajmahal.examples``: where each example bot program is, how to seat and check it."""

from __future__ import annotations

import shlex

from tajmahal.examples import EXAMPLES, example_path, suggested_spec

for name in EXAMPLES:
    spec = shlex.quote(suggested_spec(name))
    print(f"{example_path(name)}\n  tajmahal match {spec} greedy random"
          f"\n  tajmahal check-bot {spec}")
