"""`minitools mcp`: one Run served to an MCP client over stdio (newline-delimited JSON-RPC 2.0),
on the transport's one endpoint (docs/architecture.md, "minitools mcp").

Both generations of the protocol on one server, chosen by what the client sends (_modern.py):
``initialize`` (the revision is negotiated: the client's when it is one of `PROTOCOL_VERSIONS`,
else the newest) then ``notifications/initialized``; or ``server/discover`` and a 2026-07-28
``_meta`` on every request. Client → server: ``ping``, ``tools/list``, ``tools/call``,
``notifications/cancelled`` (cancels the running call and what it started), the tasks methods
(_tasks.py) and, under 2026-07-28, ``subscriptions/listen`` (_listen.py). Server → client:
``notifications/progress`` while a call runs, when the client sent a ``progressToken``
(_progress.py); ``elicitation/create`` for ask_user and, with ``--approve ask``, the permission
card, when an initialized client declared elicitation (tied to the task when the call runs as
one); task status notifications. At the
end of stdin (or SIGTERM) the calls still running are cancelled, the Run is closed and the
process exits 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from minitools.mcp._elicit import ElicitPort
from minitools.mcp._lifecycle import PROTOCOL_VERSIONS, Lifecycle
from minitools.mcp._listen import Subscriptions
from minitools.mcp._listing import WRITTEN_DESCRIPTION, WRITTEN_OUTPUT, WRITTEN_PARAMETERS
from minitools.mcp._mrtr import Exchanges, ask_in_exchange
from minitools.mcp._roots import Workspace
from minitools.mcp._task_methods import TaskMethods
from minitools.mcp._tasks import TaskBook
from minitools.mcp._tool_methods import ToolMethods
from minitools.registry import Surface
from minitools.run import Run
from minitools.toolspec import Tier, Tool, ToolResult, ToolSpec
from minitools.transport import JSONRPCEndpoint

__all__ = ["McpServer", "PROTOCOL_VERSIONS", "APPROVE_MODES", "EOF_GRACE"]

APPROVE_MODES = ("host", "ask", "none")
# seconds the calls still running when stdin ends get to finish and be answered (then they are
# cancelled and answered with an error that says the input ended)
EOF_GRACE = 5.0


# makes the Run a server serves at a root: (server, root, where the root came from: None for
# --root or the current folder, else the client's roots)
RunMaker = Callable[["McpServer", str, "str | None"], Run]


class McpServer:
    """The MCP front of one Run, built whole: the MCP methods registered on its endpoint (the
    lifecycle's, _lifecycle.py; the tools', _tool_methods.py; the tasks', _task_methods.py), the
    question port through the client, the Run made at `root` (without one, at the current folder
    until the client's roots settle it, _roots.py)."""

    def __init__(self, endpoint: JSONRPCEndpoint, make_run: RunMaker, *, root: str | None = None,
                 surface: Surface = Surface.FULL, progress_interval: float = 1.0, structured: bool = False) -> None:
        self.endpoint = endpoint
        self.lifecycle = Lifecycle(endpoint, structured=structured)
        self.tasks = TaskBook(self._send_notification, self._ask_client)
        self.subscriptions = Subscriptions(self._send_notification, self.tasks)  # 2026-07-28 streams
        self.exchanges = Exchanges()  # 2026-07-28 calls waiting for the client's answers
        self.port = ElicitPort(self.request_client, version=lambda: self.lifecycle.version, attached=self.lifecycle.can_elicit)
        # without --root: the Run is made again at the client's root before the first call
        self.workspace = Workspace(partial(make_run, self), root, self.request_client,
                                   lambda: self.lifecycle.client_capabilities)
        self.tool_methods = ToolMethods(self.lifecycle, self.workspace, self.tasks, self.exchanges, self._send_notification,
                                        surface, progress_interval)
        self.task_methods = TaskMethods(endpoint, self.lifecycle, self.tasks, self.subscriptions)
        self._register(endpoint)

    @property
    def run(self) -> Run:
        """The Run served now (made again at the client's root before the first call)."""
        return self.workspace.run

    def _register(self, endpoint: JSONRPCEndpoint) -> None:
        life, tools, tasks = self.lifecycle, self.tool_methods, self.task_methods
        requests: dict[str, Callable[[Any], Any]] = {
            "initialize": life.initialize, "server/discover": life.discover, "ping": life.ping,
            "tools/list": tools.tools_list, "tools/call": tools.tools_call,
            "tasks/get": tasks.tasks_get, "tasks/result": tasks.tasks_result, "tasks/list": tasks.tasks_list,
            "tasks/cancel": tasks.tasks_cancel, "tasks/update": tasks.tasks_update, "subscriptions/listen": tasks.listen,
        }
        for method, handler in requests.items():
            endpoint.on_request(method, handler)
        endpoint.on_notification("notifications/initialized", life.on_initialized)
        endpoint.on_notification("notifications/cancelled", life.on_cancelled)

    async def _send_notification(self, method: str, params: dict[str, Any]) -> None:
        await self.endpoint.notify(method, params)

    async def request_client(self, method: str, params: Mapping[str, Any]) -> Any:
        """Ask the client and wait for its answer (as long as it takes): through the call's
        task when it runs as one (_tasks.py), else a request to it on a handshake session, the
        call's input_required result under 2026-07-28."""
        if self.tasks.running():
            return await self.tasks.ask(method, dict(params))
        if self.lifecycle.per_request:
            return await ask_in_exchange(method, dict(params))
        return await self._ask_client(method, dict(params))

    async def _ask_client(self, method: str, params: dict[str, Any]) -> Any:
        return await self.endpoint.request(method, params, timeout=None)

    def written_tool(self) -> Tool:
        """`written` as a tool, for hosts whose own edit tools wrote the files."""
        spec = ToolSpec("written", Tier.READ, WRITTEN_DESCRIPTION, WRITTEN_PARAMETERS, output_schema=WRITTEN_OUTPUT)
        return Tool(spec, self._written)

    async def _written(self, args: Mapping[str, Any]) -> ToolResult:
        """The files a host's own edit tools wrote, checked by the Run served now."""
        return await self.run.written(list(args["paths"]))
