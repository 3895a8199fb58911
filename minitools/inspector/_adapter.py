"""The node debug adapter: DAP requests carried out over the V8 inspector (docs/architecture.md,
"The node adapter"). minitools runs it as `python -m minitools.inspector --runtime NODE`, a child
speaking DAP on stdio like any other adapter.

launch starts `node --inspect-brk=127.0.0.1:0 program`, attach connects to an inspector already
open (by port, or by process id after SIGUSR1); either way the adapter enables the Runtime and
Debugger domains, hides node's own scripts from stepping (`setBlackboxPatterns ^node:`), sends
`initialized`, and answers launch/attach once `configurationDone` came (and, for launch, node
was told `Runtime.runIfWaitingForDebugger`). Every inspector event is handled in order by one
task (`_pump`), so a pause is decided (a hit count, a log point, a source map to read first)
before the next event is looked at.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

from minitools.inspector._attach import inspector_url, open_inspector
from minitools.inspector._events import THREAD, InspectorEvents
from minitools.inspector._launch import start_node
from minitools.inspector._outfiles import OutFiles
from minitools.inspector._output import OutputPipe
from minitools.inspector._pause import GROUP, Pause, evaluate
from minitools.inspector._placing import Placements
from minitools.inspector._scripts import Scripts
from minitools.inspector._serve import DAPServer, RequestFailed
from minitools.inspector._session import CDPError, CDPEvent, InspectorSession
from minitools.protocol import RemoteProtocolError
from minitools.transport import ChildProcess, ConnectionClosed, descendants

__all__ = ["NodeAdapter", "CAPABILITIES"]

CAPABILITIES = {
    "supportsConfigurationDoneRequest": True, "supportsConditionalBreakpoints": True,
    "supportsHitConditionalBreakpoints": True, "supportsLogPoints": True, "supportsExceptionInfoRequest": True,
    "supportsTerminateRequest": True, "supportTerminateDebuggee": True, "supportsEvaluateForHovers": True,
    "exceptionBreakpointFilters": [
        {"filter": "all", "label": "Caught exceptions", "default": False},
        {"filter": "uncaught", "label": "Uncaught exceptions", "default": True},
    ],
}
STEPS = {"next": "Debugger.stepOver", "stepIn": "Debugger.stepInto", "stepOut": "Debugger.stepOut"}


class NodeAdapter(InspectorEvents):
    """One debug session of one node program, behind `server`."""

    def __init__(self, server: DAPServer, runtime: str = "node") -> None:
        self.server = server
        self.runtime = runtime
        self.cdp: InspectorSession | None = None
        self.child: ChildProcess | None = None  # launched: the reaper node runs under
        self.node_pid: int | None = None
        self.pipes: list[OutputPipe] = []
        self.pause: Pause | None = None
        self.scripts = Scripts()
        self.placements = Placements(self.scripts, OutFiles([os.getcwd()]))
        self._frames = 1
        self._expect = ""  # "step" or "pause": what the next pause answers
        self._entry = True  # the next "Break on start" is the launch's own
        self.stop_on_entry = False
        self.ended = False
        self._configured: asyncio.Future[dict[str, Any]] | None = None
        self._events: asyncio.Queue[CDPEvent] = asyncio.Queue()
        self._tasks: list[asyncio.Future[Any]] = []
        steps = {command: self._stepper(method) for command, method in STEPS.items()}
        server.handlers.update({
            "initialize": self.initialize, "launch": self.launch, "attach": self.attach,
            "setBreakpoints": self.set_breakpoints, "setExceptionBreakpoints": self.set_exception_breakpoints,
            "setFunctionBreakpoints": self.set_function_breakpoints, "configurationDone": self.configuration_done,
            "threads": self.threads, "stackTrace": self.stack_trace, "scopes": self.scopes, "variables": self.variables,
            "evaluate": self.evaluate, "exceptionInfo": self.exception_info, "continue": self.resume, "pause": self.pause_now,
            "disconnect": self.disconnect, "terminate": self.terminate, **steps,
        })

    # Starting ---------------------------------------------------------------------------

    async def initialize(self, args: dict[str, Any]) -> dict[str, Any]:
        return dict(CAPABILITIES)

    async def launch(self, args: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        program = args.get("program")
        if not isinstance(program, str) or not Path(program).is_file():
            raise RequestFailed(f"launch: program {program!r} is not a file; give the path of a .js, .mjs, .cjs or .ts file")
        cwd = str(args.get("cwd") or Path(program).parent)
        env = {**os.environ, **{str(k): str(v) for k, v in (args.get("env") or {}).items() if v is not None}}
        for key, value in (args.get("env") or {}).items():
            if value is None:
                env.pop(str(key), None)
        self.stop_on_entry = bool(args.get("stopOnEntry"))
        self.placements.outfiles = OutFiles([cwd, os.getcwd()])
        stdout = OutputPipe("stdout", self._output)
        stderr = OutputPipe("stderr", self._output, filter_inspector=True)
        self.pipes = [stdout, stderr]
        try:
            self.child, url = await start_node(program, [str(a) for a in args.get("args") or []], node=self.runtime, cwd=cwd,
                                               env=env, node_args=[str(a) for a in args.get("runtimeArgs") or []],
                                               on_stderr=stderr.feed, reap=True)
        except (OSError, asyncio.TimeoutError) as exc:
            raise RequestFailed(f"launch: node did not start {program}: {exc}") from None
        self.child.take_stdout(stdout.feed)
        await self._connect(url, instrument=True)
        await self._announce(program, "launch", next(iter(descendants(self.child.pid)), None))
        return self._initialized()

    async def attach(self, args: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        self._entry = False
        try:
            if args.get("processId") is not None:
                url = await open_inspector(int(args["processId"]))
            elif args.get("port") is not None:
                url = await inspector_url(int(args["port"]), str(args.get("address") or "127.0.0.1"))
            else:
                raise RequestFailed("attach needs processId (a running node) or port (its inspector's port)")
        except OSError as exc:
            raise RequestFailed(f"attach: {exc}") from None
        await self._connect(url, instrument=False)
        await self._announce("node", "attach", None)
        return self._initialized()

    async def _announce(self, name: str, how: str, pid: int | None) -> None:
        """The `process` event with node's own pid, which a terminate ends: launched, the reaper's
        child; attached, what the program says its pid is."""
        if pid is None:
            try:
                answer = await self._need().request("Runtime.evaluate", {"expression": "process.pid", "returnByValue": True})
            except (CDPError, asyncio.TimeoutError, ConnectionClosed, RemoteProtocolError):
                answer = {}
            pid = answer.get("result", {}).get("value")
        if isinstance(pid, int) and not isinstance(pid, bool):
            self.node_pid = pid
            self.server.send_event("process", {"name": name, "systemProcessId": pid, "isLocalProcess": True, "startMethod": how})

    def _initialized(self) -> asyncio.Future[dict[str, Any]]:
        self._configured = asyncio.get_running_loop().create_future()
        self.server.send_event("initialized")
        return self._configured

    async def _connect(self, url: str, *, instrument: bool) -> None:
        try:
            self.cdp = await InspectorSession.connect(url, child=self.child, on_event=self._take)
            for method, params in (("Runtime.enable", {}), ("Debugger.enable", {}),
                                   ("Debugger.setBlackboxPatterns", {"patterns": ["^node:"]}),
                                   ("Debugger.setAsyncCallStackDepth", {"maxDepth": 16}),
                                   ("Debugger.setPauseOnExceptions", {"state": "uncaught"})):
                await self.cdp.request(method, params)
            if instrument:  # a script with a source map stops before it runs: its .ts breakpoints are placed then
                await self.cdp.request("Debugger.setInstrumentationBreakpoint", {"instrumentation": "beforeScriptWithSourceMapExecution"})
        except (OSError, asyncio.TimeoutError, CDPError, ConnectionClosed, RemoteProtocolError) as exc:
            await self._kill()
            raise RequestFailed(f"could not open node's inspector at {url}: {exc}") from None
        self._tasks = [asyncio.ensure_future(self._pump()), asyncio.ensure_future(self._watch(self.cdp))]

    async def configuration_done(self, args: dict[str, Any]) -> dict[str, Any]:
        cdp = self._need()
        if self.child is not None:
            await cdp.request("Runtime.runIfWaitingForDebugger")
        if self._configured is not None and not self._configured.done():
            self._configured.set_result({})
        return {}

    def _need_pause(self) -> Pause:
        if self.ended:
            raise RequestFailed("the program has ended")
        if self.pause is None:
            raise RequestFailed("the program is running; pause it or wait for a breakpoint first")
        return self.pause

    # Breakpoints ------------------------------------------------------------------------

    async def set_breakpoints(self, args: dict[str, Any]) -> dict[str, Any]:
        path = str((args.get("source") or {}).get("path") or "")
        if not path:
            raise RequestFailed("setBreakpoints needs source.path")
        return {"breakpoints": await self.placements.replace(self._need(), path, list(args.get("breakpoints") or []))}

    async def set_function_breakpoints(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"breakpoints": [{"verified": False, "message": "the node adapter takes breakpoints by line"}
                                for _ in args.get("breakpoints") or []]}

    async def set_exception_breakpoints(self, args: dict[str, Any]) -> dict[str, Any]:
        filters = set(args.get("filters") or [])
        state = "all" if "all" in filters else "uncaught" if "uncaught" in filters else "none"
        await self._need().request("Debugger.setPauseOnExceptions", {"state": state})
        return {}

    # Run control and inspection ---------------------------------------------------------

    async def threads(self, args: dict[str, Any]) -> dict[str, Any]:
        name = f"node {self.node_pid}" if self.node_pid is not None else "node"
        return {"threads": [{"id": THREAD, "name": name}]}

    async def resume(self, args: dict[str, Any]) -> dict[str, Any]:
        self._need_pause()
        self.pause = None
        await self._need().request("Debugger.resume")
        return {"allThreadsContinued": True}

    def _stepper(self, method: str) -> Any:
        async def step(args: dict[str, Any]) -> dict[str, Any]:
            self._need_pause()
            self.pause, self._expect = None, "step"
            await self._need().request(method)
            return {}
        return step

    async def pause_now(self, args: dict[str, Any]) -> dict[str, Any]:
        if self.pause is None:
            self._expect = "pause"
            await self._need().request("Debugger.pause")
        else:  # stopped already: say so again, as the answer a pause waits for
            self.server.send_event("stopped", {"reason": "pause", "threadId": THREAD, "allThreadsStopped": True})
        return {}

    async def stack_trace(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._need_pause().stack(int(args.get("startFrame") or 0), int(args.get("levels") or 0))

    async def scopes(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._need_pause().scopes(int(args.get("frameId") or 0))

    async def variables(self, args: dict[str, Any]) -> dict[str, Any]:
        start, count = args.get("start"), args.get("count")
        return await self._need_pause().variables(self._need(), int(args.get("variablesReference") or 0),
                                                  int(start) if start is not None else None, int(count) if count else None)

    async def evaluate(self, args: dict[str, Any]) -> dict[str, Any]:
        frame = args.get("frameId")
        answer = await evaluate(self._need(), self.pause, str(args.get("expression") or ""), int(frame) if frame is not None else None)
        await self.settle()
        return answer

    async def exception_info(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._need_pause().exception_info()

    # Ending -----------------------------------------------------------------------------

    async def terminate(self, args: dict[str, Any]) -> dict[str, Any]:
        await self._kill()
        return {}

    async def disconnect(self, args: dict[str, Any]) -> dict[str, Any]:
        if args.get("terminateDebuggee", self.child is not None):
            await self._kill()
        elif self.cdp is not None and not self.cdp.is_closed:  # attached: let the program run on
            with contextlib.suppress(CDPError, asyncio.TimeoutError, OSError):
                await self.cdp.request("Debugger.disable", timeout=2.0)
            await self.cdp.close()
        self.ended = True
        self.server.done.set()
        return {}

    async def _kill(self) -> None:
        self.ended = True
        if self.cdp is not None:
            if not self.cdp.is_closed:
                with contextlib.suppress(Exception):
                    await self.cdp.request("Runtime.releaseObjectGroup", {"objectGroup": GROUP}, timeout=1.0)
            await self.cdp.close(timeout=1.0)
        if self.child is not None:
            await self.child.stop(close_timeout=0.2, term_timeout=1.0)

    async def shutdown(self) -> None:
        """The client went away: nothing of this session is left running."""
        await self._kill()
        for task in self._tasks:
            task.cancel()
