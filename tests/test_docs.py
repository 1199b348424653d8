"""The documentation: it builds without warnings, and every example in it runs.

- ``sphinx-build -W -b html`` (nitpicky: a broken cross-reference is an error);
- ``sphinx-build -W -b doctest``: every ```{doctest} block of every page;
- the docstring examples shown in the API reference, in their modules' namespaces;
- the ``tajmahal ...`` commands of the pages' ``console`` blocks, against their output;
- the README's example.

No network is needed: the docs use no intersphinx.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import pkgutil
import re
import shlex
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import pytest

import tajmahal as tm

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
YOURBOT = DOCS / "tutorials" / "yourbot"



def sphinx(builder: str, out: Path) -> subprocess.Popen[str]:
    """Start ``sphinx-build -W -b builder`` (nitpicky, see docs/conf.py) into ``out/builder``."""
    return subprocess.Popen(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
         str(DOCS), str(out / builder), "-d", str(out / f"doctrees-{builder}")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, Path]]:
    """Both builds, run side by side: builder -> (exit code, stderr, output folder)."""
    missing = [m for m in ("sphinx", "furo", "myst_parser") if importlib.util.find_spec(m) is None]
    assert not missing, f"{missing} not installed: pip install -e '.[docs]' (make test does)"
    out = tmp_path_factory.mktemp("docs")
    start = time.perf_counter()
    running = {builder: sphinx(builder, out) for builder in ("html", "doctest")}
    done = {}
    for builder, process in running.items():
        _, stderr = process.communicate(timeout=900)
        done[builder] = (process.returncode, stderr, out / builder)
        print(f"docs {builder} build: {time.perf_counter() - start:.1f} s")
    return done


@pytest.fixture(scope="module")
def built(builds: dict[str, tuple[int, str, Path]]) -> Path:
    code, stderr, folder = builds["html"]
    assert code == 0, f"sphinx-build -W -b html failed:\n{stderr}"
    return folder


# ---------------------------------------------------------------- the HTML build


def test_html_builds_without_warnings(built: Path) -> None:
    for page in ("index", "installation", "tutorials/play", "tutorials/bot",
                 "tutorials/matches", "rules", "rules-notes", "reference/api", "changelog"):
        assert (built / f"{page}.html").is_file(), page


def test_the_footer_year_is_the_builds(built: Path) -> None:
    import datetime

    year = datetime.datetime.now(datetime.UTC).year  # the test's build sets no SOURCE_DATE_EPOCH
    footer = (built / "index.html").read_text(encoding="utf-8")
    assert f"{year}, The tajmahal developers" in footer or str(year - 1) in footer  # New Year


def test_the_changelogs_links_to_the_performance_page_land_on_a_section(built: Path) -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r"/en/latest/performance\.html#([\w-]+)\)", text))
    assert anchors, "the CHANGELOG links its figures to the performance page"
    page = (built / "performance.html").read_text(encoding="utf-8")
    assert not [a for a in anchors if f'id="{a}"' not in page], anchors


def test_board_picture_is_generated_and_shown(built: Path) -> None:
    pictures = {p.name for p in (built / "_images").glob("*.svg")}
    assert {"board.svg", "board-seed-7.svg"} <= pictures
    svg = (built / "_images" / "board.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg")
    assert svg.count('class="road"') == len(tm.standard_components().board.roads)
    assert 'src="_images/board.svg"' in (built / "rules-notes.html").read_text(encoding="utf-8")


def test_every_public_name_is_in_the_api_reference(built: Path) -> None:
    pages = [built / "reference" / "api.html", *(built / "reference" / "api").glob("*.html")]
    assert len(pages) > 5, "the API reference is split by module"
    html = "".join(page.read_text(encoding="utf-8") for page in pages)
    missing = [
        name for name in tm.__all__
        if f'id="tajmahal.{name}"' not in html and f'id="module-tajmahal.{name}"' not in html
    ]
    assert not missing, f"not documented in docs/reference/api/: {missing}"


def test_every_rule_id_is_linked_to_code(built: Path) -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    rules = re.findall(r"^- \*\*([A-Z])(\d+)\b(.*?)(?=^- \*\*|^#|\Z)", text, re.M | re.S)
    numbers: dict[str, list[int]] = {}
    for letter, number, _ in rules:
        numbers.setdefault(letter, []).append(int(number))
    # the rules page's sections, each numbered 1..n without gaps
    expected = {"C": 12, "S": 10, "V": 6, "P": 8, "W": 11, "K": 9, "F": 3, "E": 7, "D": 1,
                "G": 3, "I": 4, "T": 5}
    assert numbers == {k: list(range(1, n + 1)) for k, n in expected.items()}
    role = re.compile(r"\{(func|class|attr|meth)\}")
    unlinked = [f"{letter}{n}" for letter, n, body in rules if not role.search(body)]
    assert not unlinked, f"rules without a link to their code: {unlinked}"
    internals = (built / "reference" / "internals.html").read_text(encoding="utf-8")
    assert "_modules/tajmahal/rules/transitions.html" in internals  # viewcode: the source is shown


def test_the_quickstart_notebook_is_shown_with_its_outputs(built: Path) -> None:
    html = (built / "notebooks.html").read_text(encoding="utf-8")
    shown = html.split('id="the-quick-start-notebook"', 1)[1]
    assert shown.count('class="notebook-output"') >= 3  # the view, the record, the table
    assert "data:image/svg+xml;base64," in shown and "<iframe" in shown
    assert "(0, 13)" in shown  # a cell's value: the current player and the legal moves


def test_changelog_page_includes_the_changelog(built: Path) -> None:
    html = (built / "changelog.html").read_text(encoding="utf-8")
    assert "Unreleased" in html


# ---------------------------------------------------------------- doctests


def test_pages_have_at_least_twenty_doctest_blocks() -> None:
    blocks = sum(p.read_text(encoding="utf-8").count("```{doctest}") for p in PAGES)
    assert blocks >= 20, blocks


def test_page_doctests_pass(builds: dict[str, tuple[int, str, Path]]) -> None:
    code, stderr, folder = builds["doctest"]
    report = (folder / "output.txt").read_text(encoding="utf-8")
    assert code == 0, f"{report}\n{stderr}"
    summary = re.search(r"Doctest summary\n=+\n\s*(\d+) tests", report)
    assert summary, report
    assert int(summary.group(1)) >= 100, report
    assert "0 failures in tests" in report


def tajmahal_modules() -> Iterator[ModuleType]:
    yield tm
    for info in pkgutil.walk_packages(tm.__path__, "tajmahal."):
        if not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


@pytest.mark.parametrize("module", list(tajmahal_modules()), ids=lambda m: m.__name__)
def test_docstring_examples_pass(module: ModuleType) -> None:
    # in a thread of its own: an example may call asyncio.run, and the session's Playwright
    # browser (if a test started it) keeps an event loop running in the main thread
    with ThreadPoolExecutor(1) as thread:
        result = thread.submit(
            doctest.testmod, module, optionflags=doctest.ELLIPSIS, report=False
        ).result()
    assert result.failed == 0, f"{result.failed} docstring example(s) fail in {module.__name__}"


# ---------------------------------------------------------------- console blocks


def console_blocks(page: Path) -> Iterator[tuple[str, str]]:
    """(command, expected output) for each ``$ tajmahal ...`` line of the page's console blocks."""
    text = page.read_text(encoding="utf-8")
    for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    yield command, "\n".join(output)
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            yield command, "\n".join(output)


def squeeze(text: str) -> str:
    """Collapse runs of spaces (column widths depend on which bots are installed)."""
    return "\n".join(re.sub(r"[ \t]+", " ", line).rstrip() for line in text.strip().splitlines())


def yourbot_site(folder: Path) -> Path:
    """Tutorial 2's package, made findable as `pip install -e yourbot` would (offline)."""
    project = tomllib.loads((YOURBOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = project["name"].replace("-", "_")
    info = folder / f"{name}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    points = project["entry-points"]["tajmahal"]
    (info / "entry_points.txt").write_text(
        "[tajmahal]\n" + "".join(f"{k} = {v}\n" for k, v in points.items())
    )
    return folder


def runnable(command: str) -> bool:
    return command.startswith(("tajmahal ", "python examples/"))


CONSOLE_PAGES = [p for p in PAGES if any(runnable(c) for c, _ in console_blocks(p))]


@pytest.mark.parametrize("page", CONSOLE_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_console_commands_print_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    site = yourbot_site(tmp_path / "site")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(site), str(YOURBOT / "src"), env.get("PYTHONPATH", "")]
    )
    work = tmp_path / "work"
    work.mkdir()
    checker = doctest.OutputChecker()
    ran = 0
    for command, expected in console_blocks(page):
        words = shlex.split(command)
        if words[0] == "tajmahal":
            argv = [sys.executable, "-m", "tajmahal", *words[1:]]
        elif words[0] == "python" and words[1].startswith("examples/"):
            argv = [sys.executable, str(ROOT / words[1]), *words[2:]]
        else:
            continue  # installation commands (pip, make) are not run here
        done = subprocess.run(
            argv,
            capture_output=True, text=True, cwd=work, env=env, timeout=300, check=False,
        )
        assert done.returncode == 0, f"$ {command}\n{done.stderr}"
        want, got = squeeze(expected) + "\n", squeeze(done.stdout) + "\n"
        if words[1:] == ["bots"]:  # other installed plugins add lines: keep the page's ones
            # the page shows a release's version for the built-in bots, the code may be newer
            want = re.sub(r"^(\S+ tajmahal )\S+ ", r"\1VERSION ", want, flags=re.M)
            got = re.sub(rf"^(\S+ tajmahal ){re.escape(tm.__version__)} ", r"\1VERSION ", got,
                         flags=re.M)  # fmt: skip
            shown = set(want.splitlines())
            got = "".join(line + "\n" for line in got.splitlines() if line in shown)
        assert checker.check_output(want, got, doctest.ELLIPSIS), (
            f"$ {command}\n--- the page shows:\n{want}--- the command prints:\n{got}"
        )
        ran += 1
    assert ran >= 1


def test_console_blocks_name_real_commands() -> None:
    shown = [c for p in PAGES for c, _ in console_blocks(p)]
    assert any(c.startswith("tajmahal match yourbot greedy random") for c in shown)
    first_words = {shlex.split(c)[0] for c in shown}
    assert first_words <= {"tajmahal", "python", "make"}, first_words


# ---------------------------------------------------------------- the README


def readme_examples() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    return "\n".join(b for b in blocks if ">>>" in b)


def test_readme_opens_with_the_library_then_the_commands_then_an_example() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    what = text.index("Python library")
    demo, test = text.index("make demo"), text.index("make test")
    example = text.index(">>> import tajmahal as tm")
    assert what < demo < test < example
    assert "docs" in text[example:].lower() or "docs" in text[:example].lower()


def test_readme_links_are_absolute_and_its_commands_need_no_checkout_first() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")  # also PyPI's project description
    relative = re.findall(r"\]\((?!https://)[^)]*\)", text)
    assert not relative, f"links that break on PyPI: {relative}"
    assert text.index("pip install tajmahal") < text.index("make demo")
    assert "examples/bots" not in text


def test_readme_example_runs() -> None:
    source = readme_examples()
    assert source.count(">>>") >= 4
    test = doctest.DocTestParser().get_doctest(source, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries == source.count(">>>")


def test_docs_code_and_changelog_point_to_the_rules_page_not_to_files_users_lack() -> None:
    root = DOCS.parent
    files = [root / "README.md", root / "CHANGELOG.md", *DOCS.rglob("*.md")]
    files += [*(root / "src").rglob("*.py"), *(root / "src").rglob("*.toml")]
    files += [*(root / "tests").rglob("*.py"), *(root / "examples").rglob("*.py")]
    unseen = re.compile(r"RULES\.md|DESIGN\.md|\.\./shared")
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in files
        if "_build" not in path.parts and path.name != "test_docs.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if unseen.search(line)
    ]
    assert not found, f"point to docs/rules.md instead: {found}"


def test_the_json_schemas_are_published_where_their_ids_say(built: Path) -> None:
    from tajmahal.serialize import SCHEMA_NAMES, schema

    for name in SCHEMA_NAMES:
        published = json.loads((built / "schemas" / f"{name}.json").read_text())
        assert published == schema(name)
        assert published["$id"].endswith(f"/en/latest/schemas/{name}.json")
    page = (built / "reference" / "schemas.html").read_text()
    assert "message-request.json" in page and "_downloads" in page
