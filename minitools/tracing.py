"""Message tracing for auditors: every message in and out, as JSON lines.

A tracer is a callable ``(direction, peer, message)``; `direction` is ``"send"`` or
``"recv"`` (or ``"event"`` for transport happenings such as a child exiting), `peer`
names the other side (``"basedpyright"``, ``"debugpy"``, ``"kernel:python"``).
``Run(trace=path)`` or ``MINITOOLS_TRACE=path`` writes them to a file.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Tracer", "FileTracer", "TraceTarget", "make_tracer", "StderrLog", "log_to_stderr"]

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


class StderrLog(logging.Handler):
    """Log records written to a file descriptor (stderr) as one short line each, without ever
    blocking the logger: a host that does not drain our stderr must not freeze the server
    (each bad message from a language server used to log a traceback there, and the write
    blocked the event loop once the pipe was full).

    - A record's exception is summarised (its type, message and where it was raised), never a
      traceback, and a line is cut at `max_chars`.
    - At most `burst` lines, then `per_second` a second (a token bucket); lines past that are
      counted, and the count is written with the next line let through, or alone once a second
      passes without one.
    - Lines go through a queue of at most `queue` lines to a writer thread; when the reader
      stops reading, only that thread waits, and lines past the queue are dropped (and counted).
    """

    def __init__(self, fd: int = 2, *, burst: int = 20, per_second: float = 2.0, queue: int = 100,
                 max_chars: int = 400) -> None:
        super().__init__()
        self.fd = fd
        self.burst = burst
        self.per_second = per_second
        self.max_chars = max_chars
        self.suppressed = 0  # lines not written (over the rate, or the queue full) since the last one written
        self._tokens = float(burst)
        self._refilled = time.monotonic()
        self._lines: collections.deque[str] = collections.deque()
        self._queue_limit = queue
        self._ready = threading.Condition()
        self._writer: threading.Thread | None = None
        self._closing = False

    def summary(self, record: logging.LogRecord) -> str:
        """`record` as one line: level, message, and the exception in brief."""
        line = f"minitools: {record.levelname.lower()}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f" ({Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno})" if tb is not None else ""
            line += f": {type(exc).__name__}: {exc}{where}"
        line = " ".join(line.split())
        return line if len(line) <= self.max_chars else line[: self.max_chars - 1] + "…"

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.summary(record)
        except Exception:  # noqa: BLE001 -- a record that cannot be formatted is counted, not raised
            self.suppressed += 1
            return
        with self._ready:
            now = time.monotonic()
            self._tokens = min(float(self.burst), self._tokens + (now - self._refilled) * self.per_second)
            self._refilled = now
            if self._tokens < 1 or len(self._lines) >= self._queue_limit:
                self.suppressed += 1
                return
            self._tokens -= 1
            if self.suppressed:
                line += f" ({self.suppressed} earlier log lines were not written: too many, too fast)"
                self.suppressed = 0
            self._lines.append(line + "\n")
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_lines, name="minitools-stderr-log", daemon=True)
                self._writer.start()
            self._ready.notify()

    def close(self) -> None:
        """Write what is queued (bounded: a reader that never reads gets up to a second), then
        stop the writer thread, which a forking search would otherwise count as running."""
        with self._ready:
            self._closing = True
            self._ready.notify()
        writer = self._writer
        if writer is not None:
            writer.join(timeout=1.0)
        super().close()

    def _write_lines(self) -> None:
        while True:
            with self._ready:
                while not self._lines:
                    if self._closing:
                        return
                    # lines held back are counted in a line of their own once things are quiet
                    if not self._ready.wait(timeout=1.0 if self.suppressed else None) and self.suppressed:
                        self._lines.append(f"minitools: {self.suppressed} more log lines were not written "
                                           "(too many, too fast)\n")
                        self.suppressed = 0
                data = self._lines.popleft().encode("utf-8", errors="replace")
            try:
                while data:
                    data = data[os.write(self.fd, data):]
            except OSError:  # the reader is gone (EPIPE, closed): nothing more is written
                with self._ready:
                    self._lines.clear()
                    self._queue_limit = 0
                return


def log_to_stderr() -> StderrLog | None:
    """Send the "minitools" logs to stderr through a `StderrLog`, for a server whose host reads
    our stderr (`minitools mcp`, `minitools serve`), unless logging is configured already (an
    embedding host's handlers stay in charge) or it was done before. Without it, Python's
    last-resort handler writes each warning and its traceback to stderr, blocking."""
    logger = logging.getLogger("minitools")
    if logger.handlers or logging.getLogger().handlers:
        found = next((h for h in logger.handlers if isinstance(h, StderrLog)), None)
        return found
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # no stderr, or not a real file: nothing to protect
        return None
    handler = StderrLog(fd)
    handler.setLevel(logging.WARNING)
    logger.addHandler(handler)
    return handler
