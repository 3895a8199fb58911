"""Tool families: each module turns library calls into ToolResults.

A family module has ``build(ctx: RunContext) -> list[Tool]`` and returns no tools when
the resource behind them is not wired. `FAMILIES` is the registration order.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from minitools.exports import lazy_getattr

if TYPE_CHECKING:
    from minitools.tools._context import CALL_SURFACE, Enclosure, RosterSource, RunContext
    from minitools.tools._edge import invoke, refusal
    from minitools.toolspec import Tool

# loaded on first use: importing a name costs only its module
_LAZY = {
    **dict.fromkeys(("RunContext", "Enclosure", "RosterSource", "CALL_SURFACE"), "minitools.tools._context"),
    "invoke": "minitools.tools._edge",
    "refusal": "minitools.tools._edge",
}

__all__ = ["CALL_SURFACE", "FAMILIES", "Enclosure", "RosterSource", "RunContext", "build_tools", "invoke", "refusal"]

# module names under minitools.tools, in the order their tools are listed
FAMILIES: tuple[str, ...] = ("lsp", "ast_grep", "edit", "symbol_edit", "debug", "eval", "ask", "vibe")


def build_tools(ctx: RunContext) -> list[Tool]:
    tools: list[Tool] = []
    for family in FAMILIES:
        module = importlib.import_module(f"minitools.tools.{family}")
        tools.extend(module.build(ctx))
    return tools


__getattr__ = lazy_getattr("minitools.tools", _LAZY, globals())
