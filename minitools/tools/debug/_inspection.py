"""Inspection (docs/tools.md, "debug"): a session's `threads`, a thread's `stack`, a frame's
`scopes`, a reference's `variables` a page at a time, `evaluate` on a frame, and the program's
`output` since the last call; each capped so an adapter's answer cannot flood a reply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minitools.dap import DAPError, RunState
from minitools.tools.debug._steps import NAME_CAP, DebugSteps, cap, more
from minitools.toolspec import ToolError, ToolResult

__all__ = ["Inspection"]

STACK_CAP = 30
LIST_CAP = 100  # threads or scopes shown
VARIABLES_CAP = 50
PSEUDO = {"special variables", "function variables", "class variables", "protected variables"}


def _var_text(v: dict[str, Any]) -> str:
    typ = f": {cap(v['type'], NAME_CAP)}" if v.get("type") else ""
    ref = f" (reference {v['variablesReference']})" if v.get("variablesReference") else ""
    return f"{cap(v['name'], NAME_CAP)}{typ} = {cap(str(v.get('value', '')))}{ref}"


class Inspection:
    """The ops that read the program's state without running it."""

    def __init__(self, steps: DebugSteps) -> None:
        self.steps = steps

    async def op_threads(self, args: Mapping[str, Any]) -> ToolResult:
        s = self.steps.session()
        threads = (await s.request("threads", {}, self.steps.timeout)).get("threads") or []
        shown = [{"id": t["id"], "name": cap(t.get("name") or "", NAME_CAP)} for t in threads[:LIST_CAP]]
        text = "\n".join(f"thread {t['id']}: {t['name']}" for t in shown) + more(len(threads) - len(shown), "threads")
        return ToolResult(True, text or "no threads", {"threads": shown, "more": len(threads) - len(shown)})

    async def op_stack(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        s = steps.session()
        thread = await steps.thread(s, args)
        body = await s.request("stackTrace", {"threadId": thread, "startFrame": 0, "levels": STACK_CAP}, steps.timeout)
        frames = (body.get("stackFrames") or [])[:STACK_CAP]
        total = body.get("totalFrames") or len(frames)
        text = "\n".join(f"#{i} frame {f['id']}: {steps.frame_text(f)}" for i, f in enumerate(frames))
        if total > len(frames):
            text += f"\n… {total - len(frames)} more frames"
        return ToolResult(True, text or "no frames", {"frames": [{"id": f["id"], "name": cap(f.get("name") or "", NAME_CAP), "line": f.get("line"),
                                                                   "file": cap((f.get("source") or {}).get("path") or "")} for f in frames]})

    async def op_scopes(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        s = steps.session()
        scopes = (await s.request("scopes", {"frameId": int(steps.need(args, "frame_id"))}, steps.timeout)).get("scopes") or []
        shown = [{"name": cap(sc["name"], NAME_CAP), "reference": sc["variablesReference"]} for sc in scopes[:LIST_CAP]]
        text = "\n".join(f"{sc['name']}: reference {sc['reference']}" for sc in shown) + more(len(scopes) - len(shown), "scopes")
        return ToolResult(True, text or "no scopes", {"scopes": shown})

    async def op_variables(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        s = steps.session()
        ref = int(steps.need(args, "reference"))
        children = (await s.request("variables", {"variablesReference": ref}, steps.timeout)).get("variables") or []
        pseudo = list({v["name"]: v for v in children if v.get("name") in PSEUDO}.values())  # one row per kind
        real = [v for v in children if v.get("name") not in PSEUDO]
        start = int(args.get("start") or 0)
        page = real[start:start + VARIABLES_CAP]
        rows = [_var_text(v) for v in page]
        rows += [f"{v['name']} (reference {v['variablesReference']})" for v in pseudo]
        rest = len(real) - start - len(page)
        if rest > 0:
            rows.append(f"… {rest} more (call variables with start={start + len(page)})")
        data = [{"name": cap(v["name"], NAME_CAP), "value": cap(str(v.get("value", ""))), "type": cap(v.get("type") or "", NAME_CAP),
                 "reference": v.get("variablesReference", 0)} for v in page]
        return ToolResult(True, "\n".join(rows) or "no children", {"variables": data, "more": max(rest, 0)})

    async def op_evaluate(self, args: Mapping[str, Any]) -> ToolResult:
        steps = self.steps
        s = steps.session()
        expression = steps.need(args, "expression")
        frame = args.get("frame_id")
        if frame is None and s.stop.state is RunState.STOPPED:
            thread = await steps.thread(s, args)
            frames = (await s.request("stackTrace", {"threadId": thread, "startFrame": 0, "levels": 1}, steps.timeout)).get("stackFrames") or []
            frame = frames[0]["id"] if frames else None
        req: dict[str, Any] = {"expression": expression, "context": "repl"}
        if frame is not None:
            req["frameId"] = int(frame)
        try:
            body = await s.request("evaluate", req, steps.timeout)
        except DAPError as exc:
            raise ToolError(f"evaluating {expression!r} failed: {exc.message}", data={"error": exc.message}) from None
        value = cap(str(body.get("result", "")))
        ref = body.get("variablesReference", 0)
        return ToolResult(True, f"{expression} = {value}" + (f" (reference {ref})" if ref else ""),
                          {"result": value, "type": body.get("type"), "reference": ref})

    async def op_output(self, args: Mapping[str, Any]) -> ToolResult:
        slot = self.steps.slot
        if slot.session is None:
            return await self.steps.status(args)
        lines, dropped = slot.session.output.take()
        text = "\n".join(lines) if lines else "(no new output)"
        if dropped:
            text = f"… {dropped} earlier lines dropped\n" + text
        return ToolResult(True, text, {"lines": lines, "dropped": dropped})
