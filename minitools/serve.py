"""`minitools serve`: one Run per process, newline-delimited JSON-RPC 2.0 over stdio.

Host → server requests:
- ``tools {surface?, format?}`` → ``{"tools": [exported schema + tier + parallel_safe, ...]}``
- ``call {tool, args?, surface?}`` → ``{ok, text, data, images: [{mime, base64}]}``
- ``written {paths}`` → the same result shape, with only the new diagnostics
Server → host requests:
- ``ask`` with a question card (permission cards too) → ``{choices, text?}`` or ``{skipped: true}``
- ``approve {tool, tier, args}`` → ``{approved: bool, reason?}`` (with ``--approve host``)

A malformed line gets a JSON-RPC error response and the server keeps going. Requests
are handled concurrently; responses may come back in any order, matched by id.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, BinaryIO

from minitools.protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    ErrorResponse,
    Notification,
    RemoteProtocolError,
    Request,
    Response,
    parse_jsonrpc,
    to_json,
)
from minitools.registry import Surface
from minitools.run import Run
from minitools.schema import export
from minitools.toolspec import ToolSpec

__all__ = ["Server", "serve_stdio"]

MAX_LINE = 64 * 2**20


class HostError(Exception):
    """The host answered one of our requests with an error."""


class Server:
    """The JSON-RPC front of one Run. `write_line` sends one encoded line to the host."""

    def __init__(self, write_line: Callable[[bytes], None]) -> None:
        self._write_line = write_line
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.run: Run | None = None

    # Outgoing --------------------------------------------------------------------------

    def _send(self, message: Mapping[str, Any]) -> None:
        self._write_line(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    def _respond(self, id_: Any, result: Any) -> None:
        self._send(to_json(Response(id_, result)))

    def _error(self, id_: Any, code: int, message: str, data: Any = None) -> None:
        self._send(to_json(ErrorResponse(id_, code, message, data)))

    async def request_host(self, method: str, params: Mapping[str, Any]) -> Any:
        """Send a request to the host and wait for its answer."""
        id_ = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[id_] = future
        self._send(to_json(Request(id_, method, dict(params))))
        try:
            return await future
        finally:
            self._pending.pop(id_, None)

    async def approve_via_host(self, spec: ToolSpec, args: Mapping[str, Any]) -> bool | str:
        try:
            answer = await self.request_host("approve", {"tool": spec.name, "tier": spec.tier.value, "args": dict(args)})
        except HostError as exc:
            return f"the host could not approve ({exc})"
        if isinstance(answer, Mapping) and answer.get("approved") is True:
            return True
        reason = answer.get("reason") if isinstance(answer, Mapping) else None
        return str(reason) if reason else False

    # Incoming --------------------------------------------------------------------------

    def receive_line(self, line: bytes) -> None:
        """Handle one line from the host (requests run as tasks)."""
        line = line.strip()
        if not line:
            return
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            shown = line[:80].decode("utf-8", "replace")
            self._error(None, PARSE_ERROR, f"parse error: {exc}; the line was {shown!r}. Send one JSON object per line.")
            return
        try:
            envelope = parse_jsonrpc(message, peer="host")
        except RemoteProtocolError as exc:
            id_ = message.get("id") if isinstance(message, dict) else None
            valid_id = isinstance(id_, (int, str)) and not isinstance(id_, bool)
            self._error(id_ if valid_id else None, INVALID_REQUEST, f"invalid request: {exc}")
            return
        if isinstance(envelope, (Request, Notification)):
            task = asyncio.get_running_loop().create_task(self._dispatch(envelope))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        # A response to one of our requests; one to nothing we asked is ignored.
        future = self._pending.get(envelope.id)  # type: ignore[arg-type]
        if future is None or future.done():
            return
        if isinstance(envelope, ErrorResponse):
            future.set_exception(HostError(envelope.message))
        else:
            future.set_result(envelope.result)

    async def _dispatch(self, envelope: Request | Notification) -> None:
        id_ = envelope.id if isinstance(envelope, Request) else None
        is_notification = isinstance(envelope, Notification)
        params = {} if envelope.params is None else envelope.params
        if not isinstance(params, dict):
            if not is_notification:
                self._error(id_, INVALID_PARAMS, "params must be an object")
            return
        handler = {"tools": self._tools, "call": self._call, "written": self._written}.get(envelope.method)
        if handler is None:
            if not is_notification:
                self._error(id_, METHOD_NOT_FOUND, f"method {envelope.method!r} not found; methods are tools, call, written")
            return
        try:
            result = await handler(params)
        except _ParamsError as exc:
            if not is_notification:
                self._error(id_, INVALID_PARAMS, str(exc))
            return
        except Exception as exc:  # a bug: report it to the host, keep serving
            if not is_notification:
                self._error(id_, INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}")
            return
        if not is_notification:
            self._respond(id_, result)

    def _need_run(self) -> Run:
        assert self.run is not None, "serve started without a Run"
        return self.run

    async def _tools(self, params: dict[str, Any]) -> Any:
        surface = params.get("surface", "full")
        fmt = params.get("format", "jsonschema")
        try:
            specs = self._need_run().tools(Surface.parse(surface))
            tools = [dict(export(s, fmt), tier=s.tier.value, parallel_safe=s.parallel_safe) for s in specs]
        except ValueError as exc:
            raise _ParamsError(str(exc)) from None
        return {"tools": tools}

    async def _call(self, params: dict[str, Any]) -> Any:
        tool = params.get("tool")
        if not isinstance(tool, str):
            raise _ParamsError('call needs "tool": the tool name as a string')
        args = params.get("args", {})
        if not isinstance(args, dict):
            raise _ParamsError('"args" must be an object of the tool\'s arguments')
        result = await self._need_run().call(tool, args, surface=params.get("surface", "full"))
        return result.to_json()

    async def _written(self, params: dict[str, Any]) -> Any:
        paths = params.get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise _ParamsError('written needs "paths": a list of file paths')
        return (await self._need_run().written(paths)).to_json()

    async def drain(self) -> None:
        """Wait for requests in flight, then fail our own pending requests."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(HostError("the host closed the connection"))


class _ParamsError(Exception):
    pass


async def serve_stdio(
    root: str,
    *,
    questions: str | None = None,
    approve: str = "host",
    vibe: str | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Serve one Run over stdin/stdout until stdin closes."""
    out = stdout or sys.stdout.buffer
    inp = stdin or sys.stdin.buffer

    def write_line(data: bytes) -> None:
        out.write(data)
        out.flush()

    server = Server(write_line)
    port = None
    if questions == "host":
        from minitools.ask import HostPort

        port = HostPort(server.request_host)
    approver: Any = None
    if approve == "host":
        approver = server.approve_via_host
    elif approve == "all":
        approver = lambda spec, args: True  # noqa: E731
    roster: Any = None
    if vibe:
        from minitools.vibe import Roster  # type: ignore[attr-defined]

        roster = Roster.from_toml(vibe)
    server.run = Run(root, questions=port, approve=approver, vibe=roster)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), inp)
    try:
        async with server.run:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # a line over the limit: skip to the next newline
                    server._error(None, PARSE_ERROR, f"line longer than {MAX_LINE} bytes was dropped")
                    continue
                if not line:
                    break
                server.receive_line(line)
            await server.drain()
    finally:
        transport.close()
    return 0
