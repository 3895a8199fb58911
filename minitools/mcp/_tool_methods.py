"""``tools/list`` and ``tools/call`` (docs/architecture.md, "minitools mcp"): the surface's tools as
MCP tools (_listing.py), and a call run on the Run served once its root is settled (_roots.py),
with progress while it runs (_progress.py), as a task where the client asked for one or declared
the extension (_tasks.py), and under 2026-07-28 in an exchange that may ask the client (_mrtr.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from minitools.mcp._lifecycle import TOOL_ERRORS_SINCE, Lifecycle
from minitools.mcp._listing import mcp_result, mcp_tool
from minitools.mcp._mrtr import Exchanges, exchange_waiting
from minitools.mcp._progress import report_progress
from minitools.mcp._roots import Workspace
from minitools.mcp._tasks import LONG_TOOLS, TaskBook
from minitools.progress import ProgressBoard, reporting_to
from minitools.protocol import INVALID_PARAMS, METHOD_NOT_FOUND
from minitools.registry import Surface
from minitools.schema import SchemaError, as_meant, validate
from minitools.toolspec import ToolSpec
from minitools.transport import RPCError, params_object

__all__ = ["ToolMethods"]

# seconds a call of a long tool runs plainly, for a client with the tasks extension, before it
# is answered with a task that runs on
TASK_AFTER = 2.0
ASK_TOOL = "ask_user"


@dataclass
class ToolMethods:
    """The tools methods of one connection, over the Run its `Workspace` serves."""

    lifecycle: Lifecycle
    workspace: Workspace
    tasks: TaskBook
    exchanges: Exchanges
    notify: Callable[[str, dict[str, Any]], Awaitable[None]]
    surface: Surface
    progress_interval: float
    task_after: float = TASK_AFTER  # seconds a call runs plainly before it becomes a task (the extension)

    def specs(self) -> list[ToolSpec]:
        """The tools this client sees: the surface's, without ask_user when it cannot elicit."""
        return [s for s in self.workspace.run.tools(self.surface) if s.name != ASK_TOOL or self.lifecycle.can_elicit()]

    def tools_list(self, params: Any) -> dict[str, Any]:
        life = self.lifecycle
        params = params_object(params)  # a cursor is accepted and ignored: the list is one page
        life.ready("tools/list", params)
        specs = self.specs()
        if life.per_request:
            specs = sorted(specs, key=lambda s: s.name)  # 2026-07-28 asks for a deterministic order
        tools = [mcp_tool(s, structured=life.structured()) for s in specs]
        if life.offers_tasks() or life.per_request:
            for tool in tools:
                if tool["name"] in LONG_TOOLS:
                    tool["execution"] = {"taskSupport": "optional"}
        return life.answer({"tools": tools}, cache=True)

    async def tools_call(self, params: Any) -> dict[str, Any]:
        life = self.lifecycle
        params = params_object(params)
        life.ready("tools/call", params)
        name = params.get("name")
        spec = next((s for s in self.specs() if s.name == name), None)
        if spec is None:
            known = ", ".join(s.name for s in self.specs()) or "none"
            raise RPCError(INVALID_PARAMS, f"Unknown tool: {name!r}; the tools are {known}")
        arguments = params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise RPCError(INVALID_PARAMS, f"\"arguments\" must be an object of {name}'s arguments, got {arguments!r}")
        if life.version < TOOL_ERRORS_SINCE:
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
        if requested is not None and life.offers_tasks():
            if spec.name not in LONG_TOOLS:
                raise RPCError(METHOD_NOT_FOUND, f"{name} does not run as a task (it answers at once): call it without "
                               f"\"task\"; the tools that run as tasks are {', '.join(sorted(LONG_TOOLS))}")
            await self.workspace.settle()
            return self.tasks.start(lambda task_id, board: self._run(spec, arguments, token, board, task_id), requested)
        if not life.per_request:
            return await self._rooted_run(spec, arguments, token)

        async def modern() -> dict[str, Any]:  # in an exchange: it may ask the client (roots, questions)
            if spec.name in LONG_TOOLS and life.declares_tasks():
                # the server decides: a call still running after task_after seconds becomes a
                # task (the extension sends no progress for a task: tasks/get's status says it)
                await self.workspace.settle()
                return await self.tasks.run_or_task(
                    lambda task_id, board: self._run(spec, arguments, None, board, task_id), self.task_after,
                    hold=exchange_waiting)
            return await self._rooted_run(spec, arguments, token)

        return life.answer(await self.exchanges.run(spec.name, params, modern))

    async def _rooted_run(self, spec: ToolSpec, arguments: dict[str, Any], token: str | int | None) -> dict[str, Any]:
        """The call, once the workspace root is settled; the first says where the root came from
        when it is the current folder."""
        note = await self.workspace.settle()
        result = await self._run(spec, arguments, token, ProgressBoard(), None)
        if note and isinstance(result.get("content"), list) and result["content"]:
            first = result["content"][0]
            if first.get("type") == "text":
                result["content"][0] = {**first, "text": f"(workspace root: {note})\n{first['text']}"}
        return result

    async def _run(self, spec: ToolSpec, arguments: dict[str, Any], token: str | int | None, board: ProgressBoard,
                   task_id: str | None) -> dict[str, Any]:
        """Run one call, telling the client what it is doing when it sent a progress token."""
        with reporting_to(board):
            ticker = None
            if token is not None:
                ticker = asyncio.ensure_future(report_progress(self.notify, token, spec.name, board,
                                                               self.progress_interval, task_id))
            try:
                result = await self.workspace.run.call(spec.name, arguments, surface=self.surface)
            finally:
                if ticker is not None:
                    ticker.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await ticker
        return self.lifecycle.answer(mcp_result(result, structured=self.lifecycle.structured()))
