"""What the mcp tests share beyond fixtures: how to start `minitools mcp`, and a line-level
client for what the SDK never sends (malformed lines, other revisions)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

PROG = "import sys\n\n\ndef total(numbers):\n    acc = 0\n    for x in numbers:\n        acc += x\n    return acc\n\n\nprint(total([1, 2, 3]))\n"


def server_env() -> dict[str, str]:
    """The environment `minitools mcp` runs in: this checkout's code first on the path."""
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{path}" if path else str(REPO))


def modern_meta(*, tasks: bool = True, elicitation: bool = False) -> dict[str, Any]:
    """The ``_meta`` of a 2026-07-28 request, its client declaring the tasks extension and/or form
    elicitation."""
    capabilities: dict[str, Any] = {"extensions": {"io.modelcontextprotocol/tasks": {}}} if tasks else {}
    if elicitation:
        capabilities["elicitation"] = {"form": {}}
    return {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": capabilities}}


def mcp_argv(root: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "minitools", "mcp", "--root", str(root), *flags]


class LineClient:
    """Newline-delimited JSON-RPC over the server's stdin/stdout, one line at a time."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.server_requests: list[dict[str, Any]] = []
        self.notifications: list[dict[str, Any]] = []  # what the server notified, while waiting for answers
        self.answer: Any = None  # result for a server→client request, from the request
        self.responses: dict[Any, dict[str, Any]] = {}  # answers to requests not waited for, by id
        self.seen: list[dict[str, Any]] = []  # every message read, in order

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
        self.seen.append(message)
        return message

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        await self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, **({"params": params} if params is not None else {})})
        return await self.response(self.next_id)

    async def response(self, request_id: Any) -> dict[str, Any]:
        """The answer to request `request_id` (the server's requests are answered, and what
        else comes is kept, meanwhile)."""
        while request_id not in self.responses:
            message = await self.read()
            if "method" in message and "id" in message and self.answer is not None:
                self.server_requests.append(message)
                await self.send({"jsonrpc": "2.0", "id": message["id"], "result": self.answer(message)})
            elif "method" in message and "id" not in message:
                self.notifications.append(message)
            elif "method" not in message:
                self.responses[message.get("id")] = message
        return self.responses.pop(request_id)

    async def notification(self, method: str, matches: Callable[[dict[str, Any]], bool] = lambda params: True) -> dict[str, Any]:
        """The params of the first `method` notification, kept or still to come, that `matches`."""
        while True:
            found = [n["params"] for n in self.notifications if n["method"] == method and matches(n["params"])]
            if found:
                return found[0]
            message = await self.read()
            if "method" in message and "id" not in message:
                self.notifications.append(message)
            elif "method" not in message:
                self.responses[message.get("id")] = message

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


