"""The DAP server side of the node adapter: requests read from stdin, answered on stdout.

DAP's base protocol is the LSP framing (`Content-Length` headers, protocol/_framing.py); a
request is `{seq, type: "request", command, arguments}`, its response `{seq, type: "response",
request_seq, command, success, message?, body}`, and an event `{seq, type: "event", event, body}`.
Requests are handled one at a time in the order they came, so `setBreakpoints` never overtakes
the `launch` before it; a handler may hand its response back later (launch answers after
`configurationDone`) by returning a future.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.protocol import MalformedMessage
from minitools.transport import ConnectionClosed, FramedConnection

__all__ = ["DAPServer", "RequestFailed", "Handler"]

Handler = Callable[[dict[str, Any]], Awaitable["dict[str, Any] | asyncio.Future[dict[str, Any]]"]]


class RequestFailed(Exception):
    """A request the adapter refuses; the message is the response's `message`, shown to the user."""


class DAPServer:
    """Dispatch DAP requests to `handlers` (command → coroutine returning the response body)."""

    def __init__(self, reader: asyncio.StreamReader, writer: Any) -> None:
        self._seq = 0
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.conn = FramedConnection(reader, writer, peer="client", on_message=self._queue.put_nowait,
                                     on_close=lambda exc: self._queue.put_nowait(None),
                                     on_malformed=self._malformed, write_after_eof=True)
        self.handlers: dict[str, Handler] = {}
        self.done = asyncio.Event()  # set to stop serving (after disconnect)
        self._later: set[asyncio.Future[Any]] = set()

    def _malformed(self, exc: MalformedMessage) -> None:
        self.send_event("output", {"category": "console", "output": f"minitools node adapter: ignored a message: {exc}\n"})

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for the client (a closed connection drops it)."""
        message["seq"] = self._next()
        task = asyncio.ensure_future(self._write(message))
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _write(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            await self.conn.send(message)

    def send_event(self, event: str, body: dict[str, Any] | None = None) -> None:
        self.send({"type": "event", "event": event, "body": body or {}})

    def _respond(self, request: dict[str, Any], body: dict[str, Any] | None, error: str = "") -> None:
        reply: dict[str, Any] = {"type": "response", "request_seq": request.get("seq"), "command": request.get("command"),
                                 "success": not error, "body": body or {}}
        if error:
            reply["message"] = error
            reply["body"] = {"error": {"id": 1, "format": error, "showUser": True}}
        self.send(reply)

    async def serve(self) -> None:
        """Answer requests until the client goes away or `done` is set."""
        stop = asyncio.ensure_future(self.done.wait())
        try:
            while not self.done.is_set():
                get = asyncio.ensure_future(self._queue.get())
                await asyncio.wait({get, stop}, return_when=asyncio.FIRST_COMPLETED)
                if not get.done():
                    get.cancel()
                    break
                message = get.result()
                if message is None:
                    break
                if message.get("type") == "request" and isinstance(message.get("command"), str):
                    await self._dispatch(message)
        finally:
            stop.cancel()
        if self._later:  # the last responses and events reach the client
            await asyncio.wait(list(self._later), timeout=2.0)

    async def _dispatch(self, request: dict[str, Any]) -> None:
        command = request["command"]
        handler = self.handlers.get(command)
        if handler is None:
            self._respond(request, None, f"the minitools node adapter does not handle {command!r}")
            return
        arguments = request.get("arguments")
        try:
            answer = await handler(arguments if isinstance(arguments, dict) else {})
        except RequestFailed as exc:
            self._respond(request, None, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - node or the inspector failed under the request: say so
            self._respond(request, None, str(exc) or type(exc).__name__)
            return
        if isinstance(answer, asyncio.Future):
            answer.add_done_callback(lambda fut: self._respond(request, *_outcome(fut)))
        else:
            self._respond(request, answer)


def _outcome(fut: asyncio.Future[dict[str, Any]]) -> tuple[dict[str, Any] | None, str]:
    if fut.cancelled():
        return None, "cancelled"
    exc = fut.exception()
    return (None, str(exc)) if exc is not None else (fut.result(), "")
