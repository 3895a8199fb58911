"""The `debug` tool: drive a real debugger through minitools' DAP client (docs/tools.md, "debug")."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from minitools.dap import (
    ADAPTERS,
    Adapter,
    AdapterCatalog,
    AdapterGone,
    DAPError,
    DAPSession,
    DebugSupervisor,
    Detection,
    MalformedBody,
    RunState,
    Slot,
    StepTimeout,
    added_adapter,
    detect,
    loader_for,
)
from minitools.progress import ProgressSource, progress_from
from minitools.text import plural
from minitools.tools._context import RunContext, unusable_path
from minitools.tools.debug._book import Books, entry_json
from minitools.tools.debug._breakpoints import Entry, entries_of, entry_text, function_specs, read_lines, source_specs
from minitools.toolspec import Tier, Tool, ToolError, ToolResult, ToolSpec

__all__ = ["build"]

STACK_CAP = 30
LIST_CAP = 100  # threads or scopes shown
NAME_CAP = 200  # characters of a name the adapter gives (a frame, thread, scope, variable, type)
VARIABLES_CAP = 50
VALUE_CAP = 400
PSEUDO = {"special variables", "function variables", "class variables", "protected variables"}
OPS = ["adapters", "status", "breakpoints", "launch", "attach", "continue", "pause", "step_over", "step_in",
       "step_out", "threads", "stack", "scopes", "variables", "evaluate", "output", "terminate"]

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["op"],
    "properties": {
        "op": {"type": "string", "enum": OPS, "description":
               "adapters: which adapters are usable here and why not. status: session state and where it stopped. "
               "breakpoints(file, lines): set a file's breakpoints (empty lines clears; allowed before launch); a line "
               "may be {line, symbol} (symbol: text of that line, checked), {function} (where that function starts), "
               "with condition, hit_condition or log_message (a log point prints instead of stopping; its output "
               "comes with output). status lists the breakpoints where they are now. "
               "launch(program, args?, env?, cwd?, adapter?): start the program, run to the first stop. attach(port, adapter?): "
               "attach to a process listening for a debugger (debugpy.listen; node --inspect with adapter node); attach(pid, "
               "adapter?): attach to a running process (python: debugpy; node: node; native: lldb; Go: adapter delve). continue/pause/step_over/step_in/"
               "step_out(thread_id?): run and wait for the next stop. threads. stack(thread_id?): frames, max 30. "
               "scopes(frame_id). variables(reference, start?): children, 50 per page. evaluate(expression, "
               "frame_id?). output: program output since the last call. terminate: end the session."},
        "file": {"type": "string", "description": "breakpoints: source file, relative to the workspace root."},
        "lines": {"type": "array", "items": {"anyOf": [
            {"type": "integer", "minimum": 1},
            {"type": "object", "additionalProperties": False, "properties": {
                "line": {"type": "integer", "minimum": 1},
                "symbol": {"type": "string", "minLength": 1,
                           "description": "text of that line (an identifier on it): refused, with nothing set, when "
                                          "the line does not hold it; the breakpoint then follows that code as the "
                                          "file is edited"},
                "function": {"type": "string", "minLength": 1,
                             "description": "instead of line: stop where this function of the file starts (a method "
                                          "as Class.method); by name where the adapter takes function breakpoints, "
                                          "else on the first line of its body, found by the parser"},
                "condition": {"type": "string", "minLength": 1,
                              "description": "stop only when this expression (the program's language) is true"},
                "hit_condition": {"type": "string", "minLength": 1,
                                  "description": "stop only on these hits, as the adapter reads it (e.g. 3 or >=3)"},
                "log_message": {"type": "string", "minLength": 1,
                                "description": "print this instead of stopping; {expr} is replaced by its value"},
            }},
        ]}, "description": "breakpoints: 1-based line numbers, {line, symbol} (the symbol checked on its line), or "
                           "{function}; each may add a condition, hit count or log message. An empty list clears the "
                           "file. Each breakpoint remembers its line's text and moves with it when the run writes "
                           "the file (resolve, lsp_rename, written)."},
        "program": {"type": "string", "description": "launch: the program (a .py, .js, .mjs, .cjs or .go "
                    "file, a Go package directory, or a native executable built with -g), relative to the root; for "
                    "TypeScript launch the .js tsc built (with sourceMap) and set breakpoints in the .ts file."},
        "args": {"type": "array", "items": {"type": "string"}, "description": "launch: command-line arguments."},
        "env": {"type": "object", "additionalProperties": {"type": "string"},
                "description": "launch: environment variables added to the program's environment."},
        "cwd": {"type": "string", "description": "launch: the program's working directory, relative to the root "
                                                 "(default: the root)."},
        "adapter": {"type": "string", "minLength": 1,
                    "description": "launch/attach: force an adapter (" + ", ".join(a.id for a in ADAPTERS)
                                   + ", or one the configuration adds) instead of choosing from the program."},
        "port": {"type": "integer", "minimum": 1, "maximum": 65535, "description": "attach: the port the process listens on."},
        "pid": {"type": "integer", "minimum": 1, "description": "attach: the id of a running process to attach to."},
        "exception_filters": {"type": "array", "items": {"type": "string", "minLength": 1},
                              "description": "launch/attach: the adapter's exception filters to stop on (debugpy: "
                              "raised, uncaught, userUnhandled; node: all, uncaught); default: uncaught only, so exceptions the program "
                              "handles do not stop it."},
        "thread_id": {"type": "integer", "description": "continue/pause/step_*/stack: thread (default: the stopped one)."},
        "frame_id": {"type": "integer", "description": "scopes/evaluate: a frame id from stack (evaluate default: top frame)."},
        "reference": {"type": "integer", "description": "variables: a variablesReference from scopes, variables or evaluate."},
        "start": {"type": "integer", "minimum": 0, "default": 0, "description": "variables: index of the first child (paging)."},
        "expression": {"type": "string", "description": "evaluate: the expression, in the program's language."},
    },
}


def _programs() -> str:
    """What `launch` takes, from the adapter catalog: "a .dart, .py or .go file, a Go package ..."."""
    suffixes = [x for a in ADAPTERS if not a.native for x in a.suffixes]
    kinds = [f"a {', '.join(suffixes[:-1])} or {suffixes[-1]} file"]
    kinds += [f"a package directory ({a.id})" for a in ADAPTERS if a.package_dirs]
    kinds += [f"a native executable built with -g ({a.id})" for a in ADAPTERS if a.native]
    return ", ".join(kinds)


SPEC = ToolSpec("debug", Tier.EXEC, f"Drive a real debugger ({', '.join(a.id for a in ADAPTERS)}) on a program in the "
                "workspace: set breakpoints, launch or attach, step, inspect the stack, variables and output. One session "
                "per conversation, ended after a hard TTL.", PARAMETERS, parallel_safe=False)


def _spec_text(spec: Mapping[str, Any]) -> str:
    """`7`, `7 if x > 3`, `7 on hit >=2`, `7 logs "x={x}"`."""
    text = str(spec["line"])
    if spec.get("condition"):
        text += f" if {spec['condition']}"
    if spec.get("hitCondition"):
        text += f" on hit {spec['hitCondition']}"
    if spec.get("logMessage"):
        text += f" logs {spec['logMessage']!r}"
    return text


def _cap(value: str, cap: int = VALUE_CAP) -> str:
    return value if len(value) <= cap else value[:cap] + f"… {len(value) - cap} more characters"


def _more(count: int, what: str) -> str:
    return f"\n… {count} more {what}" if count > 0 else ""


SOURCE_WINDOW = 1 << 20  # bytes of a source file read to find a frame's line


def _source_line(root: Path, path: str, line: int) -> tuple[str, str]:
    """The text of line `line` of `path` and "", or "" and why it is not shown. An adapter names
    whatever file it likes for a frame (a device, a FIFO, a file outside the workspace): only a
    regular file inside the root is read, opened without blocking, and only its first
    SOURCE_WINDOW bytes."""
    if unusable_path(path):
        return "", "not a usable path"
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        return "", ""
    if real != root and root not in real.parents:
        return "", "outside the workspace, not shown"
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return "", ""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "", "not a regular file, not read"
        data = handle.read(SOURCE_WINDOW)
    if not 1 <= line <= len(data):  # a line past the window's bytes cannot be in it (nor split it)
        return "", ""
    parts = data.split(b"\n", line)
    if len(parts) < line or (len(parts) == line and len(data) == SOURCE_WINDOW):
        return "", ""  # no such line, or beyond the window
    return _cap(parts[line - 1].decode("utf-8", "replace").strip()), ""


Op = Callable[[Mapping[str, Any]], Awaitable[ToolResult]]
RUN_COMMANDS = {"continue": "continue", "pause": "pause", "step_over": "next", "step_in": "stepIn", "step_out": "stepOut"}


class DebugFamily:
    """The `debug` tool over one supervisor; `debug` dispatches its ops through `ops`."""

    def __init__(self, ctx: RunContext, sup: DebugSupervisor) -> None:
        self.ctx = ctx
        self.sup = sup
        self.timeout = float(ctx.option("debug_timeout", 30.0))
        self.frame_retry = 0.2  # seconds before asking again for the frames of a stop that had none
        self.books = Books(sup, ctx.relpath)
        # the built-in adapters and those the configuration adds ([[debug.adapters]])
        self.catalog = AdapterCatalog(tuple(added_adapter(e) for e in ctx.option("debug_added_adapters", ())))
        self.ops: dict[str, Op] = {
            "adapters": self.op_adapters, "status": self.op_status, "breakpoints": self.op_breakpoints,
            "launch": self.op_launch, "attach": self.op_attach, "threads": self.op_threads, "stack": self.op_stack,
            "scopes": self.op_scopes, "variables": self.op_variables, "evaluate": self.op_evaluate,
            "output": self.op_output, "terminate": self.op_terminate,
            **{op: partial(self._run, command=command) for op, command in RUN_COMMANDS.items()},
        }
        assert set(self.ops) == set(OPS), "every op in the spec has a handler"

    @property
    def slot(self) -> Slot:
        return self.sup.slot(self.ctx.conversation_id)

    def _session(self) -> DAPSession:
        slot = self.slot
        if slot.session is not None and not slot.session.is_alive:
            raise ToolError(f"the debug adapter {slot.session.peer} is gone ({slot.session.closed_reason}); "
                            "call terminate to clean up, then launch again.")
        if slot.session is None:
            note = slot.ended_note
            slot.ended_note = ""
            raise ToolError((note + " " if note else "") + "No debug session is running; start one with op launch (or attach).")
        return slot.session

    async def debug(self, args: Mapping[str, Any]) -> ToolResult:
        op = args["op"]
        try:
            return await self.ops[op](args)
        except StepTimeout as exc:
            raise ToolError(f"{op}: timed out after {exc.timeout:g} s waiting for {exc.step}. The session is "
                            "still there: call status, pause, or terminate.", data={"timeout": exc.step}) from None
        except DAPError as exc:
            raise ToolError(f"{op}: the adapter refused {exc.command}: {exc.message}", data={"error": exc.message}) from None
        except AdapterGone as exc:
            raise ToolError(f"{op}: {exc}. Call terminate to clean up, then launch again.", data={"error": str(exc)}) from None
        except MalformedBody as exc:
            raise ToolError(f"{op}: {exc}. The session is still there: call status, or terminate to end it.",
                            data={"error": str(exc)}) from None

    def _need(self, args: Mapping[str, Any], name: str) -> Any:
        if args.get(name) is None:
            raise ToolError(f"op {args['op']!r} needs the argument {name!r}.")
        return args[name]

    def _named(self, adapter_id: str) -> Adapter:
        """The adapter `adapter_id` names; a ToolError listing the known ones when none does."""
        adapter = self.catalog.by_id(adapter_id)
        if adapter is None:
            known = ", ".join(a.id for a in self.catalog.adapters)
            raise ToolError(f'no debug adapter is called "{adapter_id}"; the adapters are {known} '
                            "(op adapters shows which are usable here). Nothing was started.")
        return adapter

    # Ops without a session ---------------------------------------------------------

    async def op_adapters(self, args: Mapping[str, Any]) -> ToolResult:
        rows, data = [], []
        for adapter in self.catalog.adapters:
            det = detect(self.ctx.root, adapter)
            state = "usable" if det.usable else "not usable: " + det.reason
            extra = f"; program python: {det.interpreter.path} ({det.interpreter.why})" if det.interpreter else ""
            rows.append(f"{adapter.id}: {state}" + (f" — {' '.join(det.command)}" if det.command else "") + extra)
            data.append({"id": adapter.id, "usable": det.usable, "reason": det.reason, "command": det.command,
                         "markers": [self.ctx.relpath(m) for m in det.markers]})
        return ToolResult(True, "\n".join(rows), {"adapters": data})

    async def op_status(self, args: Mapping[str, Any]) -> ToolResult:
        slot = self.slot
        listed, shown = self.books.listing(self.ctx.conversation_id)
        if slot.session is None:
            note = slot.ended_note
            slot.ended_note = ""
            return ToolResult(True, (note + " " if note else "") + "No debug session is running." + listed,
                              {"running": False, "breakpoints": shown, "ended": note})
        text, faults = await self._where(slot.session) + listed, list(slot.session.faults)
        if faults:  # said once: messages nobody was waiting for, dropped when they arrived
            slot.session.faults.clear()
            text += (f"\nThe adapter sent {plural(len(faults), 'message')} that DAP does not allow, ignored; "
                     f"the latest: {_cap(faults[-1])}")
        return ToolResult(True, text, {"running": True, "state": slot.session.stop.state, "faults": faults,
                                       "breakpoints": shown})

    async def _where(self, s: DAPSession) -> str:
        slot = self.slot
        head = f"session: {slot.adapter.id if slot.adapter else s.peer} debugging {slot.program}"
        st = s.stop
        if st.state is RunState.EXITED:
            return f"{head}; the program has ended" + (f" with exit code {st.exit_code}" if st.exit_code is not None else "") + "."
        if st.state is not RunState.STOPPED:
            return f"{head}; state: {st.state}."
        where = ""
        if st.thread_id is not None:
            for attempt in range(3):  # an adapter may answer with no frames just after the stop (lldb attached)
                with contextlib.suppress(DAPError, StepTimeout):
                    body = await s.request("stackTrace", {"threadId": st.thread_id, "startFrame": 0, "levels": 1},
                                           self.timeout)
                    frames = body.get("stackFrames") or []
                    if frames:
                        where = " at " + self._frame_text(frames[0])
                        break
                await asyncio.sleep(self.frame_retry * (attempt + 1))
        why = _cap(st.reason + (": " + st.description if st.description else ""))
        text = f"{head}; stopped ({why}) in thread {st.thread_id}{where}."
        if st.reason == "exception" and st.thread_id is not None:
            text += " " + await self._exception_note(s, st.thread_id)
        return text

    async def _exception_note(self, s: DAPSession, thread_id: int) -> str:
        """Whether the exception it stopped on is handled by the program, and what continue does."""
        info = await s.exception_info(thread_id, self.timeout)
        mode = info.get("breakMode")
        what = _cap(" ".join(filter(None, [info.get("exceptionId"), info.get("description")]))) or "the exception"
        if mode == "unhandled":
            return f"{what} is not handled by the program: continue lets it end the program (it is reported in output)."
        if mode in ("always", "userUnhandled"):
            return (f"{what} may be handled by the program (this stop comes from the "
                    f"{'raised' if mode == 'always' else 'userUnhandled'} filter): continue goes on from here.")
        return f"{what}: continue goes on from here."

    def _frame_text(self, frame: dict[str, Any]) -> str:
        path = (frame.get("source") or {}).get("path") or ""
        line = frame.get("line") or 0
        text, note = _source_line(self.ctx.root, path, line) if path else ("", "")
        loc = f"{_cap(self.ctx.relpath(path))}:{line}" if path else "(no source)"
        return f"{_cap(frame.get('name') or '', NAME_CAP)} {loc}" + (f"  | {text}" if text else "") + (f" ({note})" if note else "")

    async def op_breakpoints(self, args: Mapping[str, Any]) -> ToolResult:
        path = str(self.ctx.resolve_path(self._need(args, "file"), what="file"))
        rel = self.ctx.relpath(path)
        items = self._need(args, "lines")
        lines = read_lines(path)
        entries = entries_of(items, path, rel, lines) if items else []
        slot, book = self.slot, self.book
        session = slot.session if slot.session is not None and slot.session.is_alive else None
        by_name = session is not None and session.has_function_breakpoints
        specs = source_specs(entries, by_name)
        functions = function_specs({**book, path: entries}) if by_name else []
        if session is not None and session.unsupported(specs + functions):
            adapter = slot.adapter.id if slot.adapter else session.peer
            raise ToolError(f"{adapter} does not support {' or '.join(session.unsupported(specs + functions))}; nothing "
                            f"was set in {rel}. Use plain lines, or a condition the adapter supports.")
        had_functions = any(e.function for e in book.get(path, []))
        self.books.store(self.ctx.conversation_id, path, entries, lines)
        data: dict[str, Any] = {"file": rel, "lines": [e.line for e in entries], "entries": [entry_json(e, rel) for e in entries]}
        if session is None:
            # one entry a line: an entry ends with its line's code, which may hold any punctuation
            what = (f"breakpoints in {rel}, set at launch:\n" + "\n".join(f"  {entry_text(e, rel)}" for e in entries)
                    if entries else f"breakpoints in {rel}: none (cleared).")
            note = ("\nA function breakpoint is set by name where the adapter takes them, else on the first line of the "
                    "function's body (shown)." if any(e.function for e in entries) else "")
            return ToolResult(True, what + note, {**data, "breakpoints": specs})
        results = await session.set_breakpoints(path, specs, self.timeout)
        if by_name and (had_functions or any(e.function for e in entries)):
            results += await session.set_function_breakpoints(functions, self.timeout)
        text = "\n".join(filter(None, [self._bp_text(results), *self._fallbacks(entries, rel, session, by_name)]))
        return ToolResult(True, text or f"breakpoints in {rel} cleared.", {**data, "breakpoints": results})

    @property
    def book(self) -> dict[str, list[Entry]]:
        """The conversation's breakpoints: file -> its entries, as given and followed since."""
        return self.books.of(self.ctx.conversation_id)

    def _fallbacks(self, entries: list[Entry], rel: str, session: DAPSession, by_name: bool) -> list[str]:
        """What was done for function entries the adapter does not take by name."""
        if by_name:
            return []
        adapter = self.slot.adapter.id if self.slot.adapter else session.peer
        return [f"function {e.function}: " + (f"a line breakpoint on {rel}:{e.line}, the first line of its body found by the "
                                              f"parser ({adapter} has no function breakpoints)" if e.line else
                                              f"NOT set: {adapter} has no function breakpoints and no parser reads {rel}; "
                                              "give a line and symbol instead")
                for e in entries if e.function is not None]

    async def after_write(self, paths: Sequence[str]) -> list[str]:
        """The run wrote `paths`: every conversation's breakpoints in them follow their code."""
        return self.books.follow({os.path.realpath(p) for p in paths}, self.ctx.conversation_id)

    def _bp_text(self, results: list[dict[str, Any]]) -> str:
        out = []
        for bp in results:
            if "function" in bp:
                where, kind = _spec_text({**bp, "line": bp["function"]}), "function breakpoint"
                bp = {**bp, "line": bp.get("actual_line")}
            else:
                where = f"{self.ctx.relpath(bp['file'])}:{_spec_text(bp)}"
                kind = "log point" if "logMessage" in bp else "breakpoint"
            if bp.get("verified"):
                moved = f" (moved to line {bp['actual_line']})" if bp.get("actual_line", bp["line"]) != bp["line"] else ""
                out.append(f"{kind} {where}: verified{moved}")
            else:
                out.append(f"{kind} {where}: NOT verified — {_cap(bp.get('message') or 'the adapter gave no reason')}")
            if bp.get("unsupported"):
                out.append(f"  the adapter does not support {' or '.join(bp['unsupported'])}: set as a plain breakpoint")
        return "\n".join(out)

    # Starting ----------------------------------------------------------------------

    def _refuse_second(self) -> None:
        slot = self.slot
        if slot.session is not None and slot.session.is_alive:
            raise ToolError(f"a debug session is already running for this conversation ({slot.adapter.id if slot.adapter else ''} "
                            f"on {slot.program}, state {slot.session.stop.state}); it was not replaced. "
                            "Call terminate first to start another.")

    async def op_launch(self, args: Mapping[str, Any]) -> ToolResult:
        self._refuse_second()
        raw = self._need(args, "program")
        program = self.ctx.resolve_path(raw, what="program")
        for arg in args.get("args") or []:
            if "\x00" in arg:  # no process can be given one: the caller's error, not the adapter's
                raise ToolError(f"launch: the program argument {arg!r} contains a NUL byte, which no program can receive; remove it.")
        adapter = self._named(args["adapter"]) if args.get("adapter") else self.catalog.for_program(program)
        if adapter is None:
            raise ToolError(f'no adapter debugs "{raw}": give {_programs()}; or adapter=...')
        det = detect(self.ctx.root, adapter, start=program)
        if not det.usable:
            raise ToolError(f'cannot debug "{raw}" with {adapter.id}: {det.reason}. Call op adapters for details.')
        cwd = self.ctx.resolve_path(args["cwd"], what="cwd") if args.get("cwd") else self.ctx.root
        if not cwd.is_dir():
            raise ToolError(f"launch: cwd {args['cwd']!r} is not a directory; give a folder inside the workspace.")
        env = dict(args.get("env") or {})
        for key, value in env.items():
            if "\x00" in key + value or "=" in key or not key:
                raise ToolError(f"launch: the environment variable {key!r}={value!r} cannot be set (a name must be "
                                "non-empty without '=', and neither may hold a NUL byte); fix or remove it.")
        prog_args = list(args.get("args") or [])
        config: dict[str, Any] = {"program": str(program), "args": prog_args, "cwd": str(cwd), "stopOnEntry": False}
        if env:
            config["env"] = [f"{k}={v}" for k, v in env.items()] if adapter.env_list else env
        config.update(adapter.launch)
        note = ""
        if det.interpreter is not None:
            config["python"] = [det.interpreter.path]
            note = f"python: {det.interpreter.path} ({det.interpreter.why})"
        try:
            loader = loader_for(adapter, program, self.ctx.root)
        except ValueError as exc:
            raise ToolError(f'cannot run "{raw}" with {adapter.id}: it needs {exc} in the project\'s node_modules, which '
                            f"has none. Compile it (tsc with \"sourceMap\": true) and launch the .js with breakpoints in "
                            f"the {program.suffix} file, or add the package (npm install --save-dev {exc}).") from None
        if loader is not None:
            config["runtimeArgs"] = list(loader[1])
            note = f"through {self.ctx.relpath(loader[0])} ({' '.join(loader[1])})"
        if adapter.package_dirs:
            config["program"] = str(program if program.is_dir() else program.parent)
        session = await self.sup.start_adapter(det, cwd)
        return await self._start(session, adapter, "launch", config, self.ctx.relpath(program), det, note,
                                 args.get("exception_filters"))

    async def op_attach(self, args: Mapping[str, Any]) -> ToolResult:
        self._refuse_second()
        if args.get("pid") is not None:
            return await self._attach_pid(args)
        if args.get("port") is None:
            raise ToolError("op 'attach' needs 'port' (a process listening with debugpy.listen) or 'pid' (a running process).")
        port = args["port"]
        attachable = self.catalog.attachable()
        adapter = self._named(args["adapter"]) if args.get("adapter") else attachable[0]
        if adapter is None or adapter.attach is None:
            names = ", ".join(f"{a.id} (a process started with {a.listen_hint})" for a in attachable)
            raise ToolError(f"attach by port is supported for {names} only; "
                            f"{args['adapter']} has no attach-by-port here. Use launch instead.")
        if adapter.port_key:  # the adapter attaches to the port itself (node's inspector)
            det = detect(self.ctx.root, adapter)
            if not det.command:
                raise ToolError(f"cannot attach to port {port} with {adapter.id}: {det.binary_problem}. Call op adapters for details.")
            session = await self.sup.start_adapter(det, self.ctx.root)
            config = {**adapter.attach, adapter.port_key: int(port)}
            return await self._start(session, adapter, "attach", config, f"port {port}", det, "", args.get("exception_filters"))
        try:
            session = await self.sup.connect(adapter.id, int(port))
        except OSError as exc:
            raise ToolError(f"nothing accepts a debugger on port {port} ({exc}); "
                            f"start the program with {adapter.listen_hint}({port}).") from None
        try:
            return await self._start(session, adapter, "attach", dict(adapter.attach), f"port {port}", None, "",
                                     args.get("exception_filters"))
        except ToolError as exc:
            others = [a for a in attachable if a.port_key] if not args.get("adapter") else []
            if not others:
                raise
            hint = "; ".join(f"if port {port} is a process started with {a.listen_hint}, attach with adapter {a.id}" for a in others)
            raise ToolError(f"{exc} ({hint})") from None

    async def _attach_pid(self, args: Mapping[str, Any]) -> ToolResult:
        pid = int(args["pid"])
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        except FileNotFoundError:
            raise ToolError(f"no process {pid} is running; give the pid of a running process (ps, pgrep).") from None
        except OSError:
            exe = ""  # not readable here: the adapter decides
        by_pid = [a for a in self.catalog.adapters if a.attach_pid is not None]
        adapter: Adapter | None
        if args.get("adapter"):
            adapter = self._named(args["adapter"])
        elif any(exe == name for a in by_pid for name in a.pid_executables):  # node is node's
            adapter = next(a for a in by_pid if exe in a.pid_executables)
        elif exe.startswith("python"):  # a python interpreter is debugpy's
            adapter = next((a for a in by_pid if a.python_package), None)
        elif _built_by_go(pid):  # a Go program is delve's
            adapter = next((a for a in by_pid if a.go_programs), None)
        else:  # anything else a native program for lldb
            adapter = next((a for a in by_pid if a.native), None)
        if adapter is None or adapter.attach_pid is None:
            names = ", ".join(a.id for a in by_pid)
            raise ToolError(f"attach by process id is supported for {names}; {args.get('adapter')} has none. "
                            "Use launch, or attach by port.")
        det = detect(self.ctx.root, adapter)
        if not det.usable:
            raise ToolError(f"cannot attach to {pid} with {adapter.id}: {det.reason}. Call op adapters for details.")
        session = await self.sup.start_adapter(det, self.ctx.root)
        session.attached_pid = pid
        config = {**adapter.attach_pid, adapter.pid_key: pid}
        return await self._start(session, adapter, "attach", config, f"process {pid} ({exe or '?'})", det, "",
                                 args.get("exception_filters"))

    async def _start(self, session: DAPSession, adapter: Adapter, command: str, config: dict[str, Any],
                     label: str, det: Detection | None, note: str, filters: list[str] | None) -> ToolResult:
        """Initialize the adapter and launch or attach (`command`) with `config`, the book's
        breakpoints and the exception `filters` (None: the adapter's default)."""
        slot = self.slot
        slot.session, slot.adapter, slot.program = session, adapter, label
        slot.interpreter = det.interpreter if det else None
        followed = [note.removeprefix("debug: ") for note in self.books.follow(set(self.book), self.ctx.conversation_id)]
        try:
            await session.initialize(adapter.adapter_id, self.timeout)
            by_name = session.has_function_breakpoints
            by_file = {path: specs for path, entries in self.book.items() if (specs := source_specs(entries, by_name))}
            with progress_from(self._waiting(f"{command} of {label}")):
                _, bps = await session.start(command, config, by_file, self.timeout, exception_filters=filters,
                                             functions=function_specs(self.book) if by_name else None)
        except (DAPError, AdapterGone, MalformedBody) as exc:
            tail = session.child.stderr_tail(800) if session.child else ""
            await self.sup.end(self.ctx.conversation_id)
            raise ToolError(f"{command} of {label} with {adapter.id} failed: {exc}" + (f"\nadapter stderr:\n{tail}" if tail else "")) from None
        # the TTL runs from a started session (a slow start is bounded by the step timeouts)
        self.sup.arm_ttl(self.ctx.conversation_id)
        # adapters may verify (or move) breakpoints later with "breakpoint" events
        bps = [{**bp, "verified": s_bp.get("verified", bp.get("verified")), "message": s_bp.get("message", bp.get("message")),
                "actual_line": s_bp.get("line") or bp.get("actual_line")} if (s_bp := session.breakpoint_status.get(bp.get("id", -1))) else bp
               for bp in bps]
        self.books.launched(self.ctx.conversation_id)
        lines = [f"{command}ed {label} with {adapter.id}" + (f" ({' '.join(det.command)})" if det else "") + (f"; {note}" if note else "")]
        lines += followed
        if bps:
            lines.append(self._bp_text(bps))
        for path, entries in self.book.items():
            lines += self._fallbacks(entries, self.ctx.relpath(path), session, by_name)
        lines.append(await self._where(session))
        out, _ = session.output.take() if session.stop.state is RunState.EXITED else ([], 0)
        if out:
            lines.append("output:\n" + "\n".join(out[-40:]))
        return ToolResult(True, "\n".join(lines), {"adapter": adapter.id, "state": session.stop.state, "breakpoints": bps,
                                                   "interpreter": slot.interpreter.path if slot.interpreter else None})

    # Run control -------------------------------------------------------------------

    async def _thread(self, s: DAPSession, args: Mapping[str, Any]) -> int:
        if args.get("thread_id") is not None:
            return int(args["thread_id"])
        if s.stop.thread_id is not None:
            return s.stop.thread_id
        body = await s.request("threads", {}, self.timeout)
        threads = body.get("threads") or []
        if not threads:
            raise ToolError("the program has no threads to act on; call status.")
        return int(threads[0]["id"])

    def _waiting(self, what: str) -> ProgressSource:
        """What a call that runs the program says while it waits for it to stop."""
        started = time.monotonic()
        files = sorted(self.ctx.relpath(path) for path in self.book)
        at = (f"a breakpoint in {', '.join(files[:3])}" + (f" and {len(files) - 3} more files" if len(files) > 3 else "")
              if files else "the program to stop or end (no breakpoints are set)")
        return lambda: (f"{what}: waiting for {at} ({time.monotonic() - started:.0f} s)", None, None)

    async def _run(self, args: Mapping[str, Any], command: str) -> ToolResult:
        s = self._session()
        if s.stop.state is RunState.EXITED:
            raise ToolError(f"the program has already ended; {args['op']} has nothing to do. Call output or terminate.")
        if command == "continue" and s.stop.state is RunState.RUNNING:
            # the program runs already (delve lets a process it attached to run on): continuing
            # is waiting for its next stop; the adapter would refuse the request
            with progress_from(self._waiting(command)):
                await s.run_on(self.timeout)
            return ToolResult(True, await self._where(s), {"state": s.stop.state, "reason": s.stop.reason})
        thread = await self._thread(s, args)
        with progress_from(self._waiting(command)):
            await s.step(command, {"threadId": thread}, self.timeout)
        text = await self._where(s)
        return ToolResult(True, text, {"state": s.stop.state, "reason": s.stop.reason})

    # Inspection --------------------------------------------------------------------

    async def op_threads(self, args: Mapping[str, Any]) -> ToolResult:
        s = self._session()
        threads = (await s.request("threads", {}, self.timeout)).get("threads") or []
        shown = [{"id": t["id"], "name": _cap(t.get("name") or "", NAME_CAP)} for t in threads[:LIST_CAP]]
        text = "\n".join(f"thread {t['id']}: {t['name']}" for t in shown) + _more(len(threads) - len(shown), "threads")
        return ToolResult(True, text or "no threads", {"threads": shown, "more": len(threads) - len(shown)})

    async def op_stack(self, args: Mapping[str, Any]) -> ToolResult:
        s = self._session()
        thread = await self._thread(s, args)
        body = await s.request("stackTrace", {"threadId": thread, "startFrame": 0, "levels": STACK_CAP}, self.timeout)
        frames = (body.get("stackFrames") or [])[:STACK_CAP]
        total = body.get("totalFrames") or len(frames)
        text = "\n".join(f"#{i} frame {f['id']}: {self._frame_text(f)}" for i, f in enumerate(frames))
        if total > len(frames):
            text += f"\n… {total - len(frames)} more frames"
        return ToolResult(True, text or "no frames", {"frames": [{"id": f["id"], "name": _cap(f.get("name") or "", NAME_CAP), "line": f.get("line"),
                                                                   "file": _cap((f.get("source") or {}).get("path") or "")} for f in frames]})

    async def op_scopes(self, args: Mapping[str, Any]) -> ToolResult:
        s = self._session()
        scopes = (await s.request("scopes", {"frameId": int(self._need(args, "frame_id"))}, self.timeout)).get("scopes") or []
        shown = [{"name": _cap(sc["name"], NAME_CAP), "reference": sc["variablesReference"]} for sc in scopes[:LIST_CAP]]
        text = "\n".join(f"{sc['name']}: reference {sc['reference']}" for sc in shown) + _more(len(scopes) - len(shown), "scopes")
        return ToolResult(True, text or "no scopes", {"scopes": shown})

    async def op_variables(self, args: Mapping[str, Any]) -> ToolResult:
        s = self._session()
        ref = int(self._need(args, "reference"))
        children = (await s.request("variables", {"variablesReference": ref}, self.timeout)).get("variables") or []
        pseudo = list({v["name"]: v for v in children if v.get("name") in PSEUDO}.values())  # one row per kind
        real = [v for v in children if v.get("name") not in PSEUDO]
        start = int(args.get("start") or 0)
        page = real[start:start + VARIABLES_CAP]
        rows = [self._var_text(v) for v in page]
        rows += [f"{v['name']} (reference {v['variablesReference']})" for v in pseudo]
        rest = len(real) - start - len(page)
        if rest > 0:
            rows.append(f"… {rest} more (call variables with start={start + len(page)})")
        data = [{"name": _cap(v["name"], NAME_CAP), "value": _cap(str(v.get("value", ""))), "type": _cap(v.get("type") or "", NAME_CAP),
                 "reference": v.get("variablesReference", 0)} for v in page]
        return ToolResult(True, "\n".join(rows) or "no children", {"variables": data, "more": max(rest, 0)})

    def _var_text(self, v: dict[str, Any]) -> str:
        typ = f": {_cap(v['type'], NAME_CAP)}" if v.get("type") else ""
        ref = f" (reference {v['variablesReference']})" if v.get("variablesReference") else ""
        return f"{_cap(v['name'], NAME_CAP)}{typ} = {_cap(str(v.get('value', '')))}{ref}"

    async def op_evaluate(self, args: Mapping[str, Any]) -> ToolResult:
        s = self._session()
        expression = self._need(args, "expression")
        frame = args.get("frame_id")
        if frame is None and s.stop.state is RunState.STOPPED:
            thread = await self._thread(s, args)
            frames = (await s.request("stackTrace", {"threadId": thread, "startFrame": 0, "levels": 1}, self.timeout)).get("stackFrames") or []
            frame = frames[0]["id"] if frames else None
        req: dict[str, Any] = {"expression": expression, "context": "repl"}
        if frame is not None:
            req["frameId"] = int(frame)
        try:
            body = await s.request("evaluate", req, self.timeout)
        except DAPError as exc:
            raise ToolError(f"evaluating {expression!r} failed: {exc.message}", data={"error": exc.message}) from None
        value = _cap(str(body.get("result", "")))
        ref = body.get("variablesReference", 0)
        return ToolResult(True, f"{expression} = {value}" + (f" (reference {ref})" if ref else ""),
                          {"result": value, "type": body.get("type"), "reference": ref})

    async def op_output(self, args: Mapping[str, Any]) -> ToolResult:
        slot = self.slot
        if slot.session is None:
            return await self.op_status(args)
        lines, dropped = slot.session.output.take()
        text = "\n".join(lines) if lines else "(no new output)"
        if dropped:
            text = f"… {dropped} earlier lines dropped\n" + text
        return ToolResult(True, text, {"lines": lines, "dropped": dropped})

    async def op_terminate(self, args: Mapping[str, Any]) -> ToolResult:
        slot = self.slot
        if slot.session is None:
            return await self.op_status(args)
        pids = slot.session.pids()
        await self.sup.end(self.ctx.conversation_id)
        slot.ended_note = ""
        return ToolResult(True, "the debug session was terminated; the program and the adapter are stopped.", {"pids": pids})


# the header of a Go program's build information (its .go.buildinfo section), within the first
# GO_MARK_BYTES of the file in the binaries Go links
GO_MARK = b"\xff Go buildinf:"
GO_MARK_BYTES = 64 << 20


def _built_by_go(pid: int) -> bool:
    """Whether process `pid` runs a program Go built (read from /proc; False when unreadable)."""
    import mmap

    try:
        with open(f"/proc/{pid}/exe", "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(GO_MARK, 0, GO_MARK_BYTES) != -1
    except (OSError, ValueError):
        return False


def build(ctx: RunContext) -> list[Tool]:
    """The `debug` tool, when a debug supervisor is wired (started lazily; nothing spawns here)."""
    sup = ctx.resource("debug", lambda: DebugSupervisor(ttl=float(ctx.option("debug_ttl", 1800.0)), tracer=ctx.trace))
    if sup is None:
        return []
    ctx.on_close(sup.close)
    family = DebugFamily(ctx, sup)
    ctx.write_watchers.append(family.after_write)
    return [Tool(SPEC, family.debug)]
