"""What the node adapter shows of one pause: its frames (node's own hidden), their scopes, the
children of objects (paged), expressions evaluated on a frame, the exception it stopped on.

DAP ↔ CDP (docs/architecture.md, "The node adapter"): a stack frame is a `Debugger.CallFrame`
of the `Debugger.paused` event, numbered here; a scope is one entry of its `scopeChain`, whose
`object` is expanded like any object; `variables` is `Runtime.getProperties` (own properties
and the internal ones such as `[[Entries]]`); `evaluate` is `Debugger.evaluateOnCallFrame`, or
`Runtime.evaluate` when the program runs. Every id and handle dies when the program resumes.
"""

from __future__ import annotations

from typing import Any

from minitools.inspector._scripts import Scripts, is_internal
from minitools.inspector._serve import RequestFailed
from minitools.inspector._session import CDPError, InspectorSession
from minitools.inspector._values import SCOPE_NAMES, Handles, render, type_name

__all__ = ["Pause", "evaluate", "log_message"]

GROUP = "minitools"  # the object group of everything the adapter asks V8 to keep
ASYNC_PARENTS = 8  # async callers followed up the chain of awaits
MAX_CHILDREN = 10_000  # children of one object in one answer (an array's items from `start`)
_ARRAY_SLICE = ("function (start, count) { const out = {}; const end = Math.min(this.length, start + count);"
                " for (let i = start; i < end; i++) out[i] = this[i]; return out; }")


class Pause:
    """One `Debugger.paused` and the handles made while it lasts."""

    def __init__(self, params: dict[str, Any], scripts: Scripts, first_frame_id: int) -> None:
        self.params = params
        self.handles = Handles()
        self.frames: dict[int, dict[str, Any]] = {}
        self.hidden = 0
        number = first_frame_id
        for frame in params.get("callFrames") or []:
            script = scripts.by_id.get(frame.get("location", {}).get("scriptId", ""))
            if is_internal(script.url if script else frame.get("url") or ""):
                self.hidden += 1
                continue
            self.frames[number] = frame
            number += 1
        if not self.frames:
            # every frame is node's own: a pause while the program waits comes to rest in node's
            # timer or I/O dispatch (V8 steps through blackboxed code once it is in it, ~60 steps to
            # the program's callback), so those frames are shown rather than none
            self.frames = {first_frame_id + i: f for i, f in enumerate(params.get("callFrames") or [])}
        self.scripts = scripts
        # the code that awaited, for a stop in an async function (Debugger.setAsyncCallStackDepth):
        # a label frame ("[await]") before each parent's frames; they have no scopes
        self.callers: dict[int, dict[str, Any]] = {}
        number = max(self.frames, default=first_frame_id - 1) + 1
        trace, depth = params.get("asyncStackTrace"), 0
        while isinstance(trace, dict) and depth < ASYNC_PARENTS:
            shown = [f for f in trace.get("callFrames") or [] if isinstance(f, dict) and not self._internal(f)]
            if shown:
                self.callers[number] = {"label": f"[{trace.get('description') or 'async'}]"}
                for offset, frame in enumerate(shown, 1):
                    self.callers[number + offset] = frame
                number += len(shown) + 1
            trace, depth = trace.get("parent"), depth + 1

    def _internal(self, frame: dict[str, Any]) -> bool:
        script = self.scripts.by_id.get(str(frame.get("scriptId")))
        return is_internal(script.url if script else str(frame.get("url") or ""))

    @property
    def next_frame_id(self) -> int:
        return max([*self.frames, *self.callers], default=0) + 1

    def frame(self, frame_id: int) -> dict[str, Any]:
        if frame_id in self.callers:
            raise RequestFailed(f"frame {frame_id} is code that awaited the stopped one: it has no scopes and nothing "
                                "evaluates there; use a frame above the first [await]")
        if frame_id not in self.frames:
            raise RequestFailed(f"frame {frame_id} is not a frame of the current stop; call stackTrace again")
        return self.frames[frame_id]

    def stack(self, start: int, levels: int) -> dict[str, Any]:
        """DAP stackTrace: the visible frames, then the async callers, from `start`, at most
        `levels` (0: all)."""
        out = []
        every = [*self.frames.items(), *self.callers.items()]
        for number, frame in every[start:start + levels if levels else None]:
            if "label" in frame:
                out.append({"id": number, "name": frame["label"], "line": 0, "column": 0, "presentationHint": "label"})
                continue
            loc = frame.get("location") or frame  # a paused frame's location, or an async caller's own fields
            path, line = self.scripts.location(str(loc["scriptId"]), loc["lineNumber"], loc.get("columnNumber", 0))
            item: dict[str, Any] = {"id": number, "name": frame.get("functionName") or "(anonymous)", "line": line,
                                    "column": loc.get("columnNumber", 0) + 1}
            if path:
                item["source"] = {"path": path, "name": path.rsplit("/", 1)[-1]}
            else:  # node's own script: its URL (node:internal/timers) in the name
                script = self.scripts.by_id.get(str(loc["scriptId"]))
                item["name"] += f" [{script.url if script and script.url else 'no source'}:{line}]"
            out.append(item)
        return {"stackFrames": out, "totalFrames": len(every)}

    def scopes(self, frame_id: int) -> dict[str, Any]:
        scopes = []
        for scope in self.frame(frame_id).get("scopeChain") or []:
            kind = scope.get("type", "")
            name = SCOPE_NAMES.get(kind, kind.title()) + (f" {scope['name']}" if scope.get("name") and kind == "closure" else "")
            scopes.append({"name": name, "variablesReference": self.handles.add(scope.get("object") or {}),
                           "expensive": kind == "global"})
        return {"scopes": scopes}

    def variable(self, name: str, remote: dict[str, Any]) -> dict[str, Any]:
        item = {"name": name, "value": render(remote), "type": type_name(remote),
                "variablesReference": self.handles.add(remote)}
        length = _length(remote)
        if length is not None:
            item["indexedVariables"] = length
        return item

    async def variables(self, cdp: InspectorSession, reference: int, start: int | None, count: int | None) -> dict[str, Any]:
        """DAP variables: the object's own properties (an array's items from `start`, `count` of them)."""
        remote = self.handles.get(reference)
        if remote is None:
            raise RequestFailed(f"reference {reference} is not an object of the current stop; the program resumed since")
        length = _length(remote)
        object_id = remote["objectId"]
        if length is not None and (start is not None or length > MAX_CHILDREN):
            first, many = start or 0, min(count or MAX_CHILDREN, MAX_CHILDREN)
            sliced = await cdp.request("Runtime.callFunctionOn", {"objectId": object_id, "functionDeclaration": _ARRAY_SLICE,
                                                                   "arguments": [{"value": first}, {"value": many}],
                                                                   "objectGroup": GROUP})
            object_id = sliced["result"].get("objectId", object_id)
        props = await cdp.request("Runtime.getProperties", {"objectId": object_id, "ownProperties": True,
                                                             "generatePreview": True, "objectGroup": GROUP})
        out = []
        for prop in (props.get("result") or [])[:MAX_CHILDREN]:
            if "value" in prop:
                out.append(self.variable(str(prop.get("name")), prop["value"]))
            elif prop.get("get") or prop.get("set"):
                out.append({"name": str(prop.get("name")), "value": "(getter)", "variablesReference": 0})
        for prop in props.get("internalProperties") or []:
            if "value" in prop and prop.get("name") != "[[Prototype]]":
                out.append(self.variable(str(prop.get("name")), prop["value"]))
        return {"variables": out}

    def exception_info(self) -> dict[str, Any]:
        """DAP exceptionInfo for a pause on an exception (CDP's `data` is the thrown value)."""
        if self.params.get("reason") not in ("exception", "promiseRejection"):
            raise RequestFailed("the program is not stopped on an exception")
        data = self.params.get("data") or {}
        description = str(data.get("description") or render(data) if data else "a value was thrown")
        name = str(data.get("className") or data.get("type") or "exception")
        # an Error's description is its stack, "Name: message" first (a SyntaxError's has the
        # file and the line's text before that): the message, without its name
        headline = next((line for line in description.split("\n") if line.startswith(name + ": ")), description.split("\n", 1)[0])
        return {"exceptionId": name, "description": headline.removeprefix(name + ": "), "headline": headline,
                "breakMode": "unhandled" if data.get("uncaught") else "always",
                "details": {"message": headline, "stackTrace": description}}


def _length(remote: dict[str, Any]) -> int | None:
    """An array's length from its description (`Array(120)`), else None."""
    if remote.get("subtype") not in ("array", "typedarray"):
        return None
    description = str(remote.get("description") or "")
    inside = description[description.find("(") + 1:description.find(")")] if "(" in description else ""
    return int(inside) if inside.isdigit() else None


async def evaluate(cdp: InspectorSession, pause: Pause | None, expression: str, frame_id: int | None) -> dict[str, Any]:
    """DAP evaluate: on the frame when the program is paused, else in its global scope."""
    try:
        if pause is not None and (frame_id is not None or pause.frames):
            frame = pause.frame(frame_id if frame_id is not None else next(iter(pause.frames)))
            answer = await cdp.request("Debugger.evaluateOnCallFrame", {
                "callFrameId": frame["callFrameId"], "expression": expression, "generatePreview": True, "objectGroup": GROUP})
        else:
            answer = await cdp.request("Runtime.evaluate", {"expression": expression, "generatePreview": True,
                                                            "objectGroup": GROUP})
    except CDPError as exc:
        raise RequestFailed(exc.message) from None
    details = answer.get("exceptionDetails")
    if details:
        thrown = details.get("exception") or {}
        raise RequestFailed(str(thrown.get("description") or details.get("text") or "it threw").split("\n", 1)[0])
    remote = answer.get("result") or {}
    handles = pause.handles if pause is not None else None
    return {"result": render(remote), "type": type_name(remote),
            "variablesReference": handles.add(remote) if handles is not None else 0}


async def log_message(cdp: InspectorSession, pause: Pause, expression: str) -> str:
    """A log point's message: its template literal evaluated on the paused top frame, as text
    (what it threw, in brackets, when it throws)."""
    frame = next(iter(pause.frames.values()))
    try:
        answer = await cdp.request("Debugger.evaluateOnCallFrame", {"callFrameId": frame["callFrameId"], "expression": expression,
                                                                     "returnByValue": True, "silent": True})
    except CDPError as exc:
        return f"[log point failed: {exc.message}]"
    details = answer.get("exceptionDetails")
    if details:
        thrown = (details.get("exception") or {}).get("description") or details.get("text") or "it threw"
        return f"[log point failed: {str(thrown).splitlines()[0]}]"
    value = (answer.get("result") or {}).get("value")
    return value if isinstance(value, str) else render(answer.get("result") or {})
