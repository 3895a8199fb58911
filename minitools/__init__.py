"""minitools: server-bound agent tools, each bound to a live resource of one run.

    from minitools import Run
    async with Run(root) as run:
        result = await run.call("ast_grep", {"pattern": "print($A)"})
"""

from minitools.registry import ApprovalGate, Registry, Surface
from minitools.run import Run
from minitools.schema import SchemaError, export
from minitools.toolspec import JSONValue, Tier, Tool, ToolError, ToolResult, ToolSpec

__version__ = "0.1.0"

__all__ = [
    "Run",
    "Tier",
    "Surface",
    "ToolSpec",
    "ToolResult",
    "ToolError",
    "Tool",
    "Registry",
    "ApprovalGate",
    "SchemaError",
    "JSONValue",
    "export",
    "__version__",
]
