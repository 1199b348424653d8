"""Sphinx extension for the tajmahal docs: the board picture, optional pages, references.

Before any page is read, :func:`tajmahal.render.write_board_svg` writes
``docs/_generated/board.svg`` (the bare board) and ``board-seed-7.svg`` (the
tiles as setup lays them for seed 7), so the pictures always match the
components file the library ships; and ``match-seed-7-visit-6.svg``, what
``tajmahal render --record game.json --visit 6`` draws for tutorial 3's match.
The files are written atomically, and only when what they show has changed
since the last build.

It also lets the root toctree name pages that other people write and that may
not exist yet (``optional_pages`` in ``conf.py``): their lines are dropped
while the file is missing, so the build stays free of warnings.

After an HTML build, the JSON Schemas are copied to ``schemas/`` in the site,
the address their ``$id`` names.

Finally, docstrings name things as users import them (``GameState.apply``,
``Game``) from modules where those short names do not resolve; a reference
that Sphinx cannot resolve is retried under the ``tajmahal.`` prefix, then as
the single documented object whose full name ends with it, before it counts
as broken.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

import tajmahal
from tajmahal import cli, render
from tajmahal.rules import components

PICTURES = {"board.svg": None, "board-seed-7.svg": 7, "match-seed-7-visit-6.svg": None}
MATCH_PLAYERS = ("greedy", "greedy", "random", "random")
MATCH_SEED = 7


def picture_key(seed: int | None, match: bool = False) -> str:
    """What a picture depends on: the drawing code, the components file, the seed (the game)."""
    digest = hashlib.sha256(f"{seed}\n".encode())
    render_files = sorted(Path(render.__file__).parent.glob("*.py"))
    cli_files = sorted(Path(cli.__file__).parent.glob("*.py"))
    for path in (*render_files, *cli_files, components.STANDARD_PATH):
        digest.update(path.read_bytes())
    if match:  # the whole game, which depends on the engine and the bots
        record = tajmahal.play_match(list(MATCH_PLAYERS), seed=MATCH_SEED).record
        digest.update(tajmahal.dumps(record).encode())
    return digest.hexdigest()


def match_picture(path: str) -> None:
    """Tutorial 3's picture: ``tajmahal render --record game.json --visit 6`` for its match."""
    record = tajmahal.play_match(list(MATCH_PLAYERS), seed=MATCH_SEED).record
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "game.json"
        game.write_text(tajmahal.dumps(record), encoding="utf-8")
        with contextlib.redirect_stdout(io.StringIO()):
            code = cli.main(["render", "--record", str(game), "--visit", "6", "--out", path])
    if code != 0:
        raise RuntimeError(f"tajmahal render failed with exit code {code}")


def publish_schemas(app: Sphinx, exception: Exception | None) -> None:
    """Copy the JSON Schemas to ``<site>/schemas/`` (where their ``$id`` says they are)."""
    if exception is not None or app.builder.format != "html":
        return
    from tajmahal.serialize import SCHEMA_NAMES, schema

    target = Path(app.outdir) / "schemas"
    target.mkdir(exist_ok=True)
    for name in SCHEMA_NAMES:
        (target / f"{name}.json").write_text(json.dumps(schema(name), indent=2) + "\n")


def write_pictures(app: Sphinx) -> None:
    """Render each picture into ``<confdir>/_generated`` (skipped when up to date).

    Every builder does this (the doctest builder too reads the image
    directives), so each build works alone on a fresh checkout; concurrent
    builds are safe because each file is replaced atomically.
    """
    target = Path(app.confdir) / "_generated"
    target.mkdir(exist_ok=True)
    for name, seed in PICTURES.items():
        path, stamp = target / name, target / f"{name}.key"
        key = picture_key(seed, match=seed is None and name.startswith("match"))
        if path.exists() and stamp.exists() and stamp.read_text() == key:
            continue
        fd, tmp = tempfile.mkstemp(dir=target, suffix=".svg.tmp")
        os.close(fd)
        try:
            if name.startswith("match"):
                match_picture(tmp)
            else:
                render.write_board_svg(tmp, seed=seed)
            os.replace(tmp, path)
            stamp.write_text(key)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)


def drop_missing_pages(app: Sphinx, docname: str, source: list[str]) -> None:
    """Remove toctree lines naming an ``optional_pages`` page that has no source file."""
    if docname != app.config.root_doc:
        return
    for page in app.config.optional_pages:
        if not any((Path(app.srcdir) / f"{page}{suffix}").exists() for suffix in (".md", ".rst")):
            source[0] = "\n".join(line for line in source[0].split("\n") if line.strip() != page)


def resolve_public_name(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Resolve ``X`` as ``tajmahal.X``, else as the one documented object named ``*.X``."""
    if node.get("refdomain") != "py":
        return None
    target = str(node["reftarget"]).lstrip("~.")
    domain = env.get_domain("py")
    candidates = [] if target.startswith("tajmahal.") else [f"tajmahal.{target}"]
    matches = domain.find_obj(env, "", "", target, node["reftype"], 1)  # type: ignore[attr-defined]
    if len(matches) == 1:
        candidates.append(matches[0][0])
    for name in candidates:
        retry = node.deepcopy()
        retry["reftarget"] = name
        found: nodes.reference | None = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], name, retry, contnode
        )
        if found is not None:
            return found
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", resolve_public_name)
    app.add_config_value("optional_pages", [], "env")
    app.connect("builder-inited", write_pictures)
    app.connect("source-read", drop_missing_pages)
    app.connect("build-finished", publish_schemas)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
