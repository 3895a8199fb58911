"""The steps every debug op shares (docs/tools.md, "debug"): the conversation's slot and its live
session, its breakpoint book, the adapter catalog and the step timeout; the thread an op acts on,
what a call says while the program runs, and where the program is: its state, the frame it
stopped in with that line's text, and whether the program handles the exception it stopped on (`status`).
Holds the caps on what an adapter's names and values may fill a reply with."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from minitools.dap import Adapter, AdapterCatalog, DAPError, DAPSession, DebugSupervisor, RunState, Slot, StepTimeout, added_adapter
from minitools.progress import ProgressSource
from minitools.text import plural
from minitools.tools._context import RunContext, unusable_path
from minitools.tools.debug._book import Books
from minitools.tools.debug._breakpoints import Entry
from minitools.toolspec import ToolError, ToolResult

__all__ = ["DebugSteps", "cap", "more", "NAME_CAP"]

NAME_CAP = 200  # characters of a name the adapter gives (a frame, thread, scope, variable, type)
VALUE_CAP = 400
SOURCE_WINDOW = 1 << 20  # bytes of a source file read to find a frame's line


def cap(value: str, limit: int = VALUE_CAP) -> str:
    return value if len(value) <= limit else value[:limit] + f"… {len(value) - limit} more characters"


def more(count: int, what: str) -> str:
    return f"\n… {count} more {what}" if count > 0 else ""


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
    return cap(parts[line - 1].decode("utf-8", "replace").strip()), ""


class DebugSteps:
    """What the op handlers (launch/attach, breakpoints, stepping, inspection) share; each takes one."""

    def __init__(self, ctx: RunContext, sup: DebugSupervisor) -> None:
        self.ctx = ctx
        self.sup = sup
        self.timeout = float(ctx.option("debug_timeout", 30.0))
        self.frame_retry = 0.2  # seconds before asking again for the frames of a stop that had none
        self.books = Books(sup, ctx.relpath)
        # the built-in adapters and those the configuration adds ([[debug.adapters]])
        self.catalog = AdapterCatalog(tuple(added_adapter(e) for e in ctx.option("debug_added_adapters", ())))

    @property
    def slot(self) -> Slot:
        return self.sup.slot(self.ctx.conversation_id)

    @property
    def book(self) -> dict[str, list[Entry]]:
        """The conversation's breakpoints: file -> its entries, as given and followed since."""
        return self.books.of(self.ctx.conversation_id)

    def session(self) -> DAPSession:
        """The conversation's live session; a ToolError saying what to do when there is none."""
        slot = self.slot
        if slot.session is not None and not slot.session.is_alive:
            raise ToolError(f"the debug adapter {slot.session.peer} is gone ({slot.session.closed_reason}); "
                            "call terminate to clean up, then launch again.")
        if slot.session is None:
            note = slot.ended_note
            slot.ended_note = ""
            raise ToolError((note + " " if note else "") + "No debug session is running; start one with op launch (or attach).")
        return slot.session

    def need(self, args: Mapping[str, Any], name: str) -> Any:
        if args.get(name) is None:
            raise ToolError(f"op {args['op']!r} needs the argument {name!r}.")
        return args[name]

    def named(self, adapter_id: str) -> Adapter:
        """The adapter `adapter_id` names; a ToolError listing the known ones when none does."""
        adapter = self.catalog.by_id(adapter_id)
        if adapter is None:
            known = ", ".join(a.id for a in self.catalog.adapters)
            raise ToolError(f'no debug adapter is called "{adapter_id}"; the adapters are {known} '
                            "(op adapters shows which are usable here). Nothing was started.")
        return adapter

    async def thread(self, s: DAPSession, args: Mapping[str, Any]) -> int:
        if args.get("thread_id") is not None:
            return int(args["thread_id"])
        if s.stop.thread_id is not None:
            return s.stop.thread_id
        body = await s.request("threads", {}, self.timeout)
        threads = body.get("threads") or []
        if not threads:
            raise ToolError("the program has no threads to act on; call status.")
        return int(threads[0]["id"])

    def waiting(self, what: str) -> ProgressSource:
        """What a call that runs the program says while it waits for it to stop."""
        started = time.monotonic()
        files = sorted(self.ctx.relpath(path) for path in self.book)
        at = (f"a breakpoint in {', '.join(files[:3])}" + (f" and {len(files) - 3} more files" if len(files) > 3 else "")
              if files else "the program to stop or end (no breakpoints are set)")
        return lambda: (f"{what}: waiting for {at} ({time.monotonic() - started:.0f} s)", None, None)

    # Where the program is ------------------------------------------------------------

    async def status(self, args: Mapping[str, Any]) -> ToolResult:
        """The `status` op, and the answer of an op that needs a session when none runs."""
        slot = self.slot
        listed, shown = self.books.listing(self.ctx.conversation_id)
        if slot.session is None:
            note = slot.ended_note
            slot.ended_note = ""
            return ToolResult(True, (note + " " if note else "") + "No debug session is running." + listed,
                              {"running": False, "breakpoints": shown, "ended": note})
        text, faults = await self.where(slot.session) + listed, list(slot.session.faults)
        if faults:  # said once: messages nobody was waiting for, dropped when they arrived
            slot.session.faults.clear()
            text += (f"\nThe adapter sent {plural(len(faults), 'message')} that DAP does not allow, ignored; "
                     f"the latest: {cap(faults[-1])}")
        return ToolResult(True, text, {"running": True, "state": slot.session.stop.state, "faults": faults,
                                       "breakpoints": shown})

    async def where(self, s: DAPSession) -> str:
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
                        where = " at " + self.frame_text(frames[0])
                        break
                await asyncio.sleep(self.frame_retry * (attempt + 1))
        why = cap(st.reason + (": " + st.description if st.description else ""))
        text = f"{head}; stopped ({why}) in thread {st.thread_id}{where}."
        if st.reason == "exception" and st.thread_id is not None:
            text += " " + await self._exception_note(s, st.thread_id)
        return text

    async def _exception_note(self, s: DAPSession, thread_id: int) -> str:
        """Whether the exception it stopped on is handled by the program, and what continue does."""
        info = await s.exception_info(thread_id, self.timeout)
        mode = info.get("breakMode")
        what = cap(" ".join(filter(None, [info.get("exceptionId"), info.get("description")]))) or "the exception"
        if mode == "unhandled":
            return f"{what} is not handled by the program: continue lets it end the program (it is reported in output)."
        if mode in ("always", "userUnhandled"):
            return (f"{what} may be handled by the program (this stop comes from the "
                    f"{'raised' if mode == 'always' else 'userUnhandled'} filter): continue goes on from here.")
        return f"{what}: continue goes on from here."

    def frame_text(self, frame: dict[str, Any]) -> str:
        path = (frame.get("source") or {}).get("path") or ""
        line = frame.get("line") or 0
        text, note = _source_line(self.ctx.root, path, line) if path else ("", "")
        loc = f"{cap(self.ctx.relpath(path))}:{line}" if path else "(no source)"
        return f"{cap(frame.get('name') or '', NAME_CAP)} {loc}" + (f"  | {text}" if text else "") + (f" ({note})" if note else "")
