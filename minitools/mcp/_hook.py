"""`written_hook`: write-time diagnostics for a host's hooks, the Claude Code plugin's
(plugins/claude-code; docs/tools.md, "The Claude Code plugin"). The host calls it on this running
server around its own Edit or Write: before (`event` "PreToolUse"), the files' diagnostics become
the baseline; after ("PostToolUse"), the `written` report of what the write introduced, as the
hook's JSON output, since a hook's plain text reaches only the transcript. Nothing to say is `{}`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from minitools.mcp._listing import WRITTEN_PARAMETERS
from minitools.run import Run
from minitools.toolspec import Tier, Tool, ToolResult, ToolSpec

__all__ = ["written_hook_tool"]

WRITTEN_HOOK_DESCRIPTION = (
    "For a host's hooks, not for the model (call `written` instead): with event PreToolUse, take the files' "
    "diagnostics as the baseline before a write; with PostToolUse (the default), the diagnostics the write "
    "introduced, as the hook's JSON output ({} when there are none)."
)
WRITTEN_HOOK_PARAMETERS: dict[str, Any] = {
    **WRITTEN_PARAMETERS,
    "properties": {
        **WRITTEN_PARAMETERS["properties"],
        "event": {"type": "string", "enum": ["PreToolUse", "PostToolUse"], "default": "PostToolUse",
                  "description": "The hook's event: before the write (baseline) or after it (report)."},
    },
}


def written_hook_tool(run: Callable[[], Run]) -> Tool:
    """The tool, over the Run the server serves now (`run()`)."""
    return Tool(ToolSpec("written_hook", Tier.READ, WRITTEN_HOOK_DESCRIPTION, WRITTEN_HOOK_PARAMETERS), _WrittenHook(run))


class _WrittenHook:
    """A Claude Code hook's call: before a write, the baseline; after it, what the write broke
    as the hook's additional context ("{}" when nothing: the hook then adds nothing)."""

    def __init__(self, run: Callable[[], Run]) -> None:
        self.run = run

    async def __call__(self, args: Mapping[str, Any]) -> ToolResult:
        paths = list(args["paths"])
        if args.get("event") == "PreToolUse":
            await self.run().before_write(paths)
            return ToolResult(ok=True, text="{}", data={})
        result = await self.run().written(paths)
        data = result.data if isinstance(result.data, dict) else {}
        broke_others = (data.get("others") or {}).get("new")  # the files the write broke besides its own
        if not (data.get("new") or broke_others or data.get("after_write")):
            return ToolResult(ok=True, text="{}", data={})
        out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": result.text}}
        return ToolResult(ok=True, text=json.dumps(out), data=out)
