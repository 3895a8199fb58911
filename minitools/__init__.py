"""minitools: server-bound agent tools, each bound to a live resource of one run.

    from minitools import Run
    async with Run(root) as run:
        result = await run.call("ast_grep", {"pattern": "print($A)"})

The names below load on first use, so that `import minitools.match` (the CLI's and the
benchmarks' hot path) does not pay for asyncio and the run machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minitools.exports import lazy_getattr

__version__ = "0.1.0"

_EXPORTS = {
    "Run": "minitools.run",
    "Tier": "minitools.toolspec",
    "Surface": "minitools.registry",
    "ToolSpec": "minitools.toolspec",
    "ToolResult": "minitools.toolspec",
    "ToolError": "minitools.toolspec",
    "Tool": "minitools.toolspec",
    "Registry": "minitools.registry",
    "ApprovalGate": "minitools.registry",
    "SchemaError": "minitools.schema",
    "JSONValue": "minitools.toolspec",
    "export": "minitools.schema",
}

__all__ = [
    "ApprovalGate", "JSONValue", "Registry", "Run", "SchemaError", "Surface", "Tier", "Tool", "ToolError", "ToolResult",
    "ToolSpec", "__version__", "export",
]

if TYPE_CHECKING:
    from minitools.registry import ApprovalGate, Registry, Surface
    from minitools.run import Run
    from minitools.schema import SchemaError, export
    from minitools.toolspec import JSONValue, Tier, Tool, ToolError, ToolResult, ToolSpec


__getattr__ = lazy_getattr("minitools", _EXPORTS, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
