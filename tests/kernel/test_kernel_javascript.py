"""The JavaScript kernel on real node: declarations persist, last value, console, tool()."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import cell
from minitools import Run, Tier, Tool, ToolResult, ToolSpec

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def js(code: str) -> dict[str, object]:
    return cell(code, language="javascript")


async def test_declarations_persist_across_cells_including_await(run: Run) -> None:
    r = await run.call("eval", js("let a = 1; const b = 2; class K { twice(x) { return 2 * x } }\nfunction f(x) { return x + 1 }\na + b"))
    assert r.ok, r.text
    assert "Out: 3" in r.text
    r = await run.call("eval", js("const c = await Promise.resolve(10); let {d, e} = {d: 4, e: 5};\nc + d"))
    assert r.ok and "Out: 14" in r.text, r.text
    r = await run.call("eval", js("new K().twice(a) + f(c) + e"))
    assert "Out: 18" in r.text, r.text
    r = await run.call("eval", js("let a = 100; a"))  # redeclaring is fine, like a notebook
    assert r.ok and "Out: 100" in r.text


async def test_console_is_captured_and_errors_are_reported(run: Run) -> None:
    r = await run.call("eval", js("console.log('out', 1); console.error('err'); ({k: 1})"))
    assert r.ok and "out 1" in r.text and "err" in r.text and "k: 1" in r.text
    r = await run.call("eval", js("null.x"))
    assert not r.ok and "TypeError" in r.text and "_jsworker" not in r.text


async def test_display_and_tool_bridge(tmp_path: Path) -> None:
    async def echo(args: object) -> ToolResult:
        return ToolResult(ok=True, text=f"echo {args['word']}", data={"word": args["word"]})

    schema = {"type": "object", "properties": {"word": {"type": "string", "description": "w"}}, "additionalProperties": False}
    tools = [Tool(ToolSpec("echo", Tier.READ, "echo a word", schema), echo)]
    async with Run(tmp_path, approve=lambda s, a: True, resources={"lsp": False}, tools=tools) as run:
        r = await run.call("eval", js("const r = await tool('echo', {word: 'hey'}); display([1, 2]); r.data.word"))
        assert r.ok, r.text
        assert "[ 1, 2 ]" in r.text and "Out: 'hey'" in r.text
        r = await run.call("eval", js("await tool('echo', {bad: 1})"))
        assert not r.ok and "failed" in r.text
