"""One-shot parallel search by fork: for a process that searches once and exits (the CLI).

The children are copies of the caller, grammars and compiled pattern included, so they start
in a millisecond where a fresh worker takes a tenth of a second to import. Work is shared
out by items (a file, or a run of files): every item's index is written into a pipe up
front, and each process (the caller too) takes the next one with a 4-byte read, which a pipe
hands to exactly one reader. Each child sends each item's outcome back as a pickle on its
own pipe as soon as it is done, and leaves with `os._exit`, so nothing of the caller's
(buffered output, exit handlers) runs twice. `forked_stream` yields the outcomes in item
order, reading a child's pipe only as far as the next item needed, so a child that runs
ahead waits on its full pipe (memory bounded by the pipes and a few thousand matches); `forked_search`
merges them all.

Only where fork is safe: a POSIX system and a caller with a single thread. A child that
dies takes the items it held with it: `ChildFailed` says from which item on the outcomes
are missing, and the caller searches those in-process.
"""

from __future__ import annotations

import gc
import os
import struct
import sys
from collections.abc import Callable, Iterator, Sequence

from minitools.match._outcome import FilesOutcome, merge

__all__ = ["ChildFailed", "fork_available", "forked_search", "forked_stream"]

_INDEX = struct.Struct("=I")
MAX_ITEMS = 4096 // _INDEX.size


def fork_available() -> bool:
    """Whether a fork here copies a consistent process: POSIX, and no other thread running
    (none was started through `threading` if it was never imported: the CLI does not)."""
    threading = sys.modules.get("threading")
    return hasattr(os, "fork") and (threading is None or threading.active_count() == 1)


def _write_all(fd: int, blob: bytes) -> None:
    view = memoryview(blob)
    while view:
        view = view[os.write(fd, view) :]


def forked_search(
    search: Callable[[Sequence[str]], FilesOutcome], files: Sequence[str], sizes: Sequence[int], workers: int
) -> FilesOutcome | None:
    """`search` over `files` in this process and `workers - 1` forked children, merged; None
    when a child failed (the caller then searches in-process)."""
    order = sorted(range(len(files)), key=lambda i: -sizes[i])
    # at most MAX_ITEMS items, each a stripe of the files, largest first
    n = min(len(order), MAX_ITEMS)
    items = [[files[i] for i in order[k::n]] for k in range(n)]
    try:
        return merge(forked_stream(search, items, workers))
    except ChildFailed:
        return None


_HEAD = struct.Struct("=II")  # item index, length of the pickled outcome that follows
# This process searches ahead of the item it waits for while the outcomes it holds for later
# items have fewer than AHEAD_MATCHES matches (and are fewer than AHEAD_ITEMS): a child slowed
# down by the machine's other work does not stall it, and what waits is bounded. A child runs
# ahead as far as its pipe holds (CHILD_PIPE_BYTES where the system lets a pipe grow).
AHEAD_MATCHES = 10_000
AHEAD_ITEMS = 256
CHILD_PIPE_BYTES = 1 << 20


class ChildFailed(RuntimeError):
    """A forked child died or answered garbage; the items from `next_item` on have not all
    been handed over (the caller searches them in-process)."""

    def __init__(self, next_item: int) -> None:
        super().__init__(f"a forked search child failed before item {next_item}")
        self.next_item = next_item


def _read_exact(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _serve(work: int, out: int, items: Sequence[Sequence[str]], search: Callable[[Sequence[str]], FilesOutcome]) -> None:
    import pickle

    while len(got := os.read(work, _INDEX.size)) == _INDEX.size:
        k = _INDEX.unpack(got)[0]
        blob = pickle.dumps(tuple(search(items[k])), protocol=pickle.HIGHEST_PROTOCOL)
        # blocks while the parent has not read the items before: it reads in item order
        _write_all(out, _HEAD.pack(k, len(blob)) + blob)


def _widen(fd: int) -> None:
    import contextlib
    import fcntl

    # over the system's limit for a pipe, or not Linux: the default size
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), CHILD_PIPE_BYTES)


def forked_stream(
    search: Callable[[Sequence[str]], FilesOutcome], items: Sequence[Sequence[str]], workers: int
) -> Iterator[FilesOutcome]:
    """`search` of each of `items` (at most MAX_ITEMS), yielded in item order, shared by this
    process and `workers - 1` forked children that take the items from a pipe in order and
    hand each outcome back as it is done. A child's pipe is read only up to the item the
    caller needs next, so a child that runs ahead waits on its full pipe, and this process
    searches ahead only while what it holds is small (AHEAD_MATCHES): the memory held is
    bounded whatever the search finds. Raises ChildFailed (the
    children stopped and reaped) when a child dies; closing the iterator early stops them."""
    # what the processes import for their part (pickle, select, fcntl: a few milliseconds)
    # they import after the fork, each at once, not one after the other before it
    n = len(items)
    if n > MAX_ITEMS:
        raise ValueError(f"{n} items: at most {MAX_ITEMS} fit the work pipe")
    work_r, work_w = os.pipe()
    # the objects made so far are left out of garbage collection while the children live: a
    # collection writes to every object it visits, and each page written is copied (a fork
    # shares the pages until then)
    gc.freeze()
    children = _spawn(search, items, workers, work_r, work_w)
    progress = [0]  # the next item to yield
    try:
        yield from _in_order(search, items, work_r, children, progress)
    finally:
        os.close(work_r)
        for fd, pid in children.items():
            os.close(fd)  # a child still writing gets EPIPE and leaves
            if progress[0] < n:
                import signal

                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        gc.unfreeze()


def _spawn(search: Callable[[Sequence[str]], FilesOutcome], items: Sequence[Sequence[str]], workers: int,
           work_r: int, work_w: int) -> dict[int, int]:
    """Write every item's index to the work pipe and fork `workers - 1` children that serve
    from it; their result pipes (fd -> pid). On a failure, what was started is stopped and
    undone, and the error raised."""
    children: dict[int, int] = {}  # result fd -> pid
    try:
        _write_all(work_w, b"".join(_INDEX.pack(k) for k in range(len(items))))
        os.close(work_w)
        work_w = -1
        for _ in range(workers - 1):
            res_r, res_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child
                code = 0
                try:
                    _widen(res_w)
                    os.close(res_r)
                    for fd in children:
                        os.close(fd)
                    _serve(work_r, res_w, items, search)
                except BaseException:  # noqa: BLE001 - the parent sees the pipe end early
                    code = 1
                finally:
                    os._exit(code)
            os.close(res_w)
            children[res_r] = pid
    except BaseException:
        import signal

        for fd, pid in children.items():
            os.close(fd)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(work_r)
        if work_w != -1:
            os.close(work_w)
        gc.unfreeze()
        raise
    return children


def _in_order(search: Callable[[Sequence[str]], FilesOutcome], items: Sequence[Sequence[str]], work_r: int,
              children: dict[int, int], progress: list[int]) -> Iterator[FilesOutcome]:
    """The outcomes in item order: the children's, read from their pipes only up to the item
    needed next, and this process's own, searched from the work pipe while what it holds
    ahead of its turn is small; `progress[0]` is the next item to yield."""
    import select

    n = len(items)
    ready: dict[int, tuple[FilesOutcome, int | None]] = {}  # item -> (outcome, the child holding back for it)
    ahead: dict[int, int] = {}  # the items of `ready` this process searched ahead of their turn -> their matches
    parked: set[int] = set()  # children whose last outcome, for a later item, waits in `ready`
    finished: set[int] = set()  # children whose pipe has ended
    queue_open = True
    while progress[0] < n:
        next_item = progress[0]
        if next_item in ready:
            outcome, holder = ready.pop(next_item)
            if holder is None:
                ahead.pop(next_item, None)
            else:
                parked.discard(holder)
            progress[0] = next_item + 1
            yield outcome
            continue
        listening = [fd for fd in children if fd not in parked and fd not in finished]
        room = len(ahead) < AHEAD_ITEMS and sum(ahead.values()) < AHEAD_MATCHES
        wait = 0.0 if queue_open and room else None
        readable = select.select(listening, [], [], wait)[0] if listening else []
        if not readable and wait == 0.0:
            got = os.read(work_r, _INDEX.size)
            if len(got) < _INDEX.size:
                queue_open = False
                continue
            k = _INDEX.unpack(got)[0]
            outcome = search(items[k])
            ready[k] = (outcome, None)
            if k != next_item:
                ahead[k] = sum((outcome.counts or {}).values()) or sum(map(len, outcome.per_file.values()))
            continue
        if not readable:
            raise ChildFailed(next_item)  # nobody left to hand over the next item
        for fd in readable:
            try:
                head = os.read(fd, _HEAD.size)
                if not head:  # the child is done (or died: then an item never comes)
                    finished.add(fd)
                    continue
                if len(head) < _HEAD.size:
                    head += _read_exact(fd, _HEAD.size - len(head))
                k, size = _HEAD.unpack(head)
                import pickle

                ready[k] = (FilesOutcome(*pickle.loads(_read_exact(fd, size))), fd)
            except Exception as exc:  # a child that died mid-answer, or sent garbage
                raise ChildFailed(next_item) from exc
            if k != next_item:
                parked.add(fd)
