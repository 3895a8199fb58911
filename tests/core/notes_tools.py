"""Host tools for the core tests: a read tool and a write tool with a real effect."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools import Tier, Tool, ToolResult, ToolSpec


def note_tools(root: Path) -> list[Tool]:
    async def read_note(args: Mapping[str, Any]) -> ToolResult:
        path = root / args["name"]
        if not path.exists():
            return ToolResult(ok=False, text=f'no note named "{args["name"]}"; write it first')
        return ToolResult(ok=True, text=path.read_text(), data={"text": path.read_text()})

    async def write_note(args: Mapping[str, Any]) -> ToolResult:
        (root / args["name"]).write_text(args["text"])
        return ToolResult(ok=True, text=f"wrote {args['name']}", data={"name": args["name"]})

    async def slow_exec(args: Mapping[str, Any]) -> ToolResult:
        log = args.get("_log")
        await asyncio.sleep(args["seconds"])
        return ToolResult(ok=True, text="slept", data=log)

    async def boom(args: Mapping[str, Any]) -> ToolResult:
        raise RuntimeError("kaput")

    name_schema = {"type": "string", "minLength": 1, "description": "the note's file name"}
    return [
        Tool(ToolSpec("read_note", Tier.READ, "Read a note.",
                      {"type": "object", "properties": {"name": name_schema}, "required": ["name"],
                       "additionalProperties": False}), read_note),
        Tool(ToolSpec("write_note", Tier.WRITE, "Write a note.",
                      {"type": "object", "properties": {"name": name_schema,
                                                        "text": {"type": "string", "description": "its text"}},
                       "required": ["name", "text"], "additionalProperties": False}), write_note),
        Tool(ToolSpec("boom", Tier.READ, "Always raises (a bug).", {"type": "object", "properties": {}}), boom),
    ]
