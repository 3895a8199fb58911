"""``subscriptions/listen`` under 2026-07-28 (docs/architecture.md, "minitools mcp"): a long-lived
request whose stream carries the notifications the client asked for. This server's tool list
never changes, so of the core filter nothing is taken; the tasks extension adds ``taskIds``, and
each of those this connection has as an extension task is followed: the stream sends
``notifications/tasks`` with the task as ``tasks/get`` would show it at that moment, first its
state when the stream opens, then at each change of its status.

Every message of a stream carries its id (the listen request's JSON-RPC id) in ``_meta``; the
acknowledgment comes first, naming what is followed. The stream ends with the listen request's
result once every task it follows has finished (at once when it follows none), and when the
server stops; the client ends it earlier with ``notifications/cancelled`` naming the listen
request, which is then not answered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.mcp._modern import MISSING_CAPABILITY
from minitools.mcp._task import TASKS_EXTENSION, TERMINAL, Task
from minitools.mcp._tasks import TaskBook
from minitools.protocol import INVALID_PARAMS, INVALID_REQUEST
from minitools.transport import RPCError

__all__ = ["Subscriptions", "SUBSCRIPTION_KEY"]

SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId"
MAX_STREAMS = 32  # open subscriptions of one connection
Notify = Callable[[str, dict[str, Any]], Awaitable[None]]


class _Stream:
    """One open subscription: the tasks it follows, and their views still to send."""

    def __init__(self, following: list[str]) -> None:
        self.following = set(following)
        self.views: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()  # None: the server stops
        self.ended = asyncio.Event()


class Subscriptions:
    """The ``subscriptions/listen`` streams of one connection, fed by its tasks' changes."""

    def __init__(self, notify: Notify, tasks: TaskBook) -> None:
        self._notify = notify
        self._tasks = tasks
        self._streams: dict[Any, _Stream] = {}
        tasks.watch(self._changed)

    async def listen(self, stream_id: Any, params: dict[str, Any], *, declares_tasks: bool) -> dict[str, Any]:
        """Serve one stream until it ends; the listen request's result (its ``_meta``)."""
        task_ids = self._task_ids(params, declares_tasks)
        if stream_id in self._streams:
            raise RPCError(INVALID_REQUEST, f"a subscription with id {stream_id!r} is open already: listen with "
                           "another request id")
        if len(self._streams) >= MAX_STREAMS:
            raise RPCError(INVALID_REQUEST, f"{len(self._streams)} subscriptions are open already, the most one "
                           "connection may have: cancel one (notifications/cancelled with its id) first")
        followed = [task_id for task_id in dict.fromkeys(task_ids or []) if self._tasks.find(task_id) is not None]
        meta = {SUBSCRIPTION_KEY: stream_id}
        await self._notify("notifications/subscriptions/acknowledged",
                           {"_meta": meta, "notifications": {} if task_ids is None else {"taskIds": followed}})
        stream = _Stream(followed)
        self._streams[stream_id] = stream
        try:
            for task_id in followed:  # the state now (no change can come between: watchers are called in line)
                task = self._tasks.find(task_id)
                if task is not None:
                    stream.views.put_nowait(task.view(detailed=True))
            while stream.following:
                view = await stream.views.get()
                if view is None:
                    break
                await self._notify("notifications/tasks", {**view, "_meta": meta})
                if view["status"] in TERMINAL:
                    stream.following.discard(view["taskId"])
        finally:
            del self._streams[stream_id]
            stream.ended.set()
        return {"_meta": meta}

    @staticmethod
    def _task_ids(params: dict[str, Any], declares_tasks: bool) -> list[str] | None:
        wanted = params.get("notifications")
        if not isinstance(wanted, dict):
            raise RPCError(INVALID_PARAMS, "subscriptions/listen needs \"notifications\": an object naming what to "
                           f"follow (here tasks: {{\"taskIds\": [...]}}), got {wanted!r}")
        task_ids = wanted.get("taskIds")
        if task_ids is None:
            return None
        if not isinstance(task_ids, list) or not all(isinstance(task_id, str) for task_id in task_ids):
            raise RPCError(INVALID_PARAMS, f"\"taskIds\" must be a list of task ids (strings), got {task_ids!r}")
        if not declares_tasks:
            raise RPCError(MISSING_CAPABILITY, "following tasks (\"taskIds\") needs the tasks extension declared in "
                           f"the request's capabilities (\"extensions\": {{\"{TASKS_EXTENSION}\": {{}}}})",
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        return task_ids

    def _changed(self, task: Task) -> None:
        view = task.view(detailed=True)
        for stream in self._streams.values():
            if task.id in stream.following:
                stream.views.put_nowait(view)

    async def close(self) -> None:
        """End every stream with its result (the server stops)."""
        streams = list(self._streams.values())
        for stream in streams:
            stream.views.put_nowait(None)
        for stream in streams:
            with contextlib.suppress(asyncio.CancelledError):
                await stream.ended.wait()
