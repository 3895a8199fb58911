"""`serve_mcp`: `minitools mcp`'s process: the Run (made again at the client's root when no root
was given), the server on stdin/stdout, and the end (docs/architecture.md, "minitools mcp")."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any, BinaryIO

from minitools.config import Config, load_config
from minitools.mcp._hook import written_hook_tool
from minitools.mcp._server import APPROVE_MODES, EOF_GRACE, McpServer
from minitools.protocol import INTERNAL_ERROR
from minitools.registry import Surface
from minitools.run import Run
from minitools.tracing import log_to_stderr
from minitools.transport import JSONRPCEndpoint, RPCError
from minitools.vibe import load_roster

__all__ = ["serve_mcp"]


def _approver(mode: str) -> Any:
    if mode == "host":
        # the host gates each call by its annotations before it is sent here
        return lambda spec, args: True
    if mode == "none":
        return lambda spec, args: "this server was started with --approve none (write and exec tools are refused)"
    return None  # ask: the gate shows the person a permission card through the question port


async def serve_mcp(
    root: str | None,
    *,
    surface: str = "full",
    approve: str = "host",
    vibe: str | None = None,
    structured: bool = False,
    config: Config | None = None,
    reread_config: bool = False,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    progress_interval: float = 1.0,
    eof_grace: float = EOF_GRACE,
) -> int:
    """Serve one Run to an MCP client over stdin/stdout until stdin closes. A bad root, surface,
    approval mode or roster raises ValueError before anything is read. `structured` sends output
    schemas and structured content (off: the hosts people use show it instead of the text).
    Without `root`, the client's first root is served (_roots.py), else the current folder; with
    `reread_config` (no --config either) that root's own configuration file is read for its Run (the
    front's options, surface, approval and structured output, stay those read at start)."""
    if approve not in APPROVE_MODES:
        raise ValueError(f"unknown approval mode {approve!r}; choose one of {', '.join(APPROVE_MODES)}")
    log_to_stderr()  # bounded and rate-limited, never blocking: a host may not drain our stderr
    chosen_surface = Surface.parse(surface)
    roster = load_roster(vibe)

    def make_run(server: McpServer, path: str, origin: str | None) -> Run:
        said: dict[str, Any] = {"root_origin": origin} if origin else {}  # lsp status says where the root came from
        # a root the client named has its own configuration file (ValueError: it is invalid)
        chosen = load_config(path) if reread_config and origin is not None else config
        run = Run(path, questions=server.port, approve=_approver(approve), vibe=roster, config=chosen, **said)
        run.add_tool(server.written_tool())
        run.add_tool(written_hook_tool(lambda: server.run))
        return run

    endpoint = await JSONRPCEndpoint.over_stdio(stdin, stdout, cancel_method="notifications/cancelled",
                                                cancel_param="requestId")
    try:
        server = McpServer(endpoint, make_run, root=root, surface=chosen_surface, progress_interval=progress_interval,
                           structured=structured)
    except BaseException:
        await endpoint.close()
        raise
    if root is not None:
        server.run.warm_up()  # the servers the root needs start while the client initializes
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[str] = loop.create_future()

    def finish(why: str) -> None:
        if not stop.done():
            stop.set_result(why)

    assert endpoint.connection is not None
    try:
        try:
            closed = asyncio.ensure_future(endpoint.connection.wait_closed())
            closed.add_done_callback(lambda _: finish("the input ended"))
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal.SIGTERM, finish, "the server got SIGTERM")
            why = await stop
            if why == "the input ended":
                # a script that pipes its requests and closes stdin still gets its answers
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(asyncio.shield(endpoint.wait_idle()), eof_grace)
            # the subscriptions end with their result; what still runs (and what it started)
            # is stopped and answered, then everything is closed
            await server.subscriptions.close()
            endpoint.cancel_incoming_all(RPCError(INTERNAL_ERROR, f"{why} before this call finished; it was stopped"))
            await endpoint.wait_idle()
            await server.tasks.close()
            await server.exchanges.close()
        finally:
            await server.run.close()  # the Run served last (made again at the client's root)
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)
        await endpoint.close()
    return 0
