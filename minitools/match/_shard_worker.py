"""A shard worker's entry point: ``python -m minitools.match._shard_worker ROOT MAX_FILE_BYTES
CACHE_BYTES``, started by `ShardPool`. It runs a plain in-process Searcher over the files
each request names and answers on stdout, in the pool's length-prefixed pickles. A thread
reads the pipe, so that a `("cancel",)` after a request cancels its search's budget while it
runs (the pool sends one only while it waits for that search's answer).

Its own module, so that the pool (imported by the searcher) does not import the searcher.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

from minitools.match._budget import Budget
from minitools.match._many_files import Searcher
from minitools.match._pattern import compile_pattern
from minitools.match._pool import recv_message, send_message

__all__ = ["main"]


def _watch_parent(interval: float = 0.5) -> None:
    """Exit as soon as the parent is gone (this process was re-parented), even mid-search: a
    worker never outlives the process that started it, however that one ended."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str]) -> int:
    _watch_parent()
    root, max_file_bytes, cache_bytes = argv[0], int(argv[1]), int(argv[2])
    searcher = Searcher(Path(root), max_file_bytes=max_file_bytes, cache_bytes=cache_bytes, workers=1)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but replies may reach the channel
    requests: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
    threading.Thread(target=_read_requests, args=(inp, requests), name="requests", daemon=True).start()
    while (request := requests.get()) is not None:
        _, source, language, paths, budget = request
        try:
            pattern = compile_pattern(source, language)
            outcome = searcher.search_files(pattern, paths, budget, ordered=False)
            send_message(out, ("ok", tuple(outcome)))
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which searches in-process instead
            send_message(out, ("error", repr(exc)))
    return 0


def _read_requests(inp: Any, requests: queue.SimpleQueue[tuple[Any, ...] | None]) -> None:
    """Hand each search request on; a cancel cancels the budget of the latest one (which
    has it before the search starts, so a cancel is never too early)."""
    latest: Budget | None = None
    while True:
        try:
            message = recv_message(inp)
        except EOFError:
            requests.put(None)
            return
        if message[0] == "cancel":
            if latest is not None:
                latest.cancel()
            continue
        latest = message[-1]
        requests.put(message)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
