"""``tajmahal new-bot``: the package it writes passes its own tests, ruff and mypy --strict
as written, installs as a plugin that ``tajmahal bots`` and ``tajmahal plugins`` list, and
plays a tournament; bad names and folders are usage errors that write nothing.

The package is installed into a throwaway venv that sees this one's packages (a ``.pth``
file), without the network: tajmahal from this checkout, the bot with
``pip install --no-deps --no-build-isolation``.
"""

from __future__ import annotations

import os
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest

from tajmahal.bots.scaffold import class_name, scaffold_bot
from tajmahal.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("my-bot", "is not a Python identifier"),
        ("2fast", "is not a Python identifier"),
        ("class", "is a Python keyword"),
        ("match", "is a Python keyword"),
        ("MyBot", "must be lowercase letters"),
        ("greedy", "is taken: tajmahal's built-in bot GreedyBot"),
        ("random", "is taken: tajmahal's built-in bot RandomBot"),
        ("cautious", "is taken: the bot of the installed package tajmahal-example-plugin"),
        ("json", "standard library"),
        ("tajmahal", "standard library (or tajmahal's)"),
        ("pytest", "a module of that name is importable already"),
    ],
)
def test_a_bad_name_is_a_usage_error_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, message: str
) -> None:
    assert main(["new-bot", name, str(tmp_path / "bot")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "bot").exists()


def test_a_folder_that_is_not_empty_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new-bot", "mybot", str(tmp_path)]) == 2
    assert "is not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    assert main(["new-bot", "mybot", str(tmp_path / "notes.txt")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["new-bot", "mybot", str(empty)]) == 0  # an empty folder is fine
    assert (empty / "src" / "mybot" / "__init__.py").is_file()


def test_new_bot_writes_into_name_by_default_and_says_what_next(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new-bot", "deep_thought"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Wrote the bot 'deep_thought' (DeepThoughtBot) into deep_thought/:")
    assert "pip install -e './deep_thought[dev]'" in out
    assert "tajmahal tournament deep_thought greedy random --games 6" in out
    module = (tmp_path / "deep_thought" / "src" / "deep_thought" / "__init__.py").read_text()
    assert "class DeepThoughtBot:" in module and 'name: ClassVar[str] = "deep_thought"' in module
    pyproject = (tmp_path / "deep_thought" / "pyproject.toml").read_text()
    assert '[project.entry-points.tajmahal]\ndeep_thought = "deep_thought"' in pyproject
    assert 'name = "tajmahal-deep-thought"' in pyproject


def test_the_readme_has_the_five_commands_and_the_workflow_runs_the_three_checks(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "mybot"
    scaffold_bot("mybot", folder)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == [
        "tajmahal new-bot mybot",
        "pip install -e './mybot[dev]'",
        "pytest mybot",
        "tajmahal check-bot mybot",
        "tajmahal tournament mybot greedy random --games 6",
    ]
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((folder / ".github" / "workflows" / "tests.yml").read_text())
    steps = workflow["jobs"]["tests"]["steps"]
    runs = [step["run"] for step in steps if "run" in step]
    assert runs == ["python -m pip install -e '.[dev]'", "ruff check .", "mypy", "pytest"]
    assert workflow["jobs"]["tests"]["strategy"]["matrix"]["python-version"] == [
        "3.11", "3.12", "3.13"
    ]  # fmt: skip


def test_class_names() -> None:
    assert [class_name(n) for n in ("mybot", "x", "alpha_beta", "robot")] == [
        "Mybot", "XBot", "AlphaBetaBot", "Robot"
    ]  # fmt: skip


# ------------------------------------------------------------ the scaffold, installed


def venv_over_this_one(home: Path) -> Path:
    """A new venv (no pip of its own) that also sees this venv's packages; its python."""
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    shared = sysconfig.get_path("purelib")  # this venv's, with pip, hatchling, pytest, mypy
    (Path(purelib) / "zz_shared_site.pth").write_text(
        f"import site; site.addsitedir({shared!r})\n", encoding="utf-8"
    )
    return python


def run(*command: object, cwd: Path, timeout: float = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.defpath  # nothing of a venv on PATH: what runs is named by its path
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout, check=False)  # fmt: skip
    assert done.returncode == 0, f"{command}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_the_scaffold_passes_its_tests_ruff_and_mypy_installs_and_plays(tmp_path: Path) -> None:
    python = venv_over_this_one(tmp_path / "venv")
    pip = [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    run(*pip, ROOT, cwd=tmp_path)  # this checkout's tajmahal, with its entry points
    tajmahal = tmp_path / "venv" / "bin" / "tajmahal"
    out = run(tajmahal, "new-bot", "mybot", cwd=tmp_path)
    assert "Wrote the bot 'mybot' (Mybot) into mybot/:" in out
    bot = tmp_path / "mybot"
    run(*pip, bot, cwd=tmp_path)

    tests = run(python, "-m", "pytest", "-p", "no:cacheprovider", "-v", cwd=bot)
    assert "4 passed" in tests and "test_it_passes_the_check_bot_checks PASSED" in tests
    run(python, "-m", "ruff", "check", "--no-cache", ".", cwd=bot)
    mypy = run(python, "-m", "mypy", "--cache-dir", tmp_path / "mypy-cache", cwd=bot)
    assert mypy.startswith("Success: no issues found in 2 source files"), mypy

    bots = run(tajmahal, "bots", cwd=tmp_path)
    row = next(line.split(maxsplit=3) for line in bots.splitlines() if line.startswith("mybot"))
    assert row[:3] == ["mybot", "tajmahal-mybot", "0.1.0"]
    assert row[3].startswith("Plays its card with the most symbols")
    plugins = run(tajmahal, "plugins", cwd=tmp_path)
    assert any(line.split() == ["mybot", "tajmahal-mybot", "0.1.0", "mybot", "bots:", "mybot"]
               for line in plugins.splitlines()), plugins  # fmt: skip

    check = run(tajmahal, "check-bot", "mybot", cwd=tmp_path)
    assert check.rstrip().endswith("All 4 checks passed."), check
    table = run(tajmahal, "tournament", "mybot", "greedy", "random", "--games", "6",
                "--jobs", "1", cwd=tmp_path)  # fmt: skip
    assert "mybot" in table and "greedy" in table

    # the pytest11 entry point: a bot's suite gets the fixture without asking for it
    (bot / "tests" / "test_fixture.py").write_text(
        "def test_answers(bot_checks):\n"
        "    assert bot_checks('mybot').check('answers').passed\n",
        encoding="utf-8",
    )
    fixture = run(python, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_fixture.py",
                  cwd=bot)  # fmt: skip
    assert "1 passed" in fixture
