"""asyncio transport: child processes, framed connections, JSON-RPC correlation, stderr rings,
and a WebSocket client connection (for the V8 inspector).

    child = await ChildProcess.start(["pylsp"], cwd=root, tracer=tracer)
    rpc = JSONRPCEndpoint.over_child(child, cancel_method="$/cancelRequest")
    result = await rpc.request("initialize", {...}, timeout=10)
    await child.stop()

When a child exits, every pending request fails with ChildExited (exit code, stderr tail).
"""

from __future__ import annotations

from minitools.transport._child import ChildProcess
from minitools.transport._connection import FramedConnection, MessageFramer
from minitools.transport._endpoint import JSONRPCEndpoint, NotificationHandler, RequestHandler, RPCError, params_object
from minitools.transport._errors import ChildExited, ConnectionClosed
from minitools.transport._lifeline import die_with_parent
from minitools.transport._reaper import descendants, kill_tree, reaped
from minitools.transport._stderr import StderrRing
from minitools.transport._stdio import open_stdio
from minitools.transport._threads import in_thread
from minitools.transport._websocket import WebSocketConnection

__all__ = [
    "params_object",
    "die_with_parent",
    "descendants",
    "kill_tree",
    "reaped",
    "in_thread",
    "ChildProcess",
    "ChildExited",
    "ConnectionClosed",
    "FramedConnection",
    "MessageFramer",
    "JSONRPCEndpoint",
    "RPCError",
    "RequestHandler",
    "NotificationHandler",
    "StderrRing",
    "open_stdio",
    "WebSocketConnection",
]
