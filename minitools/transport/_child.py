"""A child process with piped stdin/stdout, drained stderr, its own process group, and a
stepped shutdown (close stdin → terminate the group → kill the group, each bounded).

The child starts in a new session (``start_new_session``), so its process group holds
everything it spawns: stopping it signals the group, and a server's own helpers (node
under basedpyright, tsserver under typescript-language-server) go with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from minitools.tracing import Tracer
from minitools.transport._lifeline import die_with_parent
from minitools.transport._stderr import StderrRing

__all__ = ["ChildProcess"]


class _ChildProtocol(asyncio.subprocess.SubprocessStreamProtocol):
    """The child's pipes. Its stdout is held here until its reader is chosen: a sink (a framed
    connection's parser, fed from the pipe's callback: no reader task, one event-loop
    iteration less per message) or the `StreamReader` (`ChildProcess.stdout`)."""

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self._limit = limit
        self._sink: Callable[[bytes], None] | None = None
        self._streaming = False
        self._held = bytearray()
        self._held_eof = False
        self._paused = False
        self._pipes: asyncio.SubprocessTransport | None = None

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if fd != 1 or self._streaming:
            super().pipe_data_received(fd, data)
            return
        chunk = data if isinstance(data, bytes) else data.encode()
        if self._sink is not None:
            self._sink(chunk)
            return
        self._held += chunk
        if len(self._held) > self._limit and not self._paused:
            self._pause_stdout(True)  # nobody reads yet: hold at most `limit`, as the reader would

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1 and not self._streaming:
            if self._sink is not None:
                self._sink(b"")
            else:
                # the held bytes reach the reader first (`to_stream`), then its EOF: hide the
                # reader from the base class, which would end it now
                self._held_eof = True
                reader, self.stdout = self.stdout, None
                try:
                    super().pipe_connection_lost(fd, exc)
                finally:
                    self.stdout = reader
                return
        super().pipe_connection_lost(fd, exc)

    def to_sink(self, sink: Callable[[bytes], None]) -> None:
        held, self._held = bytes(self._held), bytearray()
        if held:
            sink(held)
        if self._held_eof:
            sink(b"")
        self._sink = sink
        self._pause_stdout(False)

    def to_stream(self) -> None:
        if self._streaming or self._sink is not None:
            return
        self._streaming = True
        if self._held:
            super().pipe_data_received(1, bytes(self._held))
            self._held = bytearray()
        if self._held_eof and self.stdout is not None:
            self.stdout.feed_eof()  # the pipe's own bookkeeping was done when it closed
        self._pause_stdout(False)

    def _pause_stdout(self, pause: bool) -> None:
        if pause == self._paused or self._pipes is None:
            return
        pipe = self._pipes.get_pipe_transport(1)
        if isinstance(pipe, asyncio.ReadTransport) and not pipe.is_closing():
            pipe.pause_reading() if pause else pipe.resume_reading()
            self._paused = pause

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._pipes = transport


class ChildProcess:
    """A running child. Create it with ``await ChildProcess.start(argv, ...)``."""

    def __init__(self, process: asyncio.subprocess.Process, protocol: _ChildProtocol, argv: Sequence[str], peer: str,
                 stderr: StderrRing, tracer: Tracer | None, on_stderr: Callable[[bytes], None] | None = None) -> None:
        self.process = process
        self._protocol = protocol
        self.argv = list(argv)
        self.peer = peer
        self.stderr = stderr
        self.tracer = tracer
        self.pid = process.pid
        self._on_stderr = on_stderr
        self._drain = asyncio.ensure_future(self._drain_stderr())
        self._exited = asyncio.ensure_future(self._watch())

    @classmethod
    async def start(cls, argv: Sequence[str], *, peer: str | None = None, cwd: str | os.PathLike[str] | None = None,
                    env: Mapping[str, str] | None = None, tracer: Tracer | None = None,
                    stderr_limit: int = 64 * 1024, on_stderr: Callable[[bytes], None] | None = None) -> ChildProcess:
        """Spawn `argv`. Raises FileNotFoundError / PermissionError when it cannot be executed.
        `on_stderr(chunk)` sees each chunk of stderr as it is drained (``b""`` at its end), for
        a child that says on stderr where to reach it."""
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.subprocess_exec(
            lambda: _ChildProtocol(limit=2**20, loop=loop),
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=os.fspath(cwd) if cwd is not None else None,
            env=dict(env) if env is not None else None,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        process = asyncio.subprocess.Process(transport, protocol, loop)
        name = peer or os.path.basename(argv[0])
        child = cls(process, protocol, argv, name, StderrRing(stderr_limit), tracer, on_stderr)
        if tracer is not None:
            tracer("event", name, {"event": "spawn", "argv": list(argv), "pid": process.pid})
        return child

    # Streams --------------------------------------------------------------------------

    @property
    def stdin(self) -> asyncio.StreamWriter:
        assert self.process.stdin is not None
        return self.process.stdin

    @property
    def stdout(self) -> asyncio.StreamReader:
        """The child's stdout as a stream (unless `take_stdout` gave it to a sink first)."""
        assert self.process.stdout is not None
        self._protocol.to_stream()
        return self.process.stdout

    def take_stdout(self, sink: Callable[[bytes], None]) -> None:
        """Deliver the child's stdout to `sink` (``b""`` at EOF) instead of `stdout`, the
        bytes that arrived before first."""
        self._protocol.to_sink(sink)

    @property
    def returncode(self) -> int | None:
        """The exit code once the child has exited (negative: killed by that signal), else None."""
        return self.process.returncode

    def stderr_tail(self, max_chars: int = 2000) -> str:
        """The end of what the child wrote to stderr."""
        return self.stderr.tail(max_chars)

    async def wait(self) -> int:
        """Wait for the child to exit (and its stderr to be drained); its exit code."""
        return await asyncio.shield(self._exited)

    async def _drain_stderr(self) -> None:
        pipe = self.process.stderr
        assert pipe is not None
        with contextlib.suppress(Exception):
            while True:
                chunk = await pipe.read(65536)
                self.stderr.write(chunk)
                self._tell_stderr(chunk)
                if not chunk:
                    return

    def _tell_stderr(self, chunk: bytes) -> None:
        if self._on_stderr is None:
            return
        try:
            self._on_stderr(chunk)
        except Exception:  # noqa: BLE001 - a broken watcher is dropped; stderr is still drained
            self._on_stderr = None

    async def _watch(self) -> int:
        code = await self.process.wait()
        # stderr may still hold the child's last words; give the drain a moment to take them
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(self._drain), 1.0)
        if self.tracer is not None:
            self.tracer("event", self.peer, {"event": "exit", "returncode": code, "pid": self.pid})
        return code

    # Shutdown -------------------------------------------------------------------------

    def _signal_group(self, sig: int) -> None:
        # The group id is the child's pid (start_new_session). Signal it even after the
        # leader exited: grandchildren it left behind are still in the group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    def _group_alive(self) -> bool:
        try:
            os.killpg(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    async def stop(self, *, close_timeout: float = 2.0, term_timeout: float = 2.0, kill_timeout: float = 2.0) -> int | None:
        """Stop the child: close stdin and wait, then SIGTERM the group and wait, then SIGKILL.

        Always ends with the whole group signalled, so nothing the child spawned lingers.
        Returns the exit code (None only if even SIGKILL did not reap it in time).
        """
        steps: list[tuple[int | None, float]] = [(None, close_timeout), (signal.SIGTERM, term_timeout), (signal.SIGKILL, kill_timeout)]
        for sig, timeout in steps:
            if sig is None:
                with contextlib.suppress(Exception):
                    if not self.stdin.is_closing():
                        self.stdin.close()
            else:
                if self.returncode is not None:
                    break
                self._signal_group(sig)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._exited), timeout)
            if self.returncode is not None:
                break
        # leftovers of the group (helpers that outlived the leader) get no grace period;
        # wait (bounded) until the group is empty, so "stopped" means no process remains
        self._signal_group(signal.SIGKILL)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + kill_timeout
        while self._group_alive() and loop.time() < deadline:
            await asyncio.sleep(0.01)
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(self._drain), 1.0)
        if not self._drain.done():
            self._drain.cancel()
        return self.returncode

    def kill_now(self) -> None:
        """SIGKILL the whole group without waiting (last resort, e.g. from a finaliser)."""
        self._signal_group(signal.SIGKILL)

    def __repr__(self) -> str:
        return f"<ChildProcess {self.peer} pid={self.pid} returncode={self.returncode}>"

    def info(self) -> dict[str, Any]:
        return {"peer": self.peer, "pid": self.pid, "argv": self.argv, "returncode": self.returncode}
