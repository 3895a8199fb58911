"""JSON-RPC 2.0 over a FramedConnection: request/response correlation by id, notifications,
and a handler table for what the peer sends us.

Every request the peer sends gets exactly one response: its handler's result, an error
response when the handler raises RPCError, INTERNAL_ERROR for any other exception, and
METHOD_NOT_FOUND when no handler is registered (the LSP client registers a default so
that nothing a server asks goes unanswered). A request whose handler `cancel_incoming`
cancelled gets none (MCP's rule for a cancelled request).

With ``answer_malformed=True`` (the servers minitools runs for a host: ``serve``, ``mcp``) a
message that is not JSON gets a -32700 error response, JSON that is not a JSON-RPC message a
-32600 one (with its id when it has a usable one), and the endpoint keeps reading; without it
(a child we started) a broken message closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    ErrorResponse,
    LineFramer,
    LocalProtocolError,
    MalformedMessage,
    Notification,
    RemoteProtocolError,
    Request,
    Response,
    encode_line,
    parse_jsonrpc,
    to_json,
)
from minitools.transport._child import ChildProcess
from minitools.transport._connection import FramedConnection
from minitools.transport._stdio import open_stdio

__all__ = ["JSONRPCEndpoint", "RPCError", "RequestHandler", "NotificationHandler", "params_object"]

log = logging.getLogger("minitools.transport")

RequestHandler = Callable[[Any], Any | Awaitable[Any]]
NotificationHandler = Callable[[Any], Awaitable[None] | None]


class RPCError(Exception):
    """An error response from the peer (or, raised in a handler, one we send back)."""

    def __init__(self, code: int, message: str, data: Any = None, *, method: str = "", peer: str = "peer") -> None:
        where = f"{peer} answered {method} with error {code}" if method else f"error {code}"
        super().__init__(f"{where}: {message}")
        self.code = code
        self.message = message
        self.data = data
        self.method = method
        self.peer = peer


def _expire(future: asyncio.Future[Any], method: str, timeout: float) -> None:
    if not future.done():
        future.set_exception(asyncio.TimeoutError(f"no answer to {method} within {timeout:g} s"))


class JSONRPCEndpoint:
    """Both sides of JSON-RPC over one connection.

    `cancel_method`, when set (LSP: ``"$/cancelRequest"``, MCP: ``"notifications/cancelled"``),
    is notified with ``{cancel_param: id}`` for a request that timed out or whose caller was
    cancelled. `cancel_incoming(id)` is the other direction: it cancels the handler of a request
    the peer sent, which then gets no answer.
    """

    def __init__(self, connection: FramedConnection | None = None, *, cancel_method: str | None = None,
                 default_request: RequestHandler | None = None, answer_malformed: bool = False,
                 cancel_param: str = "id") -> None:
        self.connection: FramedConnection | None = None
        self.cancel_method = cancel_method
        self.cancel_param = cancel_param
        self.answer_malformed = answer_malformed
        self.requests: dict[str, RequestHandler] = {}
        self.notifications: dict[str, NotificationHandler] = {}
        self.default_request = default_request
        self.default_notification: NotificationHandler | None = None
        self._pending: dict[int | str, tuple[str, asyncio.Future[Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._incoming: dict[int | str, asyncio.Task[Any]] = {}  # the peer's requests being handled
        self._cancel_answer: RPCError | None = None  # what requests cancelled together are answered
        if connection is not None:
            self.attach(connection)

    @classmethod
    def connect(cls, reader: asyncio.StreamReader, writer: Any, **kwargs: Any) -> JSONRPCEndpoint:
        """An endpoint over a new FramedConnection (keyword arguments go to the connection)."""
        endpoint_kwargs = {k: kwargs.pop(k) for k in ("cancel_method", "default_request", "answer_malformed", "cancel_param") if k in kwargs}
        endpoint = cls(**endpoint_kwargs)
        if endpoint.answer_malformed:
            kwargs.setdefault("on_malformed", endpoint._malformed)
        endpoint.attach(FramedConnection(reader, writer, on_message=endpoint.dispatch, on_close=endpoint._closed, **kwargs))
        return endpoint

    @classmethod
    async def over_stdio(cls, stdin: Any = None, stdout: Any = None, *, peer: str = "host",
                         max_line: int = 64 * 2**20, **kwargs: Any) -> JSONRPCEndpoint:
        """A server's endpoint for its host: newline-delimited JSON on stdin/stdout (the
        process's own by default), malformed lines answered, and answers to requests in flight
        still written after stdin ends."""
        reader, writer = await open_stdio(stdin, stdout)
        kwargs.setdefault("answer_malformed", True)
        return cls.connect(reader, writer, peer=peer, framer=LineFramer(peer, max_line=max_line),
                           encode=encode_line, write_after_eof=True, **kwargs)

    @classmethod
    def over_child(cls, child: ChildProcess, *, cancel_method: str | None = None,
                   default_request: RequestHandler | None = None, **kwargs: Any) -> JSONRPCEndpoint:
        """An endpoint over a child's stdio; pending requests fail with ChildExited when it exits."""
        endpoint = cls(cancel_method=cancel_method, default_request=default_request)
        endpoint.attach(FramedConnection.over_child(child, on_message=endpoint.dispatch, on_close=endpoint._closed, **kwargs))
        return endpoint

    def attach(self, connection: FramedConnection) -> None:
        """Bind to `connection` (created with ``on_message=self.dispatch, on_close=self._closed``)."""
        self.connection = connection

    @property
    def peer(self) -> str:
        return self.connection.peer if self.connection is not None else "peer"

    # Handlers -------------------------------------------------------------------------

    def on_request(self, method: str, handler: RequestHandler) -> None:
        """Answer the peer's `method` requests with `handler(params)` (sync or async)."""
        self.requests[method] = handler

    def on_notification(self, method: str, handler: NotificationHandler) -> None:
        """Call `handler(params)` for the peer's `method` notifications."""
        self.notifications[method] = handler

    # Outgoing -------------------------------------------------------------------------

    async def request(self, method: str, params: Any = None, timeout: float | None = 30.0) -> Any:
        """Send a request and wait for its result.

        Raises RPCError for an error response, ChildExited / ConnectionClosed when the peer
        goes away first, asyncio.TimeoutError after `timeout` seconds.
        """
        conn = self._require()
        if conn.is_closed:
            raise conn.exception  # type: ignore[misc]
        request_id = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending[request_id] = (method, future)
        # A timer on the future itself rather than asyncio.wait_for: wait_for wraps the wait
        # in a task, which costs an event-loop iteration per request (benchmarks/bench_protocol.py).
        timer = loop.call_later(timeout, _expire, future, method, timeout) if timeout is not None else None
        try:
            await conn.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
                            if params is not None else {"jsonrpc": "2.0", "id": request_id, "method": method})
            return await future
        except (asyncio.TimeoutError, asyncio.CancelledError):
            if self.cancel_method and not conn.is_closed:
                with contextlib.suppress(Exception):
                    await conn.send(to_json(Notification(self.cancel_method, {self.cancel_param: request_id})))
            raise
        finally:
            if timer is not None:
                timer.cancel()
            self._pending.pop(request_id, None)
            if not future.done():
                future.cancel()

    async def notify(self, method: str, params: Any = None) -> None:
        """Send a notification."""
        await self._require().send(to_json(Notification(method, params)))

    def _require(self) -> FramedConnection:
        if self.connection is None:
            raise RuntimeError("JSONRPCEndpoint has no connection; attach one first")
        return self.connection

    # Incoming -------------------------------------------------------------------------

    def dispatch(self, message: dict[str, Any]) -> None:
        """Route one incoming message (the connection's `on_message`)."""
        try:
            envelope = parse_jsonrpc(message, peer=self.peer)
        except RemoteProtocolError as exc:
            # One bad envelope is the peer's bug, not a reason to drop the connection.
            log.warning("%s", exc)
            if self.answer_malformed:
                id_ = message.get("id")
                usable = isinstance(id_, (int, str)) and not isinstance(id_, bool)
                self._reply_soon(ErrorResponse(id_ if usable else None, INVALID_REQUEST, f"invalid request: {exc.reason}"))
            return
        if isinstance(envelope, (Response, ErrorResponse)):
            entry = self._pending.get(envelope.id) if envelope.id is not None else None
            if entry is None:
                return  # a late answer to a request we gave up on
            method, future = entry
            if future.done():
                return
            if isinstance(envelope, Response):
                future.set_result(envelope.result)
            else:
                future.set_exception(RPCError(envelope.code, envelope.message, envelope.data, method=method, peer=self.peer))
            return
        task = asyncio.ensure_future(self._handle(envelope))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, envelope: Request | Notification) -> None:
        if isinstance(envelope, Notification):
            handler = self.notifications.get(envelope.method, self.default_notification)
            if handler is None:
                return
            try:
                outcome = handler(envelope.params)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:
                log.exception("handler for %s notification %s failed", self.peer, envelope.method)
            return
        handler = self.requests.get(envelope.method)
        reply: Response | ErrorResponse
        task = asyncio.current_task()
        if task is not None and envelope.id is not None:
            self._incoming[envelope.id] = task
        try:
            if handler is not None:
                result = handler(envelope.params)
            elif self.default_request is not None:
                result = self.default_request({"method": envelope.method, "params": envelope.params})
            else:
                known = ", ".join(self.requests) or "none"
                raise RPCError(METHOD_NOT_FOUND, f"method not found: {envelope.method!r}; the methods here are {known}")
            if inspect.isawaitable(result):
                result = await result
            reply = Response(envelope.id, result)
        except RPCError as exc:
            reply = ErrorResponse(envelope.id, exc.code, exc.message, exc.data)
        except asyncio.CancelledError:
            if self._cancel_answer is None:
                raise  # cancelled by the peer: no answer
            error = self._cancel_answer
            reply = ErrorResponse(envelope.id, error.code, error.message, error.data)
        except Exception as exc:
            log.exception("handler for %s request %s failed", self.peer, envelope.method)
            reply = ErrorResponse(envelope.id, INTERNAL_ERROR, f"{type(exc).__name__}: {exc}")
        finally:
            if envelope.id is not None and self._incoming.get(envelope.id) is task:
                del self._incoming[envelope.id]
        await self._send_reply(reply)

    def incoming_id(self) -> Any:
        """The id of the peer's request whose handler is running now (None outside one): a
        long-lived request's handler names itself in what it sends (MCP's subscriptions)."""
        task = asyncio.current_task()
        return next((request_id for request_id, handler in self._incoming.items() if handler is task), None)

    def cancel_incoming(self, request_id: Any) -> bool:
        """Cancel the handler of the peer's request `request_id` (it gets no answer).
        False when no such request is being handled (it finished, or never came)."""
        task = self._incoming.get(request_id) if isinstance(request_id, (int, str)) else None
        if task is None or task.done():
            return False
        task.cancel()
        return True

    def cancel_incoming_all(self, answer: RPCError | None = None) -> None:
        """Cancel every handler of the peer's requests still running (the peer has gone, or is
        going). With `answer`, each cancelled request is answered with that error."""
        self._cancel_answer = answer
        for task in list(self._incoming.values()):
            task.cancel()

    async def _send_reply(self, reply: Response | ErrorResponse) -> None:
        conn = self.connection
        if conn is not None and conn.can_send:
            with contextlib.suppress(Exception):
                try:
                    await conn.send(to_json(reply))
                except LocalProtocolError as exc:
                    # a result that cannot be written still gets its one answer, or the peer waits forever
                    log.error("the reply to %s request %r could not be written: %s", self.peer, reply.id, exc)
                    await conn.send(to_json(ErrorResponse(reply.id, INTERNAL_ERROR, f"the reply could not be written: {exc}")))

    def _reply_soon(self, reply: ErrorResponse) -> None:
        task = asyncio.ensure_future(self._send_reply(reply))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _malformed(self, exc: MalformedMessage) -> None:
        """Answer a message that was not JSON (the connection's `on_malformed`)."""
        log.warning("%s", exc)
        self._reply_soon(ErrorResponse(exc.request_id, exc.code,
                                       f"{exc.reason}. Send each message as one JSON-RPC 2.0 object."))

    async def wait_idle(self) -> None:
        """Wait until no handler is running (the answers to requests in flight are sent)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _closed(self, error: BaseException) -> None:
        """Fail every pending request with the connection's closing exception (its `on_close`)."""
        for _method, future in list(self._pending.values()):
            if not future.done():
                future.set_exception(error)
                # the waiter may already be gone (timed out); don't warn about an unretrieved error
                future.add_done_callback(lambda f: f.exception())

    async def close(self) -> None:
        """Close the connection and cancel handlers still running."""
        for task in list(self._tasks):
            task.cancel()
        if self.connection is not None:
            await self.connection.close()


def params_object(params: Any) -> dict[str, Any]:
    """A request's params as an object (absent means empty); INVALID_PARAMS otherwise."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise RPCError(INVALID_PARAMS, f"params must be an object, got {type(params).__name__}")
    return params
