"""Tool families: each module turns library calls into ToolResults.

A family module has ``build(ctx: RunContext) -> list[Tool]`` and returns no tools when
the resource behind them is not wired. `FAMILIES` is the registration order.
"""

from __future__ import annotations

import importlib

from minitools.tools._context import RunContext
from minitools.tools._edge import invoke, refusal
from minitools.toolspec import Tool

__all__ = ["FAMILIES", "RunContext", "build_tools", "invoke", "refusal"]

# module names under minitools.tools, in the order their tools are listed
FAMILIES: tuple[str, ...] = ("lsp", "ast_grep", "edit", "ask", "vibe", "eval")


def build_tools(ctx: RunContext) -> list[Tool]:
    tools: list[Tool] = []
    for family in FAMILIES:
        module = importlib.import_module(f"minitools.tools.{family}")
        tools.extend(module.build(ctx))
    return tools
