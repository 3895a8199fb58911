"""The tool edge: where expected failures become results and bugs stay bugs."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Mapping
from typing import Any

from minitools.toolspec import Tool, ToolError, ToolResult

__all__ = ["invoke", "refusal"]

log = logging.getLogger("minitools")


def refusal(text: str, data: Any = None) -> ToolResult:
    """A call that did not run (wrong surface, bad arguments, not approved)."""
    return ToolResult(ok=False, text=text, data=data)


async def invoke(tool: Tool, args: Mapping[str, Any], *, strict: bool) -> ToolResult:
    """Run a tool's handler. `ToolError` is an expected failure and becomes ``ok=False``;
    any other exception is a bug: re-raised in strict mode, else reported as one."""
    try:
        result = await tool.handler(args)
    except ToolError as exc:
        return ToolResult(ok=False, text=exc.message, data=exc.data)
    except Exception as exc:
        if strict:
            raise
        log.exception("tool %s raised", tool.spec.name)
        tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return ToolResult(
            ok=False,
            text=f"{tool.spec.name} failed with an internal error ({tail}). This is a bug in minitools, "
            "not in your call; try another approach.",
        )
    if not isinstance(result, ToolResult):
        raise TypeError(f"tool {tool.spec.name} returned {type(result).__name__}, not a ToolResult")
    return result
