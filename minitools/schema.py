"""Argument validation against a tool's JSON Schema, and export in agent-API shapes.

The validator covers the subset of JSON Schema the tools use (type, properties,
required, additionalProperties, enum, const, items, minItems/maxItems,
minimum/maximum, minLength/maxLength, anyOf, default). It is hand-written because
the run-time dependency surface is tree-sitter and nothing else.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from minitools.toolspec import JSONObject, ToolSpec

__all__ = ["SchemaError", "validate", "drop_nulls", "as_meant", "apply_defaults", "export", "listed", "EXPORT_FORMATS", "parameters_schema", "result_schema"]

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
    "null": (type(None),),
}


class SchemaError(ValueError):
    """An argument does not fit the schema; `field` is the JSON path of the bad value."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message




def parameters_schema(properties: Mapping[str, Any], required: Iterable[str] = ()) -> JSONObject:
    """A tool's parameters: an object of these properties and no others (a misspelt argument
    is refused, not ignored)."""
    schema: JSONObject = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema

def result_schema(fields: Mapping[str, str], required: Iterable[str]) -> JSONObject:
    """The output schema of a tool's `data`, a flat object, from each field's type spelled
    short: "integer", "string?" (or null), "string[]" (an array of strings), "array"."""
    properties: dict[str, Any] = {}
    for name, spelled in fields.items():
        kind = spelled.rstrip("?")
        if kind.removesuffix("[]") not in _TYPES:
            raise ValueError(f"field {name!r}: {spelled!r} is not a JSON type (string, integer, boolean, ...)")
        if kind.endswith("[]"):
            properties[name] = {"type": "array", "items": {"type": kind[:-2]}}
        else:
            properties[name] = {"type": [kind, "null"] if spelled.endswith("?") else kind}
    return {"type": "object", "properties": properties, "required": list(required)}

def _show(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _type_ok(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[kind])


def validate(schema: Mapping[str, Any], value: Any, path: str = "") -> None:
    """Raise `SchemaError` naming the first field of `value` that does not fit `schema`."""
    here = path or "arguments"
    if "anyOf" in schema:
        errors = []
        for option in schema["anyOf"]:
            try:
                validate(option, value, path)
                break
            except SchemaError as exc:
                errors.append(exc)
        else:
            raise errors[0] if len(errors) == 1 else SchemaError(
                here, f"{_show(value)} fits none of the allowed forms ({'; '.join(e.message for e in errors)})"
            )
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else list(kind)
        if not any(_type_ok(value, k) for k in kinds):
            raise SchemaError(here, f"expected {' or '.join(kinds)}, got {_show(value)}")
    if "const" in schema and value != schema["const"]:
        raise SchemaError(here, f"must be {_show(schema['const'])}, got {_show(value)}")
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(_show(v) for v in schema["enum"])
        raise SchemaError(here, f"{_show(value)} is not one of {choices}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise SchemaError(here, f"must be at least {schema['minLength']} characters, got {_show(value)}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise SchemaError(here, f"must be at most {schema['maxLength']} characters (got {len(value)})")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaError(here, f"must be >= {schema['minimum']}, got {_show(value)}")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaError(here, f"must be <= {schema['maximum']}, got {_show(value)}")
    if isinstance(value, (list, tuple)):
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise SchemaError(here, f"needs at least {schema['minItems']} items, got {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise SchemaError(here, f"takes at most {schema['maxItems']} items, got {len(value)}")
        if "items" in schema:
            for i, item in enumerate(value):
                validate(schema["items"], item, f"{here}[{i}]")
    if isinstance(value, dict):
        props: Mapping[str, Any] = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                raise SchemaError(_join(path, name), "is required")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                validate(props[name], item, _join(path, name))
            elif extra is False:
                known = ", ".join(props) or "none"
                raise SchemaError(_join(path, name), f"is not a known argument (known: {known})")
            elif isinstance(extra, Mapping):
                validate(extra, item, _join(path, name))


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def drop_nulls(schema: Mapping[str, Any], args: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `args` without the optional arguments given as null: clients built on typed
    models (pydantic, LangChain adapters) send ``"language": null`` for every optional argument
    they leave unset, and null means absent. A required argument, or one whose schema admits
    null, keeps its null (validation then judges it)."""
    required = set(schema.get("required", ()))
    properties = schema.get("properties", {})

    def admits_null(name: str) -> bool:
        kind = properties.get(name, {}).get("type")
        return kind == "null" or (isinstance(kind, list) and "null" in kind)

    return {k: v for k, v in args.items() if v is not None or k in required or admits_null(k)}


def as_meant(schema: Mapping[str, Any], args: Mapping[str, Any]) -> dict[str, Any]:
    """`args` as a model meant them, before validation: `drop_nulls`; a top-level string that
    names one of its enum's strings in another case or with spaces around (`"Python"` for
    `"python"`) taken as that string; and a top-level string where the schema wants a number
    or a boolean taken as the one it spells exactly (`"12"` for 12, `"true"` for true: models
    and hosts that pass every argument as text send them so). A first call is not refused for
    its spelling; text that spells nothing else is left for validation to refuse."""
    out = drop_nulls(schema, args)
    properties = schema.get("properties", {})
    for name, value in out.items():
        if not isinstance(value, str):
            continue
        prop = properties.get(name, {})
        choices = prop.get("enum")
        if choices and value not in choices:
            folded = [c for c in choices if isinstance(c, str) and c.lower() == value.strip().lower()]
            if len(folded) == 1:
                out[name] = folded[0]
        kinds = prop.get("type")
        kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
        if "string" not in kinds:
            spelled = _spelled(value.strip(), kinds)
            if spelled is not None:
                out[name] = spelled
    return out


_INTEGER = re.compile(r"[+-]?[0-9]{1,300}")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _spelled(text: str, kinds: list[str]) -> int | float | bool | None:
    """The integer, number or boolean `text` spells exactly, of a kind in `kinds` (None: none)."""
    if "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    if ("integer" in kinds or "number" in kinds) and _INTEGER.fullmatch(text):
        return int(text)
    if "number" in kinds and len(text) <= 300 and _NUMBER.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    return None


def apply_defaults(schema: Mapping[str, Any], args: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `args` with the schema's top-level defaults filled in."""
    out = dict(args)
    for name, prop in schema.get("properties", {}).items():
        if name not in out and "default" in prop:
            out[name] = prop["default"]
    return out


EXPORT_FORMATS = ("jsonschema", "openai", "anthropic", "gemini")


def _strip(schema: Any, drop: Iterable[str]) -> Any:
    drop = tuple(drop)
    if isinstance(schema, dict):
        return {k: _strip(v, drop) for k, v in schema.items() if k not in drop}
    if isinstance(schema, list):
        return [_strip(v, drop) for v in schema]
    return schema


def _one_type(schema: Any) -> Any:
    """A schema whose `type` lists are cut to their first type (Gemini's dialect takes one)."""
    if isinstance(schema, dict):
        return {k: (v[0] if k == "type" and isinstance(v, list) else _one_type(v)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_one_type(v) for v in schema]
    return schema


def export(spec: ToolSpec, fmt: str = "jsonschema") -> JSONObject:
    """A tool's schema in the shape an agent API takes.

    - ``jsonschema``: ``{name, description, parameters}`` with plain JSON Schema;
    - ``openai``: the Chat Completions / Responses ``{"type": "function", "function": {...}}`` form;
    - ``anthropic``: the Messages API ``{name, description, input_schema}`` form;
    - ``gemini``: a function declaration (its schema dialect has no ``additionalProperties``, and
      one ``type`` a value: `rule`'s object-or-text is offered as an object).
    """
    params = spec.parameters
    if fmt == "jsonschema":
        return {"name": spec.name, "description": spec.description, "parameters": params}
    if fmt == "openai":
        return {
            "type": "function",
            "function": {"name": spec.name, "description": spec.description, "parameters": params},
        }
    if fmt == "anthropic":
        return {"name": spec.name, "description": spec.description, "input_schema": params}
    if fmt == "gemini":
        return {
            "name": spec.name,
            "description": spec.description,
            "parameters": _one_type(_strip(params, ("additionalProperties", "default"))),
        }
    raise ValueError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORT_FORMATS)}")


def listed(spec: ToolSpec, fmt: str = "jsonschema") -> JSONObject:
    """`export` plus the tool's ``tier`` and ``parallel_safe``: how `serve`'s ``tools`` and
    ``minitools tools --json`` list a tool for a host that gates and schedules calls."""
    return dict(export(spec, fmt), tier=spec.tier.value, parallel_safe=spec.parallel_safe)
