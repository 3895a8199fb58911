"""MCP tasks for the tools that take long, in both forms (docs/architecture.md, "minitools mcp"):

- 2025-11-25 (an initialized session): the client asks for a task (``params.task``); the call
  is answered at once with ``{"task": ...}``, and the client asks ``tasks/get`` (the status, and
  what the call is doing now as the status message), ``tasks/result`` (waits for the end), and
  ``tasks/list``; status changes are sent as ``notifications/tasks/status``.
- the ``io.modelcontextprotocol/tasks`` extension of 2026-07-28: the client declares it in the
  request's capabilities and the server decides; here a call still running after
  `ToolMethods.task_after` seconds (_tool_methods.py) becomes a task (``resultType: "task"``),
  a shorter one is answered plainly. ``tasks/get`` carries the result (or the protocol error) once there is one;
  status changes go to the client's ``subscriptions/listen`` streams (_listen.py).

A task's call that asks the person (ask_user from a cell, the permission card of ``--approve
ask``) moves the task to ``input_required`` until the answer comes: on 2025-11-25 the question
goes out as ``elicitation/create`` tied to the task (``io.modelcontextprotocol/related-task`` in
its ``_meta``); under the extension it waits in ``tasks/get``'s ``inputRequests`` and the answer
comes in ``tasks/update``'s ``inputResponses``. Then the task works on.

In both, ``tasks/cancel`` stops the work as ``notifications/cancelled`` does (the cell is
interrupted, the server request cancelled), a task's result is the same the plain call returns,
and a finished task is kept for its ttl (the client's, between a minute and a day; an hour when
it names none), then forgotten. The two forms are not mixed: a task answers in the form it was
made in.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.mcp._progress import RELATED_TASK_KEY
from minitools.mcp._task import EXTENSION, LEGACY, TASKS_EXTENSION, TERMINAL, Task
from minitools.progress import ProgressBoard
from minitools.protocol import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST
from minitools.transport import RPCError, params_object

__all__ = ["TaskBook", "LONG_TOOLS", "TASK_CAPABILITY", "TASKS_EXTENSION", "Work", "LEGACY", "EXTENSION"]

# the tools a client may run as a task: those whose calls can take minutes (a cell, a debug
# session run to a breakpoint, the project's checker, a worker's wait, a search, edit or rename
# over a tree); the others answer at once and are called plainly
LONG_TOOLS = frozenset({"eval", "debug", "lsp", "lsp_rename", "ast_grep", "ast_edit", "vibe_wait"})
TASK_CAPABILITY: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
DEFAULT_TTL_MS = 3_600_000
TTL_BOUNDS_MS = (60_000, 86_400_000)
MAX_WORKING = 32  # tasks not finished at once on one connection (each holds a call and what it started)
_RUNNING: contextvars.ContextVar[Task | None] = contextvars.ContextVar("minitools_mcp_task", default=None)

Work = Callable[[str, ProgressBoard], Awaitable[dict[str, Any]]]
Notify = Callable[[str, dict[str, Any]], Awaitable[None]]
Request = Callable[[str, dict[str, Any]], Awaitable[Any]]
Watcher = Callable[[Task], None]


class TaskBook:
    """The tasks of one connection."""

    def __init__(self, notify: Notify, request: Request) -> None:
        self._notify = notify
        self._request = request  # asks the client (2025-11-25: a question tied to a task)
        self._tasks: dict[str, Task] = {}
        self._telling: set[asyncio.Future[None]] = set()  # status notifications being sent
        self._watchers: list[Watcher] = []

    def watch(self, watcher: Watcher) -> None:
        """Call `watcher` with an extension task on each change of its status."""
        self._watchers.append(watcher)

    def find(self, task_id: str, form: str = EXTENSION) -> Task | None:
        """The task `task_id` of `form`, None when there is none (or its ttl passed)."""
        self._forget_expired()
        task = self._tasks.get(task_id)
        return task if task is not None and task.form == form else None

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
        working = [t.id for t in self._tasks.values() if t.status not in TERMINAL]
        if len(working) >= MAX_WORKING:
            raise RPCError(INVALID_REQUEST, f"{len(working)} tasks are working already, the most one connection may have: "
                           "wait for some to finish (tasks/get) or cancel them (tasks/cancel), then call again")

    def _begin(self, work: Work, ttl: int, form: str) -> Task:
        self._forget_expired()
        task = Task(uuid.uuid4().hex, ttl, form)
        running = _RUNNING.set(task)  # the work knows its task: its questions go through it (ask)
        try:
            task.job = asyncio.ensure_future(work(task.id, task.board))
        finally:
            _RUNNING.reset(running)
        return task

    def _keep(self, task: Task) -> None:
        assert task.job is not None
        self._tasks[task.id] = task
        task.job.add_done_callback(lambda job: self._finished(task, job))

    def _finished(self, task: Task, job: asyncio.Task[dict[str, Any]]) -> None:
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
        self._changed(task, task.status)

    def _changed(self, task: Task, status: str, *, tell: bool = True) -> None:
        """`task` is now `status`: say so (2025-11-25: a notification, sent soon unless `tell`
        is false; the extension: to its subscriptions)."""
        task.status, task.updated = status, time.time()
        if task.form == EXTENSION:
            for watcher in self._watchers:
                watcher(task)
        elif tell:
            with contextlib.suppress(RuntimeError):  # the loop is closing: nobody to tell
                telling = asyncio.ensure_future(self._tell(task.view()))
                self._telling.add(telling)
                telling.add_done_callback(self._telling.discard)

    async def _tell(self, view: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self._notify("notifications/tasks/status", view)

    # Questions to the person ------------------------------------------------------------

    def running(self) -> bool:
        """Whether the current call runs as a task the client knows of (its questions go
        through the task, `ask`)."""
        task = _RUNNING.get()
        return task is not None and self._tasks.get(task.id) is task

    async def ask(self, method: str, params: dict[str, Any]) -> Any:
        """Ask the client for the current call's task and wait for the answer; the task is
        ``input_required`` meanwhile."""
        task = _RUNNING.get()
        if task is None or not self.running():
            raise RuntimeError("this call does not run as a task")
        if task.form == LEGACY:  # the request is tied to the task
            meta = params.get("_meta")
            params = {**params, "_meta": {**(meta if isinstance(meta, dict) else {}), RELATED_TASK_KEY: {"taskId": task.id}}}
        key, answer = task.new_question({"method": method, "params": params})
        self._changed(task, "input_required", tell=False)
        if task.form == LEGACY:
            await self._tell(task.view())  # the status is told before the question goes out
        stopping = False  # the task ends as cancelled: it does not work on
        try:
            return await (self._request(method, params) if task.form == LEGACY else answer)
        except asyncio.CancelledError:
            stopping = True
            raise
        finally:
            task.waiting.pop(key, None)
            if task.status == "input_required" and not task.outstanding() and not stopping:
                self._changed(task, "working")

    # What the client asks ---------------------------------------------------------------

    def _find(self, params: Any, form: str) -> Task:
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
        """The extension's answers to a task's questions (``inputResponses``, by question key).
        An answer to a question answered already is let go (a client may send it twice);
        keys the task never asked, and answers to a finished task, are refused, and nothing is
        taken from such an update."""
        task = self._find(params, EXTENSION)
        responses = params_object(params).get("inputResponses")
        if not isinstance(responses, dict):
            raise RPCError(INVALID_PARAMS, f"\"inputResponses\" must be an object of answers by question key (the keys "
                           f"of tasks/get's inputRequests), got {responses!r}")
        waiting = ", ".join(task.outstanding()) or "none"
        if task.status in TERMINAL:
            raise RPCError(INVALID_PARAMS, f"task {task.id} is already {task.status}: it waits for no answers, and "
                           f"{', '.join(map(repr, responses)) or 'none'} was not used")
        unknown = [key for key in responses if not task.is_issued(key)]
        if unknown:
            raise RPCError(INVALID_PARAMS, f"task {task.id} never asked {', '.join(map(repr, unknown))}: it waits for "
                           f"answers to {waiting}; answer those keys as tasks/get's inputRequests name them")
        for key, response in responses.items():
            entry = task.waiting.get(key)
            if entry is not None and not entry[1].done():
                entry[1].set_result(response)
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
