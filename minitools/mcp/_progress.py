"""``notifications/progress`` for one call while it runs (docs/architecture.md, "minitools mcp"):
every `interval` seconds, what the call's progress board says it is doing — a phase with its
done and total where they are counted ("indexing 5/13", "files searched 40 of 120"), a cell's
last output line, what a queued call waits for — or, where nothing reports, how long it has
been running. The progress value only grows, as the protocol asks: a phase whose count starts
lower than the last one sent moves it on by one, without a total, until its count passes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from minitools.progress import ProgressBoard

__all__ = ["report_progress", "RELATED_TASK_KEY"]

RELATED_TASK_KEY = "io.modelcontextprotocol/related-task"
Notify = Callable[[str, dict[str, Any]], Awaitable[None]]


async def report_progress(notify: Notify, token: str | int, name: str, board: ProgressBoard, interval: float,
                          task_id: str | None = None) -> None:
    """Send the call's progress to the client until cancelled (a failed send is let go)."""
    start = time.monotonic()
    sent = 0
    while True:
        await asyncio.sleep(interval)
        state = board.now()
        message, done, total = state if state is not None else (
            f"{name} running for {time.monotonic() - start:.0f} s", None, None)
        params: dict[str, Any] = {"progressToken": token, "message": message}
        if done is not None and done > sent:
            sent = done
            if total is not None and total >= done:
                params["total"] = total
        else:
            sent += 1
        params["progress"] = sent
        if task_id is not None:
            params["_meta"] = {RELATED_TASK_KEY: {"taskId": task_id}}
        with contextlib.suppress(Exception):
            await notify("notifications/progress", params)
