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

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from minitools.mcp._elicit import ElicitPort
from minitools.mcp._listen import Subscriptions
from minitools.mcp._listing import WRITTEN_DESCRIPTION, WRITTEN_OUTPUT, WRITTEN_PARAMETERS, mcp_result, mcp_tool
from minitools.mcp._modern import (
    CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    HANDSHAKE_VERSIONS,
    MISSING_CAPABILITY,
    MODERN_VERSIONS,
    SERVER_INFO,
    UNSUPPORTED_VERSION,
    VERSION_KEY,
    cacheable,
    complete,
    request_meta,
    unsupported,
)
from minitools.mcp._mrtr import Exchanges, ask_in_exchange, exchange_waiting
from minitools.mcp._progress import report_progress
from minitools.mcp._roots import choose_root, root_paths, same_folder
from minitools.mcp._tasks import EXTENSION, LEGACY, LONG_TOOLS, TASK_CAPABILITY, TASKS_EXTENSION, TaskBook
from minitools.progress import ProgressBoard, reporting_to
from minitools.protocol import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND
from minitools.registry import Surface
from minitools.run import Run
from minitools.schema import SchemaError, as_meant, validate
from minitools.toolspec import Tier, Tool, ToolResult, ToolSpec
from minitools.transport import JSONRPCEndpoint, RPCError, params_object

__all__ = ["McpServer", "PROTOCOL_VERSIONS", "APPROVE_MODES", "EOF_GRACE"]

# newest first: the revisions whose handshake this server speaks
PROTOCOL_VERSIONS = HANDSHAKE_VERSIONS
# the first revision that answers arguments not fitting the input schema with a tool error,
# and the one whose tasks (params.task, tasks/get ...) this server offers
TOOL_ERRORS_SINCE = TASKS_IN = "2025-11-25"
# the first revision with tool output schemas, structured content and elicitation
STRUCTURED_SINCE = "2025-06-18"
APPROVE_MODES = ("host", "ask", "none")
# seconds a call of a long tool runs plainly, for a client with the tasks extension, before it
# is answered with a task that runs on
TASK_AFTER = 2.0
# seconds the calls still running when stdin ends get to finish and be answered (then they are
# cancelled and answered with an error that says the input ended)
EOF_GRACE = 5.0
ASK_TOOL = "ask_user"
_INSTRUCTIONS = (
    "minitools: language-server queries and renames, structural search and rewrite (ast_grep, ast_edit), "
    "debuggers, persistent Python/JavaScript kernels (eval) and questions to the person, over one workspace root. "
    "After writing files with your own edit tools, call `written` for the diagnostics your change introduced."
)


# makes the Run a server serves at a root: (server, root, where the root came from: None for
# --root or the current folder, else the client's roots)
RunMaker = Callable[["McpServer", str, "str | None"], Run]


class McpServer:
    """The MCP front of one Run, built whole: the MCP methods registered on its endpoint, the
    question port through the client, the Run made at `root` (without one, at the current folder
    until the client's roots settle it)."""

    def __init__(self, endpoint: JSONRPCEndpoint, make_run: RunMaker, *, root: str | None = None,
                 surface: Surface = Surface.FULL, progress_interval: float = 1.0, structured: bool = False) -> None:
        self.endpoint = endpoint
        self.structured_output = structured  # --structured: output schemas and structured content
        self.surface = surface
        self.progress_interval = progress_interval
        self.version = PROTOCOL_VERSIONS[0]
        self.client_capabilities: dict[str, Any] = {}
        self.client_info: dict[str, Any] = {}
        self.initialized = False  # notifications/initialized arrived
        self.negotiated = False  # initialize was answered: the session's revision is set
        self.per_request = False  # a 2026-07-28 request was answered: every request carries its _meta
        self.tasks = TaskBook(self._send_notification, self._ask_client)
        self.subscriptions = Subscriptions(self._send_notification, self.tasks)  # 2026-07-28 streams
        self.exchanges = Exchanges()  # 2026-07-28 calls waiting for the client's answers
        # without --root: the Run is made again at the client's root before the first call
        self.make_run = make_run
        self.root_settled = root is not None
        self.root_note: str | None = None  # said in the first tool result (the current folder served)
        self._rooting = asyncio.Lock()
        self.task_after = TASK_AFTER  # seconds a call runs plainly before it becomes a task (the extension)
        self.port = ElicitPort(self.request_client, version=lambda: self.version, attached=self.can_elicit)
        self.run = make_run(self, root if root is not None else ".", None)
        self._register(endpoint)

    def _register(self, endpoint: JSONRPCEndpoint) -> None:
        endpoint.on_request("initialize", self._initialize)
        endpoint.on_request("server/discover", self._discover)
        endpoint.on_request("ping", self._ping)
        endpoint.on_request("tools/list", self._list)
        endpoint.on_request("tools/call", self._call)
        endpoint.on_request("tasks/get", lambda params: self._answer(self.tasks.get(params, self._tasks_form("tasks/get", params))))
        endpoint.on_request("tasks/result", self._task_result)
        endpoint.on_request("tasks/list", lambda params: self.tasks.list(self._tasks_legacy("tasks/list", params)))
        endpoint.on_request("tasks/cancel", self._task_cancel)
        endpoint.on_request("tasks/update", lambda params: self._answer(self.tasks.update(self._tasks_modern("tasks/update", params))))
        endpoint.on_request("subscriptions/listen", self._listen)
        endpoint.on_notification("notifications/initialized", self._initialized)
        endpoint.on_notification("notifications/cancelled", self._cancelled)

    # Lifecycle --------------------------------------------------------------------------

    def can_elicit(self) -> bool:
        """Whether the client declared form elicitation (``{}`` means form, on both revisions;
        2026-07-28 asks through the call's retry, _mrtr.py)."""
        declared = self.client_capabilities.get("elicitation")
        return self.modern() and isinstance(declared, dict) and (not declared or "form" in declared)

    def modern(self) -> bool:
        """Whether the negotiated revision has output schemas, structured content and elicitation."""
        return self.version >= STRUCTURED_SINCE  # revisions are dates: they order as strings

    def structured(self) -> bool:
        """Whether results carry structured content: asked for (--structured) and in the revision."""
        return self.structured_output and self.modern()

    def _initialize(self, params: Any) -> dict[str, Any]:
        if self.per_request:
            raise RPCError(UNSUPPORTED_VERSION, f"initialize on a connection that speaks {self.version} per request "
                           "(a request carried it in _meta): keep sending it in _meta, or start a new `minitools mcp` "
                           "for the initialize handshake", {"requested": str(params_object(params).get("protocolVersion")),
                                                            "supported": list(MODERN_VERSIONS)})
        if self.negotiated:
            raise RPCError(INVALID_REQUEST, f"initialize was already answered (revision {self.version}); a session is "
                           "initialized once: start a new `minitools mcp` for another revision")
        params = params_object(params)
        asked = params.get("protocolVersion")
        if not isinstance(asked, str):
            raise RPCError(INVALID_PARAMS, f"initialize needs \"protocolVersion\" as a string, got {asked!r}; "
                           f"this server speaks {', '.join(PROTOCOL_VERSIONS)}")
        self.version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        capabilities = params.get("capabilities")
        self.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        info = params.get("clientInfo")
        self.client_info = info if isinstance(info, dict) else {}
        self.negotiated = True
        offered: dict[str, Any] = {"tools": {"listChanged": False}}
        if self.offers_tasks():
            offered["tasks"] = TASK_CAPABILITY
        return {
            "protocolVersion": self.version,
            "capabilities": offered,
            "serverInfo": SERVER_INFO,
            "instructions": _INSTRUCTIONS,
        }

    def _discover(self, params: Any) -> dict[str, Any]:
        params = params_object(params)
        if VERSION_KEY not in request_meta(params) and not self.negotiated:
            raise unsupported(None, f" (server/discover needs \"{VERSION_KEY}\" in _meta)")
        self._ready("server/discover", params)
        return self._answer({
            "supportedVersions": [*MODERN_VERSIONS, *HANDSHAKE_VERSIONS],
            "capabilities": {"tools": {"listChanged": False}, "extensions": {TASKS_EXTENSION: {}}},
            "instructions": _INSTRUCTIONS,
        }, cache=True)

    def _ping(self, params: Any) -> dict[str, Any]:
        if self.per_request or VERSION_KEY in request_meta(params):
            self._ready("ping", params_object(params))
        return self._answer({})

    def _answer(self, result: dict[str, Any], *, cache: bool = False) -> dict[str, Any]:
        """`result` as this connection's generation sends it (2026-07-28: with resultType)."""
        if not self.per_request:
            return result
        return cacheable(result) if cache else complete(result)

    def offers_tasks(self) -> bool:
        """Whether this connection has the 2025-11-25 tasks (an initialize at that revision)."""
        return self.negotiated and self.version == TASKS_IN

    def declares_tasks(self) -> bool:
        """Whether this 2026-07-28 request's client declared the tasks extension."""
        extensions = self.client_capabilities.get("extensions")
        return self.per_request and isinstance(extensions, dict) and isinstance(extensions.get(TASKS_EXTENSION), dict)

    def _tasks_form(self, method: str, params: Any) -> str:
        """The form of the tasks a tasks/* request is about: this connection's (refused when
        it has none)."""
        params = params_object(params)
        if VERSION_KEY in request_meta(params) or self.per_request:
            self._tasks_modern(method, params)
            return EXTENSION
        self._tasks_legacy(method, params)
        return LEGACY

    def _tasks_legacy(self, method: str, params: Any) -> dict[str, Any]:
        params = params_object(params)
        if VERSION_KEY in request_meta(params) or self.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"{method} is not a method of the tasks extension of 2026-07-28 "
                           "(tasks/get carries the result there)")
        if not self.offers_tasks():
            raise RPCError(METHOD_NOT_FOUND, f"{method}: tasks are offered on a session initialized at {TASKS_IN} "
                           f"(this one is {'not initialized' if not self.negotiated else self.version})")
        return params

    def _tasks_modern(self, method: str, params: Any) -> dict[str, Any]:
        params = params_object(params)
        self._ready(method, params)
        if not self.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"{method} belongs to the tasks extension of 2026-07-28; this session "
                           f"was initialized at {self.version}")
        if not self.declares_tasks():
            raise RPCError(MISSING_CAPABILITY, f"{method} needs the tasks extension declared in the request's "
                           f"capabilities (\"extensions\": {{\"{TASKS_EXTENSION}\": {{}}}})",
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        return params

    async def _listen(self, params: Any) -> dict[str, Any]:
        params = params_object(params)
        self._ready("subscriptions/listen", params)
        if not self.per_request:
            raise RPCError(METHOD_NOT_FOUND, f"subscriptions/listen belongs to revision {MODERN_VERSIONS[0]}; this "
                           f"session was initialized at {self.version}, where notifications come unasked")
        stream_id = self.endpoint.incoming_id()
        return self._answer(await self.subscriptions.listen(stream_id, params, declares_tasks=self.declares_tasks()))

    async def _task_result(self, params: Any) -> dict[str, Any]:
        return await self.tasks.result(self._tasks_legacy("tasks/result", params))

    async def _task_cancel(self, params: Any) -> dict[str, Any]:
        form = self._tasks_form("tasks/cancel", params)
        return self._answer(await self.tasks.cancel(params, form))

    def _initialized(self, params: Any) -> None:
        self.initialized = True

    def _cancelled(self, params: Any) -> None:
        if isinstance(params, dict):
            self.endpoint.cancel_incoming(params.get("requestId"))

    # Tools ------------------------------------------------------------------------------

    def specs(self) -> list[ToolSpec]:
        """The tools this client sees: the surface's, without ask_user when it cannot elicit."""
        return [s for s in self.run.tools(self.surface) if s.name != ASK_TOOL or self.can_elicit()]

    def _ready(self, method: str, params: dict[str, Any]) -> None:
        """Take the request's generation from what it carries: a 2026-07-28 ``_meta`` (its
        revision, capabilities and client), or none on an initialized session. Refuse a request
        of the other generation than the connection's, and one before either (only ping may)."""
        meta = request_meta(params)
        if VERSION_KEY not in meta:
            if self.per_request:
                raise RPCError(INVALID_PARAMS, f"{method} without \"{VERSION_KEY}\" in _meta on a connection that "
                               f"speaks {self.version} per request: send the revision in every request's _meta")
            if not self.negotiated:
                raise RPCError(INVALID_REQUEST, f"{method} before initialize: send initialize first, or "
                               f"server/discover with \"{VERSION_KEY}\": \"{MODERN_VERSIONS[0]}\" in _meta (only "
                               "ping is answered before either)")
            return
        asked = meta[VERSION_KEY]
        if self.negotiated:
            raise RPCError(INVALID_REQUEST, f"{method} carries revision {asked!r} in _meta, but this connection was "
                           f"initialized at {self.version}: leave _meta's revision out, or start a new `minitools mcp`")
        if asked not in MODERN_VERSIONS:
            raise unsupported(asked)
        self.per_request = True
        self.version = asked
        capabilities = meta.get(CAPABILITIES_KEY)
        self.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        info = meta.get(CLIENT_INFO_KEY)
        self.client_info = info if isinstance(info, dict) else self.client_info

    def _list(self, params: Any) -> dict[str, Any]:
        params = params_object(params)  # a cursor is accepted and ignored: the list is one page
        self._ready("tools/list", params)
        specs = self.specs()
        if self.per_request:
            specs = sorted(specs, key=lambda s: s.name)  # 2026-07-28 asks for a deterministic order
        tools = [mcp_tool(s, structured=self.structured()) for s in specs]
        if self.offers_tasks() or self.per_request:
            for tool in tools:
                if tool["name"] in LONG_TOOLS:
                    tool["execution"] = {"taskSupport": "optional"}
        return self._answer({"tools": tools}, cache=True)

    async def _call(self, params: Any) -> dict[str, Any]:
        params = params_object(params)
        self._ready("tools/call", params)
        name = params.get("name")
        spec = next((s for s in self.specs() if s.name == name), None)
        if spec is None:
            known = ", ".join(s.name for s in self.specs()) or "none"
            raise RPCError(INVALID_PARAMS, f"Unknown tool: {name!r}; the tools are {known}")
        arguments = params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise RPCError(INVALID_PARAMS, f"\"arguments\" must be an object of {name}'s arguments, got {arguments!r}")
        if self.version < TOOL_ERRORS_SINCE:
            # the earlier revisions answer arguments that do not fit the input schema with a
            # protocol error; 2025-11-25 returns them as a tool error the model can correct
            try:
                validate(spec.parameters, as_meant(spec.parameters, arguments))
            except SchemaError as exc:
                raise RPCError(INVALID_PARAMS, f"{name}: argument {exc.field} {exc.message}") from None
        meta = params.get("_meta")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        if not isinstance(token, (str, int)) or isinstance(token, bool):
            token = None
        requested = params.get("task")
        if requested is not None and self.offers_tasks():
            if spec.name not in LONG_TOOLS:
                raise RPCError(METHOD_NOT_FOUND, f"{name} does not run as a task (it answers at once): call it without "
                               f"\"task\"; the tools that run as tasks are {', '.join(sorted(LONG_TOOLS))}")
            await self.settle_root()
            return self.tasks.start(lambda task_id, board: self._run(spec, arguments, token, board, task_id), requested)
        if not self.per_request:
            return await self._rooted_run(spec, arguments, token)

        async def modern() -> dict[str, Any]:  # in an exchange: it may ask the client (roots, questions)
            if spec.name in LONG_TOOLS and self.declares_tasks():
                # the server decides: a call still running after task_after seconds becomes a
                # task (the extension sends no progress for a task: tasks/get's status says it)
                await self.settle_root()
                return await self.tasks.run_or_task(
                    lambda task_id, board: self._run(spec, arguments, None, board, task_id), self.task_after,
                    hold=exchange_waiting)
            return await self._rooted_run(spec, arguments, token)

        return self._answer(await self.exchanges.run(spec.name, params, modern))

    async def _rooted_run(self, spec: ToolSpec, arguments: dict[str, Any], token: str | int | None) -> dict[str, Any]:
        """The call, once the workspace root is settled; the first says where the root came from
        when it is the current folder."""
        note = await self.settle_root()
        result = await self._run(spec, arguments, token, ProgressBoard(), None)
        if note and isinstance(result.get("content"), list) and result["content"]:
            first = result["content"][0]
            if first.get("type") == "text":
                result["content"][0] = {**first, "text": f"(workspace root: {note})\n{first['text']}"}
        return result

    async def settle_root(self) -> str | None:
        """Without --root: ask a client that declared roots for them, and serve the first (the
        current folder when there are none). What to tell the first call, once."""
        if self.root_settled:
            return None
        async with self._rooting:
            if self.root_settled:
                return None
            why_none = "the client declared no roots"
            roots: list[str] = []
            if isinstance(self.client_capabilities.get("roots"), dict):
                try:
                    roots = root_paths(await self.request_client("roots/list", {}))
                    why_none = "the client's roots name no folder here"
                except Exception as exc:  # noqa: BLE001 - a client that cannot list its roots: the current folder
                    why_none = f"the client's roots could not be read ({exc})"
            current = self.run.root
            path, origin = choose_root(roots, str(current), why_none)
            if not same_folder(path, current) or roots:
                try:
                    made = self.make_run(self, path, origin if roots else None)
                except ValueError as exc:  # the root's configuration file is invalid: the current folder stays
                    self.root_settled = True
                    return f"{current} (the client's root {path} was not served: {exc}; fix the file and restart)"
                old, self.run = self.run, made
                await old.close()
                self.run.warm_up()
            self.root_settled = True
            return None if roots else origin

    async def _run(self, spec: ToolSpec, arguments: dict[str, Any], token: str | int | None, board: ProgressBoard,
                   task_id: str | None) -> dict[str, Any]:
        """Run one call, telling the client what it is doing when it sent a progress token."""
        with reporting_to(board):
            ticker = None
            if token is not None:
                ticker = asyncio.ensure_future(report_progress(self._send_notification, token, spec.name, board,
                                                               self.progress_interval, task_id))
            try:
                result = await self.run.call(spec.name, arguments, surface=self.surface)
            finally:
                if ticker is not None:
                    ticker.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await ticker
        return self._answer(mcp_result(result, structured=self.structured()))

    async def _send_notification(self, method: str, params: dict[str, Any]) -> None:
        await self.endpoint.notify(method, params)

    async def request_client(self, method: str, params: Mapping[str, Any]) -> Any:
        """Ask the client and wait for its answer (as long as it takes): through the call's
        task when it runs as one (_tasks.py), else a request to it on a handshake session, the
        call's input_required result under 2026-07-28."""
        if self.tasks.running():
            return await self.tasks.ask(method, dict(params))
        if self.per_request:
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
