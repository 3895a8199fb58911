"""The worker state table and the package's public surface."""

from __future__ import annotations

import pytest

import minitools.vibe as vibe
from minitools.vibe import LocalStateError, Status, check_move


def test_the_table():
    check_move(Status.RUNNING, Status.STALLED)
    check_move(Status.STALLED, Status.RUNNING)
    check_move(Status.DONE, Status.RUNNING)  # vibe_send re-runs a finished worker
    with pytest.raises(LocalStateError, match="from done to failed"):
        check_move(Status.DONE, Status.FAILED)
    assert [s.value for s in Status if s.is_active] == ["running", "stalled"]
    assert not Status.RUNNING.is_settled and Status.STALLED.is_settled


def test_public_surface():
    assert sorted(vibe.__all__) == sorted([
        "Roster", "RosterSource", "CommandRunner", "CallableRunner", "Runner", "RosterError", "TIERS", "as_roster", "load_roster",
        "WorkerPool", "Worker", "VibeError", "CapReached", "WORKER_ENV",
        "Status", "TRANSITIONS", "LocalStateError", "check_move"])
    assert all(hasattr(vibe, name) for name in vibe.__all__)
