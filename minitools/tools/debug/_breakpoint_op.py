"""The `breakpoints` op (docs/tools.md, "debug"): a file's breakpoints stored in the book and, with
a session running, sent to the adapter; and how the adapter's answer reads, here and at launch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minitools.dap import DAPSession
from minitools.tools.debug._book import entry_json
from minitools.tools.debug._breakpoints import Entry, entries_of, entry_text, function_specs, read_lines, source_specs
from minitools.tools.debug._steps import DebugSteps, cap
from minitools.toolspec import ToolError, ToolResult

__all__ = ["BreakpointOp", "breakpoints_text", "fallbacks"]


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


def breakpoints_text(steps: DebugSteps, results: list[dict[str, Any]]) -> str:
    """The adapter's answer for each breakpoint: verified (and where it moved), or why not."""
    out = []
    for bp in results:
        if "function" in bp:
            where, kind = _spec_text({**bp, "line": bp["function"]}), "function breakpoint"
            bp = {**bp, "line": bp.get("actual_line")}
        else:
            where = f"{steps.ctx.relpath(bp['file'])}:{_spec_text(bp)}"
            kind = "log point" if "logMessage" in bp else "breakpoint"
        if bp.get("verified"):
            moved = f" (moved to line {bp['actual_line']})" if bp.get("actual_line", bp["line"]) != bp["line"] else ""
            out.append(f"{kind} {where}: verified{moved}")
        else:
            out.append(f"{kind} {where}: NOT verified — {cap(bp.get('message') or 'the adapter gave no reason')}")
        if bp.get("unsupported"):
            out.append(f"  the adapter does not support {' or '.join(bp['unsupported'])}: set as a plain breakpoint")
    return "\n".join(out)


def fallbacks(steps: DebugSteps, entries: list[Entry], rel: str, session: DAPSession, by_name: bool) -> list[str]:
    """What was done for function entries the adapter does not take by name."""
    if by_name:
        return []
    adapter = steps.slot.adapter.id if steps.slot.adapter else session.peer
    return [f"function {e.function}: " + (f"a line breakpoint on {rel}:{e.line}, the first line of its body found by the "
                                          f"parser ({adapter} has no function breakpoints)" if e.line else
                                          f"NOT set: {adapter} has no function breakpoints and no parser reads {rel}; "
                                          "give a line and symbol instead")
            for e in entries if e.function is not None]


class BreakpointOp:
    """`breakpoints(file, lines)`: allowed before launch (kept for it) and during a session."""

    def __init__(self, steps: DebugSteps) -> None:
        self.steps = steps

    async def op_breakpoints(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        path = str(steps.ctx.resolve_path(steps.need(args, "file"), what="file"))
        rel = steps.ctx.relpath(path)
        items = steps.need(args, "lines")
        lines = read_lines(path)
        entries = entries_of(items, path, rel, lines) if items else []
        slot, book = steps.slot, steps.book
        session = slot.session if slot.session is not None and slot.session.is_alive else None
        by_name = session is not None and session.has_function_breakpoints
        specs = source_specs(entries, by_name)
        functions = function_specs({**book, path: entries}) if by_name else []
        if session is not None and session.unsupported(specs + functions):
            adapter = slot.adapter.id if slot.adapter else session.peer
            raise ToolError(f"{adapter} does not support {' or '.join(session.unsupported(specs + functions))}; nothing "
                            f"was set in {rel}. Use plain lines, or a condition the adapter supports.")
        had_functions = any(e.function for e in book.get(path, []))
        steps.books.store(steps.ctx.conversation_id, path, entries, lines)
        data: dict[str, Any] = {"file": rel, "lines": [e.line for e in entries], "entries": [entry_json(e, rel) for e in entries]}
        if session is None:
            # one entry a line: an entry ends with its line's code, which may hold any punctuation
            what = (f"breakpoints in {rel}, set at launch:\n" + "\n".join(f"  {entry_text(e, rel)}" for e in entries)
                    if entries else f"breakpoints in {rel}: none (cleared).")
            note = ("\nA function breakpoint is set by name where the adapter takes them, else on the first line of the "
                    "function's body (shown)." if any(e.function for e in entries) else "")
            return ToolResult(True, what + note, {**data, "breakpoints": specs})
        results = await session.set_breakpoints(path, specs, steps.timeout)
        if by_name and (had_functions or any(e.function for e in entries)):
            results += await session.set_function_breakpoints(functions, steps.timeout)
        text = "\n".join(filter(None, [breakpoints_text(steps, results), *fallbacks(steps, entries, rel, session, by_name)]))
        return ToolResult(True, text or f"breakpoints in {rel} cleared.", {**data, "breakpoints": results})
