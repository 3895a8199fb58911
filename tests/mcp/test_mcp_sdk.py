"""`minitools mcp` driven as a subprocess by the official MCP Python SDK's client, as a host would."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

import corpora
from mcp import Client, StdioServerParameters
from mcp_support import mcp_argv, server_env
from minitools import Run


@asynccontextmanager
async def connect(root: Path, *flags: str, answers: list[Any] | None = None,
                  asked: list[Any] | None = None, structured: bool = True, mode: str = "legacy",
                  **options: Any) -> AsyncIterator[Client]:
    """A client on `minitools mcp --root root` (with `--structured` unless `structured` is false:
    these tests read the data as structured content); with `answers`, it declares elicitation
    and answers each elicitation/create with the next one (a dict of content, or "decline").
    `mode` is the SDK's: "legacy" initializes, "auto" probes server/discover first."""
    argv = mcp_argv(root, *flags, *(["--structured"] if structured else []))
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=server_env())
    callback = None
    if answers is not None:
        async def callback(context: Any, request: types.ElicitRequestParams) -> types.ElicitResult:
            if asked is not None:
                asked.append(request)
            answer = answers.pop(0)
            if answer == "decline":
                return types.ElicitResult(action="decline")
            return types.ElicitResult(action="accept", content=answer)
    async with Client(params, elicitation_callback=callback, mode=mode, **options) as client:
        yield client


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def test_tools_list_carries_schemas_annotations_and_output_schemas(project: Path) -> None:
    async with Run(project) as run:
        expected = {spec.name: spec for spec in run.tools()}
    async with connect(project) as client:
        assert client.server_info is not None and client.server_info.name == "minitools"
        assert client.protocol_version == "2025-11-25"
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    # without elicitation there is nobody to ask: ask_user is not listed; written and written_hook are added
    assert set(tools) == (set(expected) - {"ask_user"}) | {"written", "written_hook"}
    for name, spec in expected.items():
        if name in tools:
            assert tools[name].input_schema == spec.parameters
            assert tools[name].description == spec.description
    assert tools["lsp"].annotations.read_only_hint is True
    assert tools["ast_edit"].annotations.read_only_hint is False and tools["ast_edit"].annotations.destructive_hint is True
    assert tools["eval"].annotations.read_only_hint is False and tools["eval"].annotations.open_world_hint is True
    assert tools["ast_grep"].output_schema is not None and "matches" in tools["ast_grep"].output_schema["properties"]
    assert tools["lsp"].output_schema is None  # its data has one shape per action


async def test_by_default_results_are_text_and_images_only(project: Path) -> None:
    # Claude Code and Codex show the model structuredContent instead of the text when a result
    # carries it: by default there is none, and no output schema, so the text is what they show
    async with connect(project, structured=False) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert all(tool.output_schema is None for tool in tools.values())
        cell = await client.call_tool("eval", {"code": "print('printed by the cell')\n6 * 7",
                                               "description": "print a line and multiply"})
        assert not cell.is_error and cell.structured_content is None
        assert "printed by the cell" in text(cell) and "42" in text(cell)
        bad = await client.call_tool("ast_grep", {"pattern": 3})
        assert bad.is_error and bad.structured_content is None and "pattern" in text(bad)


async def test_an_error_result_carries_no_structured_content(project: Path) -> None:
    # the SDK validates structured content against the output schema: an error's would not fit
    async with connect(project) as client:
        failed = await client.call_tool("eval", {"code": "1/0", "description": "divide one by zero on purpose"})
        assert failed.is_error and failed.structured_content is None
        assert "ZeroDivisionError" in text(failed)


async def test_plan_surface_and_elicitation_decide_what_is_listed(project: Path) -> None:
    async with connect(project, "--surface", "plan", answers=[]) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert "ask_user" in names and "lsp" in names and "written" in names
        assert not names & {"eval", "ast_edit", "resolve", "lsp_rename", "debug"}
        with pytest.raises(MCPError) as refused:
            await client.call_tool("eval", {"code": "1", "description": "add nothing at all here really"})
        assert refused.value.code == -32602 and "eval" in str(refused.value)


async def test_each_family_once(project: Path) -> None:
    async with connect(project) as client:
        found = await client.call_tool("ast_grep", {"pattern": "print($$$A)", "language": "python"})
        assert not found.is_error and found.structured_content["total"] == 2, text(found)
        assert "hello.py:2" in text(found)

        outline = await client.call_tool("lsp", {"action": "symbols", "file": "hello.py"})
        assert not outline.is_error and "greet" in text(outline), text(outline)

        staged = await client.call_tool("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "path": "hello.py"})
        assert not staged.is_error and "+    log('hi', name)" in text(staged), text(staged)
        accepted = await client.call_tool("resolve", {"edit_id": staged.structured_content["edit_id"], "action": "accept"})
        assert not accepted.is_error, text(accepted)
        assert "log('hi', name)" in (project / "hello.py").read_text()
        # write-time diagnostics come with the write: `log` is not defined
        assert any("log" in d["message"] for d in accepted.structured_content["diagnostics"]["new"]), text(accepted)

        await client.call_tool("debug", {"op": "breakpoints", "file": "prog.py", "lines": [7]})
        stopped = await client.call_tool("debug", {"op": "launch", "program": "prog.py"})
        assert not stopped.is_error and "prog.py:7" in text(stopped), text(stopped)
        assert not (await client.call_tool("debug", {"op": "terminate"})).is_error

        cell = await client.call_tool("eval", {"code": "21 * 2", "description": "multiply two numbers for a check"})
        assert not cell.is_error and "Out: 42" in text(cell)
        assert cell.structured_content["status"] == "ok"


async def test_written_reports_what_a_host_edit_broke(project: Path) -> None:
    async with connect(project) as client:
        # the first check is the baseline: what is there already is not new afterwards
        first = await client.call_tool("written", {"paths": ["hello.py"]})
        assert not first.is_error and first.structured_content["checked"] is True, text(first)
        (project / "hello.py").write_text("def greet(name):\n    return name + undefined_name\n")
        broken = await client.call_tool("written", {"paths": ["hello.py"]})
        assert not broken.is_error and broken.structured_content["checked"] is True
        errors = [d for d in broken.structured_content["new"] if d["severity"] == "error"]
        assert [(d["line"], "undefined_name" in d["message"]) for d in errors] == [(2, True)], text(broken)
        assert "hello.py:2" in text(broken)


async def test_image_and_error_results(project: Path) -> None:
    pytest.importorskip("matplotlib")
    async with connect(project) as client:
        plot = await client.call_tool("eval", {"code": "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3]);",
                                               "description": "plot three points as a line"})
        assert not plot.is_error, text(plot)
        images = [block for block in plot.content if isinstance(block, types.ImageContent)]
        assert len(images) == 1 and images[0].mime_type == "image/png"
        assert base64.b64decode(images[0].data).startswith(b"\x89PNG")

        failed = await client.call_tool("eval", {"code": "1 / 0", "description": "divide one by zero on purpose"})
        assert failed.is_error is True and "ZeroDivisionError" in text(failed)
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("no_such_tool", {})
        assert unknown.value.code == -32602 and "no_such_tool" in str(unknown.value)


async def test_cancelling_a_call_interrupts_its_cell(project: Path) -> None:
    started, interrupted, finished = (project / name for name in ("started", "interrupted", "finished"))
    # `started` is written inside the try: a cancel that comes right after it is still caught there
    cell = (f"import time, pathlib\nkept = 'still here'\ntry:\n    pathlib.Path({str(started)!r}).write_text('x')\n"
            f"    time.sleep(120)\nexcept KeyboardInterrupt:\n    pathlib.Path({str(interrupted)!r}).write_text('x')\n"
            f"    raise\npathlib.Path({str(finished)!r}).write_text('x')\n")
    async with connect(project) as client:
        call = asyncio.ensure_future(client.call_tool("eval", {"code": cell, "description": "sleep a long time then finish"}))
        for _ in range(600):
            if started.exists() or call.done():
                break
            await asyncio.sleep(0.1)
        assert started.exists(), "the cell never started"
        call.cancel()  # the SDK sends notifications/cancelled for the abandoned request
        with pytest.raises(asyncio.CancelledError):
            await call
        after = await client.call_tool("eval", {"code": "kept", "description": "show the variable the cell kept"})
        assert not after.is_error and "still here" in text(after), text(after)
    assert interrupted.exists() and not finished.exists()


async def test_progress_while_a_long_call_runs(project: Path) -> None:
    seen: list[tuple[float, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, message))

    async with connect(project) as client:
        result = await client.call_tool("eval", {"code": "import time\nprint('downloading', flush=True)\ntime.sleep(3.5)",
                                                 "description": "wait a few seconds for progress"},
                                        progress_callback=progress)
    assert not result.is_error, text(result)
    assert seen, "no notifications/progress arrived"
    values = [value for value, _ in seen]
    assert values == sorted(set(values))  # each one larger than the last
    # what the cell is doing: how long it has run and the last line it printed
    assert all(message and message.startswith("python cell running for") for _, message in seen), seen
    assert "last output line: downloading" in str(seen[-1][1])


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # elicitation/create; input_required on 2026-07-28
async def test_ask_user_round_trips_through_elicitation(project: Path, mode: str) -> None:
    asked: list[Any] = []
    answers: list[Any] = [{"choice": "blue"}, "decline", {"choices": ["a", "c"]}, {"text": "teal, please"}]
    async with connect(project, answers=answers, asked=asked, mode=mode) as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        chose = await client.call_tool("ask_user", {"question": "Which colour?", "options": [
            {"label": "red"}, {"label": "blue", "description": "the calm one"}]})
        assert not chose.is_error and chose.structured_content == {"skipped": False, "choices": ["blue"], "text": None}
        skipped = await client.call_tool("ask_user", {"question": "Which colour?", "options": [{"label": "red"}]})
        assert not skipped.is_error and skipped.structured_content["skipped"] is True
        assert "skipped" in text(skipped)
        several = await client.call_tool("ask_user", {"question": "Which letters?", "multi_select": True,
                                                      "options": [{"label": "a"}, {"label": "b"}, {"label": "c"}]})
        assert several.structured_content["choices"] == ["a", "c"], text(several)
        typed = await client.call_tool("ask_user", {"question": "Any other colour?", "allow_free_text": True})
        assert typed.structured_content["text"] == "teal, please"
    first = asked[0]
    assert first.message.startswith("Which colour?") and "blue: the calm one" in first.message
    assert first.requested_schema["properties"]["choice"]["enum"] == ["red", "blue"]
    assert asked[2].requested_schema["properties"]["choices"]["items"]["enum"] == ["a", "b", "c"]
    assert asked[3].requested_schema["properties"]["text"]["type"] == "string"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_permission_card_as_an_elicitation(project: Path, mode: str) -> None:
    before = (project / "hello.py").read_text()
    asked: list[Any] = []
    async with connect(project, "--approve", "ask", answers=[{"choice": "deny"}, {"choice": "allow once"}], mode=mode,
                       asked=asked) as client:
        denied = await client.call_tool("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "path": "hello.py"})
        assert denied.is_error and "denied" in text(denied)
        allowed = await client.call_tool("ast_edit", {"pattern": "print($$$A)", "rewrite": "log($$$A)", "path": "hello.py"})
        assert not allowed.is_error and allowed.structured_content["edit_id"], text(allowed)
    card = asked[0]
    assert "ast_edit" in card.message and "change files" in card.message
    assert card.requested_schema["properties"]["choice"]["enum"] == ["allow once", "allow for this run", "deny"]
    assert (project / "hello.py").read_text() == before  # staged, not written


async def test_approve_none_and_ask_without_elicitation_refuse(project: Path) -> None:
    async with connect(project, "--approve", "none") as client:
        refused = await client.call_tool("eval", {"code": "1", "description": "one cell that must not run"})
        assert refused.is_error and "--approve none" in text(refused)
    async with connect(project, "--approve", "ask") as client:
        refused = await client.call_tool("eval", {"code": "1", "description": "one cell that must not run"})
        assert refused.is_error and "no person is attached" in text(refused)


async def test_a_rule_object_through_mcp(project: Path) -> None:
    rule = {"id": "print-in-function", "language": "python", "message": "print of $$$A",
            "rule": {"pattern": "print($$$A)", "inside": {"kind": "function_definition", "stopBy": "end"}}}
    async with connect(project, structured=False) as client:
        found = await client.call_tool("ast_grep", {"rule": rule})
        bad = await client.call_tool("ast_grep", {"rule": {"language": "python", "rule": {"kind": "nope"}}})
    assert not found.is_error, text(found)
    assert "1 match of rule print-in-function (python)" in text(found)
    assert "hello.py:2: print('hi', name)" in text(found) and "print of 'hi', name" in text(found)
    assert bad.is_error and '"nope" is not a node kind of python' in text(bad)


async def test_the_sdk_probes_discover_and_speaks_2026_07_28(project: Path) -> None:
    async with connect(project, mode="auto", structured=False) as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None and client.server_info.name == "minitools"
        names = [tool.name for tool in (await client.list_tools()).tools]
        assert names == sorted(names) and "eval" in names and "ask_user" not in names
        result = await client.call_tool("eval", {"code": "print('from the kernel')\n6 * 7", "description": "print"})
        assert result.is_error is False and "from the kernel" in text(result) and "Out: 42" in text(result)
    async with connect(project, structured=False) as legacy:  # the same build, the handshake generation
        assert legacy.protocol_version == "2025-11-25"
        assert "eval" in [tool.name for tool in (await legacy.list_tools()).tools]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_progress_with_a_total_reaches_the_sdk_in_both_generations(mode: str) -> None:
    tree = corpora.glibc()  # a search over some thousands of files takes seconds here
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connect(tree, mode=mode, structured=False) as client:
        result = await client.call_tool("ast_grep", {"pattern": "$A = $B", "language": "c", "max_results": 3},
                                        progress_callback=on_progress)
        assert result.is_error is False and "matches of" in text(result)
    counted = [(p, t, m) for p, t, m in seen if t is not None]
    assert counted, seen
    progress, total, message = counted[-1]
    assert message == f"files searched: {int(progress)} of {int(total)}" and total > 1000 and progress <= total
    assert [p for p, _, _ in seen] == sorted({p for p, _, _ in seen})
