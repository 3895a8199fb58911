"""Where the debugged program is, and the moves between those states, in one table
(docs/tools.md, "debug"):

- starting → running, stopped (a breakpoint before the first step), exited;
- running → stopped (a "stopped" event), exited ("exited" or "terminated"), running;
- stopped → running (continue, a step, a "continued" event), stopped (another thread), exited;
- exited is final: an adapter's event after the end (a late "stopped") changes nothing.
"""

from __future__ import annotations

import enum

__all__ = ["RunState", "TRANSITIONS", "allowed"]


class RunState(str, enum.Enum):
    STARTING = "starting"
    RUNNING = "running"
    STOPPED = "stopped"
    EXITED = "exited"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


_LIVE = frozenset({RunState.RUNNING, RunState.STOPPED, RunState.EXITED})
TRANSITIONS: dict[RunState, frozenset[RunState]] = {
    RunState.STARTING: _LIVE,
    RunState.RUNNING: _LIVE,
    RunState.STOPPED: _LIVE,
    RunState.EXITED: frozenset({RunState.EXITED}),
}


def allowed(old: RunState, new: RunState) -> bool:
    """Whether the table allows ``old → new``."""
    return new in TRANSITIONS[old]
