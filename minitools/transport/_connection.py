"""Framed messages over asyncio streams: a reader task feeding a sans-IO framer, and a
send method. No request/response correlation here (DAP uses seq, JSON-RPC uses ids).

When the stream ends, the connection closes with an exception — ChildExited (exit code and
stderr tail) when a child process is behind it, ConnectionClosed otherwise, or the
RemoteProtocolError that broke it — and every waiter on `receive()` fails with it.

Two options serve a peer that is our client rather than our child: `on_malformed(exc)` is told
of a message that is not JSON (the framer's MalformedMessage) and reading goes on, and with
`write_after_eof` the end of the input closes the reading half only, so answers to requests
still in flight are written until `close()`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Protocol

from minitools.protocol import CLOSED, NEED_DATA, Framer, MalformedMessage, RemoteProtocolError, encode_message
from minitools.tracing import Tracer
from minitools.transport._child import ChildProcess
from minitools.transport._errors import ChildExited, ConnectionClosed
from minitools.transport._inbox import take_or_raise

__all__ = ["FramedConnection", "MessageFramer"]


class MessageFramer(Protocol):
    """What the connection needs of a framer: `Framer` and `LineFramer` both fit."""

    def receive_data(self, data: bytes) -> None: ...
    def next_message(self) -> Any: ...


class FramedConnection:
    """Send and receive JSON objects over a reader/writer pair (`reader` None: a child's stdout,
    which feeds the framer from the pipe's callback, see `over_child`).

    Incoming messages go to `on_message` when given (called in the reader task, in order;
    it must not block), else into a queue read with `receive()`. `on_close(exc)` is called
    once when the connection ends.
    """

    def __init__(self, reader: asyncio.StreamReader | None, writer: Any, *, peer: str = "peer",
                 tracer: Tracer | None = None, framer: MessageFramer | None = None,
                 encode: Callable[[dict[str, Any]], bytes] = encode_message,
                 on_message: Callable[[dict[str, Any]], None] | None = None,
                 on_close: Callable[[BaseException], None] | None = None,
                 on_malformed: Callable[[MalformedMessage], None] | None = None,
                 write_after_eof: bool = False,
                 child: ChildProcess | None = None) -> None:
        self.peer = peer
        self.tracer = tracer
        self.child = child
        self._reader = reader
        self._writer = writer
        self._framer: MessageFramer = framer if framer is not None else Framer(peer)
        self._encode = encode
        self._on_message = on_message
        self._on_close = on_close
        self._on_malformed = on_malformed
        self._write_after_eof = write_after_eof
        self._writer_closed = False
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._closed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
        self._task: asyncio.Future[None] | None = None
        self._eof_seen = False
        self.last_received = asyncio.get_running_loop().time()  # when the peer last sent a message
        if child is not None and reader is None:
            # parse in the pipe's callback: no reader task, one loop iteration less per message
            child.take_stdout(self._feed)
        else:
            self._task = asyncio.ensure_future(self._read_loop())

    @classmethod
    def over_child(cls, child: ChildProcess, **kwargs: Any) -> FramedConnection:
        """A connection over a child's stdout (in) and stdin (out); it closes with ChildExited."""
        kwargs.setdefault("peer", child.peer)
        kwargs.setdefault("tracer", child.tracer)
        return cls(None, child.stdin, child=child, **kwargs)

    def _feed(self, chunk: bytes) -> None:
        if self._closed.done() or self._eof_seen:
            return
        self._eof_seen = not chunk
        try:
            self._framer.receive_data(chunk)
            self._deliver()
        except EOFError:
            self._task = asyncio.ensure_future(self._close_at_eof())
        except RemoteProtocolError as exc:
            self._finish(exc)
        except Exception as exc:  # noqa: BLE001 - a bug in an on_message callback: fail the waiters with it
            self._finish(exc)

    async def _close_at_eof(self) -> None:
        self._finish(await self._eof_error())

    def _deliver(self) -> None:
        while True:
            try:
                message = self._framer.next_message()
            except MalformedMessage as exc:
                if self._on_malformed is None:
                    raise
                self._on_malformed(exc)
                continue
            if message is NEED_DATA:
                return
            if message is CLOSED:
                raise EOFError
            self.last_received = asyncio.get_running_loop().time()
            if self.tracer is not None:
                self.tracer("recv", self.peer, message)
            if self._on_message is not None:
                self._on_message(message)
            else:
                self._queue.put_nowait(message)

    # State ----------------------------------------------------------------------------

    @property
    def is_closed(self) -> bool:
        return self._closed.done()

    @property
    def can_send(self) -> bool:
        """Whether `send` can still write: while open, and after EOF with `write_after_eof`."""
        return not self._writer_closed and (not self._closed.done() or self._write_after_eof)

    @property
    def exception(self) -> BaseException | None:
        """Why the connection closed, once it has."""
        return self._closed.result() if self._closed.done() else None

    async def wait_closed(self) -> BaseException:
        """Wait until the connection closes; the exception it closed with."""
        return await asyncio.shield(self._closed)

    # Sending --------------------------------------------------------------------------

    async def send(self, obj: dict[str, Any]) -> None:
        """Frame and write `obj`; raises the closing exception if the connection is closed."""
        if not self.can_send:
            raise self._closed.result() if self._closed.done() else ConnectionClosed(
                f"connection to {self.peer} was closed locally", peer=self.peer)
        data = self._encode(obj)
        if self.tracer is not None:
            self.tracer("send", self.peer, obj)
        # write() appends the whole frame to the transport's buffer at once, so concurrent
        # senders never interleave bytes; drain() supports concurrent waiters (3.10+)
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (ConnectionError, RuntimeError, OSError) as exc:
            # the pipe broke under us: the reader will see EOF and say why; wait for it briefly
            self._writer_closed = self._writer_closed or self._write_after_eof
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._closed), 2.0)
            if self._closed.done():
                raise self._closed.result() from exc
            raise ConnectionClosed(f"writing to {self.peer} failed: {exc}", peer=self.peer) from exc

    # Receiving ------------------------------------------------------------------------

    async def receive(self) -> dict[str, Any]:
        """The next message (queue mode); raises the closing exception once drained and closed."""
        return await take_or_raise(self._queue, self._closed)

    async def _read_loop(self) -> None:
        error: BaseException
        try:
            while True:
                assert self._reader is not None  # no reader: the child's stdout feeds the framer
                chunk = await self._reader.read(65536)
                self._framer.receive_data(chunk)
                self._deliver()
        except EOFError:
            error = await self._eof_error()
        except RemoteProtocolError as exc:
            error = exc
        except asyncio.CancelledError:
            error = ConnectionClosed(f"connection to {self.peer} was closed locally", peer=self.peer)
        except (ConnectionError, OSError) as exc:
            error = await self._eof_error(str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug in an on_message callback: fail the waiters with it
            error = exc
        self._finish(error)

    async def _eof_error(self, detail: str = "") -> BaseException:
        if self.child is None:
            return ConnectionClosed(f"{self.peer} closed the connection" + (f" ({detail})" if detail else ""), peer=self.peer)
        # stdout closed: the child is exiting; wait (bounded) for its code and stderr
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.child.wait(), 5.0)
        return ChildExited(self.peer, self.child.returncode, self.child.stderr_tail())

    def _finish(self, error: BaseException) -> None:
        if self._closed.done():
            return
        self._closed.set_result(error)
        if self.tracer is not None:
            self.tracer("event", self.peer, {"event": "closed", "reason": str(error)})
        if self._on_close is not None:
            self._on_close(error)

    async def close(self) -> None:
        """Stop reading and close the writer. Does not stop a child (that is `ChildProcess.stop`)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._finish(ConnectionClosed(f"connection to {self.peer} was closed locally", peer=self.peer))
        self._writer_closed = True
        with contextlib.suppress(Exception):
            self._writer.close()
