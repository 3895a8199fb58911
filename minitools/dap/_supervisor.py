"""The debug supervisor: one session per conversation, breakpoints kept across sessions,
a hard TTL that kills the program and the adapter, and a close that leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from minitools.dap._catalog import Adapter, Detection, Interpreter
from minitools.dap._session import DAPSession
from minitools.tracing import Tracer
from minitools.transport import ChildProcess, FramedConnection

__all__ = ["DebugSupervisor", "Slot"]


@dataclass
class Slot:
    """What one conversation has: its breakpoints, its session, and what ended the last one."""

    # file -> its breakpoints as DAP SourceBreakpoints ({line, condition?, hitCondition?, logMessage?})
    breakpoints: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    session: DAPSession | None = None
    adapter: Adapter | None = None
    program: str = ""
    interpreter: Interpreter | None = None
    started: float = 0.0
    ttl_handle: asyncio.TimerHandle | None = None
    ended_note: str = ""  # said once by the next call


class DebugSupervisor:
    """Owns every DAP session of a Run."""

    def __init__(self, *, ttl: float = 1800.0, tracer: Tracer | None = None) -> None:
        self.ttl = ttl
        self.tracer = tracer
        self.slots: dict[str, Slot] = {}
        self._closing: set[asyncio.Future[Any]] = set()

    def slot(self, conversation: str) -> Slot:
        return self.slots.setdefault(conversation, Slot())

    async def start_adapter(self, det: Detection, cwd: Path) -> DAPSession:
        """Spawn the adapter and connect to it: over its stdio, through its dial-back (dlv), or
        to the port it was told to listen on (Perl::LanguageServer)."""
        adapter = det.adapter
        if adapter.transport == "dial":
            return await self._dialled(det, cwd)
        if adapter.transport == "listen":
            return await self._listening(det, cwd)
        child = await ChildProcess.start(det.command, peer=adapter.id, cwd=cwd, tracer=self.tracer)
        return DAPSession.over(adapter.id, lambda m, c: FramedConnection.over_child(
            child, on_message=m, on_close=c), child)

    async def _dialled(self, det: Detection, cwd: Path) -> DAPSession:
        adapter = det.adapter
        accepted: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.get_running_loop().create_future()

        def on_client(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            if not accepted.done():
                accepted.set_result((r, w))

        server = await asyncio.start_server(on_client, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        child = await ChildProcess.start([*det.command, f"--client-addr=127.0.0.1:{port}"],
                                         peer=adapter.id, cwd=cwd, tracer=self.tracer)
        exited: asyncio.Future[Any] = asyncio.ensure_future(child.wait())
        waiters: set[asyncio.Future[Any]] = {accepted, exited}
        try:
            await asyncio.wait(waiters, timeout=15.0, return_when=asyncio.FIRST_COMPLETED)
            if not accepted.done():
                await child.stop()
                raise OSError(f"{adapter.id} did not connect back within 15 s; stderr: {child.stderr_tail()}")
        finally:
            exited.cancel()
            server.close()
        reader, writer = accepted.result()
        session = self._over_socket(adapter.id, reader, writer, child)
        # dlv 1.20 writes the program's stdout to its own stdout (docs/reference.md, "Debug adapters")
        child.take_stdout(lambda chunk: session.output.write("stdout", chunk.decode("utf-8", "replace")) if chunk else None)
        return session

    async def _listening(self, det: Detection, cwd: Path, within: float = 15.0) -> DAPSession:
        # A free port is taken from the system and given to the adapter ("{port}" in its
        # arguments); it listens there, and so does it for the debuggee's own connection back
        # (docs/reference.md, "Perl::LanguageServer"). Connecting is retried until it listens,
        # bounded, and given up at once when the adapter exits.
        adapter = det.adapter
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        child = await ChildProcess.start([word.replace("{port}", str(port)) for word in det.command],
                                         peer=adapter.id, cwd=cwd, tracer=self.tracer)
        deadline = time.monotonic() + within
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                if child.returncode is not None or time.monotonic() > deadline:
                    await child.stop()
                    why = f"exited with {child.returncode}" if child.returncode is not None else \
                        f"did not listen on port {port} within {within:g} s"
                    raise OSError(f"{adapter.id} {why}; stderr: {child.stderr_tail()}") from None
                await asyncio.sleep(0.05)
        return self._over_socket(adapter.id, reader, writer, child)

    def _over_socket(self, peer: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     child: ChildProcess | None = None) -> DAPSession:
        return DAPSession.over(peer, lambda m, c: FramedConnection(
            reader, writer, peer=peer, tracer=self.tracer, on_message=m, on_close=c), child)

    async def connect(self, peer: str, port: int, host: str = "127.0.0.1") -> DAPSession:
        """Connect straight to a DAP server already listening (debugpy.listen)."""
        reader, writer = await asyncio.open_connection(host, port)
        return self._over_socket(peer, reader, writer)

    def arm_ttl(self, conversation: str) -> None:
        """Start the hard TTL for the conversation's session."""
        slot = self.slot(conversation)
        slot.started = time.monotonic()
        loop = asyncio.get_running_loop()
        slot.ttl_handle = loop.call_later(self.ttl, self._expire, conversation)

    def _expire(self, conversation: str) -> None:
        slot = self.slots.get(conversation)
        if slot is None or slot.session is None:
            return
        note = (f"the debug session of {slot.program} was ended when its TTL of {self.ttl:g} s ran out; "
                "the program and the adapter were killed.")
        task = asyncio.ensure_future(self.end(conversation, note=note, graceful=False))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def end(self, conversation: str, *, note: str = "", graceful: bool = True) -> DAPSession | None:
        """End the conversation's session (if any); `note` is what the next call will say."""
        slot = self.slots.get(conversation)
        if slot is None or slot.session is None:
            return None
        session, slot.session = slot.session, None
        if slot.ttl_handle is not None:
            slot.ttl_handle.cancel()
            slot.ttl_handle = None
        slot.ended_note = note
        await session.close(graceful=graceful)
        return session

    async def close(self) -> None:
        """End every session and wait for TTL kills in flight: no process is left behind."""
        for conversation in list(self.slots):
            with contextlib.suppress(Exception):
                await self.end(conversation, graceful=False)
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
