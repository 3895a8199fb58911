"""The five vibe_* tools (docs/tools.md, "vibe_*"): direct background workers.

Registered only when the Run was given a roster (``Run(root, vibe=Roster | {"fast": ARGV, ...})``)
and the Run is not itself inside a worker. All read tier: the gate belongs to the worker's
own tools. Options: ``vibe_max_workers`` (default 4), ``vibe_stall_seconds`` (default 600),
``vibe_grace_seconds`` (SIGTERM → SIGKILL, default 2).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from minitools.progress import ProgressState, progress_from
from minitools.schema import parameters_schema
from minitools.tools._context import CALL_SURFACE, READ_ONLY_SURFACES, RunContext
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec
from minitools.vibe import WORKER_ENV, CapReached, Roster, Status, VibeError, Worker, WorkerPool, as_roster

__all__ = ["build"]

WAIT_RESULT_LIMIT = 8000
LIST_RESULT_LIMIT = 200
DEFAULT_WAIT = 300

_ID = {"type": "string", "minLength": 1, "description": 'The worker id vibe_spawn returned, e.g. "w1".'}


def _spec(name: str, description: str, properties: dict[str, Any], required: list[str]) -> ToolSpec:
    return ToolSpec(name, Tier.READ, description, parameters_schema(properties, required))


SPECS = {
    "vibe_spawn": _spec(
        "vibe_spawn",
        "Start a background worker on a brief; returns at once with a worker id while it keeps running. "
        "Use tier fast for mechanical work with a clear specification, good for design, judgement, or "
        "review of a fast worker's output. Collect the result with vibe_wait.",
        {"brief": {"type": "string", "minLength": 1, "description": "Everything the worker needs: the task, files, constraints, what to return."},
         "label": {"type": "string", "minLength": 1, "maxLength": 80, "description": "A few words naming the task, shown in vibe_list."},
         "tier": {"type": "string", "enum": ["fast", "good"], "default": "fast",
                  "description": "fast: mechanical work with a clear spec; good: design, judgement or review."}},
        ["brief", "label"]),
    "vibe_send": _spec(
        "vibe_send",
        "Append a message to a worker's brief and run it again: a running worker is stopped and started "
        "over with the longer brief; a finished one is started again.",
        {"worker_id": _ID, "message": {"type": "string", "minLength": 1, "description": "What to add to the brief."}},
        ["worker_id", "message"]),
    "vibe_wait": _spec(
        "vibe_wait",
        "Block until a worker settles (done, failed, killed or stalled) and return its result. A timeout "
        "is not an error: it returns the current status and the worker keeps running.",
        {"worker_id": _ID, "timeout_seconds": {"type": "number", "minimum": 0, "maximum": 3600, "default": DEFAULT_WAIT,
                                               "description": "How long to wait at most, in seconds."}},
        ["worker_id"]),
    "vibe_kill": _spec(
        "vibe_kill", "Stop a worker and its whole process tree.", {"worker_id": _ID}, ["worker_id"]),
    "vibe_list": _spec(
        "vibe_list", "Every worker: label, tier, status (running, done, failed, killed, stalled), elapsed time and last result.",
        {}, []),
}


def _line(w: Worker) -> str:
    data = w.snapshot(LIST_RESULT_LIMIT)
    tail = data["result"] or data["error"] or ""
    tail = " ".join(tail.split())
    shown = f" - {tail}" if tail else ""
    return f'{w.id} "{w.label}" [{w.tier}] {w.status.value}, {w.elapsed:.1f} s, run {w.runs}{shown}'


def _outcome(w: Worker) -> ToolResult:
    data = w.snapshot(WAIT_RESULT_LIMIT)
    head = f'worker {w.id} ("{w.label}", {w.tier}) is {w.status.value} after {w.elapsed:.1f} s'
    if w.status is Status.DONE:
        return ToolResult(ok=True, text=f"{head}. Result:\n{data['result']}", data=data)
    if w.status is Status.STALLED:
        return ToolResult(ok=True, data=data, text=(
            f"{head}: its output has not grown for {w.stalled_for:.0f} s. It is still alive; "
            f"kill it with vibe_kill, or send it a clearer brief with vibe_send. Log: {w.log_path}"))
    if w.status is Status.KILLED:
        return ToolResult(ok=True, text=f"{head}: it was stopped before finishing.", data=data)
    tail = w.log_tail(1000).strip()
    log = f"\nLast lines of its log ({w.log_path}):\n{tail}" if tail else f" Its log ({w.log_path}) is empty."
    return ToolResult(ok=False, data=data, text=(
        f"{head}: {w.error}.{log}\nRead the log, then vibe_send a corrected brief or do it another way."))


def build(ctx: RunContext) -> list[Tool]:
    """The five vibe_* tools, when the Run has a roster."""
    if os.environ.get(WORKER_ENV):
        return []  # a worker directs no workers of its own
    roster = as_roster(ctx.vibe)
    if roster is None:
        return []
    family = VibeFamily(ctx, roster)
    ctx.on_close(family.close)
    handlers = {"vibe_spawn": family.vibe_spawn, "vibe_send": family.vibe_send, "vibe_wait": family.vibe_wait,
                "vibe_kill": family.vibe_kill, "vibe_list": family.vibe_list}
    return [Tool(SPECS[name], handler) for name, handler in handlers.items()]


class VibeFamily:
    """The vibe_* tools over one worker pool, created on the first call (build starts nothing)."""

    def __init__(self, ctx: RunContext, roster: Roster) -> None:
        self.ctx = ctx
        self.roster = roster
        self.pools: list[WorkerPool] = []

    def pool(self) -> WorkerPool:
        if not self.pools:
            ctx = self.ctx
            self.pools.append(WorkerPool(
                self.roster, ctx.root,
                max_workers=int(ctx.option("vibe_max_workers", 4)),
                stall_seconds=float(ctx.option("vibe_stall_seconds", 600)),
                grace_seconds=float(ctx.option("vibe_grace_seconds", 2))))
        return self.pools[0]

    async def close(self) -> None:
        if self.pools:
            await self.pools[0].close()

    def worker(self, worker_id: str) -> Worker:
        try:
            return self.pool().get(worker_id)
        except VibeError as exc:
            raise ToolError(f"{exc}. Call vibe_list to see the workers.") from None

    async def vibe_spawn(self, args: Mapping[str, Any]) -> ToolResult:
        p = self.pool()
        try:
            surface = CALL_SURFACE.get()
            w = await p.spawn(args["brief"], args["label"], args.get("tier", "fast"), surface=surface,
                              read_only=surface in READ_ONLY_SURFACES)
        except CapReached as exc:
            raise ToolError(
                f'cannot spawn "{args["label"]}": {exc} (option vibe_max_workers). Nothing was started; '
                "wait for a worker (vibe_wait) or stop one (vibe_kill), then spawn again.",
                data={"running": p.active(), "cap": p.max_workers}) from None
        except VibeError as exc:
            raise ToolError(f'cannot spawn "{args["label"]}": {exc}. Nothing was started.') from None
        if w.status is Status.FAILED:
            raise ToolError(f'worker {w.id} ("{w.label}") did not start: {w.error}. Check the roster\'s '
                            f"{w.tier} command (serve --vibe ROSTER.toml or Run(vibe=...)).", data=w.snapshot(LIST_RESULT_LIMIT))
        return ToolResult(ok=True, data=w.snapshot(LIST_RESULT_LIMIT), text=(
            f'worker {w.id} ("{w.label}", {w.tier}) started and keeps running in the background. '
            f'Call vibe_wait with worker_id "{w.id}" for its result, or vibe_list to see every worker.'))

    async def vibe_send(self, args: Mapping[str, Any]) -> ToolResult:
        w = self.worker(args["worker_id"])
        try:
            surface = CALL_SURFACE.get()
            before = await self.pool().send(w.id, args["message"], surface=surface, read_only=surface in READ_ONLY_SURFACES)
        except CapReached as exc:
            raise ToolError(f"cannot restart {w.id}: {exc}. Nothing was changed; wait for or kill another worker first.") from None
        except VibeError as exc:
            raise ToolError(f"cannot restart {w.id}: {exc}. Nothing was changed.") from None
        how = ("its current run was stopped and it was started again" if before.is_active
               else f"it had finished ({before.value}) and was started again")
        return ToolResult(ok=True, data=dict(w.snapshot(LIST_RESULT_LIMIT), previous_status=before.value), text=(
            f"worker {w.id}: the message was appended to its brief; {how} (run {w.runs}) with the longer brief. "
            "Call vibe_wait for the new result."))

    async def vibe_wait(self, args: Mapping[str, Any]) -> ToolResult:
        w = self.worker(args["worker_id"])
        timeout = float(args.get("timeout_seconds", DEFAULT_WAIT))
        with progress_from(lambda: _waiting(w)):
            settled = await w.settled(timeout)
        if settled:
            return _outcome(w)
        return ToolResult(ok=True, data=dict(w.snapshot(LIST_RESULT_LIMIT), timed_out=True), text=(
            f'worker {w.id} ("{w.label}") is still {w.status.value} after waiting {timeout:g} s '
            f"({w.elapsed:.1f} s in all). It keeps running: wait again, send it a message, or kill it."))

    async def vibe_kill(self, args: Mapping[str, Any]) -> ToolResult:
        w = self.worker(args["worker_id"])
        before = await self.pool().kill(w.id)
        if not before.is_active:
            return ToolResult(ok=True, data=w.snapshot(LIST_RESULT_LIMIT),
                              text=f"worker {w.id} had already finished ({before.value}); nothing to stop.")
        return ToolResult(ok=True, data=w.snapshot(LIST_RESULT_LIMIT),
                          text=f'worker {w.id} ("{w.label}") was killed, with its whole process tree.')

    async def vibe_list(self, args: Mapping[str, Any]) -> ToolResult:
        workers = self.pool().workers() if self.pools else []
        if not workers:
            return ToolResult(ok=True, text="no workers yet; start one with vibe_spawn.", data={"workers": []})
        p = self.pool()
        head = f"{p.active()} of at most {p.max_workers} workers running."
        return ToolResult(ok=True, text="\n".join([head, *(_line(w) for w in workers)]),
                          data={"workers": [w.snapshot(LIST_RESULT_LIMIT) for w in workers]})


def _waiting(w: Worker) -> ProgressState:
    """What a vibe_wait is waiting for: the worker, how long it has run, its log's last line."""
    lines = [line for line in w.log_tail(600).splitlines() if line.strip()]
    last = lines[-1].strip()[:120] if lines else ""
    return (f'waiting for worker {w.id} ("{w.label}"), {w.status.value} for {w.elapsed:.0f} s'
            + (f"; its log's last line: {last}" if last else ""), None, None)
