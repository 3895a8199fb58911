"""Debug adapters: the catalog and its detection, DAP sessions and their handshake, and the
supervisor that keeps one session per conversation under a hard TTL."""

from __future__ import annotations

from minitools.dap._buffers import EventLog, OutputBuffer
from minitools.dap._catalog import (
    ADAPTERS,
    BUILT_IN_ADAPTERS,
    Adapter,
    AdapterCatalog,
    Detection,
    Interpreter,
    adapter_by_id,
    adapter_for_program,
    added_adapter,
    attach_adapters,
    detect,
    find_markers,
    loader_for,
    project_python,
)
from minitools.dap._session import STOP_EVENTS, AdapterGone, DAPError, DAPSession, MalformedBody, StepTimeout
from minitools.dap._state import TRANSITIONS, RunState
from minitools.dap._supervisor import DebugSupervisor, Slot

__all__ = [
    "ADAPTERS", "BUILT_IN_ADAPTERS", "Adapter", "AdapterCatalog", "added_adapter",
    "Detection", "Interpreter", "adapter_by_id", "adapter_for_program", "attach_adapters", "detect",
    "find_markers", "loader_for", "project_python", "STOP_EVENTS", "AdapterGone", "DAPError", "DAPSession", "MalformedBody", "EventLog", "OutputBuffer",
    "StepTimeout", "DebugSupervisor", "Slot", "RunState", "TRANSITIONS",
]
