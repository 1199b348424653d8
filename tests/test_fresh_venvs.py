"""What outsiders do, in fresh virtual environments that install from the package index.

- The docs build (``sphinx-build -W``) in a venv made from what .readthedocs.yaml installs,
  and nothing else: every extra the pages import must come with that.
- ``TAJMAHAL_COMPILE=1 pip install .`` with build isolation (the build hook asks for mypyc's
  needs itself) gives the compiled build, which plays a match, seats the example bot
  program that comes with the package, and names the extra of an adapter it lacks.

Each test downloads packages (pip's cache makes a second run quick) and takes minutes, so
they run in CI (``CI`` set) or with ``TAJMAHAL_FRESH_VENVS=1``, and are skipped otherwise.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import venv
from pathlib import Path

import pytest

import tajmahal as tm

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.fresh_venv,
    pytest.mark.skipif(
        not (os.environ.get("CI") or os.environ.get("TAJMAHAL_FRESH_VENVS")),
        reason="installs from the package index into fresh venvs: CI, or TAJMAHAL_FRESH_VENVS=1",
    ),
]


def fresh_venv(home: Path) -> Path:
    """A new venv with pip, that sees nothing of this one; its python."""
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(home)
    return home / "bin" / "python"


def clean_env(**extra: str) -> dict[str, str]:
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "TAJMAHAL_COMPILE", "PYTHONHOME")
    return {**{k: v for k, v in os.environ.items() if k not in drop}, **extra}


def run(*command: object, timeout: float = 900, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> str:  # fmt: skip
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env or clean_env())  # fmt: skip
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return done.stdout


def readthedocs_extras() -> list[str]:
    """The extras .readthedocs.yaml installs the package with (``method: pip``, ``path: .``)."""
    text = (ROOT / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert re.search(r"- method: pip\n\s+path: \.\n", text), "the docs install the package"
    block = text.split("extra_requirements:", 1)[1]
    return re.findall(r"^\s+- ([\w-]+)\s*$", block, re.M)


def test_the_docs_build_from_the_docs_config_alone(tmp_path: Path) -> None:
    extras = readthedocs_extras()
    assert extras == ["docs"], extras  # the docs extra pulls in what the pages import
    python = fresh_venv(tmp_path / "venv")
    run(python, "-m", "pip", "install", "--quiet", f"{ROOT}[{','.join(extras)}]")
    out = tmp_path / "html"
    run(python, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
        ROOT / "docs", out, "-d", tmp_path / "doctrees", cwd=tmp_path)  # fmt: skip
    assert (out / "reference" / "api" / "adapters.html").is_file()
    notebook = (out / "notebooks.html").read_text(encoding="utf-8")
    assert notebook.count('class="notebook-output"') >= 3  # run at build time, outputs shown


def test_the_compiled_build_installs_with_build_isolation_and_plays(tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    run(python, "-m", "pip", "install", "--quiet", ROOT, env=clean_env(TAJMAHAL_COMPILE="1"))
    where = run(python, "-c", "import tajmahal.rules.transitions as t; print(t.__file__)",
                cwd=tmp_path)  # fmt: skip
    assert where.strip().endswith(".so") and str(ROOT) not in where, where
    tajmahal = tmp_path / "venv" / "bin" / "tajmahal"
    match = run(tajmahal, "match", "greedy", "random", "random", "--seed", "7", "--json",
                cwd=tmp_path)  # fmt: skip
    expected = tm.play_match(["greedy", "random", "random"], seed=7)
    assert json.loads(match)["scores"] == list(expected.scores), match
    # the example bot program that comes with the package, run by the venv's python
    bot = f"cmd:{python} -m tajmahal.examples.palace_lover"
    check = run(tajmahal, "check-bot", bot, cwd=tmp_path, timeout=300)
    assert "checks passed" in check, check
    missing = subprocess.run([python, "-c", "import tajmahal.adapters.gymnasium_env"], cwd=tmp_path,
                             capture_output=True, text=True, env=clean_env())  # fmt: skip
    assert "pip install 'tajmahal[gymnasium]'" in missing.stderr, missing.stderr
