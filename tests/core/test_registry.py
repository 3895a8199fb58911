from __future__ import annotations

import pytest

from minitools import Surface, Tier, ToolSpec, export
from minitools.registry import Registry
from minitools.schema import SchemaError, validate
from notes_tools import note_tools


def test_plan_and_readonly_surfaces_show_read_tier_only(notes_root):
    registry = Registry(note_tools(notes_root))
    assert [s.name for s in registry.specs("full")] == ["read_note", "write_note", "boom"]
    for surface in ("plan", "readonly", Surface.PLAN):
        names = [s.name for s in registry.specs(surface)]
        assert names == ["read_note", "boom"]
        assert not registry.is_visible("write_note", surface)


def test_unknown_surface_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown surface 'planning'; choose one of full, plan, readonly"):
        Surface.parse("planning")


def test_duplicate_tool_name_is_refused(notes_root):
    tools = note_tools(notes_root)
    registry = Registry(tools)
    with pytest.raises(ValueError, match="already registered"):
        registry.add(tools[0])


def test_spec_rejects_non_object_schema():
    with pytest.raises(ValueError, match="type object"):
        ToolSpec("x", Tier.READ, "d", {"type": "string"})


@pytest.mark.parametrize(
    ("schema", "value", "field", "fragment"),
    [
        ({"type": "object", "required": ["pattern"], "properties": {"pattern": {"type": "string"}}}, {}, "pattern", "is required"),
        ({"type": "object", "properties": {"max_results": {"type": "integer"}}}, {"max_results": "ten"}, "max_results", 'expected integer, got "ten"'),
        ({"type": "object", "properties": {"max_results": {"type": "integer"}}}, {"max_results": True}, "max_results", "expected integer"),
        ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}, {"n": 0}, "n", "must be >= 1"),
        ({"type": "object", "properties": {"a": {"enum": ["accept", "discard"]}}}, {"a": "keep"}, "a", '"keep" is not one of "accept", "discard"'),
        ({"type": "object", "properties": {}, "additionalProperties": False}, {"colour": 1}, "colour", "is not a known argument"),
        ({"type": "object", "properties": {"lines": {"type": "array", "items": {"type": "integer"}}}}, {"lines": [1, "2"]}, "lines[1]", "expected integer"),
        ({"type": "object", "properties": {"o": {"type": "object", "required": ["label"], "properties": {"label": {"type": "string"}}}}},
         {"o": {}}, "o.label", "is required"),
    ],
)
def test_validation_names_the_bad_field(schema, value, field, fragment):
    with pytest.raises(SchemaError) as info:
        validate(schema, value)
    assert info.value.field == field
    assert fragment in str(info.value)


def test_valid_arguments_pass():
    schema = {"type": "object", "required": ["x"], "properties": {"x": {"type": "number"}, "y": {"type": ["string", "null"]}}}
    validate(schema, {"x": 1.5, "y": None})
    validate(schema, {"x": 2, "y": "s"})


def test_export_shapes(notes_root):
    spec = note_tools(notes_root)[1].spec
    plain = export(spec)
    assert plain == {"name": "write_note", "description": "Write a note.", "parameters": spec.parameters}
    openai = export(spec, "openai")
    assert openai["type"] == "function" and openai["function"]["parameters"] == spec.parameters
    anthropic = export(spec, "anthropic")
    assert anthropic["input_schema"] == spec.parameters and anthropic["name"] == "write_note"
    gemini = export(spec, "gemini")
    assert "additionalProperties" not in gemini["parameters"]
    with pytest.raises(ValueError, match="unknown export format"):
        export(spec, "cohere")


async def test_gemini_export_takes_one_type_a_value(tmp_path):
    from minitools import Run

    async with Run(tmp_path, resources={"lsp": False}) as run:
        spec = next(s for s in run.tools() if s.name == "ast_grep")
    assert spec.parameters["properties"]["rule"]["type"] == ["object", "string"]  # an object, or its YAML text
    assert export(spec, "gemini")["parameters"]["properties"]["rule"]["type"] == "object"


async def test_numbers_and_booleans_written_as_text_are_taken_as_meant(tmp_path):
    """Hosts and models that pass every argument as text send `"line": "3"` and
    `"max_results": "1"`: taken as the number (or boolean) they spell exactly, at the first call;
    text that spells none is still refused by name."""
    from minitools import Run

    (tmp_path / "a.py").write_text("print(1)\nprint(2)\n")
    async with Run(tmp_path, resources={"lsp": False}) as run:
        capped = await run.call("ast_grep", {"pattern": "print($A)", "max_results": "1", "explain": "false"})
        assert capped.ok and len(capped.data["matches"]) == 1 and capped.data["total"] == 2, capped.text
        refused = await run.call("ast_grep", {"pattern": "print($A)", "max_results": "one"})
        assert not refused.ok and 'max_results expected integer, got "one"' in refused.text
        refused = await run.call("ast_grep", {"pattern": "print($A)", "max_results": "1.5"})
        assert not refused.ok and "max_results expected integer" in refused.text


@pytest.mark.parametrize(("path", "hint"), [
    ("a.py:2", '"a.py" is a file: give it alone as the path'),
    ("pkg/*.py", 'a glob is not expanded here: give a file or a folder ("pkg")'),
    ("**/*.py", 'a glob is not expanded here: give a file or a folder (".")'),
    ("nothing.py", "check the spelling"),
])
async def test_a_path_in_a_form_a_model_writes_says_which_path_it_stands_for(tmp_path, path, hint):
    """Where a path must name one file or folder (here ast_grep's explain; a search takes a glob)."""
    from minitools import Run

    (tmp_path / "a.py").write_text("print(1)\nprint(2)\n")
    (tmp_path / "pkg").mkdir()
    async with Run(tmp_path, resources={"lsp": False}) as run:
        refused = await run.call("ast_grep", {"pattern": "print($A)", "path": path, "explain": True, "line": 1})
    assert not refused.ok and f'path "{path}" does not exist' in refused.text and hint in refused.text, refused.text


def test_result_schema_spells_types_short_and_refuses_a_typo():
    from minitools.schema import result_schema

    schema = result_schema({"n": "integer", "why": "string?", "names": "string[]"}, required=["n"])
    validate(schema, {"n": 1, "why": None, "names": ["a"]})
    with pytest.raises(SchemaError):
        validate(schema, {"n": 1, "names": [2]})
    with pytest.raises(ValueError, match="'strnig' is not a JSON type"):
        result_schema({"name": "strnig"}, required=[])
