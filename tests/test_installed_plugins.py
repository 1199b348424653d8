"""The suite does not depend on which plugins are installed: the docstring examples that list
bots pass with Tutorial 2's plugin installed, as the tutorial tells its readers to do."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import tajmahal as tm
from test_docs import YOURBOT, yourbot_site

RUN = """
import doctest, importlib, sys
import tajmahal as tm
assert 'yourbot' in tm.bots.available(), sorted(tm.bots.available())
failed = 0
for name in sys.argv[1:]:
    failed += doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).failed
sys.exit(min(failed, 100))
"""


def bot_listing_modules() -> list[str]:
    """The modules whose examples ask the registry which bots there are."""
    names = ["tajmahal"]
    for info in pkgutil.walk_packages(tm.__path__, "tajmahal."):
        spec = info.module_finder.find_spec(info.name, None)
        origin = getattr(spec, "origin", None)
        if origin and origin.endswith(".py"):
            text = Path(origin).read_text(encoding="utf-8")
            if any(word in text for word in ("available()", "bot_infos()", "main(['bots'")):
                names.append(info.name)
    return names


def test_examples_that_list_bots_pass_with_tutorial_2s_plugin_installed(tmp_path: Path) -> None:
    site = yourbot_site(tmp_path / "site")
    paths = [str(site), str(YOURBOT / "src"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    modules = bot_listing_modules()
    assert "tajmahal.bots" in modules and "tajmahal.bots.registry" in modules
    done = subprocess.run([sys.executable, "-c", RUN, *modules], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
