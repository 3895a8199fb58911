"""A server's own stdin and stdout as a reader/writer pair for `FramedConnection`.

stdin is read through the event loop when it is a pipe, a socket or a terminal, and by a
thread otherwise (a regular file, /dev/null: the loop cannot poll those); stdout is written at
once and flushed (a regular file or a pipe alike), so an answer is out before the next line is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import threading
from typing import Any, BinaryIO

__all__ = ["open_stdio"]


class _FlushingWriter:
    """What `FramedConnection` needs of a writer, over a binary file; closing it stops reading
    stdin (the read pipe's transport)."""

    def __init__(self, out: BinaryIO, read_transport: asyncio.BaseTransport | None) -> None:
        self._out = out
        self._read_transport = read_transport

    def write(self, data: bytes) -> None:
        self._out.write(data)
        self._out.flush()

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        """Stop reading stdin; stdout stays open for whoever writes after us."""
        if self._read_transport is not None:
            self._read_transport.close()


async def open_stdio(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> tuple[asyncio.StreamReader, Any]:
    """A reader over `stdin` and a writer over `stdout` (the process's own by default)."""
    loop = asyncio.get_running_loop()
    source = stdin or sys.stdin.buffer
    reader = asyncio.StreamReader()
    mode = os.fstat(source.fileno()).st_mode
    transport: asyncio.BaseTransport | None = None
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or source.isatty():
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), source)
    else:
        threading.Thread(target=_pump, args=(source, reader, loop), name="minitools-stdin", daemon=True).start()
    return reader, _FlushingWriter(stdout or sys.stdout.buffer, transport)


def _pump(source: BinaryIO, reader: asyncio.StreamReader, loop: asyncio.AbstractEventLoop) -> None:
    """Feed `reader` from a file the event loop cannot poll, up to its end."""
    try:
        while chunk := source.read1(65536) if hasattr(source, "read1") else source.read(65536):
            loop.call_soon_threadsafe(reader.feed_data, chunk)
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(RuntimeError):  # the loop is already closed
            loop.call_soon_threadsafe(reader.feed_eof)
