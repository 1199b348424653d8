"""``python -m tajmahal.examples``: where each example bot program is, and how to seat it."""

from __future__ import annotations

from tajmahal.examples import EXAMPLES, example_path

for name, spec in EXAMPLES.items():
    path = example_path(name)
    print(f"{path}\n  tajmahal match \"{spec.replace('PATH', str(path))}\" greedy random")
