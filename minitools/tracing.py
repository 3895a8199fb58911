"""Message tracing for auditors: every message in and out, as JSON lines.

A tracer is a callable ``(direction, peer, message)``; `direction` is ``"send"`` or
``"recv"`` (or ``"event"`` for transport happenings such as a child exiting), `peer`
names the other side (``"basedpyright"``, ``"debugpy"``, ``"kernel:python"``).
``Run(trace=path)`` or ``MINITOOLS_TRACE=path`` writes them to a file.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Tracer", "FileTracer", "TraceTarget", "make_tracer"]

Tracer = Callable[[str, str, Any], None]


class FileTracer:
    """Appends one JSON object per message: ``{"time", "direction", "peer", "message"}``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self._lock = threading.Lock()

    def __call__(self, direction: str, peer: str, message: Any) -> None:
        record = {"time": time.time(), "direction": direction, "peer": peer, "message": message}
        line = json.dumps(record, ensure_ascii=False, default=repr)
        with self._lock:
            if not self._file.closed:
                self._file.write(line + "\n")
                self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


# what `Run(trace=...)` takes: a callable receiving every message, a file path, or None
TraceTarget = Tracer | str | os.PathLike[str] | None


def make_tracer(trace: TraceTarget) -> Tracer | None:
    """``None`` (then ``$MINITOOLS_TRACE``), a path, or a callable."""
    if trace is None:
        env = os.environ.get("MINITOOLS_TRACE")
        return FileTracer(env) if env else None
    if callable(trace):
        return trace
    return FileTracer(trace)
