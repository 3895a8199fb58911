"""A Chrome DevTools Protocol session over the inspector's WebSocket.

Each text message is one JSON object: a command we send is ``{id, method, params}``, its answer
``{id, result}`` or ``{id, error: {code, message}}``; anything with a ``method`` and no ``id``
is an event (docs/architecture.md, "The V8 inspector"). An event goes to the first waiter for
its method, else it is held, oldest dropped past `max_events`, until `wait_event` takes it, so
an event that arrives before its waiter is not lost; with `on_event`, every event goes to that
callback instead (a debug adapter reacts to all of them, in order). When the socket ends, every
pending request and waiter fails with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minitools.protocol import RemoteProtocolError
from minitools.tracing import Tracer
from minitools.transport import ChildExited, ChildProcess, ConnectionClosed, WebSocketConnection

__all__ = ["InspectorSession", "CDPError", "CDPEvent"]


class CDPError(Exception):
    """The inspector answered a command with an error."""

    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"the inspector refused {method}: {message} (code {code})")
        self.method = method
        self.code = code
        self.message = message


@dataclass(frozen=True)
class CDPEvent:
    method: str
    params: dict[str, Any]


class InspectorSession:
    """Commands and events over one inspector connection. ``await InspectorSession.connect(url)``;
    `child`, when given, is the node behind it: a closed socket then reports its exit."""

    def __init__(self, ws: WebSocketConnection, *, child: ChildProcess | None = None, max_events: int = 1024,
                 on_event: Callable[[CDPEvent], None] | None = None) -> None:
        self.ws = ws
        self.on_event = on_event
        self.peer = ws.peer
        self.child = child
        self._next_id = 0
        self._pending: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._events: deque[CDPEvent] = deque(maxlen=max_events)
        self._waiters: list[tuple[str, asyncio.Future[dict[str, Any]]]] = []
        self._closed: BaseException | None = None
        self._task = asyncio.ensure_future(self._read_loop())

    @classmethod
    async def connect(cls, url: str, *, child: ChildProcess | None = None, timeout: float = 10.0,
                      tracer: Tracer | None = None, max_message: int = 64 * 2**20, max_events: int = 1024,
                      on_event: Callable[[CDPEvent], None] | None = None) -> InspectorSession:
        """Open the WebSocket at `url` (the inspector's ``ws://`` URL) within `timeout` s."""
        ws = await WebSocketConnection.connect(url, peer="node" if child is not None else "inspector", timeout=timeout,
                                               max_message=max_message, tracer=tracer)
        return cls(ws, child=child, max_events=max_events, on_event=on_event)

    async def request(self, method: str, params: dict[str, Any] | None = None, *, timeout: float = 10.0) -> dict[str, Any]:
        """Send a command and wait (at most `timeout` s) for its result; CDPError if refused."""
        if self._closed is not None:
            raise self._closed
        self._next_id += 1
        ident = self._next_id
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = (method, answer)
        try:
            await self.ws.send_text(json.dumps({"id": ident, "method": method, "params": params or {}}))
            return await asyncio.wait_for(asyncio.shield(answer), timeout)
        except asyncio.TimeoutError:
            raise asyncio.TimeoutError(f"{self.peer} did not answer {method} within {timeout:g} s") from None
        finally:
            self._pending.pop(ident, None)

    async def wait_event(self, method: str, *, timeout: float = 10.0) -> dict[str, Any]:
        """The params of the oldest held event named `method` (taken from the held events), or
        of the next to arrive within `timeout` s (handed to this waiter, never held)."""
        for event in self._events:
            if event.method == method:
                self._events.remove(event)
                return event.params
        if self._closed is not None:
            raise self._closed
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters.append((method, waiter))
        try:
            return await asyncio.wait_for(waiter, timeout)
        except asyncio.TimeoutError:
            raise asyncio.TimeoutError(f"{self.peer} sent no {method} event within {timeout:g} s") from None
        finally:
            self._waiters.remove((method, waiter))

    def held_events(self) -> list[CDPEvent]:
        """The events not yet taken by `wait_event`, oldest first."""
        return list(self._events)

    async def _read_loop(self) -> None:
        error: BaseException
        try:
            while True:
                self._dispatch(self._decode(await self.ws.receive()))
        except (ConnectionClosed, RemoteProtocolError) as exc:
            error = await self._why_closed(exc)
        except asyncio.CancelledError:
            error = ConnectionClosed(f"the session with {self.peer} was closed locally", peer=self.peer)
        self._fail(error)
        if not self.ws.is_closed:  # the socket is sound but what came over it is not CDP
            await self.ws.close(1002, timeout=2.0)

    def _decode(self, message: str | bytes) -> dict[str, Any]:
        if isinstance(message, bytes):
            raise RemoteProtocolError(f"sent a binary message of {len(message)} bytes; the inspector speaks JSON text", peer=self.peer)
        try:
            obj = json.loads(message)
        except (ValueError, RecursionError):
            raise RemoteProtocolError(f"sent a message that is not JSON: {message[:80]!r}", peer=self.peer) from None
        if not isinstance(obj, dict):
            raise RemoteProtocolError(f"sent JSON that is not an object: {message[:80]!r}", peer=self.peer)
        return obj

    def _dispatch(self, message: dict[str, Any]) -> None:
        ident = message.get("id")
        if isinstance(ident, int) and not isinstance(ident, bool):
            method, answer = self._pending.get(ident, ("", None))
            if answer is None or answer.done():
                return  # the answer to a request that timed out
            error = message.get("error")
            result = message.get("result", {})
            if isinstance(error, dict):
                code, text = error.get("code"), error.get("message")
                answer.set_exception(CDPError(method, code if isinstance(code, int) else 0, str(text)))
            elif isinstance(result, dict):
                answer.set_result(result)
            else:
                answer.set_exception(RemoteProtocolError(f"answered {method} with a result that is not an object: {result!r:.80}",
                                                         peer=self.peer))
            return
        name, params = message.get("method"), message.get("params", {})
        if not isinstance(name, str) or not isinstance(params, dict):
            return
        if self.on_event is not None:
            self.on_event(CDPEvent(name, params))
            return
        for wanted, waiter in self._waiters:
            if wanted == name and not waiter.done():
                waiter.set_result(params)
                return
        self._events.append(CDPEvent(name, params))

    async def _why_closed(self, exc: BaseException) -> BaseException:
        if self.child is None or isinstance(exc, RemoteProtocolError):
            return exc
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.child.wait(), 2.0)
        if self.child.returncode is None:
            return exc
        return ChildExited(self.peer, self.child.returncode, self.child.stderr_tail())

    def _fail(self, error: BaseException) -> None:
        self._closed = error
        for _, answer in [*self._pending.values(), *self._waiters]:
            if not answer.done():
                answer.set_exception(error)

    @property
    def is_closed(self) -> bool:
        return self._closed is not None

    async def wait_closed(self) -> BaseException:
        """Wait for the session to end; why it ended (ChildExited when node exited under it)."""
        await asyncio.shield(self._task)
        assert self._closed is not None
        return self._closed

    async def close(self, *, timeout: float = 2.0) -> None:
        """Close the WebSocket (node then lets a finished program exit)."""
        await self.ws.close(timeout=timeout)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        if not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
