"""The API reference lists the stable modules: each has an ``__all__`` whose every name loads."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

API_PAGE = Path(__file__).parents[1] / "docs" / "reference" / "api.md"


def stable_modules() -> list[str]:
    """The modules of the page's "Which modules are stable" table (``.x`` continues a prefix)."""
    section = API_PAGE.read_text(encoding="utf-8").split("## Which modules are stable")[1]
    table = section.split("\n\n")[2]
    names: list[str] = []
    for row in table.splitlines()[2:]:
        first = row.split("|")[1]
        base = ""
        for name in re.findall(r"`([\w.]+)`", first):
            if name.startswith("."):
                name = base + name
            else:
                base = name.rpartition(".")[0]
            names.append(name)
    return names


def test_the_page_lists_the_packages_people_import() -> None:
    listed = stable_modules()
    assert {"tajmahal", "tajmahal.bots", "tajmahal.hookspecs", "tajmahal.referee",
            "tajmahal.adapters.gymnasium_env"} <= set(listed)  # fmt: skip
    assert not any(name.split(".")[-1].startswith("_") for name in listed)


@pytest.mark.parametrize("name", stable_modules())
def test_a_stable_module_has_an_all_whose_every_name_loads(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__all__, name
    for public in module.__all__:
        assert getattr(module, public) is not None, f"{name}.{public}"
