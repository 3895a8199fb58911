"""A small scripted WebSocket server on 127.0.0.1 for bad-peer tests, written from RFC 6455
without minitools' client: each connection runs a script given the server's side (`Peer`)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

Script = Callable[["Peer"], Awaitable[None]]


class Peer:
    """The server's side of one connection, written from the RFC without minitools' client."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seen: asyncio.Queue[object]) -> None:
        self.reader = reader
        self.writer = writer
        self.seen = seen  # what the script reports to the test

    async def read_request(self) -> bytes:
        """The client's handshake; its Sec-WebSocket-Key."""
        head = await self.reader.readuntil(b"\r\n\r\n")
        for line in head.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.lower() == b"sec-websocket-key":
                return value.strip()
        raise AssertionError(f"no key in {head!r}")

    async def accept(self) -> None:
        key = await self.read_request()
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        self.writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        await self.writer.drain()

    async def read_frame(self) -> tuple[bool, int, bytes]:
        """One frame from the client: (FIN, opcode, unmasked payload); it must be masked."""
        first, second = await self.reader.readexactly(2)
        assert second & 0x80, "the client's frame is masked"
        n = second & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        key = await self.reader.readexactly(4)
        body = await self.reader.readexactly(n)
        return bool(first & 0x80), first & 0x0F, bytes(b ^ key[i % 4] for i, b in enumerate(body))

    async def until_closed(self) -> bytes | None:
        """Read frames until the client's close and echo it (its payload), or until the stream
        ends (None)."""
        while True:
            try:
                _, opcode, payload = await self.read_frame()
            except asyncio.IncompleteReadError:
                return None
            if opcode == 0x8:
                with contextlib.suppress(ConnectionError):
                    await self.send(bytes([0x88, len(payload)]) + payload)
                return payload

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    def close(self) -> None:
        self.writer.close()


@asynccontextmanager
async def serving(script: Script) -> AsyncIterator[tuple[str, asyncio.Queue[object]]]:
    """A server on 127.0.0.1 running `script` for each connection; the queue gets what the script
    puts in it (`peer.seen`) and any exception it raised."""
    seen: asyncio.Queue[object] = asyncio.Queue()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = Peer(reader, writer, seen)
        try:
            await script(peer)
        except Exception as exc:  # noqa: BLE001 - the test reads it from the queue
            seen.put_nowait(exc)
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/session", seen
    finally:
        server.close()
        await asyncio.wait_for(server.wait_closed(), 10)


async def next_seen(seen: asyncio.Queue[object]) -> object:
    return await asyncio.wait_for(seen.get(), 10)
