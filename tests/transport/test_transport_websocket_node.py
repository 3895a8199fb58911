"""The WebSocket client against a real server: node 20's inspector. Raw Chrome DevTools Protocol
messages over `WebSocketConnection` (the session class is tests/inspector's): enable, run, the
pause on the first line, resume, the program's output and its exit."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from minitools.inspector import start_node
from minitools.transport import WebSocketConnection

pytestmark = [pytest.mark.timeout(60), pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (setup/ installs it)")]

PROGRAM = """\
const base = 41;
console.log("hello from node", base + 1);
"""


async def receive_json(ws: WebSocketConnection) -> dict[str, Any]:
    message = await asyncio.wait_for(ws.receive(), 10)
    assert isinstance(message, str)
    obj = json.loads(message)
    assert isinstance(obj, dict)
    return obj


async def receive_until(ws: WebSocketConnection, wanted: str, answers: dict[Any, Any]) -> dict[str, Any]:
    """Messages until the event `wanted` (node sends about a hundred scriptParsed events first);
    answers to our commands are kept by id, scripts' URLs by scriptId."""
    for _ in range(10_000):
        message = await receive_json(ws)
        if "id" in message:
            answers[message["id"]] = message
        elif message.get("method") == "Debugger.scriptParsed":
            answers[message["params"]["scriptId"]] = message["params"]["url"]
        if message.get("method") == wanted:
            return message["params"]
    raise AssertionError(f"no {wanted} in 10,000 messages")


async def test_node_inspector_pauses_resumes_and_the_program_runs(tmp_path: Path) -> None:
    program = tmp_path / "prog.js"
    program.write_text(PROGRAM)
    child, url = await start_node(program, cwd=tmp_path)
    try:
        assert url.startswith("ws://127.0.0.1:")
        ws = await WebSocketConnection.connect(url, peer="node", timeout=10)
        for ident, method in enumerate(["Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger"], 1):
            await ws.send_text(json.dumps({"id": ident, "method": method, "params": {}}))
        answers: dict[Any, Any] = {}
        paused = await receive_until(ws, "Debugger.paused", answers)
        assert paused["reason"] == "Break on start"
        top = paused["callFrames"][0]
        assert answers[top["location"]["scriptId"]] == program.as_uri() and top["location"]["lineNumber"] == 0
        assert "debuggerId" in answers[2]["result"]  # Debugger.enable's answer, read among the events

        await ws.send_text(json.dumps({"id": 4, "method": "Debugger.resume", "params": {}}))
        logged = await receive_until(ws, "Runtime.consoleAPICalled", answers)
        assert [arg["value"] for arg in logged["args"]] == ["hello from node", 42]
        await receive_until(ws, "Runtime.executionContextDestroyed", answers)
        assert answers[4]["result"] == {}

        # the program has ended; node waits for the debugger to disconnect, then exits
        await ws.close(timeout=5)
        assert await asyncio.wait_for(child.wait(), 10) == 0
        assert await asyncio.wait_for(child.stdout.read(), 10) == b"hello from node 42\n"
        assert "Waiting for the debugger to disconnect" in child.stderr_tail()
    finally:
        await child.stop()
    assert child.returncode is not None
