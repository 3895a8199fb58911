"""MCP tasks in their 2025-11-25 form, for the tools that take long (docs/reference.md,
"minitools mcp"): a ``tools/call`` with ``params.task`` is answered at once with a task, the
call runs on, and the client asks ``tasks/get`` (its status, and what the call is doing now as
the status message), ``tasks/result`` (waits for the end; the same result the plain call
returns), ``tasks/list`` and ``tasks/cancel`` (stops the work as ``notifications/cancelled``
does: the cell is interrupted, the server request cancelled). Status changes are also sent as
``notifications/tasks/status``. A finished task is kept for its ttl (the client's, between one
minute and a day; an hour when it names none), then forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from minitools.mcp._progress import RELATED_TASK_KEY
from minitools.progress import ProgressBoard
from minitools.protocol import INTERNAL_ERROR, INVALID_PARAMS
from minitools.transport import RPCError, params_object

__all__ = ["TaskBook", "LONG_TOOLS", "TASK_CAPABILITY", "Work"]

# the tools a client may run as a task: those whose calls can take minutes (a cell, a debug
# session run to a breakpoint, the project's checker, a worker's wait, a search, edit or rename
# over a tree); the others answer at once and are called plainly
LONG_TOOLS = frozenset({"eval", "debug", "lsp", "lsp_rename", "ast_grep", "ast_edit", "vibe_wait"})
TASK_CAPABILITY: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
DEFAULT_TTL_MS = 3_600_000
TTL_BOUNDS_MS = (60_000, 86_400_000)
POLL_INTERVAL_MS = 1000
TERMINAL = ("completed", "failed", "cancelled")

Work = Callable[[str, ProgressBoard], Awaitable[dict[str, Any]]]
Notify = Callable[[str, dict[str, Any]], Awaitable[None]]


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class _Task:
    id: str
    ttl: int
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    status: str = "working"
    message: str = ""
    board: ProgressBoard = field(default_factory=ProgressBoard)
    job: asyncio.Task[dict[str, Any]] | None = None
    outcome: dict[str, Any] | RPCError | None = None

    def view(self) -> dict[str, Any]:
        message = self.message
        if self.status == "working":
            now = self.board.now()
            message = now[0] if now is not None else "running"
        return {"taskId": self.id, "status": self.status, "statusMessage": message, "createdAt": _stamp(self.created),
                "lastUpdatedAt": _stamp(self.updated), "ttl": self.ttl, "pollInterval": POLL_INTERVAL_MS}


class TaskBook:
    """The tasks of one connection."""

    def __init__(self, notify: Notify) -> None:
        self._notify = notify
        self._tasks: dict[str, _Task] = {}
        self._telling: set[asyncio.Future[None]] = set()  # status notifications being sent

    def start(self, work: Work, requested: Any) -> dict[str, Any]:
        """Run `work` as a new task; the ``CreateTaskResult`` that names it."""
        self._forget_expired()
        if not isinstance(requested, dict):
            raise RPCError(INVALID_PARAMS, f"\"task\" must be an object (with an optional \"ttl\" in ms), got {requested!r}")
        ttl = requested.get("ttl")
        if ttl is not None and (not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0):
            raise RPCError(INVALID_PARAMS, f"task \"ttl\" must be a whole number of milliseconds, got {ttl!r}")
        low, high = TTL_BOUNDS_MS
        task = _Task(uuid.uuid4().hex, DEFAULT_TTL_MS if ttl is None else min(max(ttl, low), high))
        self._tasks[task.id] = task
        task.job = asyncio.ensure_future(work(task.id, task.board))
        task.job.add_done_callback(lambda job: self._finished(task, job))
        return {"task": task.view()}

    def _finished(self, task: _Task, job: asyncio.Task[dict[str, Any]]) -> None:
        if job.cancelled():
            task.status, task.message = "cancelled", task.message or "cancelled"
            task.outcome = RPCError(INTERNAL_ERROR, f"task {task.id} was cancelled before it finished")
        elif isinstance(job.exception(), RPCError):
            error = job.exception()
            assert isinstance(error, RPCError)
            task.status, task.message, task.outcome = "failed", error.message, error
        elif job.exception() is not None:
            task.status, task.message = "failed", f"the call failed: {job.exception()}"
            task.outcome = RPCError(INTERNAL_ERROR, task.message)
        else:
            result = job.result()
            task.outcome = result
            task.status = "failed" if result.get("isError") else "completed"
            task.message = "the tool reported an error" if result.get("isError") else "done"
        task.updated = time.time()
        with contextlib.suppress(RuntimeError):  # the loop is closing: nobody to tell
            telling = asyncio.ensure_future(self._tell(task))
            self._telling.add(telling)
            telling.add_done_callback(self._telling.discard)

    async def _tell(self, task: _Task) -> None:
        with contextlib.suppress(Exception):
            await self._notify("notifications/tasks/status", task.view())

    def _find(self, params: Any) -> _Task:
        params = params_object(params)
        task_id = params.get("taskId")
        self._forget_expired()
        task = self._tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            known = ", ".join(self._tasks) or "none"
            raise RPCError(INVALID_PARAMS, f"no task {task_id!r}: it never existed or its ttl passed; the tasks are {known}")
        return task

    def get(self, params: Any) -> dict[str, Any]:
        return self._find(params).view()

    async def result(self, params: Any) -> dict[str, Any]:
        """The task's result once it has one (waits while it runs)."""
        task = self._find(params)
        if task.job is not None:
            with contextlib.suppress(BaseException):
                await asyncio.shield(task.job)
        if isinstance(task.outcome, RPCError):
            raise RPCError(task.outcome.code, task.outcome.message, task.outcome.data)
        assert task.outcome is not None
        meta = task.outcome.get("_meta")
        return {**task.outcome, "_meta": {**(meta if isinstance(meta, dict) else {}), RELATED_TASK_KEY: {"taskId": task.id}}}

    def list(self, params: Any) -> dict[str, Any]:
        params_object(params)  # a cursor is accepted and ignored: the list is one page
        self._forget_expired()
        return {"tasks": [task.view() for task in self._tasks.values()]}

    async def cancel(self, params: Any) -> dict[str, Any]:
        """Stop the task's work (what it started is stopped with it) and mark it cancelled."""
        task = self._find(params)
        if task.status in TERMINAL:
            raise RPCError(INVALID_PARAMS, f"task {task.id} is already {task.status}; only a working task can be cancelled")
        task.message = "cancelled by the client"
        assert task.job is not None
        task.job.cancel()
        with contextlib.suppress(BaseException):
            await task.job
        return task.view()

    async def close(self) -> None:
        """Stop every task still working (the client went away)."""
        jobs = [t.job for t in self._tasks.values() if t.job is not None and not t.job.done()]
        for job in jobs:
            job.cancel()
        for job in jobs:
            with contextlib.suppress(BaseException):
                await job

    def _forget_expired(self) -> None:
        now = time.time()
        for task in [t for t in self._tasks.values() if t.status in TERMINAL and now > t.created + t.ttl / 1000]:
            del self._tasks[task.id]
