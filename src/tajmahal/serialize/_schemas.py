"""The JSON Schemas (draft 2020-12) of the documents and of the bot protocol's messages.

They are package data (``tajmahal/serialize/schemas/*.json``), published with
the docs (docs/reference/schemas.md).  Each has an ``$id`` under
``https://tajmahal.readthedocs.io/en/latest/schemas/``; the documents' and
messages' schemas refer to ``definitions.json`` (and ``message-request`` to
``view.json``) by those ids, so a validator needs all of them (see
:func:`schemas`).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from tajmahal.rules.errors import TajMahalError

__all__ = ["SCHEMA_NAMES", "schema", "schemas"]

#: every schema's name: the document kinds, the protocol's messages, and the shared definitions
SCHEMA_NAMES: tuple[str, ...] = (
    "state",
    "view",
    "move",
    "record",
    "message-hello",
    "message-ready",
    "message-request",
    "message-move",
    "message-error",
    "message-result",
    "definitions",
)


@functools.cache
def _text(name: str) -> str:
    return resources.files("tajmahal.serialize").joinpath("schemas", f"{name}.json").read_text()


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema named ``name`` (a document kind, ``message-TYPE`` or ``definitions``).

    A new dict each time (change it freely).

    >>> from tajmahal.serialize import schema
    >>> schema("view")["$id"]
    'https://tajmahal.readthedocs.io/en/latest/schemas/view.json'
    >>> schema("message-hello")["required"][:3]
    ['type', 'protocol', 'version']
    >>> schema("game")
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: no schema named 'game'; the schemas are: state, view, move, record, message-hello, message-ready, message-request, message-move, message-error, message-result, definitions
    """  # noqa: E501
    if name not in SCHEMA_NAMES:
        raise TajMahalError(f"no schema named {name!r}; the schemas are: {', '.join(SCHEMA_NAMES)}")
    loaded: dict[str, Any] = json.loads(_text(name))
    return loaded


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema by its ``$id``: what a validator's registry needs to resolve their ``$ref``.

    With the ``jsonschema`` library (not a dependency of tajmahal)::

        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (uri, Resource.from_contents(s)) for uri, s in schemas().items())
        jsonschema.Draft202012Validator(schema("view"), registry=registry).validate(document)

    >>> sorted(schemas())[0]
    'https://tajmahal.readthedocs.io/en/latest/schemas/definitions.json'
    """
    return {s["$id"]: s for s in map(schema, SCHEMA_NAMES)}
