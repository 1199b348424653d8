"""An adapter imported without its extra names the extra to install (no bare ModuleNotFoundError).

Each case runs in a fresh interpreter where the framework cannot be imported (its
``sys.modules`` entry is ``None``, as Python does for a module known to be missing).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ("tajmahal.adapters.gymnasium_env", "gymnasium", "pip install 'tajmahal[gymnasium]'"),
    ("tajmahal.adapters.pettingzoo_env", "pettingzoo", "pip install 'tajmahal[pettingzoo]'"),
    ("tajmahal.adapters.openspiel_game", "pyspiel", "pip install 'tajmahal[openspiel]'"),
    ("tajmahal.adapters.actions", "numpy", "pip install 'tajmahal[gymnasium]'"),
    ("tajmahal.adapters.observations", "numpy", "pip install 'tajmahal[pettingzoo]'"),
]


@pytest.mark.parametrize(("module", "missing", "command"), CASES)
def test_an_adapter_without_its_extra_names_the_extra(
    module: str, missing: str, command: str
) -> None:
    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error.name, '|', error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"ImportError {missing} | {module} needs the extra "), done.stdout
    assert command in done.stdout and "Traceback" not in done.stdout
