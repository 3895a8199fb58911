"""Bounded waits for things outside the event loop, and a liveness check for pids."""

from __future__ import annotations

import asyncio
from pathlib import Path


def is_alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (a container's init may not reap at once)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


async def until(predicate, timeout: float = 10.0, what: str = "the condition") -> None:
    """Wait, bounded, for something outside the event loop (a file, a process ending)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
