"""The node adapter against an inspector that misbehaves: a fake one on 127.0.0.1 (written from
the specs, beside the real node the other tests use) that answers `GET /json/list` and then
speaks garbage over the WebSocket, at once or mid-session. The `debug` tool gives a clear error
or says the session ended, and nothing hangs."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from dap_helpers import make_run

pytestmark = pytest.mark.timeout(60)

Behaviour = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One masked client frame: (opcode, payload)."""
    first, second = await reader.readexactly(2)
    n = second & 0x7F
    if n == 126:
        n = int.from_bytes(await reader.readexactly(2), "big")
    elif n == 127:
        n = int.from_bytes(await reader.readexactly(8), "big")
    key = await reader.readexactly(4)
    body = await reader.readexactly(n)
    return first & 0x0F, bytes(b ^ key[i % 4] for i, b in enumerate(body))


def _text(payload: bytes) -> bytes:
    """An unmasked server text frame."""
    n = len(payload)
    head = bytes([0x81, n]) if n < 126 else bytes([0x81, 126]) + n.to_bytes(2, "big")
    return head + payload


@asynccontextmanager
async def fake_inspector(behaviour: Behaviour) -> AsyncIterator[int]:
    """A server answering /json/list with its own ws:// URL, then running `behaviour` on each
    WebSocket connection after the handshake; yields its port."""
    port = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            if head.startswith(b"GET /json/list"):
                body = json.dumps([{"type": "node", "webSocketDebuggerUrl": f"ws://127.0.0.1:{port}/fake"}]).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                             + str(len(body)).encode() + b"\r\n\r\n" + body)
                await writer.drain()
                return
            key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key"))
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            await behaviour(reader, writer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.close()
        await asyncio.wait_for(server.wait_closed(), 10)


async def garbage_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await _frame(reader)  # the first command
    writer.write(_text(b"this is not JSON {"))
    await writer.drain()
    await reader.read()  # until the client hangs up


async def garbage_later(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answer every command with an empty result; a second after the connection opened (the
    attach is done by then), send a message that is JSON but not CDP."""

    async def later() -> None:
        await asyncio.sleep(1.0)
        writer.write(_text(b'[1, 2, "an array, not a CDP message"]'))
        await writer.drain()

    garbage = asyncio.ensure_future(later())
    try:
        while True:
            opcode, payload = await _frame(reader)
            if opcode != 0x1:
                return
            command: dict[str, Any] = json.loads(payload)
            writer.write(_text(json.dumps({"id": command["id"], "result": {}}).encode()))
            await writer.drain()
    finally:
        garbage.cancel()


@pytest.fixture
def jsproject(tmp_path: Path) -> Path:
    (tmp_path / "package.json").write_text('{"name": "t", "version": "0.0.0"}\n')
    return tmp_path


async def test_an_inspector_that_speaks_garbage_at_once(jsproject: Path) -> None:
    async with fake_inspector(garbage_at_once) as port, make_run(jsproject) as run:
        r = await asyncio.wait_for(run.call("debug", {"op": "attach", "port": port, "adapter": "node"}), 30)
        assert not r.ok and "could not open node's inspector" in r.text and "not JSON" in r.text, r.text
        r = await run.call("debug", {"op": "status"})
        assert "No debug session is running" in r.text, r.text


async def test_an_inspector_that_speaks_garbage_mid_session(jsproject: Path) -> None:
    async with fake_inspector(garbage_later) as port, make_run(jsproject) as run:
        r = await asyncio.wait_for(run.call("debug", {"op": "attach", "port": port, "adapter": "node"}), 30)
        assert r.ok and "state: running" in r.text, r.text
        for _ in range(100):
            status = await run.call("debug", {"op": "status"})
            if "ended" in status.text:
                break
            await asyncio.sleep(0.05)
        assert "the program has ended" in status.text, status.text
        out = await run.call("debug", {"op": "output"})
        assert "the inspector connection ended" in out.text and "JSON that is not an object" in out.text, out.text
        assert (await run.call("debug", {"op": "terminate"})).ok
