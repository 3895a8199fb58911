"""Background workers directed by the vibe_* tools (docs/tools.md, "vibe_*"): the roster, the
worker pool and the worker state machine."""

from minitools.vibe._pool import WORKER_ENV, CapReached, VibeError, Worker, WorkerPool
from minitools.vibe._roster import TIERS, CallableRunner, CommandRunner, Roster, RosterError, RosterSource, Runner, as_roster, load_roster
from minitools.vibe._state import TRANSITIONS, LocalStateError, Status, check_move

__all__ = [
    "Roster",
    "RosterSource",
    "CommandRunner",
    "CallableRunner",
    "Runner",
    "RosterError",
    "TIERS",
    "as_roster",
    "load_roster",
    "WorkerPool",
    "Worker",
    "VibeError",
    "CapReached",
    "WORKER_ENV",
    "Status",
    "TRANSITIONS",
    "LocalStateError",
    "check_move",
]
