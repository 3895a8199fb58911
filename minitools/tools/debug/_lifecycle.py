"""A debug session's life (docs/tools.md, "debug"): which adapters are usable here (`adapters`),
starting one on a program (`launch`), on a process listening for a debugger or running
(`attach` by port or by pid), with the book's breakpoints, and ending it (`terminate`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from minitools.dap import ADAPTERS, Adapter, AdapterGone, DAPError, DAPSession, Detection, MalformedBody, RunState, detect, loader_for
from minitools.progress import progress_from
from minitools.tools.debug._breakpoint_op import breakpoints_text, fallbacks
from minitools.tools.debug._breakpoints import function_specs, source_specs
from minitools.tools.debug._steps import DebugSteps
from minitools.toolspec import ToolError, ToolResult

__all__ = ["Lifecycle"]

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


def _programs() -> str:
    """What `launch` takes, from the adapter catalog: "a .dart, .py or .go file, a Go package ..."."""
    suffixes = [x for a in ADAPTERS if not a.native for x in a.suffixes]
    kinds = [f"a {', '.join(suffixes[:-1])} or {suffixes[-1]} file"]
    kinds += [f"a package directory ({a.id})" for a in ADAPTERS if a.package_dirs]
    kinds += [f"a native executable built with -g ({a.id})" for a in ADAPTERS if a.native]
    return ", ".join(kinds)


class Lifecycle:
    """The ops that find, start and end the conversation's session."""

    def __init__(self, steps: DebugSteps) -> None:
        self.steps = steps

    async def op_adapters(self, args: Mapping[str, Any]) -> ToolResult:
        ctx = self.steps.ctx
        rows, data = [], []
        for adapter in self.steps.catalog.adapters:
            det = detect(ctx.root, adapter)
            state = "usable" if det.usable else "not usable: " + det.reason
            extra = f"; program python: {det.interpreter.path} ({det.interpreter.why})" if det.interpreter else ""
            rows.append(f"{adapter.id}: {state}" + (f" — {' '.join(det.command)}" if det.command else "") + extra)
            data.append({"id": adapter.id, "usable": det.usable, "reason": det.reason, "command": det.command,
                         "markers": [ctx.relpath(m) for m in det.markers]})
        return ToolResult(True, "\n".join(rows), {"adapters": data})

    def _refuse_second(self) -> None:
        slot = self.steps.slot
        if slot.session is not None and slot.session.is_alive:
            raise ToolError(f"a debug session is already running for this conversation ({slot.adapter.id if slot.adapter else ''} "
                            f"on {slot.program}, state {slot.session.stop.state}); it was not replaced. "
                            "Call terminate first to start another.")

    async def op_launch(self, args: Mapping[str, Any]) -> ToolResult:
        steps, ctx = self.steps, self.steps.ctx
        self._refuse_second()
        raw = steps.need(args, "program")
        program = ctx.resolve_path(raw, what="program")
        for arg in args.get("args") or []:
            if "\x00" in arg:  # no process can be given one: the caller's error, not the adapter's
                raise ToolError(f"launch: the program argument {arg!r} contains a NUL byte, which no program can receive; remove it.")
        adapter = steps.named(args["adapter"]) if args.get("adapter") else steps.catalog.for_program(program)
        if adapter is None:
            raise ToolError(f'no adapter debugs "{raw}": give {_programs()}; or adapter=...')
        det = detect(ctx.root, adapter, start=program)
        if not det.usable:
            raise ToolError(f'cannot debug "{raw}" with {adapter.id}: {det.reason}. Call op adapters for details.')
        cwd = ctx.resolve_path(args["cwd"], what="cwd") if args.get("cwd") else ctx.root
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
            loader = loader_for(adapter, program, ctx.root)
        except ValueError as exc:
            raise ToolError(f'cannot run "{raw}" with {adapter.id}: it needs {exc} in the project\'s node_modules, which '
                            f"has none. Compile it (tsc with \"sourceMap\": true) and launch the .js with breakpoints in "
                            f"the {program.suffix} file, or add the package (npm install --save-dev {exc}).") from None
        if loader is not None:
            config["runtimeArgs"] = list(loader[1])
            note = f"through {ctx.relpath(loader[0])} ({' '.join(loader[1])})"
        if adapter.package_dirs:
            config["program"] = str(program if program.is_dir() else program.parent)
        session = await steps.sup.start_adapter(det, cwd)
        return await self._start(session, adapter, "launch", config, ctx.relpath(program), det, note,
                                 args.get("exception_filters"))

    async def op_attach(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        self._refuse_second()
        if args.get("pid") is not None:
            return await self._attach_pid(args)
        if args.get("port") is None:
            raise ToolError("op 'attach' needs 'port' (a process listening with debugpy.listen) or 'pid' (a running process).")
        port = args["port"]
        attachable = steps.catalog.attachable()
        adapter = steps.named(args["adapter"]) if args.get("adapter") else attachable[0]
        if adapter is None or adapter.attach is None:
            names = ", ".join(f"{a.id} (a process started with {a.listen_hint})" for a in attachable)
            raise ToolError(f"attach by port is supported for {names} only; "
                            f"{args['adapter']} has no attach-by-port here. Use launch instead.")
        if adapter.port_key:  # the adapter attaches to the port itself (node's inspector)
            det = detect(steps.ctx.root, adapter)
            if not det.command:
                raise ToolError(f"cannot attach to port {port} with {adapter.id}: {det.binary_problem}. Call op adapters for details.")
            session = await steps.sup.start_adapter(det, steps.ctx.root)
            config = {**adapter.attach, adapter.port_key: int(port)}
            return await self._start(session, adapter, "attach", config, f"port {port}", det, "", args.get("exception_filters"))
        try:
            session = await steps.sup.connect(adapter.id, int(port))
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
        steps = self.steps
        pid = int(args["pid"])
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        except FileNotFoundError:
            raise ToolError(f"no process {pid} is running; give the pid of a running process (ps, pgrep).") from None
        except OSError:
            exe = ""  # not readable here: the adapter decides
        by_pid = [a for a in steps.catalog.adapters if a.attach_pid is not None]
        adapter: Adapter | None
        if args.get("adapter"):
            adapter = steps.named(args["adapter"])
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
        det = detect(steps.ctx.root, adapter)
        if not det.usable:
            raise ToolError(f"cannot attach to {pid} with {adapter.id}: {det.reason}. Call op adapters for details.")
        session = await steps.sup.start_adapter(det, steps.ctx.root)
        session.attached_pid = pid
        config = {**adapter.attach_pid, adapter.pid_key: pid}
        return await self._start(session, adapter, "attach", config, f"process {pid} ({exe or '?'})", det, "",
                                 args.get("exception_filters"))

    async def _start(self, session: DAPSession, adapter: Adapter, command: str, config: dict[str, Any],
                     label: str, det: Detection | None, note: str, filters: list[str] | None) -> ToolResult:
        """Initialize the adapter and launch or attach (`command`) with `config`, the book's
        breakpoints and the exception `filters` (None: the adapter's default)."""
        steps, ctx = self.steps, self.steps.ctx
        slot = steps.slot
        slot.session, slot.adapter, slot.program = session, adapter, label
        slot.interpreter = det.interpreter if det else None
        followed = [note.removeprefix("debug: ") for note in steps.books.follow(set(steps.book), ctx.conversation_id)]
        try:
            await session.initialize(adapter.adapter_id, steps.timeout)
            by_name = session.has_function_breakpoints
            by_file = {path: specs for path, entries in steps.book.items() if (specs := source_specs(entries, by_name))}
            with progress_from(steps.waiting(f"{command} of {label}")):
                _, bps = await session.start(command, config, by_file, steps.timeout, exception_filters=filters,
                                             functions=function_specs(steps.book) if by_name else None)
        except (DAPError, AdapterGone, MalformedBody) as exc:
            tail = session.child.stderr_tail(800) if session.child else ""
            await steps.sup.end(ctx.conversation_id)
            raise ToolError(f"{command} of {label} with {adapter.id} failed: {exc}" + (f"\nadapter stderr:\n{tail}" if tail else "")) from None
        # the TTL runs from a started session (a slow start is bounded by the step timeouts)
        steps.sup.arm_ttl(ctx.conversation_id)
        # adapters may verify (or move) breakpoints later with "breakpoint" events
        bps = [{**bp, "verified": s_bp.get("verified", bp.get("verified")), "message": s_bp.get("message", bp.get("message")),
                "actual_line": s_bp.get("line") or bp.get("actual_line")} if (s_bp := session.breakpoint_status.get(bp.get("id", -1))) else bp
               for bp in bps]
        steps.books.launched(ctx.conversation_id)
        lines = [f"{command}ed {label} with {adapter.id}" + (f" ({' '.join(det.command)})" if det else "") + (f"; {note}" if note else "")]
        lines += followed
        if bps:
            lines.append(breakpoints_text(steps, bps))
        for path, entries in steps.book.items():
            lines += fallbacks(steps, entries, ctx.relpath(path), session, by_name)
        lines.append(await steps.where(session))
        out, _ = session.output.take() if session.stop.state is RunState.EXITED else ([], 0)
        if out:
            lines.append("output:\n" + "\n".join(out[-40:]))
        return ToolResult(True, "\n".join(lines), {"adapter": adapter.id, "state": session.stop.state, "breakpoints": bps,
                                                   "interpreter": slot.interpreter.path if slot.interpreter else None})

    async def op_terminate(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        slot = steps.slot
        if slot.session is None:
            return await steps.status(args)
        pids = slot.session.pids()
        await steps.sup.end(steps.ctx.conversation_id)
        slot.ended_note = ""
        return ToolResult(True, "the debug session was terminated; the program and the adapter are stopped.", {"pids": pids})
