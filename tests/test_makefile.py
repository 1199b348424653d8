"""The Makefile makes .venv again when it no longer fits, instead of failing until `make clean`.

``make -n`` (print, do not run) is enough: the check runs when make reads the Makefile.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def dry_run(tmp_path: Path, venv_python: str | None) -> tuple[str, bool]:
    """``make -n`` of the stamp target in a copy of the Makefile: (output, .venv still there)."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for name in ("pyproject.toml", "examples/plugin/pyproject.toml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    if venv_python is not None:
        (tmp_path / ".venv" / "bin").mkdir(parents=True)
        python = tmp_path / ".venv" / "bin" / "python"
        python.write_text(f"#!/bin/sh\n{venv_python}\n", encoding="utf-8")
        python.chmod(0o755)
    done = subprocess.run(
        ["make", "-n", ".venv/.installed", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, (tmp_path / ".venv").exists()


def test_a_broken_venv_is_made_again(tmp_path: Path) -> None:
    out, kept = dry_run(tmp_path, "exit 1")
    assert not kept and "making it again" in out and f"{sys.executable} -m venv .venv" in out


def test_a_venv_of_another_python_is_made_again(tmp_path: Path) -> None:
    out, kept = dry_run(tmp_path, "echo 3.9.0 (an older Python)")
    assert not kept and "making it again" in out


def test_a_venv_that_fits_is_kept(tmp_path: Path) -> None:
    out, kept = dry_run(tmp_path, f'exec {sys.executable} "$@"')
    assert kept and "making it again" not in out and "-m venv" not in out


def test_the_demo_installs_the_package_alone(tmp_path: Path) -> None:
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    done = subprocess.run(
        ["make", "-n", "demo", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    installs = [line for line in done.stdout.splitlines() if "pip install" in line]
    assert installs == [".venv/bin/python -m pip install --quiet -e ."], done.stdout
    assert "tajmahal match" in done.stdout


VERSIONS_SCRIPT = ROOT / ".ci" / "test-python-versions"


def fake_python(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n', encoding="utf-8")
    path.chmod(0o755)


def test_the_other_pythons_are_found_on_path_or_in_pyenv(tmp_path: Path) -> None:
    fake_python(tmp_path / "bin" / "python3.97")
    for patch in ("3.98.2", "3.98.10", "3.98.9"):  # the newest patch release wins
        fake_python(tmp_path / "pyenv" / "versions" / patch / "bin" / "python3.98")
    (tmp_path / "pyenv" / "versions" / "3.99.0" / "bin").mkdir(parents=True)  # broken: none
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "PYENV_ROOT": str(tmp_path / "pyenv"),
           "PYTHON_VERSIONS": "3.97 3.98 3.99", "HOME": str(tmp_path)}  # fmt: skip
    done = subprocess.run([str(VERSIONS_SCRIPT), "--find"], env=env, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    assert done.stdout.splitlines() == [
        f"3.97 {tmp_path / 'bin' / 'python3.97'}",
        f"3.98 {tmp_path / 'pyenv' / 'versions' / '3.98.10' / 'bin' / 'python3.98'}",
        "3.99 missing",
    ]


def test_a_missing_python_is_reported_never_a_silent_pass(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYENV_ROOT": str(tmp_path), "HOME": str(tmp_path),
           "PYTHON_VERSIONS": "3.99"}  # fmt: skip
    done = subprocess.run([str(VERSIONS_SCRIPT)], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "== Python 3.99: not on this machine: SKIPPED (no tests ran on it)" in done.stdout
    assert done.stdout.splitlines()[-1] == "Python 3.99: SKIPPED, not on this machine"
    assert not (ROOT / ".venv-3.99").exists()


def test_ci_runs_the_other_pythons_after_make_test() -> None:
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith("#")]  # fmt: skip
    commands = [line for line in lines if line.startswith("make ")]
    # make test first; then the fresh-venv installs, the other Pythons and the compiled build
    assert commands == ["make test", "make test-install", "make test-versions", "make test-fast"]


def test_the_suite_runs_on_two_xdist_workers_unless_told_otherwise(tmp_path: Path) -> None:
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for name in ("pyproject.toml", "examples/plugin/pyproject.toml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")

    def pytest_lines(*arguments: str) -> list[str]:
        done = subprocess.run(["make", "-n", *arguments, f"PYTHON={sys.executable}"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
        lines = done.stdout.replace("\\\n", " ").splitlines()  # a recipe's continued lines
        return [line for line in lines if "bin/pytest " in line]

    parallel = "-n auto --maxprocesses 2 --dist loadfile"
    # -o fast-tree: its recipe calls make again (which -n runs): the build is not looked at here
    unit, fast = pytest_lines("unit"), pytest_lines("-o", "fast-tree", "test-fast")
    assert len(unit) == 1 and parallel in unit[0] and "-m 'not fresh_venv'" in unit[0]
    assert len(fast) == 1 and parallel in fast[0] and "TAJMAHAL_EXPECT_COMPILED=1" in fast[0]
    serial = pytest_lines("unit", "PYTEST_XDIST=-n 0")
    assert len(serial) == 1 and "-n 0" in serial[0] and "--dist" not in serial[0]
