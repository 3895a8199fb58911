"""MCP tasks for the tools that take long, in both forms (docs/architecture.md, "minitools mcp"):

- 2025-11-25 (an initialized session): the client asks for a task (``params.task``); the call
  is answered at once with ``{"task": ...}``, and the client asks ``tasks/get`` (the status, and
  what the call is doing now as the status message), ``tasks/result`` (waits for the end), and
  ``tasks/list``; status changes are sent as ``notifications/tasks/status``.
- the ``io.modelcontextprotocol/tasks`` extension of 2026-07-28: the client declares it in the
  request's capabilities and the server decides; here a call still running after
  `McpServer.task_after` seconds becomes a task (``resultType: "task"``), a shorter one is
  answered plainly. ``tasks/get`` carries the result (or the protocol error) once there is one.

In both, ``tasks/cancel`` stops the work as ``notifications/cancelled`` does (the cell is
interrupted, the server request cancelled), a task's result is the same the plain call returns,
and a finished task is kept for its ttl (the client's, between a minute and a day; an hour when
it names none), then forgotten. The two forms are not mixed: a task answers in the form it was
made in.
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
from minitools.protocol import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST
from minitools.transport import RPCError, params_object

__all__ = ["TaskBook", "LONG_TOOLS", "TASK_CAPABILITY", "TASKS_EXTENSION", "Work"]

# the tools a client may run as a task: those whose calls can take minutes (a cell, a debug
# session run to a breakpoint, the project's checker, a worker's wait, a search, edit or rename
# over a tree); the others answer at once and are called plainly
LONG_TOOLS = frozenset({"eval", "debug", "lsp", "lsp_rename", "ast_grep", "ast_edit", "vibe_wait"})
TASK_CAPABILITY: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
DEFAULT_TTL_MS = 3_600_000
TTL_BOUNDS_MS = (60_000, 86_400_000)
POLL_INTERVAL_MS = 1000
MAX_WORKING = 32  # tasks working at once on one connection (each holds a call and what it started)
TERMINAL = ("completed", "failed", "cancelled")
LEGACY, EXTENSION = "2025-11-25", TASKS_EXTENSION  # the two forms a task is made in

Work = Callable[[str, ProgressBoard], Awaitable[dict[str, Any]]]
Notify = Callable[[str, dict[str, Any]], Awaitable[None]]


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _error(error: RPCError) -> dict[str, Any]:
    return {"code": error.code, "message": error.message, **({"data": error.data} if error.data is not None else {})}


@dataclass
class _Task:
    id: str
    ttl: int
    form: str
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    status: str = "working"
    message: str = ""
    board: ProgressBoard = field(default_factory=ProgressBoard)
    job: asyncio.Task[dict[str, Any]] | None = None
    outcome: dict[str, Any] | RPCError | None = None

    def view(self, *, detailed: bool = False) -> dict[str, Any]:
        """The task as its form shows it (`detailed`: with the extension's result or error)."""
        message = self.message
        if self.status == "working":
            now = self.board.now()
            message = now[0] if now is not None else "running"
        view: dict[str, Any] = {"taskId": self.id, "status": self.status, "statusMessage": message,
                                "createdAt": _stamp(self.created), "lastUpdatedAt": _stamp(self.updated)}
        if self.form == LEGACY:
            return {**view, "ttl": self.ttl, "pollInterval": POLL_INTERVAL_MS}
        view.update(ttlMs=self.ttl, pollIntervalMs=POLL_INTERVAL_MS)
        if detailed and self.status == "completed" and isinstance(self.outcome, dict):
            view["result"] = self.outcome
        elif detailed and self.status == "failed" and isinstance(self.outcome, RPCError):
            view["error"] = _error(self.outcome)
        return view


class TaskBook:
    """The tasks of one connection."""

    def __init__(self, notify: Notify) -> None:
        self._notify = notify
        self._tasks: dict[str, _Task] = {}
        self._telling: set[asyncio.Future[None]] = set()  # status notifications being sent

    # Making tasks -----------------------------------------------------------------------

    def start(self, work: Work, requested: Any) -> dict[str, Any]:
        """2025-11-25: run `work` as the task the client asked for; the ``CreateTaskResult``."""
        self._room()
        if not isinstance(requested, dict):
            raise RPCError(INVALID_PARAMS, f"\"task\" must be an object (with an optional \"ttl\" in ms), got {requested!r}")
        ttl = requested.get("ttl")
        if ttl is not None and (not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0):
            raise RPCError(INVALID_PARAMS, f"task \"ttl\" must be a whole number of milliseconds, got {ttl!r}")
        low, high = TTL_BOUNDS_MS
        task = self._begin(work, DEFAULT_TTL_MS if ttl is None else min(max(ttl, low), high), LEGACY)
        self._keep(task)
        return {"task": task.view()}

    async def run_or_task(self, work: Work, after: float, hold: Callable[[], bool] = lambda: False) -> dict[str, Any]:
        """The extension: `work`'s result when it ends within `after` seconds, else a task
        for it (``resultType: "task"``) while it runs on. While `hold()` (a question to the
        person is open: it is answered before the call becomes a task) the time does not run."""
        self._room()
        task = self._begin(work, DEFAULT_TTL_MS, EXTENSION)
        assert task.job is not None
        try:
            waited = 0.0
            while waited < after and not task.job.done():
                await asyncio.wait({task.job}, timeout=0.1)
                waited += 0 if hold() else 0.1
        except asyncio.CancelledError:  # the plain call was cancelled while it was one
            task.job.cancel()
            raise
        if task.job.done():
            return task.job.result()  # answered plainly; a protocol error is raised as it is
        self._keep(task)
        return {"resultType": "task", **task.view()}

    def _room(self) -> None:
        working = [t.id for t in self._tasks.values() if t.status == "working"]
        if len(working) >= MAX_WORKING:
            raise RPCError(INVALID_REQUEST, f"{len(working)} tasks are working already, the most one connection may have: "
                           "wait for some to finish (tasks/get) or cancel them (tasks/cancel), then call again")

    def _begin(self, work: Work, ttl: int, form: str) -> _Task:
        self._forget_expired()
        task = _Task(uuid.uuid4().hex, ttl, form)
        task.job = asyncio.ensure_future(work(task.id, task.board))
        return task

    def _keep(self, task: _Task) -> None:
        assert task.job is not None
        self._tasks[task.id] = task
        task.job.add_done_callback(lambda job: self._finished(task, job))

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
            failed = bool(result.get("isError"))
            # 2025-11-25 marks a tool's error as a failed task; the extension keeps "failed" for
            # protocol errors and completes a task whose tool reported an error
            task.status = "failed" if failed and task.form == LEGACY else "completed"
            task.message = "the tool reported an error" if failed else "done"
        task.updated = time.time()
        if task.form == LEGACY:  # the extension sends status only to a subscription
            with contextlib.suppress(RuntimeError):  # the loop is closing: nobody to tell
                telling = asyncio.ensure_future(self._tell(task))
                self._telling.add(telling)
                telling.add_done_callback(self._telling.discard)

    async def _tell(self, task: _Task) -> None:
        with contextlib.suppress(Exception):
            await self._notify("notifications/tasks/status", task.view())

    # What the client asks ---------------------------------------------------------------

    def _find(self, params: Any, form: str) -> _Task:
        params = params_object(params)
        task_id = params.get("taskId")
        self._forget_expired()
        task = self._tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None or task.form != form:
            known = ", ".join(t.id for t in self._tasks.values() if t.form == form) or "none"
            raise RPCError(INVALID_PARAMS, f"no task {task_id!r}: it never existed or its ttl passed; the tasks are {known}")
        return task

    def get(self, params: Any, form: str = LEGACY) -> dict[str, Any]:
        return self._find(params, form).view(detailed=True)

    async def result(self, params: Any) -> dict[str, Any]:
        """2025-11-25: the task's result once it has one (waits while it runs)."""
        task = self._find(params, LEGACY)
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
        return {"tasks": [task.view() for task in self._tasks.values() if task.form == LEGACY]}

    def update(self, params: Any) -> dict[str, Any]:
        """The extension's answers to a task's questions: this server's tasks ask none, so
        there is never an outstanding one and the answers are let go (the task must exist)."""
        self._find(params, EXTENSION)
        return {}

    async def cancel(self, params: Any, form: str = LEGACY) -> dict[str, Any]:
        """Stop the task's work (what it started is stopped with it) and mark it cancelled."""
        task = self._find(params, form)
        if task.status in TERMINAL:
            raise RPCError(INVALID_PARAMS, f"task {task.id} is already {task.status}; only a working task can be cancelled")
        task.message = "cancelled by the client"
        assert task.job is not None
        task.job.cancel()
        with contextlib.suppress(BaseException):
            await task.job
        return task.view() if form == LEGACY else {}

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
