"""One DAP session: seq/request_seq correlation, every message checked where it arrives
(dap/_bodies.py), the latest events and the debuggee's output held bounded (dap/_buffers.py),
reverse requests, and the order-agnostic handshake (docs/reference.md, "Debug adapters").

DAP is not JSON-RPC: requests carry `seq`, responses `request_seq` and `success`, and
adapters send requests of their own (runInTerminal, startDebugging) that must be answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minitools.dap._bodies import ERROR_BODY, EVENT_BODIES, REQUEST_ARGUMENTS, RESPONSE_BODIES, MalformedBody, check_body, check_message, named
from minitools.dap._buffers import EventLog, OutputBuffer
from minitools.dap._state import RunState, allowed
from minitools.transport import ChildExited, ChildProcess, ConnectionClosed, FramedConnection, descendants, die_with_parent, kill_tree

__all__ = ["DAPSession", "DAPError", "StepTimeout", "AdapterGone", "STOP_EVENTS", "MalformedBody"]

STOP_EVENTS = ("stopped", "terminated", "exited")
TERMINALS = 4  # runInTerminal commands run per session (an adapter needs one)
BREAKPOINTS_KEPT = 1000  # breakpoint ids whose status is kept: an adapter may announce any number
# SourceBreakpoint fields beyond the line: (field, the capability that allows it, what it is called)
BREAKPOINT_FEATURES = (("condition", "supportsConditionalBreakpoints", "conditions"),
                       ("hitCondition", "supportsHitConditionalBreakpoints", "hit counts"),
                       ("logMessage", "supportsLogPoints", "log points"))


class DAPError(Exception):
    """The adapter answered a request with success: false."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command} failed: {message}")
        self.command = command
        self.message = message


class StepTimeout(Exception):
    """A step of the session did not finish in time; `step` names it."""

    def __init__(self, step: str, timeout: float) -> None:
        super().__init__(f"timed out after {timeout:g} s waiting for {step}")
        self.step = step
        self.timeout = timeout


class AdapterGone(Exception):
    """The adapter (or the connection to it) is gone."""


@dataclass
class StopState:
    state: RunState = RunState.STARTING
    reason: str = ""
    thread_id: int | None = None
    description: str = ""
    exit_code: int | None = None


@dataclass
class DAPSession:
    """A live session with one adapter. Build it with `connect`, then `handshake`."""

    peer: str
    conn: FramedConnection
    child: ChildProcess | None = None
    capabilities: dict[str, Any] = field(default_factory=dict)
    events: EventLog = field(default_factory=EventLog)
    output: OutputBuffer = field(default_factory=OutputBuffer)
    stop: StopState = field(default_factory=StopState)
    debuggee_pid: int | None = None
    attached_pid: int | None = None  # the process the user asked to attach to (ended at close, as a launched one)
    closed_reason: str = ""
    breakpoint_status: dict[int, dict[str, Any]] = field(default_factory=dict)
    # the latest messages the adapter sent that DAP does not allow (and no request was waiting for)
    faults: deque[str] = field(default_factory=lambda: deque(maxlen=20))
    _seq: int = 0
    _pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _spawned: list[asyncio.subprocess.Process] = field(default_factory=list)
    _tasks: set[asyncio.Future[Any]] = field(default_factory=set)
    _closing: bool = False

    @classmethod
    def over(cls, peer: str, make_conn: Callable[[Callable[[dict[str, Any]], None], Callable[[BaseException], None]], FramedConnection],
             child: ChildProcess | None = None) -> DAPSession:
        """A session whose connection is built by `make_conn(on_message, on_close)`."""
        holder: list[DAPSession] = []
        conn = make_conn(lambda m: holder[0]._on_message(m), lambda e: holder[0]._on_close(e))
        session = cls(peer=peer, conn=conn, child=child)
        holder.append(session)
        return session

    # Incoming ---------------------------------------------------------------------------

    def _on_message(self, message: dict[str, Any]) -> None:
        try:
            kind = check_message(self.peer, message)
        except MalformedBody as exc:
            # a response that can still be matched to its request fails that request
            seq = message.get("request_seq") if isinstance(message, dict) else None
            fut = self._pending.pop(seq, None) if isinstance(seq, int) else None
            if fut is not None and not fut.done():
                fut.set_exception(exc)
            else:
                self.faults.append(str(exc))
            return
        if kind == "response":
            fut = self._pending.pop(message["request_seq"], None)
            if fut is not None and not fut.done():
                fut.set_result(message)
        elif kind == "event":
            self._on_event(message)
        else:
            task = asyncio.ensure_future(self._answer_reverse(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _on_event(self, message: dict[str, Any]) -> None:
        name = message["event"]
        try:
            body = check_body(self.peer, named(name, "event"), EVENT_BODIES.get(name), message.get("body"))
        except MalformedBody as exc:
            if name == "output":  # the program's output is read there: say it there
                self.output.write("minitools", f"{exc}\n")
            elif name in STOP_EVENTS:  # a step waits for it: the wait says what came
                self.events.append({"event": name, "body": {}, "malformed": exc})
                self._changed.set()
            else:
                self.faults.append(str(exc))
            return
        if name == "output":
            category = body.get("category") or "console"
            if category != "telemetry":  # telemetry is the adapter's, never the program's
                self.output.write(category, body["output"])
            return  # output events are not stops; keep the buffer small
        if name == "stopped":
            self._move(StopState(RunState.STOPPED, body.get("reason") or "", body.get("threadId"),
                                 body.get("description") or body.get("text") or ""))
        elif name == "continued":
            self._move(StopState(RunState.RUNNING))
        elif name == "exited":
            self._move(StopState(RunState.EXITED, "exited", exit_code=body.get("exitCode")))
        elif name == "terminated" and self.stop.state != RunState.EXITED:
            self._move(StopState(RunState.EXITED, "terminated"))
        elif name == "process":
            self.debuggee_pid = body.get("systemProcessId") or self.debuggee_pid
        elif name == "breakpoint":
            bp = body["breakpoint"]
            known = bp.get("id") in self.breakpoint_status or len(self.breakpoint_status) < BREAKPOINTS_KEPT
            if bp.get("id") is not None and known:
                self.breakpoint_status[bp["id"]] = {**self.breakpoint_status.get(bp["id"], {}), **bp}
        self.events.append(message)
        self._changed.set()

    def _on_close(self, error: BaseException) -> None:
        self.closed_reason = str(error)
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(AdapterGone(f"{self.peer} is gone: {error}"))
        self._pending.clear()
        self._changed.set()

    async def _answer_reverse(self, request: dict[str, Any]) -> None:
        command = request["command"]
        try:
            args = check_body(self.peer, named(command, "request"), REQUEST_ARGUMENTS.get(command), request.get("arguments"))
            body, message = await self._run_reverse(command, args)
        except MalformedBody as exc:
            body, message = {}, str(exc)
        reply = {"seq": self._next_seq(), "type": "response", "request_seq": request.get("seq"),
                 "command": command, "success": not message, "body": body}
        if message:
            reply["message"] = message
        with contextlib.suppress(ConnectionClosed):
            await self.conn.send(reply)

    async def _run_reverse(self, command: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """Carry out a reverse request: its response body, and why it failed ("" when it did not)."""
        if command == "startDebugging":
            return {}, "minitools does not support child debug sessions (launch with subProcess false)"
        if command != "runInTerminal":
            return {}, f"minitools does not handle the reverse request {command!r}"
        if self._closing:
            return {}, "the session is closing"
        if len(self._spawned) >= TERMINALS:
            return {}, f"minitools runs at most {TERMINALS} runInTerminal commands in a session"
        # we are the terminal: run it ourselves in its own process group
        try:
            proc = await asyncio.create_subprocess_exec(
                *args["args"], cwd=args.get("cwd") or None,
                env={**os.environ, **{k: v for k, v in (args.get("env") or {}).items() if v is not None}},
                stdin=asyncio.subprocess.DEVNULL, start_new_session=True, preexec_fn=die_with_parent,
            )
        except (OSError, ValueError) as exc:
            return {}, f"could not run {args['args']}: {exc}"
        self._spawned.append(proc)
        return {"processId": proc.pid}, ""

    # Requests ---------------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    @property
    def is_alive(self) -> bool:
        return not self.conn.is_closed

    async def send_request(self, command: str, arguments: dict[str, Any] | None = None) -> asyncio.Future[dict[str, Any]]:
        """Send a request now; the future resolves with its response (unawaited sends)."""
        if self.conn.is_closed:
            raise AdapterGone(f"{self.peer} is gone: {self.closed_reason}")
        seq = self._next_seq()
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[seq] = fut
        message: dict[str, Any] = {"seq": seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        try:
            await self.conn.send(message)
        except ConnectionClosed as exc:
            self._pending.pop(seq, None)
            raise AdapterGone(f"{self.peer} is gone: {exc}") from exc
        return fut

    async def await_response(self, fut: asyncio.Future[dict[str, Any]], command: str, timeout: float) -> dict[str, Any]:
        """The body of a response, raising DAPError, StepTimeout or AdapterGone."""
        try:
            response = await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.TimeoutError:
            raise StepTimeout(f"the {command} response", timeout) from None
        if not response.get("success"):
            try:
                err = check_body(self.peer, f"a failed {command} response", ERROR_BODY, response.get("body")).get("error")
            except MalformedBody:
                err = None
            raise DAPError(command, (err or {}).get("format") or response.get("message") or "no reason given")
        return check_body(self.peer, named(command, "response"), RESPONSE_BODIES.get(command), response.get("body"))

    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """Send a request and await its response body."""
        return await self.await_response(await self.send_request(command, arguments), command, timeout)

    async def wait_event(self, names: tuple[str, ...], after: int, timeout: float, step: str) -> dict[str, Any]:
        """The first event named in `names` numbered `after` or later (it may already be here)."""
        return (await self._wait_event(names, after, timeout, step))[1]

    async def _wait_event(self, names: tuple[str, ...], after: int, timeout: float, step: str) -> tuple[int, dict[str, Any]]:
        """The first event named in `names` numbered `after` or later, with its number. Each event
        is looked at once, however many arrive while waiting."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for number, event in self.events.since(after):
                after = number + 1
                if event.get("event") in names:
                    if "malformed" in event:
                        raise event["malformed"]
                    return number, event
            if self.conn.is_closed:
                raise AdapterGone(f"{self.peer} is gone while waiting for {step}: {self.closed_reason}")
            self._changed.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StepTimeout(step, timeout)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    # Handshake --------------------------------------------------------------------------

    async def initialize(self, adapter_id: str, timeout: float) -> None:
        try:
            self.capabilities = await self.request("initialize", {
                "clientID": "minitools", "clientName": "minitools", "adapterID": adapter_id,
                "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path",
                "supportsVariableType": True, "supportsRunInTerminalRequest": True,
                "supportsStartDebuggingRequest": False, "locale": "en",
            }, timeout)
        except StepTimeout as exc:
            raise StepTimeout("the initialize response", exc.timeout) from None

    def exception_filters(self, asked: list[str] | None) -> list[str]:
        """The exception filters to turn on: `asked` (each one the adapter offers, else DAPError
        naming those it does), or by default only `uncaught` where the adapter has it, so the
        program does not stop on exceptions it handles (debugpy's userUnhandled is one)."""
        offered = [f.get("filter") for f in self.capabilities.get("exceptionBreakpointFilters") or []]
        if asked is None:
            return [f for f in offered if f == "uncaught"]
        unknown = [f for f in asked if f not in offered]
        if unknown:
            raise DAPError("setExceptionBreakpoints", f"{self.peer} has no exception filter {', '.join(map(repr, unknown))}; "
                           f"its filters are: {', '.join(map(str, offered)) or 'none'}")
        return list(asked)

    async def start(self, command: str, arguments: dict[str, Any], breakpoints: dict[str, list[dict[str, Any]]],
                    timeout: float, exception_filters: list[str] | None = None,
                    functions: list[dict[str, Any]] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """launch/attach with the order-agnostic handshake; returns (first stop event, breakpoints).

        initialize → launch unawaited → initialized (maybe buffered) → setBreakpoints per file →
        setFunctionBreakpoints (when `functions` names any) → setExceptionBreakpoints (listed
        filters only) → configurationDone → the launch response → the first stopped/terminated/exited.
        """
        mark = len(self.events)
        launch = await self.send_request(command, arguments)
        initialized = asyncio.ensure_future(self.wait_event(("initialized",), 0, timeout, "the initialized event"))
        try:
            await asyncio.wait({initialized, launch}, return_when=asyncio.FIRST_COMPLETED)
            if not initialized.done() and not launch.result().get("success"):
                # the adapter refused the launch before initializing: say why now, not after the timeout
                await self.await_response(launch, command, 0.1)
            await initialized
        finally:
            initialized.cancel()
        results = []
        for path, lines in breakpoints.items():
            results.extend(await self.set_breakpoints(path, lines, timeout))
        if functions:
            results.extend(await self.set_function_breakpoints(functions, timeout))
        if self.capabilities.get("exceptionBreakpointFilters"):
            filters = self.exception_filters(exception_filters)
            await self.request("setExceptionBreakpoints", {"filters": filters}, timeout)
        if self.capabilities.get("supportsConfigurationDoneRequest", True):
            await self.request("configurationDone", {}, timeout)
        await self.await_response(launch, command, timeout)
        if command == "attach" and not any(e.get("event") in STOP_EVENTS for _, e in self.events.since(mark)):
            self._move(StopState(RunState.RUNNING))
            return {}, results
        stop = await self.wait_event(STOP_EVENTS, mark, timeout, f"the first stop after {command}")
        return stop, results

    async def exception_info(self, thread_id: int, timeout: float) -> dict[str, Any]:
        """What the program stopped on (exceptionInfo: exceptionId, description, breakMode:
        "unhandled" for an uncaught one), or {} where the adapter cannot say."""
        if not self.capabilities.get("supportsExceptionInfoRequest"):
            return {}
        try:
            return dict(await self.request("exceptionInfo", {"threadId": thread_id}, timeout))
        except DAPError:
            return {}

    def unsupported(self, breakpoints: list[dict[str, Any]]) -> list[str]:
        """What of `breakpoints` (DAP SourceBreakpoints) this adapter says it cannot do."""
        missing = []
        for key, capability, what in BREAKPOINT_FEATURES:
            if any(key in bp for bp in breakpoints) and not self.capabilities.get(capability):
                missing.append(what)
        return missing

    async def set_breakpoints(self, path: str, breakpoints: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Set `path`'s breakpoints (DAP SourceBreakpoints: line, and condition, hitCondition,
        logMessage where the adapter supports them; unsupported ones are sent as plain lines
        and their entries say what was dropped)."""
        dropped = self.unsupported(breakpoints)
        supported = {key for key, capability, _ in BREAKPOINT_FEATURES if self.capabilities.get(capability)}
        sent = [{k: v for k, v in bp.items() if k == "line" or k in supported} for bp in breakpoints]
        body = await self.request("setBreakpoints", {
            "source": {"path": path, "name": os.path.basename(path)},
            "breakpoints": sent, "lines": [bp["line"] for bp in sent],
        }, timeout)
        out = []
        for spec, bp in zip(breakpoints, body.get("breakpoints") or []):
            line = spec["line"]
            known = {k: bp[k] for k in ("id", "verified", "message") if bp.get(k) is not None}
            entry = {**known, "file": path, "line": line, "actual_line": bp.get("line") or line,
                     **{k: v for k, v in spec.items() if k != "line"}}
            if dropped and len(spec) > 1:
                entry["unsupported"] = dropped
            if bp.get("id") is not None:  # the adapter's own view (its line), updated by "breakpoint" events
                self.breakpoint_status[bp["id"]] = dict(bp)
            out.append(entry)
        return out

    @property
    def has_function_breakpoints(self) -> bool:
        """Whether the adapter takes breakpoints by function name (supportsFunctionBreakpoints)."""
        return bool(self.capabilities.get("supportsFunctionBreakpoints"))

    async def set_function_breakpoints(self, functions: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Set every function breakpoint (DAP FunctionBreakpoints: name, and condition and
        hitCondition where the adapter supports them; the request replaces all of them)."""
        supported = {key for key, capability, _ in BREAKPOINT_FEATURES if self.capabilities.get(capability)}
        sent = [{k: v for k, v in bp.items() if k == "name" or (k in supported and k != "logMessage")} for bp in functions]
        body = await self.request("setFunctionBreakpoints", {"breakpoints": sent}, timeout)
        out = []
        for spec, bp in zip(functions, body.get("breakpoints") or []):
            known = {k: bp[k] for k in ("id", "verified", "message") if bp.get(k) is not None}
            if bp.get("id") is not None:
                self.breakpoint_status[bp["id"]] = dict(bp)
            out.append({**known, "function": spec["name"], **({"actual_line": bp["line"]} if bp.get("line") else {}),
                        **{k: v for k, v in spec.items() if k != "name"}})
        return out

    def _move(self, new: StopState) -> None:
        """Take `new` as where the program is, when the state table allows the move."""
        if allowed(self.stop.state, new.state):
            self.stop = new

    async def step(self, command: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a run-control request and wait for the next stop or the end."""
        mark = len(self.events)
        before = self.stop
        if command != "pause":
            # before sending: the stop or the end may arrive ahead of the response (dlv)
            self._move(StopState(RunState.RUNNING))
        try:
            await self.request(command, arguments, timeout)
        except DAPError:
            if len(self.events) == mark:
                self._move(before)
            raise
        while True:
            at, stop = await self._wait_event(STOP_EVENTS, mark, timeout, f"the program to stop after {command}")
            # a stop the adapter's `continued` then followed came before this request took effect
            # (debugpy attached to a running program: the breakpoint, then the resume): the stop
            # that answers the request is a later one
            resumed = [k for k, e in self.events.since(at + 1) if e.get("event") == "continued"]
            if stop.get("event") != "stopped" or not resumed:
                return stop
            mark = resumed[-1] + 1

    async def run_on(self, timeout: float) -> dict[str, Any]:
        """Wait for the next stop or the end of a program that is running already."""
        return await self.wait_event(STOP_EVENTS, len(self.events), timeout, "the program to stop")

    # Shutdown ---------------------------------------------------------------------------

    def pids(self) -> list[int]:
        """Every process this session started: adapter, debuggee, runInTerminal children."""
        out = [p for p in (self.child.pid if self.child else None, self.debuggee_pid) if p]
        return out + [proc.pid for proc in self._spawned]

    async def close(self, *, graceful: bool = True) -> None:
        """Disconnect (terminating the debuggee), stop the adapter in steps, kill leftovers."""
        self._closing = True  # a runInTerminal arriving now would start after the kills
        if self._tasks:  # and one being started now is waited for, so it is among them
            await asyncio.wait(list(self._tasks), timeout=2.0)
        if graceful and not self.conn.is_closed:
            with contextlib.suppress(Exception):
                await self.request("disconnect", {"terminateDebuggee": True}, 3.0)
        # the debuggee is whatever pid the adapter named: killed only when this process started it
        # (or it is the process the user attached to)
        ours = {*descendants(os.getpid()), self.attached_pid}
        victims = [self.debuggee_pid] if self.debuggee_pid is not None and self.debuggee_pid in ours else []
        if self.child is not None:
            victims.extend(descendants(self.child.pid))
        for proc in self._spawned:  # what runs in our terminal, and what it started
            kill_tree(proc.pid)
        await self.conn.close()
        if self.child is not None:
            await self.child.stop(close_timeout=1.0, term_timeout=1.0, kill_timeout=2.0)
        for pid in victims:  # a debuggee may have left the adapter's group (setsid, ptrace)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for proc in self._spawned:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(proc.wait(), 2.0)
        for task in list(self._tasks):
            task.cancel()


# re-exported for the supervisor's error mapping
_ = ChildExited
