"""Background workers: real processes (or an embedder's callables) directed by vibe_*.

A command worker runs with stdin /dev/null (a CLI agent would block on it otherwise), in
its own process group under a subreaper (transport.reaped: a kill, or the host's death however
it happens, takes its whole tree, even what left the group), with the Run's root as working
directory, stdout to a file and stderr to a per-worker log under a run-scoped temp dir.
Its result is what it wrote to ``{result_file}``, else its stdout; an empty result is a
failure (docs/reference.md, "Questions and workers"). A worker whose output has not
grown for `stall_seconds` is stalled. Finished workers do not count against the cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.transport import die_with_parent, in_thread, kill_tree, reaped
from minitools.vibe._roster import CallableRunner, CommandRunner, Roster
from minitools.vibe._state import Status, check_move

__all__ = ["WorkerPool", "Worker", "VibeError", "CapReached", "WORKER_ENV"]

#: set in every worker's environment: a minitools Run inside a worker registers no vibe_* or ask_user.
WORKER_ENV = "MINITOOLS_VIBE_WORKER"
#: the surface the worker was started from (full, plan, readonly): on plan and readonly it must not write
SURFACE_ENV = "MINITOOLS_SURFACE"
LOG_TAIL = 2000


class VibeError(ValueError):
    """A request the pool cannot carry out as asked (unknown worker id, bad tier)."""


class CapReached(VibeError):
    """As many workers as the cap allows are already running."""


class Worker:
    """One background worker: its brief, its current run, and what it produced."""

    def __init__(self, id_: str, label: str, tier: str, brief: str, folder: Path, surface: str = "full") -> None:
        self.id = id_
        self.surface = surface  # the surface the current run was started from
        self.label = label
        self.tier = tier
        self.brief = brief
        self.folder = folder
        self.log_path = folder / "log.txt"
        self.runs = 0
        self.status = Status.RUNNING
        self.started = time.monotonic()
        self.ended: float | None = None
        self.result: str | None = None
        self.error: str | None = None
        self.exit_code: int | None = None
        self.pid: int | None = None
        self.stalled_for: float = 0.0
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._inner: asyncio.Task[Any] | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._launched = asyncio.Event()  # the current run's process (or call) exists, or failed to start
        self._stopping = False  # a kill was asked for
        self._replacing = False  # vibe_send is restarting it

    @property
    def elapsed(self) -> float:
        """Seconds the current (or last) run has taken."""
        return (self.ended if self.ended is not None else time.monotonic()) - self.started

    def set_status(self, status: Status) -> None:
        check_move(self.status, status)
        self.status = status
        if not status.is_active:
            self.ended = time.monotonic()
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def settled(self, timeout: float | None) -> bool:
        """Wait until the worker is not running (done, failed, killed, stalled); False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self.status.is_settled:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                return False
        return True

    def log_tail(self, limit: int = LOG_TAIL) -> str:
        try:
            data = self.log_path.read_bytes()
        except OSError:
            return ""
        return data[-limit:].decode("utf-8", "replace")

    def snapshot(self, result_limit: int) -> dict[str, Any]:
        """The worker as JSON data, its result bounded to `result_limit` characters."""
        result = self.result
        if result is not None and len(result) > result_limit:
            result = result[:result_limit] + f"... [{len(self.result or '') - result_limit} more characters]"
        return {
            "worker_id": self.id, "label": self.label, "tier": self.tier, "status": self.status.value,
            "elapsed_seconds": round(self.elapsed, 1), "runs": self.runs, "result": result,
            "error": self.error, "exit_code": self.exit_code, "log": str(self.log_path), "pid": self.pid,
        }


class WorkerPool:
    """The workers of one Run. Start nothing until `spawn`; `close` kills every worker."""

    def __init__(
        self,
        roster: Roster,
        root: str | os.PathLike[str],
        *,
        max_workers: int = 4,
        stall_seconds: float = 600.0,
        grace_seconds: float = 2.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.roster = roster
        self.root = Path(root)
        self.max_workers = max_workers
        self.stall_seconds = stall_seconds
        self.grace_seconds = grace_seconds
        self._env = dict(os.environ if env is None else env)
        self._ids = itertools.count(1)
        self._workers: dict[str, Worker] = {}
        self._folder: Path | None = None
        self._closed = False

    # Queries ---------------------------------------------------------------------------

    def workers(self) -> list[Worker]:
        return list(self._workers.values())

    def get(self, worker_id: str) -> Worker:
        worker = self._workers.get(worker_id)
        if worker is None:
            known = ", ".join(self._workers) or "none yet"
            raise VibeError(f"no worker {worker_id!r}; the workers are: {known}")
        return worker

    def active(self) -> int:
        return sum(1 for w in self._workers.values() if w.status.is_active)

    # Commands --------------------------------------------------------------------------

    async def spawn(self, brief: str, label: str, tier: str = "fast", *, surface: str = "full",
                    read_only: bool = False) -> Worker:
        """Start a worker in the background and return once its process exists (or failed to
        start: then its status is failed); raise `CapReached` when the cap is full. `surface` is
        the surface it is started from; on a `read_only` one only a runner that honours the
        surface is started (VibeError otherwise)."""
        if self._closed:
            raise VibeError("the worker pool is closed")
        self._check_surface(tier, surface, read_only)  # an unknown tier is refused before anything starts
        self._check_cap()
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="minitools-vibe-"))
        id_ = f"w{next(self._ids)}"
        folder = self._folder / id_
        folder.mkdir()
        worker = Worker(id_, label, tier, brief, folder, surface)
        self._workers[id_] = worker
        self._start(worker)
        await worker._launched.wait()
        return worker

    async def send(self, worker_id: str, message: str, *, surface: str = "full", read_only: bool = False) -> Status:
        """Append `message` to the brief and run the worker again, from `surface` (as `spawn`);
        return its status before."""
        worker = self.get(worker_id)
        self._check_surface(worker.tier, surface, read_only)
        worker.surface = surface
        before = worker.status
        if not before.is_active:
            self._check_cap()
        worker.brief = f"{worker.brief.rstrip()}\n\n## Follow-up {worker.runs}\n\n{message}\n"
        if before.is_active:
            worker._replacing = True
            await self._stop(worker)
            worker._replacing = False
        self._start(worker)
        await worker._launched.wait()
        return before

    async def kill(self, worker_id: str) -> Status:
        """Stop the worker and its whole process group; return its status before."""
        worker = self.get(worker_id)
        before = worker.status
        if before.is_active:
            await self._stop(worker)
        return before

    async def close(self) -> None:
        """Kill every worker and remove the run's temp dir."""
        self._closed = True
        await asyncio.gather(*(self._stop(w) for w in self._workers.values() if w.status.is_active))
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    # Internals -------------------------------------------------------------------------

    def _check_surface(self, tier: str, surface: str, read_only: bool) -> None:
        runner = self.roster.runner(tier)
        if read_only and not runner.honours_surface:
            raise VibeError(f"the {tier} runner does not declare that it honours the {surface} surface, where a worker "
                            "must not write: give its command the {surface} placeholder (or honours_surface = true in "
                            "its roster table, for a runner that reads MINITOOLS_SURFACE)")

    def _check_cap(self) -> None:
        if self.active() >= self.max_workers:
            raise CapReached(f"{self.active()} workers are running and the cap is {self.max_workers}")

    def _start(self, worker: Worker) -> None:
        worker.runs += 1
        worker.result = worker.error = None
        worker.exit_code = worker.pid = None
        worker._stopping = False
        worker._proc = worker._inner = None
        worker._launched = asyncio.Event()
        worker.started, worker.ended = time.monotonic(), None
        if worker.status is not Status.RUNNING:
            worker.set_status(Status.RUNNING)
        worker._task = asyncio.get_running_loop().create_task(self._supervise(worker))

    async def _stop(self, worker: Worker) -> None:
        worker._stopping = True
        await worker._launched.wait()  # a kill right after spawn must not miss the process
        proc, inner = worker._proc, worker._inner
        if proc is not None and proc.returncode is None:
            _signal_group(proc.pid, signal.SIGTERM)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(proc.wait()), self.grace_seconds)
            kill_tree(proc.pid)  # its group, and what left the group (the reaper holds it)
        elif inner is not None:
            inner.cancel()
        if worker._task is not None:
            await asyncio.gather(worker._task, return_exceptions=True)

    async def _supervise(self, worker: Worker) -> None:
        try:
            await self._run_once(worker)
        finally:
            worker._launched.set()  # never leave spawn or a kill waiting, whatever happened

    async def _run_once(self, worker: Worker) -> None:
        runner = self.roster.runner(worker.tier)
        brief_file = worker.folder / "brief.md"
        result_file = worker.folder / "result.txt"
        stdout_file = worker.folder / "stdout.txt"
        brief_file.write_text(worker.brief, encoding="utf-8")
        result_file.unlink(missing_ok=True)
        with worker.log_path.open("ab") as log:
            log.write(f"--- run {worker.runs} ---\n".encode())
        if isinstance(runner, CommandRunner):
            env = dict(self._env, **{WORKER_ENV: worker.id, "MINITOOLS_BRIEF_FILE": str(brief_file),
                                     "MINITOOLS_RESULT_FILE": str(result_file), SURFACE_ENV: worker.surface})
            try:
                proc = await _start_reaped(runner.command(brief_file, result_file, worker.surface), worker.log_path,
                                           stdout_file, self.root, env)
            except OSError as exc:
                worker.error = f"the {worker.tier} runner could not start: {exc}"
                worker._launched.set()
                if not worker._replacing:
                    worker.set_status(Status.KILLED if worker._stopping else Status.FAILED)
                return
            worker._proc, worker.pid = proc, proc.pid
            worker._inner = asyncio.ensure_future(proc.wait())
        else:
            worker._proc = None
            worker._inner = asyncio.ensure_future(_call(runner, worker))
        inner = worker._inner
        worker._launched.set()
        await self._watch(worker, inner, [worker.log_path, stdout_file, result_file])
        if worker._proc is not None:
            _signal_group(worker._proc.pid, signal.SIGKILL)  # whatever it left behind in its group
        if worker._replacing:
            return
        if worker._stopping:
            worker.set_status(Status.KILLED)
            return
        self._finish(worker, inner, result_file, stdout_file)

    async def _watch(self, worker: Worker, inner: asyncio.Future[Any], files: list[Path]) -> None:
        # Poll the output files' sizes while the run lasts: no growth for stall_seconds is a stall.
        loop = asyncio.get_running_loop()
        interval = max(0.05, min(1.0, self.stall_seconds / 4))
        size, grew = _total_size(files), loop.time()
        while True:
            done, _ = await asyncio.wait({inner}, timeout=interval)
            if done:
                return
            now, current = loop.time(), _total_size(files)
            if current != size:
                size, grew = current, now
                if worker.status is Status.STALLED:
                    worker.set_status(Status.RUNNING)
            elif now - grew >= self.stall_seconds and worker.status is Status.RUNNING:
                worker.stalled_for = now - grew
                worker.set_status(Status.STALLED)

    def _finish(self, worker: Worker, inner: asyncio.Future[Any], result_file: Path, stdout_file: Path) -> None:
        if worker._proc is not None:
            code = worker._proc.returncode
            worker.exit_code = code
            result = _read(result_file).strip() or _read(stdout_file).strip()
            worker.result = result or None
            if code != 0:
                how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                worker.error = f"the worker failed ({how})"
            elif not (result or "").strip():
                worker.error = "the worker exited 0 but produced no result (nothing in its result file or stdout)"
        else:
            exc = inner.exception() if not inner.cancelled() else None
            if exc is not None:
                worker.error = f"the worker raised {type(exc).__name__}: {exc}"
            else:
                value = inner.result()
                worker.result = str(value) if value is not None and str(value).strip() else None
                if worker.result is None:
                    worker.error = "the worker returned an empty result"
        worker.set_status(Status.FAILED if worker.error else Status.DONE)


async def _start_reaped(argv: list[str], log_path: Path, stdout_file: Path, cwd: Path,
                        env: dict[str, str]) -> asyncio.subprocess.Process:
    """Start `argv` under the reaper (transport.reaped: its whole tree dies with this process, even
    what leaves its process group), in a group of its own; OSError when the command cannot start."""
    read_end, write_end = os.pipe()
    try:
        with log_path.open("ab") as log, stdout_file.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                *reaped(argv, write_end), stdin=subprocess.DEVNULL, stdout=out, stderr=log, cwd=cwd, env=env,
                pass_fds=(write_end,), start_new_session=True, preexec_fn=die_with_parent)
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    why = await asyncio.to_thread(_read_to_end, read_end)
    if why:
        await proc.wait()
        raise OSError(why)
    return proc


def _read_to_end(fd: int) -> str:
    """What the reaper wrote to its status pipe (it closes the pipe once the command started)."""
    chunks = []
    with os.fdopen(fd, "rb") as pipe:
        while chunk := pipe.read(4096):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


async def _call(runner: CallableRunner, worker: Worker) -> Any:
    def log(text: str) -> None:
        with worker.log_path.open("a", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")

    if inspect.iscoroutinefunction(runner.fn):
        return await runner.fn(worker.brief, log)
    value = await in_thread(runner.fn, worker.brief, log)
    if inspect.isawaitable(value):
        value = await value
    return value


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone already
        os.killpg(pgid, sig)


def _total_size(files: list[Path]) -> int:
    total = 0
    for path in files:
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
