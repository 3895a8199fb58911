"""Shard workers: child processes that each own a fixed share of the files (by a stable hash
of the path) and keep their own tree cache, so a large search uses every core, cold and warm.

Each worker is ``python -m minitools.match._shard_worker`` speaking length-prefixed pickles
over its stdin/stdout (its own pipes: nothing else writes there). Plain subprocesses rather than
multiprocessing: no re-import of the embedder's main module, no fork of a threaded parent.
Workers start lazily, on the first search large enough to need them, in their own process
group, and `ShardPool.close()` stops them in steps (close stdin → terminate → kill). A search
whose budget is cancelled sends each worker `("cancel",)` after its request: the worker reads
its pipe on a thread of its own and cancels the search it runs, which then answers with what
it found (match/_shard_worker.py).
"""

from __future__ import annotations

import _thread
import contextlib
import os
import struct
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

from minitools.match._budget import Budget
from minitools.match._outcome import FilesOutcome, merge

if TYPE_CHECKING:
    import subprocess  # imported where a worker starts: a search that needs none skips it

__all__ = ["ShardPool", "recv_message", "send_message", "shard_of"]

_HEADER = struct.Struct("!Q")


def shard_of(path: str, n: int) -> int:
    """The worker a file belongs to: stable across calls, so its cached tree is found again."""
    import zlib  # pickle and zlib load where a pool is used: a small search never is

    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % n


def send_message(stream: IO[bytes], obj: object) -> None:
    import pickle

    blob = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(blob)) + blob)
    stream.flush()


def recv_message(stream: IO[bytes]) -> Any:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("shard worker closed its pipe")
    (size,) = _HEADER.unpack(head)
    blob = stream.read(size)
    if len(blob) < size:
        raise EOFError("shard worker closed its pipe mid-message")
    import pickle

    return pickle.loads(blob)


class ShardPool:
    """N shard workers beside the calling process, which searches shard 0 itself."""

    def __init__(self, root: str, n: int, *, max_file_bytes: int, cache_bytes: int) -> None:
        self.root = root
        self.n = n
        self.max_file_bytes = max_file_bytes
        self.cache_bytes = cache_bytes
        self._procs: list[subprocess.Popen[bytes]] = []
        self._lock = _thread.allocate_lock()
        self._send_lock = _thread.allocate_lock()  # a cancel is written from the cancelling thread
        self._running: Budget | None = None  # the budget of the search the workers run now
        self.broken = False

    def _start(self) -> None:
        import subprocess

        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
        for _ in range(self.n):
            proc = subprocess.Popen(
                [sys.executable, "-m", "minitools.match._shard_worker", self.root,
                 str(self.max_file_bytes), str(self.cache_bytes // (self.n + 1))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=env, start_new_session=True,
            )
            self._procs.append(proc)

    def start(self) -> None:
        """Start the workers now (they import and load grammars while the parent walks files)."""
        with self._lock:
            if not self._procs and not self.broken:
                self._start()

    def run(
        self,
        source: str,
        language: str,
        shards: Sequence[Sequence[str]],
        local: Callable[[], FilesOutcome],
        budget: Budget | None = None,
    ) -> FilesOutcome | None:
        """Send shards[i] to worker i, with the call's `budget`, run `local` (the caller's own
        shard) meanwhile, and merge the FilesOutcomes. None when a worker failed: the caller
        then searches those files in-process. A cancel of `budget` reaches the workers."""
        import pickle

        with self._lock:
            if self.broken:
                return None
            if not self._procs:
                self._start()
            try:
                with self._send_lock:
                    for proc, shard in zip(self._procs, shards):
                        send_message(proc.stdin, ("search", source, language, list(shard), budget))  # type: ignore[arg-type]
                    self._running = budget
            except OSError:
                self._stop()
                self.broken = True
                return None
            forget = budget.on_cancel(lambda: self._cancel(budget)) if budget is not None else None
            try:
                outcomes = [local()]
                for proc in self._procs:
                    status, payload = recv_message(proc.stdout)  # type: ignore[arg-type]
                    if status != "ok":
                        raise RuntimeError(payload)
                    outcomes.append(FilesOutcome(*payload))
            except (EOFError, OSError, RuntimeError, pickle.UnpicklingError):
                self._stop()
                self.broken = True
                return None
            finally:
                with self._send_lock:
                    self._running = None
                if forget is not None:
                    forget()
            return merge(outcomes)

    def _cancel(self, budget: Budget) -> None:
        """Tell the workers to stop the search of `budget`, if they still run it."""
        with self._send_lock:
            if self._running is not budget:
                return
            for proc in self._procs:
                with contextlib.suppress(OSError, ValueError):  # a worker gone: its reply's absence says so
                    send_message(proc.stdin, ("cancel",))  # type: ignore[arg-type]

    def _stop(self) -> None:
        import subprocess

        for proc in self._procs:
            try:
                if proc.stdin:
                    proc.stdin.close()  # the worker exits at end of input
            except OSError:
                pass
        for proc in self._procs:
            for step in (proc.wait, proc.terminate, proc.kill):
                try:
                    if step is proc.wait:
                        proc.wait(timeout=2)
                    else:
                        step()
                        proc.wait(timeout=2)
                    break
                except subprocess.TimeoutExpired:
                    continue
            if proc.stdout:
                proc.stdout.close()
        self._procs.clear()

    def close(self) -> None:
        """Stop every worker (idempotent). While a search holds the pool its workers are killed
        at once, not waited for: a host closing on SIGTERM must not wait for the search (that
        search then finishes in-process, and the pool stays broken)."""
        if not self._lock.acquire(blocking=False):
            self.broken = True
            for proc in list(self._procs):
                proc.kill()
            return
        try:
            self._stop()
        finally:
            self._lock.release()

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._procs]
