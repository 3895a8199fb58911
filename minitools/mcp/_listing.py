"""What an MCP client sees of the tools: a ToolSpec as an MCP tool, a ToolResult as a
``tools/call`` result (docs/architecture.md, "minitools mcp").

- ``annotations`` come from the tier: read → ``readOnlyHint``; write → not read-only and
  ``destructiveHint``; exec → not read-only, ``destructiveHint`` and ``openWorldHint`` (a
  process may reach anything). Hosts gate calls by these hints.
- ``outputSchema`` is given for the tools whose ``data`` has one stable shape (`OUTPUT_SCHEMAS`);
  their ``structuredContent`` always fits it when the call succeeded.
- a result is ``content`` (one text block, then one image block per image), ``isError`` for a
  tool error (``ok`` false), and ``structuredContent`` from ``data`` when it is an object.
"""

from __future__ import annotations

import base64
from typing import Any

from minitools.toolspec import Tier, ToolResult, ToolSpec

__all__ = ["mcp_tool", "mcp_result", "OUTPUT_SCHEMAS", "WRITTEN_PARAMETERS", "WRITTEN_DESCRIPTION"]

_NULLABLE_STRING = {"type": ["string", "null"]}
_LIST = {"type": "array"}

OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "ast_grep": {
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "language": {"type": "string"},
            "rung": {"type": "string"},
            "total": {"type": "integer"},
            "files_searched": {"type": "integer"},
            "files_matched": {"type": "integer"},
            "skipped": {"type": "object"},
            "truncated": {"type": "boolean"},
            "matches": {"type": "array", "items": {"type": "object"}},
        },
        "required": ["pattern", "language", "total", "files_searched", "files_matched", "truncated", "matches"],
    },
    "eval": {
        "type": "object",
        "properties": {
            "language": {"type": "string"},
            "status": {"type": "string"},
            "state_lost": {"type": "boolean"},
            "error": {"type": ["object", "null"]},
            "output_chars": {"type": "integer"},
            "output_file": _NULLABLE_STRING,
            "images": {"type": "integer"},
            "bridge_calls": {"type": "integer"},
            "exit_code": {"type": ["integer", "null"]},
            "notes": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["language", "status"],
    },
    "ask_user": {
        "type": "object",
        "properties": {
            "skipped": {"type": "boolean"},
            "choices": {"type": "array", "items": {"type": "string"}},
            "text": _NULLABLE_STRING,
        },
        "required": ["skipped", "choices", "text"],
    },
    "written": {
        "type": "object",
        "properties": {
            "files": _LIST,
            "new": _LIST,
            "unavailable": _LIST,
            "checked": {"type": "boolean"},
        },
        "required": ["files", "checked"],
    },
}

WRITTEN_DESCRIPTION = (
    "Check files you changed with your own edit tools: they are synced through their language servers and only "
    "the diagnostics your change introduced are returned (those that were there before are not). Call it after "
    "writing files; the writes of resolve (accepting an ast_edit) and lsp_rename report this themselves."
)

WRITTEN_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paths": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                  "description": "The files you wrote, relative to the workspace root or absolute."},
    },
    "required": ["paths"],
    "additionalProperties": False,
}


def _annotations(spec: ToolSpec) -> dict[str, Any]:
    if spec.tier is Tier.READ:
        return {"title": spec.name, "readOnlyHint": True, "openWorldHint": False}
    return {"title": spec.name, "readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
            "openWorldHint": spec.tier is Tier.EXEC}


def mcp_tool(spec: ToolSpec, *, structured: bool = True) -> dict[str, Any]:
    """`spec` as an entry of a ``tools/list`` result (`structured`: the revision has output schemas)."""
    tool: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "inputSchema": spec.parameters,
        "annotations": _annotations(spec),
    }
    if structured and spec.name in OUTPUT_SCHEMAS:
        tool["outputSchema"] = OUTPUT_SCHEMAS[spec.name]
    return tool


def mcp_result(result: ToolResult, *, structured: bool = True) -> dict[str, Any]:
    """`result` as a ``tools/call`` result (`structured`: the revision has structured content)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": result.text}]
    content += [{"type": "image", "data": base64.b64encode(blob).decode("ascii"), "mimeType": mime}
                for mime, blob in result.images]
    out: dict[str, Any] = {"content": content, "isError": not result.ok}
    if not structured:
        pass
    elif isinstance(result.data, dict):
        out["structuredContent"] = result.data
    elif result.data is not None:
        out["structuredContent"] = {"result": result.data}
    return out
