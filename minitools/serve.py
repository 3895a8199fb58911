"""`minitools serve`: one Run per process, newline-delimited JSON-RPC 2.0 over stdio.

Host → server requests:
- ``tools {surface?, format?}`` → ``{"tools": [exported schema + tier + parallel_safe, ...]}``
- ``call {tool, args?, surface?}`` → ``{ok, text, data, images: [{mime, base64}]}``
- ``written {paths}`` → the same result shape, with only the new diagnostics
Server → host requests:
- ``ask`` with a question card (permission cards too) → ``{choices, text?}`` or ``{skipped: true}``
- ``approve {tool, tier, args}`` → ``{approved: bool, reason?}`` (with ``--approve host``)

It is the transport's one JSON-RPC endpoint over a line framer (`JSONRPCEndpoint.over_stdio`):
a malformed line gets a JSON-RPC error response and the server keeps going. Requests are
handled concurrently; responses may come back in any order, matched by id. When stdin ends,
the requests in flight are answered, then the Run is closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

from minitools.config import Config
from minitools.protocol import INVALID_PARAMS
from minitools.registry import Surface
from minitools.run import Run
from minitools.schema import listed
from minitools.toolspec import ToolSpec
from minitools.tracing import log_to_stderr
from minitools.transport import JSONRPCEndpoint, RPCError, params_object
from minitools.vibe import load_roster

__all__ = ["Server", "serve_stdio"]


class Server:
    """The JSON-RPC front of one Run: `attach` registers `tools`, `call` and `written` on an endpoint."""

    def __init__(self) -> None:
        self.endpoint: JSONRPCEndpoint | None = None
        self.run: Run | None = None

    def attach(self, endpoint: JSONRPCEndpoint) -> None:
        self.endpoint = endpoint
        endpoint.on_request("tools", self._tools)
        endpoint.on_request("call", self._call)
        endpoint.on_request("written", self._written)

    async def request_host(self, method: str, params: Mapping[str, Any]) -> Any:
        """Send a request to the host and wait for its answer (as long as it takes)."""
        if self.endpoint is None:
            raise RuntimeError("serve has no connection to its host yet")
        return await self.endpoint.request(method, dict(params), timeout=None)

    async def approve_via_host(self, spec: ToolSpec, args: Mapping[str, Any]) -> bool | str:
        try:
            answer = await self.request_host("approve", {"tool": spec.name, "tier": spec.tier.value, "args": dict(args)})
        except Exception as exc:  # noqa: BLE001 -- the host's error response, or the host went away
            return f"the host could not approve ({exc})"
        if isinstance(answer, Mapping) and answer.get("approved") is True:
            return True
        reason = answer.get("reason") if isinstance(answer, Mapping) else None
        return str(reason) if reason else False

    def _need_run(self) -> Run:
        assert self.run is not None, "serve started without a Run"
        return self.run

    async def _tools(self, params: Any) -> Any:
        params = params_object(params)
        surface = params.get("surface", "full")
        fmt = params.get("format", "jsonschema")
        try:
            specs = self._need_run().tools(Surface.parse(surface))
            tools = [listed(s, fmt) for s in specs]
        except ValueError as exc:
            raise RPCError(INVALID_PARAMS, str(exc)) from None
        return {"tools": tools}

    async def _call(self, params: Any) -> Any:
        params = params_object(params)
        tool = params.get("tool")
        if not isinstance(tool, str):
            raise RPCError(INVALID_PARAMS, 'call needs "tool": the tool name as a string')
        args = params.get("args", {})
        if not isinstance(args, dict):
            raise RPCError(INVALID_PARAMS, '"args" must be an object of the tool\'s arguments')
        result = await self._need_run().call(tool, args, surface=params.get("surface", "full"))
        return result.to_json()

    async def _written(self, params: Any) -> Any:
        paths = params_object(params).get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise RPCError(INVALID_PARAMS, 'written needs "paths": a list of file paths')
        return (await self._need_run().written(paths)).to_json()


async def serve_stdio(
    root: str,
    *,
    questions: str | None = None,
    approve: str = "host",
    vibe: str | None = None,
    config: Config | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Serve one Run over stdin/stdout until stdin closes. A bad root or roster raises
    ValueError before anything is read. `config`: the configuration file's settings."""
    log_to_stderr()  # bounded and rate-limited, never blocking: a host may not drain our stderr
    server = Server()
    port = None
    if questions == "host":
        from minitools.ask import HostPort

        port = HostPort(server.request_host)
    approver: Any = None
    if approve == "host":
        approver = server.approve_via_host
    elif approve == "all":
        approver = lambda spec, args: True  # noqa: E731
    server.run = Run(root, questions=port, approve=approver, vibe=load_roster(vibe), config=config)
    endpoint = await JSONRPCEndpoint.over_stdio(stdin, stdout)
    server.attach(endpoint)
    try:
        async with server.run:
            assert endpoint.connection is not None
            await endpoint.connection.wait_closed()
            await endpoint.wait_idle()
    finally:
        await endpoint.close()
    return 0
