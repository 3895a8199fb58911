"""`minitools mcp` beside a language server that floods it with bad messages, under a host that
never reads its stderr: pings and tool calls are still answered, and what reaches stderr is a
bounded summary, not a traceback per message (docs/tools.md, "Hostile peers and files")."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp_support import REPO, LineClient, mcp_argv, server_env

FAKE_SERVER = REPO / "tests" / "lsp" / "fake_server.py"
# the bound: each ping is answered within a second while the flood goes on
PING_BOUND = 1.0


def hostile_env(root: Path, tmp_path: Path, script: dict[str, Any]) -> dict[str, str]:
    """The environment of a `minitools mcp` whose python language server is the scripted fake
    (in the project's .venv/bin, where servers are looked for first)."""
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    stub = bin_dir / "basedpyright-langserver"
    stub.write_text(f"#!/bin/sh\nexec {sys.executable} -u {FAKE_SERVER}\n")
    stub.chmod(0o755)
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script))
    env = server_env()
    env["FAKE_LSP_SCRIPT"] = str(script_file)
    return env


async def answers_within(client: LineClient, message_id: int, bound: float) -> list[dict[str, Any]]:
    """The messages read until the answer to `message_id`, which must come within `bound` seconds."""
    async def answer() -> list[dict[str, Any]]:
        seen = []
        while True:
            message = await client.read()
            seen.append(message)
            if message.get("id") == message_id and "method" not in message:
                return seen

    try:
        return await asyncio.wait_for(answer(), bound)
    except asyncio.TimeoutError:
        raise AssertionError(f"request {message_id} was not answered within {bound:g} s") from None


async def test_pings_are_answered_while_a_server_floods_bad_messages_and_stderr_is_never_read(
        project: Path, tmp_path: Path) -> None:
    flood = [{"method": "textDocument/publishDiagnostics", "params": {"uri": 5, "diagnostics": []}, "count": 10000},
             {"method": "textDocument/publishDiagnostics", "params": {"uri": "$ROOT/f$N.py", "diagnostics": "x"},
              "count": 5000},
             {"method": "$/progress", "params": {"token": "t$N", "value": {"kind": "begin", "title": 7}}, "count": 5000}]
    script = {"flood": flood, "answers": {"textDocument/hover": {"contents": "def greet(name)"}}}
    unread, stderr = os.pipe()  # stderr: a pipe nobody reads until the end (64 KB fill it)
    proc = await asyncio.create_subprocess_exec(
        *mcp_argv(project), env=hostile_env(project, tmp_path, script),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
    )
    os.close(stderr)
    client = LineClient(proc)
    try:
        await asyncio.wait_for(client.initialize(), 30)
        # the hover is answered once the server has sent its flood; pings go on meanwhile
        await client.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "lsp", "arguments": {"action": "hover", "file": "hello.py", "line": 1, "symbol": "greet"}}})
        hover, pings = None, 0
        deadline = asyncio.get_running_loop().time() + 60
        while hover is None:
            pings += 1
            assert asyncio.get_running_loop().time() < deadline, "the hover was not answered within 60 s"
            await asyncio.sleep(0.02)
            await client.send({"jsonrpc": "2.0", "id": 1000 + pings, "method": "ping"})
            for message in await answers_within(client, 1000 + pings, PING_BOUND):
                hover = message if message.get("id") == 1 else hover
        assert pings > 1
        assert not hover["result"]["isError"] and "def greet(name)" in hover["result"]["content"][0]["text"], hover
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        with open(unread, "rb") as pipe:
            errors = await asyncio.wait_for(asyncio.to_thread(pipe.read), 30)  # until the server exits
        await asyncio.wait_for(proc.wait(), 30)
    text = errors.decode("utf-8", errors="replace")
    assert "Traceback" not in text, text[:2000]
    lines = text.splitlines()
    assert 0 < len(lines) <= 100, f"{len(lines)} lines on stderr: {lines[:5]}"
    assert all(len(line) <= 400 for line in lines)
    assert any("publishDiagnostics" in line for line in lines), lines[:5]
