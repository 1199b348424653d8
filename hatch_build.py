"""The optional compiled build: ``TAJMAHAL_COMPILE=1 pip install .`` compiles the hot code.

A hatchling build hook (``[tool.hatch.build.targets.wheel.hooks.custom]`` in
pyproject.toml).  Without the environment variable, or for an editable install
(``pip install -e .``), it does nothing and the wheel is pure Python.  With
``TAJMAHAL_COMPILE=1`` it compiles the hot modules of ``src/tajmahal/rules`` and of the
``ismcts`` bot (``COMPILED``, the fast playout path included) with mypyc into C
extension modules that sit beside their ``.py`` files in the same package (Python
imports the extension first), and the wheel becomes a platform wheel.  It needs a C
compiler and the Python headers (Debian: ``build-essential`` and ``python3-dev``); the
build asks for mypy, setuptools and the package's dependencies itself (mypyc type-checks with
them), so it works with build isolation.  See docs/performance.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENVIRONMENT = "TAJMAHAL_COMPILE"  #: set to 1 (or true, yes) for the compiled build
PACKAGE = Path("src") / "tajmahal"
#: the modules compiled: the engine's hot paths (legal moves, transitions, scoring, the lookup
#: tables, the fast playout path, sampling, the view parts) and the ismcts bot's (its search
#: loop, its evaluation and rollout policy: private modules that the documented
#: tajmahal.bots.ismcts and tajmahal.bots.evaluation call).  The others stay Python: the
#: public classes' and functions' modules (components, errors, moves, setup, snapshot, state,
#: views, the bots' public modules: mypyc drops the docstrings of compiled functions and
#: replaces those of attrs, enum and exception classes, so doctest and help() would find
#: nothing), the frozen map (compiled code would refuse a view holding a plain dict where the
#: annotation says FrozenMap), and what runs once per game or document (engine, deal,
#: validate, problems, display)
COMPILED = (
    "bots/_evaluation_core.py",
    "bots/_search.py",
    "bots/_seat_core.py",
    "rules/legal.py",
    "rules/playout.py",
    "rules/playout_steps.py",
    "rules/reshuffles.py",
    "rules/roads.py",
    "rules/sampling.py",
    "rules/scoring.py",
    "rules/tables.py",
    "rules/transitions.py",
    "rules/viewparts.py",
)


def compile_wanted() -> bool:
    """Whether the environment asks for the compiled build."""
    return os.environ.get(ENVIRONMENT, "").strip().lower() in {"1", "true", "yes", "on"}


# mypyc turns each module into C; setuptools runs the C compiler. mypyc type-checks the
# package first, so the build environment also gets the package's own dependencies (their
# types: attrs, cattrs, pluggy...), added in CompileHook.dependencies
COMPILE_REQUIRES = ["mypy>=1.11", "setuptools>=61"]

# lines of the build's output that say the C compiler or the Python headers are missing
_COMPILER_MISSING = ("Python.h: No such file", "command 'gcc' failed", "command 'cc' failed",
                     "gcc: not found", "cc: not found", "No such file or directory: 'gcc'",
                     "No such file or directory: 'cc'", "error: command")  # fmt: skip

# run in a separate interpreter (the build environment's), in a scratch copy of the package
_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="tajmahal-compiled",
    ext_modules=mypycify(sys.argv[1:], opt_level="3", debug_level="0", multi_file=True),
    script_args=["build_ext", "--inplace", "--parallel", "2"],
)
"""


def failure(output: str) -> str:
    """What a failed mypyc build's ``output`` says went wrong, in a few words."""
    if any(line in output for line in _COMPILER_MISSING):
        return ("the C compiler failed (it needs a C compiler and the Python headers: "
                "Debian's build-essential and python3-dev)")  # fmt: skip
    if ": error: " in output:  # mypy's "file.py:12: error: ..." lines
        return ("mypyc could not type-check the package (a module it imports missing from "
                "the build environment, or a type error)")  # fmt: skip
    return "the mypyc build failed"


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile ``COMPILED`` with mypyc when ``TAJMAHAL_COMPILE`` says so."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not compile_wanted():
            return []
        return [*COMPILE_REQUIRES, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not compile_wanted():
            return
        root = Path(self.root)
        self._scratch = Path(tempfile.mkdtemp(prefix="tajmahal-mypyc-"))
        shutil.copytree(root / PACKAGE, self._scratch / "tajmahal",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))  # fmt: skip
        modules = [str(Path("tajmahal") / module) for module in COMPILED]
        self.app.display_info(f"mypyc: compiling {len(modules)} modules of tajmahal")
        # the build environment's paths (pip's isolated build adds them to sys.path only)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        done = subprocess.run(
            [sys.executable, "-c", _SETUP, *modules], cwd=self._scratch, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{ENVIRONMENT}: {failure(done.stdout)}:\n{done.stdout[-6000:]}")
        # the package's extension modules, and mypyc's shared library beside the package
        extensions = sorted(self._scratch.glob("*.so")) + sorted(
            (self._scratch / "tajmahal").rglob("*.so")
        )
        for path in extensions:
            build_data["force_include"][str(path)] = str(path.relative_to(self._scratch))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"mypyc: {len(extensions)} extension modules")

    def finalize(
        self, version: str, build_data: dict[str, Any], artifact_path: str
    ) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
