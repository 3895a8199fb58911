"""`written_hook`: the `written` report as a host hook's JSON output, for the PostToolUse hook of
the Claude Code plugin (plugins/claude-code; docs/tools.md, "The Claude Code plugin"). The host
calls it on this running server after its own Edit or Write; a hook's plain text reaches only the
transcript, so what the model should read goes in `hookSpecificOutput.additionalContext`. Nothing
new to say is `{}`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from minitools.mcp._listing import WRITTEN_PARAMETERS
from minitools.run import Run
from minitools.toolspec import Tier, Tool, ToolResult, ToolSpec

__all__ = ["written_hook_tool"]

WRITTEN_HOOK_DESCRIPTION = (
    "For a host's PostToolUse hook, not for the model (call `written` instead): the diagnostics a write "
    "introduced, as the hook's JSON output ({} when there are none)."
)


def written_hook_tool(run: Callable[[], Run]) -> Tool:
    """The tool, over the server's Run."""

    async def handler(args: Mapping[str, Any]) -> ToolResult:
        result = await run().written(list(args["paths"]))
        data = result.data if isinstance(result.data, dict) else {}
        if not (data.get("new") or data.get("after_write")):
            return ToolResult(ok=True, text="{}", data={})
        out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": result.text}}
        return ToolResult(ok=True, text=json.dumps(out), data=out)

    return Tool(ToolSpec("written_hook", Tier.READ, WRITTEN_HOOK_DESCRIPTION, WRITTEN_PARAMETERS), handler)
