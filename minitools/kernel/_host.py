"""The host side of one kernel: a worker child process and the framed channel to it.

The child runs in its own process group with stdin on /dev/null; the channel is a pair of
pipes passed as extra descriptors, so nothing the user prints can corrupt it. The worker's
own stdout/stderr descriptors (C-level output, a crash dump) are drained into a bounded
ring. The host owns the inactivity budget: it is suspended while a bridge call is in
flight; on expiry the group gets SIGINT, and if no result follows within the grace period
the group is killed and the outcome says the state was lost (docs/architecture.md, "Kernel").
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import os
import resource
import signal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, NamedTuple

from minitools.kernel._output import CellOutcome, CellOutput, CellStatus, exit_description
from minitools.protocol import RemoteProtocolError
from minitools.transport import ConnectionClosed, FramedConnection, die_with_parent, kill_tree, reaped

__all__ = ["KernelProcess", "KernelStartError", "Bridge", "ToolReply"]


class ToolReply(NamedTuple):
    """What a cell's `tool(name, args)` gets back: the tool result's parts."""

    ok: bool
    text: str
    data: Any = None
    images: Sequence[tuple[str, bytes]] = ()  # (mime type, bytes)

    @classmethod
    def refused(cls, text: str) -> ToolReply:
        return cls(False, text)

    def message(self, call_id: Any) -> dict[str, Any]:
        """The reply as the worker reads it: images as base64."""
        return {"type": "tool_result", "id": call_id, "ok": self.ok, "text": self.text, "data": self.data,
                "images": [{"mime": mime, "base64": base64.b64encode(blob).decode("ascii")} for mime, blob in self.images]}


# (tool name, arguments) -> the tool's reply, sent on to the cell
Bridge = Callable[[str, Mapping[str, Any]], Awaitable[ToolReply]]

_RING = 1 << 16  # bytes of the worker's raw stdout/stderr kept for a death report


def _child_setup(memory_limit: int | None) -> Callable[[], None]:
    """The worker's `preexec_fn`: it dies with its parent, and allocates at most `memory_limit`
    bytes (RLIMIT_DATA, kept under a hard limit already set), so a cell that grows without
    bound (a list that never stops, recursion under a limit of 10**9: Python 3.11's frames live
    on the heap) fails in its own kernel instead of taking the machine's memory."""
    hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    if memory_limit is not None and hard != resource.RLIM_INFINITY:
        memory_limit = min(memory_limit, hard)

    def setup() -> None:
        die_with_parent()
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_DATA, (memory_limit, hard))

    return setup


class KernelStartError(Exception):
    """The worker did not start: the interpreter is missing, or it died before ready."""


class KernelProcess:
    """One running worker. Not safe for concurrent `execute` calls (the pool serialises)."""

    def __init__(self, argv: Sequence[str], *, language: str, cwd: str, env: Mapping[str, str],
                 trace: Callable[[str, str, Any], None] | None = None, memory_limit: int | None = None) -> None:
        self.argv = list(argv)
        self.memory_limit = memory_limit  # bytes the worker may allocate (RLIMIT_DATA), None: no bound
        self.language = language
        self.cwd = cwd
        self.env = dict(env)
        self.trace = trace
        self.info: dict[str, Any] = {}
        self.cells = 0
        self._proc: asyncio.subprocess.Process | None = None
        self._conn: FramedConnection | None = None  # the framed channel, traced as "send"/"recv"
        self._pipes: list[asyncio.BaseTransport] = []
        self._ring: collections.deque[bytes] = collections.deque()
        self._ring_size = 0
        self._sink: CellOutput | None = None
        self._drains: list[asyncio.Task[None]] = []

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    async def start(self, timeout: float) -> None:
        """Spawn the worker (the argv's two trailing `{fd_in}`/`{fd_out}` placeholders are
        filled in) and wait for its `ready` message."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        argv = [a.replace("{fd_in}", str(to_child_r)).replace("{fd_out}", str(from_child_w)) for a in self.argv]
        # under the reaper: what a cell starts dies with the kernel even when it leaves the
        # kernel's process group (setsid, a detached spawn); it reports a failed exec on fd 2
        argv = reaped(argv, 2, pass_fds=(to_child_r, from_child_w))
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, pass_fds=(to_child_r, from_child_w),
                start_new_session=True, cwd=self.cwd, env=self.env, preexec_fn=_child_setup(self.memory_limit),
            )
        except OSError as exc:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            raise KernelStartError(f"could not start {argv[0]!r}: {exc.strerror or exc}") from None
        os.close(to_child_r)
        os.close(from_child_w)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**20)
        read_pipe, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                    os.fdopen(from_child_r, "rb", buffering=0))
        write_pipe, flow = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin,
                                                         os.fdopen(to_child_w, "wb", buffering=0))
        self._pipes = [read_pipe, write_pipe]
        writer = asyncio.StreamWriter(write_pipe, flow, None, loop)
        self._conn = FramedConnection(reader, writer, peer=f"kernel:{self.language}", tracer=self.trace)
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._drains = [asyncio.ensure_future(self._drain(self._proc.stdout)),
                        asyncio.ensure_future(self._drain(self._proc.stderr))]
        try:
            message: dict[str, Any] | None = await asyncio.wait_for(self._conn.receive(), timeout)
        except asyncio.TimeoutError:
            await self.kill()
            raise KernelStartError(f"the {self.language} kernel did not become ready within {timeout:g} s; "
                                   f"its output: {self.last_words() or '(nothing)'}") from None
        except (ConnectionClosed, RemoteProtocolError):
            message = None
        if message is None or message.get("type") != "ready":
            code = await self._reap()
            raise KernelStartError(f"the {self.language} kernel exited before it was ready ({exit_description(code)}); "
                                   f"its output: {self.last_words() or '(nothing)'}")
        self.info = message

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while True:
            chunk = await stream.read(1 << 16)
            if not chunk:
                return
            self._ring.append(chunk)
            self._ring_size += len(chunk)
            while self._ring_size > _RING and len(self._ring) > 1:
                self._ring_size -= len(self._ring.popleft())
            if self._sink is not None:
                self._sink.write(chunk.decode("utf-8", "replace"))

    def last_words(self, limit: int = 2000) -> str:
        """The tail of what the worker wrote to its real stdout/stderr."""
        text = b"".join(self._ring).decode("utf-8", "replace")
        return text[-limit:].strip()

    async def _send(self, message: dict[str, Any]) -> None:
        """Send to the worker; a worker that is gone is noticed by the next receive."""
        assert self._conn is not None
        with contextlib.suppress(ConnectionClosed, RemoteProtocolError):
            await self._conn.send(message)

    async def execute(self, code: str, *, budget: float, grace: float, bridge: Bridge,
                      output: CellOutput) -> CellOutcome:
        """Run one cell. Every expected ending is an outcome, never an exception."""
        if not self.alive:
            return CellOutcome(CellStatus.DIED, output, exit_code=await self._reap(), last_words=self.last_words())
        self.cells += 1
        self._sink = output
        outcome = CellOutcome(CellStatus.OK, output)
        try:
            await self._send({"type": "execute", "id": self.cells, "count": self.cells, "code": code})
            interrupted = False
            wait = budget
            while True:
                assert self._conn is not None
                try:
                    message = await asyncio.wait_for(self._conn.receive(), wait)
                except (ConnectionClosed, RemoteProtocolError) as exc:
                    outcome.status = CellStatus.DIED
                    if isinstance(exc, RemoteProtocolError):
                        outcome.notes.append(f"the kernel sent a malformed frame: {exc}")
                        await self.kill()
                    outcome.exit_code = await self._reap()
                    await self._settle_drains()
                    outcome.last_words = self.last_words()
                    return outcome
                except asyncio.TimeoutError:
                    if not interrupted:
                        interrupted = True
                        outcome.notes.append(f"no activity for {budget:g} s (the kernel_budget): sent SIGINT")
                        self._signal(signal.SIGINT)
                        wait = grace
                        continue
                    await self.kill()
                    outcome.status = CellStatus.KILLED
                    outcome.exit_code = self._proc.returncode if self._proc else None
                    return outcome
                kind = message.get("type")
                if kind == "output":
                    for stream, payload in message.get("items", ()):
                        if stream == "display":
                            output.display(payload)
                        else:
                            output.write(str(payload))
                elif kind == "tool_call":
                    # The budget is suspended for the bridge call: no timeout here.
                    outcome.bridge_calls += 1
                    reply = await bridge(str(message.get("name")), message.get("args") or {})
                    await self._send(reply.message(message.get("id")))
                elif kind == "result":
                    outcome.status = CellStatus.reported(message.get("status", "ok"))
                    outcome.value = message.get("value")
                    outcome.error = message.get("error")
                    if interrupted:
                        outcome.status = CellStatus.INTERRUPTED
                    return outcome
                if not interrupted:
                    wait = budget
        except asyncio.CancelledError:
            # The caller gave up on the cell (an MCP client cancelled the call): interrupt it
            # as the budget would, so the kernel is free for the next cell with its state kept.
            await self._stop_cancelled(grace)
            raise
        finally:
            self._sink = None

    async def _stop_cancelled(self, grace: float) -> None:
        """SIGINT the running cell and read up to its result; kill it if it does not stop in `grace` s."""
        self._signal(signal.SIGINT)

        async def until_result() -> None:
            assert self._conn is not None
            while True:
                message = await self._conn.receive()
                if message.get("type") == "result":
                    return
                if message.get("type") == "tool_call":  # a bridge call from the dying cell: refuse it
                    await self._send(ToolReply.refused("the cell was cancelled").message(message.get("id")))

        try:
            await asyncio.wait_for(until_result(), grace)
        except (ConnectionClosed, RemoteProtocolError):
            pass  # the worker is gone or broke the channel: nothing left to interrupt
        except asyncio.TimeoutError:
            await self.kill()

    def _signal(self, sig: int) -> None:
        if self._proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, sig)

    def _kill_tree(self) -> None:
        # the group, and every descendant wherever its group (the reaper adopts what a cell orphans)
        if self._proc is not None:
            kill_tree(self._proc.pid)

    async def _reap(self, timeout: float = 5.0) -> int | None:
        if self._proc is None:
            return None
        try:
            return await asyncio.wait_for(self._proc.wait(), timeout)
        except asyncio.TimeoutError:
            self._kill_tree()
            return await self._proc.wait()

    async def _settle_drains(self) -> None:
        if self._drains:
            await asyncio.wait(self._drains, timeout=1.0)

    async def kill(self) -> None:
        """Kill the worker and everything it started now, and reap it."""
        self._kill_tree()
        await self._reap()
        self._close_pipes()

    async def close(self, timeout: float = 0.5) -> None:
        """End the worker: close its input (it exits), then kill the group regardless, so
        nothing it started outlives the Run."""
        if self._proc is None:
            return
        if self._conn is not None:
            await self._conn.close()  # the worker reads the end of its input and exits
        if self._proc.returncode is None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._proc.wait(), timeout)
        self._kill_tree()
        await self._reap()
        self._close_pipes()
        await self._settle_drains()
        for task in self._drains:
            task.cancel()

    def _close_pipes(self) -> None:
        for transport in self._pipes:
            if not transport.is_closing():
                transport.close()
