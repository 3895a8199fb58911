"""A WebSocket client connection over TCP: the asyncio loop around `protocol.WebSocketClient`.

    ws = await WebSocketConnection.connect("ws://127.0.0.1:9229/uuid", peer="node", timeout=10)
    await ws.send_text('{"id": 1, "method": "Runtime.enable"}')
    text = await ws.receive()
    await ws.close()

Only ``ws://`` (no TLS: the servers it serves listen on loopback). Every wait is bounded: the
connect and handshake by `timeout`, the close handshake by its own timeout. Pings are answered
and a peer's close is echoed as they are read. The connection ends with an exception that every
`receive()` then raises: ConnectionClosed (the peer's close frame, with its code, or the stream's
end) or the RemoteProtocolError that broke it, after which the peer was sent the close code the
error calls for (1002, 1007 or 1009) and the socket was closed. Messages wait in a queue until
`receive()` takes them, as `FramedConnection`'s do: a reader keeps up (the inspector session
reads continuously and holds a bounded number of events).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from urllib.parse import urlsplit

from minitools.protocol import (
    CLOSED,
    NEED_DATA,
    Accepted,
    BinaryMessage,
    CloseReceived,
    RemoteProtocolError,
    TextMessage,
    WebSocketClient,
    WebSocketState,
)
from minitools.tracing import Tracer
from minitools.transport._errors import ConnectionClosed
from minitools.transport._inbox import take_or_raise

__all__ = ["WebSocketConnection"]

_CHUNK = 65536


def _split_url(url: str) -> tuple[str, int, str, str]:
    """(host, port, Host header, path) of a ``ws://`` URL; ValueError naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme != "ws":
        raise ValueError(f"{url!r} is not a ws:// URL (wss:// and other schemes are not supported)")
    if not parts.hostname:
        raise ValueError(f"{url!r} names no host")
    port = parts.port or 80
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.hostname, port, parts.netloc, path


class WebSocketConnection:
    """One open WebSocket connection; create it with ``await WebSocketConnection.connect(url)``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, client: WebSocketClient, *,
                 tracer: Tracer | None = None) -> None:
        self.peer = client.peer
        self.client = client
        self.tracer = tracer
        self._reader = reader
        self._writer = writer
        self._queue: asyncio.Queue[str | bytes] = asyncio.Queue()
        self._closed: asyncio.Future[BaseException] = asyncio.get_running_loop().create_future()
        self._peer_close: CloseReceived | None = None
        self._task = asyncio.ensure_future(self._read_loop())

    @classmethod
    async def connect(cls, url: str, *, peer: str = "peer", timeout: float = 10.0, max_message: int = 64 * 2**20,
                      tracer: Tracer | None = None) -> WebSocketConnection:
        """Open the TCP connection and complete the handshake within `timeout` seconds.

        Raises ValueError for a URL that is not ``ws://``, ConnectionClosed when the connection
        cannot be made or the server does not answer in time, RemoteProtocolError when its
        answer is not an acceptance."""
        host, port, netloc, path = _split_url(url)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=_CHUNK), timeout)
        except asyncio.TimeoutError:
            raise ConnectionClosed(f"could not connect to {peer} at {url} within {timeout:g} s", peer=peer) from None
        except OSError as exc:
            raise ConnectionClosed(f"could not connect to {peer} at {url}: {exc.strerror or exc}", peer=peer) from None
        client = WebSocketClient(netloc, path, random_bytes=secrets.token_bytes, peer=peer, max_message=max_message)
        try:
            writer.write(client.initiate())
            while True:
                event = client.next_event()
                if isinstance(event, Accepted):
                    break
                if event is not NEED_DATA:  # the handshake's reader sees nothing else
                    raise RemoteProtocolError(f"unexpected {event!r} during the handshake", peer=peer)
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise asyncio.TimeoutError
                client.receive_data(await asyncio.wait_for(reader.read(_CHUNK), remaining))
        except asyncio.TimeoutError:
            writer.close()
            raise ConnectionClosed(f"{peer} did not answer the WebSocket handshake at {url} within {timeout:g} s", peer=peer) from None
        except (ConnectionError, OSError) as exc:
            writer.close()
            raise ConnectionClosed(f"{peer} dropped the connection during the WebSocket handshake: {exc}", peer=peer) from None
        except BaseException:
            writer.close()
            raise
        if tracer is not None:
            tracer("event", peer, {"event": "websocket open", "url": url})
        return cls(reader, writer, client, tracer=tracer)

    # State ----------------------------------------------------------------------------

    @property
    def is_closed(self) -> bool:
        return self._closed.done()

    @property
    def exception(self) -> BaseException | None:
        """Why the connection closed, once it has."""
        return self._closed.result() if self._closed.done() else None

    async def wait_closed(self) -> BaseException:
        """Wait until the connection ends; the exception it ended with."""
        return await asyncio.shield(self._closed)

    # Sending --------------------------------------------------------------------------

    async def send_text(self, text: str) -> None:
        """Send one text message; raises the closing exception once the connection ended."""
        await self._write(lambda: self.client.send_text(text), text)

    async def send_binary(self, data: bytes) -> None:
        """Send one binary message; raises the closing exception once the connection ended."""
        await self._write(lambda: self.client.send_binary(data), f"<{len(data)} bytes>")

    async def _write(self, frame: Callable[[], bytes], shown: str) -> None:
        if self._closed.done():
            raise self._closed.result()
        if self.client.state is not WebSocketState.OPEN:
            raise ConnectionClosed(f"the WebSocket to {self.peer} is {self.client.state.value}", peer=self.peer)
        if self.tracer is not None:
            self.tracer("send", self.peer, {"websocket": shown})
        try:
            self._writer.write(frame())
            await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            self._finish(ConnectionClosed(f"writing to {self.peer} failed: {exc}", peer=self.peer))
            raise self._closed.result() from exc

    # Receiving ------------------------------------------------------------------------

    async def receive(self) -> str | bytes:
        """The next message (text as str, binary as bytes); raises the closing exception once
        the messages that arrived before it are read."""
        return await take_or_raise(self._queue, self._closed)

    async def _read_loop(self) -> None:
        error: BaseException
        try:
            while True:
                if self._pump():
                    error = ConnectionClosed(self._close_reason(), peer=self.peer)
                    break
                self.client.receive_data(await self._reader.read(_CHUNK))
        except RemoteProtocolError as exc:
            error = exc
            with contextlib.suppress(Exception):
                self._writer.write(self.client.send_close(self.client.fail_code))
        except asyncio.CancelledError:
            error = ConnectionClosed(f"the WebSocket to {self.peer} was closed locally", peer=self.peer)
        except (ConnectionError, OSError) as exc:
            error = ConnectionClosed(f"{self.peer} dropped the connection: {exc}", peer=self.peer)
        self._finish(error)
        with contextlib.suppress(Exception):
            self._writer.close()

    def _pump(self) -> bool:
        """Deliver the events buffered and write the replies they queued; True once the
        connection has ended (the peer's close, or the stream's end)."""
        while True:
            event = self.client.next_event()
            replies = self.client.data_to_send()
            if replies:
                self._writer.write(replies)
            if event is NEED_DATA:
                return False
            if isinstance(event, CloseReceived):
                self._peer_close = event
                return True
            if event is CLOSED:
                return True
            if isinstance(event, TextMessage | BinaryMessage):
                message = event.text if isinstance(event, TextMessage) else event.data
                if self.tracer is not None:
                    self.tracer("recv", self.peer, {"websocket": message if isinstance(message, str) else f"<{len(message)} bytes>"})
                self._queue.put_nowait(message)

    def _close_reason(self) -> str:
        close = self._peer_close
        if close is None:
            return f"{self.peer} closed the connection without a WebSocket close frame"
        if close.code is None:
            return f"{self.peer} closed the WebSocket (no close code)"
        return f"{self.peer} closed the WebSocket (code {close.code}" + (f": {close.reason!r})" if close.reason else ")")

    def _finish(self, error: BaseException) -> None:
        if not self._closed.done():
            self._closed.set_result(error)
            if self.tracer is not None:
                self.tracer("event", self.peer, {"event": "closed", "reason": str(error)})

    async def close(self, code: int = 1000, reason: str = "", *, timeout: float = 2.0) -> None:
        """Send our close frame, wait (at most `timeout` s) for the peer's, then close the socket."""
        if not self._closed.done() and self.client.state is WebSocketState.OPEN:
            with contextlib.suppress(Exception):
                self._writer.write(self.client.send_close(code, reason))
                await asyncio.wait_for(self._writer.drain(), timeout)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._closed), timeout)
        if not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._finish(ConnectionClosed(f"the WebSocket to {self.peer} was closed locally", peer=self.peer))
        self._writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.wait_closed(), timeout)
