"""Worker states and the moves between them, in one table (docs/tools.md, "vibe_*").

- running → done (exit 0 with a non-empty result), failed (non-zero exit, an exception, or
  an empty result), killed (vibe_kill or Run close), stalled (no output for a while);
- stalled → running (output grew again), or done/failed/killed as from running;
- any state → running when vibe_send starts it again with a longer brief.
Running and stalled workers hold a process and count against the concurrency cap.
"""

from __future__ import annotations

import enum

from minitools.states import MoveTable

__all__ = ["Status", "TRANSITIONS", "LocalStateError", "check_move"]


class Status(str, enum.Enum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    KILLED = "killed"
    STALLED = "stalled"

    @property
    def is_active(self) -> bool:
        """Holds a process (counts against the cap)."""
        return self in (Status.RUNNING, Status.STALLED)

    @property
    def is_settled(self) -> bool:
        """What vibe_wait waits for: finished, or stalled (someone must act)."""
        return self is not Status.RUNNING


class LocalStateError(RuntimeError):
    """minitools tried a move the table does not allow (a bug here, not in the worker)."""


_SETTLE = {Status.DONE, Status.FAILED, Status.KILLED}
TRANSITIONS: MoveTable[Status] = MoveTable("a worker", {
    Status.RUNNING: frozenset(_SETTLE | {Status.STALLED, Status.RUNNING}),
    Status.STALLED: frozenset(_SETTLE | {Status.RUNNING}),
    Status.DONE: frozenset({Status.RUNNING}),
    Status.FAILED: frozenset({Status.RUNNING}),
    Status.KILLED: frozenset({Status.RUNNING}),
}, LocalStateError)
check_move = TRANSITIONS.check

