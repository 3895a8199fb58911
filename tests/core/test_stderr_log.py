"""tracing.StderrLog: a log record never blocks the logger, whatever the reader of the pipe does,
and what reaches the pipe is one short line a record, rate-limited, with the rest counted."""

from __future__ import annotations

import logging
import os
import threading

from minitools.tracing import StderrLog


def _record(n: int) -> logging.LogRecord:
    try:
        raise AttributeError("'int' object has no attribute 'startswith'")
    except AttributeError as exc:
        return logging.LogRecord("minitools.transport", logging.ERROR, __file__, 1, "handler %d failed", (n,),
                                 (type(exc), exc, exc.__traceback__))


def test_a_pipe_nobody_reads_never_blocks_the_logger() -> None:
    unread, write_end = os.pipe()
    handler = StderrLog(write_end, burst=5000, per_second=0.0, queue=100)
    done = threading.Event()

    def emit_many() -> None:
        for n in range(20000):  # each line ~150 bytes: the 64 KB pipe is full long before the end
            handler.handle(_record(n))
        done.set()

    threading.Thread(target=emit_many, daemon=True).start()
    assert done.wait(60), "emitting blocked on the full pipe"
    assert handler.suppressed > 0  # counted, not queued without bound
    os.close(write_end)
    os.set_blocking(unread, False)
    written = os.read(unread, 1 << 20).decode()
    os.close(unread)
    handler.close()  # the reader is gone: the writer stops
    first = written.splitlines()[0]
    assert first.startswith("minitools: error: handler 0 failed: AttributeError: 'int' object has no attribute 'startswith' "
                            "(test_stderr_log.py:"), first
    assert "Traceback" not in written


def test_lines_past_the_rate_are_counted_in_a_line_of_their_own() -> None:
    read_end, write_end = os.pipe()
    handler = StderrLog(write_end, burst=3, per_second=0.0)
    for n in range(10):
        handler.handle(_record(n))
    with os.fdopen(read_end, "rb") as reader:
        lines = [reader.readline().decode() for _ in range(4)]  # waits for the count, bounded by the test timeout
    os.close(write_end)
    assert [line.split(": ")[2] for line in lines[:3]] == ["handler 0 failed", "handler 1 failed", "handler 2 failed"]
    assert lines[3] == "minitools: 7 more log lines were not written (too many, too fast)\n"
    handler.close()
    assert handler._writer is not None and not handler._writer.is_alive()  # no thread left behind
