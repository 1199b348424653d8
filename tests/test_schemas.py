"""The JSON Schemas of the documents and the bot protocol's messages (tajmahal.serialize.schema).

That every document and message the other tests produce conforms is checked by
tests/schema_check.py (installed by conftest for the whole session); here: the schemas
themselves, the published way of using them, the golden files, and that the check bites.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

import schema_check
import tajmahal as tm
from tajmahal.serialize import SCHEMA_NAMES, schema, schemas

DATA = Path(__file__).parent / "data"
DOCS = Path(__file__).parent.parent / "docs"
SCHEMA_DIR = Path(tm.__file__).parent / "serialize" / "schemas"


def validator(name: str) -> jsonschema.Draft202012Validator:
    """The way docs/reference/schemas.md shows: every schema in a registry, by its $id."""
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents)) for uri, contents in schemas().items()
    )
    return jsonschema.Draft202012Validator(schema(name), registry=registry)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    document = schema(name)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$id"] == f"https://tajmahal.readthedocs.io/en/latest/schemas/{name}.json"


def test_the_package_holds_exactly_the_named_schemas() -> None:
    assert sorted(p.stem for p in SCHEMA_DIR.glob("*.json")) == sorted(SCHEMA_NAMES)
    assert schema("view") is not schema("view")  # a fresh copy each time


def test_an_unknown_schema_name_is_a_clear_error() -> None:
    with pytest.raises(tm.TajMahalError, match="no schema named 'views'; the schemas are: state"):
        schema("views")


def test_every_reference_resolves_through_the_ids() -> None:
    refs: set[str] = set()

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.add(node["$ref"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for name in SCHEMA_NAMES:
        collect(schema(name))
    definitions = schema("definitions")["$defs"]
    for ref in refs:
        target, _, pointer = ref.partition("#")
        assert target == "" or target.removesuffix(".json") in SCHEMA_NAMES, ref
        if pointer:
            assert pointer.startswith("/$defs/") and pointer[7:] in definitions, ref


def test_documents_validate_with_the_published_schemas_and_a_registry() -> None:
    result = tm.play_match(["random", "greedy", "random"], seed=5)
    state = tm.replay(result.record)
    validator("record").validate(json.loads(tm.dumps(result.record)))
    validator("state").validate(json.loads(tm.dumps(state)))
    validator("view").validate(json.loads(tm.dumps(state.view(2))))
    validator("move").validate(json.loads(tm.dumps(tm.Withdraw())))


def test_custom_components_are_embedded_as_the_schema_says() -> None:
    comps = tm.standard_components()
    import attrs

    renamed = attrs.evolve(comps, name="my-copy")
    state = tm.new_game(num_players=3, seed=2, components=renamed)
    document = json.loads(tm.dumps(state))
    assert isinstance(document["components"], dict)
    validator("state").validate(document)


def test_the_golden_files_conform() -> None:
    for path in sorted(DATA.glob("record-*.json")):
        document = json.loads(path.read_text())
        kind = document["format"].removeprefix("tajmahal/")
        assert schema_check.violations_of(kind, document) == [], path.name
    for line in (DATA / "dataset.jsonl").read_text().splitlines():
        assert schema_check.violations_of("view", json.loads(line)["view"]) == []


def test_the_protocol_transcript_conforms_message_by_message() -> None:
    kinds = set()
    for line in (DATA / "transcript.txt").read_text().splitlines():
        direction, _, text = line.partition(" ")
        assert direction in "<>"
        message = json.loads(text)
        kinds.add(message["type"])
        validator(f"message-{message['type']}").validate(message)
    assert kinds == {"hello", "ready", "request", "move", "result"}


@pytest.mark.parametrize(
    ("name", "document", "problem"),
    [
        ("move", {"format": "tajmahal/move", "version": 1, "move": "fly away"}, "does not match"),
        ("move", {"format": "tajmahal/move", "version": 1}, "'move' is a required property"),
        ("message-hello", {"type": "hello", "protocol": "tajmahal-bot", "version": 1, "seat": 9,
                           "num_players": 3, "seed": 1, "time_limit": 1.0}, "9 is greater"),
        ("message-ready", {"type": "ready", "version": 2}, "1 was expected"),
        ("message-ready", {"type": "ready", "version": 1, "name": ""}, "should be non-empty"),
        ("message-move", {"type": "move", "move": 7}, "7 is not of type 'string'"),
        ("message-result", {"type": "result", "scores": [1, 2], "winners": [0],
                            "ranking": [0, 1]}, "is too short"),
    ],
)  # fmt: skip
def test_the_schemas_reject_what_the_protocol_forbids(
    name: str, document: dict[str, Any], problem: str
) -> None:
    with pytest.raises(jsonschema.ValidationError, match=re.escape(problem)):
        validator(name).validate(document)
    assert schema_check.violations_of(name, document)


def test_a_view_of_another_kind_breaks_the_schema_where_it_differs() -> None:
    document = json.loads(tm.dumps(tm.new_game(num_players=3, seed=1).view(0)))
    document["hand"][0] = "blue:monk"
    document["secret_deck"] = []
    problems = schema_check.violations_of("view", document)
    assert any(p.startswith("$.hand[0]: 'blue:monk' does not match") for p in problems)
    assert any("'secret_deck' was unexpected" in p for p in problems)
    document = json.loads(tm.dumps(tm.new_game(num_players=3, seed=1).view(0)))
    assert schema_check.violations_of("view", document) == []


@pytest.mark.unchecked_documents("this test breaks the schema on purpose and takes the report")
def test_the_session_check_sees_what_the_library_writes() -> None:
    import attrs

    assert schema_check.take_violations() == []
    view = tm.new_game(num_players=3, seed=1).view(0)
    tm.dumps(attrs.evolve(view, scores=(-1, 0, 0)))  # a score no game gives
    found = schema_check.take_violations()
    assert len(found) == 1 and "tm.dumps wrote a view: $.scores[0]: -1 is less than" in found[0]
    tm.play_match(["random", "random", "random"], seed=1)
    assert schema_check.take_violations() == []


def test_the_docs_publish_every_schema() -> None:
    page = (DOCS / "reference" / "schemas.md").read_text()
    for name in SCHEMA_NAMES:
        assert f"{name}.json" in page, name
