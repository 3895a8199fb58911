"""Where the debugged program is, and the moves between those states, in one table
(docs/tools.md, "debug"):

- starting → running, stopped (a breakpoint before the first step), exited;
- running → stopped (a "stopped" event), exited ("exited" or "terminated"), running;
- stopped → running (continue, a step, a "continued" event), stopped (another thread), exited;
- exited is final: an adapter's event after the end (a late "stopped") changes nothing.
"""

from __future__ import annotations

from minitools.states import MoveTable, NamedState

__all__ = ["RunState", "TRANSITIONS", "allowed"]


class RunState(NamedState):
    STARTING = "starting"
    RUNNING = "running"
    STOPPED = "stopped"
    EXITED = "exited"


_LIVE = frozenset({RunState.RUNNING, RunState.STOPPED, RunState.EXITED})
TRANSITIONS: MoveTable[RunState] = MoveTable("a debugged program", {
    RunState.STARTING: _LIVE,
    RunState.RUNNING: _LIVE,
    RunState.STOPPED: _LIVE,
    RunState.EXITED: frozenset({RunState.EXITED}),
})
allowed = TRANSITIONS.allowed
