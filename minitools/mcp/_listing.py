"""What an MCP client sees of the tools: a ToolSpec as an MCP tool, a ToolResult as a
``tools/call`` result (docs/architecture.md, "minitools mcp").

- ``annotations`` come from the tier: read → ``readOnlyHint``; write → not read-only and
  ``destructiveHint``; exec → not read-only, ``destructiveHint`` and ``openWorldHint`` (a
  process may reach anything). Hosts gate calls by these hints.
- a result is ``content`` (one text block, then one image block per image) and ``isError`` for a
  tool error (``ok`` false). The text is what the model reads: Claude Code and Codex show the
  model ``structuredContent`` instead of the text whenever a result carries it (eval's printed
  output, debug's stop location and the images were lost that way), so structured output is
  sent only when the server is started with ``--structured`` (`structured=True`):
  then ``outputSchema`` is listed for the tools whose ``ToolSpec.output_schema`` declares one,
  and a successful result carries ``structuredContent`` from ``data``. An error result never
  carries it: it would not fit the tool's output schema, and clients that validate refuse it.
"""

from __future__ import annotations

import base64
from typing import Any

from minitools.schema import parameters_schema, result_schema
from minitools.toolspec import Tier, ToolResult, ToolSpec

__all__ = ["mcp_tool", "mcp_result", "WRITTEN_OUTPUT", "WRITTEN_PARAMETERS", "WRITTEN_DESCRIPTION"]

WRITTEN_OUTPUT = result_schema({"files": "array", "new": "array", "unavailable": "array", "checked": "boolean"}, required=["files", "checked"])

WRITTEN_DESCRIPTION = (
    "Check files you changed with your own edit tools: they are synced through their language servers and only "
    "the diagnostics your change introduced are returned (those that were there before are not). Call it after "
    "writing files; the writes of resolve (accepting an ast_edit) and lsp_rename report this themselves."
)

WRITTEN_PARAMETERS = parameters_schema({
    "paths": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
              "description": "The files you wrote, relative to the workspace root or absolute."},
}, required=["paths"])


def _annotations(spec: ToolSpec) -> dict[str, Any]:
    if spec.tier is Tier.READ:
        return {"title": spec.name, "readOnlyHint": True, "openWorldHint": False}
    return {"title": spec.name, "readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
            "openWorldHint": spec.tier is Tier.EXEC}


def mcp_tool(spec: ToolSpec, *, structured: bool = False) -> dict[str, Any]:
    """`spec` as an entry of a ``tools/list`` result (`structured`: send output schemas)."""
    tool: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "inputSchema": spec.parameters,
        "annotations": _annotations(spec),
    }
    if structured and spec.output_schema is not None:
        tool["outputSchema"] = spec.output_schema
    return tool


def mcp_result(result: ToolResult, *, structured: bool = False) -> dict[str, Any]:
    """`result` as a ``tools/call`` result (`structured`: send structured content)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": result.text}]
    content += [{"type": "image", "data": base64.b64encode(blob).decode("ascii"), "mimeType": mime}
                for mime, blob in result.images]
    out: dict[str, Any] = {"content": content, "isError": not result.ok}
    if not structured or not result.ok:
        pass
    elif isinstance(result.data, dict):
        out["structuredContent"] = result.data
    elif result.data is not None:
        out["structuredContent"] = {"result": result.data}
    return out
