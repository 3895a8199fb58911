"""`minitools mcp` as a subprocess: a project to serve, the SDK client's launch parameters, and a
line-level client for what the SDK never sends (malformed lines, other revisions)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

PROG = "import sys\n\n\ndef total(numbers):\n    acc = 0\n    for x in numbers:\n        acc += x\n    return acc\n\n\nprint(total([1, 2, 3]))\n"


def server_env() -> dict[str, str]:
    """The environment `minitools mcp` runs in: this checkout's code first on the path."""
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{path}" if path else str(REPO))


def mcp_argv(root: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "minitools", "mcp", "--root", str(root), *flags]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\nversion = '0'\n")
    (root / "hello.py").write_text("def greet(name):\n    print('hi', name)\n\n\ngreet('you')\n")
    (root / "prog.py").write_text(PROG)
    return root


class LineClient:
    """Newline-delimited JSON-RPC over the server's stdin/stdout, one line at a time."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.server_requests: list[dict[str, Any]] = []
        self.answer: Any = None  # result for a server→client request, from the request

    async def send(self, message: dict[str, Any] | bytes) -> None:
        assert self.proc.stdin is not None
        line = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.proc.stdin.write(line)
        await self.proc.stdin.drain()

    async def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line, "minitools mcp closed its stdout"
        message: dict[str, Any] = json.loads(line)
        return message

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        await self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, **({"params": params} if params is not None else {})})
        while True:
            message = await self.read()
            if "method" in message and "id" in message and self.answer is not None:
                self.server_requests.append(message)
                await self.send({"jsonrpc": "2.0", "id": message["id"], "result": self.answer(message)})
            elif message.get("id") == self.next_id and "method" not in message:
                return message

    async def initialize(self, version: str = "2025-11-25", capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = await self.request("initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                                  "clientInfo": {"name": "line-client", "version": "1"}})
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    async def close(self) -> int:
        """Close stdin and wait for the server to exit; its exit code."""
        assert self.proc.stdin is not None
        if not self.proc.stdin.is_closing():
            self.proc.stdin.close()
        try:
            return await asyncio.wait_for(self.proc.wait(), 30)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError("minitools mcp did not exit when its stdin closed") from None


@pytest.fixture
async def line_client(project: Path, request: pytest.FixtureRequest) -> AsyncIterator[LineClient]:
    flags = getattr(request, "param", ())
    proc = await asyncio.create_subprocess_exec(
        *mcp_argv(project, *flags), env=server_env(),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    client = LineClient(proc)
    yield client
    if proc.returncode is None:
        await client.close()
