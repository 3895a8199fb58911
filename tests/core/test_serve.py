"""`minitools serve` over a real subprocess: newline-delimited JSON-RPC 2.0 on stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest


class ServeClient:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.host_requests: list[dict[str, Any]] = []
        self.answer_host: Any = None

    async def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        await self.proc.stdin.drain()

    async def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        assert line, "serve closed its stdout"
        return json.loads(line)

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        my_id = self.next_id
        await self.send_raw(json.dumps({"jsonrpc": "2.0", "id": my_id, "method": method, "params": params}).encode() + b"\n")
        while True:
            message = await self.read()
            if "method" in message:  # a server→host request: answer it
                self.host_requests.append(message)
                result = self.answer_host(message)
                await self.send_raw(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode() + b"\n")
                continue
            assert message["id"] == my_id
            return message


@pytest.fixture
async def serve(tmp_path, request):
    (tmp_path / "hello.py").write_text("print('hi')\n")
    flags = getattr(request, "param", ())
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "minitools", "serve", "--root", str(tmp_path), *flags,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    client = ServeClient(proc)
    yield client
    if proc.returncode is None:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 20)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
            raise AssertionError("serve did not exit when its stdin closed") from None


async def test_tools_and_surfaces(serve):
    full = await serve.request("tools", {})
    plan = await serve.request("tools", {"surface": "plan"})
    full_tools = full["result"]["tools"]
    plan_tools = plan["result"]["tools"]
    assert {t["tier"] for t in plan_tools} <= {"read"}
    assert {t["name"] for t in plan_tools} <= {t["name"] for t in full_tools}
    for tool in full_tools:
        assert tool["parameters"]["type"] == "object"
    tiers = {t["name"]: t["tier"] for t in full_tools}
    assert tiers["lsp"] == "read" and tiers["lsp_rename"] == "write" and tiers["eval"] == "exec"
    openai = await serve.request("tools", {"format": "openai"})
    assert all(t["type"] == "function" for t in openai["result"]["tools"])
    bad = await serve.request("tools", {"surface": "nope"})
    assert bad["error"]["code"] == -32602 and "unknown surface" in bad["error"]["message"]


async def test_malformed_lines_get_errors_and_the_server_keeps_going(serve):
    await serve.send_raw(b"{not json\n")
    error = await serve.read()
    assert error["id"] is None and error["error"]["code"] == -32700 and "{not json" in error["error"]["message"]
    await serve.send_raw(b'[1, 2]\n')
    assert (await serve.read())["error"]["code"] == -32600
    await serve.send_raw(b'{"jsonrpc": "2.0", "id": 7}\n')  # neither request nor response
    neither = await serve.read()
    assert neither["id"] == 7 and neither["error"]["code"] == -32600
    await serve.send_raw(b'{"jsonrpc": "2.0", "id": 99, "result": {}}\n')  # a response to nothing: ignored
    missing = await serve.request("frobnicate", {})
    assert missing["error"]["code"] == -32601 and "frobnicate" in missing["error"]["message"]
    bad_params = await serve.request("call", {"args": {}})
    assert bad_params["error"]["code"] == -32602
    still_ok = await serve.request("tools", {})
    assert "result" in still_ok


async def test_call_round_trip(serve):
    unknown = await serve.request("call", {"tool": "no_such_tool", "args": {}})
    result = unknown["result"]
    assert result["ok"] is False and "unknown tool 'no_such_tool'" in result["text"]
    assert result["images"] == []
    written = await serve.request("written", {"paths": ["hello.py"]})
    assert "result" in written and written["result"]["ok"] in (True, False)
    bad = await serve.request("written", {"paths": "hello.py"})
    assert bad["error"]["code"] == -32602


@pytest.mark.parametrize("serve", [("--questions", "host")], indirect=True)
async def test_ask_user_goes_to_the_host_as_an_ask_request(serve):
    serve.answer_host = lambda message: {"choices": [message["params"]["options"][1]["label"]]}
    reply = await serve.request("call", {"tool": "ask_user", "args": {
        "question": "Which colour?", "options": [{"label": "red"}, {"label": "blue"}]}})
    assert reply["result"]["ok"] is True and "blue" in reply["result"]["text"]
    (ask,) = serve.host_requests
    assert ask["method"] == "ask" and ask["params"]["question"] == "Which colour?"
    assert ask["params"]["kind"] == "question"


async def test_write_tools_ask_the_host_to_approve(serve, tmp_path):
    serve.answer_host = lambda message: {"approved": False, "reason": "read-only review"}
    reply = await serve.request("call", {"tool": "lsp_rename", "args": {
        "file": "hello.py", "line": 1, "symbol": "print", "new_name": "show"}})
    result = reply["result"]
    assert result["ok"] is False and "read-only review" in result["text"]
    (approve,) = serve.host_requests
    assert approve["method"] == "approve"
    assert approve["params"]["tool"] == "lsp_rename" and approve["params"]["tier"] == "write"
    assert approve["params"]["args"]["new_name"] == "show"
    assert (tmp_path / "hello.py").read_text() == "print('hi')\n"


def test_requests_in_flight_when_stdin_ends_are_answered(tmp_path):
    import subprocess

    lines = b'{"jsonrpc": "2.0", "id": 1, "method": "tools"}\n{"jsonrpc": "2.0", "id": 2, "method": "call", ' \
            b'"params": {"tool": "ast_grep", "args": {"pattern": "print($A)", "language": "python"}}}\n'
    (tmp_path / "hello.py").write_text("print('hi')\n")
    done = subprocess.run([sys.executable, "-m", "minitools", "serve", "--root", str(tmp_path)], input=lines,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    assert set(replies) == {1, 2}
    assert replies[2]["result"]["ok"] is True and replies[2]["result"]["data"]["total"] == 1
    # stdin a regular file (which the event loop cannot poll): the same answers
    (tmp_path / "requests.jsonl").write_bytes(lines)
    with open(tmp_path / "requests.jsonl", "rb") as requests:
        from_file = subprocess.run([sys.executable, "-m", "minitools", "serve", "--root", str(tmp_path)], stdin=requests,
                                   capture_output=True, timeout=60)
    assert from_file.returncode == 0, from_file.stderr
    assert {json.loads(line)["id"] for line in from_file.stdout.splitlines()} == {1, 2}


async def test_null_for_an_optional_argument_means_absent(serve):
    # clients built on typed models send every optional argument they leave unset as null
    found = await serve.request("call", {"tool": "ast_grep", "args": {
        "pattern": "print($A)", "language": "python", "path": None, "max_results": None}})
    assert found["result"]["ok"] is True, found["result"]["text"]
    assert "hello.py:1" in found["result"]["text"]
    missing = await serve.request("call", {"tool": "ast_grep", "args": {"pattern": None, "language": None}})
    assert missing["result"]["ok"] is False and "pattern" in missing["result"]["text"]
