"""The web server, its PostgreSQL store and the Ray backend, without their extras, raise an
ImportError that names the extra to install (no bare ModuleNotFoundError), as the adapters
do (tests/test_adapter_extras.py).

Each case runs in a fresh interpreter where the dependency cannot be imported (its
``sys.modules`` entry is ``None``, as Python does for a module known to be missing).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ("tajmahal.web", "starlette", "tajmahal.web needs the extra 'web'", "tajmahal[web]"),
    ("tajmahal.web", "uvicorn", "tajmahal.web needs the extra 'web'", "tajmahal[web]"),
    ("tajmahal.web.stores.postgres", "psycopg",
     "tajmahal.web.stores.postgres needs the extra 'postgres'", "tajmahal[postgres]"),
]  # fmt: skip


def python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("module", "missing", "message", "extra"), CASES)
def test_an_optional_module_without_its_extra_names_the_extra(
    module: str, missing: str, message: str, extra: str
) -> None:
    out = python(
        f"import sys; sys.modules[{missing!r}] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error.name, '|', error)\n"
    )
    assert out.startswith(f"ImportError {missing} | {message} ({missing} is not installed)"), out
    assert f"pip install '{extra}'" in out


def test_the_ray_backend_without_ray_names_the_extra() -> None:
    out = python(
        "import sys; sys.modules['ray'] = None\n"
        "import tajmahal as tm\n"
        "from tajmahal.tournament import TournamentError\n"
        "try:\n"
        "    tm.run_tournament(['random'] * 3, games=6, backend='ray')\n"
        "except ImportError as error:\n"
        "    print(isinstance(error, TournamentError), error.name, '|', error)\n"
        "from tajmahal.cli import main\n"
        "print(main(['tournament', 'random', 'random', 'random', '--games', '6', "
        "'--backend', 'ray']))\n"
    )
    first, cli = out.splitlines()[0], out.splitlines()[-1]
    assert first.startswith("True ray | the ray backend needs the extra 'ray' (ray is not "
                            "installed): pip install 'tajmahal[ray]'"), out  # fmt: skip
    assert cli == "1"  # the command: one line, a failed run
