"""The inspector session on real node 20: a breakpoint by URL and line, the call frames at the
pause, an expression evaluated on a frame; node killed under a session; a start that fails."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

from minitools.inspector import CDPError, InspectorSession, start_node
from minitools.transport import ChildExited

pytestmark = [pytest.mark.timeout(60), pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/ installs it)")]

PROGRAM = """\
function total(items, bonus) {
  let acc = 0;
  for (const x of items) {
    acc += x;
  }
  return acc + bonus;
}

const numbers = [1, 2, 3, 4];
console.log("total", total(numbers, 100));
"""
RETURN_LINE = 6  # 1-based: `return acc + bonus;`


async def test_breakpoint_by_url_frames_and_evaluate_on_a_frame(tmp_path: Path) -> None:
    program = tmp_path / "prog.js"
    program.write_text(PROGRAM)
    child, url = await start_node(program, cwd=tmp_path)
    session = await InspectorSession.connect(url, child=child)
    try:
        await session.request("Runtime.enable")
        await session.request("Debugger.enable")
        placed = await session.request("Debugger.setBreakpointByUrl", {"url": program.as_uri(), "lineNumber": RETURN_LINE - 1})
        await session.request("Runtime.runIfWaitingForDebugger")
        start = await session.wait_event("Debugger.paused")
        assert start["reason"] == "Break on start"
        await session.request("Debugger.resume")

        paused = await session.wait_event("Debugger.paused")
        assert paused["hitBreakpoints"] == [placed["breakpointId"]]
        frames = paused["callFrames"]
        assert [frame["functionName"] for frame in frames[:2]] == ["total", ""]
        assert frames[0]["location"]["lineNumber"] == RETURN_LINE - 1
        assert [scope["type"] for scope in frames[0]["scopeChain"]] == ["local", "global"]
        evaluated = await session.request("Debugger.evaluateOnCallFrame",
                                          {"callFrameId": frames[0]["callFrameId"], "expression": "acc * 10 + bonus + items.length"})
        assert evaluated["result"] == {"type": "number", "value": 204, "description": "204"}
        with pytest.raises(CDPError, match=r"the inspector refused Debugger\.evaluateOnCallFrame"):
            await session.request("Debugger.evaluateOnCallFrame", {"callFrameId": "no such frame", "expression": "1"})

        await session.request("Debugger.resume")
        logged = await session.wait_event("Runtime.consoleAPICalled")
        assert [arg.get("value") for arg in logged["args"]] == ["total", 110]
        await session.wait_event("Runtime.executionContextDestroyed")
        await session.close()
        assert await asyncio.wait_for(child.wait(), 10) == 0
    finally:
        await session.close()
        await child.stop()


async def test_node_killed_under_a_session_fails_the_waiter_with_how_it_ended(tmp_path: Path) -> None:
    program = tmp_path / "waits.js"
    program.write_text('console.error("started");\nsetInterval(() => {}, 1000);\n')
    child, url = await start_node(program, cwd=tmp_path)
    session = await InspectorSession.connect(url, child=child)
    try:
        await session.request("Debugger.enable")
        await session.request("Runtime.runIfWaitingForDebugger")
        await session.wait_event("Debugger.paused")
        await session.request("Debugger.resume")
        waiter = asyncio.ensure_future(session.wait_event("Debugger.paused", timeout=30))
        child.kill_now()
        with pytest.raises(ChildExited, match="node was killed by signal 9"):
            await waiter
        with pytest.raises(ChildExited):
            await session.request("Debugger.resume")
    finally:
        await session.close()
        await child.stop()


async def test_a_program_that_is_not_node_is_refused_with_its_stderr(tmp_path: Path) -> None:
    with pytest.raises(ChildExited, match="no 'Debugger listening on ws://' line"):
        await start_node(tmp_path / "x.js", node=sys.executable)
