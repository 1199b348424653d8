"""Show a Jupyter notebook in a page, with the outputs it gives when these pages are built.

A page writes::

    ```{tajmahal-notebook} notebooks/quickstart.ipynb
    ```

and the build puts the notebook there: its Markdown cells as text (headings two levels
down, under the page's section), each code cell as a Python block followed by what it
printed and the value of its last expression, shown as Jupyter shows it (``_repr_html_``,
then ``_repr_svg_``, then ``repr``). The cells run in this process, in order, in one fresh
namespace, as a kernel would run them: nothing is fetched (the build stays offline) and no
output is stored in the notebook file, so the page always shows what the library does now.
tests/test_notebooks.py runs the same notebook in a real Jupyter kernel.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

FENCE = re.compile(r"^```\{tajmahal-notebook\}[ \t]+(\S+)[ \t]*\n```[ \t]*$", re.M)


def _fenced(text: str, info: str) -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    ticks = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return f"{ticks}{info}\n{text.rstrip()}\n{ticks}\n"


def _shown(value: object) -> str:
    """The value of a cell's last expression, as Jupyter shows it (richest form first)."""
    html = getattr(value, "_repr_html_", lambda: None)()
    if html is not None:
        return _fenced(f'<div class="notebook-output">{html}</div>', "{raw} html")
    svg = getattr(value, "_repr_svg_", lambda: None)()
    if svg is not None:  # as a picture that fits the page's width
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        picture = f'<img src="data:image/svg+xml;base64,{data}" style="max-width: 100%" alt="">'
        return _fenced(f'<div class="notebook-output">{picture}</div>', "{raw} html")
    return _fenced(repr(value), "text")


def _run(source: str, namespace: dict[str, Any]) -> str:
    """Run one code cell; its printed text and its last expression's value, as MyST."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, "<notebook cell>", "exec"), namespace)
        value = (
            eval(compile(ast.Expression(last.value), "<notebook cell>", "eval"), namespace)
            if last is not None else None
        )  # fmt: skip
    out = _fenced(printed.getvalue(), "text") if printed.getvalue() else ""
    return out + (_shown(value) if value is not None else "")


def notebook_markdown(path: Path) -> str:
    """The notebook at ``path`` as MyST Markdown, each code cell run and followed by its output."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    namespace: dict[str, Any] = {"__name__": "__main__"}
    parts = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            parts.append(re.sub(r"^(#+) ", r"\1## ", source, flags=re.M) + "\n")
        elif cell["cell_type"] == "code":
            parts.append(_fenced(source, "python"))
            parts.append(_run(source, namespace))
    return "\n".join(parts)


def render_notebooks(app: Sphinx, docname: str, source: list[str]) -> None:
    folder = Path(app.srcdir) / Path(docname).parent
    source[0] = FENCE.sub(lambda m: notebook_markdown(folder / m.group(1)), source[0])


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", render_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
