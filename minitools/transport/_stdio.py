"""A server's own stdin and stdout as a reader/writer pair for `FramedConnection`.

stdin is read through the event loop; stdout is written at once and flushed (a write to a
regular file or a pipe alike), so an answer is out before the next line is read.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, BinaryIO

__all__ = ["open_stdio"]


class _FlushingWriter:
    """What `FramedConnection` needs of a writer, over a binary file; closing it stops reading
    stdin (the read pipe's transport)."""

    def __init__(self, out: BinaryIO, read_transport: asyncio.BaseTransport) -> None:
        self._out = out
        self._read_transport = read_transport

    def write(self, data: bytes) -> None:
        self._out.write(data)
        self._out.flush()

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        """Stop reading stdin; stdout stays open for whoever writes after us."""
        self._read_transport.close()


async def open_stdio(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> tuple[asyncio.StreamReader, Any]:
    """A reader over `stdin` and a writer over `stdout` (the process's own by default)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin or sys.stdin.buffer)
    return reader, _FlushingWriter(stdout or sys.stdout.buffer, transport)
