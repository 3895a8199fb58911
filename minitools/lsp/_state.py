"""A catalog server's state for one root, and the moves between those states, in one table:

- stopped (usable, not started) → running (started), failed (it did not start);
- running → crashed (its connection ended while in use), stopped (`reload`, the run's end);
- crashed → running (restarted on the next call), failed (the restart failed), stopped (`reload`);
- failed → stopped (`reload` forgets start failures).
no-root and no-binary are the workspace's facts, not moves: no server starts from them.
"""

from __future__ import annotations

import enum

__all__ = ["ServerState", "TRANSITIONS", "check_move"]


class ServerState(str, enum.Enum):
    STOPPED = "stopped"
    RUNNING = "running"
    CRASHED = "crashed"
    FAILED = "failed"
    NO_ROOT = "no-root"
    NO_BINARY = "no-binary"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


TRANSITIONS: dict[ServerState, frozenset[ServerState]] = {
    ServerState.STOPPED: frozenset({ServerState.RUNNING, ServerState.FAILED}),
    ServerState.RUNNING: frozenset({ServerState.CRASHED, ServerState.STOPPED}),
    ServerState.CRASHED: frozenset({ServerState.RUNNING, ServerState.FAILED, ServerState.STOPPED}),
    ServerState.FAILED: frozenset({ServerState.STOPPED}),
    ServerState.NO_ROOT: frozenset(),
    ServerState.NO_BINARY: frozenset(),
}


def check_move(old: ServerState, new: ServerState) -> None:
    """Raise RuntimeError unless the table allows ``old → new`` (a bug in the supervisor)."""
    if new not in TRANSITIONS[old]:
        raise RuntimeError(f"a language server cannot move from {old.value} to {new.value}")
