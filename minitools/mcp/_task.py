"""One MCP task and how each form shows it (docs/architecture.md, "minitools mcp"): its status
(``working``, ``input_required`` while a question to the person waits, then ``completed``,
``failed`` or ``cancelled``), what the call is doing now as the status message, and the
questions it waits on.

A question keeps its key for the task's life (``question-1``, ``question-2``, ...), so an answer
can only ever reach the question it was given for. The 2025-11-25 form shows the task with
``ttl`` and ``pollInterval``; the ``io.modelcontextprotocol/tasks`` extension of 2026-07-28 with
``ttlMs`` and ``pollIntervalMs`` and, in its detailed view (``tasks/get``,
``notifications/tasks``), the questions waiting (``inputRequests``), the result or the error.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from minitools.progress import ProgressBoard
from minitools.transport import RPCError

__all__ = ["Task", "LEGACY", "EXTENSION", "TASKS_EXTENSION", "TERMINAL", "POLL_INTERVAL_MS"]

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
LEGACY, EXTENSION = "2025-11-25", TASKS_EXTENSION  # the two forms a task is made in
POLL_INTERVAL_MS = 1000
TERMINAL = ("completed", "failed", "cancelled")


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _error(error: RPCError) -> dict[str, Any]:
    return {"code": error.code, "message": error.message, **({"data": error.data} if error.data is not None else {})}


def _first_line(request: dict[str, Any]) -> str:
    params = request.get("params")
    message = params.get("message") if isinstance(params, dict) else None
    return message.splitlines()[0] if isinstance(message, str) and message.strip() else request.get("method", "a question")


@dataclass
class Task:
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
    # the questions to the person not answered yet, by key: the request and where its answer goes
    waiting: dict[str, tuple[dict[str, Any], asyncio.Future[Any]]] = field(default_factory=dict)
    asked: int = 0  # questions asked so far: keys are never reused

    def is_issued(self, key: str) -> bool:
        """Whether `key` names a question this task asked (answered or not)."""
        number = key.removeprefix("question-")
        return key.startswith("question-") and number.isdigit() and 1 <= int(number) <= self.asked

    def new_question(self, request: dict[str, Any]) -> tuple[str, asyncio.Future[Any]]:
        """Record a question; its key and the future its answer will be set on."""
        self.asked += 1
        key = f"question-{self.asked}"
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[key] = (request, answer)
        return key, answer

    def outstanding(self) -> dict[str, dict[str, Any]]:
        """The questions waiting for an answer, by key."""
        return {key: request for key, (request, answer) in self.waiting.items() if not answer.done()}

    def view(self, *, detailed: bool = False) -> dict[str, Any]:
        """The task as its form shows it (`detailed`: with the extension's questions, result or error)."""
        message = self.message
        if self.status == "working":
            now = self.board.now()
            message = now[0] if now is not None else "running"
        elif self.status == "input_required":
            asked = list(self.outstanding().values())
            message = f"waiting for the person's answer: {_first_line(asked[0])}" if asked else "waiting for an answer"
        view: dict[str, Any] = {"taskId": self.id, "status": self.status, "statusMessage": message,
                                "createdAt": _stamp(self.created), "lastUpdatedAt": _stamp(self.updated)}
        if self.form == LEGACY:
            return {**view, "ttl": self.ttl, "pollInterval": POLL_INTERVAL_MS}
        view.update(ttlMs=self.ttl, pollIntervalMs=POLL_INTERVAL_MS)
        if detailed and self.status == "input_required":
            view["inputRequests"] = self.outstanding()
        elif detailed and self.status == "completed" and isinstance(self.outcome, dict):
            view["result"] = self.outcome
        elif detailed and self.status == "failed" and isinstance(self.outcome, RPCError):
            view["error"] = _error(self.outcome)
        return view
