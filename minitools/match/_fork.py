"""One-shot parallel search by fork: for a process that searches once and exits (the CLI).

The children are copies of the caller, grammars and compiled pattern included, so they start
in a millisecond where a fresh worker takes a tenth of a second to import. Work is shared
out file by file, largest first: every item's index is written into a pipe up front, and
each process (the caller too) takes the next one with a 4-byte read, which a pipe hands to
exactly one reader. Each child sends back its results as one pickle and leaves with
`os._exit`, so nothing of the caller's (buffered output, exit handlers) runs twice.

Only where fork is safe: a POSIX system and a caller with a single thread. A child that
dies takes its files' results with it; the caller then searches everything in-process.
"""

from __future__ import annotations

import os
import struct
import threading
from collections.abc import Callable, Iterator, Sequence

from minitools.match._outcome import FilesOutcome, merge

__all__ = ["fork_available", "forked_search"]

_INDEX = struct.Struct("=I")
MAX_ITEMS = 4096 // _INDEX.size


def fork_available() -> bool:
    """Whether a fork here copies a consistent process: POSIX, and no other thread running."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _drain(work: int, items: Sequence[Sequence[str]], search: Callable[[Sequence[str]], FilesOutcome]) -> FilesOutcome:
    def shares() -> Iterator[FilesOutcome]:
        while len(got := os.read(work, _INDEX.size)) == _INDEX.size:
            yield search(items[_INDEX.unpack(got)[0]])

    return merge(shares())


def _write_all(fd: int, blob: bytes) -> None:
    view = memoryview(blob)
    while view:
        view = view[os.write(fd, view) :]


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def forked_search(
    search: Callable[[Sequence[str]], FilesOutcome], files: Sequence[str], sizes: Sequence[int], workers: int
) -> FilesOutcome | None:
    """`search` over `files` in this process and `workers - 1` forked children, merged; None
    when a child failed (the caller then searches in-process)."""
    import pickle  # here: a search that forks no children (a small one) does not load it
    order = sorted(range(len(files)), key=lambda i: -sizes[i])
    # the queue is written whole before any fork, so it must fit a pipe's smallest buffer
    # (one page): at most MAX_ITEMS items, each a stripe of the files, largest first
    n = min(len(order), MAX_ITEMS)
    items = [[files[i] for i in order[k::n]] for k in range(n)]
    work_r, work_w = os.pipe()
    children: list[tuple[int, int]] = []
    try:
        _write_all(work_w, b"".join(_INDEX.pack(k) for k in range(n)))
        os.close(work_w)
        work_w = -1
        for _ in range(workers - 1):
            res_r, res_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child
                code = 0
                try:
                    os.close(res_r)
                    for _pid, fd in children:
                        os.close(fd)
                    out = pickle.dumps(("ok", _drain(work_r, items, search)), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException as exc:  # noqa: BLE001 - reported; the parent searches in-process
                    out = pickle.dumps(("error", repr(exc)))
                    code = 1
                try:
                    _write_all(res_w, out)
                finally:
                    os._exit(code)
            os.close(res_w)
            children.append((pid, res_r))
        mine = _drain(work_r, items, search)
    except BaseException:
        for pid, fd in children:
            os.close(fd)
            os.waitpid(pid, 0)
        raise
    finally:
        os.close(work_r)
        if work_w != -1:
            os.close(work_w)
    return _merge(mine, children)


def _merge(mine: FilesOutcome, children: list[tuple[int, int]]) -> FilesOutcome | None:
    import pickle
    outcomes = [mine]
    failed = False
    for pid, fd in children:
        try:
            blob = _read_all(fd)
        finally:
            os.close(fd)
            os.waitpid(pid, 0)
        try:
            status, payload = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - a garbled reply: that share is searched in-process
            failed = True
            continue
        if status != "ok":
            failed = True
            continue
        outcomes.append(FilesOutcome(*payload))
    return None if failed else merge(outcomes)
