"""How the node adapter takes what the inspector says, in order, one event at a time
(docs/architecture.md, "The node adapter"): scripts parsed (and the .ts breakpoints they carry),
breakpoints bound, pauses decided (a hit count not met, a log point, a loader stop: resumed at
once; else `stopped`), the program's end (`exited`, `terminated`) and the socket's.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from minitools.inspector._output import OutputPipe
from minitools.inspector._pause import Pause, log_message
from minitools.inspector._placing import Placements
from minitools.inspector._scripts import Scripts
from minitools.inspector._serve import DAPServer, RequestFailed
from minitools.inspector._session import CDPError, CDPEvent, InspectorSession
from minitools.inspector._values import render
from minitools.transport import ChildProcess

__all__ = ["InspectorEvents", "THREAD"]

THREAD = 1  # a node program is one JavaScript thread (workers are not debugged)
MAX_QUEUED = 10_000  # inspector events waiting to be handled before console events are dropped


class InspectorEvents:
    """The event side of `NodeAdapter` (a base class of it: the state is the adapter's)."""

    server: DAPServer
    cdp: InspectorSession | None
    child: ChildProcess | None
    pipes: list[OutputPipe]
    pause: Pause | None
    scripts: Scripts
    placements: Placements
    ended: bool
    stop_on_entry: bool
    _frames: int
    _expect: str
    _entry: bool
    _events: asyncio.Queue[CDPEvent]
    _dropped: int = 0

    def _need(self) -> InspectorSession:
        if self.cdp is None or self.cdp.is_closed:
            raise RequestFailed("node is not connected (the program ended, or launch/attach did not happen)")
        return self.cdp

    def _take(self, event: CDPEvent) -> None:
        """Queue an inspector event. A program that logs faster than the events are handled
        (attached, its console calls are its output) loses console events past `MAX_QUEUED`,
        said once in the output; every other event is kept, since the session's state needs it."""
        if event.method == "Runtime.consoleAPICalled" and self._events.qsize() >= MAX_QUEUED:
            self._dropped += 1
            if self._dropped == 1:
                self._output("console", f"minitools node adapter: the program logs faster than it can be followed; "
                                        f"console output is dropped while {MAX_QUEUED} events wait\n")
            return
        self._events.put_nowait(event)

    async def _pump(self) -> None:
        while True:
            event = await self._events.get()
            try:
                await self._on_event(event.method, event.params)
            except (CDPError, asyncio.TimeoutError, ConnectionError) as exc:
                self._output("console", f"minitools node adapter: {event.method} could not be handled: {exc}\n")
            except Exception as exc:  # noqa: BLE001 - the session must outlive one odd event; say what happened
                self._output("console", f"minitools node adapter: {event.method} could not be handled: {exc!r}\n")
            finally:
                self._events.task_done()

    async def settle(self, timeout: float = 1.0) -> None:
        """Wait (bounded) until every event that came so far is handled: what an evaluation
        logged is output before its answer."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._events.join(), timeout)

    async def _on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Debugger.scriptParsed":
            await self._on_script(params)
        elif method == "Debugger.breakpointResolved":
            resolved = self.placements.resolved(params)
            if resolved is not None:
                self.server.send_event("breakpoint", {"reason": "changed", "breakpoint": resolved.dap()})
        elif method == "Debugger.paused":
            await self._on_paused(params)
        elif method == "Debugger.resumed":
            self.pause = None
        elif method == "Runtime.consoleAPICalled" and self.child is None:  # attached: no pipes of ours
            text = " ".join(a.get("value") if isinstance(a.get("value"), str) else render(a) for a in params.get("args") or [])
            self._output("stderr" if params.get("type") in ("error", "warning") else "stdout", text + "\n")
        elif method == "Runtime.executionContextDestroyed" and self.child is not None:
            await self._finish()

    async def _on_script(self, params: dict[str, Any]) -> None:
        script = self.scripts.add(params)
        if script is not None and script.map is not None:
            for bp in await self.placements.on_script(self._need(), script):
                self.server.send_event("breakpoint", {"reason": "changed", "breakpoint": bp.dap()})

    async def _on_paused(self, params: dict[str, Any]) -> None:
        cdp = self._need()
        reason = params.get("reason")
        if reason == "instrumentation" or self.placements.is_loader_stop(params.get("hitBreakpoints") or []):
            # a script about to run; its .ts breakpoints were placed when it was parsed
            await cdp.request("Debugger.resume")
            return
        if reason == "Break on start" and self._entry:
            self._entry = False
            if not self.stop_on_entry:
                await cdp.request("Debugger.resume")
                return
        pause = Pause(params, self.scripts, self._frames)
        self._frames = pause.next_frame_id

        hit = self.placements.hit(params.get("hitBreakpoints") or [])
        if hit and reason not in ("exception", "promiseRejection") and not self._expect:
            stoppers = []
            for bp in hit:
                if not bp.on_hit():
                    continue
                if bp.log:
                    self._output("console", await log_message(cdp, pause, bp.log) + "\n")
                else:
                    stoppers.append(bp)
            if not stoppers:
                await cdp.request("Debugger.resume")
                return
            hit = stoppers
        self.pause = pause
        body: dict[str, Any] = {"threadId": THREAD, "allThreadsStopped": True}
        if reason in ("exception", "promiseRejection"):
            body["reason"], body["description"] = "exception", pause.exception_info()["headline"]
        elif hit and not self._expect:
            body["reason"], body["hitBreakpointIds"] = "breakpoint", [bp.id for bp in hit]
        else:
            body["reason"] = self._expect or ("entry" if reason == "Break on start" else "pause")
        self._expect = ""
        self.server.send_event("stopped", body)

    async def _watch(self, cdp: InspectorSession) -> None:
        why = await cdp.wait_closed()
        if not self.ended:
            self._output("console", f"minitools node adapter: the inspector connection ended: {why}\n")
            await self._finish()

    async def _finish(self) -> None:
        """The program ended (or node went away): let node exit, send its output, then exited/terminated."""
        if self.ended:
            return
        self.ended = True
        self.pause = None
        if self.cdp is not None:
            await self.cdp.close()
        code = None
        if self.child is not None:
            try:
                code = await asyncio.wait_for(self.child.wait(), 5.0)
            except asyncio.TimeoutError:
                code = await self.child.stop(close_timeout=0.5, term_timeout=1.0)
            if self.pipes:  # the program's last output comes before the news of its end
                await asyncio.wait([p.ended for p in self.pipes], timeout=2.0)
        if code is not None:
            self.server.send_event("exited", {"exitCode": code})
        self.server.send_event("terminated")

    def _output(self, category: str, text: str) -> None:
        self.server.send_event("output", {"category": category, "output": text})
