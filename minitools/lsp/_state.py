"""A catalog server's state for one root, and the moves between those states, in one table:

- stopped (usable, not started) → running (started), failed (it did not start);
- running → crashed (its connection ended while in use), stopped (`reload`, the run's end);
- crashed → running (restarted on the next call), failed (the restart failed), stopped (`reload`);
- failed → stopped (`reload` forgets start failures).
no-root and no-binary are the workspace's facts, not moves: no server starts from them.
"""

from __future__ import annotations

from minitools.states import MoveTable, NamedState

__all__ = ["ServerState", "TRANSITIONS", "check_move"]


class ServerState(NamedState):
    STOPPED = "stopped"
    RUNNING = "running"
    CRASHED = "crashed"
    FAILED = "failed"
    NO_ROOT = "no-root"
    NO_BINARY = "no-binary"


TRANSITIONS: MoveTable[ServerState] = MoveTable("a language server", {
    ServerState.STOPPED: frozenset({ServerState.RUNNING, ServerState.FAILED}),
    ServerState.RUNNING: frozenset({ServerState.CRASHED, ServerState.STOPPED}),
    ServerState.CRASHED: frozenset({ServerState.RUNNING, ServerState.FAILED, ServerState.STOPPED}),
    ServerState.FAILED: frozenset({ServerState.STOPPED}),
    ServerState.NO_ROOT: frozenset(),
    ServerState.NO_BINARY: frozenset(),
})
check_move = TRANSITIONS.check  # RuntimeError: a bug in the supervisor
